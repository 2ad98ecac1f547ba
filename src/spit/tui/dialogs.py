"""Screens around the game: config warnings, between rounds, and the settings editor."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from spit.engine import all_modes
from spit.engine.errors import ConfigError
from spit.engine.modes import Mode
from spit.engine.schema import Setting, SettingValue
from spit.play.session import RoundSummary
from spit.realtime.timers import MAX_FUMBLE_TIME
from spit.store.settings import (
    BOT_LEVELS,
    MAX_NAME,
    MAX_REPEAT_WINDOW,
    PALETTE_NAMES,
    same_name,
)
from spit.store.settings import Settings as UserSettings
from spit.tui import MENUS_CSS_PATH
from spit.tui.checkbox import StateCheckbox
from spit.tui.dealer import AppSettings, SaveSettings, write_settings
from spit.tui.messages import SettingsChanged
from spit.tui.remap import KeysScreen
from spit.tui.render import PALETTES

__all__ = ["RoundScreen", "SettingsScreen", "StateCheckbox", "WarningsScreen"]


class WarningsScreen(ModalScreen[None]):
    """Problems in the settings file: what is wrong, where, and that defaults are used."""

    BINDINGS = [  # noqa: RUF012
        Binding("enter", "close", "Continue"),
        Binding("escape", "close", show=False),
        Binding("space", "close", show=False),
    ]

    def __init__(self, warnings: list[str]) -> None:
        super().__init__()
        self.warnings = warnings

    def compose(self) -> ComposeResult:
        with Vertical(id="warnings-box"):
            yield Static("[b]The settings file has mistakes[/b]", classes="box-title")
            with VerticalScroll(id="warnings-list"):
                for warning in self.warnings:
                    yield Static(f"• {warning}", markup=False, classes="warning")
            yield Static("The bad parts use their defaults; everything else applies.")
            yield Static("Enter: continue (arrows scroll)", classes="hint")

    def action_close(self) -> None:
        """Go on to the game or the menu."""
        self.dismiss(None)


def summary_lines(summary: RoundSummary, names: tuple[str, str], target: int | None) -> list[str]:
    """The between-rounds screen's text, one line each."""
    head = "The match is over" if summary.match_over else f"Round {summary.round_no} is over"
    lines = [head, "", summary.how]
    if summary.takes:
        lines.append("; ".join(summary.takes))
    a, b = summary.points
    lines.append(f"Points this round: {names[0]} {a}, {names[1]} {b}")
    lines.append("")
    t1, t2 = summary.totals
    goal = f" (match to {target})" if target else ""
    lines.append(f"Score: {names[0]} {t1} - {names[1]} {t2}{goal}")
    return lines


class RoundScreen(ModalScreen[None]):
    """Between the rounds of a match: what happened and the running score (V4, P7)."""

    BINDINGS = [  # noqa: RUF012
        Binding("enter", "close", "Next round"),
        Binding("space", "close", show=False),
        Binding("escape", "close", show=False),
    ]

    def __init__(self, summary: RoundSummary, names: tuple[str, str], rule: str) -> None:
        super().__init__()
        self.summary = summary
        self.names = names
        self.rule = rule

    def compose(self) -> ComposeResult:
        lines = summary_lines(self.summary, self.names, None)
        with Vertical(id="round-box"):
            yield Static(f"[b]{lines[0]}[/b]", classes="box-title")
            yield Static("\n".join(lines[1:]), markup=False, id="round-text")
            yield Static(self.rule, classes="hint")
            key = "Enter: see the result" if self.summary.match_over else "Enter: next round"
            yield Static(key, classes="hint")

    def action_close(self) -> None:
        """On with the match."""
        self.dismiss(None)


class SettingsError(ValueError):
    """A field of the settings screen holds a value that cannot be used."""


def _number(text: str, what: str, low: float, high: float) -> float:
    try:
        value = float(text)
    except ValueError:
        raise SettingsError(f"{what}: {text!r} is not a number") from None
    if not low <= value <= high:
        raise SettingsError(f"{what}: must be from {low:g} to {high:g}")
    return value


def _name(text: str, what: str) -> str:
    """A player's name as typed, or SettingsError saying what is wrong with it."""
    name = text.strip()
    if not name:
        raise SettingsError(f"{what}: give a name")
    if not name.isprintable():
        raise SettingsError(
            f"{what}: a name cannot hold control characters (such as tab or escape)"
        )
    if len(name) > MAX_NAME:
        raise SettingsError(
            f"{what}: a name has at most {MAX_NAME} characters (this one has {len(name)})"
        )
    return name


FIELDS = (
    ("name1", "Player 1's name"),
    ("name2", "Player 2's name"),
    ("bot_level", "Computer level"),
    ("auto_spit", "Auto-spit vs computer"),
    ("slap_time", "Slap time (s)"),
    ("repeat_window", "Held-key window (s)"),
    ("fumble_time", "Fumble time (s)"),
    ("race_margin", "Race margin (s)"),
    ("palette", "Card colours"),
    ("effects", "Board effects"),
    ("sound", "Sound"),
)
#: The fields chosen from a list (a Select each), with each choice's words.
CHOICES: dict[str, tuple[tuple[str, str], ...]] = {
    "bot_level": tuple((level, level) for level in BOT_LEVELS),
    "palette": tuple((PALETTES[name].label, name) for name in PALETTE_NAMES),
    "effects": (("on", "on"), ("off (reduce motion)", "off")),
    "sound": (("off", "off"), ("the terminal bell", "on")),
}
HINTS = {
    "bot_level": "against the computer",
    "auto_spit": 'seconds (0-30) or "off"',
    "slap_time": "0.5 to 30 seconds",
    "repeat_window": "0 to 2 seconds (0: off)",
    "fumble_time": "0 to 2 seconds (0: off)",
    "race_margin": "0 to 2 seconds",
    "palette": "light: the whole screen",
    "effects": "a played card's slot and pile light up",
    "sound": "on a stalemate, a spit, a game's end",
}


def rule_id(mode: Mode, setting: Setting) -> str:
    """The settings screen's widget id for one of a mode's settings."""
    return f"rule-{mode.name}-{setting.key}"


def rule_modes() -> tuple[Mode, ...]:
    """The modes whose settings the screen shows (those whose schema has any)."""
    return tuple(m for m in all_modes() if m.settings)


class SettingsScreen(Screen[None]):
    """Edit the settings file: names, each game's rules (as its schema declares
    them), computer level, timing (auto-spit, slap time, held-key window).

    ctrl+s saves to the config file and uses the settings at once; Esc leaves
    without saving. "Keys…" opens the key-remapping screen (``KeysScreen``).
    """

    CSS_PATH = MENUS_CSS_PATH
    BINDINGS = [  # noqa: RUF012
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, settings: AppSettings, save: SaveSettings) -> None:
        super().__init__()
        #: the app's settings in force (read here; a save is told to the app)
        self.settings = settings
        #: writes the settings file
        self.save = save

    def compose(self) -> ComposeResult:
        user = self.settings.user
        values = {
            "name1": user.names[0],
            "name2": user.names[1],
            "bot_level": user.bot_level,
            "auto_spit": "off" if user.auto_spit is None else f"{user.auto_spit:g}",
            "slap_time": f"{user.slap_time:g}",
            "repeat_window": f"{user.repeat_window:g}",
            "fumble_time": f"{user.fumble_time:g}",
            "race_margin": f"{user.race_margin:g}",
            "palette": user.palette,
            "effects": "off" if user.reduce_motion else "on",
            "sound": "on" if user.sound else "off",
        }
        yield Static(
            "[b]Settings:[/b] Tab next field, ctrl+s save, Esc back without saving",
            classes="hint",
        )
        with VerticalScroll(id="settings-form"):
            for mode in rule_modes():
                yield from self.rule_rows(mode, user.rules_of(mode.name))
            for key, label in FIELDS:
                with Horizontal(classes="setting-row"):
                    yield Label(label, classes="setting-label")
                    if key in CHOICES:
                        yield Select(
                            CHOICES[key],
                            value=values[key],
                            allow_blank=False,
                            id=key,
                            compact=True,
                            classes="setting-input",
                        )
                    else:
                        yield Input(values[key], id=key, compact=True, classes="setting-input")
                    yield Label(HINTS.get(key, ""), classes="setting-hint")
        # the buttons and the message stay in sight below the form, which scrolls
        with Horizontal(id="settings-buttons"):
            yield Button("Save", id="save", compact=True)
            yield Button("Keys…", id="keys", compact=True)
            yield Button("Back", id="back", compact=True)
        yield Static("", id="settings-message")

    def rule_rows(self, mode: Mode, values: dict[str, SettingValue]) -> ComposeResult:
        """``mode``'s settings: a box to tick on a line of its own for each rule (so none
        is cut off at 80 columns), then a row for each other setting."""
        flags = [s for s in mode.settings if s.kind == "flag"]
        for number, s in enumerate(flags):
            last = number == len(flags) - 1
            with Horizontal(classes="setting-row" if last else "setting-row rule-flag"):
                yield Label(f"{mode.title} rules" if number == 0 else "", classes="setting-label")
                yield StateCheckbox(s.label, bool(values[s.key]), id=rule_id(mode, s), compact=True)
        for s in mode.settings:
            if s.kind == "flag":
                continue
            with Horizontal(classes="setting-row"):
                yield Label(f"{mode.title} {s.label}", classes="setting-label")
                if s.kind == "choice":
                    yield Select(
                        tuple(zip(s.choice_words, s.choices, strict=True)),
                        value=str(values[s.key]),
                        allow_blank=False,
                        id=rule_id(mode, s),
                        compact=True,
                        classes="setting-input",
                    )
                else:
                    yield Input(
                        str(values[s.key]), id=rule_id(mode, s), compact=True,
                        classes="setting-input",
                    )  # fmt: skip
                yield Label(s.line, classes="setting-hint")

    def on_mount(self) -> None:
        self.query_one("#settings-form").query("Checkbox, Input, Select").first().focus()

    def rules_shown(self, mode: Mode) -> dict[str, SettingValue]:
        """``mode``'s settings as the form shows them; SettingsError for a bad field."""
        values: dict[str, SettingValue] = {}
        for s in mode.settings:
            widget_id = f"#{rule_id(mode, s)}"
            try:
                if s.kind == "flag":
                    values[s.key] = self.query_one(widget_id, Checkbox).value
                elif s.kind == "choice":
                    values[s.key] = s.parse(str(self.query_one(widget_id, Select).value))
                else:
                    values[s.key] = s.parse(self.query_one(widget_id, Input).value)
            except ConfigError as exc:
                raise SettingsError(f"{mode.title} {exc}") from None
        return values

    def value(self, key: str) -> str:
        """The text in one field (or the choice of a Select)."""
        if key in CHOICES:
            return str(self.query_one(f"#{key}", Select).value)
        return self.query_one(f"#{key}", Input).value.strip()

    def read(self) -> UserSettings:
        """The settings as the form shows them; raises SettingsError for a bad field."""
        user = self.settings.user
        for mode in rule_modes():
            user = user.with_rules(mode.name, **self.rules_shown(mode))
        level = self.value("bot_level")
        if level not in BOT_LEVELS:
            raise SettingsError(f"Computer level: choose from {', '.join(BOT_LEVELS)}")
        palette = self.value("palette")
        if palette not in PALETTE_NAMES:
            raise SettingsError(f"Card colours: choose from {', '.join(PALETTE_NAMES)}")
        names = (_name(self.value("name1"), "Player 1"), _name(self.value("name2"), "Player 2"))
        if same_name(*names):
            raise SettingsError("the two players need different names")
        auto_text = self.value("auto_spit").lower()
        auto = None if auto_text == "off" else _number(auto_text, "Auto-spit", 0.0, 30.0)
        return user.with_changes(
            names=names,
            bot_level=level,
            auto_spit=auto,
            slap_time=_number(self.value("slap_time"), "Slap time", 0.5, 30.0),
            repeat_window=_number(
                self.value("repeat_window"), "Held-key window", 0.0, MAX_REPEAT_WINDOW
            ),
            fumble_time=_number(self.value("fumble_time"), "Fumble time", 0.0, MAX_FUMBLE_TIME),
            race_margin=_number(self.value("race_margin"), "Race margin", 0.0, MAX_FUMBLE_TIME),
            palette=palette,
            reduce_motion=self.value("effects") == "off",
            sound=self.value("sound") == "on",
        )

    def say(self, text: str, error: bool = False) -> None:
        """Show a message under the form (wrapped, never cut; never read as markup)."""
        style = "bold red" if error else "bold green"
        self.query_one("#settings-message", Static).update(Text(text, style=style))

    def action_save(self) -> None:
        """Check the form, write the config file, and use the settings from now on."""
        try:
            user = self.read()
        except SettingsError as exc:
            self.say(f"Not saved: {exc}", error=True)
            return
        path, problem = write_settings(self.save, user)
        if path is None:
            self.say(f"Not saved: {problem}", error=True)
            return
        self.post_message(SettingsChanged(user))
        self.say(f"Saved to {path}" + (f" ({problem})" if problem else ""))

    def action_back(self) -> None:
        """Leave without saving."""
        self.app.pop_screen()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.action_save()
        elif event.button.id == "keys":
            self.app.push_screen(KeysScreen(self.settings, self.save))
        else:
            self.action_back()
