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

from rich.color import Color
from rich.style import Style
from rich.text import Span, Text

from spit.engine.cards import SUIT, card_name

BOARD_WIDTH = 80
CARD_WIDTH = 7
CARD_HEIGHT = 4
COLUMN_WIDTH = 11
LEFT_MARGIN = 11  #: room for a label before the first column
PILE_X = (LEFT_MARGIN + COLUMN_WIDTH * 1, LEFT_MARGIN + COLUMN_WIDTH * 3)

DIM = Style(dim=True)
BORDER = Style(color="bright_black")
FLASH_BORDER = Style(color="bright_red", bold=True)
LANDED_BORDER = Style(color="yellow", bold=True)
KEY_STYLE = Style(color="cyan", bold=True)


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
        """The grid as one Text, lines joined by newlines: one span per run of a style.

        Built as one string and a list of spans (not appended run by run): this
        runs on every played card. The runs themselves are kept too (``Drawing``).
        """
        return Drawing.from_runs(self.runs())


#: one line of a drawing, and its pieces of one style each (None: unstyled), left to right
Run = tuple[str, tuple[tuple[str, Style | None], ...]]


class Drawing(Text):
    """A Canvas's Text that also keeps its lines as runs of one style each.

    The board's boxes turn the runs into screen lines directly instead of
    sweeping the spans again (``spit.tui.widgets.strips``). Drawings are
    shared (the drawing functions are cached) and never changed; ``runs``
    checks that this one was not, all the same.
    """

    def __init__(self, plain: str, spans: list[Span], runs: tuple[Run, ...]) -> None:
        super().__init__(plain, spans=spans, no_wrap=True, overflow="crop", end="")
        self._runs = runs
        self._drawn = (self.plain, len(spans))

    @classmethod
    def from_runs(cls, runs: tuple[Run, ...]) -> Drawing:
        """The drawing whose lines are ``runs``: one span per styled run."""
        spans: list[Span] = []
        offset = 0
        for line, pieces in runs:
            x = offset
            for piece, style in pieces:
                end = x + len(piece)
                if style is not None:
                    spans.append(Span(x, end, style))
                x = end
            offset += len(line) + 1  # the line and its newline
        return cls("\n".join(line for line, _ in runs), spans, runs)

    @property
    def runs(self) -> tuple[Run, ...] | None:
        """Each line's runs, or None if the text was changed after it was drawn."""
        plain, n_spans = self._drawn
        if self.style or len(self.spans) != n_spans or self.plain != plain:
            return None
        return self._runs


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
) -> None:
    """A card box 7 wide and 4 high: its face, and ``below`` on the third line."""
    inner = CARD_WIDTH - 2
    if top is None:
        canvas.write(x, y, "╭ ─ ─ ╮", DIM if border is BORDER else border)
        canvas.write(x, y + 1, " " + empty_word.center(inner) + " ", DIM)
        canvas.write(x, y + 2, " " + below.center(inner) + " ", DIM)
        canvas.write(x, y + 3, "╰ ─ ─ ╯", DIM if border is BORDER else border)
        return
    canvas.write(x, y, "╭" + "─" * inner + "╮", border)
    canvas.write(x, y + 1, "│", border)
    label = card_name(top, symbols)  # as ``card_label``, without making a Text
    pad = inner - len(label)
    left = pad // 2 + (pad % 2)
    face = palette.face_style
    canvas.write(x + 1, y + 1, " " * inner, face)
    canvas.write(x + 1 + left, y + 1, label, palette.card_style(top))
    canvas.write(x + CARD_WIDTH - 1, y + 1, "│", border)
    canvas.write(x, y + 2, "│", border)
    canvas.write(x + 1, y + 2, below.center(inner), palette.below_style(top))
    canvas.write(x + CARD_WIDTH - 1, y + 2, "│", border)
    canvas.write(x, y + 3, "╰" + "─" * inner + "╯", border)


def draw_back(canvas: Canvas, x: int, y: int, below: str) -> None:
    """A face-down card (or pile), with ``below`` on its third line."""
    canvas.write(x, y, "╭─────╮", BORDER)
    canvas.write(x, y + 1, "│░░░░░│", BORDER)
    canvas.write(x, y + 2, "│" + below.center(CARD_WIDTH - 2) + "│", BORDER)
    canvas.write(x, y + 3, "╰─────╯", BORDER)


@dataclass(frozen=True, slots=True)
class Slot:
    """One column of a player's cards: a stock (Spit) or a hand slot (Speed)."""

    top: int | None
    below: str  #: e.g. '+4' face-down cards under it
    keys: str  #: the column's keys, e.g. 'q a z' (empty: a computer's, none shown)
    flash: bool = False
    #: a card the player may not see (a computer's or a network opponent's Speed hand)
    face_down: bool = False


@lru_cache(maxsize=256)
def draw_slots(
    slots: tuple[Slot, ...],
    keys_above: bool,
    symbols: bool = True,
    palette: Palette = DEFAULT_PALETTE,
) -> Drawing:
    """A player's row of cards with the keys above (player 2) or below (player 1).

    Cached: the same cards give the same (shared, never changed) Text. Put
    together from each column's own drawing (``_slot_part``, cached per card),
    exactly as ``draw_slots_whole`` draws the row at once.
    """
    parts = [_margin_part(any(slot.keys for slot in slots), keys_above)]
    parts += [_slot_part(slot, keys_above, symbols, palette) for slot in slots]
    used = LEFT_MARGIN + len(slots) * COLUMN_WIDTH
    if used > BOARD_WIDTH or None in parts:  # a part drawn past its edges
        return draw_slots_whole(slots, keys_above, symbols, palette)
    if used < BOARD_WIDTH:
        parts.append(_blank_part(BOARD_WIDTH - used, CARD_HEIGHT + 1))
    return join_parts([part for part in parts if part is not None])


def draw_slots_whole(
    slots: tuple[Slot, ...],
    keys_above: bool,
    symbols: bool = True,
    palette: Palette = DEFAULT_PALETTE,
) -> Drawing:
    """``draw_slots`` on one canvas for the whole row (what the parts must add up to)."""
    canvas = Canvas(BOARD_WIDTH, CARD_HEIGHT + 1)
    _draw_margin(canvas, any(slot.keys for slot in slots), keys_above)
    for i, slot in enumerate(slots):
        _draw_slot(canvas, LEFT_MARGIN + i * COLUMN_WIDTH, slot, keys_above, symbols, palette)
    return canvas.to_text()


def _draw_margin(canvas: Canvas, any_keys: bool, keys_above: bool) -> None:
    if any_keys:
        canvas.write(0, 0 if keys_above else CARD_HEIGHT, "keys", DIM)


def _draw_slot(
    canvas: Canvas, x: int, slot: Slot, keys_above: bool, symbols: bool, palette: Palette
) -> None:
    card_y = 1 if keys_above else 0
    key_y = 0 if keys_above else CARD_HEIGHT
    border = FLASH_BORDER if slot.flash else BORDER
    if slot.face_down and slot.top is not None:
        draw_back(canvas, x, card_y, slot.below)
    else:
        draw_card(canvas, x, card_y, slot.top, slot.below, border, symbols, palette=palette)
    if slot.keys:
        canvas.write(x, key_y, slot.keys.center(CARD_WIDTH), palette.key_style)


#: a part of a drawing: its lines' runs, all of one width; None if it did not fit its width
Part = tuple[Run, ...] | None


def _part(canvas: Canvas) -> Part:
    """The canvas's runs, or None if anything was drawn past its edges."""
    return None if canvas.spilled else canvas.runs()


@lru_cache(maxsize=4)
def _margin_part(any_keys: bool, keys_above: bool) -> Part:
    canvas = Canvas(LEFT_MARGIN, CARD_HEIGHT + 1)
    _draw_margin(canvas, any_keys, keys_above)
    return _part(canvas)


@lru_cache(maxsize=1024)
def _slot_part(slot: Slot, keys_above: bool, symbols: bool, palette: Palette) -> Part:
    canvas = Canvas(COLUMN_WIDTH, CARD_HEIGHT + 1)
    _draw_slot(canvas, 0, slot, keys_above, symbols, palette)
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
    return Drawing.from_runs(tuple(lines))


@dataclass(frozen=True, slots=True)
class PileShow:
    """A spit pile as shown: top card, size, label, and who just played on it."""

    top: int | None
    size: int
    label: str
    landed_by: str | None = None
    in_use: bool = True
    face_down: bool = False  #: Speed's centre card before the opening


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
) -> Drawing:
    """The middle of the table: two spit piles (and Speed's side piles at the ends).

    ``banner``: up to three short lines shouting the phase ("SPIT!", "SLAP!").
    Cached like ``draw_slots``. (Drawn on one canvas: put together from parts
    as ``draw_slots`` is, it was no faster, as a played card changes the
    count under the pile's top and the "◀ P1" mark beside it, every time.)
    """
    canvas = Canvas(BOARD_WIDTH, CARD_HEIGHT + 1)
    _draw_banner(canvas, banner, sides is not None)
    for j, pile in enumerate(piles):
        _draw_pile(canvas, PILE_X[j], pile, symbols, palette)
    if sides is not None:
        for j, side in enumerate(sides):
            _draw_side(canvas, _SIDE_X[j], side, symbols)
    return canvas.to_text()


#: where each Speed side pile stands
_SIDE_X = (1, BOARD_WIDTH - CARD_WIDTH - 2)


def _draw_banner(canvas: Canvas, banner: tuple[str, ...], speed: bool) -> None:
    if banner:
        # Speed: narrower, in the gap between the right pile's "◀ P1" marker and
        # the right side pile, so that it covers neither
        x, width = (BANNER_X, BANNER_WIDTH) if not speed else (BANNER_X - 3, BANNER_WIDTH - 1)
        lines = ["", *banner, ""][:5]
        for i, line in enumerate(lines):
            canvas.write(x, i, fit(line, width).center(width), BANNER_STYLE)


def _draw_pile(canvas: Canvas, x: int, pile: PileShow, symbols: bool, palette: Palette) -> None:
    canvas.write(x - 2, 0, pile.label.center(CARD_WIDTH + 4), DIM)
    if not pile.in_use:
        draw_card(canvas, x, 1, None, "", BORDER, symbols, empty_word="unused")
        return
    if pile.face_down:
        draw_back(canvas, x, 1, "")
        return
    border = LANDED_BORDER if pile.landed_by else BORDER
    draw_card(canvas, x, 1, pile.top, f"×{pile.size}", border, symbols, palette=palette)
    if pile.landed_by:
        arrow = f"◀ {pile.landed_by}"
        canvas.write(x + CARD_WIDTH + 1, 2, arrow, LANDED_BORDER)


def _draw_side(canvas: Canvas, x: int, side: SideShow, symbols: bool) -> None:
    canvas.write(x, 0, "side".center(CARD_WIDTH), DIM)
    if side.size:
        draw_back(canvas, x, 1, f"×{side.size}")
    else:
        draw_card(canvas, x, 1, None, "", BORDER, symbols)
