"""Rich Text to screen lines (strips), as Textual would make them, with less work.

Textual turns a widget's Rich ``Text`` into its own ``Content`` and then into
``Strip`` lines on every repaint, converting every span's style each time.
The board's boxes repaint on every played card, with the same handful of
styles over and over; ``TextStrips`` converts each distinct style stack once
and builds the lines directly. It gives the same segments (text and colours)
as Textual for text whose lines fit the width; longer text returns None and
the widget lets Textual do it (wrapping, ellipsis).
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style as RichStyle
from rich.terminal_theme import TerminalTheme
from rich.text import Span, Text
from textual.strip import Strip
from textual.style import Style

from spit.tui.render import Drawing, Run

#: a character's styles, outermost first; the text's own style comes first as ``_Base``
StyleKey = tuple["str | RichStyle | _Base", ...]


class _Base(tuple[str | RichStyle]):
    """The text's own style: Textual reads a string one as its own (CSS) style, not Rich's."""


def _parse_own(style: str) -> Style:
    """A text's own string style as Textual reads it: its CSS syntax; nothing if it cannot."""
    try:
        return Style.parse(style)
    except Exception:  # Textual drops what it cannot parse (e.g. Rich's "bright_red")
        return Style.null()


class TextStrips:
    """Converts texts for one widget's base style (its colours), caching each style stack."""

    def __init__(
        self,
        base: Style,
        parse: Callable[[str], RichStyle],
        ansi_theme: TerminalTheme | None,
    ) -> None:
        self.base = base
        self.parse = parse
        self.ansi_theme = ansi_theme
        self._styles: dict[StyleKey, RichStyle] = {}
        self._single: dict[RichStyle | None, RichStyle] = {}  # a drawing's piece styles

    def style(self, stack: StyleKey) -> RichStyle:
        """The Rich style Textual gives text under ``stack`` (outermost first)."""
        done = self._styles.get(stack)
        if done is None:
            parts = [self.base]
            for item in stack:
                if isinstance(item, _Base):
                    own = item[0]
                    if isinstance(own, str):
                        parts.append(_parse_own(own))
                    else:
                        parts.append(Style.from_rich_style(own, self.ansi_theme))
                    continue
                rich = self.parse(item) if isinstance(item, str) else item
                parts.append(Style.from_rich_style(rich, self.ansi_theme))
            done = self._styles[stack] = (self.base + Style.combine(parts)).rich_style
        return done

    def strips(
        self, text: Text, width: int, before: tuple[Text, list[Strip]] | None = None
    ) -> list[Strip] | None:
        """The lines of ``text`` at ``width``; None if a line is wider (Textual wraps those).

        ``before``: a drawing and its lines made by this converter at this
        width; a line of ``text`` drawn as that one was is handed back as it was.
        """
        runs = text.runs if isinstance(text, Drawing) else None
        if runs is not None:
            old = before[0].runs if before and isinstance(before[0], Drawing) else None
            if old is not None and before is not None:
                return self._drawn(runs, width, old, before[1])
            return self._drawn(runs, width)
        plain = text.plain
        lines = plain.split("\n")
        if any(cell_len(line) > width for line in lines):
            return None
        # where the styles change: (offset, the styles from there on)
        size = len(plain)
        base: StyleKey = (_Base((text.style,)),) if text.style else ()
        changes = _changes(text.spans, size, base)
        # each line, cut where the styles change
        style = self.style
        styles = [style(stack) for _, stack in changes]
        starts = [start for start, _ in changes]
        starts.append(size + 1)  # past the end: every line ends before it
        out: list[Strip] = []
        offset = 0
        k = 0
        for line in lines:
            end = offset + len(line)
            if not line:  # one empty segment in the box's own style, as Textual has it
                out.append(Strip([Segment("", style(()))], 0))
                offset = end + 1
                continue
            while starts[k + 1] <= offset:
                k += 1
            segments: list[Segment] = []
            pos = offset
            while (stop := starts[k + 1]) < end:
                segments.append(Segment(plain[pos:stop], styles[k]))
                pos = stop
                k += 1
            segments.append(Segment(plain[pos:end], styles[k]))
            out.append(Strip(segments, cell_len(line)))
            offset = end + 1
        return out

    def _drawn(
        self,
        runs: tuple[Run, ...],
        width: int,
        old_runs: tuple[Run, ...] = (),
        old_lines: list[Strip] | tuple[()] = (),
    ) -> list[Strip] | None:
        """A drawing's lines from its runs: a segment per run, as ``strips`` would cut them
        (a line whose runs are those of ``old_runs`` is that line of ``old_lines``)."""
        single = self._single
        out: list[Strip] = []
        reuse = len(old_lines) == len(old_runs)
        for y, run in enumerate(runs):
            if reuse and y < len(old_runs) and run == old_runs[y]:
                out.append(old_lines[y])
                continue
            line, pieces = run
            length = cell_len(line)
            if length > width:
                return None
            segments: list[Segment] = []
            for piece, piece_style in pieces:
                style = single.get(piece_style)
                if style is None:
                    stack: StyleKey = () if piece_style is None else (piece_style,)
                    style = single[piece_style] = self.style(stack)
                if piece:
                    segments.append(Segment(piece, style))
            out.append(Strip(segments or [Segment("", self.style(()))], length))
        return out


def _changes(spans: list[Span], size: int, base: StyleKey) -> list[tuple[int, StyleKey]]:
    """Where the styles change in a text: (offset, the styles from there on), in order.

    Spans that follow one another without overlapping (as the board's
    drawings make them) are read in one pass; others by a sweep over the span
    ends (the text's own style first, then its spans in order).
    """
    changes: list[tuple[int, StyleKey]] = [(0, base)]

    def change(offset: int, stack: StyleKey) -> None:
        if changes and changes[-1][0] == offset:
            changes.pop()
        if not changes or changes[-1][1] != stack:
            changes.append((offset, stack))

    end = 0
    for span in spans:
        if span.start < end:
            break  # overlapping: sweep
        if span.start < span.end:
            end = span.end
    else:
        for span in spans:
            start, stop = max(0, span.start), min(span.end, size)
            if start < stop:
                change(start, (*base, span.style))
                change(stop, base)
        return changes
    events: list[tuple[int, int, bool]] = []
    for index, span in enumerate(spans):
        start, stop = max(0, span.start), min(span.end, size)
        if start < stop:
            events.append((start, index, True))
            events.append((stop, index, False))
    events.sort(key=lambda event: event[0])
    active: list[int] = []
    for offset, index, enter in events:
        if enter:
            insort(active, index)
        else:
            active.remove(index)
        change(offset, base + tuple(spans[i].style for i in active))
    return changes
