"""The tutorial in the app: every lesson explains a wrong key and advances on the right one."""

from __future__ import annotations

from tests.support import FakeClock
from tests.support.pilot import running
from textual.widgets import OptionList
from tui_helpers import make_app, screen_of

from spit import cli
from spit.play.keys import KeyMap
from spit.play.tutorial import LESSONS, keys_for, texts
from spit.tui.app import SpitApp
from spit.tui.lessons import LessonsScreen
from spit.tui.setup import SetupScreen
from spit.tui.tutorial import TutorialScreen
from spit.tui.widgets.board import Board

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
    async with running(app) as pilot:
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
            learner = session.game.actions[-1 - len(lesson.then)]
            assert learner in lesson.expected
            assert tuple(session.game.actions[len(session.game.actions) - len(lesson.then) :]) == (
                lesson.then
            )
            await pilot.press("enter")
            await pilot.pause()
        setup = app.screen
        assert isinstance(setup, SetupScreen)  # the last lesson leads to the game's setup
        assert setup.choice.mode == "spit" and setup.choice.opponent == "easy"
        await pilot.press("enter")  # Start is in focus: the game chosen first
        await pilot.pause()
        game_screen = screen_of(app)
        assert game_screen.mode == "spit" and game_screen.opponents == {1: "easy"}


async def test_the_title_menu_opens_the_tutorial_and_esc_goes_back(clock: FakeClock) -> None:
    app = make_app(clock, start=None)
    async with running(app) as pilot:
        menu = app.screen.query_one("#menu", OptionList)
        ids = [menu.get_option_at_index(i).id for i in range(menu.option_count)]
        menu.highlighted = ids.index("tutorial")
        await pilot.press("enter")
        await pilot.pause()
        assert tutorial_of(app).index == 0
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, TutorialScreen)


def test_spit_tutorial_command(launched: list[SpitApp]) -> None:
    assert cli.main(["tutorial"]) == 0
    assert launched[0].opening.mode == "tutorial"


async def test_the_tutorial_board_is_ascii_where_the_game_is(clock: FakeClock) -> None:
    """--ascii (or a terminal that cannot show suits) draws the lessons in ASCII too."""
    app = make_app(clock, start="tutorial", ascii_only=True)
    async with running(app):
        screen = tutorial_of(app)
        board = [line(screen, region) for region in ("p1-cards", "centre", "p2-cards")]
        assert all(text.isascii() for text in board)
        assert "+-----+" in board[0]


async def test_keys_do_nothing_while_the_terminal_is_too_small(clock: FakeClock) -> None:
    """The board is hidden: the lesson's right key must not play a card nobody sees."""
    app = make_app(clock, start="tutorial")
    async with running(app, size=(60, 15)) as pilot:
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
    async with running(app) as pilot:
        for lesson in LESSONS:
            session = tutorial_of(app).session
            assert session is not None
            await pilot.press(keys_for(sorted(lesson.expected)[0], session.game, KEYMAP)[0])
            await pilot.press("enter")
            await pilot.pause()
        await pilot.press("enter")  # the setup screen: start the game chosen first
        await pilot.pause()
        screen_of(app)
        await pilot.press("escape")  # nobody has played yet: leaves at once
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)


async def test_the_lesson_list_picks_skips_and_replays_lessons(clock: FakeClock) -> None:
    """Tab lists the lessons (done ones marked), Enter plays the one picked; the arrows
    skip ahead or go back a lesson, done or not; Backspace starts this one again."""
    app = make_app(clock, start="tutorial")
    async with running(app) as pilot:
        screen = tutorial_of(app)
        session = screen.session
        assert session is not None
        await pilot.press(keys_for(sorted(screen.lesson.expected)[0], session.game, KEYMAP)[0])
        assert screen.done
        await pilot.press("tab")
        await pilot.pause()
        listing = app.screen
        assert isinstance(listing, LessonsScreen)
        lessons = listing.query_one("#lessons", OptionList)
        labels = [str(lessons.get_option_at_index(i).prompt) for i in range(lessons.option_count)]
        assert len(labels) == len(LESSONS)
        assert labels[0].startswith("✓ 1.") and labels[1].startswith("  2.")
        assert all(LESSONS[i].title in labels[i] for i in range(len(LESSONS)))
        lessons.highlighted = 4
        await pilot.press("enter")
        await pilot.pause()
        assert tutorial_of(app) is screen and screen.index == 4 and not screen.done
        await pilot.press("right")  # skip lesson 5
        assert screen.index == 5
        await pilot.press("left", "left")
        assert screen.index == 3
        session = screen.session
        assert session is not None
        fresh = screen.lesson.build().fingerprint()
        await pilot.press(keys_for(sorted(screen.lesson.expected)[0], session.game, KEYMAP)[0])
        assert screen.done and session.game.fingerprint() != fresh
        await pilot.press("backspace")  # this lesson again, from its start
        assert screen.index == 3 and not screen.done
        assert screen.session is not None and screen.session.game.fingerprint() == fresh
        await pilot.press("tab")
        await pilot.pause()
        await pilot.press("escape")  # the list goes, the lesson stays
        await pilot.pause()
        assert tutorial_of(app) is screen and screen.index == 3


async def test_the_spit_lesson_shows_the_spit_on_the_board(clock: FakeClock) -> None:
    """Lesson 4: once player 1 has called, player 2 calls too and the spit happens:
    the new cards show on both piles, as the lesson's words say."""
    app = make_app(clock, start="tutorial")
    async with running(app) as pilot:
        screen = tutorial_of(app)
        index = next(i for i, lesson in enumerate(LESSONS) if "spit" in lesson.title.lower())
        assert index == 3
        screen.go_to(index)
        await pilot.pause()
        before = line(screen, "centre")
        await pilot.press(KEYMAP.calls[0])
        await pilot.pause()
        centre = line(screen, "centre")
        assert centre != before and "10♣" in centre and "10♦" in centre
        assert "10♣" in line(screen, "flash") and "10♦" in line(screen, "flash")
