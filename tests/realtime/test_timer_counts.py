"""H6 and P4's waits restart from the game's own counts, for every mode.

The timers read ``Game.phase_count`` and ``Game.progress_count`` instead of
events. A mode that only builds events (as a new mode would, through
``Game.apply``) must still restart them: ``Game.apply`` counts its events.
"""

from __future__ import annotations

from tests.support.duel import DuelGame

from spit.engine import call
from spit.realtime.timers import Timers, Timing


def test_h6_a_mode_that_only_builds_events_still_restarts_the_stall_wait() -> None:
    game = DuelGame(None, 3)
    timers = Timers(Timing(), 0.0, game)
    for p in (0, 1):
        game.apply(call(p))
        timers.saw(1.0)
    assert timers.phase_since == 1.0  # the opening's end: a phase change
    play = game.legal_actions(0)[0] if game.legal_actions(0) else game.legal_actions(1)[0]
    progress = game.progress_count
    game.apply(play)
    timers.saw(2.5)
    assert game.progress_count != progress
    assert timers.progress_at == 2.5 and timers.phase_since == 1.0
