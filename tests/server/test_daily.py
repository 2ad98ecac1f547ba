"""The daily challenge's deal: fixed by the date and the mode."""

from __future__ import annotations

from datetime import date

from spit.server.daily import challenge_for, daily_seed


def test_the_same_day_and_mode_give_the_same_seed_everywhere() -> None:
    assert daily_seed(date(2026, 12, 1), "spit") == daily_seed(date(2026, 12, 1), "spit")
    # a fixed value: a node with another Python or machine deals the same game
    assert daily_seed(date(2026, 12, 1), "spit") == 0x2A0EBCBEBF091092


def test_days_and_modes_give_different_seeds() -> None:
    seeds = {daily_seed(date(2026, 12, d), m) for d in range(1, 29) for m in ("spit", "speed")}
    assert len(seeds) == 56
    assert all(0 <= s < 2**63 for s in seeds)


def test_the_share_line_gives_no_card_away() -> None:
    line = challenge_for(date(2026, 12, 1), "spit").share_line(True, 83.25, 4)
    assert line == "spit daily Spit 2026-12-01: won against medium in 83.2 s, a 4-day streak"
