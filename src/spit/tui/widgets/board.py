"""The board: one widget that draws the game's regions on Textual's Line API.

``board_keys`` reads a session and gives what every region shows, as a key
of plain values (``RegionKey``). The ``Board`` keeps one ``Area`` per region
(plain objects, listed once in ``REGIONS``): an area draws its key's text only
when the key changed, turns it into lines once, and the board refreshes just
the rows whose lines differ. ``render_line`` hands Textual those lines, so an
idle board costs nothing and one played card repaints a few rows. The layout
(which rows each region has, how big the cards are) comes from the widget's
size: ``SMALL`` at 80x24, bigger cards at 120x36 and 160x48 (``render.SCALES``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import NamedTuple, Protocol

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.terminal_theme import TerminalTheme
from rich.text import Text
from textual import events
from textual.color import Color
from textual.filter import LineFilter
from textual.geometry import Region
from textual.strip import Strip
from textual.style import Style as TextualStyle
from textual.widget import Widget

from spit.engine import Phase
from spit.engine.rule_words import rules_in_words
from spit.play.effects import EffectKind, Effects, Mark
from spit.play.keys import Row
from spit.play.session import PILE_NAMES, Session
from spit.play.texts import ASCII_CHARS, clock_text
from spit.tui.render import (
    DEFAULT_PALETTE,
    DIM,
    SMALL,
    Drawing,
    Palette,
    PileShow,
    Run,
    Scale,
    SideShow,
    Slot,
    draw_centre,
    draw_slots,
    fit,
    scale_for,
)


class AreaSpec(NamedTuple):
    """A region of the board: its name, its height, and the blank rows above it."""

    name: str
    cards: bool  #: a row of cards (the scale's card height and a line of keys), else one line
    gap: int | None = None  #: which of the scale's ``gaps`` lies above it (None: none)

    def rows(self, scale: Scale) -> int:
        """How many rows the region has at ``scale``."""
        return scale.card_height + 1 if self.cards else 1


#: The board's regions, top to bottom: the one list of them.
REGIONS: tuple[AreaSpec, ...] = (
    AreaSpec("topbar", False),
    AreaSpec("p2-info", False, 0),
    AreaSpec("p2-cards", True),
    AreaSpec("centre", True, 1),
    AreaSpec("p1-cards", True, 1),
    AreaSpec("p1-info", False),
    AreaSpec("status", False, 2),
    AreaSpec("news", False),
    AreaSpec("flash", False),
    AreaSpec("footer", False),
)
REGION_NAMES = tuple(spec.name for spec in REGIONS)


def layout(scale: Scale) -> dict[str, tuple[int, int]]:
    """Each region's first row and its rows on a board drawn at ``scale``."""
    rows: dict[str, tuple[int, int]] = {}
    y = 0
    for spec in REGIONS:
        if spec.gap is not None:
            y += scale.gaps[spec.gap]
        height = spec.rows(scale)
        rows[spec.name] = (y, height)
        y += height
    return rows


class TextKey(NamedTuple):
    """A region's text given as it is (a screen's own line), as a key."""

    given: Text | Drawing

    def text(self, scale: Scale = SMALL) -> Text | Drawing:
        return self.given


class Area:
    """One region of the board: what it shows (its key and text) and its lines.

    Its lines are made once per text, at the board's scale and colours, and
    kept until one of them changes. A plain object: the board lists its areas
    once and draws them; nothing looks an area up in Textual's DOM.
    """

    def __init__(self, spec: AreaSpec) -> None:
        self.spec = spec
        self.name = spec.name
        #: what the area was last shown: (the key's kind, the key, in ASCII)
        self.key: tuple[type, RegionKey, bool] | None = None
        self.text: Text | Drawing = Text()
        #: the text's lines as the board draws them, their runs, and what they were made
        #: for (the board's width, indent, scale and colours)
        self.lines: list[Strip] = []
        self.runs: tuple[Run, ...] = ()
        self.made_for: object = None
        self.stale = True  #: the text changed since the lines were made

    def show(self, key: RegionKey, ascii_only: bool, scale: Scale) -> bool:
        """Draw ``key`` (unless it is the key shown); True if the text changed."""
        shown = (type(key), key, ascii_only)
        if shown == self.key:
            return False
        text = key.text(scale)
        if ascii_only:
            text = ascii_text(text)
        self.key = shown
        if text is self.text:
            return False
        # (a drawing is compared line by line when its lines are made: not here too)
        if not isinstance(text, Drawing) and text == self.text and text.style == self.text.style:
            return False
        self.text = text
        self.stale = True
        return True


class Board(Widget):
    """The board: draws every region's lines at the rows its layout gives them.

    Public Line API only: ``render_line`` returns a row's kept line, and a new
    key refreshes only the rows whose lines changed (one ``refresh`` for all
    the regions a key press changes). The layout follows the widget's size
    (``on_resize``): the largest scale that fits, centred.
    """

    ALLOW_SELECT = False  # a board, not a document
    DEFAULT_CSS = """
    Board { width: 100%; height: 100%; }
    """

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        #: the regions, by name, in ``REGIONS`` order
        self.areas: dict[str, Area] = {spec.name: Area(spec) for spec in REGIONS}
        self.scale: Scale = SMALL
        #: (area, its line) for each of the board's rows; None: a blank row
        self._row_of: list[tuple[Area, int] | None] = []
        self._tops: dict[str, int] = {}
        self._indent = 0  # the columns left of the drawn board (a wider terminal)
        self._cols = 0  # the board's width (``size`` looks it up on every call)
        #: Rich style of a run's style on this board's colours, worked out once each
        self._styles: dict[Style | None, Style] = {}
        self._styles_for: object = None
        self._style_filters: tuple[LineFilter, ...] = ()  # the app's, for the styles made
        self._background = Color(0, 0, 0)  # the board's background, for the filters
        self._ansi_colours: TerminalTheme | None = None  # the app's, set by _check_styles
        self._blank: Strip | None = None  # a blank row, made once per look
        # The board's texts hold no links: without this (Textual's default is on)
        # every row would be checked for links to style on hover.
        self.auto_links = False

    # ------------------------------------------------------------ what it shows

    def text(self, name: str) -> Text | Drawing:
        """What region ``name`` shows."""
        return self.areas[name].text

    def show(
        self, keys: Mapping[str, RegionKey | Text | Drawing | str], ascii_only: bool = False
    ) -> bool:
        """Show each region's key (a text or a string: shown as it is); True if any
        region changed. The changed rows are refreshed together, once."""
        regions: list[Region] = []
        scale = self.scale
        for name, key in keys.items():
            area = self.areas[name]
            if isinstance(key, str):
                key = Text(key, no_wrap=True, overflow="ellipsis")
            if isinstance(key, (Text, Drawing)):
                key = TextKey(key)
            if area.show(key, ascii_only, scale):
                regions.extend(self._changed_rows(area))
        if regions:
            self.refresh(*regions)
        return bool(regions)

    def _changed_rows(self, area: Area) -> Iterable[Region]:
        """Make ``area``'s new lines; the board's rows whose lines differ."""
        if not self.is_mounted or not self._row_of:
            return ()
        old = area.lines
        new = self._area_lines(area)
        top = self._tops[area.name]
        width = self._cols
        if len(old) != len(new):
            return (Region(0, top, width, area.spec.rows(self.scale)),)
        # a line whose runs did not change is the very line made before (``_make_lines``);
        # changed rows next to each other are one region
        regions: list[Region] = []
        start = None
        for y, (a, b) in enumerate(zip(old, new, strict=True)):
            if a is not b:
                if start is None:
                    start = y
                continue
            if start is not None:
                regions.append(Region(0, top + start, width, y - start))
                start = None
        if start is not None:
            regions.append(Region(0, top + start, width, len(new) - start))
        return regions

    # -------------------------------------------------------------- the layout

    def on_resize(self, event: events.Resize) -> None:
        """Lay the regions out for the new size and draw them all again."""
        self.relayout()

    def relayout(self) -> None:
        """Choose the scale for the board's size and place the regions' rows."""
        width, height = self.size
        self._cols = width
        scale = scale_for(width, height)
        rescaled = scale != self.scale
        self.scale = scale
        self._indent = max(0, (width - scale.width) // 2)
        offset = max(0, (height - scale.height) // 2)
        rows: list[tuple[Area, int] | None] = [None] * max(height, 0)
        self._tops = {}
        for name, (top, count) in layout(scale).items():
            area = self.areas[name]
            self._tops[name] = top + offset
            area.stale = True
            for line in range(count):
                if 0 <= top + offset + line < height:
                    rows[top + offset + line] = (area, line)
        self._row_of = rows
        if rescaled:  # the drawings depend on the scale: draw the keys again
            for area in self.areas.values():
                if area.key is not None:
                    _, key, ascii_only = area.key
                    area.key = None
                    area.show(key, ascii_only, scale)
        self.refresh()

    # ----------------------------------------------------------------- drawing

    def render_line(self, y: int) -> Strip:
        """Row ``y``: its region's line (kept until it changes), or a blank line."""
        rows = self._row_of
        row = rows[y] if 0 <= y < len(rows) else None
        if row is not None:
            area, line = row
            lines = self._area_lines(area)
            if line < len(lines):
                return lines[line]
        self._check_styles(self.visual_style)
        blank = self._blank
        if blank is None or blank.cell_length != self._cols:
            blank = self._blank = Strip.blank(self._cols, self._on_board(None))
        return blank

    def get_line_filters(self) -> Sequence[LineFilter]:
        """None: the board's styles come with the app's filters applied, once each, as
        they are worked out (Textual would apply them to every row on every update)."""
        return ()

    def _app_filters(self) -> tuple[LineFilter, ...]:
        """The app's line filters (colour conversion, NO_COLOR's greys) for this board."""
        return tuple(super().get_line_filters())

    def _area_lines(self, area: Area) -> list[Strip]:
        """``area``'s lines at the board's width, colours and filters (made once per text)."""
        self._check_styles(self.visual_style)
        # the board's width, indent, scale and look (colours, theme, filters)
        made_for = (self._cols, self._indent, self.scale, self._styles_for)
        if area.stale or area.made_for != made_for:
            runs = self._text_runs(area.text)
            # a line drawn as before (same runs, same board) is the line made before
            old = area.runs if area.made_for == made_for else ()
            area.lines = self._make_lines(runs, old, area.lines)
            area.runs = runs
            area.made_for = made_for
            area.stale = False
        return area.lines

    def _text_runs(self, text: Text | Drawing) -> tuple[Run, ...]:
        """A text's lines, cut to the scale's width, as runs of one style each."""
        width = self.scale.width
        if isinstance(text, Drawing):
            if text.cells <= width:
                return text.runs
            text = text.to_rich()
        return self._runs(fitted(text, width))

    def _make_lines(
        self,
        runs: tuple[Run, ...],
        old_runs: tuple[Run, ...],
        old_lines: list[Strip],
    ) -> list[Strip]:
        """Lines of ``runs`` as strips on the board's colours, filtered (a line whose
        runs are those of ``old_runs`` is that line of ``old_lines``)."""
        left = self._indent
        on_board = self._on_board
        blank = on_board(None)
        pad = [Segment(" " * left, blank)] if left else []
        width = self._cols
        reuse = len(old_runs) == len(old_lines)
        lines: list[Strip] = []
        for y, run in enumerate(runs):
            if reuse and y < len(old_runs) and old_runs[y] == run:
                lines.append(old_lines[y])
                continue
            text, pieces = run
            segments = [*pad, *(Segment(p, on_board(style)) for p, style in pieces if p)]
            # the full width, so that Textual need not pad the line again
            used = left + cell_len(text)
            if used < width:
                segments.append(Segment(" " * (width - used), blank))
            lines.append(Strip(segments, max(used, width)))
        return lines

    def _runs(self, text: Text) -> tuple[Run, ...]:
        """A text's lines as runs of one Rich style each (Rich renders the spans)."""
        console = self.app.console
        own = text.style
        # (a text's own string style reads as Textual reads it: as its CSS would)
        base = _own_style(own) if isinstance(own, str) else own
        segments = text.render(console, end="")
        out: list[Run] = []
        for line in Segment.split_lines(segments):
            pieces = tuple(
                (segment.text, base + segment.style if base else segment.style) for segment in line
            )
            out.append(("".join(piece for piece, _ in pieces), pieces))
        return tuple(out) or (("", ()),)

    def _check_styles(self, base: TextualStyle) -> None:
        """Forget the converted styles (and the blank line) if the board's colours, the
        theme or the app's line filters changed.

        The theme is read as the app's reactives that decide its ANSI colours (the
        theme's name, the dark and light ANSI themes): ``App.ansi_theme`` itself looks
        the theme up by name on every call, and this check runs for every line made.
        """
        app = self.app
        made_for = (
            base,
            app.theme,
            app.ansi_theme_dark,
            app.ansi_theme_light,
            self._app_filters(),
        )
        if self._styles_for != made_for:
            self._styles.clear()
            self._styles_for = made_for
            self._style_filters = made_for[-1]
            self._ansi_colours = app.ansi_theme
            self._background = self.background_colors[1]
            self._blank = None

    def _on_board(self, style: Style | None) -> Style:
        """``style`` on the board's colours, through the app's line filters, as a Rich
        style (worked out once per style).

        A filter (colour conversion, NO_COLOR's greys, dimming) changes each segment's
        style by itself, so filtering each style once is filtering every line of it.
        """
        done = self._styles.get(style)
        if done is None:
            base = self.visual_style
            if style is not None:
                base = base + TextualStyle.from_rich_style(style, self._ansi_colours)
            done = base.rich_style
            for line_filter in self._style_filters:
                (segment,) = line_filter.apply([Segment(" ", done)], self._background)
                done = segment.style or Style()
            self._styles[style] = done
        return done

    def on_mount(self) -> None:
        self.relayout()


@lru_cache(maxsize=64)
def _own_style(style: str) -> Style:
    """A text's own string style as Textual reads it; nothing if Textual cannot read it."""
    try:
        return TextualStyle.parse(style).rich_style
    except Exception:  # Textual drops what it cannot parse (e.g. Rich's "bright_red")
        return Style()


def fitted(text: Text, width: int) -> Text:
    """``text`` with every line wider than ``width`` cut to end in "…" (never cut bare)."""
    if width <= 0 or all(cell_len(line) <= width for line in text.plain.split("\n")):
        return text
    lines = text.split("\n", allow_blank=True)
    for line in lines:
        line.truncate(width, overflow="ellipsis")
    out = Text("\n").join(lines)
    out.style = text.style
    return out


#: Terminal columns a player's name may take on their line: 24 ordinary
#: letters, or 12 wide (CJK, emoji) ones, so the keys and score still fit.
NAME_CELLS = 24


def fit_cells(text: str, cells: int) -> str:
    """``text`` cut to at most ``cells`` terminal columns, ending in "…" if it was cut."""
    if cell_len(text) <= cells:
        return text
    out = ""
    for ch in text:
        if cell_len(out + ch) > cells - 1:
            break
        out += ch
    return out + "…"


class RegionKey(Protocol):
    """What a region of the board shows, as plain values: all its drawing reads.

    ``text()`` draws it from those values alone, so two equal keys of one
    kind give equal texts: a box whose key did not change (``TextBox.show``)
    need not be drawn or compared again.
    """

    def text(self, scale: Scale = SMALL) -> Text | Drawing:
        """The region's text at ``scale``, drawn from this key alone."""
        ...


class TopKey(NamedTuple):
    """The top bar: the game, the round, the game clock, the optional rules in words."""

    title: str
    round_no: int
    variants: str
    clock: str = ""  #: the game time, ``1:23``

    def text(self, scale: Scale = SMALL) -> Text:
        out = Text(no_wrap=True, overflow="ellipsis")
        out.append(f" {self.title.upper()} ", "bold reverse")
        out.append(f"  round {self.round_no}", "bold")
        if self.clock:
            out.append(f"  time {self.clock}", "bold")
        if self.variants:
            out.append("  " + self.variants, DIM)
        return out


class InfoKey(NamedTuple):
    """A player's line: name, reserve, ready, hidden hand, call key, score."""

    name: str
    reserve_name: str
    reserve: int
    ready: str | None
    hand: int | None  #: cards in a hand shown face down
    call_key: str | None  #: None for a computer or a seat without keys here
    key_style: Style
    score: int | None
    computer: bool
    fumbled: bool = False  #: under a fumble: hands off for a moment
    target: int | None = None  #: the match's target score, shown after the score

    def text(self, scale: Scale = SMALL) -> Text:
        out = Text(no_wrap=True, overflow="ellipsis")
        out.append(f" {fit_cells(self.name, NAME_CELLS)} ", "bold reverse")
        if self.fumbled:
            out.append(" FUMBLE: hands off ", "bold reverse red")
        out.append(f"  {self.reserve_name} {self.reserve}", "bold")
        if self.ready is not None:
            out.append(self.ready, "green bold")
        if self.hand is not None:
            out.append(f"  hand {self.hand}", "bold")
        if self.call_key is not None:
            out.append("   call key ", DIM)
            out.append(self.call_key, self.key_style)
        if self.score is not None:
            of = f" / {self.target}" if self.target is not None else ""
            out.append(f"   score {self.score}{of}", "bold")
        if self.computer:
            out.append("   (computer)", DIM)
        return out


class CardsKey(NamedTuple):
    """A player's row of cards."""

    slots: tuple[Slot, ...]
    keys_above: bool
    palette: Palette

    def text(self, scale: Scale = SMALL) -> Drawing:
        return draw_slots(self.slots, self.keys_above, palette=self.palette, scale=scale)


class CentreKey(NamedTuple):
    """The spit piles (and Speed's side piles) with the phase's banner."""

    piles: tuple[PileShow, PileShow]
    sides: tuple[SideShow, SideShow] | None
    banner: tuple[str, ...]
    palette: Palette

    def text(self, scale: Scale = SMALL) -> Drawing:
        return draw_centre(
            self.piles, self.sides, banner=self.banner, palette=self.palette, scale=scale
        )


class LineKey(NamedTuple):
    """One line of words in one style (the status, the news, a note)."""

    words: str
    style: str = ""

    def text(self, scale: Scale = SMALL) -> Text:
        return Text(self.words, style=self.style, no_wrap=True, overflow="ellipsis")


class FlashKey(NamedTuple):
    """A refused move (and how many times it came) and a held key's note."""

    flash: str | None
    times: int  #: how many times in a row it came
    held_key: str | None
    held_by: str  #: the held key's player's name
    window: str  #: the repeat window, in seconds

    def text(self, scale: Scale = SMALL) -> Text:
        out = Text(no_wrap=True, overflow="ellipsis")
        if self.flash is not None:
            out.append("✗ " + self.flash, "bold bright_red")
            if self.times > 1:
                out.append(f" (×{self.times})", "bold reverse bright_red")
        if self.held_key is not None:
            if self.flash is None:
                note = (
                    f"· {self.held_by}: {self.held_key} again within {self.window} s: "
                    "taken as a held key, ignored"
                )
            else:
                note = f"   · {self.held_key} held: ignored"
            out.append(note, DIM)
        return out


class FooterKey(NamedTuple):
    """The app keys named at the bottom: (key, what it does)."""

    keys: tuple[tuple[str, str], ...]
    gap: str = "  "  #: after each key's words

    def text(self, scale: Scale = SMALL) -> Text:
        out = Text(no_wrap=True, overflow="ellipsis")
        for key, what in self.keys:
            out.append(f" {key} ", "reverse")
            out.append(f" {what}{self.gap}")
        return out


def _info_key(session: Session, p: int, palette: Palette) -> InfoKey:
    game = session.table
    info = game.info
    ready = None
    if game.phase in (Phase.OPENING, Phase.STALEMATE) and game.called[p]:
        ready = "  ✓ ready" if info.side_piles else "  ✓ called"
    computer = p in session.agents
    hand = None
    if hidden_hand(session, p):
        hand = sum(top is not None for top, _ in game.columns(p))
    owner = session.key_owner(p)
    call_key = None
    if not computer and owner is not None:  # a computer player has no keys
        call_key = session.keymap.calls[owner]
    return InfoKey(
        session.name(p),
        info.reserve_name,
        game.reserve_size(p),
        ready,
        hand,
        call_key,
        palette.key_style,
        game.scores[p] if game.is_match else None,
        computer,
        p in session.fumbled,
        game.config.target_score if game.is_match else None,
    )


def hidden_hand(session: Session, p: int) -> bool:
    """True for a computer's Speed hand in a game against a person: shown face down.

    (Spit's stock tops are face up by the rules and stay shown; when two
    computers play each other there is nobody to hide anything from.)
    """
    agents = session.agents
    return session.game.info.private_hand and p in agents and len(agents) < 2


def _slots(session: Session, p: int, marks: tuple[Mark, ...] = ()) -> list[Slot]:
    game = session.table
    glowing = {m.column for m in marks if m.player == p and m.kind in _SLOT_GLOW}
    dealt = any(m.player == p and m.kind is EffectKind.DEALT for m in marks)
    fumbled = {m.column for m in marks if m.player == p and m.kind is EffectKind.FUMBLE}
    keymap = session.keymap
    flash = session.flash
    has_moves = game.info.has_moves
    owner = session.key_owner(p)
    computer = p in session.agents
    hidden = hidden_hand(session, p)
    slots: list[Slot] = []
    for i, (top, under) in enumerate(game.columns(p)):
        if computer or owner is None:
            keys = ""
        elif has_moves:
            keys = keymap.column_keys(owner, i)
        else:
            keys = f"{keymap.key(owner, Row.LEFT, i)} {keymap.key(owner, Row.RIGHT, i)}"
        below = f"+{under}" if under else ""
        hit = (flash is not None and flash.player == p and flash.column == i) or i in fumbled
        # A negative card is one this screen may not see (a network opponent's hand).
        unseen = top is not None and top < 0
        glow = dealt or i in glowing
        slots.append(Slot(top, below, keys, hit, face_down=hidden or unseen, glow=glow))
    return slots


#: the marks that light a slot up: a card left it, or reached it (a Speed move)
_SLOT_GLOW = frozenset({EffectKind.FROM, EffectKind.TO})


def landed_marks(names: tuple[str, str]) -> tuple[str, str]:
    """The short words beside a pile for who just played on it: the first three
    letters of each name, or the players' numbers when those are the same."""
    short = (names[0][:3], names[1][:3])
    if short[0].casefold() == short[1].casefold():
        return ("#1", "#2")
    return short


def _centre_key(session: Session, palette: Palette, marks: tuple[Mark, ...] = ()) -> CentreKey:
    game = session.table
    me = session.bottom_player
    side_piles = game.info.side_piles
    landed = session.landed
    piles = []
    who = landed_marks(session.names)
    for j in (0, 1):
        pile = game.piles[j]
        came = landed.get(j)
        label = f"{PILE_NAMES[j]} pile"
        if not side_piles:  # a Spit pile belongs to the player who started it (R5)
            label += f" ({fit(session.names[j], 10)})"
        on_it = [m for m in marks if m.pile == j]
        glow = any(m.kind is EffectKind.TO for m in on_it)
        lost = next((m.player for m in on_it if m.kind is EffectKind.LOST_RACE), None)
        taker = next((m.player for m in on_it if m.kind is EffectKind.TAKEN), None)
        note = None
        if taker is not None:  # where the pile went: down to the bottom player, or up
            note = f"{'▼' if taker == me else '▲'} to {who[taker]}"
        piles.append(
            PileShow(
                pile[-1] if pile else None,
                len(pile),
                label,
                who[came.player] if came else None,
                game.pile_in_use(j),
                face_down=not pile and game.centre_face_down(),
                glow=glow or taker is not None,
                lost_by=None if lost is None else who[lost],
                note=note,
            )
        )
    sides = None
    sizes = game.side_pile_sizes()
    if sizes is not None:
        sides = (SideShow(sizes[0]), SideShow(sizes[1]))
    return CentreKey((piles[0], piles[1]), sides, _banner(session), palette)


def _banner(session: Session) -> tuple[str, ...]:
    """The phase, shouted beside the piles."""
    game = session.game
    phase = game.phase
    side_piles = game.info.side_piles
    if session.arbiter.paused:
        return ("PAUSED",)
    if phase is Phase.OPENING:
        return ("READY?",) if side_piles else ("CALL", "SPIT!")
    if phase is Phase.STALEMATE:
        return ("STUCK", "side piles") if side_piles else ("STUCK:", "SPIT!")
    if phase is Phase.SLAP:
        return ("SLAP!", "smaller pile")
    if phase is Phase.CHOOSE:
        return ("CHOOSE", "a pile")
    if phase is Phase.GAME_OVER:
        winner = game.winner
        who = "draw" if winner is None else f"{fit(session.name(winner), 10)} wins"
        return ("GAME OVER", who)
    return ()


def flash_key(session: Session) -> FlashKey:
    """What the flash line shows: a refused move (counted when the same message comes
    again) and a held key's note."""
    flash = session.flash
    held = session.held
    return FlashKey(
        None if flash is None else flash.text,
        1 if flash is None else flash.count,
        None if held is None else held.key,
        "" if held is None else session.name(held.player),
        f"{session.keymap.repeat_window:g}",
    )


def flash_line(session: Session) -> Text:
    """A refused move (counted when the same message comes again) and a held key's note."""
    return flash_key(session).text()


def ascii_text(text: Text | Drawing) -> Text | Drawing:
    """``text`` with suits as S H D C and boxes drawn in ASCII, its styles kept."""
    plain = text.plain
    converted = plain.translate(ASCII_CHARS)
    if converted.isascii() and converted == plain:
        return text
    if isinstance(text, Drawing):
        return text.translate(_ASCII_ONLY)
    out = text.copy()
    out.plain = converted.encode("ascii", "replace").decode("ascii")
    return out


class _AsciiOnly(dict[int, str]):
    """``ASCII_CHARS``, and "?" for any other character that is not ASCII."""

    def __missing__(self, code: int) -> str:
        return chr(code) if code < 128 else "?"


_ASCII_ONLY = _AsciiOnly(ASCII_CHARS)


def board_texts(
    session: Session,
    now: float,
    palette: Palette = DEFAULT_PALETTE,
    ascii_only: bool = False,
) -> dict[str, Text | Drawing]:
    """The text of every region of the board, by widget id, in ``palette``'s colours.

    ``ascii_only``: suits as S H D C and boxes in ASCII, for terminals without them.
    """
    texts = {region: key.text() for region, key in board_keys(session, now, palette).items()}
    if ascii_only:
        return {region: ascii_text(text) for region, text in texts.items()}
    return texts


def board_keys(
    session: Session,
    now: float,
    palette: Palette = DEFAULT_PALETTE,
    effects: Effects | None = None,
) -> dict[str, RegionKey]:
    """What every region of the board shows, by region (``board_texts`` draws them);
    with ``effects``, the marks showing at ``now`` (a played card's slot and pile, …)."""
    game = session.game
    marks = () if effects is None else effects.active(now)
    # The regions keep their ids (p1 = bottom); a network guest in seat 2 sits at the bottom.
    me = session.bottom_player
    them = 1 - me
    return {
        "topbar": TopKey(
            game.info.title,
            game.round_no,
            rules_in_words(game.config.variants, game.is_match, game.config.target_score),
            clock_text(session.game_time(now)),
        ),
        "p2-info": _info_key(session, them, palette),
        "p2-cards": CardsKey(tuple(_slots(session, them, marks)), True, palette),
        "centre": _centre_key(session, palette, marks),
        "p1-cards": CardsKey(tuple(_slots(session, me, marks)), False, palette),
        "p1-info": _info_key(session, me, palette),
        "status": LineKey(session.status(now), "bold yellow"),
        "news": LineKey(session.news),
        "flash": flash_key(session),
        "footer": FooterKey(session.footer_keys),
    }
