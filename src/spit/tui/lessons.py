"""The tutorial's lesson list: pick a lesson to play, skip ahead or play one again."""

from __future__ import annotations

from collections.abc import Collection

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from spit.play.tutorial import LESSONS
from spit.tui import MENUS_CSS_PATH

#: the mark of a lesson done in this tutorial (in ASCII: ``ASCII_DONE_MARK``)
DONE_MARK = "✓"
ASCII_DONE_MARK = "*"


def lesson_label(index: int, done: bool, mark: str = DONE_MARK) -> str:
    """One line of the list: the lesson's number and title, and whether it is done."""
    return f"{mark if done else ' '} {index + 1}. {LESSONS[index].title}"


class LessonsScreen(ModalScreen[int | None]):
    """Every lesson, the current one highlighted; dismisses with the one chosen, or None."""

    CSS_PATH = MENUS_CSS_PATH
    BINDINGS = [Binding("escape,tab", "cancel", "Back")]  # noqa: RUF012

    def __init__(self, current: int, done: Collection[int], ascii_only: bool = False) -> None:
        super().__init__()
        self.current = current
        self.done = set(done)
        self.mark = ASCII_DONE_MARK if ascii_only else DONE_MARK

    def compose(self) -> ComposeResult:
        with Vertical(id="lessons-box"):
            yield Static("[b]Lessons[/b]: pick one to play (again)", classes="hint")
            yield OptionList(
                *[
                    Option(lesson_label(i, i in self.done, self.mark), id=str(i))
                    for i in range(len(LESSONS))
                ],
                id="lessons",
            )
            yield Static(f"{self.mark}: done   Enter: play it   Esc: back", classes="hint")

    def on_mount(self) -> None:
        lessons = self.query_one("#lessons", OptionList)
        lessons.highlighted = self.current
        lessons.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(event.option.id or 0))

    def action_cancel(self) -> None:
        self.dismiss(None)
