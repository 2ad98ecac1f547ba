"""Cards as small ints, with lookup tables for rank, suit, colour and adjacency.

A card is an int from 0 to 51: ``suit * 13 + (rank - 1)``. Ranks run 1 (ace)
to 13 (king); suits are clubs, diamonds, hearts, spades (0-3). Diamonds and
hearts are red (V3 is the only rule where colour matters).
"""

from __future__ import annotations

from collections.abc import Iterable

DECK_SIZE = 52
SUITS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
RANK_NAMES = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

#: rank (1..13) of every card id
RANK: tuple[int, ...] = tuple(c % 13 + 1 for c in range(DECK_SIZE))
#: suit index (0..3) of every card id
SUIT: tuple[int, ...] = tuple(c // 13 for c in range(DECK_SIZE))
#: True for red cards (diamonds, hearts)
RED: tuple[bool, ...] = tuple(SUIT[c] in (1, 2) for c in range(DECK_SIZE))
#: every card id as a bit (``1 << c``), made once: the bit masks of cards that the
#: engine and the bots keep read it instead of shifting (a card's bit is a
#: two-digit int, which each shift would allocate afresh)
CARD_BITS: tuple[int, ...] = tuple(1 << c for c in range(DECK_SIZE))


def ranks_adjacent(a: int, b: int) -> bool:
    """True if ranks ``a`` and ``b`` are one apart, turning the corner (R7, R8)."""
    return (a - b) % 13 in (1, 12)


#: ADJACENT[top * 52 + card]: may ``card`` go on ``top`` by rank (R7, R8)?
ADJACENT: tuple[bool, ...] = tuple(
    ranks_adjacent(RANK[t], RANK[c]) for t in range(DECK_SIZE) for c in range(DECK_SIZE)
)
#: As ADJACENT, but the colours must also differ (V3).
ADJACENT_ALTERNATING: tuple[bool, ...] = tuple(
    ADJACENT[t * DECK_SIZE + c] and RED[t] != RED[c]
    for t in range(DECK_SIZE)
    for c in range(DECK_SIZE)
)


#: ADJACENT_ROWS[top][card], the same facts as ADJACENT, one row per top card.
ADJACENT_ROWS: tuple[tuple[bool, ...], ...] = tuple(
    ADJACENT[t * DECK_SIZE : (t + 1) * DECK_SIZE] for t in range(DECK_SIZE)
)
ADJACENT_ALTERNATING_ROWS: tuple[tuple[bool, ...], ...] = tuple(
    ADJACENT_ALTERNATING[t * DECK_SIZE : (t + 1) * DECK_SIZE] for t in range(DECK_SIZE)
)
#: The row for a pile that is not in use: nothing goes on it.
NO_CARD_FITS: tuple[bool, ...] = (False,) * DECK_SIZE


def adjacency_table(alternating_colours: bool) -> tuple[bool, ...]:
    """The flat lookup table for the chosen play rule (V3 or not)."""
    return ADJACENT_ALTERNATING if alternating_colours else ADJACENT


def adjacency_rows(alternating_colours: bool) -> tuple[tuple[bool, ...], ...]:
    """The per-top-card lookup rows for the chosen play rule (V3 or not)."""
    return ADJACENT_ALTERNATING_ROWS if alternating_colours else ADJACENT_ROWS


def fits(card: int, onto: int, alternating_colours: bool) -> bool:
    """True if ``card`` may be played onto a pile showing ``onto`` (R7, R8, and V3 if asked)."""
    return adjacency_rows(alternating_colours)[onto][card]


#: ADJACENT_MASKS[top]: the same facts as bits, bit ``card`` set if it may go on ``top``.
ADJACENT_MASKS: tuple[int, ...] = tuple(
    sum(1 << c for c, fits in enumerate(row) if fits) for row in ADJACENT_ROWS
)
ADJACENT_ALTERNATING_MASKS: tuple[int, ...] = tuple(
    sum(1 << c for c, fits in enumerate(row) if fits) for row in ADJACENT_ALTERNATING_ROWS
)


def adjacency_masks(alternating_colours: bool) -> tuple[int, ...]:
    """Per top card, the cards that may go on it as a bit mask (V3 or not)."""
    return ADJACENT_ALTERNATING_MASKS if alternating_colours else ADJACENT_MASKS


def misfit_reason(c: int, top: int, alternating_colours: bool) -> str:
    """Why card ``c`` may not go on ``top``, naming only the condition it fails.

    >>> misfit_reason(card("8", "D"), card("9", "D"), True)
    '8♦ is not of the other colour than 9♦'
    >>> misfit_reason(card("5", "C"), card("9", "D"), True)
    '5♣ is not one rank above or below 9♦'
    """
    if not ADJACENT[top * DECK_SIZE + c]:
        return f"{card_name(c)} is not one rank above or below {card_name(top)}"
    if alternating_colours and RED[top] == RED[c]:
        return f"{card_name(c)} is not of the other colour than {card_name(top)}"
    return f"{card_name(c)} fits {card_name(top)}"


def card(rank: int | str, suit: int | str) -> int:
    """Build a card id from a rank (1-13 or 'A'..'K') and a suit (0-3 or 'C', 'D', 'H', 'S')."""
    if isinstance(rank, str):
        name = rank.upper()
        if name not in RANK_NAMES[1:]:
            raise ValueError(f"unknown rank {rank!r}")
        rank = RANK_NAMES.index(name)
    if isinstance(suit, str):
        if suit.upper() not in SUITS:
            raise ValueError(f"unknown suit {suit!r}")
        suit = SUITS.index(suit.upper())
    if not (1 <= rank <= 13 and 0 <= suit <= 3):
        raise ValueError(f"no card with rank {rank} and suit {suit}")
    return suit * 13 + rank - 1


def parse_card(text: str) -> int:
    """Parse a short name such as ``'QH'``, ``'10s'`` or ``'A♣'`` into a card id."""
    text = text.strip()
    if len(text) < 2:
        raise ValueError(f"not a card: {text!r}")
    suit = text[-1]
    if suit in SUIT_SYMBOLS:
        suit = SUITS[SUIT_SYMBOLS.index(suit)]
    return card(text[:-1], suit)


def parse_cards(text: str) -> list[int]:
    """Parse space-separated card names: ``'AS 2H KD'``."""
    return [parse_card(part) for part in text.split()]


def card_name(c: int, symbols: bool = True) -> str:
    """A short name such as ``'Q♥'`` (or ``'QH'`` with ``symbols=False``)."""
    suits = SUIT_SYMBOLS if symbols else SUITS
    return RANK_NAMES[RANK[c]] + suits[SUIT[c]]


def card_names(cards: Iterable[int], symbols: bool = True) -> str:
    """Names of several cards, space separated."""
    return " ".join(card_name(c, symbols) for c in cards)
