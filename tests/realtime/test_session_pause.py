"""The session's pause keeps what the arbiter settled just before it."""

from __future__ import annotations

from tests.support import FakeClock, deal

from spit.engine import Phase, call, play
from spit.play.session import Session
from spit.realtime.arbiter import Outcome


def test_a_play_made_just_before_a_pause_reaches_the_listeners(clock: FakeClock) -> None:
    # Piles 5C and KD after the opening; player 1's first stock shows the 6D.
    game = deal(("6D JC JS QC QS", "6H JD JH QD QH"), ("5C 5H", "KD KC"))
    game.apply(call(0))
    game.apply(call(1))
    assert game.phase is Phase.PLAY
    session = Session.local(game, clock=clock)
    seen: list[Outcome] = []
    session.listeners.append(seen.extend)
    t = clock()
    assert session.press("q", t)  # top row, first stock: play it on the left pile
    session.pause(t + 0.01)  # no tick ran in between
    assert [o.action for o in seen] == [play(0, 0, 0)]
    assert "6" in session.news
