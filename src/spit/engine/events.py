"""Events: what an applied action caused, in order, for the UI and logs.

Events are plain immutable tuples; the real-time layer and the UI react to
their type. Player and pile numbers are 0-based; ``pile`` is the index of a
spit pile (pile ``p`` lies on player ``p``'s side).
"""

from __future__ import annotations

from typing import NamedTuple

from spit.engine.results import Result, RoundEnd


class PhaseChanged(NamedTuple):
    """The game entered a new phase (see ``Phase``)."""

    phase: str


class Dealt(NamedTuple):
    """A player dealt a layout: stock sizes and number of spit cards (R3, R17, R18)."""

    player: int
    stock_sizes: tuple[int, ...]
    spit_cards: int


class CardPlayed(NamedTuple):
    """``card`` went from the player's stock (or hand slot) onto a spit pile."""

    player: int
    source: int
    pile: int
    card: int


class CardTurnedUp(NamedTuple):
    """A stock's new top card was turned face up (R9).

    ``card`` is None where it is hidden: a Speed player's new hand card as a
    network guest other than that player sees it (``spit.net.protocol``).
    The engine itself always names the card.
    """

    player: int
    stock: int
    card: int | None


class CardMoved(NamedTuple):
    """A stock's top card moved to an empty slot (R10)."""

    player: int
    source: int
    slot: int
    card: int


class SpitCalled(NamedTuple):
    """A player called "spit!" (or "ready" in Speed)."""

    player: int


class Spat(NamedTuple):
    """A card turned face up onto a spit pile: a player's spit card, or a Speed side pile."""

    player: int
    pile: int
    card: int


class Stalemate(NamedTuple):
    """Nobody can play (R12), or the stall time ran out (H6, ``stalled``)."""

    stalled: bool


class RoundOver(NamedTuple):
    """A round ended (R15a or R15b)."""

    round_no: int
    reason: RoundEnd
    emptied_by: int | None


class Scored(NamedTuple):
    """Points scored this round and the running totals (V4, P7)."""

    points: tuple[int, int]
    totals: tuple[int, int]


class Slapped(NamedTuple):
    """A player slapped (or under V2 chose) a spit pile."""

    player: int
    pile: int


class PileTaken(NamedTuple):
    """A player took spit pile ``pile`` (``None``: took nothing) of ``size`` cards."""

    player: int
    pile: int | None
    size: int


class SidePilesRebuilt(NamedTuple):
    """Speed P5: the spit piles below their tops became new side piles."""

    sizes: tuple[int, int]


class GameWon(NamedTuple):
    """A player won a game (R20, P6, or H5)."""

    player: int
    reason: Result


class GameDrawn(NamedTuple):
    """A game ended level (Speed H5 with equal cards); in a match, play goes on."""

    reason: Result


class GameOver(NamedTuple):
    """The game or match is over: ``winner`` is None for a draw."""

    winner: int | None
    reason: Result


Event = (
    PhaseChanged
    | Dealt
    | CardPlayed
    | CardTurnedUp
    | CardMoved
    | SpitCalled
    | Spat
    | Stalemate
    | RoundOver
    | Scored
    | Slapped
    | PileTaken
    | SidePilesRebuilt
    | GameWon
    | GameDrawn
    | GameOver
)
