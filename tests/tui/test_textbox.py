"""A board line that does not fit its box ends in "…", never cut bare."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult

from spit.tui.widgets.board import Board, TextBox, fitted


class OneBox(App[None]):
    CSS = "Board { width: 20; height: 24; }"

    def compose(self) -> ComposeResult:
        with Board(id="board"):
            yield TextBox(id="centre")  # rows 8-12 of the board


async def test_a_line_wider_than_its_box_ends_in_an_ellipsis() -> None:
    app = OneBox()
    async with app.run_test(size=(40, 5)) as pilot:
        board = app.query_one(Board)
        box = app.query_one("#centre", TextBox)
        box.set(Text("GAME OVER: Computer (expert) wins\nshort", style="bold"))
        await pilot.pause()
        first, second = (line.text for line in board.render_lines(board.size.region)[8:10])
        assert first == "GAME OVER: Computer…"
        assert second.rstrip() == "short"


def test_fitted_keeps_styles_and_leaves_short_text_alone() -> None:
    text = Text("ab", style="bold")
    assert fitted(text, 5) is text
    long = Text.assemble(("red part ", "red"), ("plain tail", ""))
    cut = fitted(long, 12)
    assert cut.plain == "red part pl…"
    assert cut.spans[0].style == "red" and cut.spans[0].end == 9
