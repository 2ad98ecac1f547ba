"""The one-keyboard key map: one format, one check, and the app's own keys.

A key map is, per player, one key for each action of ``ACTIONS`` (``left1`` ..
``left5``, ``right1`` .., ``move1`` .., ``spit``): the settings file, the
key-remapping screen and ``KeyMap`` all use that form, and ``keymap_problems``
is the one check of it. ``KeyMap`` adds the fast lookup from a key to what it
means (``Binding``) for the game screen.

Each player has three rows of five keys, one column per stock (Spit) or hand
slot (Speed): the top row plays onto the left spit pile, the home row onto the
right spit pile, the bottom row moves a stock's top card to an empty slot
(R10). In the slap phase the top row slaps the left pile and the home row the
right pile; in a stalemate or the opening any of a player's keys (or their
call key) calls "spit!" (H2).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from typing import NamedTuple

#: Action names of the key map, in the order the file lists them.
ACTIONS: tuple[str, ...] = (
    *(f"left{i}" for i in range(1, 6)),  # play stock i onto the left spit pile (or slap it)
    *(f"right{i}" for i in range(1, 6)),  # play stock i onto the right spit pile (or slap it)
    *(f"move{i}" for i in range(1, 6)),  # move stock i's top card to an empty slot (R10)
    "spit",  # call "spit!" (R5, R13)
)

#: What each action does, in words (the key-remapping screen's rows).
ACTION_LABELS: dict[str, str] = {
    **{f"left{i}": f"play stock {i} on the left pile" for i in range(1, 6)},
    **{f"right{i}": f"play stock {i} on the right pile" for i in range(1, 6)},
    **{f"move{i}": f"move stock {i} to an empty slot" for i in range(1, 6)},
    "spit": 'call "spit!"',
}

# The keys the app itself answers on the board (Textual's names). The screens'
# bindings use these constants, so APP_KEYS below is what they bind.
HELP_KEY = "f1"
PAUSE_KEY = "space"
MENU_KEY = "escape"
AGAIN_KEY = "enter"
QUIT_KEY = "ctrl+q"
FOCUS_KEY = "tab"  #: Textual moves the focus with it
COACH_KEY = "f2"  #: hides and shows the coaching summary after a game
MOMENTS_KEY = "f3"  #: after a game: the coach's moments, each opening the replay there

#: Keys that can never be game keys, and what they are for.
APP_KEYS: dict[str, str] = {
    HELP_KEY: "help",
    PAUSE_KEY: "pause",
    MENU_KEY: "the menu and going back",
    AGAIN_KEY: "menus and playing again",
    FOCUS_KEY: "moving between fields",
    QUIT_KEY: "quitting",
    COACH_KEY: "the summary after a game",
    MOMENTS_KEY: "the moments to watch again after a game",
}

#: Other spellings of the app keys (a space typed as a character, Esc, Return).
_APP_KEY_ALIASES = {" ": PAUSE_KEY, "esc": MENU_KEY, "return": AGAIN_KEY}


def _keymap(left: str, right: str, moves: str, spit: str) -> dict[str, str]:
    keys = [*left, *right, *moves, spit]
    return dict(zip(ACTIONS, keys, strict=True))


#: The one-keyboard layout of DESIGN.md: the two halves of a QWERTY keyboard.
DEFAULT_KEYS: tuple[dict[str, str], dict[str, str]] = (
    _keymap("qwert", "asdfg", "zxcvb", "1"),
    _keymap("yuiop", "hjkl;", "nm,./", "0"),
)


def default_keys() -> tuple[dict[str, str], dict[str, str]]:
    """A fresh copy of the default key maps (``DEFAULT_KEYS``)."""
    return (dict(DEFAULT_KEYS[0]), dict(DEFAULT_KEYS[1]))


def check_key(key: object) -> str | None:
    """The problem with ``key`` as a game key, or None if it is fine.

    ``key`` is one character, or a Textual key name such as ``"f1"`` or
    ``"ctrl+a"`` (the key-remapping screen passes what was pressed).
    """
    if not isinstance(key, str):
        return f"a key must be a one-character string, got {shown(key)}"
    lowered = key.strip().lower() if len(key) > 1 else key.lower()
    lowered = _APP_KEY_ALIASES.get(lowered, lowered)
    if lowered in APP_KEYS:
        return f"{key!r} cannot be a game key: it is reserved for {APP_KEYS[lowered]}"
    if lowered.startswith(("ctrl", "control", "^")):
        return f"{key!r} cannot be a game key (Escape, Tab and Ctrl keys are not allowed)"
    if lowered.startswith(("alt+", "meta+", "super+", "shift+")):
        return f"{key!r} cannot be a game key: keys with Alt, Meta or Shift are not allowed"
    if len(key) != 1:
        return f"a key must be exactly one character, got {key!r:.30}"
    if not key.isprintable() or key.isspace():
        return f"{key!r} is not a printable key"
    if unicodedata.east_asian_width(key) in ("W", "F") or unicodedata.combining(key):
        # the board prints each key in one column: a wide or combining one breaks its rows
        return f"{key!r} does not take exactly one column on screen"
    return None


def keymap_problems(maps: tuple[Mapping[str, str], Mapping[str, str]]) -> list[str]:
    """Every problem with a pair of key maps: bad keys, missing actions, duplicates."""
    problems: list[str] = []
    seen: dict[str, tuple[int, str]] = {}
    for p, keymap in enumerate(maps):
        for action in ACTIONS:
            key = keymap.get(action)
            if key is None:
                problems.append(f"player {p + 1} has no key for {action}")
                continue
            bad = check_key(key)
            if bad:
                problems.append(f"player {p + 1} {action}: {bad}")
                continue
            norm = key.lower()
            if norm in seen:
                q, other = seen[norm]
                problems.append(
                    f"key {key!r} is used twice: player {q + 1} {other} and player {p + 1} {action}"
                )
            else:
                seen[norm] = (p, action)
    return problems


class KeyProblem(ValueError):
    """A key that cannot go where it was asked to; the message says why."""


def rebind(
    keys: tuple[Mapping[str, str], Mapping[str, str]], player: int, action: str, key: str
) -> tuple[dict[str, str], dict[str, str]]:
    """``keys`` with ``player``'s ``action`` on ``key``; raises KeyProblem if it cannot be.

    The key is checked by ``check_key`` and the result by ``keymap_problems``
    (the same checks as the settings file's); a key another action already
    uses is refused, naming that action.
    """
    if action not in ACTIONS:
        raise KeyProblem(f"unknown action {action!r}")
    bad = check_key(key)
    if bad:
        raise KeyProblem(bad)
    key = key.lower() if key.isalpha() else key
    maps = (dict(keys[0]), dict(keys[1]))
    maps[player][action] = key
    problems = keymap_problems(maps)
    if not problems:
        return maps
    for q in (0, 1):
        for other in ACTIONS:
            if (q, other) != (player, action) and maps[q][other].lower() == key.lower():
                raise KeyProblem(
                    f"{key!r} is already used by player {q + 1} to {ACTION_LABELS[other]}"
                )
    raise KeyProblem(problems[0])


def shown(value: object) -> str:
    """``repr(value)``, cut to 30 characters for messages."""
    text = repr(value)
    return text if len(text) <= 30 else text[:27] + "..."


ROWS = ("left", "right", "move")
N_COLUMNS = 5


#: Textual key names of punctuation keys, so a key map may name either form.
_NAMED = {
    "semicolon": ";",
    "comma": ",",
    "full_stop": ".",
    "period": ".",
    "slash": "/",
    "minus": "-",
    "equals_sign": "=",
    "left_square_bracket": "[",
    "right_square_bracket": "]",
    "apostrophe": "'",
    "backslash": "\\",
    "grave_accent": "`",
}


class KeyMapError(ValueError):
    """A key map that cannot be used; the message lists every problem."""


class Row(IntEnum):
    """What a row of keys does."""

    LEFT = 0  #: play onto (or slap) the left spit pile
    RIGHT = 1  #: play onto (or slap) the right spit pile
    MOVE = 2  #: move to an empty slot (R10)
    CALL = 3  #: the player's own call key


class Binding(NamedTuple):
    """What one key means: a player, a row and a column (column 0 for CALL)."""

    player: int
    row: Row
    column: int


def normalize_key(key: str) -> str:
    """The canonical form of a key: one lower-case character, or a Textual key name."""
    key = key.strip() if len(key) > 1 else key
    low = key.lower()
    if low in _NAMED:
        return _NAMED[low]
    if len(key) == 1:
        return low
    return low


def _binding(action: str, player: int) -> Binding:
    """What ``action`` (e.g. ``"right3"``) of ``player`` means on the board."""
    if action == "spit":
        return Binding(player, Row.CALL, 0)
    row = ROWS.index(action[:-1])
    return Binding(player, Row(row), int(action[-1]) - 1)


@dataclass(frozen=True)
class KeyMap:
    """Both players' keys, ready for lookup. Build with ``default()`` or ``from_keys``.

    ``keys[p]`` is player ``p``'s map from action to key (the settings file's
    form); ``rows[p][r]`` their five keys of row ``r`` (``Row.LEFT``,
    ``Row.RIGHT``, ``Row.MOVE``) and ``calls[p]`` their call key, derived
    from it. ``repeat_window`` (seconds): a second press of the same key
    sooner than this after that key's previous press is a held-key repeat and
    is ignored (the window restarts with each repeat).
    """

    keys: tuple[Mapping[str, str], Mapping[str, str]]
    repeat_window: float = 0.5
    rows: tuple[tuple[tuple[str, ...], ...], ...] = field(init=False, compare=False, repr=False)
    calls: tuple[str, str] = field(init=False, compare=False, repr=False)
    _lookup: dict[str, Binding] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if len(self.keys) != 2:
            raise KeyMapError("a key map needs keys for exactly two players")
        problems = keymap_problems(self.keys)  # the one check, shared with the settings file
        window = self.repeat_window
        if isinstance(window, bool) or not isinstance(window, (int, float)) or not 0 <= window <= 2:
            problems.append("repeat_window must be a number of seconds from 0 to 2")
        if problems:
            raise KeyMapError("; ".join(problems))
        keys = (dict(self.keys[0]), dict(self.keys[1]))
        rows = tuple(
            tuple(tuple(keys[p][f"{row}{i}"] for i in range(1, N_COLUMNS + 1)) for row in ROWS)
            for p in (0, 1)
        )
        lookup = {key: _binding(action, p) for p in (0, 1) for action, key in keys[p].items()}
        object.__setattr__(self, "keys", keys)
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "calls", (keys[0]["spit"], keys[1]["spit"]))
        object.__setattr__(self, "_lookup", lookup)

    @classmethod
    def default(cls) -> KeyMap:
        """The map of DESIGN.md: left hand for player 1, right hand for player 2."""
        return cls(default_keys())

    @classmethod
    def from_keys(
        cls, keys: tuple[Mapping[str, str], Mapping[str, str]], repeat_window: float = 0.5
    ) -> KeyMap:
        """Build from both players' action-to-key maps; KeyMapError lists every problem."""
        return cls((dict(keys[0]), dict(keys[1])), repeat_window)

    def lookup(self, key: str) -> Binding | None:
        """What ``key`` means, or None if it is no game key."""
        return self._lookup.get(key)

    def key(self, player: int, row: Row, column: int = 0) -> str:
        """The key bound to a player's row and column (or call key)."""
        if row is Row.CALL:
            return self.calls[player]
        return self.rows[player][row][column]

    def column_keys(self, player: int, column: int) -> str:
        """The three keys of one stock column, for display: ``'q a z'``."""
        return " ".join(self.rows[player][r][column] for r in range(3))


def key_of_event(key: str, character: str | None) -> str:
    """The key map's name for a Textual key event (character if printable)."""
    if character is not None and len(character) == 1 and character.isprintable():
        if character == " ":
            return "space"
        return character.lower()
    return normalize_key(key)
