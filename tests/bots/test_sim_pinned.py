"""Simulated games are pinned: the same seeds give exactly the same games.

The fingerprints below were computed with the simulator *before* it was made
faster (issue 13), from every game's final engine fingerprint, its whole
timed action log and its result. Any optimisation of observations, bot
scoring or the arbiter must leave every game unchanged, so these must not move.
"""

from __future__ import annotations

import hashlib

import pytest

from spit.bots.sim import Seat, simulate
from spit.engine import Game
from spit.realtime.arbiter import Arbiter

GAMES = 20
SEED = 7

PINNED = {
    ("spit", "easy", "easy", ()): "bf9e5dd8f65e543f",
    ("spit", "easy", "medium", ()): "bd48eb4d28a199b8",
    ("spit", "easy", "hard", ()): "9b9033c9426173d2",
    ("spit", "easy", "expert", ()): "8d4118b922d58191",
    ("spit", "medium", "medium", ()): "1da0af84ef99c4be",
    ("spit", "medium", "hard", ()): "f772a9d4d8230a29",
    ("spit", "medium", "expert", ()): "06c1202035afbf3c",
    ("spit", "hard", "hard", ()): "a5eea581e65305d0",
    ("spit", "hard", "expert", ()): "c4afd41c427833bc",
    ("spit", "expert", "expert", ()): "359824ec96f4ad92",
    ("speed", "easy", "easy", ()): "306b9c61015a8a33",
    ("speed", "easy", "medium", ()): "59b3581ba2ea6586",
    ("speed", "easy", "hard", ()): "dcd36609749a5ab8",
    ("speed", "easy", "expert", ()): "6e6a3b76d3f5794b",
    ("speed", "medium", "medium", ()): "511685704d30d4df",
    ("speed", "medium", "hard", ()): "199ba49ab53b3432",
    ("speed", "medium", "expert", ()): "9499dfc84d4cd385",
    ("speed", "hard", "hard", ()): "02f9483ba0a61010",
    ("speed", "hard", "expert", ()): "1b2f55f98716a092",
    ("speed", "expert", "expert", ()): "b7a1a9ac8d5a4d21",
}

#: Variants and mixed seats, 10 games each.
PINNED_VARIANTS = {
    ("spit", "medium", "expert", ("V1",)): "d6eba78fff4b69eb",
    ("spit", "hard", "easy", ("V2",)): "24e6f103b1cff003",
    ("spit", "expert", "hard", ("V3",)): "6289f1decb464968",
    ("spit", "easy", "medium", ("V4",)): "2082bdd419ceebcf",
    ("spit", "hard:expert", "expert:easy", ("V1", "V2", "V3")): "63dac93792187314",
    ("speed", "expert", "medium", ("P1b",)): "bd45c6af57664804",
    ("speed", "hard", "expert", ("V3",)): "cb0e0e3d51cf0b63",
    ("speed", "expert:easy", "easy:expert", ()): "b149425fbbba3812",
}


def results_fingerprint(
    mode: str, p1: str, p2: str, variants: tuple[str, ...], games: int = GAMES, seed: int = SEED
) -> str:
    """A hash of every game of a small run: final state, timed log and result."""
    digest = hashlib.blake2b(digest_size=8)

    def hook(game: Game, arbiter: Arbiter, index: int) -> None:
        log = [(round(t, 9), tuple(a)) for t, a in arbiter.log]
        digest.update(repr((index, game.fingerprint(), log)).encode())

    seats = (Seat.parse(p1), Seat.parse(p2))
    summary = simulate(seats, games, seed=seed, mode=mode, variants=variants, on_finish=hook)
    for r in summary.results:
        digest.update(repr((r.winner, r.result, r.rounds, r.moves, round(r.seconds, 6))).encode())
    return digest.hexdigest()


@pytest.mark.parametrize(("mode", "p1", "p2", "variants"), list(PINNED))
def test_simulated_games_are_unchanged(
    mode: str, p1: str, p2: str, variants: tuple[str, ...]
) -> None:
    assert results_fingerprint(mode, p1, p2, variants) == PINNED[(mode, p1, p2, variants)]


@pytest.mark.parametrize(("mode", "p1", "p2", "variants"), list(PINNED_VARIANTS))
def test_simulated_games_with_variants_are_unchanged(
    mode: str, p1: str, p2: str, variants: tuple[str, ...]
) -> None:
    expected = PINNED_VARIANTS[(mode, p1, p2, variants)]
    assert results_fingerprint(mode, p1, p2, variants, games=10) == expected
