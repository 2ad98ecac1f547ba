"""Issue 21's defects a newcomer met, each checked where a player sees it."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.support import FakeClock
from tui_helpers import make_app, screen_text

from spit.store.settings import Settings as UserSettings
from spit.store.settings import load_settings, save_settings
from spit.tui.dialogs import SettingsScreen

SIZE = (100, 30)


async def test_settings_checkboxes_show_on_and_off_in_plain_text(clock: FakeClock) -> None:
    """Defect 20: a ticked and an unticked box differ in their characters, not only colour."""
    save_settings(UserSettings(variants=("V1",)))
    app = make_app(clock, start=None)
    app.settings.apply(load_settings()[0])
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(SettingsScreen(app.settings, app.deps.save_settings))
        await pilot.pause()
        text = screen_text(app)
        assert "[X] four stocks" in text and "[ ] alternating colours" in text
        app.screen.query_one("#variant-V3").value = True
        await pilot.pause()
        assert "[X] alternating colours" in screen_text(app)
