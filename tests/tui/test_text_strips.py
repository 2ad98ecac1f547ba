"""The board's boxes draw their lines themselves: the same lines Textual would draw."""

from __future__ import annotations

import random

from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult
from textual.strip import Strip
from textual.widget import Widget

from spit.tui.render import BORDER, DEFAULT_PALETTE, DIM, FLASH_BORDER, KEY_STYLE, PALETTES
from spit.tui.widgets.board import TextBox

STYLES: list[str | Style] = [
    BORDER,
    DIM,
    KEY_STYLE,
    *(PALETTES["light"].card_style(c) for c in range(0, 52, 13)),
    DEFAULT_PALETTE.face_style,
    PALETTES["light"].key_style,
    FLASH_BORDER,
    "bold reverse",
    "green bold",
    "bold bright_red",
]
OWN_STYLES: list[str | Style] = [
    "",
    "bold yellow",
    "green",
    "bold bright_red",  # not Textual's syntax: Textual draws it unstyled, and so do we
    Style(bold=True),
    DIM,
]


class Boxes(App[None]):
    CSS = "TextBox { height: 6; }"

    def compose(self) -> ComposeResult:
        yield TextBox(id="box")


def random_text(rng: random.Random) -> Text:
    words = ["╭─────╮", "│ 6♦  │", " keys ", "q a z", "◀ P1", "", "Play!", " " * rng.randint(1, 9)]
    lines = ["".join(rng.choice(words) for _ in range(rng.randint(0, 6))) for _ in range(5)]
    text = Text("\n".join(lines[: rng.randint(1, 5)]), style=rng.choice(OWN_STYLES))
    for _ in range(rng.randint(0, 12)):
        start = rng.randint(0, len(text.plain))
        text.stylize(rng.choice(STYLES), start, start + rng.randint(0, 30))
    return text


def plain_segments(strip: Strip) -> list[tuple[str, Style | None]]:
    """A line's text and styles, adjacent runs of one style joined, selection offsets dropped."""
    out: list[tuple[str, Style | None]] = []
    for segment in strip:
        style = None if segment.style is None else segment.style.without_color + Style(
            color=segment.style.color, bgcolor=segment.style.bgcolor
        )
        if out and out[-1][1] == style:
            out[-1] = (out[-1][0] + segment.text, style)
        else:
            out.append((segment.text, style))
    return [(text, style) for text, style in out if text] or [("", None)]


async def test_text_boxes_draw_the_lines_textual_draws() -> None:
    rng = random.Random(5)
    app = Boxes()
    async with app.run_test(size=(80, 24)) as pilot:
        box = app.query_one(TextBox)
        await pilot.pause()
        for _ in range(300):
            text = random_text(rng)
            box.set(text)
            for y in range(6):
                ours = box.render_line(y)
                textuals = Widget.render_line(box, y)  # Textual's own: Content, then strips
                assert plain_segments(ours) == plain_segments(textuals), (text, y)
                assert ours.cell_length == textuals.cell_length


async def test_a_line_wider_than_the_box_is_cut_to_end_in_an_ellipsis() -> None:
    """Textual's own rendering would cut it bare; the box draws it fitted, with "…"."""
    app = Boxes()
    async with app.run_test(size=(80, 24)) as pilot:
        box = app.query_one(TextBox)
        await pilot.pause()
        width = box.size.width
        box.set(Text("x" * 100, no_wrap=True, overflow="ellipsis"))
        line = box.render_line(0)
        assert line.text == "x" * (width - 1) + "…" and line.cell_length == width
        assert Widget.render_line(box, 0).text != line.text  # what the box corrects
