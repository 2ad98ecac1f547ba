"""Playing against the computer in the app: the menu, the level choice, the bots (issue 5)."""

from __future__ import annotations

from tests.support import FakeClock
from tui_helpers import make_app, screen_of

from spit.bots import Bot
from spit.engine import Kind, Phase
from spit.store.settings import Settings as UserSettings
from spit.tui.screens import GameScreen, LevelScreen

SIZE = (80, 24)


async def _choose_from_title(pilot, entry: str, level: str) -> None:
    from textual.widgets import OptionList

    menu = pilot.app.screen.query_one("#menu", OptionList)
    ids = [menu.get_option_at_index(i).id for i in range(menu.option_count)]
    menu.highlighted = ids.index(entry)
    await pilot.press("enter")
    await pilot.pause()
    assert isinstance(pilot.app.screen, LevelScreen)
    levels = pilot.app.screen.query_one("#levels", OptionList)
    names = [levels.get_option_at_index(i).id for i in range(levels.option_count)]
    levels.highlighted = names.index(level)
    await pilot.press("enter")
    await pilot.pause()


async def test_title_menu_starts_spit_against_the_chosen_level(clock: FakeClock) -> None:
    app = make_app(clock, start=None, bot_seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await _choose_from_title(pilot, "vs-spit", "hard")
        screen = screen_of(app)
        session = screen.session
        assert screen.mode == "spit" and screen.opponents == {1: "hard"}
        bot = session.agents[1]
        assert isinstance(bot, Bot) and 0 not in session.agents
        assert session.names[1] == "Computer (hard)"
        # H2: against the computer the spit is automatic after a countdown
        assert session.arbiter.timing.auto_spit == UserSettings().auto_spit == 2.0


async def test_level_choice_can_be_cancelled(clock: FakeClock) -> None:
    app = make_app(clock, start=None)
    async with app.run_test(size=SIZE) as pilot:
        from textual.widgets import OptionList

        menu = app.screen.query_one("#menu", OptionList)
        ids = [menu.get_option_at_index(i).id for i in range(menu.option_count)]
        menu.highlighted = ids.index("vs-speed")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, LevelScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, (LevelScreen, GameScreen))


async def test_watching_two_bots_plays_by_itself_to_the_end(clock: FakeClock) -> None:
    app = make_app(clock, start="spit", opponents={0: "expert", 1: "expert"}, bot_seed=3, seed=4)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        game = screen.session.game
        await pilot.press("q")  # a person's key does nothing while the computers play
        assert game.phase is Phase.OPENING
        for _ in range(20000):
            clock.advance(0.25)
            screen.run_tick()
            if game.over:
                break
        assert game.over
        log = screen.session.arbiter.log
        assert {a.player for _, a in log if a.kind is Kind.PLAY} == {0, 1}


async def test_speed_against_the_computer(clock: FakeClock) -> None:
    app = make_app(clock, start="speed", opponents={1: "medium"}, bot_seed=2)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        game = screen.session.game
        await pilot.press("1")  # player 1 is ready; the computer gets ready by itself
        for _ in range(40):
            clock.advance(0.25)
            screen.run_tick()
            if game.phase is not Phase.OPENING:
                break
        assert game.phase in (Phase.PLAY, Phase.STALEMATE)


def test_the_app_defaults_are_the_settings_file_defaults() -> None:
    from spit.bots import DEFAULT_LEVEL, LEVELS
    from spit.engine.config import VARIANT_FIELDS
    from spit.store import settings
    from spit.tui.app import GameSettings, settings_from_user

    assert GameSettings() == settings_from_user(UserSettings())
    assert GameSettings().computer_auto_spit == UserSettings().auto_spit
    assert settings.BOT_LEVELS == LEVELS and UserSettings().bot_level == DEFAULT_LEVEL
    assert tuple(VARIANT_FIELDS) == settings.VARIANTS
