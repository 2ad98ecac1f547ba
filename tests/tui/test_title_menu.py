"""The title menu at 80x24 (issue 21): every entry in sight (or a hint that more are
below), one order whether or not games are saved, "Start here" on the first start,
and a too-small terminal said on the title screen."""

from __future__ import annotations

import re

from tests.support import FakeClock
from tests.support.pilot import SIZE, running
from textual.widgets import OptionList
from tui_helpers import make_app, playable, screen_of

from spit.engine import SpitConfig, SpitGame
from spit.play.keys import KeyMap
from spit.play.tutorial import LESSONS, keys_for
from spit.store.records import save_finished_game
from spit.store.replays import PlayerInfo, new_meta
from spit.tui.setup import SetupScreen
from spit.tui.title import MORE_ABOVE, MORE_BELOW, START_HERE, TITLE_HINT, TitleScreen
from spit.tui.tutorial import TutorialScreen

RULE_ID = re.compile(r"\b[RVPH][0-9]+[a-z]?\b")


def options(app) -> list:
    menu = app.screen.query_one("#menu", OptionList)
    return [menu.get_option_at_index(i) for i in range(menu.option_count)]


def hint(app) -> str:
    return str(app.screen.query_one("#title-hint").render())


def a_finished_game() -> None:
    game = SpitGame(SpitConfig(round_limit=1), seed=3)
    from spit.engine import SYSTEM

    times: list[float] = []
    while not game.over:
        legal = game.legal_actions(0) + game.legal_actions(1) + game.legal_actions(SYSTEM)
        game.apply(legal[0])
        times.append(0.1 * len(times))
    assert save_finished_game(game, times, new_meta((PlayerInfo("A"), PlayerInfo("B")))).saved


async def test_every_entry_shows_at_80x24_with_no_rule_id(clock: FakeClock) -> None:
    app = make_app(clock, start=None)
    async with running(app) as pilot:
        await pilot.pause()
        menu = app.screen.query_one("#menu", OptionList)
        assert menu.max_scroll_y == 0 and menu.region.bottom <= SIZE[1]  # nothing hidden
        assert menu.option_count >= 15 and hint(app) == TITLE_HINT
        shot = app.export_screenshot().replace("&#160;", " ")
        for option in options(app):
            assert str(option.prompt) in shot
        assert not RULE_ID.search(re.sub(r"<[^>]+>", " ", shot))


async def test_a_longer_menu_scrolls_and_says_so(clock: FakeClock, monkeypatch) -> None:
    from spit.tui import title as screens

    more = tuple((f"extra{i}", f"Extra {i}") for i in range(6))
    monkeypatch.setattr(screens, "MENU", (*screens.MENU, more))
    app = make_app(clock, start=None)
    async with running(app) as pilot:
        await pilot.pause()
        menu = app.screen.query_one("#menu", OptionList)
        assert menu.max_scroll_y > 0 and menu.region.bottom <= SIZE[1]
        assert hint(app) == MORE_BELOW
        await pilot.press("end")
        await pilot.pause()
        await pilot.pause()
        assert hint(app) == MORE_ABOVE


async def test_the_order_is_the_same_whether_or_not_games_are_saved(clock: FakeClock) -> None:
    a_finished_game()  # not the first start: no "Start here"
    app = make_app(clock, playable, start=None)
    async with running(app) as pilot:
        await pilot.pause()
        before = [(o.id, o.disabled) for o in options(app)]
        assert before[0] == ("resume", True)  # greyed out: nothing saved
        assert app.screen.query_one("#menu", OptionList).highlighted == 1  # Play Spit
        from tui_helpers import play_from_menu

        await play_from_menu(pilot)
        await pilot.press("1", "0", "q")  # a card played: leaving saves the game
        await pilot.press("escape", "enter")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        after = [(o.id, o.disabled) for o in options(app)]
        assert [i for i, _ in after] == [i for i, _ in before]
        assert after[0] == ("resume", False)


async def test_a_too_small_terminal_is_said_on_the_title_screen(clock: FakeClock) -> None:
    app = make_app(clock, start=None)
    async with running(app, size=(60, 20)) as pilot:
        await pilot.pause()
        note = app.screen.query_one("#title-small")
        assert note.display and "needs at least 80x24" in str(note.render())
        assert not app.screen.query_one("#title-art").display
        menu = app.screen.query_one("#menu", OptionList)
        assert menu.region.bottom <= 20 and hint(app) == MORE_BELOW  # it still works
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not note.display and app.screen.query_one("#title-art").display


async def test_a_first_time_player_finds_the_tutorial_finishes_it_and_plays_their_choice(
    clock: FakeClock,
) -> None:
    """No records yet: the menu's first entry, highlighted, is "New to Spit? Start
    here"; Enter opens the tutorial; after its last lesson the setup screen opens;
    the player chooses Speed against medium and plays it; back on the menu, Play
    Spit starts Spit against the opponent chosen last."""
    keymap = KeyMap.default()
    app = make_app(clock, start=None)
    async with running(app) as pilot:
        await pilot.pause()
        first = options(app)[0]
        assert (first.id, str(first.prompt)) == START_HERE
        assert app.screen.query_one("#menu", OptionList).highlighted == 0
        await pilot.press("enter")
        await pilot.pause()
        for lesson in LESSONS:
            screen = app.screen
            assert isinstance(screen, TutorialScreen) and screen.session is not None
            await pilot.press(keys_for(sorted(lesson.expected)[0], screen.session.game, keymap)[0])
            assert screen.done
            await pilot.press("enter")
            await pilot.pause()
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        from textual.widgets import Select

        setup.query_one("#setup-mode", Select).value = "speed"
        setup.query_one("#setup-opponent", Select).value = "medium"
        await pilot.pause()
        setup.query_one("#setup-start").focus()
        await pilot.press("enter")
        await pilot.pause()
        game = screen_of(app)
        assert game.mode == "speed" and game.opponents == {1: "medium"}
        await pilot.press("escape")  # nothing pressed yet: leaves at once
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        from tui_helpers import play_from_menu

        await play_from_menu(pilot, "spit")
        game = screen_of(app)
        assert game.mode == "spit" and game.opponents == {1: "medium"}  # remembered
