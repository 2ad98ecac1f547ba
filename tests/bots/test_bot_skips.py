"""Which bots let the arbiter skip positions in which they cannot act."""

from __future__ import annotations

from spit.bots import make_bot


def test_spit_bots_skip_and_remembering_speed_bots_do_not() -> None:
    assert make_bot("expert", 0, mode="spit").skips_when_stuck
    assert make_bot("easy", 0, mode="speed").skips_when_stuck
    # expert Speed bots remember the cards they saw: they must see every position
    assert not make_bot("expert", 0, mode="speed").skips_when_stuck
