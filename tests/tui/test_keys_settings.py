"""The settings screen's key remapping, choice fields, and the Speed match draw (issue 6).

Every test runs with SPIT_CONFIG and SPIT_DATA_DIR in its own tmp_path
(``isolated_dirs`` in conftest.py).
"""

from __future__ import annotations

import pytest
from tests.support import FakeClock
from tests.support.pilot import running
from tui_helpers import playable, screen_of

from spit.engine import SYSTEM, Phase, SpeedConfig, SpeedGame, call, card
from spit.engine.actions import FLIP
from spit.play.keys import DEFAULT_KEYS, KeyProblem, rebind
from spit.play.texts import keys_text
from spit.realtime.arbiter import Timing
from spit.store.paths import config_path
from spit.store.settings import Settings as UserSettings
from spit.store.settings import load_settings, save_settings
from spit.tui.app import AppDependencies, Opening, SpitApp
from spit.tui.dialogs import RoundScreen, SettingsScreen
from spit.tui.launch import configured_app
from spit.tui.remap import KeysScreen
from spit.tui.screens import GameScreen


def message(app: SpitApp) -> str:
    return str(app.screen.query_one("#keys-message").render())


async def open_keys(app: SpitApp, pilot) -> KeysScreen:
    """Title menu -> Settings -> the "Keys…" button."""
    app.push_screen(SettingsScreen(app.settings, app.deps.save_settings))
    await pilot.pause()
    await pilot.click("#keys")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, KeysScreen)
    return screen


async def test_remapped_key_is_saved_and_plays_after_a_reload() -> None:
    app = configured_app(deps=AppDependencies(clock=FakeClock(), record=False))
    async with running(app) as pilot:
        screen = await open_keys(app, pilot)
        # the cursor starts on player 1's "play stock 1 on the left pile" (q)
        await pilot.press("enter", "7")
        await pilot.pause()
        assert screen.keys[0]["left1"] == "7"
        assert not config_path().exists()  # nothing is written before ctrl+s
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "Saved to" in message(app)
        # the app uses the new map at once: help and keys screens show it
        assert (
            app.settings.keymap.lookup("7") is not None and app.settings.keymap.lookup("q") is None
        )
        assert "`7 w e r t`" in keys_text(app.settings.keymap)
    saved, warnings = load_settings()
    assert warnings == [] and saved.keys[0]["left1"] == "7"
    # a new app from the config file: 7 plays stock 1 on the left pile, q does nothing
    clock = FakeClock()
    fresh = configured_app(
        Opening("spit"), deps=AppDependencies(clock=clock, game_factory=lambda *_: playable())
    )
    async with running(fresh) as pilot:
        game = screen_of(fresh).session.game
        await pilot.press("1", "0")  # both call spit (R5)
        assert game.phase is Phase.PLAY
        await pilot.press("q")
        await pilot.pause()
        assert game.piles[0][-1] == card("5", "C") and game.stocks[0][0][-1] == card("6", "D")
        clock.advance(1.0)
        await pilot.press("7")
        await pilot.pause()
        assert game.piles[0][-1] == card("6", "D")


async def test_reserved_and_duplicate_keys_are_refused_and_nothing_saved() -> None:
    app = configured_app(deps=AppDependencies(clock=FakeClock(), record=False))
    async with running(app) as pilot:
        screen = await open_keys(app, pilot)
        for key, reason in (
            ("f1", "reserved for help"),
            ("space", "reserved for pause"),
            ("ctrl+a", "Ctrl keys are not allowed"),
        ):
            await pilot.press("enter", key)
            await pilot.pause()
            assert "Refused" in message(app) and reason in message(app), key
        # 'a' is player 1's key for stock 1 on the right pile: the message names it
        await pilot.press("enter", "a")
        await pilot.pause()
        assert "'a' is already used by player 1 to play stock 1 on the right pile" in message(app)
        # player 2's home row too: move right to player 2's column, then press 'q'
        await pilot.press("right", "enter", "q")
        await pilot.pause()
        assert "'q' is already used by player 1 to play stock 1 on the left pile" in message(app)
        assert screen.keys == DEFAULT_KEYS
        # Escape cancels a capture: the key stays
        await pilot.press("enter", "escape")
        await pilot.pause()
        assert "Cancelled" in message(app) and isinstance(app.screen, KeysScreen)
        assert screen.keys[1]["left1"] == "y"
    assert not config_path().exists()
    assert app.settings.keymap.lookup("q") is not None


async def test_reset_to_defaults_then_save() -> None:
    custom = {**DEFAULT_KEYS[0], "left1": "7", "spit": "2"}
    save_settings(UserSettings(names=("Ann", "Bob"), keys=(custom, dict(DEFAULT_KEYS[1]))))
    app = configured_app(deps=AppDependencies(clock=FakeClock(), record=False))
    async with running(app) as pilot:
        screen = await open_keys(app, pilot)
        assert screen.keys[0]["left1"] == "7"
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert screen.keys == DEFAULT_KEYS
        await pilot.press("ctrl+s")
        await pilot.pause()
    saved, _ = load_settings()
    assert saved.keys == DEFAULT_KEYS and saved.names == ("Ann", "Bob")
    assert app.settings.keymap.lookup("q") is not None and app.settings.keymap.lookup("7") is None


async def test_leaving_with_unsaved_keys_warns_once_then_discards() -> None:
    app = configured_app(deps=AppDependencies(clock=FakeClock(), record=False))
    async with running(app) as pilot:
        await open_keys(app, pilot)
        await pilot.press("enter", "7", "escape")
        await pilot.pause()
        assert isinstance(app.screen, KeysScreen) and "not saved" in message(app)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
    assert not config_path().exists() and app.settings.keymap.lookup("7") is None


async def choose(pilot, select_id: str, downs: int) -> None:
    """Open a Select with Enter, move down ``downs`` entries, choose with Enter."""
    pilot.app.screen.query_one(f"#{select_id}").focus()
    await pilot.press("enter", *(["down"] * downs), "enter")
    await pilot.pause()


async def test_choice_fields_save_the_chosen_values() -> None:
    app = configured_app(deps=AppDependencies(clock=FakeClock(), record=False))
    async with running(app) as pilot:
        app.push_screen(SettingsScreen(app.settings, app.deps.save_settings))
        await pilot.pause()
        await choose(pilot, "bot_level", 2)  # medium -> expert (easy, medium, hard, expert)
        await pilot.press("ctrl+s")
        await pilot.pause()
    saved, warnings = load_settings()
    assert warnings == []
    assert saved.bot_level == "expert" and app.settings.game.bot_level == "expert"


def speed_draw_match() -> SpeedGame:
    """A P7 match whose first game ends by H5 with equal cards at the next side-pile turn.

    Both hands hold only 7s, 8s and 9s, and every centre card (side piles and
    the two spit cards) is an A-5 or J-K, so no card ever fits (P4 turns the side
    piles until they are empty, then P5 has nothing that helps: H5). Each player
    holds 15 cards: equal, a draw.
    """
    hands = [card(r, s) for r in (7, 8) for s in "CDHS"] + [card(9, "C"), card(9, "D")]
    centre = [card(r, s) for r in (1, 2, 3, 4, 5, 11, 12, 13) for s in "CDHS"][:22]
    rest = [c for c in range(52) if c not in hands and c not in centre]
    deck = [*hands[:5], *rest[:10], *hands[5:], *rest[10:], *centre]
    game = SpeedGame(SpeedConfig(target_score=50), 1, deck=deck)
    game.apply(call(0))
    game.apply(call(1))
    while any(game.side):  # turn the side piles until one more turn ends the game
        game.apply(FLIP)
    assert game.phase is Phase.STALEMATE and FLIP in game.legal_actions(SYSTEM)
    return game


async def test_h5_drawn_speed_game_in_a_p7_match_shows_the_between_rounds_box() -> None:
    clock = FakeClock()
    app = SpitApp(
        opening=Opening("speed"),
        deps=AppDependencies(clock=clock, game_factory=lambda *_: speed_draw_match(), record=False),
    )
    app.settings.game.timing = Timing(flip_delay=1.0)
    async with running(app) as pilot:
        game = screen_of(app).session.game
        clock.advance(1.5)
        screen_of(app).run_tick()
        await pilot.pause()
        assert game.round_no == 2 and game.phase is Phase.OPENING and game.scores == [0, 0]
        assert isinstance(app.screen, RoundScreen)
        text = str(app.screen.query_one("#round-text").render())
        assert "drawn game" in text
        assert "Points this round: Player 1 0, Player 2 0" in text
        assert "Score: Player 1 0 - Player 2 0" in text
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and not app.screen.paused


def test_rebind_uses_the_settings_checks_and_leaves_the_input_alone() -> None:
    keys = (dict(DEFAULT_KEYS[0]), dict(DEFAULT_KEYS[1]))
    moved = rebind(keys, 1, "spit", "9")
    assert moved[1]["spit"] == "9" and keys[1]["spit"] == "0"  # a new pair; the old one kept
    assert rebind(keys, 0, "left1", "Q")[0]["left1"] == "q"  # letters are not case-sensitive
    assert rebind(keys, 0, "left1", "?")[0]["left1"] == "?"  # nothing in the app binds "?"
    for key in ("enter", "tab", "escape", " ", "alt+x", "up", "\x07"):
        with pytest.raises(KeyProblem):
            rebind(keys, 0, "left1", key)
    with pytest.raises(KeyProblem, match="player 2 to call"):
        rebind(keys, 0, "move3", "0")


async def test_every_rule_on_the_settings_screen_is_whole_at_80_columns(clock: FakeClock) -> None:
    """Each optional rule is a box on a line of its own: none is cut off at 80x24."""
    from textual.widgets import Checkbox

    from spit.tui.app import AppDependencies
    from spit.tui.dialogs import SettingsScreen
    from spit.tui.launch import configured_app

    app = configured_app(deps=AppDependencies(clock=clock))
    async with running(app) as pilot:
        app.push_screen(SettingsScreen(app.settings, app.deps.save_settings))
        await pilot.pause()
        boxes = list(app.screen.query(Checkbox))
        assert len(boxes) >= 6  # Spit's four rules, Speed's two
        for box in boxes:
            assert box.region.right <= 80, (str(box.label), box.region)
            assert box.region.width >= len(str(box.label)), (str(box.label), box.region)
