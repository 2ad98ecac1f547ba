"""A round-robin of computer levels, and ratings fitted to its results.

Every ordered pair of different levels plays ``games`` games (so each pair
meets in both seats), through the same simulator as ``spit sim``. The games
of pairing (P1, P2) are seeded from the run seed and the pairing's names, and
each game from that and its index, so the results do not depend on how many
processes share the work.

``fit_ratings`` finds the ratings that make the observed results most likely
under the Bradley–Terry model on the Elo scale: level ``i`` beats level ``j``
with probability ``1 / (1 + 10 ** ((R_j - R_i) / 400))``, a draw counting
half a win to each. The scale is fixed by one anchor level (medium = 1500).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from spit.bots import LEVELS
from spit.bots.sim import (
    GameResult,
    Seat,
    batch_size,
    canonical_variants,
    check_setup,
    derive_seed,
    run_batches,
)

#: The level whose rating is fixed, and its rating.
ANCHOR_LEVEL = "medium"
ANCHOR_RATING = 1500.0
#: Elo's scale: 400 points of difference are odds of 10 to 1.
ELO_SCALE = 400.0
#: A weak prior: each pair that met is given this many extra virtual draws, so
#: a level that never beat another still gets a finite rating. Against the
#: hundreds of games of a real tournament its effect is a few points at most.
PRIOR_DRAWS = 1.0


@dataclass(slots=True)
class Pairing:
    """The games of one ordered pair: ``p1`` in seat 1, ``p2`` in seat 2."""

    p1: str
    p2: str
    results: list[GameResult] = field(default_factory=list)

    @property
    def games(self) -> int:
        """Games played."""
        return len(self.results)

    @property
    def p1_wins(self) -> int:
        """Games won by the level in seat 1."""
        return sum(1 for r in self.results if r.winner == 0)

    @property
    def p2_wins(self) -> int:
        """Games won by the level in seat 2."""
        return sum(1 for r in self.results if r.winner == 1)

    @property
    def draws(self) -> int:
        """Games without a winner."""
        return sum(1 for r in self.results if r.winner is None)

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-ready figures."""
        return {
            "p1": self.p1,
            "p2": self.p2,
            "games": self.games,
            "p1_wins": self.p1_wins,
            "p2_wins": self.p2_wins,
            "draws": self.draws,
        }


@dataclass(slots=True)
class Tournament:
    """The results of a round-robin and the ratings fitted to them."""

    mode: str
    levels: tuple[str, ...]
    games: int
    seed: int
    variants: tuple[str, ...]
    pairings: list[Pairing]
    ratings: dict[str, float]
    wall_seconds: float = 0.0

    @property
    def total_games(self) -> int:
        """Games played in all pairings."""
        return sum(p.games for p in self.pairings)

    def score(self, level: str) -> tuple[int, int, int]:
        """(wins, draws, losses) of ``level`` over all its games, both seats."""
        wins = draws = losses = 0
        for p in self.pairings:
            if level == p.p1:
                wins, losses = wins + p.p1_wins, losses + p.p2_wins
            elif level == p.p2:
                wins, losses = wins + p.p2_wins, losses + p.p1_wins
            else:
                continue
            draws += p.draws
        return wins, draws, losses

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-ready figures."""
        return {
            "mode": self.mode,
            "levels": list(self.levels),
            "games_per_pairing": self.games,
            "seed": self.seed,
            "variants": list(self.variants),
            "pairings": [p.to_dict() for p in self.pairings],
            "ratings": {level: round(self.ratings[level], 1) for level in self.levels},
            "anchor": {"level": self.ratings_anchor, "rating": ANCHOR_RATING},
            "total_games": self.total_games,
            "wall_seconds": round(self.wall_seconds, 2),
        }

    @property
    def ratings_anchor(self) -> str:
        """The level whose rating was fixed."""
        return ANCHOR_LEVEL if ANCHOR_LEVEL in self.levels else self.levels[0]


def parse_levels(text: str) -> tuple[str, ...]:
    """``'easy,medium,hard'`` as a tuple of at least two different known levels."""
    names = tuple(n.strip().lower() for n in text.split(",") if n.strip())
    for name in names:
        if name not in LEVELS:
            raise ValueError(f"unknown level {name!r}; choose from {', '.join(LEVELS)}")
    if len(set(names)) != len(names):
        raise ValueError("each level may be named only once")
    if len(names) < 2:
        raise ValueError("a tournament needs at least two levels")
    return names


def pairing_seed(seed: int, p1: str, p2: str) -> int:
    """The run seed of pairing (``p1``, ``p2``) in a tournament with ``seed``."""
    return derive_seed(seed, 0, f"pairing:{p1}:{p2}")


def tournament(
    levels: Sequence[str],
    games: int,
    seed: int = 0,
    mode: str = "spit",
    variants: Sequence[str] = (),
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Tournament:
    """Play the round-robin: ``games`` games for each ordered pair of ``levels``.

    ``progress(done)`` is called as games finish (of ``games * n * (n - 1)``).
    """
    levels = tuple(levels)
    if len(levels) < 2 or len(set(levels)) != len(levels):
        raise ValueError("a tournament needs at least two different levels")
    if games < 1:
        raise ValueError("the number of games must be at least 1")
    check_setup(mode, variants)
    order = [(a, b) for a in levels for b in levels if a != b]
    size = batch_size(games * len(order), jobs)
    batches = []
    for series, (a, b) in enumerate(order):
        run_seed = pairing_seed(seed, a, b)
        for start in range(0, games, size):
            stop = min(games, start + size)
            batches.append((series, a, b, mode, tuple(variants), run_seed, start, stop, None))
    start_time = time.perf_counter()
    found = run_batches(batches, jobs, progress)
    wall = time.perf_counter() - start_time
    pairings = [Pairing(a, b, found[i]) for i, (a, b) in enumerate(order)]
    ratings = fit_ratings(levels, [(p.p1, p.p2, p.p1_wins, p.p2_wins, p.draws) for p in pairings])
    return Tournament(
        mode, levels, games, seed, canonical_variants(mode, variants), pairings, ratings, wall
    )


def fit_ratings(
    levels: Sequence[str],
    outcomes: Sequence[tuple[str, str, int, int, int]],
    anchor: str = ANCHOR_LEVEL,
    anchor_rating: float = ANCHOR_RATING,
    prior_draws: float = PRIOR_DRAWS,
) -> dict[str, float]:
    """Maximum-likelihood Bradley–Terry ratings on the Elo scale.

    ``outcomes`` are (a, b, a's wins, b's wins, draws). A draw is half a win to
    each; every pair that met also gets ``prior_draws`` virtual draws. The
    ratings are shifted so that ``anchor`` (or the first level, if the anchor
    did not play) has ``anchor_rating``. Uses Hunter's MM iteration, which
    converges to the maximum whenever the comparison graph is connected; a
    level that met nobody gets the anchor's rating.
    """
    levels = tuple(levels)
    index = {level: i for i, level in enumerate(levels)}
    n = len(levels)
    won = [[0.0] * n for _ in range(n)]  # won[i][j]: i's score against j
    for a, b, a_wins, b_wins, draws in outcomes:
        i, j = index[a], index[b]
        if i == j:
            continue
        won[i][j] += a_wins + draws / 2
        won[j][i] += b_wins + draws / 2
    met = [[won[i][j] + won[j][i] > 0 for j in range(n)] for i in range(n)]
    for i in range(n):
        for j in range(n):
            if met[i][j]:
                won[i][j] += prior_draws / 2
    strength = [1.0] * n
    for _ in range(10_000):
        new = []
        for i in range(n):
            total = sum(won[i])
            denominator = sum(
                (won[i][j] + won[j][i]) / (strength[i] + strength[j]) for j in range(n) if met[i][j]
            )
            new.append(strength[i] if denominator == 0 else total / denominator)
        # Keep the geometric mean at 1 so the numbers stay in range.
        mean = math.exp(sum(math.log(s) for s in new) / n)
        new = [s / mean for s in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, strength, strict=True))
        strength = new
        if change < 1e-12:
            break
    base = anchor if anchor in index else levels[0]
    zero = math.log10(strength[index[base]])
    return {
        level: anchor_rating + ELO_SCALE * (math.log10(strength[index[level]]) - zero)
        for level in levels
    }


def expected_score(rating: float, other: float) -> float:
    """Elo's expected score of a player rated ``rating`` against one rated ``other``."""
    return 1.0 / (1.0 + math.pow(10.0, (other - rating) / ELO_SCALE))


__all__ = [
    "ANCHOR_LEVEL",
    "ANCHOR_RATING",
    "Pairing",
    "Seat",
    "Tournament",
    "expected_score",
    "fit_ratings",
    "pairing_seed",
    "parse_levels",
    "tournament",
]
