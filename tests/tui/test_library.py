"""The title menu's statistics, saved replays and watching entries, and
``spit replay`` without a file (issue 9)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from tests.support import FakeClock
from tests.support.pilot import SIZE, running
from tui_helpers import make_app

from spit import cli
from spit.engine import SpitConfig, SpitGame
from spit.store.paths import replay_dir
from spit.store.records import save_finished_game
from spit.store.replays import PlayerInfo, new_meta
from spit.tui.library import ReplaysScreen, StatsScreen
from spit.tui.screens import GameScreen, LevelScreen
from spit.tui.title import TitleScreen
from spit.tui.viewer import ReplayScreen

NAMES = (PlayerInfo("[afk] bob"), PlayerInfo("Bob [/b]"))


def finished(seed: int = 3) -> tuple[SpitGame, list[float]]:
    """A short game played to its end by always taking the first legal action."""
    from spit.engine import SYSTEM

    game = SpitGame(SpitConfig(round_limit=5), seed=seed)
    times: list[float] = []
    while not game.over:
        legal = game.legal_actions(0) + game.legal_actions(1) + game.legal_actions(SYSTEM)
        game.apply(legal[0])
        times.append(0.1 * len(times))
    return game, times


def keep(players: tuple[PlayerInfo, PlayerInfo] = NAMES) -> None:
    game, times = finished()
    assert save_finished_game(game, times, new_meta(players)).saved


def menu_ids(app) -> list[str]:
    menu = app.screen.query_one("#menu")
    return [menu.get_option_at_index(i).id for i in range(menu.option_count)]


async def choose(app, pilot, entry: str) -> None:
    menu = app.screen.query_one("#menu")
    menu.highlighted = menu_ids(app).index(entry)
    await pilot.press("enter")
    await pilot.pause()


async def test_the_menu_has_every_entry_and_fits_80x24(clock: FakeClock) -> None:
    app = make_app(clock, start=None)
    async with running(app) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        ids = menu_ids(app)
        for entry in ("watch-spit", "watch-speed", "stats", "replays", "settings", "quit"):
            assert entry in ids
        menu = app.screen.query_one("#menu")
        assert menu.region.bottom <= SIZE[1] and menu.region.y >= 0
        hint = app.screen.query(".hint").last()
        assert hint.region.bottom <= SIZE[1] and hint.region.height == 1


async def test_fourteen_entries_still_fit(clock: FakeClock, monkeypatch) -> None:
    from spit.tui import title

    more = tuple((f"extra{i}", f"Extra {i}") for i in range(4))
    monkeypatch.setattr(title, "MENU", (*title.MENU, more))
    app = make_app(clock, start=None)
    async with running(app) as pilot:
        await pilot.pause()
        assert len(menu_ids(app)) >= 14
        menu = app.screen.query_one("#menu")
        assert menu.region.bottom <= SIZE[1]
        await choose(app, pilot, "extra3")  # the last is reachable (scrolls) and does nothing
        assert isinstance(app.screen, TitleScreen)


async def test_statistics_screen_shows_names_as_typed(clock: FakeClock) -> None:
    keep()
    keep((PlayerInfo("c1", "easy"), PlayerInfo("c2", "hard")))
    app = make_app(clock, start=None)
    async with running(app) as pilot:
        await choose(app, pilot, "stats")
        assert isinstance(app.screen, StatsScreen)
        console = Console(width=78, record=True, file=io.StringIO())
        console.print(app.screen.body())
        text = console.export_text()
        assert "[afk] bob" in text and "Bob [/b]" in text
        assert "1 game(s) between two computer players are not counted" in text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)


async def test_saved_replays_list_and_watch_one(clock: FakeClock) -> None:
    keep()
    app = make_app(clock, start=None)
    async with running(app) as pilot:
        await choose(app, pilot, "replays")
        screen = app.screen
        assert isinstance(screen, ReplaysScreen)
        line = screen.query_one("#replays").get_option_at_index(0).prompt.plain
        assert "spit" in line and "[afk] bob vs Bob [/b]" in line
        assert "won" in line or "draw" in line
        assert str(replay_dir()) in str(screen.query_one("#replays-note").render())
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ReplaysScreen)


async def test_no_saved_replays_says_where_they_go(clock: FakeClock) -> None:
    app = make_app(clock, start=None)
    async with running(app) as pilot:
        await choose(app, pilot, "replays")
        note = str(app.screen.query_one("#replays-note").render())
        assert "No saved replays yet" in note and str(replay_dir()) in note


async def test_watch_two_computer_players_from_the_menu(clock: FakeClock) -> None:
    app = make_app(clock, start=None)
    async with running(app) as pilot:
        await choose(app, pilot, "watch-spit")
        assert isinstance(app.screen, LevelScreen)
        await pilot.press("enter")  # player 1: the default level
        await pilot.pause()
        assert isinstance(app.screen, LevelScreen)
        app.screen.query_one("#levels").highlighted = 3
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert screen.opponents == {0: "medium", 1: "expert"}
        assert set(screen.session.agents) == {0, 1}
        assert screen.session.game.mode == "spit"


async def test_watch_two_computers_play_speed_from_the_menu(clock: FakeClock) -> None:
    app = make_app(clock, start=None)
    async with running(app) as pilot:
        await choose(app, pilot, "watch-speed")
        assert isinstance(app.screen, LevelScreen)
        assert any("play Speed" in str(h.render()) for h in app.screen.query(".hint"))
        await pilot.press("enter")  # player 1: the default level
        await pilot.pause()
        await pilot.press("enter")  # player 2: the default level
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert screen.session.game.mode == "speed"
        assert set(screen.session.agents) == {0, 1}


def test_replay_without_a_file_lists_them(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["replay"]) == 0
    out = capsys.readouterr().out
    assert "No saved replays yet" in out and str(replay_dir()) in out
    keep()
    assert cli.main(["replay"]) == 0
    out = capsys.readouterr().out
    assert str(replay_dir()) in out and "[afk] bob vs Bob [/b]" in out
    assert cli.main(["replay", "--verify"]) == 0
    assert capsys.readouterr().out.startswith("ok ")


async def test_names_with_markup_in_the_resume_list(
    clock: FakeClock, capsys: pytest.CaptureFixture[str]
) -> None:
    from spit.store.paths import saved_dir
    from spit.store.resume import save_game
    from spit.tui.saved import SavedGamesScreen

    game = SpitGame(SpitConfig(), seed=4)
    save_game(game, [], new_meta(NAMES), saved_dir() / "g1.json")
    assert cli.main(["resume", "--list"]) == 0
    out = capsys.readouterr().out
    assert "[afk] bob" in out and "Bob [/b]" in out
    app = make_app(clock, start=None)
    async with running(app) as pilot:
        app.push_screen(SavedGamesScreen())
        await pilot.pause()
        listing = app.screen.query_one("#saved-list")
        line = listing.get_option_at_index(0).prompt.plain
        assert "[afk] bob" in line and "Bob [/b]" in line
