"""A third mode's own setting (tests/support/duel.py: the cards in a hand) is offered
by the settings and setup screens, kept in the settings file and dealt with,
with no change outside its module: everything asks the mode's schema (issue 22)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tests.support import FakeClock
from tests.support.duel import DUEL, DuelGame
from tests.support.pilot import running
from textual.widgets import Input, Static
from tui_helpers import screen_of, screen_text

from spit.engine import register_mode
from spit.engine.modes import unregister_mode
from spit.store.settings import Settings as UserSettings
from spit.store.settings import load_settings, save_settings
from spit.tui.app import AppDependencies
from spit.tui.dealer import Opening, make_game, settings_from_user
from spit.tui.dialogs import SettingsScreen
from spit.tui.launch import configured_app
from spit.tui.setup import SetupScreen

SIZE = (100, 40)


@pytest.fixture(autouse=True)
def duel() -> Iterator[None]:
    register_mode(DUEL)
    yield
    unregister_mode("duel")


def test_duel_setting_is_kept_in_its_own_table_and_dealt_with() -> None:
    assert UserSettings().rules_of("duel") == {"hand": 3}
    save_settings(UserSettings().with_rules("duel", hand=5))
    loaded, warnings = load_settings()
    assert warnings == [] and loaded.rules_of("duel") == {"hand": 5}
    assert loaded.rules_of("spit") == UserSettings().rules_of("spit")  # the others untouched
    game = make_game("duel", settings_from_user(loaded), 7)
    assert isinstance(game, DuelGame) and len(game.columns(0)) == len(game.columns(1)) == 5


async def test_the_settings_screen_offers_duel_setting_saves_and_reads_it(
    clock: FakeClock,
) -> None:
    app = configured_app(deps=AppDependencies(clock=clock))
    async with running(app, size=SIZE) as pilot:
        app.push_screen(SettingsScreen(app.settings, app.deps.save_settings))
        await pilot.pause()
        screen = app.screen
        assert "Duel cards in hand" in screen_text(app)
        field = screen.query_one("#rule-duel-hand", Input)
        assert field.value == "3"
        field.value = "9"
        await pilot.press("ctrl+s")
        await pilot.pause()
        said = str(screen.query_one("#settings-message", Static).render())
        assert said.startswith("Not saved: Duel cards in hand")
        assert "from 3 to 5" in said and load_settings()[0].rules_of("duel") == {"hand": 3}
        field.value = "4"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert load_settings()[0].rules_of("duel") == {"hand": 4}
        assert app.settings.game.rules_of("duel") == {"hand": 4}  # used from now on
    fresh = configured_app(deps=AppDependencies(clock=FakeClock()))
    async with running(fresh, size=SIZE) as pilot:
        fresh.push_screen(SettingsScreen(fresh.settings, fresh.deps.save_settings))
        await pilot.pause()
        assert fresh.screen.query_one("#rule-duel-hand", Input).value == "4"


async def test_the_setup_offers_duel_setting_and_deals_with_it(clock: FakeClock) -> None:
    app = configured_app(Opening(), deps=AppDependencies(clock=clock))
    async with running(app) as pilot:
        app.push_screen(SetupScreen(app.settings, app.deps.save_settings, "duel"))
        await pilot.pause()
        setup = app.screen
        assert "Cards in hand" in screen_text(app) and "each player holds 3 to 5" in screen_text(
            app
        )
        assert not setup.query_one("#setup-match").display  # Duel has no match to a target
        (field,) = [f for f in setup.query(Input) if f.name == "hand"]
        field.value = "5"
        setup.query_one("#setup-start").focus()
        await pilot.press("enter")
        await pilot.pause()
        game = screen_of(app).session.game
        assert isinstance(game, DuelGame) and game.config.hand == 5
    saved, _ = load_settings()
    assert saved.mode == "duel" and saved.rules_of("duel") == {"hand": 5}
