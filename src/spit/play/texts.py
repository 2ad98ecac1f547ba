"""Words shown on the help, rules and keys screens."""

from __future__ import annotations

import re
import textwrap
import unicodedata
from collections.abc import Mapping

from spit.engine import get_mode
from spit.engine.rule_words import VARIANT_WORDS
from spit.play.keys import KeyMap, Row


def _variant_lines(mode: str) -> str:
    """One Markdown bullet per optional rule of ``mode``, in words (from the registry)."""
    return "\n".join(
        f"* **{VARIANT_WORDS[v].label}**: {VARIANT_WORDS[v].line}." for v in get_mode(mode).variants
    )


SPIT_RULES = f"""\
# Spit

Two players race to get rid of their cards. Each has **five stocks** (1 to 5
cards, the top one face up) and a face-down pile of **spit cards**.

* **Start:** both call *spit!* (any of your keys): each turns a spit card
  onto their own **spit pile** in the middle.
* **Play** at the same time, as fast as you can: put the top card of a stock
  onto either spit pile if it is **one rank up or down** (A goes on K or 2).
  The card below turns up by itself.
* **Empty slot:** move the top card of a stock with more than one card into it.
* **Look before you press:** a card put where it cannot fit is a *fumble*:
  your plays rest a moment (half a second unless the settings say otherwise).
  A card your opponent beat you to by a hair is no fumble.
* **Both stuck:** both call *spit!* again and turn new spit cards up.
  If nobody plays for 10 s the game treats it as stuck.
* **Round over** when someone empties their layout, or both are stuck with no
  spit cards left. Then **slap** the smaller pile (3 s)! Each takes a pile,
  gathers their cards and deals a new layout.
* With 15 cards or fewer you get no spit cards: only your opponent's pile is
  used. **Win** by having no cards at all at the end of such a round.

Variants (any mix, in Settings or with `--variant`):

{_variant_lines("spit")}

# Speed

Each player has a hidden **hand** of five cards and a **draw pile**. Both
press a key when ready; two centre cards turn up. Play hand cards one rank
up or down onto either pile; your hand refills from your draw pile. When
both are stuck the **side piles** turn a card onto each pile. First to play
every card wins. Fumbles cost a moment here too.

Variants:

{_variant_lines("speed")}
* **match to N** (`--target N`): {get_mode("speed").match_rule.format(target="N")}
"""


def keys_text(keymap: KeyMap, n_columns: int = 5) -> str:
    """A table of both players' keys in plain words (Markdown)."""
    lines = ["# Keys", "", "| action | player 1 | player 2 |", "|---|---|---|"]

    def row(r: Row) -> tuple[str, str]:
        return (
            " ".join(keymap.rows[0][r][:n_columns]),
            " ".join(keymap.rows[1][r][:n_columns]),
        )

    left, right, mv = row(Row.LEFT), row(Row.RIGHT), row(Row.MOVE)
    lines += [
        f"| play stock 1-5 onto the left pile | `{left[0]}` | `{left[1]}` |",
        f"| play stock 1-5 onto the right pile | `{right[0]}` | `{right[1]}` |",
        f"| move stock 1-5 to an empty slot | `{mv[0]}` | `{mv[1]}` |",
        f"| call spit! / ready | any key or `{keymap.calls[0]}` | any key or `{keymap.calls[1]}` |",
        "| slap the left / right pile | top row / home row | top row / home row |",
        "",
        "In Speed the top row plays hand card 1-5 onto the left pile, the home",
        "row onto the right pile.",
        "",
        f"Holding a key down does not play twice: a second press of the same key "
        f"within {keymap.repeat_window:g} s of the last one is ignored (the message line "
        "says so; the window is a setting).",
        "",
        "| app key | does |",
        "|---|---|",
        "| `F1` | this help (the game pauses) |",
        "| `space` | pause / resume |",
        "| `Esc` | leave the game (asks first; the game is saved) / back |",
        "| `Enter` | play again (when the game is over) |",
        "| `F2` | when the game is over: how fast were you? (again: the board alone) |",
        "| `F3` | when the game is over: moments to watch again in the replay |",
        "| `ctrl+q` | save the game and quit, at any time |",
    ]
    return "\n".join(lines)


#: One ASCII character for each non-ASCII character the game draws, so that a
#: styled text keeps its length (and its styles) when turned to ASCII.
ASCII_CHARS = str.maketrans(
    {
        "♣": "C",
        "♦": "D",
        "♥": "H",
        "♠": "S",
        "╭": "+",
        "╮": "+",
        "╰": "+",
        "╯": "+",
        "─": "-",
        "│": "|",
        "░": "#",
        "┍": "#",
        "┑": "#",
        "┕": "#",
        "┙": "#",
        "━": "=",
        "▲": "^",
        "▼": "v",
        "×": "x",
        "◀": "<",
        "▶": ">",
        "←": "<",
        "→": ">",
        "↑": "^",
        "↓": "v",
        "✓": "+",
        "✗": "x",
        "•": "*",
        "…": ".",
        "–": "-",
        "—": "-",
        "‘": "'",
        "’": "'",
        "“": '"',
        "”": '"',
        "·": ".",
    }
)


def to_ascii(text: str) -> str:
    """``text`` with suits as S H D C, box lines as + - |, and any other
    non-ASCII character as ``?``: for terminals that cannot show more."""
    return text.translate(ASCII_CHARS).encode("ascii", "replace").decode("ascii")


def printable(text: object) -> str:
    """``text`` with every control character shown as ``?``: a file name or an
    error about one, printed to a terminal, must not be read as escape codes."""
    return "".join("?" if unicodedata.category(c) == "Cc" else c for c in str(text))


def locale_takes_unicode(environ: Mapping[str, str]) -> bool:
    """False when the locale the environment names cannot show the suits.

    Python reads ``LC_ALL=C`` as UTF-8 (its UTF-8 mode) and turns ``LANG=C``
    into ``LC_CTYPE=C.UTF-8`` (locale coercion), so its streams claim UTF-8
    although the terminal was told to expect ASCII: ask the variables
    themselves, in the order the C library does (``LC_ALL``, ``LC_CTYPE``,
    ``LANG``). A locale that names no character set (``en_GB``) is taken to
    take Unicode.
    """
    chosen = [environ.get(name, "") for name in ("LC_ALL", "LC_CTYPE", "LANG")]
    effective = next((value for value in chosen if value), "")
    plain = ("C", "POSIX")
    if not chosen[0] and chosen[1] == "C.UTF-8" and chosen[2] in plain:
        return False  # Python's own coercion of LANG=C, not the terminal's choice
    if effective in ("", *plain):  # nothing set is the C locale too
        return False
    codeset = effective.partition(".")[2].partition("@")[0]
    return not codeset or can_encode(codeset)


def plain_markdown(text: str) -> str:
    """The Markdown of the rules and keys pages as plain text that reads well:
    headings underlined, ``-`` bullets, tables in aligned columns, no ``*`` or
    backticks. For terminals that get ASCII (then pass it through ``to_ascii``)."""
    out: list[str] = []
    table: list[list[str]] = []

    def flush_table() -> None:
        if not table:
            return
        widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
        for n, row in enumerate(table):
            cells = (cell.ljust(w) for cell, w in zip(row, widths, strict=True))
            out.append("  ".join(cells).rstrip())
            if n == 0:
                out.append("  ".join("-" * w for w in widths))
        out.append("")
        table.clear()

    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("|"):
            cells = [_inline(c.strip()) for c in stripped.strip("|").split("|")]
            if not all(set(c) <= {"-", ":"} for c in cells):
                table.append(cells)
            continue
        flush_table()
        heading = re.match(r"^(#+)\s+(.*)$", stripped)
        if heading:
            title = _inline(heading.group(2))
            if out and out[-1]:
                out.append("")
            out += [title, ("=" if len(heading.group(1)) == 1 else "-") * len(title)]
            continue
        bullet = stripped.startswith("* ")
        if bullet:
            line = line.replace("* ", "- ", 1)
        indent = "  " if bullet or line.startswith("  ") else ""
        out.append(textwrap.fill(_inline(line), 79, subsequent_indent=indent) if line else "")
    flush_table()
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip() + "\n"


def _inline(text: str) -> str:
    """A Markdown line without its emphasis and code marks."""
    return re.sub(r"\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*|`([^`]*)`", _unmark, text)


def _unmark(match: re.Match[str]) -> str:
    return next(group for group in match.groups() if group is not None)


def can_encode(encoding: str | None, sample: str = "♠♥♦♣╭─│") -> bool:
    """True if text in ``encoding`` can hold the suits and box lines."""
    if not encoding:
        return False
    try:
        sample.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def clock_text(seconds: float) -> str:
    """A game or replay time as players read it: ``1:23`` (``1:02:03`` from an hour)."""
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
