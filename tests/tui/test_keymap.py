"""The key map: defaults, remapping from plain data, conflicts, and held-key repeats."""

from __future__ import annotations

import pytest
from tests.support import FakeClock
from tui_helpers import playable

from spit.engine import Phase, call, move, play, slap
from spit.play.keys import (
    APP_KEYS,
    DEFAULT_KEYS,
    FOCUS_KEY,
    Binding,
    KeyMap,
    KeyMapError,
    Row,
    check_key,
    default_keys,
    key_of_event,
)
from spit.play.session import Session


def test_default_map_is_the_one_of_the_design_notes() -> None:
    keys = KeyMap.default()
    assert keys.lookup("q") == Binding(0, Row.LEFT, 0)
    assert keys.lookup("g") == Binding(0, Row.RIGHT, 4)
    assert keys.lookup("b") == Binding(0, Row.MOVE, 4)
    assert keys.lookup("1") == Binding(0, Row.CALL, 0)
    assert keys.lookup("y") == Binding(1, Row.LEFT, 0)
    assert keys.lookup(";") == Binding(1, Row.RIGHT, 4)
    assert keys.lookup("/") == Binding(1, Row.MOVE, 4)
    assert keys.lookup("0") == Binding(1, Row.CALL, 0)
    assert keys.lookup("escape") is None and keys.lookup("space") is None


def test_textual_key_names_and_capitals_map_to_the_same_key() -> None:
    assert key_of_event("semicolon", ";") == ";"
    assert key_of_event("Q", "Q") == "q"  # caps lock
    assert key_of_event("full_stop", ".") == "."
    assert key_of_event("space", " ") == "space"
    assert key_of_event("f1", None) == "f1"


def remapped(player: int, **changes: str) -> tuple[dict[str, str], dict[str, str]]:
    """The default key maps with some of ``player``'s actions on other keys."""
    maps = default_keys()
    maps[player].update(changes)
    return maps


def test_from_keys_remaps_from_the_settings_form() -> None:
    keys = KeyMap.from_keys(remapped(1, right5="9", spit="8"))
    assert keys.lookup("8") == Binding(1, Row.CALL, 0)
    assert keys.lookup("0") is None and keys.lookup(";") is None
    assert keys.lookup("9") == Binding(1, Row.RIGHT, 4)
    assert keys.key(1, Row.RIGHT, 4) == "9" and keys.calls == ("1", "8")
    assert KeyMap.from_keys(keys.keys) == keys


def test_from_keys_reports_every_conflict() -> None:
    with pytest.raises(KeyMapError) as info:
        KeyMap.from_keys(remapped(1, left1="q", left2="w", left3="x", spit="1"))
    message = str(info.value)
    assert "key 'q' is used twice: player 1 left1 and player 2 left1" in message
    assert "'w'" in message and "'x'" in message
    assert "key '1' is used twice" in message


@pytest.mark.parametrize(
    ("maps", "window", "words"),
    [
        (remapped(0, spit="escape"), 0.5, "reserved"),
        (remapped(0, spit="tab"), 0.5, "reserved"),
        (remapped(0, spit="ctrl+a"), 0.5, "Ctrl keys are not allowed"),
        (remapped(0, left1="qw"), 0.5, "exactly one character"),
        (
            ({k: v for k, v in DEFAULT_KEYS[0].items() if k != "move3"}, DEFAULT_KEYS[1]),
            0.5,
            "player 1 has no key for move3",
        ),
        (DEFAULT_KEYS, 5, "repeat_window"),
        (DEFAULT_KEYS, True, "repeat_window"),
    ],
)
def test_from_keys_refuses_bad_maps_with_a_reason(
    maps: tuple[dict[str, str], dict[str, str]], window: float, words: str
) -> None:
    with pytest.raises(KeyMapError, match=words):
        KeyMap.from_keys(maps, window)


def test_the_app_keys_are_exactly_what_the_board_and_the_app_bind() -> None:
    from spit.tui.app import SpitApp
    from spit.tui.screens import GameScreen

    bound = {b.key for b in GameScreen.BINDINGS} | {b.key for b in SpitApp.BINDINGS}
    assert set(APP_KEYS) == bound | {FOCUS_KEY}
    assert check_key("?") is None  # nothing binds it, so a player may


def session_in_play(clock: FakeClock, window: float = 0.5) -> Session:
    keys = KeyMap.from_keys(DEFAULT_KEYS, window)
    session = Session.local(playable(), keys, clock=clock)
    session.press("1", clock())
    session.press("0", clock())
    session.tick(clock())
    assert session.game.phase is Phase.PLAY
    return session


def test_keys_mean_plays_moves_calls_and_slaps_by_phase(clock: FakeClock) -> None:
    session = session_in_play(clock)
    assert session.action_for(Binding(0, Row.LEFT, 2)) == play(0, 2, 0)
    assert session.action_for(Binding(1, Row.RIGHT, 4)) == play(1, 4, 1)
    assert session.action_for(Binding(0, Row.MOVE, 3)) == move(0, 3)
    session.game.phase = Phase.STALEMATE  # any key calls in a stalemate (H2)
    assert session.action_for(Binding(1, Row.MOVE, 0)) == call(1)
    session.game.phase = Phase.SLAP
    assert session.action_for(Binding(0, Row.LEFT, 3)) == slap(0, 0)
    assert session.action_for(Binding(1, Row.RIGHT, 0)) == slap(1, 1)
    assert isinstance(session.action_for(Binding(0, Row.MOVE, 0)), str)


def test_held_key_repeats_are_ignored_but_a_new_press_counts(clock: FakeClock) -> None:
    session = session_in_play(clock, window=0.5)
    t = clock.advance(1.0)
    game = session.game
    # A held 'q': first press plays 6D, then the repeats (first after 0.4 s, then every 33 ms).
    presses = [t, t + 0.4, *(t + 0.4 + 0.033 * k for k in range(1, 20))]
    for at in presses:
        session.press("q", at)
    session.tick(presses[-1])
    played = [a for _, a in session.arbiter.log if a == play(0, 0, 0)]
    assert len(played) == 1
    assert [used for _, key, used in session.inputs if key == "q"] == [True] + [False] * 20
    # After a pause longer than the window the same key counts again.
    session.press("q", presses[-1] + 0.6)
    assert session.inputs[-1][2] is True
    assert game.phase is Phase.PLAY


def test_repeat_window_is_per_key(clock: FakeClock) -> None:
    session = session_in_play(clock)
    t = clock.advance(1.0)
    session.press("q", t)
    session.press("j", t + 0.01)  # the other player's key, at once
    session.press("w", t + 0.02)  # another key of the same player
    assert [used for _, _, used in session.inputs[-3:]] == [True, True, True]
