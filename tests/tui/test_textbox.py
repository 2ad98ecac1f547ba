"""A board line that does not fit its box ends in "…", never cut bare."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult

from spit.tui.widgets.board import TextBox, fitted


class OneBox(App[None]):
    CSS = "TextBox { width: 20; height: 2; }"

    def compose(self) -> ComposeResult:
        yield TextBox(id="box")


async def test_a_line_wider_than_its_box_ends_in_an_ellipsis() -> None:
    app = OneBox()
    async with app.run_test(size=(40, 5)) as pilot:
        box = app.query_one("#box", TextBox)
        box.set(Text("GAME OVER: Computer (expert) wins\nshort", style="bold"))
        await pilot.pause()
        first, second = (box.render_line(y).text for y in (0, 1))
        assert first == "GAME OVER: Computer…"
        assert second.rstrip() == "short"


def test_fitted_keeps_styles_and_leaves_short_text_alone() -> None:
    text = Text("ab", style="bold")
    assert fitted(text, 5) is text
    long = Text.assemble(("red part ", "red"), ("plain tail", ""))
    cut = fitted(long, 12)
    assert cut.plain == "red part pl…"
    assert cut.spans[0].style == "red" and cut.spans[0].end == 9
