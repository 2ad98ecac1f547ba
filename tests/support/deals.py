"""Spit deals built by hand: chosen stock tops and spit cards, the rest in order."""

from __future__ import annotations

from spit.engine import STALL, Phase, SpitGame, call, parse_cards
from spit.engine.spit_game import DEAL_ORDER

#: index in a 26-card packet of each stock's face-up card (R3) and of the first spit card
TOP_INDEX = tuple(max(i for i, s in enumerate(DEAL_ORDER[5]) if s == stock) for stock in range(5))
FIRST_SPIT = len(DEAL_ORDER[5])


def spit_packets(
    tops: tuple[str, str],
    spit_first: tuple[str, str],
    under: tuple[str, str] = ("", ""),
    sizes: tuple[int, int] = (26, 26),
) -> list[list[int]]:
    """Two packets whose stock tops and first spit cards are the given cards.

    ``tops[p]`` names player p's five face-up cards (``'8C 9C 10C JC QC'``);
    ``spit_first[p]`` the spit cards that turn up first, in order; ``under[p]``
    the cards dealt first into the other (face-down) places. The remaining
    cards fill the remaining places in card order, player 1's packet first.
    """
    fixed: list[dict[int, int]] = [{}, {}]
    for p in (0, 1):
        for index, c in zip(TOP_INDEX, parse_cards(tops[p]), strict=True):
            fixed[p][index] = c
        for k, c in enumerate(parse_cards(spit_first[p])):
            fixed[p][FIRST_SPIT + k] = c
    below = [parse_cards(under[p]) for p in (0, 1)]
    used = {c for f in fixed for c in f.values()} | set(below[0]) | set(below[1])
    rest = [c for c in range(52) if c not in used]
    packets: list[list[int]] = []
    for p in (0, 1):
        packet = []
        for i in range(sizes[p]):
            if i in fixed[p]:
                packet.append(fixed[p][i])
            else:
                packet.append(below[p].pop(0) if below[p] else rest.pop(0))
        packets.append(packet)
    assert not rest and sorted(packets[0] + packets[1]) == list(range(52)), "use the whole deck"
    return packets


def deal(
    tops: tuple[str, str],
    spit_first: tuple[str, str],
    sizes: tuple[int, int] = (26, 26),
) -> SpitGame:
    """A game dealt from ``spit_packets(tops, spit_first, sizes=sizes)``."""
    return SpitGame(seed=1, packets=spit_packets(tops, spit_first, sizes=sizes))


def to_slap(game: SpitGame) -> SpitGame:
    """Stall and spit until the round ends by R15(b) and the slap begins (R16)."""
    for _ in range(100):
        if game.phase is Phase.SLAP:
            return game
        if game.phase is Phase.PLAY:
            game.apply(STALL)
        else:
            for p in (0, 1):
                if call(p) in game.legal_actions(p):
                    game.apply(call(p))
    raise AssertionError("never reached the slap")
