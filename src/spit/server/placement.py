"""Which node hosts a match: the one its two players reach best.

A race is judged on each player's delay to the node that hosts the match, so
the fairest node is the one whose *worse* round trip of the two is smallest.
Each ``spit online`` client measures its round trips to every node the lobby
lists and reports them; a player who measured nothing (a plain-ssh player, or
an older client) counts as having a round trip to their own lobby's node only.
Between nodes equally good the one with fewer matches wins, then the name (so
the choice is the same on every node). No I/O here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from spit.server.bus import NodeSnapshot


def worse_delay(node: str, homes: Sequence[str], delays: Sequence[Mapping[str, float]]) -> float:
    """The larger of the players' round trips to ``node`` (ms; inf when one is unknown).

    A player's own lobby node with nothing measured counts as 0: they are there already.
    """
    worst = 0.0
    for home, measured in zip(homes, delays, strict=True):
        if node in measured:
            worst = max(worst, measured[node])
        elif node != home:
            return math.inf
    return worst


def choose_node(
    homes: Sequence[str],
    delays: Sequence[Mapping[str, float]],
    live: Mapping[str, NodeSnapshot],
    fallback: str,
) -> str:
    """The node to host a match for players whose lobbies are on ``homes``.

    ``live`` are the nodes that may take a new match (not draining); ``fallback``
    (the deciding node) is chosen when no node is live.
    """
    if not live:
        return fallback
    return min(
        live,
        key=lambda n: (worse_delay(n, homes, delays), len(live[n].matches), n),
    )
