"""H8 on the board: a fumble is said once and its player's line shows the hands-off time."""

from __future__ import annotations

from tests.support import FakeClock, deal

from spit.engine import Phase, card
from spit.play.session import Session
from spit.realtime.arbiter import Timing
from spit.tui.widgets.board import board_texts

# Left pile 5C, right pile KD. Player 1's stock 1 is a 6 (fits the left pile),
# stock 2 a jack (fits neither pile).
TOPS = ("6D JC JS QC QS", "6H JD JH QD QH")


def started(clock: FakeClock) -> Session:
    game = deal(TOPS, ("5C 5H", "KD KC"))
    session = Session.local(game, timing=Timing(fumble_time=0.5), clock=clock)
    session.press("1", clock())
    session.press("0", clock())
    session.tick(clock())
    assert game.phase is Phase.PLAY
    return session


def test_H8_a_fumble_is_said_once_and_shown_on_the_players_line(clock: FakeClock) -> None:
    session = started(clock)
    t = clock.advance(1.0)
    session.press("w", t)  # jack onto 5C: a blind card
    session.tick(t)
    flash = session.flash
    assert flash is not None and "fumble" in flash.text and flash.player == 0
    assert 0 in session.fumbled
    line = board_texts(session, t)["p1-info"].plain
    assert "FUMBLE" in line and "hands off" in line
    assert "FUMBLE" not in board_texts(session, t)["p2-info"].plain
    # more presses inside the fumble time: refused without a word each
    for k, key in enumerate("qsdf"):
        session.press(key, t + 0.05 * (k + 1))
    session.tick(t + 0.3)
    assert session.flash is not None and session.flash.count == 1
    assert session.flash.text == flash.text
    assert session.game.piles[0][-1] == card("5", "C")  # nothing was tried
    # when the fumble time ends the mark goes, and the board is woken for it
    assert session.next_wakeup(t + 0.3) is not None
    assert session.next_wakeup(t + 0.3) <= t + 0.5  # type: ignore[operator]
    session.tick(t + 0.5)
    assert session.fumbled == {}
    assert "FUMBLE" not in board_texts(session, t + 0.5)["p1-info"].plain
    session.press("q", t + 0.6)  # now the six is tried, and lands
    session.tick(t + 0.6)
    assert session.game.piles[0][-1] == card("6", "D")


def test_H8_without_fumbles_a_blind_card_is_only_refused(clock: FakeClock) -> None:
    game = deal(TOPS, ("5C 5H", "KD KC"))
    session = Session.local(game, timing=Timing(fumble_time=0), clock=clock)
    session.press("1", clock())
    session.press("0", clock())
    session.tick(clock())
    t = clock.advance(1.0)
    session.press("w", t)
    session.tick(t)
    assert session.flash is not None and "fumble" not in session.flash.text
    assert session.fumbled == {}
