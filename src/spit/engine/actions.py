"""Actions: what a player (or the real-time layer) asks the engine to do.

An action is a small immutable tuple ``(kind, player, source, target)``; the
natural tuple order is the sort order of legal-action lists. Actions are
interned (``play(0, 2, 1) is play(0, 2, 1)``), so listing legal actions costs
no allocation.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from spit.engine.errors import ReplayError

#: The pseudo-player that issues timing actions (H3 window close, H6 stall, P4 flip).
SYSTEM = 2
PLAYERS = (0, 1)
MAX_SLOTS = 5


class Kind(IntEnum):
    """What an action does."""

    PLAY = 0  #: play stock (Spit) or hand slot (Speed) ``source`` onto spit pile ``target``
    MOVE = 1  #: move stock ``source``'s top card to the leftmost empty slot (R10)
    CALL = 2  #: call "spit!" (R5, R13; in Speed: "ready", P2)
    SLAP = 3  #: slap spit pile ``target`` (R16)
    CHOOSE = 4  #: choose spit pile ``target`` (V2)
    CLOSE = 5  #: SYSTEM: the slap or choice window has run out (H3)
    STALL = 6  #: SYSTEM: nobody played for the stall time, treat as stalemate (H6)
    FLIP = 7  #: SYSTEM (Speed): turn the side piles onto the spit piles (P4, P5)


class Action(NamedTuple):
    """One action. Build them with the helper functions below."""

    kind: Kind
    player: int
    source: int = 0
    target: int = 0

    def to_json(self) -> list[str | int]:
        """Plain JSON form: ``["play", player, source, target]``."""
        return [self.kind.name.lower(), self.player, self.source, self.target]

    def describe(self) -> str:
        """Short words for logs and messages."""
        who = "the game" if self.player == SYSTEM else f"player {self.player + 1}"
        k = self.kind
        if k is Kind.PLAY:
            return f"{who} plays slot {self.source + 1} on pile {self.target + 1}"
        if k is Kind.MOVE:
            return f"{who} moves stock {self.source + 1} to an empty slot"
        if k in (Kind.SLAP, Kind.CHOOSE):
            return f"{who} {k.name.lower()}s pile {self.target + 1}"
        return f"{who} {k.name.lower()}"


_KIND_BY_NAME = {k.name.lower(): k for k in Kind}
_PLAY = {
    (p, s, t): Action(Kind.PLAY, p, s, t) for p in PLAYERS for s in range(MAX_SLOTS) for t in (0, 1)
}
_MOVE = {(p, s): Action(Kind.MOVE, p, s, 0) for p in PLAYERS for s in range(MAX_SLOTS)}
_CALL = {p: Action(Kind.CALL, p) for p in PLAYERS}
_SLAP = {(p, t): Action(Kind.SLAP, p, 0, t) for p in PLAYERS for t in (0, 1)}
_CHOOSE = {(p, t): Action(Kind.CHOOSE, p, 0, t) for p in PLAYERS for t in (0, 1)}
CLOSE = Action(Kind.CLOSE, SYSTEM)
STALL = Action(Kind.STALL, SYSTEM)
FLIP = Action(Kind.FLIP, SYSTEM)


def play(player: int, source: int, pile: int) -> Action:
    """Play stock/hand slot ``source`` onto spit pile ``pile``."""
    return _PLAY.get((player, source, pile)) or Action(Kind.PLAY, player, source, pile)


def move(player: int, stock: int) -> Action:
    """Move the top card of ``stock`` into the leftmost empty slot (R10)."""
    return _MOVE.get((player, stock)) or Action(Kind.MOVE, player, stock, 0)


def call(player: int) -> Action:
    """Call "spit!" (or "ready" in Speed)."""
    return _CALL.get(player) or Action(Kind.CALL, player)


def slap(player: int, pile: int) -> Action:
    """Slap spit pile ``pile``."""
    return _SLAP.get((player, pile)) or Action(Kind.SLAP, player, 0, pile)


def choose(player: int, pile: int) -> Action:
    """Choose spit pile ``pile`` (V2)."""
    return _CHOOSE.get((player, pile)) or Action(Kind.CHOOSE, player, 0, pile)


def action_from_json(data: object) -> Action:
    """Parse the JSON form, checking every field; raises ReplayError."""
    if not isinstance(data, list) or len(data) != 4:
        raise ReplayError(f"an action must be a list of 4 items, got {data!r:.60}")
    name, player, source, target = data
    kind = _KIND_BY_NAME.get(name) if isinstance(name, str) else None
    if kind is None:
        raise ReplayError(f"unknown action kind {name!r:.30}")
    for value in (player, source, target):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ReplayError(f"action fields must be small ints, got {value!r:.30}")
    if player not in (0, 1, SYSTEM) or not (0 <= source < MAX_SLOTS) or target not in (0, 1):
        raise ReplayError(f"action out of range: {data!r:.60}")
    if (player == SYSTEM) != (kind in (Kind.CLOSE, Kind.STALL, Kind.FLIP)):
        raise ReplayError(f"action {name} cannot come from player {player}")
    return Action(kind, player, source, target)
