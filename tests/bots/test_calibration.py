"""Calibration, reduced: each level beats the one below, and skill is not only speed.

The full tables (1,000 games each) are in docs/bots.md; these runs are small,
so the bars are set below the measured rates with room for sampling noise
(at 40 games the standard error of a 90% rate is under 5 points).
"""

from __future__ import annotations

import dataclasses

import pytest

from spit.bots import LEVELS, STYLES
from spit.bots.sim import Seat, simulate

PAIRS = list(zip(LEVELS[1:], LEVELS[:-1], strict=True))


@pytest.mark.parametrize("mode", ["spit", "speed"])
@pytest.mark.parametrize(("stronger", "weaker"), PAIRS)
def test_each_level_beats_the_level_below(mode: str, stronger: str, weaker: str) -> None:
    games = 30 if mode == "spit" else 60
    summary = simulate((Seat.parse(stronger), Seat.parse(weaker)), games, seed=77, mode=mode)
    assert summary.wins[0] / games >= 0.65


def test_expert_strategy_beats_easy_strategy_at_equal_reaction_time_in_spit() -> None:
    seats = (Seat("expert", "medium"), Seat("easy", "medium"))
    summary = simulate(seats, 40, seed=78)
    assert summary.wins[0] / 40 > 0.7  # measured about 90% over 1,000 games


def test_expert_strategy_beats_easy_strategy_at_equal_reaction_time_in_speed() -> None:
    seats = (Seat("expert", "medium"), Seat("easy", "medium"))
    summary = simulate(seats, 400, seed=79, mode="speed")
    assert summary.wins[0] / 400 > 0.58  # measured 67.5% over 1,000 games; SE here 2.4 points


def test_expert_speed_strategy_wins_by_play_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    # Anticipation (a planned play made faster) is switched off for every
    # style, so only the choice of plays differs: card memory must carry it.
    for name, style in list(STYLES.items()):
        monkeypatch.setitem(STYLES, name, dataclasses.replace(style, anticipation=1.0))
    expert, easy = Seat("expert", "medium"), Seat("easy", "medium")
    first = simulate((expert, easy), 400, seed=80, mode="speed")
    second = simulate((easy, expert), 400, seed=81, mode="speed")
    won = first.wins[0] + second.wins[1]
    lost = first.wins[1] + second.wins[0]
    assert won / (won + lost) > 0.52  # measured about 56-57% over 1,000s; SE here 1.8 points
