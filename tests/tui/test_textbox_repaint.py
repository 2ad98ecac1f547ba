"""A board box repaints only the lines that changed, and never shows stale lines.

A ``TextBox`` marks only the board's rows of the changed lines of a new text,
and the ``Board`` hands the compositor the rows it painted last while nothing
is marked: these tests check both halves, and that a theme, a size or a game
never leaves old lines up.
"""

from __future__ import annotations

from typing import Self

import pytest
from rich.text import Text
from tests.support import FakeClock
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget
from tui_helpers import make_app, playable, screen_of

from spit.tui.screens import REGIONS
from spit.tui.widgets.board import BOARD_ROWS, Board, TextBox

FIVE = "\n".join(f"line {n}" for n in range(5))


class OneBox(App[None]):
    """One five-line box on a board that notes the rows it was asked to repaint."""

    CSS = "Board { width: 30; height: 24; }"

    def compose(self) -> ComposeResult:
        with MarkedBoard(id="board"):
            yield TextBox(id="p1-cards")  # rows 14-18 of the board


TOP = 14  # p1-cards' first row


def texts(lines: list[Strip]) -> list[str]:
    return [line.text.rstrip() for line in lines]


def fresh_lines(box: Widget) -> list[Strip]:
    """What Textual's own ``render_lines`` paints for the widget now (not the lines it kept)."""
    return Widget.render_lines(box, box.size.region)


def box_lines(board: Board) -> list[Strip]:
    """The board's rows of the five-line box (as the compositor gets them)."""
    return board.render_lines(board.size.region)[TOP : TOP + 5]


async def test_a_changed_line_alone_is_marked_and_every_line_shows_the_new_text() -> None:
    app = OneBox()
    async with app.run_test(size=(40, 24)) as pilot:
        board = app.query_one(MarkedBoard)
        box = app.query_one(TextBox)
        box.set(Text(FIVE, style="bold"))
        await pilot.pause()
        painted = box_lines(board)
        assert texts(painted) == FIVE.splitlines()
        board.marked.clear()
        changed = FIVE.replace("line 2", "line two")
        assert box.set(Text(changed, style="bold"))
        assert board.marked == [TOP + 2]
        await pilot.pause()
        shown = box_lines(board)
        assert texts(shown) == changed.splitlines()
        assert [a == b for a, b in zip(painted, shown, strict=True)] == [
            True,
            True,
            False,
            True,
            True,
        ]


async def test_the_same_text_again_marks_nothing_and_a_new_style_marks_its_lines() -> None:
    app = OneBox()
    async with app.run_test(size=(40, 24)) as pilot:
        board = app.query_one(MarkedBoard)
        box = app.query_one(TextBox)
        box.set(Text(FIVE))
        await pilot.pause()
        board.marked.clear()
        assert not box.set(Text(FIVE))
        assert board.marked == []
        restyled = Text(FIVE)
        restyled.stylize("red", 7, 13)  # all of "line 1" (the newline before it is offset 6)
        assert box.set(restyled)
        assert board.marked == [TOP + 1]
        await pilot.pause()
        line = box_lines(board)[1]
        assert any(s.style is not None and s.style.color is not None for s in line)
        assert line.text.rstrip() == "line 1"


async def test_a_text_of_another_height_repaints_the_whole_box() -> None:
    app = OneBox()
    async with app.run_test(size=(40, 24)) as pilot:
        board = app.query_one(MarkedBoard)
        box = app.query_one(TextBox)
        box.set(Text(FIVE))
        await pilot.pause()
        board.marked.clear()
        box.set(Text("one line"))
        assert board.marked == list(range(TOP, TOP + 5))
        await pilot.pause()
        assert texts(box_lines(board)) == ["one line", "", "", "", ""]


async def test_lines_painted_before_a_theme_change_are_painted_again() -> None:
    app = OneBox()
    async with app.run_test(size=(40, 24)) as pilot:
        app.theme = "textual-dark"
        board = app.query_one(MarkedBoard)
        app.query_one(TextBox).set(Text(FIVE))
        await pilot.pause()
        dark = board.render_lines(board.size.region)
        app.theme = "textual-light"
        await pilot.pause()
        light = board.render_lines(board.size.region)
        assert light != dark
        assert light == fresh_lines(board)


async def test_a_resized_board_paints_its_boxes_at_its_new_width() -> None:
    app = OneBox()
    async with app.run_test(size=(40, 24)) as pilot:
        board = app.query_one(MarkedBoard)
        app.query_one(TextBox).set(Text("a text wider than twenty cells"))
        await pilot.pause()
        assert box_lines(board)[0].cell_length == 30
        board.styles.width = 20
        await pilot.pause()
        lines = board.render_lines(board.size.region)
        assert lines[TOP].cell_length == 20
        assert lines[TOP].text == "a text wider than t…"
        assert lines == fresh_lines(board)


async def test_after_each_key_the_board_paints_what_each_box_says() -> None:
    """A game: whatever the board kept, its rows are its boxes' texts, at their rows."""
    app = make_app(FakeClock(), playable)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = screen_of(app)
        board = screen.query_one(Board)
        # the opening; P1's 6D onto 5C; P2's QD onto KD; a refused move (a flash)
        for key in ("1", "0", "q", "j", "w"):
            await pilot.press(key)
            await pilot.pause()
            painted = texts(board.render_lines(board.size.region))
            assert painted == texts(fresh_lines(board)), key
            shown = set()
            for region, top, height in BOARD_ROWS:
                box = screen.query_one(f"#{region}", TextBox)
                assert not box.display  # the board paints it
                lines = box.text.plain.splitlines() or [""]
                assert painted[top : top + len(lines)] == [line.rstrip() for line in lines], (
                    key,
                    region,
                )
                shown.update(range(top, top + height))
            assert all(not painted[y].strip() for y in range(24) if y not in shown)
        assert {region for region, _, _ in BOARD_ROWS} == set(REGIONS)


class MarkedBoard(Board):
    """A board that notes the rows it was asked to repaint (None: all of it)."""

    def __init__(self, *children: Widget, id: str | None = None) -> None:
        self.marked: list[int | None] = []
        super().__init__(*children, id=id)

    def refresh(
        self,
        *regions: Region,
        repaint: bool = True,
        layout: bool = False,
        recompose: bool = False,
    ) -> Self:
        if repaint and hasattr(self, "marked"):
            if regions:
                self.marked.extend(y for region in regions for y in region.line_range)
            else:
                self.marked.append(None)
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)


class TwoBoxes(App[None]):
    CSS = "Board { width: 40; height: 24; }"

    def compose(self) -> ComposeResult:
        with MarkedBoard(id="board"):
            yield TextBox(id="p1-cards")
            yield TextBox(id="news")


async def test_a_box_marks_only_the_boards_rows_of_its_changed_lines() -> None:
    app = TwoBoxes()
    async with app.run_test(size=(40, 24)) as pilot:
        board = app.query_one(MarkedBoard)
        cards = app.query_one("#p1-cards", TextBox)
        news = app.query_one("#news", TextBox)
        cards.set(FIVE)
        news.set("hello")
        await pilot.pause()
        board.marked.clear()
        cards.set(FIVE.replace("line 3", "line three"))
        news.set("hello")  # the same text: nothing
        assert board.marked == [14 + 3]  # p1-cards starts at row 14
        news.set("bye")
        assert board.marked == [17, 21]
        await pilot.pause()
        lines = texts(board.render_lines(board.size.region))
        assert lines[14:19] == ["line 0", "line 1", "line 2", "line three", "line 4"]
        assert lines[21] == "bye" and lines == texts(fresh_lines(board))


class OnBoard(App[None]):
    CSS = "Board { width: 30; height: 4; background: $panel; } TextBox { width: 10; }"

    def compose(self) -> ComposeResult:
        with Board(id="board"):
            yield TextBox(id="box")


async def test_the_board_column_paints_again_after_a_theme_change_or_a_resize() -> None:
    app = OnBoard()
    async with app.run_test(size=(40, 8)) as pilot:
        app.theme = "textual-dark"
        board = app.query_one(Board)
        await pilot.pause()
        dark = board.render_lines(board.size.region)
        assert board.render_lines(board.size.region) is dark  # kept while nothing changed
        app.theme = "textual-light"
        await pilot.pause()
        light = board.render_lines(board.size.region)
        assert light != dark and light == fresh_lines(board)
        board.styles.width = 20
        await pilot.pause()
        narrow = board.render_lines(board.size.region)
        assert [line.cell_length for line in narrow] == [20] * 4
        assert narrow == fresh_lines(board)
        board.styles.padding = (0, 2)  # a style that the board's own painting leaves to Textual
        await pilot.pause()
        whole = board.outer_size.region  # what the compositor asks for
        padded = board.render_lines(whole)
        assert padded == Widget.render_lines(board, whole)


async def test_the_game_screens_own_lines_follow_the_theme() -> None:
    app = make_app(FakeClock(), playable)
    async with app.run_test(size=(90, 26)) as pilot:  # the screen's own margin around the board
        screen = screen_of(app)
        app.theme = "textual-dark"
        await pilot.pause()
        dark = screen.render_lines(screen.size.region)
        assert screen.render_lines(screen.size.region) is dark  # kept while nothing changed
        app.theme = "textual-light"
        await pilot.pause()
        light = screen.render_lines(screen.size.region)
        assert light != dark and light == fresh_lines(screen)


async def test_a_played_card_refreshes_the_board_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The regions a card changes are marked together: one refresh of the board."""
    app = make_app(FakeClock(), playable)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = screen_of(app)
        board = screen.query_one(Board)
        for key in ("1", "0"):  # the opening
            await pilot.press(key)
        await pilot.pause()
        calls: list[tuple[Region, ...]] = []
        refresh = board.refresh

        def counted(*regions: Region, **kwargs: bool) -> Board:
            calls.append(regions)
            return refresh(*regions, **kwargs)

        monkeypatch.setattr(board, "refresh", counted)
        await pilot.press("q")  # P1's 6D onto 5C: the cards, the centre, the news
        rows = {y for regions in calls for region in regions for y in region.line_range}
        assert len(calls) == 1
        assert {15, 10, 21} <= rows  # a card line of p1-cards, of the centre, the news


async def test_after_each_key_the_boards_lines_are_textuals_own_cell_for_cell(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The board paints its changed rows itself: the same strips, styles and all."""
    app = make_app(FakeClock(), playable)
    async with app.run_test(size=(80, 24)) as pilot:
        board = screen_of(app).query_one(Board)
        by_textual: list[Region] = []  # rows Textual's styles cache painted for the board
        render_widget = board._styles_cache.render_widget

        def noted(widget: Widget, crop: Region) -> list[Strip]:
            by_textual.append(crop)
            return render_widget(widget, crop)

        monkeypatch.setattr(board._styles_cache, "render_widget", noted)
        for key in ("1", "0", "q", "j", "w"):
            await pilot.press(key)
            await pilot.pause()
            painted = board.render_lines(board.size.region)
            assert by_textual == [], key  # the board's own painting, in the game screen too
            assert painted == fresh_lines(board), key
            by_textual.clear()  # (fresh_lines asks Textual)
        app.theme = "textual-light"
        await pilot.pause()
        assert board.render_lines(board.size.region) == fresh_lines(board)


class FramedBoard(App[None]):
    CSS = "Board { width: 30; height: 8; border: round red; padding: 1; tint: blue 20%; }"

    def compose(self) -> ComposeResult:
        with Board(id="board"):
            yield TextBox(id="p2-info")


async def test_a_board_with_a_border_and_padding_is_painted_by_textual() -> None:
    app = FramedBoard()
    async with app.run_test(size=(40, 10)) as pilot:
        board = app.query_one(Board)
        board.query_one(TextBox).set("a framed line")
        await pilot.pause()
        lines = board.render_lines(board.size.region)
        assert lines == fresh_lines(board)
        assert "a framed line" in lines[3].text and "╭" in lines[0].text
