"""Fitting reaction times: a bot as fast as a measured player.

A ``Reaction`` is an ex-Gaussian (a normal part plus an exponential tail). Its
three parameters follow from the first three moments of measured reaction
times: mean = mu + tau, variance = sigma^2 + tau^2, third central moment =
2 tau^3. That is the method of moments; it needs no optimiser, and with a
few dozen reactions it is close enough to make a game even.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence

from spit.bots.reaction import REACTIONS, Reaction
from spit.engine.actions import Kind

#: Fewer reactions than this and the fit falls back to ``DEFAULT_LEVEL``'s reaction.
MIN_SAMPLES = 30
DEFAULT_LEVEL = "medium"
#: The bounds a fitted parameter is kept within (seconds).
MU_RANGE = (0.15, 5.0)
SIGMA_RANGE = (0.02, 2.0)
TAU_RANGE = (0.01, 3.0)


def _clamp(value: float, bounds: tuple[float, float]) -> float:
    return min(max(value, bounds[0]), bounds[1])


def fit_reaction(samples: Sequence[float]) -> Reaction:
    """The ex-Gaussian ``Reaction`` whose moments match ``samples`` (seconds).

    With fewer than ``MIN_SAMPLES`` usable times (finite, 0-60 s) the default
    level's reaction is returned. Parameters are kept within sensible bounds,
    so odd data (no tail, a huge tail) still gives a playable bot.
    """
    times = [t for t in samples if math.isfinite(t) and 0 <= t <= 60]
    if len(times) < MIN_SAMPLES:
        return REACTIONS[DEFAULT_LEVEL]
    mean = statistics.fmean(times)
    var = statistics.pvariance(times, mean)
    third = statistics.fmean([(t - mean) ** 3 for t in times])
    sd = math.sqrt(var)
    tau = (third / 2.0) ** (1.0 / 3.0) if third > 0 else 0.0
    tau = min(tau, 0.9 * sd)  # leave the normal part some spread
    sigma = math.sqrt(max(var - tau * tau, 0.0))
    mu = mean - tau
    return Reaction(
        mu=round(_clamp(mu, MU_RANGE), 4),
        sigma=round(_clamp(sigma, SIGMA_RANGE), 4),
        tau=round(_clamp(tau, TAU_RANGE), 4),
    )


def typical_delay(reaction: Reaction, draws: int = 4001) -> float:
    """The median delay of a play under ``reaction`` (from a fixed-seed sample)."""
    rng = random.Random(20240101)
    return statistics.median(reaction.delay(Kind.PLAY, rng) for _ in range(draws))


_TYPICAL: dict[str, float] = {}


def level_medians() -> dict[str, float]:
    """Each computer level's median play delay in seconds, weakest level first."""
    if not _TYPICAL:
        for level, reaction in REACTIONS.items():
            _TYPICAL[level] = typical_delay(reaction)
    return dict(_TYPICAL)


def closest_level(median: float) -> str:
    """The computer level whose median reaction is nearest ``median`` (by ratio)."""
    if not median > 0:
        raise ValueError("a median reaction must be above 0 seconds")
    medians = level_medians()
    return min(medians, key=lambda level: abs(math.log(medians[level] / median)))
