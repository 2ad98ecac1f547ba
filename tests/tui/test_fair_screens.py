"""Fair and readable screens (issue 9): hidden computer hands, key feedback, layout."""

from __future__ import annotations

from rich.cells import cell_len
from tests.support import FakeClock
from tests.support.pilot import running
from tui_helpers import make_app, playable, region, screen_of

from spit.bots import make_bot
from spit.engine import SpeedConfig, SpeedGame, SpitConfig, SpitGame, card_name
from spit.tui.render import BANNER_STYLE, PileShow, SideShow, draw_centre
from spit.tui.screens import GameScreen
from spit.tui.widgets.board import fit_cells


def speed() -> SpeedGame:
    return SpeedGame(SpeedConfig(), seed=5)


async def test_speed_against_the_computer_hides_its_hand_and_its_keys(clock: FakeClock) -> None:
    bot = make_bot("easy", 1, seed=1, mode="speed")
    app = make_app(clock, speed, start="speed", agents={1: bot}, names=("Ann", "Computer"))
    async with running(app) as pilot:
        await pilot.pause()
        game = screen_of(app).session.game
        top = region(app, "p2-cards")
        assert not any(card_name(c) in top for c in game.hands[1])  # face down
        assert "░" in top and "keys" not in top  # card backs, and no key row
        info = region(app, "p2-info")
        assert "hand 5" in info and "call key" not in info and "(computer)" in info
        # the person's own hand, keys and call key are shown as before
        bottom = region(app, "p1-cards")
        assert all(card_name(c) in bottom for c in game.hands[0])
        assert "keys" in bottom and "call key 1" in region(app, "p1-info")


async def test_spit_against_the_computer_shows_its_stocks_but_not_its_keys(
    clock: FakeClock,
) -> None:
    bot = make_bot("easy", 1, seed=1)
    app = make_app(clock, playable, agents={1: bot}, names=("Ann", "Computer"))
    async with running(app) as pilot:
        await pilot.pause()
        game = screen_of(app).session.game
        top = region(app, "p2-cards")
        assert all(card_name(stock[-1]) in top for stock in game.stocks[1])  # public (R3)
        assert "keys" not in top and "y h n" not in top
        assert "call key" not in region(app, "p2-info")


async def test_two_people_see_both_hands_and_keys_in_speed(clock: FakeClock) -> None:
    app = make_app(clock, speed, start="speed")
    async with running(app) as pilot:
        await pilot.pause()
        game = screen_of(app).session.game
        top = region(app, "p2-cards")
        assert all(card_name(c) in top for c in game.hands[1]) and "keys" in top


async def test_a_held_key_repeat_is_shown_as_ignored(clock: FakeClock) -> None:
    app = make_app(clock, playable)
    async with running(app) as pilot:
        game = screen_of(app).session.game
        await pilot.press("1", "0")
        clock.advance(1.0)
        await pilot.press("q")  # 6D onto the left pile
        await pilot.pause()
        played = len(game.actions)
        assert region(app, "flash") == ""
        clock.advance(0.2)
        await pilot.press("q")  # again within 0.5 s: a held key
        await pilot.pause()
        assert len(game.actions) == played
        flash = region(app, "flash")
        assert "Player 1: q again within 0.5 s: taken as a held key, ignored" in flash
        clock.advance(1.0)  # the note goes away
        screen_of(app).run_tick()
        await pilot.pause()
        assert region(app, "flash") == ""


async def test_the_same_refusal_twice_still_flashes_again(clock: FakeClock) -> None:
    app = make_app(clock, playable)
    async with running(app) as pilot:
        await pilot.press("1", "0")
        clock.advance(1.0)
        await pilot.press("w")  # 8C does not fit the left pile (5C)
        await pilot.pause()
        first = region(app, "flash")
        assert first.startswith("✗ Player 1:") and "×" not in first
        clock.advance(0.6)  # past the held-key window, while the message still shows
        await pilot.press("w")
        await pilot.pause()
        second = region(app, "flash")
        assert second != first and second == first + " (×2)"
        clock.advance(0.6)
        await pilot.press("w")
        await pilot.pause()
        assert region(app, "flash").endswith(" (×3)")


def test_speed_game_over_box_leaves_the_pile_marker_visible() -> None:
    piles = (PileShow(10, 3, "left pile"), PileShow(11, 4, "right pile", landed_by="P1"))
    text = draw_centre(piles, (SideShow(3), SideShow(2)), banner=("GAME OVER", "Ann wins"))
    lines = text.plain.splitlines()
    assert "◀ P1 " in lines[2] and "GAME OVER" in lines[1]
    assert "×2" in lines[3]  # the right side pile is not covered either
    # the box is whole on every line: no cell of it was drawn over by the marker
    widths = {len(banner_cells(text, y)) for y in range(4)}
    assert len(widths) == 1, widths
    marker = lines[2].index("◀ P1")
    assert min(banner_cells(text, 2)) > marker + len("◀ P1")  # a gap between the two


def banner_cells(text, y: int) -> list[int]:
    """The columns of line ``y`` drawn in the banner's style."""
    line = text.to_rich().split("\n")[y]
    cells = []
    for span in line.spans:
        if span.style == BANNER_STYLE:
            cells.extend(range(span.start, span.end))
    return cells


async def test_the_board_is_centred_in_a_large_terminal(clock: FakeClock) -> None:
    """The board widget fills the screen; the drawn board (of the largest scale that
    fits) sits in its middle."""
    from spit.tui.render import scale_for

    app = make_app(clock, playable)
    for width, height in ((120, 40), (300, 100), (80, 24)):
        async with running(app, size=(width, height)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen)
            board = screen.board
            scale = scale_for(width, height)
            assert (board.region.width, board.region.height) == (width, height)
            rows = [board.render_line(y).text for y in range(height)]
            used = [y for y, row in enumerate(rows) if row.strip()]
            assert used[0] == (height - scale.height) // 2  # the top bar
            assert used[-1] == used[0] + scale.height - 1  # the footer
            left = min(len(row) - len(row.lstrip()) for row in rows if row.strip())
            assert left == (width - scale.width) // 2
        app = make_app(clock, playable)


def fully_visible(app, widget) -> bool:
    """True if every cell of ``widget`` is on screen, not scrolled or clipped away."""
    try:
        geometry = app.screen.find_widget(widget)
    except Exception:  # not on screen at all (scrolled out of its container)
        return False
    region = geometry.region
    screen = app.screen.region
    visible = region.intersection(geometry.clip).intersection(screen)
    return region.area > 0 and visible == region


async def test_every_screen_shows_its_keys_without_scrolling_at_80x24(clock: FakeClock) -> None:
    from spit.play.keys import KeyMap
    from spit.play.session import RoundSummary
    from spit.tui.confirm import ConfirmScreen
    from spit.tui.dialogs import RoundScreen, SettingsScreen, WarningsScreen
    from spit.tui.remap import KeysScreen
    from spit.tui.saved import SavedGamesScreen
    from spit.tui.screens import DocScreen, HelpScreen, LevelScreen
    from spit.tui.title import TitleScreen

    summary = RoundSummary(3, "Ann emptied her layout!", (4, 9), (20, 31), ["Ann took left (12)"])
    warnings = [f"config.toml, line {n}: timing.slap_time: bad value {n}" for n in range(1, 30)]
    app = make_app(clock, start=None)
    settings, save = app.settings, app.deps.save_settings
    screens = {
        "title": lambda: TitleScreen(settings, save),
        "help": lambda: HelpScreen(KeyMap.default()),
        "rules": lambda: DocScreen("# Rules\n\n" + "A long line of rules.\n\n" * 60),
        "warnings": lambda: WarningsScreen(warnings),
        "round": lambda: RoundScreen(summary, ("Ann", "Bob"), "V4: the rule in words."),
        "settings": lambda: SettingsScreen(settings, save),
        "keys": lambda: KeysScreen(settings, save),
        "level": LevelScreen,
        "saved": SavedGamesScreen,
        "confirm": lambda: ConfirmScreen("Leave this game?", "It is saved. " * 8, "go", "stay"),
    }
    async with running(app) as pilot:
        for name, make in screens.items():
            app.push_screen(make())
            await pilot.pause()
            hints = list(app.screen.query(".hint"))
            assert hints, name
            hidden = [str(h.render())[:40] for h in hints if not fully_visible(app, h)]
            assert hidden == [], f"{name}: {hidden}"
            app.pop_screen()
            await pilot.pause()


async def test_a_wide_name_leaves_room_for_the_call_key(clock: FakeClock) -> None:
    """24 wide letters are 48 columns: the name is cut (with "…"), never the call key."""
    wide = "漢" * 24
    match = lambda: SpitGame(SpitConfig(scoring=True), seed=7)  # noqa: E731 (V4: a score too)
    app = make_app(clock, match, names=(wide, "Bo"))
    async with running(app) as pilot:
        await pilot.pause()
        info = region(app, "p1-info")
        width = screen_of(app).query_one("#board").size.width
        assert "call key 1" in info and "score 0" in info
        assert cell_len(info) <= width  # all of it is shown, not cut at the edge
        assert cell_len(info.split("…")[0]) <= 26  # the name's cells, with its padding
        assert "Bo" in region(app, "p2-info")


def test_fit_cells_counts_terminal_columns() -> None:
    assert fit_cells("Ann", 24) == "Ann"
    assert fit_cells("a" * 24, 24) == "a" * 24
    assert fit_cells("a" * 25, 24) == "a" * 23 + "…"
    assert fit_cells("漢" * 13, 24) == "漢" * 11 + "…" and cell_len(fit_cells("漢" * 13, 24)) == 23
