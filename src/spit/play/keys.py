"""The one-keyboard key map: data, remappable, checked for conflicts.

Each player has three rows of five keys, one column per stock (Spit) or hand
slot (Speed): the top row plays onto the left spit pile, the home row onto the
right spit pile, the bottom row moves a stock's top card to an empty slot
(R10). In the slap phase the top row slaps the left pile and the home row the
right pile; in a stalemate or the opening any of a player's keys (or their
call key) calls "spit!" (H2).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, NamedTuple

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

#: Keys the app itself uses (Textual's names for them), and what for.
APP_KEYS: dict[str, str] = {
    "f1": "help",
    "space": "pause",
    " ": "pause",
    "escape": "the menu and going back",
    "esc": "the menu and going back",
    "enter": "menus and playing again",
    "tab": "moving between fields",
    "?": "help",
}


def _keymap(left: str, right: str, moves: str, spit: str) -> dict[str, str]:
    keys = [*left, *right, *moves, spit]
    return dict(zip(ACTIONS, keys, strict=True))


#: The one-keyboard layout of DESIGN.md: the two halves of a QWERTY keyboard.
DEFAULT_KEYS: tuple[dict[str, str], dict[str, str]] = (
    _keymap("qwert", "asdfg", "zxcvb", "1"),
    _keymap("yuiop", "hjkl;", "nm,./", "0"),
)


def default_keys() -> tuple[dict[str, str], dict[str, str]]:
    return (dict(DEFAULT_KEYS[0]), dict(DEFAULT_KEYS[1]))


def check_key(key: object) -> str | None:
    """The problem with ``key`` as a game key, or None if it is fine.

    ``key`` is one character, or a Textual key name such as ``"f1"`` or
    ``"ctrl+a"`` (the key-remapping screen passes what was pressed).
    """
    if not isinstance(key, str):
        return f"a key must be a one-character string, got {shown(key)}"
    lowered = key.strip().lower() if len(key) > 1 else key.lower()
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


@dataclass(frozen=True, slots=True)
class KeyMap:
    """Both players' keys. Build with ``KeyMap.default()`` or ``KeyMap.from_dict``.

    ``rows[p][r]`` is player ``p``'s five keys of row ``r`` (``Row.LEFT``,
    ``Row.RIGHT``, ``Row.MOVE``); ``calls[p]`` their call key.
    ``repeat_window`` (seconds): a second press of the same key by the same
    player sooner than this after that key's previous press is a held-key
    repeat and is ignored (the window restarts with each repeat).
    """

    rows: tuple[tuple[tuple[str, ...], ...], ...]
    calls: tuple[str, str]
    repeat_window: float = 0.5
    _lookup: dict[str, Binding] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        problems: list[str] = []
        seen: dict[str, str] = {}
        lookup: dict[str, Binding] = {}

        def add(key: str, binding: Binding, name: str) -> None:
            bad = check_key(key)  # the one rule for game keys, shared with the settings file
            if bad:
                problems.append(f"{name}: {bad}")
                return
            if key in seen:
                problems.append(f"key {key!r} is bound twice: {seen[key]} and {name}")
                return
            seen[key] = name
            lookup[key] = binding

        if len(self.rows) != 2 or len(self.calls) != 2:
            raise KeyMapError("a key map needs keys for exactly two players")
        for p in (0, 1):
            if len(self.rows[p]) != 3:
                raise KeyMapError(f"player {p + 1} needs three rows: left, right, move")
            for r, keys in enumerate(self.rows[p]):
                if len(keys) != N_COLUMNS:
                    problems.append(
                        f"player {p + 1} {ROWS[r]} row needs {N_COLUMNS} keys, got {len(keys)}"
                    )
                    continue
                for c, key in enumerate(keys):
                    add(key, Binding(p, Row(r), c), f"player {p + 1} {ROWS[r]} {c + 1}")
            add(self.calls[p], Binding(p, Row.CALL, 0), f"player {p + 1} call")
        if not isinstance(self.repeat_window, (int, float)) or not (0 <= self.repeat_window <= 2):
            problems.append("repeat_window must be a number of seconds from 0 to 2")
        if problems:
            raise KeyMapError("; ".join(problems))
        object.__setattr__(self, "_lookup", lookup)

    @classmethod
    def default(cls) -> KeyMap:
        """The map of DESIGN.md: left hand for player 1, right hand for player 2."""
        rows = []
        for keys in DEFAULT_KEYS:
            rows.append(tuple(tuple(keys[f"{row}{i}"] for i in range(1, 6)) for row in ROWS))
        return cls(
            rows=(rows[0], rows[1]),
            calls=(DEFAULT_KEYS[0]["spit"], DEFAULT_KEYS[1]["spit"]),
        )

    @classmethod
    def from_dict(cls, data: Any) -> KeyMap:
        """Build from plain data, e.g. a config file's table::

            {"player1": {"left": "qwert", "right": "asdfg", "move": "zxcvb", "call": "1"},
             "player2": {"left": ["y", "u", "i", "o", "p"], ...},
             "repeat_window": 0.5}

        Rows are a string of five characters or a list of five key names.
        Missing players or rows keep their defaults. Raises KeyMapError
        listing every problem (unknown names, wrong lengths, conflicts).
        """
        if not isinstance(data, dict):
            raise KeyMapError("the key map must be a table of player1, player2, repeat_window")
        base = cls.default()
        unknown = set(data) - {"player1", "player2", "repeat_window"}
        if unknown:
            raise KeyMapError(f"unknown key map entries: {', '.join(sorted(map(str, unknown)))}")
        rows = [list(base.rows[0]), list(base.rows[1])]
        calls = list(base.calls)
        for p, name in enumerate(("player1", "player2")):
            table = data.get(name, {})
            if not isinstance(table, dict):
                raise KeyMapError(f"{name} must be a table of left, right, move, call")
            extra = set(table) - {*ROWS, "call"}
            if extra:
                raise KeyMapError(
                    f"unknown entries for {name}: {', '.join(sorted(map(str, extra)))}"
                )
            for r, row_name in enumerate(ROWS):
                if row_name in table:
                    rows[p][r] = _parse_row(table[row_name], f"{name}.{row_name}")
            if "call" in table:
                value = table["call"]
                if not isinstance(value, str) or not value:
                    raise KeyMapError(f"{name}.call must be one key")
                calls[p] = normalize_key(value)
        window = data.get("repeat_window", base.repeat_window)
        if isinstance(window, bool):
            raise KeyMapError("repeat_window must be a number of seconds from 0 to 2")
        return cls(
            rows=(tuple(rows[0]), tuple(rows[1])),
            calls=(calls[0], calls[1]),
            repeat_window=window,
        )

    def to_dict(self) -> dict[str, Any]:
        """The plain form that ``from_dict`` reads back."""
        out: dict[str, Any] = {}
        for p in (0, 1):
            table: dict[str, Any] = {ROWS[r]: list(self.rows[p][r]) for r in range(3)}
            table["call"] = self.calls[p]
            out[f"player{p + 1}"] = table
        out["repeat_window"] = self.repeat_window
        return out

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


def _parse_row(value: Any, name: str) -> tuple[str, ...]:
    if isinstance(value, str):
        keys = list(value)
    elif isinstance(value, list) and all(isinstance(k, str) and k for k in value):
        keys = value
    else:
        raise KeyMapError(f"{name} must be a string of {N_COLUMNS} characters or a list of keys")
    if len(keys) != N_COLUMNS:
        raise KeyMapError(f"{name} needs {N_COLUMNS} keys, got {len(keys)}")
    return tuple(normalize_key(k) for k in keys)


def key_of_event(key: str, character: str | None) -> str:
    """The key map's name for a Textual key event (character if printable)."""
    if character is not None and len(character) == 1 and character.isprintable():
        if character == " ":
            return "space"
        return character.lower()
    return normalize_key(key)
