"""Fitting a bot's reaction time to measured reactions (bots/fit.py)."""

from __future__ import annotations

import random

import pytest

from spit.bots.fit import (
    DEFAULT_LEVEL,
    MIN_SAMPLES,
    closest_level,
    fit_reaction,
    level_medians,
    typical_delay,
)
from spit.bots.reaction import REACTIONS, Reaction
from spit.engine.actions import Kind


@pytest.mark.parametrize(
    "true",
    [Reaction(mu=0.7, sigma=0.15, tau=0.25), Reaction(mu=1.2, sigma=0.3, tau=0.6)],
)
def test_fitted_parameters_reproduce_a_known_distribution(true: Reaction) -> None:
    rng = random.Random(5)
    samples = [true.delay(Kind.PLAY, rng) for _ in range(40_000)]
    fitted = fit_reaction(samples)
    assert fitted.mu == pytest.approx(true.mu, abs=0.05)
    assert fitted.sigma == pytest.approx(true.sigma, abs=0.05)
    assert fitted.tau == pytest.approx(true.tau, abs=0.05)
    # and a bot drawing from the fit is as fast as the player: the same median
    assert typical_delay(fitted) == pytest.approx(typical_delay(true), rel=0.03)


def test_too_few_reactions_give_the_default_level() -> None:
    assert fit_reaction([0.5] * (MIN_SAMPLES - 1)) == REACTIONS[DEFAULT_LEVEL]
    assert fit_reaction([float("nan")] * 100) == REACTIONS[DEFAULT_LEVEL]


def test_odd_data_still_gives_a_playable_reaction() -> None:
    flat = fit_reaction([0.5] * 100)  # no spread at all
    assert 0.45 <= flat.mu <= 0.5 and flat.sigma > 0 and flat.tau > 0
    skewed_left = fit_reaction([2.0] * 90 + [0.2] * 10)  # a tail to the left: no tau
    assert skewed_left.tau == pytest.approx(0.01)


def test_each_level_is_its_own_closest_level() -> None:
    medians = level_medians()
    assert list(medians) == ["easy", "medium", "hard", "expert"]
    assert medians["easy"] > medians["medium"] > medians["hard"] > medians["expert"]
    for level, median in medians.items():
        assert closest_level(median) == level
    assert closest_level(10.0) == "easy"
    assert closest_level(0.05) == "expert"
