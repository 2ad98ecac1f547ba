"""The tutorial in the app: every lesson explains a wrong key and advances on the right one."""

from __future__ import annotations

import pytest
from tests.support import FakeClock
from textual.widgets import OptionList
from tui_helpers import make_app, screen_of

from spit import cli
from spit.play.keys import KeyMap
from spit.play.tutorial import LESSONS, keys_for, texts
from spit.tui.app import SpitApp
from spit.tui.tutorial import TutorialScreen
from spit.tui.widgets.board import Board

SIZE = (80, 24)
KEYMAP = KeyMap.default()


def tutorial_of(app: SpitApp) -> TutorialScreen:
    screen = app.screen
    assert isinstance(screen, TutorialScreen), type(screen).__name__
    return screen


def line(screen: TutorialScreen, region: str) -> str:
    return screen.query_one(Board).text(region).plain


def a_wrong_key(screen: TutorialScreen) -> str:
    """A key of player 1 that is wrong here, else player 2's call key."""
    assert screen.session is not None
    for key in (*KEYMAP.rows[0][0], *KEYMAP.rows[0][1], *KEYMAP.rows[0][2]):
        if not screen.lesson.judge(screen.session.game, key, KEYMAP).ok:
            return key
    return KEYMAP.calls[1]


async def test_walk_every_lesson_then_play_easy(clock: FakeClock) -> None:
    app = make_app(clock, start="tutorial")
    async with app.run_test(size=SIZE) as pilot:
        for i, lesson in enumerate(LESSONS):
            screen = tutorial_of(app)
            assert screen.index == i and not screen.done
            assert f"TUTORIAL {i + 1}/{len(LESSONS)}" in line(screen, "topbar")
            assert line(screen, "status") == texts(lesson.task, KEYMAP)
            await pilot.press("enter")  # not done yet: Enter does nothing
            assert tutorial_of(app).index == i
            session = screen.session
            assert session is not None
            wrong = a_wrong_key(screen)
            expected = lesson.judge(session.game, wrong, KEYMAP).text
            before = session.game.fingerprint()
            await pilot.press(wrong)
            assert line(screen, "flash") == "✗ " + expected
            assert not screen.done and session.game.fingerprint() == before
            right = keys_for(sorted(lesson.expected)[0], session.game, KEYMAP)[0]
            await pilot.press(right)
            assert screen.done
            assert line(screen, "flash") == "✓ " + texts(lesson.success, KEYMAP)
            assert session.game.actions[-1] in lesson.expected
            await pilot.press("enter")
            await pilot.pause()
        game_screen = screen_of(app)
        assert game_screen.mode == "spit" and game_screen.opponents == {1: "easy"}


async def test_the_title_menu_opens_the_tutorial_and_esc_goes_back(clock: FakeClock) -> None:
    app = make_app(clock, start=None)
    async with app.run_test(size=SIZE) as pilot:
        menu = app.screen.query_one("#menu", OptionList)
        ids = [menu.get_option_at_index(i).id for i in range(menu.option_count)]
        menu.highlighted = ids.index("tutorial")
        await pilot.press("enter")
        await pilot.pause()
        assert tutorial_of(app).index == 0
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, TutorialScreen)


def test_spit_tutorial_command(monkeypatch: pytest.MonkeyPatch) -> None:
    apps: list[SpitApp] = []
    monkeypatch.setattr(SpitApp, "run", lambda self, **kw: apps.append(self))
    assert cli.main(["tutorial"]) == 0
    assert apps[0].opening.mode == "tutorial"


async def test_the_tutorial_board_is_ascii_where_the_game_is(clock: FakeClock) -> None:
    """--ascii (or a terminal that cannot show suits) draws the lessons in ASCII too."""
    app = make_app(clock, start="tutorial", ascii_only=True)
    async with app.run_test(size=SIZE):
        screen = tutorial_of(app)
        board = [line(screen, region) for region in ("p1-cards", "centre", "p2-cards")]
        assert all(text.isascii() for text in board)
        assert "+-----+" in board[0]


async def test_keys_do_nothing_while_the_terminal_is_too_small(clock: FakeClock) -> None:
    """The board is hidden: the lesson's right key must not play a card nobody sees."""
    app = make_app(clock, start="tutorial")
    async with app.run_test(size=(60, 15)) as pilot:
        screen = tutorial_of(app)
        session = screen.session
        assert session is not None
        right = keys_for(sorted(screen.lesson.expected)[0], session.game, KEYMAP)[0]
        before = session.game.fingerprint()
        await pilot.press(right)
        assert not screen.done and session.game.fingerprint() == before
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.press(right)
        assert screen.done


async def test_esc_from_the_game_after_spit_tutorial_lands_on_the_title_menu(
    clock: FakeClock,
) -> None:
    """`spit tutorial` builds no menu; its last lesson switches to a game: leaving that
    game must open the title menu, not the blank screen under everything."""
    from spit.tui.title import TitleScreen

    app = make_app(clock, start="tutorial")
    async with app.run_test(size=SIZE) as pilot:
        for lesson in LESSONS:
            session = tutorial_of(app).session
            assert session is not None
            await pilot.press(keys_for(sorted(lesson.expected)[0], session.game, KEYMAP)[0])
            await pilot.press("enter")
            await pilot.pause()
        screen_of(app)
        await pilot.press("escape")  # nobody has played yet: leaves at once
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
