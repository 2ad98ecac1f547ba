"""A game is never lost by accident (issue 9): leaving asks, quitting and signals save.

Every test runs with SPIT_DATA_DIR in its own tmp_path (``isolated_dirs``).
"""

from __future__ import annotations

import signal

from tests.support import FakeClock
from tests.support.pilot import running
from textual.widgets import OptionList
from tui_helpers import make_app, play_from_menu, playable, screen_of

from spit.engine import Phase, card
from spit.play.keys import KeyMap
from spit.store.paths import saved_dir
from spit.store.resume import list_saved_games
from spit.tui.app import SpitApp
from spit.tui.confirm import ConfirmScreen
from spit.tui.saved import SavedGamesScreen
from spit.tui.screens import GameScreen, PauseScreen
from spit.tui.title import TitleScreen

#: every key either player uses in play with the default key map
GAME_KEYS = [k for p in (0, 1) for row in KeyMap.default().rows[p] for k in row] + list(
    KeyMap.default().calls
)


async def start_playing(app: SpitApp, pilot) -> GameScreen:
    """Both call and player 1 plays 6D on 5C: a game in progress."""
    screen = screen_of(app)
    await pilot.press("1", "0", "q")
    await pilot.pause()
    assert screen.session.game.piles[0][-1] == card("6", "D")
    return screen


async def test_esc_on_the_board_asks_and_game_keys_cannot_answer(clock: FakeClock) -> None:
    app = make_app(clock, playable, start=None)
    async with running(app) as pilot:
        await play_from_menu(pilot)  # Play Spit
        screen = await start_playing(app, pilot)
        game = screen.session.game
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert screen.paused
        await pilot.press(*GAME_KEYS, "space")  # hammering keys neither leaves nor plays
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen) and len(game.actions) == 3
        await pilot.press("escape")  # keep playing
        await pilot.pause()
        assert app.screen is screen and not screen.paused
        await pilot.press("escape", "enter")  # save and leave
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        (saved,) = list_saved_games()
        assert saved.replay.final.fingerprint() == game.fingerprint()
        menu = app.screen.query_one("#menu", OptionList)
        assert menu.get_option_at_index(0).id == "resume"


async def test_esc_leaves_at_once_when_nothing_would_be_lost(clock: FakeClock) -> None:
    app = make_app(clock, playable, start=None)
    async with running(app) as pilot:
        await play_from_menu(pilot)
        assert isinstance(app.screen, GameScreen)  # dealt, nobody has pressed a key
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen) and list_saved_games() == []


async def test_pause_box_ignores_every_game_key(clock: FakeClock) -> None:
    app = make_app(clock, playable)
    async with running(app) as pilot:
        screen = await start_playing(app, pilot)
        await pilot.press("space")
        await pilot.pause()
        assert isinstance(app.screen, PauseScreen)
        await pilot.press(*GAME_KEYS)  # 'm' used to go to the menu: it is player 2's key
        await pilot.pause()
        assert isinstance(app.screen, PauseScreen) and screen.paused
        await pilot.press("escape")  # leaving from the pause box asks too
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and not screen.paused


async def test_esc_on_the_title_asks_before_quitting(clock: FakeClock) -> None:
    app = make_app(clock, start=None)
    async with running(app) as pilot:
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen) and app.is_running
        await pilot.press("escape")  # stay
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen) and app.is_running
        await pilot.press("escape", "enter")
        await pilot.pause()
        assert not app.is_running


async def test_ctrl_q_in_a_game_saves_it_then_quits(clock: FakeClock, capsys) -> None:
    app = make_app(clock, playable)
    async with running(app) as pilot:
        game = (await start_playing(app, pilot)).session.game
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not app.is_running
    (saved,) = list_saved_games()
    assert saved.replay.final.fingerprint() == game.fingerprint()
    assert "your game is saved; 'spit resume' carries on" in capsys.readouterr().err


async def test_the_unsaved_game_box_and_exit_line_give_the_reason_once(
    clock: FakeClock, capsys
) -> None:
    """They said 'the game was NOT saved: game not saved: Not a directory'."""
    saved_dir().parent.mkdir(parents=True)
    saved_dir().write_text("a file where the saved-games folder should be")
    app = make_app(clock, playable)
    async with running(app) as pilot:
        await start_playing(app, pilot)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        text = str(app.screen.query_one("#confirm-text").render()).lower()
        assert text.count("not saved") == 1, text
        await pilot.press("enter")  # quit without saving
        await pilot.pause()
    err = capsys.readouterr().err.lower()
    assert err.count("not saved") == 1, err


async def test_ctrl_q_asks_when_the_game_cannot_be_saved(clock: FakeClock) -> None:
    saved_dir().parent.mkdir(parents=True)
    saved_dir().write_text("a file where the saved-games folder should be")
    app = make_app(clock, playable)
    async with running(app) as pilot:
        screen = await start_playing(app, pilot)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen) and app.is_running
        assert "could not be saved" in str(app.screen.query_one("#confirm-title").render())
        assert screen.paused  # the clock waits while the box is up
        await pilot.press("escape")  # keep playing
        await pilot.pause()
        assert app.screen is screen and not screen.paused and app.is_running
        await pilot.press("ctrl+q")
        await pilot.pause()
        await pilot.press("enter")  # quit without saving, knowingly
        await pilot.pause()
        assert not app.is_running


async def test_sigterm_saves_the_game_and_closes_the_app(clock: FakeClock) -> None:
    app = make_app(clock, playable)
    async with running(app) as pilot:
        # caught by the loop
        assert set(app._signals) == {signal.SIGTERM, signal.SIGHUP, signal.SIGINT}
        game = (await start_playing(app, pilot)).session.game
        app.on_signal(signal.SIGTERM)
        await pilot.pause()
        assert not app.is_running
    assert app.return_code == 128 + signal.SIGTERM
    (saved,) = list_saved_games()
    assert saved.replay.final.fingerprint() == game.fingerprint()


async def test_a_new_game_never_overwrites_an_unfinished_one(clock: FakeClock) -> None:
    app = make_app(clock, playable, start=None)
    async with running(app) as pilot:
        fingerprints = []
        for _ in range(2):
            await play_from_menu(pilot)
            game = (await start_playing(app, pilot)).session.game
            fingerprints.append(game.fingerprint())
            clock.advance(1.0)
            await pilot.press("escape", "enter")
            await pilot.pause()
        saved = list_saved_games()
        assert len(saved) == 2 and len(list(saved_dir().glob("*.json"))) == 2


async def test_saved_games_screen_resumes_or_deletes_and_shows_damaged_files(
    clock: FakeClock,
) -> None:
    app = make_app(clock, playable)
    async with running(app) as pilot:
        game = (await start_playing(app, pilot)).session.game
        await pilot.press("escape", "enter")
        await pilot.pause()
    (saved_dir() / "broken.json").write_text("{not json")
    app = make_app(FakeClock(), start=None)
    async with running(app) as pilot:
        await pilot.press("enter")  # "Resume a game" is first
        await pilot.pause()
        assert isinstance(app.screen, SavedGamesScreen)
        listing = app.screen.query_one("#saved-list", OptionList)
        prompts = [str(listing.get_option_at_index(i).prompt) for i in range(2)]
        broken = next(i for i, p in enumerate(prompts) if "broken" in p)
        assert "unreadable (not valid JSON" in prompts[broken]
        good = 1 - broken
        assert "Spit: Player 1 vs Player 2, round 1" in prompts[good]
        # a damaged file cannot be resumed: the reason is shown; d deletes it after asking
        listing.highlighted = broken
        await pilot.press("enter")
        await pilot.pause()
        assert "Cannot resume broken" in str(app.screen.query_one("#saved-note").render())
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert not (saved_dir() / "broken.json").exists()
        assert app.screen.query_one("#saved-list", OptionList).option_count == 1
        await pilot.press("enter")  # resume the good one
        await pilot.pause()
        assert isinstance(app.screen, PauseScreen)
        assert "Resumed: round 1" in str(app.screen.query_one("#pause-box").render())
        await pilot.press("space")
        await pilot.pause()
        resumed = screen_of(app).session.game
        assert resumed.fingerprint() == game.fingerprint()
        assert resumed.phase is Phase.PLAY
        assert "Resumed: round 1" in screen_of(app).board.text("news").plain


async def test_leaving_asks_again_when_the_game_cannot_be_saved(clock: FakeClock) -> None:
    saved_dir().parent.mkdir(parents=True)
    saved_dir().write_text("a file where the saved-games folder should be")
    app = make_app(clock, playable, start=None)
    async with running(app) as pilot:
        await play_from_menu(pilot)
        screen = await start_playing(app, pilot)
        await pilot.press("escape", "enter")  # save and leave... but it cannot be saved
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "If you leave now it is lost" in str(app.screen.query_one("#confirm-text").render())
        await pilot.press("escape")  # keep playing
        await pilot.pause()
        assert app.screen is screen and not screen.paused
        await pilot.press("escape", "enter", "enter")  # leave without saving, knowingly
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
