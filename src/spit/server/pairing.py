"""Quick-pair: who plays whom, decided in waves.

Players who ask for a game wait in a queue per mode (and variant set). Every
few seconds a *wave* pairs as many of them as it can: the pairs with the
closest ratings first. How far apart two ratings may be grows with the
rating deviations (an uncertain rating is a wide guess, so a wide gap means
little) and with the time the longer-waiting of the two has waited. A player
who has waited longer than they chose is offered a computer player of about
their strength instead. No clock here: the caller passes the time.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

#: Seconds between waves.
WAVE_SECONDS = 3.0


@dataclass(frozen=True, slots=True)
class PairingRules:
    """How wide a gap a wave accepts."""

    base_gap: float = 100.0  #: rating points accepted at once between two settled players
    gap_per_second: float = 10.0  #: points added for each second the longer waiter has waited
    rd_weight: float = 1.0  #: how many combined RDs of uncertainty widen the gap
    max_gap: float = 800.0  #: never more than this apart


@dataclass(frozen=True, slots=True)
class Waiting:
    """A player in the queue."""

    player: str  #: an id unique in the queue (an account, or a guest's session)
    pool: str  #: the queue: mode and variants, e.g. "spit" or "spit:V3"
    rating: float
    rd: float
    since: float  #: when they joined the queue (the caller's clock)
    bot_after: float | None = None  #: seconds after which a computer player will do


@dataclass(frozen=True, slots=True)
class Wave:
    """What one wave decided: pairs of players, and players given a computer opponent."""

    #: in the order to deal them: the pair with the longest waiter first
    pairs: tuple[tuple[str, str], ...]
    to_bots: tuple[tuple[str, str], ...]  #: (player, computer level)


def allowed_gap(a: Waiting, b: Waiting, now: float, rules: PairingRules) -> float:
    """How far apart ``a``'s and ``b``'s ratings may be for a pair at ``now``."""
    waited = max(now - a.since, now - b.since, 0.0)
    spread = rules.rd_weight * math.hypot(a.rd, b.rd)
    return min(rules.max_gap, rules.base_gap + rules.gap_per_second * waited + spread)


def nearest_level(rating: float, levels: Mapping[str, float]) -> str:
    """The computer level whose fixed rating is closest to ``rating``."""
    return min(levels, key=lambda level: (abs(levels[level] - rating), level))


def run_wave(
    queue: Sequence[Waiting],
    now: float,
    rules: PairingRules = PairingRules(),
    levels: Mapping[str, Mapping[str, float]] | None = None,
) -> Wave:
    """Pair the queue at ``now``: closest acceptable pairs first, each player at most once;
    the pairs come in the order they should be dealt (the longest waiter first).

    ``levels`` maps a pool's mode (the part before ":") to its computer levels'
    ratings; a player whose ``bot_after`` has passed and who found no person is
    given the nearest level.
    """
    candidates: list[tuple[float, float, str, str]] = []
    by_pool: dict[str, list[Waiting]] = {}
    for entry in queue:
        by_pool.setdefault(entry.pool, []).append(entry)
    for members in by_pool.values():
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                gap = abs(a.rating - b.rating)
                allowed = allowed_gap(a, b, now, rules)
                if gap <= allowed:
                    # closest relative to what is allowed first; then who waited longest
                    candidates.append((gap / allowed, min(a.since, b.since), a.player, b.player))
    candidates.sort()
    taken: set[str] = set()
    pairs: list[tuple[str, str]] = []
    for _, _, a_id, b_id in candidates:
        if a_id in taken or b_id in taken:
            continue
        taken.update((a_id, b_id))
        pairs.append((a_id, b_id))
    # dealing a wave of a hundred matches takes a while: the longest waiters first
    since = {entry.player: entry.since for entry in queue}
    pairs.sort(key=lambda pair: min(since[pair[0]], since[pair[1]]))
    to_bots: list[tuple[str, str]] = []
    for entry in queue:
        if entry.player in taken or entry.bot_after is None:
            continue
        if now - entry.since >= entry.bot_after:
            mode = entry.pool.split(":", 1)[0]
            pool_levels = (levels or {}).get(mode)
            if pool_levels:
                to_bots.append((entry.player, nearest_level(entry.rating, pool_levels)))
                taken.add(entry.player)
    return Wave(tuple(pairs), tuple(to_bots))
