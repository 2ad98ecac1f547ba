"""The board's widgets and how a game's state becomes their text.

``board_keys`` reads a session and gives what every region shows; a ``TextBox``
holds a region's text and marks only the lines that changed, and the ``Board``
paints them, so an idle board costs nothing and one played card repaints a
few lines.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import NamedTuple, Protocol, Self

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.color import Color
from textual.filter import LineFilter
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.style import Style as TextualStyle
from textual.widget import Widget

from spit.engine import Phase
from spit.engine.rule_words import rules_in_words
from spit.play.keys import Row
from spit.play.session import PILE_NAMES, Session
from spit.play.texts import ASCII_CHARS
from spit.tui.render import (
    DEFAULT_PALETTE,
    DIM,
    Palette,
    PileShow,
    SideShow,
    Slot,
    draw_centre,
    draw_slots,
    fit,
)
from spit.tui.widgets.strips import TextStrips

#: The board's regions, top to bottom: (the box's id, its first row, its rows).
#: The rows between them (above and below the centre) are blank.
BOARD_ROWS: tuple[tuple[str, int, int], ...] = (
    ("topbar", 0, 1),
    ("p2-info", 1, 1),
    ("p2-cards", 2, 5),
    ("centre", 8, 5),
    ("p1-cards", 14, 5),
    ("p1-info", 19, 1),
    ("status", 20, 1),
    ("news", 21, 1),
    ("flash", 22, 1),
    ("footer", 23, 1),
)


class Board(Widget):
    """The board: one widget that paints the lines of all its boxes.

    Its ``TextBox`` children hold the regions' texts (and are what a screen
    or a test looks up by id) but are not displayed: the board paints their
    lines at the rows ``BOARD_ROWS`` gives them, and a box's changed lines
    mark the board's rows. So a played card, which changes a few lines of
    three or four regions, is one widget for Textual to update and one
    compositor pass, not one per region. The board keeps the lines it
    painted until they are marked, it is resized, or the app's filters change.
    """

    ALLOW_SELECT = False  # a board, not a document

    def __init__(self, *children: Widget, id: str | None = None) -> None:
        #: painted lines by row, for the size and filters in ``_kept_for``
        self._kept: dict[int, Strip] = {}
        self._kept_for: tuple[Size, tuple[LineFilter, ...]] | None = None
        #: the list last handed to the compositor, and what it asked for
        self._handed: tuple[Region, list[Strip]] | None = None
        self._rows: dict[int, tuple[TextBox, int]] | None = None
        self._row_of: dict[TextBox, int] = {}
        self._children_seen = -1
        self._pending: list[Region] | None = None  # marks collected by ``marking``
        self._look: _Look | None = None  # how the rows are painted, until marked dirty
        super().__init__(*children, id=id)
        # The board's texts hold no links: without this (Textual's default is on)
        # every row would go through Textual's styles cache, to style links on hover.
        self.set_reactive(Board.auto_links, False)

    def _layout(self) -> dict[int, tuple[TextBox, int]]:
        """Which box and which of its lines each row shows (built once its boxes are in)."""
        children = self.children
        if self._rows is None or self._children_seen != len(children):
            boxes = {box.id: box for box in children if isinstance(box, TextBox)}
            rows: dict[int, tuple[TextBox, int]] = {}
            self._row_of = {}
            for region, top, height in BOARD_ROWS:
                box = boxes.get(region)
                if box is not None:
                    self._row_of[box] = top
                    rows.update((top + line, (box, line)) for line in range(height))
            self._rows = rows
            self._children_seen = len(children)
        return self._rows

    def mark(self, box: TextBox, lines: list[int] | None) -> None:
        """``box``'s ``lines`` changed (None: all of them): mark its rows for repainting."""
        self._layout()
        top = self._row_of.get(box)
        if top is None:
            return
        height = next(rows for region, _, rows in BOARD_ROWS if region == box.id)
        width = self.look().width
        if lines is None:
            regions = [Region(0, top, width, height)]
        else:
            regions = [Region(0, top + y, width, 1) for y in lines if 0 <= y < height]
        pending = self._pending
        if pending is not None:
            pending.extend(regions)
        elif regions:
            self.refresh(*regions)

    @contextmanager
    def marking(self) -> Iterator[None]:
        """Collect the boxes' marks while in it; mark the board once at the end."""
        self._pending = []
        try:
            yield
        finally:
            pending, self._pending = self._pending, None
            if pending:
                self.refresh(*pending)

    def render_line(self, y: int) -> Strip:
        """Row ``y``: its box's line, or a blank line."""
        row = self._layout().get(y)
        if row is not None:
            box, line = row
            strip = box.line(line)
            if strip is not None:
                return strip
        return Strip.blank(self.look().width, self.visual_style.rich_style)

    def render_lines(self, crop: Region) -> list[Strip]:
        """The lines in ``crop``: those painted before and not marked since, the rest anew."""
        handed = self._handed
        if handed is not None and handed[0] == crop:
            return handed[1]
        key = (self.outer_size, tuple(self.get_line_filters()))
        look = self._look
        # (a look worked out while the board was hidden, by a too-small terminal, has
        # no width: the size it comes back at may be the one the rows were kept for)
        if key != self._kept_for or (look is not None and look.width != self.size.width):
            self._kept.clear()
            self._kept_for = key
            self._look = None
        kept = self._kept
        rows = crop.line_range
        if crop.column_span != (0, self.look().width):  # a part of the width: not kept
            lines = super().render_lines(crop)
        else:
            missing = [y for y in rows if y not in kept]
            if missing:
                kept.update(zip(missing, self._paint_rows(missing), strict=True))
            lines = [kept[y] for y in rows]
        self._handed = (crop, lines)
        return lines

    def _paint_rows(self, rows: list[int]) -> list[Strip]:
        """The full-width lines of ``rows`` (in order), painted anew.

        Textual's styles cache paints a widget's line through its borders,
        padding, outline, tint, hatch and opacity. The board has none of
        these, so each row is its line padded to the width with the
        background, and the app's filters applied: what the cache would give.
        Should a style add any of them, Textual paints the rows itself.
        """
        width, plain, fill, background = self.look()
        if not plain:
            paint = super().render_lines
            return [paint(Region(0, y, width, 1))[0] for y in rows]
        filters = self.get_line_filters()
        lines: list[Strip] = []
        for y in rows:  # only these: the kept rows between them stay as they are
            line = self.render_line(y).adjust_cell_length(width, fill)
            for line_filter in filters:
                line = line.apply_filter(line_filter, background)
            lines.append(line)
        return lines

    def look(self) -> _Look:
        """The board's width and colours as its rows are painted (worked out once, until
        Textual marks the whole board dirty, a new size, style or theme, or a frame
        finds the board's width changed)."""
        look = self._look
        if look is None:
            base, background = self.background_colors
            fill = _background_style(base + background)
            look = self._look = _Look(self.size.width, self._plain_styles(), fill, background)
        return look

    def _set_dirty(self, *regions: Region) -> None:
        """Textual's own (all of the board, without regions: its look is worked out again)."""
        if not regions:
            self._look = None
        super()._set_dirty(*regions)

    def _plain_styles(self) -> bool:
        """True if the board's styles add nothing around or over its lines."""
        styles = self.styles
        return (
            not any(styles.gutter)
            and all(not edge for edge, _ in styles.outline)
            and self.content_region.size == self.region.size
            and not styles.tint.a
            and self.opacity == 1.0
            and styles.text_opacity == 1.0
            and (not styles.has_rule("hatch") or styles.hatch == "none")
            and not self.auto_links
        )

    def refresh(
        self,
        *regions: Region,
        repaint: bool = True,
        layout: bool = False,
        recompose: bool = False,
    ) -> Self:
        """Textual's ``refresh``; the rows marked (all, without regions) are painted anew."""
        if repaint or recompose:
            self._handed = None
            if regions and not recompose:
                kept = self._kept
                for region in regions:
                    for y in region.line_range:
                        kept.pop(y, None)
            else:
                self._kept.clear()
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)


class _Look(NamedTuple):
    """What painting the board's rows needs of its styles."""

    width: int  #: of its content
    plain: bool  #: ``Board._plain_styles``
    fill: Style  #: its blank cells
    background: Color  #: for the app's line filters


@lru_cache(maxsize=16)
def _background_style(colour: Color) -> Style:
    """The Rich style of a widget's blank cells on ``colour`` (as Textual paints them)."""
    return TextualStyle(background=colour).rich_style


class TextBox(Widget):
    """A region's text on a ``Board``, which paints its lines (the box itself is not shown).

    Its lines are made once per text (``TextStrips``: each style converted
    once, not on every repaint) at the board's width and colours. A new
    text is compared with the old one line by line and only the board's
    rows of the lines that differ are marked for repainting. A box that is
    not on a board has no lines: it only holds its text.
    """

    DEFAULT_CSS = """
    TextBox { display: none; }
    """

    def __init__(self, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._text = Text()
        self._strips: list[Strip] | None = None
        self._made_for: tuple[int, object] | None = None  # (width, base style) of _strips
        self._converter: TextStrips | None = None
        #: what the lines were made for, the text and the lines, before the text changed
        self._before: tuple[tuple[int, object], Text, list[Strip]] | None = None
        self._fitted = False  # the lines are those of the text cut to the width
        #: what ``show`` drew the text from (None: the text was set some other way)
        self._key: tuple[type, RegionKey, bool] | None = None

    def show(self, key: RegionKey, ascii_only: bool = False) -> bool:
        """Show what ``key`` draws (in ASCII if asked); True if it differed from what was shown.

        A key equal to the one the box was last shown draws the same text,
        so then nothing is drawn, converted or compared.
        """
        shown = (type(key), key, ascii_only)
        if shown == self._key:
            return False
        text = key.text()
        changed = self.set(ascii_text(text) if ascii_only else text)
        self._key = shown
        return changed

    def set(self, text: Text | str) -> bool:
        """Show ``text``; True if it differed from what was shown."""
        self._key = None
        if isinstance(text, str):
            text = Text(text, no_wrap=True, overflow="ellipsis")
        shown = self._text
        if text is shown or (text == shown and text.style == shown.style):
            return False
        before, self._text = shown, text
        made, old = self._made_for, self._strips
        self._made_for = None
        # lines drawn as before are the lines made before (for the same width and style)
        self._before = None
        if made is not None and old is not None and not self._fitted:
            self._before = (made, before, old)
        if made is None or old is None:
            self._mark(None)
            return True
        new = self._make_strips()
        if self._made_for != made or new is None or len(new) != len(old):
            self._mark(None)
            return True
        # only the lines that differ are painted again
        pairs = enumerate(zip(old, new, strict=True))
        changed = [y for y, (was, now) in pairs if was is not now and was != now]
        if changed:
            self._mark(changed)
        return True

    @property
    def board(self) -> Board | None:
        """The board that paints this box's lines (None: on no board, it has none)."""
        parent = self.parent
        return parent if isinstance(parent, Board) else None

    def _mark(self, lines: list[int] | None) -> None:
        """Have ``lines`` (None: all) painted again by the board."""
        board = self.board
        if board is not None:
            board.mark(self, lines)

    def line(self, y: int) -> Strip | None:
        """Line ``y`` as the board paints it (None: a blank line)."""
        strips = self._make_strips()
        if strips is not None and 0 <= y < len(strips):
            return strips[y]
        return None

    @property
    def text(self) -> Text:
        """What the box shows."""
        return self._text

    def _make_strips(self) -> list[Strip] | None:
        """The text's lines at the width and style of its board, kept until either
        changes (None: the box is on no board)."""
        board = self.board
        if board is None:
            return None
        width, base = board.look().width, board.visual_style
        if self._made_for != (width, base):
            converter = self._converter
            if converter is None or converter.base is not base:
                app = self.app
                converter = TextStrips(base, app.console.get_style, app.ansi_theme)
                self._converter = converter
            before = self._before
            self._before = None
            reuse = before[1:] if before is not None and before[0] == (width, base) else None
            strips = converter.strips(self._text, width, reuse)
            self._fitted = strips is None
            if strips is None:  # a line too wide: cut it to end in "…"
                strips = converter.strips(fitted(self._text, width), width)
            self._strips = strips
            self._made_for = (width, base)
        return self._strips


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

    def text(self) -> Text:
        """The region's text, drawn from this key alone."""
        ...


class TopKey(NamedTuple):
    """The top bar: the game, the round, the optional rules in words."""

    title: str
    round_no: int
    variants: str

    def text(self) -> Text:
        out = Text(no_wrap=True, overflow="ellipsis")
        out.append(f" {self.title.upper()} ", "bold reverse")
        out.append(f"  round {self.round_no}", "bold")
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

    def text(self) -> Text:
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
            out.append(f"   score {self.score}", "bold")
        if self.computer:
            out.append("   (computer)", DIM)
        return out


class CardsKey(NamedTuple):
    """A player's row of cards."""

    slots: tuple[Slot, ...]
    keys_above: bool
    palette: Palette

    def text(self) -> Text:
        return draw_slots(self.slots, self.keys_above, palette=self.palette)


class CentreKey(NamedTuple):
    """The spit piles (and Speed's side piles) with the phase's banner."""

    piles: tuple[PileShow, PileShow]
    sides: tuple[SideShow, SideShow] | None
    banner: tuple[str, ...]
    palette: Palette

    def text(self) -> Text:
        return draw_centre(self.piles, self.sides, banner=self.banner, palette=self.palette)


class LineKey(NamedTuple):
    """One line of words in one style (the status, the news, a note)."""

    words: str
    style: str = ""

    def text(self) -> Text:
        return Text(self.words, style=self.style, no_wrap=True, overflow="ellipsis")


class FlashKey(NamedTuple):
    """A refused move (and how many times it came) and a held key's note."""

    flash: str | None
    times: int  #: how many times in a row it came
    held_key: str | None
    held_by: str  #: the held key's player's name
    window: str  #: the repeat window, in seconds

    def text(self) -> Text:
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

    def text(self) -> Text:
        out = Text(no_wrap=True, overflow="ellipsis")
        for key, what in self.keys:
            out.append(f" {key} ", "reverse")
            out.append(f" {what}{self.gap}")
        return out


def _info_key(session: Session, p: int, palette: Palette) -> InfoKey:
    game = session.game
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
    )


def hidden_hand(session: Session, p: int) -> bool:
    """True for a computer's Speed hand in a game against a person: shown face down.

    (Spit's stock tops are face up by the rules and stay shown; when two
    computers play each other there is nobody to hide anything from.)
    """
    agents = session.agents
    return session.game.info.private_hand and p in agents and len(agents) < 2


def _slots(session: Session, p: int) -> list[Slot]:
    game = session.game
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
        hit = flash is not None and flash.player == p and flash.column == i
        # A negative card is one this screen may not see (a network opponent's hand).
        unseen = top is not None and top < 0
        slots.append(Slot(top, below, keys, hit, face_down=hidden or unseen))
    return slots


def landed_marks(names: tuple[str, str]) -> tuple[str, str]:
    """The short words beside a pile for who just played on it: the first three
    letters of each name, or the players' numbers when those are the same."""
    short = (names[0][:3], names[1][:3])
    if short[0].casefold() == short[1].casefold():
        return ("#1", "#2")
    return short


def _centre_key(session: Session, palette: Palette) -> CentreKey:
    game = session.game
    side_piles = game.info.side_piles
    landed = session.landed
    piles = []
    marks = landed_marks(session.names)
    for j in (0, 1):
        pile = game.piles[j]
        came = landed.get(j)
        label = f"{PILE_NAMES[j]} pile"
        if not side_piles:  # a Spit pile belongs to the player who started it (R5)
            label += f" ({fit(session.names[j], 10)})"
        piles.append(
            PileShow(
                pile[-1] if pile else None,
                len(pile),
                label,
                marks[came.player] if came else None,
                game.pile_in_use(j),
                face_down=not pile and game.centre_face_down(),
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


def ascii_text(text: Text) -> Text:
    """``text`` with suits as S H D C and boxes drawn in ASCII, its styles kept."""
    plain = text.plain
    converted = plain.translate(ASCII_CHARS)
    if converted.isascii() and converted == plain:
        return text
    out = text.copy()
    out.plain = converted.encode("ascii", "replace").decode("ascii")
    return out


def board_texts(
    session: Session,
    now: float,
    palette: Palette = DEFAULT_PALETTE,
    ascii_only: bool = False,
) -> dict[str, Text]:
    """The text of every region of the board, by widget id, in ``palette``'s colours.

    ``ascii_only``: suits as S H D C and boxes in ASCII, for terminals without them.
    """
    texts = {region: key.text() for region, key in board_keys(session, now, palette).items()}
    if ascii_only:
        return {region: ascii_text(text) for region, text in texts.items()}
    return texts


def board_keys(
    session: Session, now: float, palette: Palette = DEFAULT_PALETTE
) -> dict[str, RegionKey]:
    """What every region of the board shows, by widget id (``board_texts`` draws them)."""
    game = session.game
    # The regions keep their ids (p1 = bottom); a network guest in seat 2 sits at the bottom.
    me = session.bottom_player
    them = 1 - me
    return {
        "topbar": TopKey(
            game.info.title,
            game.round_no,
            rules_in_words(game.config.variants, game.is_match, game.config.target_score),
        ),
        "p2-info": _info_key(session, them, palette),
        "p2-cards": CardsKey(tuple(_slots(session, them)), True, palette),
        "centre": _centre_key(session, palette),
        "p1-cards": CardsKey(tuple(_slots(session, me)), False, palette),
        "p1-info": _info_key(session, me, palette),
        "status": LineKey(session.status(now), "bold yellow"),
        "news": LineKey(session.news),
        "flash": flash_key(session),
        "footer": FooterKey(session.footer_keys),
    }
