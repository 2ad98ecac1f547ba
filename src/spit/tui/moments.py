"""The coach's moments after a game: pick one to watch it again in the replay viewer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from spit.tui import MENUS_CSS_PATH

if TYPE_CHECKING:
    from spit.play.coach import Moment

NO_MOMENTS = "Nothing to watch again: no chance was missed and no play was slow."


class MomentsScreen(ModalScreen[int | None]):
    """The moments, numbered as ``spit coach`` numbers them (``labels[p]``: player
    ``p``'s name); dismisses with the index of the one chosen, or None."""

    CSS_PATH = MENUS_CSS_PATH
    BINDINGS = [Binding("escape,f3", "cancel", "Back")]  # noqa: RUF012

    def __init__(self, moments: Sequence[Moment], labels: tuple[str, str]) -> None:
        super().__init__()
        self.moments = list(moments)
        self.labels = labels

    def compose(self) -> ComposeResult:
        with Vertical(id="moments-box"):
            yield Static("[b]Moments to watch again[/b]: the replay opens there", classes="hint")
            if self.moments:
                yield OptionList(
                    *[
                        Option(Text(f"{n}. {self.labels[m.player]}: {m.words()}"), id=str(n - 1))
                        for n, m in enumerate(self.moments, start=1)
                    ],
                    id="moments",
                )
            else:
                yield Static(NO_MOMENTS)
            yield Static("Enter: watch it   Esc: back", classes="hint")

    def on_mount(self) -> None:
        if self.moments:
            self.query_one("#moments", OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(event.option.id or 0))

    def action_cancel(self) -> None:
        self.dismiss(None)
