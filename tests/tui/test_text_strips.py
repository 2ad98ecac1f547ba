"""The board's boxes draw their lines themselves: the same lines Textual would draw."""

from __future__ import annotations

import random

from rich.console import Console
from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult
from textual.strip import Strip
from textual.style import Style as TextualStyle
from textual.widget import Widget

from spit.tui.render import (
    BORDER,
    DEFAULT_PALETTE,
    DIM,
    FLASH_BORDER,
    KEY_STYLE,
    PALETTES,
    Canvas,
    Drawing,
)
from spit.tui.widgets.board import Board, TextBox
from spit.tui.widgets.strips import TextStrips

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


class Shown(Widget):
    """Textual's own rendering of a text (the yardstick for the board's lines)."""

    text = Text()

    def render(self) -> Text:
        return self.text


class Boxes(App[None]):
    CSS = "Board { height: 6; } Shown { height: 6; }"

    def compose(self) -> ComposeResult:
        with Board(id="board"):
            yield TextBox(id="centre")
        yield Shown()


def line_of(box: TextBox, y: int) -> Strip:
    """Line ``y`` of the box as its board paints it."""
    line = box.line(y)
    assert line is not None
    return line


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
        shown = app.query_one(Shown)
        await pilot.pause()
        assert box.board is not None and box.board.size.width == shown.size.width == 80
        for _ in range(300):
            text = random_text(rng)
            box.set(text)
            shown.text = text
            shown.refresh()
            for y in range(len(text.plain.split("\n"))):
                ours = line_of(box, y)
                textuals = shown.render_line(y)  # Textual's own: Content, then strips
                assert plain_segments(ours) == plain_segments(textuals), (text, y)
                assert ours.cell_length == textuals.cell_length


async def test_a_line_wider_than_the_box_is_cut_to_end_in_an_ellipsis() -> None:
    """Textual's own rendering would cut it bare; the box draws it fitted, with "…"."""
    app = Boxes()
    async with app.run_test(size=(80, 24)) as pilot:
        box = app.query_one(TextBox)
        shown = app.query_one(Shown)
        await pilot.pause()
        width = shown.size.width
        shown.text = Text("x" * 100, no_wrap=True, overflow="ellipsis")
        box.set(shown.text)
        line = line_of(box, 0)
        assert line.text == "x" * (width - 1) + "…" and line.cell_length == width
        assert shown.render_line(0).text != line.text  # what the box corrects


def random_drawing(rng: random.Random) -> Drawing:
    """A canvas of a few lines with boxes, labels and styled Texts written over each other."""
    canvas = Canvas(rng.randint(1, 30), rng.randint(1, 5))
    pieces = ["╭─────╮", "│ 6♦  │", "keys", "q a z", "◀ P1", "×12", " "]
    for _ in range(rng.randint(0, 12)):
        x, y = rng.randint(-3, canvas.width), rng.randint(0, canvas.height - 1)
        if rng.random() < 0.3:
            label = Text(rng.choice(pieces), style=rng.choice(OWN_STYLES))
            label.stylize(rng.choice(STYLES), 0, rng.randint(0, 3))
            canvas.write_text(x, y, label)
        else:
            style = rng.choice([None, *(s for s in STYLES if isinstance(s, Style))])
            canvas.write(x, y, rng.choice(pieces), style)
    return canvas.to_text()


def test_a_drawing_gives_the_lines_its_spans_give() -> None:
    """Canvas drawings are read from their runs: exactly the segments the spans would give."""
    rng = random.Random(11)
    strips = TextStrips(TextualStyle.null(), Console().get_style, None)
    for _ in range(300):
        drawing = random_drawing(rng)
        assert drawing.runs is not None
        as_text = Text(drawing.plain, spans=list(drawing.spans), no_wrap=True, end="")
        lines = drawing.plain.split("\n")
        width = rng.choice([30, len(lines[0])])
        ours = strips.strips(drawing, width)
        assert ours is not None
        assert [list(line) for line in ours] == [
            list(line) for line in strips.strips(as_text, width) or []
        ]
        assert [line.cell_length for line in ours] == [len(line) for line in lines]


def test_a_drawing_changed_after_it_was_drawn_is_read_from_its_spans() -> None:
    drawing = Canvas(10, 2).to_text()
    drawing.stylize("bold", 0, 4)
    assert drawing.runs is None
    strips = TextStrips(TextualStyle.null(), Console().get_style, None)
    first, rest = list((strips.strips(drawing, 10) or [])[0])
    assert (first.text, rest.text) == (" " * 4, " " * 6)
    assert first.style is not None and first.style.bold


def test_a_drawing_after_another_keeps_the_lines_drawn_alike_and_makes_the_others() -> None:
    """Given the drawing before and its lines, a line drawn alike is that very line."""
    strips = TextStrips(TextualStyle.null(), Console().get_style, None)
    rng = random.Random(3)
    for _ in range(200):
        before = random_drawing(rng)
        canvas = Canvas(len(before.plain.split("\n")[0]), len(before.plain.split("\n")))
        for y, (_line, pieces) in enumerate(before.runs or ()):
            x = 0
            for piece, style in pieces:
                canvas.write(x, y, piece, style)
                x += len(piece)
        if rng.random() < 0.7:  # change one line
            canvas.write(rng.randint(0, canvas.width - 1), rng.randrange(canvas.height), "Q", DIM)
        after = canvas.to_text()
        old = strips.strips(before, 30)
        assert old is not None
        new = strips.strips(after, 30, (before, old))
        assert new == strips.strips(after, 30)
        assert new is not None
        for y, (was, now) in enumerate(zip(old, new, strict=True)):
            alike = (before.runs or ())[y] == (after.runs or ())[y]
            assert (now is was) == alike, y
