"""Readable for everyone (issue 9): palettes chosen in the settings, ASCII suits,
names shown as typed, and messages that are never cut mid-word."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.support import FakeClock
from tests.support.pilot import running
from tui_helpers import make_app, playable, region, screen_of

from spit.play.session import RoundSummary
from spit.store.settings import Settings as UserSettings
from spit.store.settings import load_settings, save_settings
from spit.tui.dealer import AppDependencies, Opening
from spit.tui.dialogs import RoundScreen, SettingsScreen
from spit.tui.launch import configured_app
from spit.tui.render import PALETTES, fit

MARKUP_NAMES = ("[afk] bob", "Bob [/b]")


def card_styles(app, name: str) -> set[str]:
    """The colours of the card faces and inks drawn in one board region."""
    text = screen_of(app).board.text(name)
    out = set()
    for span in text.spans:
        style = span.style
        if style.bgcolor is not None:
            out.add(style.bgcolor.name)
        if style.color is not None and style.bgcolor is not None:
            out.add(style.color.name)
    return out


async def test_cards_use_the_palette_from_the_settings(clock: FakeClock) -> None:
    save_settings(UserSettings(palette="four-colour"))
    app = configured_app(Opening("spit"), deps=AppDependencies(clock=clock))
    async with running(app) as pilot:
        await pilot.pause()
        four = PALETTES["four-colour"]
        styles = card_styles(app, "p1-cards") | card_styles(app, "p2-cards")
        assert four.face in styles
        assert styles - {four.face} <= set(four.inks)
        assert app.theme == "textual-dark"


async def test_settings_screen_chooses_the_palette_and_theme(clock: FakeClock) -> None:
    app = make_app(clock, start=None)
    async with running(app) as pilot:
        app.push_screen(SettingsScreen(app.settings, app.deps.save_settings))
        await pilot.pause()
        app.screen.query_one("#palette").value = "light"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert load_settings()[0].palette == "light"
        assert app.theme == "textual-light" and app.settings.palette is PALETTES["light"]


def test_palette_setting_in_the_file(isolated_dirs: Path) -> None:
    path = isolated_dirs / "config" / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_text('[display]\npalette = "colour-blind"\n')
    assert load_settings()[0].palette == "colour-blind"
    path.write_text('[display]\npalette = "sepia"\n')
    settings, warnings = load_settings()
    assert settings.palette == "default"
    assert "line 2: display.palette: must be one of" in warnings[0]


async def test_ascii_board_has_no_other_characters(clock: FakeClock) -> None:
    app = make_app(clock, playable, ascii_only=True)
    async with running(app) as pilot:
        await pilot.pause()
        for name in ("p1-cards", "p2-cards", "centre", "footer", "status"):
            assert region(app, name).isascii(), name
        assert "6D" in region(app, "p1-cards") and "+-----+" in region(app, "p1-cards")
        await pilot.press("space")  # the pause box
        await pilot.pause()
        assert app.has_class("-ascii")


@pytest.mark.parametrize("name", MARKUP_NAMES)
async def test_names_with_markup_on_the_board(clock: FakeClock, name: str) -> None:
    app = make_app(clock, playable, names=(name, "Cy"))
    async with running(app) as pilot:
        await pilot.pause()
        assert region(app, "p1-info").startswith(f" {name} ")


@pytest.mark.parametrize("name", MARKUP_NAMES)
async def test_names_with_markup_between_rounds(clock: FakeClock, name: str) -> None:
    app = make_app(clock, start=None)
    async with running(app) as pilot:
        summary = RoundSummary(1, f"{name} emptied the layout", (0, 3), (0, 3))
        app.push_screen(RoundScreen(summary, (name, "Cy"), "V4"))
        await pilot.pause()
        shown = str(app.screen.query_one("#round-text").render())
        assert f"{name} emptied the layout" in shown and f"Score: {name} 0" in shown


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("Ann\tLee", "control characters"),
        ("A" * 30, "at most 24 characters (this one has 30)"),
        ("   ", "give a name"),
    ],
)
async def test_a_bad_name_is_refused_with_its_own_reason(
    clock: FakeClock, typed: str, reason: str
) -> None:
    app = make_app(clock, start=None)
    async with running(app) as pilot:
        app.push_screen(SettingsScreen(app.settings, app.deps.save_settings))
        await pilot.pause()
        app.screen.query_one("#name1").value = typed
        await pilot.press("ctrl+s")
        await pilot.pause()
        message = str(app.screen.query_one("#settings-message").render())
        assert message.startswith("Not saved: Player 1:") and reason in message
    assert load_settings()[0].names[0] == "Player 1"


async def test_a_save_error_names_the_file_and_reason(
    clock: FakeClock, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    monkeypatch.setenv("SPIT_CONFIG", str(blocker / "config.toml"))
    app = configured_app(deps=AppDependencies(clock=clock))
    async with running(app) as pilot:
        app.push_screen(SettingsScreen(app.settings, app.deps.save_settings))
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        message = str(app.screen.query_one("#settings-message").render())
        assert str(blocker / "config.toml") in message and "is a file, not a folder" in message


def test_fit_cuts_at_a_word_with_an_ellipsis() -> None:
    assert fit("Computer (expert) wins", 15) == "Computer…"
    assert fit("short", 15) == "short"
    assert fit("Abcdefghijklmnopq", 8) == "Abcdefg…"
    assert fit("one two three", 8) == "one two…"


@pytest.mark.parametrize("name", [*MARKUP_NAMES, "Christopher Alexander"])
async def test_names_on_the_keys_screen(clock: FakeClock, name: str) -> None:
    from textual.widgets import DataTable

    from spit.tui.remap import KeysScreen

    save_settings(UserSettings(names=(name, "Cy")))
    app = configured_app(deps=AppDependencies(clock=clock))
    async with running(app) as pilot:
        app.push_screen(KeysScreen(app.settings, app.deps.save_settings))
        await pilot.pause()
        table = app.screen.query_one(DataTable)
        label = table.columns["p0"].label.plain  # type: ignore[index]
        assert label == fit(f"1: {name}", 18)
        assert label.startswith(f"1: {name}") or label.endswith("…")


@pytest.mark.parametrize("page", ["rules", "help"])
async def test_ascii_rules_and_help_pages_draw_ascii_bullets(clock: FakeClock, page: str) -> None:
    from textual.widgets import Markdown
    from textual.widgets._markdown import MarkdownBullet

    from spit.play.texts import SPIT_RULES
    from spit.tui.screens import DocScreen, HelpScreen

    app = make_app(clock, playable, start=None, ascii_only=True)
    async with running(app) as pilot:
        await pilot.pause()
        ascii_only = app.settings.ascii_only
        app.push_screen(
            DocScreen(SPIT_RULES, ascii_only)
            if page == "rules"
            else HelpScreen(app.settings.keymap, ascii_only)
        )
        await pilot.pause(0.2)
        bullets = list(app.screen.query(MarkdownBullet))
        assert bullets  # the rules have lists
        assert all(str(b.symbol).isascii() for b in bullets), [b.symbol for b in bullets]
        assert all(md.source.isascii() for md in app.screen.query(Markdown))
