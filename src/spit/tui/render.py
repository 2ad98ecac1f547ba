"""Drawing the board as Rich text: cards, stocks, piles, keys. Pure functions.

Every card shows its rank and suit symbol (readable without colour); its ink
and face come from a ``Palette`` (default, colour-blind safe, four-colour
deck, light), every one of which reads at WCAG AA contrast (4.5:1), also when
``NO_COLOR`` greys it and on 16- and 256-colour terminals. Each region is a
few lines of a fixed width so the board fits an 80x24 terminal.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rich.cells import cell_len
from rich.color import Color
from rich.style import Style
from rich.text import Span, Text

from spit.engine.cards import SUIT, card_name


@dataclass(frozen=True, slots=True)
class Scale:
    """How big the board is drawn: its size, its cards and the gaps between them.

    The board picks the largest scale that fits the terminal (``scale_for``);
    every drawing function takes one (``SMALL``, the 80x24 board, by default).
    """

    name: str
    width: int  #: the board's columns
    height: int  #: the board's rows
    card_width: int
    card_height: int
    column_width: int  #: a column of cards: a card and the gap after it
    margin: int  #: room for a label before the first column
    banner_width: int
    #: blank rows: under the top bar, above and below the centre, above the status line
    gaps: tuple[int, int, int]

    @property
    def pile_x(self) -> tuple[int, int]:
        """Where the two spit piles stand (above the second and fourth columns)."""
        return (self.margin + self.column_width, self.margin + self.column_width * 3)

    @property
    def grow(self) -> int:
        """Rows a card has beyond the 80x24 board's, above and below its middle."""
        return (self.card_height - 4) // 2


SMALL = Scale("80x24", 80, 24, 7, 4, 11, 11, 15, (0, 1, 0))
MEDIUM = Scale("120x36", 120, 36, 11, 6, 17, 16, 20, (1, 3, 1))
LARGE = Scale("160x48", 160, 48, 15, 8, 22, 22, 24, (1, 6, 1))
#: smallest first
SCALES = (SMALL, MEDIUM, LARGE)


def scale_for(width: int, height: int) -> Scale:
    """The largest scale whose board fits ``width`` x ``height`` (``SMALL`` at the least)."""
    fits = [s for s in SCALES if s.width <= width and s.height <= height]
    return fits[-1] if fits else SMALL


BOARD_WIDTH = SMALL.width
CARD_WIDTH = SMALL.card_width
CARD_HEIGHT = SMALL.card_height
COLUMN_WIDTH = SMALL.column_width
LEFT_MARGIN = SMALL.margin  #: room for a label before the first column
PILE_X = SMALL.pile_x

DIM = Style(dim=True)
BORDER = Style(color="bright_black")
FLASH_BORDER = Style(color="bright_red", bold=True)
LANDED_BORDER = Style(color="yellow", bold=True)
#: a slot a card just left, a pile it just reached (drawn with heavy lines, too)
GLOW_BORDER = Style(color="bright_white", bold=True)
KEY_STYLE = Style(color="cyan", bold=True)
NOTE_STYLE = Style(bold=True)  #: a pile's label while an effect says where it went


def fit(text: str, width: int) -> str:
    """``text`` if it fits in ``width`` cells, else cut at a word's end with "…"."""
    if len(text) <= width:
        return text
    if width <= 1:
        return "…"[:width]
    head = text[: width - 1]
    space = head.rfind(" ")
    if space > 0 and text[width - 1] != " ":
        head = head[:space]
    return head.rstrip() + "…"


class Canvas:
    """A small grid of styled cells, turned into one Text."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.chars = [[" "] * width for _ in range(height)]
        self.styles: list[list[Style | None]] = [[None] * width for _ in range(height)]
        #: a write on one of its lines went past its left or right edge (and was clipped)
        self.spilled = False

    def write(self, x: int, y: int, text: str, style: Style | None = None) -> None:
        """Write ``text`` at column ``x`` of line ``y``, clipped to the canvas."""
        if not 0 <= y < self.height:
            return
        if x < 0 or x + len(text) > self.width:
            self.spilled = True
        start, stop = max(x, 0), min(x + len(text), self.width)
        if start < stop:
            self.chars[y][start:stop] = text[start - x : stop - x]
            self.styles[y][start:stop] = [style] * (stop - start)

    def write_text(self, x: int, y: int, text: Text) -> None:
        """Write a Text with its spans."""
        base = Style.parse(text.style) if isinstance(text.style, str) else text.style
        self.write(x, y, text.plain, base or None)
        if not 0 <= y < self.height:
            return
        for span in text.spans:
            style = Style.parse(span.style) if isinstance(span.style, str) else span.style
            start, stop = max(x + span.start, 0), min(x + span.end, self.width)
            if start < stop:
                self.styles[y][start:stop] = [style] * (stop - start)

    def runs(self) -> tuple[Run, ...]:
        """Each line and its runs of one style (None: unstyled), left to right."""
        runs: list[Run] = []
        width = self.width
        for y in range(self.height):
            styles = self.styles[y]
            line = "".join(self.chars[y])
            pieces: list[tuple[str, Style | None]] = []
            start = 0
            run_style = styles[0] if width else None
            for x in range(1, width):
                style = styles[x]
                if style is run_style:
                    continue
                # (None against a style needs no comparing of values)
                if style is None or run_style is None or style != run_style:
                    pieces.append((line[start:x], run_style))
                    start, run_style = x, style
            pieces.append((line[start:], run_style))
            runs.append((line, tuple(pieces)))
        return tuple(runs)

    def to_text(self) -> Drawing:
        """The grid as a ``Drawing``: its lines as runs of one style each."""
        return Drawing(self.runs())


#: one line of a drawing, and its pieces of one style each (None: unstyled), left to right
Run = tuple[str, tuple[tuple[str, Style | None], ...]]


class Drawing:
    """A Canvas's lines as runs of one style each: what the board draws from.

    The board turns the runs into screen lines directly; a Rich ``Text`` of
    the same lines (one span per styled run) is made only when asked for
    (``to_rich``, and ``plain`` and ``spans``), as building one (it scans its
    text for control codes) cost more than drawing the cards. Drawings are
    shared (the drawing functions are cached) and never changed.
    """

    __slots__ = ("_rich", "_widest", "runs")
    style = ""  #: no style of its own (as a ``Text``'s)

    def __init__(self, runs: tuple[Run, ...]) -> None:
        self.runs = runs
        self._rich: Text | None = None
        self._widest: int | None = None

    @property
    def cells(self) -> int:
        """The terminal columns of its widest line (worked out once: drawings are shared)."""
        cells = self._widest
        if cells is None:
            cells = self._widest = max((cell_len(line) for line, _ in self.runs), default=0)
        return cells

    @classmethod
    def from_runs(cls, runs: tuple[Run, ...]) -> Drawing:
        """The drawing whose lines are ``runs``."""
        return cls(runs)

    @property
    def plain(self) -> str:
        """Its lines, joined by newlines."""
        return "\n".join(line for line, _ in self.runs)

    @property
    def spans(self) -> list[Span]:
        """One span per styled run (of ``to_rich``)."""
        return self.to_rich().spans

    def to_rich(self) -> Text:
        """The drawing as a Rich Text: one span per styled run (made once)."""
        rich = self._rich
        if rich is None:
            spans: list[Span] = []
            offset = 0
            for line, pieces in self.runs:
                x = offset
                for piece, style in pieces:
                    end = x + len(piece)
                    if style is not None:
                        spans.append(Span(x, end, style))
                    x = end
                offset += len(line) + 1  # the line and its newline
            rich = self._rich = Text(self.plain, spans=spans, no_wrap=True, overflow="crop", end="")
        return rich

    def translate(self, table: dict[int, str]) -> Drawing:
        """The same drawing with its characters translated (each to one character)."""
        return Drawing(
            tuple(
                (line.translate(table), tuple((p.translate(table), st) for p, st in pieces))
                for line, pieces in self.runs
            )
        )

    def __str__(self) -> str:
        return self.plain  # as a Rich Text's

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Drawing) and other.runs == self.runs

    def __hash__(self) -> int:
        return hash(self.runs)


# ------------------------------------------------------------------ palettes


@dataclass(frozen=True, slots=True)
class Palette:
    """The colours of the cards: a face, and an ink for each suit (♣ ♦ ♥ ♠).

    ``theme`` is the Textual theme the app uses with it (dark or light).
    """

    name: str
    label: str
    theme: str
    face: str
    inks: tuple[str, str, str, str]  #: by suit, in the order of ``SUIT_SYMBOLS`` (♣♦♥♠)
    key: str | None = None  #: the colour of the printed keys (None: bright cyan)
    screen: str | None = None  #: the theme's background, when the keys have their own colour

    @property
    def key_style(self) -> Style:
        """The style of the keys printed beside the cards."""
        return KEY_STYLE if self.key is None else _key_style(self.key)

    def card_style(self, c: int) -> Style:
        """The style of card ``c``'s rank and suit on its face."""
        return _card_style(self.inks[SUIT[c]], self.face)

    @property
    def face_style(self) -> Style:
        """The blank part of a face-up card."""
        return _card_style(None, self.face)

    def below_style(self, c: int) -> Style:
        """The style of the count under card ``c``: its ink, not bold, on its face."""
        return _below_style(self.inks[SUIT[c]], self.face)


# The styles are cached, so a drawing uses one object per style: finding its
# runs (``Canvas.runs``) then mostly compares objects, not their values.
@lru_cache(maxsize=8)
def _key_style(colour: str) -> Style:
    return Style(color=colour, bold=True)


@lru_cache(maxsize=64)
def _below_style(ink: str, face: str) -> Style:
    return _card_style(ink, face) + Style(bold=False)


@lru_cache(maxsize=64)
def _card_style(ink: str | None, face: str) -> Style:
    return Style(color=ink, bgcolor=face, bold=ink is not None)


IVORY = "#f4f1e8"
PALETTES: dict[str, Palette] = {
    p.name: p
    for p in (
        Palette(
            "default",
            "red and black",
            "textual-dark",
            IVORY,
            ("#1a1a1a", "#b3001b", "#b3001b", "#1a1a1a"),
        ),
        Palette(  # Okabe-Ito orange and sky blue: apart for every kind of colour blindness
            "colour-blind",
            "colour-blind safe",
            "textual-dark",
            "#000000",
            ("#56b4e9", "#e69f00", "#e69f00", "#56b4e9"),
        ),
        Palette(
            "four-colour",
            "four-colour deck",
            "textual-dark",
            IVORY,
            ("#006b1f", "#0041c2", "#b3001b", "#1a1a1a"),
        ),
        Palette(
            "light",
            "light theme",
            "textual-light",
            "#ffffff",
            ("#000000", "#a50016", "#a50016", "#000000"),
            key="#003a80",
            screen="#e0e0e0",
        ),
    )
}
DEFAULT_PALETTE = PALETTES["default"]


def palette_named(name: str) -> Palette:
    """The palette called ``name`` (the default for a name it does not know)."""
    return PALETTES.get(name, DEFAULT_PALETTE)


def relative_luminance(colour: str | tuple[int, int, int]) -> float:
    """WCAG 2 relative luminance of a colour ('#rrggbb', a name, or an RGB triple)."""
    if isinstance(colour, str):
        r, g, b = Color.parse(colour).get_truecolor()
    else:
        r, g, b = colour

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def contrast_ratio(a: str | tuple[int, int, int], b: str | tuple[int, int, int]) -> float:
    """WCAG 2 contrast ratio of two colours, from 1 (none) to 21 (black on white)."""
    la, lb = relative_luminance(a), relative_luminance(b)
    light, dark = max(la, lb), min(la, lb)
    return (light + 0.05) / (dark + 0.05)


def card_label(c: int, symbols: bool = True, palette: Palette = DEFAULT_PALETTE) -> Text:
    """A card's rank and suit in its palette's ink, on the card's face."""
    return Text(card_name(c, symbols), style=palette.card_style(c))


#: box corners and lines: (top left, top right, bottom left, bottom right, across, down)
LIGHT_BOX = ("╭", "╮", "╰", "╯", "─", "│")
#: a heavy top edge, the rest as it was: an effect changes one row of a card
HEAVY_BOX = ("┍", "┑", "╰", "╯", "━", "│")


def draw_card(
    canvas: Canvas,
    x: int,
    y: int,
    top: int | None,
    below: str = "",
    border: Style = BORDER,
    symbols: bool = True,
    empty_word: str = "empty",
    palette: Palette = DEFAULT_PALETTE,
    scale: Scale = SMALL,
    edge: Style | None = None,
) -> None:
    """A card box (7 wide and 4 high at ``SMALL``): its face, and ``below`` under its label.

    At larger scales the face also has the card in its corners, as a real
    card has. ``edge``: the top edge drawn heavy in that style (a card in the
    middle of an effect: it shows without colour too, and changes one row).
    """
    width, height, grow = scale.card_width, scale.card_height, scale.grow
    inner = width - 2
    tl, tr, bl, br, across, down = HEAVY_BOX if edge is not None else LIGHT_BOX
    label_y = y + 1 + grow
    if top is None:
        dashes = (" " + across) * inner
        style = DIM if border is BORDER else border
        canvas.write(x, y, tl + dashes[:inner] + tr, edge or style)
        for row in range(1, height - 1):
            canvas.write(x, y + row, " " * width, DIM)
        canvas.write(x + 1, label_y, empty_word.center(inner), DIM)
        canvas.write(x + 1, label_y + 1, below.center(inner), DIM)
        light = (" " + LIGHT_BOX[4]) * inner
        canvas.write(x, y + height - 1, bl + light[:inner] + br, style)
        return
    face = palette.face_style
    ink = palette.card_style(top)
    label = card_name(top, symbols)  # as ``card_label``, without making a Text
    canvas.write(x, y, tl + across * inner + tr, edge or border)
    for row in range(1, height - 1):
        canvas.write(x, y + row, down, border)
        canvas.write(x + 1, y + row, " " * inner, face)
        canvas.write(x + width - 1, y + row, down, border)
    pad = inner - len(label)
    left = pad // 2 + (pad % 2)
    canvas.write(x + 1 + left, label_y, label, ink)
    canvas.write(x + 1, label_y + 1, below.center(inner), palette.below_style(top))
    if grow:  # the corners, as on a real card
        canvas.write(x + 1, y + 1, label, ink)
        canvas.write(x + width - 1 - len(label), y + height - 2, label, ink)
    canvas.write(x, y + height - 1, bl + LIGHT_BOX[4] * inner + br, border)


def draw_back(
    canvas: Canvas, x: int, y: int, below: str, scale: Scale = SMALL, edge: Style | None = None
) -> None:
    """A face-down card (or pile), with ``below`` under its middle (``edge``: as for
    ``draw_card``)."""
    width, height = scale.card_width, scale.card_height
    inner = width - 2
    tl, tr, bl, br, across, down = HEAVY_BOX if edge is not None else LIGHT_BOX
    below_y = y + 2 + scale.grow
    canvas.write(x, y, tl + across * inner + tr, edge or BORDER)
    for row in range(1, height - 1):
        middle = below.center(inner) if y + row == below_y else "░" * inner
        canvas.write(x, y + row, down + middle + down, BORDER)
    canvas.write(x, y + height - 1, bl + LIGHT_BOX[4] * inner + br, BORDER)


@dataclass(frozen=True, slots=True)
class Slot:
    """One column of a player's cards: a stock (Spit) or a hand slot (Speed)."""

    top: int | None
    below: str  #: e.g. '+4' face-down cards under it
    keys: str  #: the column's keys, e.g. 'q a z' (empty: a computer's, none shown)
    flash: bool = False
    #: a card the player may not see (a computer's or a network opponent's Speed hand)
    face_down: bool = False
    #: in the middle of an effect: a card just left it, or cards were just dealt to it
    glow: bool = False


@lru_cache(maxsize=256)
def draw_slots(
    slots: tuple[Slot, ...],
    keys_above: bool,
    symbols: bool = True,
    palette: Palette = DEFAULT_PALETTE,
    scale: Scale = SMALL,
) -> Drawing:
    """A player's row of cards with the keys above (player 2) or below (player 1).

    Cached: the same cards give the same (shared, never changed) Text. Put
    together from each column's own drawing (``_slot_part``, cached per card),
    exactly as ``draw_slots_whole`` draws the row at once.
    """
    rows = scale.card_height + 1
    parts = [_margin_part(any(slot.keys for slot in slots), keys_above, scale)]
    parts += [_slot_part(slot, keys_above, symbols, palette, scale) for slot in slots]
    used = scale.margin + len(slots) * scale.column_width
    if used > scale.width or None in parts:  # a part drawn past its edges
        return draw_slots_whole(slots, keys_above, symbols, palette, scale)
    if used < scale.width:
        parts.append(_blank_part(scale.width - used, rows))
    return join_parts([part for part in parts if part is not None])


def draw_slots_whole(
    slots: tuple[Slot, ...],
    keys_above: bool,
    symbols: bool = True,
    palette: Palette = DEFAULT_PALETTE,
    scale: Scale = SMALL,
) -> Drawing:
    """``draw_slots`` on one canvas for the whole row (what the parts must add up to)."""
    canvas = Canvas(scale.width, scale.card_height + 1)
    _draw_margin(canvas, any(slot.keys for slot in slots), keys_above, scale)
    for i, slot in enumerate(slots):
        x = scale.margin + i * scale.column_width
        _draw_slot(canvas, x, slot, keys_above, symbols, palette, scale)
    return canvas.to_text()


def _draw_margin(canvas: Canvas, any_keys: bool, keys_above: bool, scale: Scale) -> None:
    if any_keys:
        canvas.write(0, 0 if keys_above else scale.card_height, "keys", DIM)


def _draw_slot(
    canvas: Canvas,
    x: int,
    slot: Slot,
    keys_above: bool,
    symbols: bool,
    palette: Palette,
    scale: Scale,
) -> None:
    card_y = 1 if keys_above else 0
    key_y = 0 if keys_above else scale.card_height
    border = FLASH_BORDER if slot.flash else BORDER
    edge = GLOW_BORDER if slot.glow else None
    if slot.face_down and slot.top is not None:
        draw_back(canvas, x, card_y, slot.below, scale, edge)
    else:
        draw_card(
            canvas, x, card_y, slot.top, slot.below, border, symbols, palette=palette,
            scale=scale, edge=edge,
        )  # fmt: skip
    if slot.keys:
        canvas.write(x, key_y, slot.keys.center(scale.card_width), palette.key_style)


#: a part of a drawing: its lines' runs, all of one width; None if it did not fit its width
Part = tuple[Run, ...] | None


def _part(canvas: Canvas) -> Part:
    """The canvas's runs, or None if anything was drawn past its edges."""
    return None if canvas.spilled else canvas.runs()


@lru_cache(maxsize=16)
def _margin_part(any_keys: bool, keys_above: bool, scale: Scale = SMALL) -> Part:
    canvas = Canvas(scale.margin, scale.card_height + 1)
    _draw_margin(canvas, any_keys, keys_above, scale)
    return _part(canvas)


@lru_cache(maxsize=2048)
def _slot_part(
    slot: Slot, keys_above: bool, symbols: bool, palette: Palette, scale: Scale = SMALL
) -> Part:
    canvas = Canvas(scale.column_width, scale.card_height + 1)
    _draw_slot(canvas, 0, slot, keys_above, symbols, palette, scale)
    return _part(canvas)


@lru_cache(maxsize=16)
def _blank_part(width: int, height: int) -> tuple[Run, ...]:
    return Canvas(width, height).runs()


def join_parts(parts: list[tuple[Run, ...]]) -> Drawing:
    """Parts side by side (left to right) as one drawing, with the runs one canvas gives.

    A canvas starts a new run where a cell's style differs from the run's;
    so, where two parts meet, the runs on either side become one run if
    their styles are equal (and the left one's style object is kept).
    """
    lines: list[Run] = []
    rows = parts
    for y in range(len(rows[0])):
        pieces: list[tuple[str, Style | None]] = []
        texts: list[str] = []
        for row in rows:
            text, row_pieces = row[y]
            texts.append(text)
            if pieces:
                last_text, last_style = pieces[-1]
                first_text, first_style = row_pieces[0]
                if first_style is last_style or (
                    first_style is not None and last_style is not None and first_style == last_style
                ):
                    pieces[-1] = (last_text + first_text, last_style)
                    pieces.extend(row_pieces[1:])
                    continue
            pieces.extend(row_pieces)
        lines.append(("".join(texts), tuple(pieces)))
    return Drawing(tuple(lines))


@dataclass(frozen=True, slots=True)
class PileShow:
    """A spit pile as shown: top card, size, label, and who just played on it."""

    top: int | None
    size: int
    label: str
    landed_by: str | None = None
    in_use: bool = True
    face_down: bool = False  #: Speed's centre card before the opening
    #: in the middle of an effect: a card just reached it (or it was just taken)
    glow: bool = False
    #: a move on it just lost a race (who lost it, e.g. "P1"), shown at a glance
    lost_by: str | None = None
    #: instead of the label, while an effect shows it: where the pile just went
    note: str | None = None


@dataclass(frozen=True, slots=True)
class SideShow:
    """A Speed side pile: how many cards lie face down in it."""

    size: int


BANNER_STYLE = Style(color="black", bgcolor="yellow", bold=True)
BANNER_X = 60
BANNER_WIDTH = 15


@lru_cache(maxsize=256)
def draw_centre(
    piles: tuple[PileShow, PileShow],
    sides: tuple[SideShow, SideShow] | None = None,
    symbols: bool = True,
    banner: tuple[str, ...] = (),
    palette: Palette = DEFAULT_PALETTE,
    scale: Scale = SMALL,
) -> Drawing:
    """The middle of the table: two spit piles (and Speed's side piles at the ends).

    ``banner``: up to three short lines shouting the phase ("SPIT!", "SLAP!").
    Cached like ``draw_slots``. (Drawn on one canvas: put together from parts
    as ``draw_slots`` is, it was no faster, as a played card changes the
    count under the pile's top and the "◀ P1" mark beside it, every time.)
    """
    canvas = Canvas(scale.width, scale.card_height + 1)
    _draw_banner(canvas, banner, sides is not None, scale)
    for j, pile in enumerate(piles):
        _draw_pile(canvas, scale.pile_x[j], pile, symbols, palette, scale)
    if sides is not None:
        for j, side in enumerate(sides):
            _draw_side(canvas, _side_x(scale)[j], side, symbols, scale)
    return canvas.to_text()


def _side_x(scale: Scale) -> tuple[int, int]:
    """Where each Speed side pile stands."""
    return (1, scale.width - scale.card_width - 2)


def _draw_banner(canvas: Canvas, banner: tuple[str, ...], speed: bool, scale: Scale) -> None:
    if banner:
        # beside the right pile's "◀ P1" marker; Speed: narrower, in the gap between
        # that marker and the right side pile, so that it covers neither
        x = scale.pile_x[1] + scale.card_width + 9
        width = scale.banner_width
        if speed:
            x, width = x - 3, width - 1
        grow = [""] * scale.grow
        lines = [*grow, "", *banner, "", *grow][: scale.card_height + 1]
        for i, line in enumerate(lines):
            canvas.write(x, i, fit(line, width).center(width), BANNER_STYLE)


def _draw_pile(
    canvas: Canvas, x: int, pile: PileShow, symbols: bool, palette: Palette, scale: Scale
) -> None:
    label = pile.label if pile.note is None else pile.note
    style = DIM if pile.note is None else NOTE_STYLE
    canvas.write(x - 2, 0, label.center(scale.card_width + 4), style)
    if not pile.in_use:
        draw_card(canvas, x, 1, None, "", BORDER, symbols, empty_word="unused", scale=scale)
        return
    if pile.face_down:
        draw_back(canvas, x, 1, "", scale)
        return
    border = FLASH_BORDER if pile.lost_by else LANDED_BORDER if pile.landed_by else BORDER
    edge = FLASH_BORDER if pile.lost_by else GLOW_BORDER if pile.glow else None
    size = f"×{pile.size}"
    draw_card(
        canvas, x, 1, pile.top, size, border, symbols, palette=palette, scale=scale, edge=edge
    )
    mark_y = 2 + scale.grow
    if pile.lost_by:
        canvas.write(x + scale.card_width + 1, mark_y, f"✗ {pile.lost_by}", FLASH_BORDER)
    elif pile.landed_by:
        canvas.write(x + scale.card_width + 1, mark_y, f"◀ {pile.landed_by}", LANDED_BORDER)


def _draw_side(canvas: Canvas, x: int, side: SideShow, symbols: bool, scale: Scale) -> None:
    canvas.write(x, 0, "side".center(scale.card_width), DIM)
    if side.size:
        draw_back(canvas, x, 1, f"×{side.size}", scale)
    else:
        draw_card(canvas, x, 1, None, "", BORDER, symbols, scale=scale)
