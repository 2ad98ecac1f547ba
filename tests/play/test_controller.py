"""The game screen's controller, without Textual: ticks, wake-ups, pauses, effects, bell."""

from __future__ import annotations

from tests.support import FakeClock, deal

from spit.engine import card
from spit.play.controller import MIN_WAIT, GameController
from spit.play.effects import DURATION, GRID, SLACK, EffectKind, Effects
from spit.play.keys import KeyMap
from spit.play.session import Session

#: P1's 6D fits the left pile (5C); P2's QD fits the right pile (KD)
PLAYABLE = (("6D 8C 9C 10C JC", "6H QD 9D 10D JD"), ("5C", "KD"))
#: no stock top is next to a 5: stalemate right after the opening spit
STUCK = (("8C 9C 10C JC QC", "8D 9D 10D JD QD"), ("5C 5H", "5D 5S"))


def controller(
    clock: FakeClock, tops=PLAYABLE, effects: bool = True, sound: bool = False
) -> GameController:
    session = Session.local(deal(*tops), KeyMap.default(), clock=clock)
    return GameController(session, real_time=True, effects=Effects(effects), sound=sound)


def opened(clock: FakeClock, **kwargs: object) -> GameController:
    """Both players called: the game is in play."""
    c = controller(clock, **kwargs)  # type: ignore[arg-type]
    for key in ("1", "0"):
        c.press(key, clock(), clock())
        c.tick(clock())
    return c


def test_a_played_card_marks_its_slot_and_pile_until_the_mark_ends() -> None:
    clock = FakeClock()
    c = opened(clock)
    assert c.press("q", clock(), clock())  # P1's 6D onto the left pile
    update = c.tick(clock())
    assert update.repaint
    kinds = {(m.kind, m.player, m.column, m.pile) for m in c.effects.active(clock())}
    assert (EffectKind.FROM, 0, 0, None) in kinds and (EffectKind.TO, 0, None, 0) in kinds
    # the screen is woken when the marks end, then the board is drawn without them
    wait = c.wait(clock())
    assert wait is not None and wait <= DURATION[EffectKind.FROM] + GRID + SLACK
    clock.advance(DURATION[EffectKind.FROM] + GRID)  # (any tick after the end draws it off)
    assert c.tick(clock()).repaint
    assert c.effects.active(clock()) == ()


def test_a_key_during_an_effect_acts_at_once() -> None:
    clock = FakeClock()
    c = opened(clock)
    c.press("q", clock(), clock())
    c.tick(clock())
    assert c.effects.active(clock())
    c.press("j", clock(), clock())  # P2's QD onto KD, while P1's marks show
    c.tick(clock())
    assert c.session.game.piles[1][-1] == card("Q", "D")


def test_effects_turned_off_leave_no_marks_and_no_wake_up_for_them() -> None:
    clock = FakeClock()
    c = opened(clock, effects=False)
    c.press("q", clock(), clock())
    c.tick(clock())
    assert c.effects.active(clock()) == () and c.effects.next_end() is None


def test_an_idle_game_after_the_marks_end_asks_for_no_wake_up_of_theirs() -> None:
    clock = FakeClock()
    c = opened(clock)
    c.press("q", clock(), clock())
    c.tick(clock())
    clock.advance(1.0)
    c.tick(clock())
    assert c.effects.next_end() is None
    wait = c.wait(clock())
    session_wait = c.session.next_wakeup(clock())
    if session_wait is None:
        assert wait is None
    else:
        assert wait == max(MIN_WAIT, session_wait - clock())


def test_pauses_stop_the_clock_until_the_last_reason_goes_and_keys_wait() -> None:
    clock = FakeClock()
    c = opened(clock)
    c.set_paused("help", True, clock())
    c.set_paused("size", True, clock())
    assert c.paused and c.session.arbiter.paused
    assert c.wait(clock()) is None
    top = c.session.game.piles[0][-1]
    assert c.press("q", clock(), clock())  # a game key, but ignored while paused
    c.tick(clock())
    assert c.session.game.piles[0][-1] == top
    c.set_paused("help", False, clock())
    assert c.session.arbiter.paused  # still too small
    c.set_paused("size", False, clock())
    assert not c.paused and not c.session.arbiter.paused


def test_a_key_that_is_no_game_key_is_not_taken() -> None:
    clock = FakeClock()
    c = opened(clock)
    assert not c.press("f1", clock(), clock())


def test_the_bell_rings_on_a_stalemate_only_with_the_sound_on() -> None:
    for sound in (False, True):
        clock = FakeClock()
        c = controller(clock, STUCK, sound=sound)
        bells = []
        for key in ("1", "0"):  # the opening spit: and at once a stalemate
            c.press(key, clock(), clock())
            bells.append(c.tick(clock()).bell)
        assert any(bells) is sound


def test_a_resumed_game_says_where_it_stands_on_the_news_line() -> None:
    clock = FakeClock()
    c = opened(clock)
    version = c.session.version
    assert c.resumed() == "Resumed: round 1"
    assert c.session.news == "Resumed: round 1" and c.session.version > version


def test_the_next_keys_update_draws_the_last_keys_marks_off() -> None:
    """Keys pressed fast: a mark past its end goes with the next key's own update."""
    clock = FakeClock()
    c = opened(clock)
    c.press("q", clock(), clock())  # P1's 6D onto the left pile
    c.tick(clock())
    first = c.effects.marks[0]
    clock.advance(first.until - clock() + 0.01)  # just past its end, before the wake-up
    wait = c.wait(clock())
    assert wait is not None and wait > 0.05  # not woken for it yet
    c.press("j", clock(), clock())  # P2's QD onto the right pile
    assert c.tick(clock()).repaint
    assert first not in c.effects.active(clock())
    assert {m.player for m in c.effects.active(clock())} == {1}
