"""The board's widgets and how a game's state becomes their text.

``BoardTexts`` reads a session and gives the text of every region; ``TextBox``
shows a text and repaints only the lines that changed, so an idle board costs
nothing and one played card repaints a few lines.
"""

from __future__ import annotations

from typing import Self

from rich.cells import cell_len
from rich.text import Text
from textual.containers import Vertical
from textual.filter import LineFilter
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget

from spit.engine import Phase
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

#: what a widget's lines were painted for: the part asked for, its size, the app's filters
_PaintKey = tuple[Region, Size, tuple[LineFilter, ...]]


class KeepsLines(Widget):
    """A widget that hands the compositor the lines it painted last, until it is refreshed.

    Whenever any widget of a screen changes, Textual's compositor asks every
    widget that overlaps the change for all its lines, and each goes over its
    styles again (its backgrounds, the app's colour filter on every line).
    A widget of the board changes only when it is refreshed (a new text, a
    theme, a style) or resized, so until then its last lines are still right.
    """

    _kept_lines: tuple[_PaintKey, list[Strip]] | None = None

    def render_lines(self, crop: Region) -> list[Strip]:
        """The lines in ``crop``: those painted last, if nothing was marked since."""
        key = (crop, self.outer_size, tuple(self.get_line_filters()))
        painted = self._kept_lines
        if painted is not None and painted[0] == key:
            return painted[1]
        lines = self.paint_lines(crop)
        self._kept_lines = (key, lines)
        return lines

    def paint_lines(self, crop: Region) -> list[Strip]:
        """Paint the lines in ``crop`` anew (Textual's own ``render_lines``)."""
        return super().render_lines(crop)

    def refresh(
        self,
        *regions: Region,
        repaint: bool = True,
        layout: bool = False,
        recompose: bool = False,
    ) -> Self:
        """Textual's ``refresh``; whatever is marked for repainting is painted anew."""
        if repaint or recompose:
            self._kept_lines = None
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)


class Board(KeepsLines, Vertical):
    """The column the board's boxes stand in (it paints only its own background)."""


class TextBox(KeepsLines):
    """A fixed block of text that repaints only the lines that change.

    Its lines are made once per text (``TextStrips``: each style converted
    once, not on every repaint) and handed to Textual line by line. A new
    text is compared with the old one line by line and only the lines that
    differ are marked for repainting; the others the box keeps (``KeepsLines``).
    """

    DEFAULT_CSS = """
    TextBox { height: 1; width: 100%; }
    """
    ALLOW_SELECT = False  # a board, not a document

    def __init__(self, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._text = Text()
        self._strips: list[Strip] | None = None
        self._made_for: tuple[int, object] | None = None  # (width, base style) of _strips
        self._converter: TextStrips | None = None
        self._painting = False  # in paint_lines: _strips are made for the box as it is

    def set(self, text: Text | str) -> bool:
        """Show ``text``; True if it differed from what was shown."""
        if isinstance(text, str):
            text = Text(text, no_wrap=True, overflow="ellipsis")
        shown = self._text
        if text is shown or (text == shown and text.style == shown.style):
            return False
        self._text = text
        made, old = self._made_for, self._strips
        self._made_for = None
        if made is None or old is None:
            self.refresh()
            return True
        new = self._make_strips()
        if self._made_for != made or new is None or len(new) != len(old):
            self.refresh()
            return True
        # only the lines that differ are painted again
        width = made[0]
        changed = [y for y, (was, now) in enumerate(zip(old, new, strict=True)) if was != now]
        if changed:
            self.refresh(*(Region(0, y, width, 1) for y in changed))
        return True

    @property
    def text(self) -> Text:
        """What the box shows."""
        return self._text

    def render(self) -> Text:
        return self._text

    def _make_strips(self) -> list[Strip] | None:
        """The text's lines at the box's width and style (kept until either changes)."""
        width = self.size.width
        base = self.visual_style
        if self._made_for != (width, base):
            converter = self._converter
            if converter is None or converter.base is not base:
                app = self.app
                converter = TextStrips(base, app.console.get_style, app.ansi_theme)
                self._converter = converter
            strips = converter.strips(self._text, width)
            if strips is None:  # a line too wide: cut it to end in "…"
                strips = converter.strips(fitted(self._text, width), width)
            self._strips = strips
            self._made_for = (width, base)
        return self._strips

    def paint_lines(self, crop: Region) -> list[Strip]:
        """Textual's ``render_lines``, the text's lines made (or checked) once, not per line."""
        self._make_strips()
        self._painting = True
        try:
            return super().paint_lines(crop)
        finally:
            self._painting = False

    def render_line(self, y: int) -> Strip:
        """Line ``y`` of the text (Textual's own rendering for a text wider than the box)."""
        strips = self._strips if self._painting else self._make_strips()
        if strips is None:
            return super().render_line(y)
        if 0 <= y < len(strips):
            return strips[y]
        return Strip.blank(self.size.width, self.visual_style.rich_style)


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


def _info_line(session: Session, p: int, palette: Palette = DEFAULT_PALETTE) -> Text:
    game = session.game
    out = Text(no_wrap=True, overflow="ellipsis")
    out.append(f" {fit_cells(session.name(p), NAME_CELLS)} ", "bold reverse")
    info = game.info
    out.append(f"  {info.reserve_name} {game.reserve_size(p)}", "bold")
    phase = game.phase
    if phase in (Phase.OPENING, Phase.STALEMATE) and game.called[p]:
        out.append("  ✓ ready" if info.side_piles else "  ✓ called", "green bold")
    computer = p in session.agents
    if hidden_hand(session, p):
        out.append(f"  hand {sum(top is not None for top, _ in game.columns(p))}", "bold")
    owner = session.key_owner(p)
    if not computer and owner is not None:  # a computer player has no keys
        out.append("   call key ", DIM)
        out.append(session.keymap.calls[owner], palette.key_style)
    if game.is_match:
        out.append(f"   score {game.scores[p]}", "bold")
    if computer:
        out.append("   (computer)", DIM)
    return out


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


def _centre(session: Session, palette: Palette = DEFAULT_PALETTE) -> Text:
    game = session.game
    side_piles = game.info.side_piles
    piles = []
    for j in (0, 1):
        pile = game.piles[j]
        landed = session.landed.get(j)
        label = f"{PILE_NAMES[j]} pile" if side_piles else f"{PILE_NAMES[j]} pile (P{j + 1})"
        piles.append(
            PileShow(
                pile[-1] if pile else None,
                len(pile),
                label,
                f"P{landed.player + 1}" if landed else None,
                game.pile_in_use(j),
                face_down=not pile and game.centre_face_down(),
            )
        )
    sides = None
    sizes = game.side_pile_sizes()
    if sizes is not None:
        sides = (SideShow(sizes[0]), SideShow(sizes[1]))
    return draw_centre((piles[0], piles[1]), sides, banner=_banner(session), palette=palette)


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


def flash_line(session: Session) -> Text:
    """A refused move (counted when the same message comes again) and a held key's note."""
    out = Text(no_wrap=True, overflow="ellipsis")
    flash = session.flash
    if flash is not None:
        out.append("✗ " + flash.text, "bold bright_red")
        if flash.count > 1:
            out.append(f" (×{flash.count})", "bold reverse bright_red")
    held = session.held
    if held is not None:
        window = f"{session.keymap.repeat_window:g}"
        if flash is None:
            who = session.name(held.player)
            note = f"· {who}: {held.key} again within {window} s: taken as a held key, ignored"
        else:
            note = f"   · {held.key} held: ignored"
        out.append(note, DIM)
    return out


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
    texts = _board_texts(session, now, palette)
    if ascii_only:
        return {region: ascii_text(text) for region, text in texts.items()}
    return texts


def _board_texts(session: Session, now: float, palette: Palette) -> dict[str, Text]:
    game = session.game
    variants = game.config.variants
    top = Text(no_wrap=True, overflow="ellipsis")
    top.append(f" {game.info.title.upper()} ", "bold reverse")
    top.append(f"  round {game.round_no}", "bold")
    if variants:
        top.append("  variants " + " ".join(variants), DIM)
    flash_text = flash_line(session)
    status = Text(session.status(now), style="bold yellow", no_wrap=True, overflow="ellipsis")
    footer = Text(no_wrap=True, overflow="ellipsis")
    for key, what in session.FOOTER_KEYS:
        footer.append(f" {key} ", "reverse")
        footer.append(f" {what}  ")
    # The regions keep their ids (p1 = bottom); a network guest in seat 2 sits at the bottom.
    me = session.bottom_player
    them = 1 - me
    return {
        "topbar": top,
        "p2-info": _info_line(session, them, palette),
        "p2-cards": draw_slots(tuple(_slots(session, them)), keys_above=True, palette=palette),
        "centre": _centre(session, palette),
        "p1-cards": draw_slots(tuple(_slots(session, me)), keys_above=False, palette=palette),
        "p1-info": _info_line(session, me, palette),
        "status": status,
        "news": Text(session.news, no_wrap=True, overflow="ellipsis"),
        "flash": flash_text,
        "footer": footer,
    }
