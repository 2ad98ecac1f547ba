"""A yes/no box whose keys can never be a player's game key.

Enter says yes and Escape says no. Both are reserved app keys
(``spit.play.keys.APP_KEYS``), so no key map can bind them to a card: a
player hammering their keys can neither confirm nor cancel by accident.
Every other key is swallowed while the box is up.
"""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static


class ConfirmScreen(ModalScreen[bool]):
    """Ask before something that cannot be undone by a key press; dismisses True for yes."""

    BINDINGS = [  # noqa: RUF012
        Binding("enter", "answer(True)", "Yes"),
        Binding("escape", "answer(False)", "No"),
    ]

    def __init__(self, title: str, text: str, yes: str, no: str, id: str | None = None) -> None:
        """``yes`` and ``no`` name what Enter and Escape do ("save and leave")."""
        super().__init__(id=id)
        self.title_text = title
        self.text = text
        self.yes = yes
        self.no = no

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box"):
            yield Static(self.title_text, markup=False, classes="box-title", id="confirm-title")
            yield Static(self.text, markup=False, id="confirm-text")
            yield Static(
                f"Enter: {self.yes}    Esc: {self.no}",
                markup=False,
                classes="hint",
                id="confirm-keys",
            )

    def on_key(self, event: events.Key) -> None:
        """Only Enter and Escape answer; game keys and the rest do nothing here."""
        if event.key not in ("enter", "escape", "ctrl+q"):
            event.stop()
            event.prevent_default()

    def action_answer(self, yes: bool) -> None:
        """Close the box with the answer."""
        self.dismiss(yes)
