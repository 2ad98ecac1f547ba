"""Shared helpers for the bot tests: dealing chosen positions."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from spit.engine import parse_cards

TOP_INDEX = (0, 5, 9, 12, 14)  # R3 deal order: where each stock's top card is dealt
FIRST_SPIT = 15  # the first spit card turned up (R5)

Packets = Callable[..., list[list[int]]]


def make_packets(
    tops: tuple[str, str], spit: tuple[str, str], under: tuple[str, str] = ("", "")
) -> list[list[int]]:
    """Two 26-card packets with the given stock tops, first spit cards, and the
    cards dealt at the start of each packet's face-down positions (``under``)."""
    chosen = [parse_cards(tops[p]) + parse_cards(spit[p]) for p in (0, 1)]
    below = [parse_cards(under[p]) for p in (0, 1)]
    taken = set(chosen[0] + chosen[1] + below[0] + below[1])
    rest = iter(c for c in range(52) if c not in taken)
    packets = []
    for p in (0, 1):
        placed = dict(zip((*TOP_INDEX, FIRST_SPIT), chosen[p], strict=True))
        free = iter(below[p])
        packet = []
        for i in range(26):
            if i in placed:
                packet.append(placed[i])
            else:
                card = next(free, None)
                packet.append(next(rest) if card is None else card)
        packets.append(packet)
    assert sorted(packets[0] + packets[1]) == list(range(52))
    return packets


@pytest.fixture
def packets() -> Packets:
    """``packets(tops, spit, under)``: see ``make_packets``."""
    return make_packets
