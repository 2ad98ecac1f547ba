"""The key-remapping screen: both players' keys, one action a row.

Arrows pick a player's key for an action, Enter (or a click) waits for the
new key, and the next key pressed takes its place (Escape cancels). Every
check is ``spit.play.keys.rebind``'s, the same as the settings file's: a key
the app reserves or that another action already uses is refused with the
reason. ctrl+s writes the keys to the settings file; the app uses them for
the next game and its help and keys screens.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.coordinate import Coordinate
from textual.screen import Screen
from textual.widgets import Button, DataTable, Static

from spit.play.keys import (
    ACTION_LABELS,
    ACTIONS,
    DEFAULT_KEYS,
    KeyProblem,
    key_of_event,
    rebind,
)
from spit.store.settings import Settings as UserSettings
from spit.tui import MENUS_CSS_PATH
from spit.tui.dealer import AppSettings, SaveSettings, write_settings
from spit.tui.messages import SettingsChanged
from spit.tui.render import fit

Keys = tuple[dict[str, str], dict[str, str]]


def _label(action: str) -> str:
    text = ACTION_LABELS[action]
    return text[:1].upper() + text[1:]


class KeysScreen(Screen[None]):
    """Remap both players' keys and save them to the settings file."""

    CSS_PATH = MENUS_CSS_PATH
    BINDINGS = [  # noqa: RUF012
        Binding("ctrl+s", "save", "Save"),
        Binding("ctrl+r", "reset", "Reset to defaults"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, settings: AppSettings, save: SaveSettings) -> None:
        super().__init__()
        #: the app's settings in force (read here; a save is told to the app)
        self.settings = settings
        #: writes the settings file
        self.save = save
        #: (player, action) waiting for its new key, or None
        self.capturing: tuple[int, str] | None = None
        self.keys: Keys = ({}, {})
        self.saved_keys: Keys = ({}, {})
        self._warned_unsaved = False

    @property
    def user(self) -> UserSettings:
        """The settings file's contents (as last saved)."""
        return self.settings.user

    def compose(self) -> ComposeResult:
        yield Static(
            "[b]Keys:[/b] arrows choose, Enter then press the new key (Esc cancels)",
            classes="hint",
        )
        yield DataTable(id="keys-table", cursor_type="cell", zebra_stripes=True)
        yield Static("", id="keys-message")
        with Horizontal(id="keys-buttons"):
            yield Button("Save (ctrl+s)", id="keys-save", compact=True)
            yield Button("Reset to defaults (ctrl+r)", id="keys-reset", compact=True)
            yield Button("Back (Esc)", id="keys-back", compact=True)

    def on_mount(self) -> None:
        user = self.user
        self.keys = (dict(user.keys[0]), dict(user.keys[1]))
        self.saved_keys = (dict(user.keys[0]), dict(user.keys[1]))
        table = self.query_one(DataTable)
        names = user.names
        table.add_column("Action", key="action")
        # a name is what someone typed: plain Text, never markup; cut at a word with "…"
        table.add_column(Text(fit(f"1: {names[0]}", 18)), key="p0")
        table.add_column(Text(fit(f"2: {names[1]}", 18)), key="p1")
        for action in ACTIONS:
            table.add_row(_label(action), "", "", key=action)
        self.refresh_cells()
        table.cursor_coordinate = Coordinate(0, 1)
        table.focus()

    # ---------------------------------------------------------------- display

    def cell(self, player: int, action: str) -> Text:
        """One key as the table shows it: changed keys stand out until saved."""
        if self.capturing == (player, action):
            return Text("press a key…", style="bold reverse")
        key = self.keys[player][action]
        changed = key != self.saved_keys[player][action]
        return Text(f" {key} ", style="bold yellow" if changed else "")

    def refresh_cells(self) -> None:
        """Show the keys being edited."""
        table = self.query_one(DataTable)
        for action in ACTIONS:
            for p in (0, 1):
                table.update_cell(action, f"p{p}", self.cell(p, action))

    def say(self, text: str, error: bool = False) -> None:
        """Show a line under the table."""
        style = "bold red" if error else "bold green"
        message = Text(text, style=style)
        self.query_one("#keys-message", Static).update(message)

    @property
    def dirty(self) -> bool:
        """True while there are changes not yet saved."""
        return self.keys != self.saved_keys

    # ---------------------------------------------------------------- editing

    def on_data_table_cell_highlighted(self, event: DataTable.CellHighlighted) -> None:
        if event.coordinate.column == 0:  # the labels column holds no keys
            self.query_one(DataTable).cursor_coordinate = event.coordinate.right()

    def on_data_table_cell_selected(self, event: DataTable.CellSelected) -> None:
        row, column = event.coordinate.row, event.coordinate.column
        if column == 0:
            column = 1
        self.start_capture(column - 1, ACTIONS[row])

    def start_capture(self, player: int, action: str) -> None:
        """Wait for the next key: it becomes ``player``'s key for ``action``."""
        self.capturing = (player, action)
        self.refresh_cells()
        self.say(
            f"Press the new key for player {player + 1}: {ACTION_LABELS[action]} (Esc cancels)",
        )

    def on_key(self, event: events.Key) -> None:
        """While waiting for a new key, the next key is it (Escape cancels)."""
        if self.capturing is None:
            return
        event.stop()
        event.prevent_default()
        player, action = self.capturing
        self.capturing = None
        if event.key == "escape":
            self.refresh_cells()
            self.say("Cancelled: the key is unchanged.")
            return
        key = key_of_event(event.key, event.character)
        self.assign(player, action, key)

    def assign(self, player: int, action: str, key: str) -> bool:
        """Put ``key`` on ``player``'s ``action`` if the settings' checks allow it."""
        try:
            self.keys = rebind(self.keys, player, action, key)
        except KeyProblem as exc:
            self.refresh_cells()
            self.say(f"Refused: {exc}. Enter to try another key.", error=True)
            return False
        self._warned_unsaved = False
        self.refresh_cells()
        self.say(
            f"Player {player + 1} now uses {self.keys[player][action]!r} to "
            f"{ACTION_LABELS[action]}. ctrl+s saves."
        )
        return True

    def action_reset(self) -> None:
        """Put back the default keys for both players (saved by ctrl+s)."""
        self.capturing = None
        self.keys = (dict(DEFAULT_KEYS[0]), dict(DEFAULT_KEYS[1]))
        self.refresh_cells()
        self.say("Default keys for both players. ctrl+s saves.")

    def action_save(self) -> None:
        """Write the keys to the settings file and use them from the next game."""
        user = self.user.with_changes(keys=(dict(self.keys[0]), dict(self.keys[1])))
        path, problem = write_settings(self.save, user)
        if path is None:
            self.say(f"Not saved: {problem}", error=True)
            return
        self.post_message(SettingsChanged(user))
        self.saved_keys = (dict(self.keys[0]), dict(self.keys[1]))
        self.refresh_cells()
        if problem:
            self.say(f"Saved to {path}, but {problem}", error=True)
        else:
            self.say(f"Saved to {path}; the next game uses these keys.")

    def action_back(self) -> None:
        """Leave; with unsaved changes, the first Esc only warns."""
        if self.dirty and not self._warned_unsaved:
            self._warned_unsaved = True
            self.say("Changes not saved: ctrl+s saves, Esc again leaves without them.", True)
            return
        self.app.pop_screen()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "keys-save":
            self.action_save()
        elif event.button.id == "keys-reset":
            self.action_reset()
        else:
            self.action_back()
