"""Simulated games are pinned: the same seeds give exactly the same games.

The fingerprints below were computed with the simulator *before* it was made
faster (issue 13: on main at 22c3608, which has the arbiter's timing fixes but
none of the speed-ups), from every game's final engine fingerprint, its whole
timed action log and its result. Any optimisation of observations, bot
scoring or the arbiter must leave every game unchanged, so these must not move.

Every run is played twice: through the arbiter (the reference, as the app
plays) and by the simulator's scheduler (``bots.schedule``), which must give
the same pins.
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
    ("spit", "easy", "easy", ()): "a567fca1c425d51d",
    ("spit", "easy", "medium", ()): "1774d69cad323140",
    ("spit", "easy", "hard", ()): "09914a17afed2c3c",
    ("spit", "easy", "expert", ()): "025b681331c6a97a",
    ("spit", "medium", "medium", ()): "c8904238a50fd18c",
    ("spit", "medium", "hard", ()): "17bf8d70edd0f619",
    ("spit", "medium", "expert", ()): "55ca53052f3a5a21",
    ("spit", "hard", "hard", ()): "62e9f193212f4751",
    ("spit", "hard", "expert", ()): "dbc961228fa5f914",
    ("spit", "expert", "expert", ()): "bf859a0feee29f97",
    ("speed", "easy", "easy", ()): "d33e17d3fe21255f",
    ("speed", "easy", "medium", ()): "c92853c54e66714d",
    ("speed", "easy", "hard", ()): "50d8e4a2c70d038a",
    ("speed", "easy", "expert", ()): "39edf661a0454c2f",
    ("speed", "medium", "medium", ()): "43e5e5196bf8db37",
    ("speed", "medium", "hard", ()): "8bd9ee6ae8eaadf0",
    ("speed", "medium", "expert", ()): "eb8cd59fed9805ca",
    ("speed", "hard", "hard", ()): "f32443fc0758123c",
    ("speed", "hard", "expert", ()): "9ab30c2edd7d3101",
    ("speed", "expert", "expert", ()): "424ed22838a05e13",
}

#: Variants and mixed seats, 10 games each.
PINNED_VARIANTS = {
    ("spit", "medium", "expert", ("V1",)): "c592461e55c6e4ea",
    ("spit", "hard", "easy", ("V2",)): "c463e2150c38c8b4",
    ("spit", "expert", "hard", ("V3",)): "95654f59a1810b57",
    ("spit", "easy", "medium", ("V4",)): "ac75f5116753348c",
    ("spit", "hard:expert", "expert:easy", ("V1", "V2", "V3")): "3b1e80e70266f973",
    ("speed", "expert", "medium", ("P1b",)): "b7f2fae17bb0e58d",
    ("speed", "hard", "expert", ("V3",)): "3a064c4a8b1f6825",
    ("speed", "expert:easy", "easy:expert", ()): "a201dd72a237ee85",
}


def results_fingerprint(
    mode: str,
    p1: str,
    p2: str,
    variants: tuple[str, ...],
    games: int = GAMES,
    seed: int = SEED,
    reference: bool = False,
) -> str:
    """A hash of every game of a small run: final state, timed log and result."""
    digest = hashlib.blake2b(digest_size=8)

    def hook(game: Game, arbiter: Arbiter, index: int) -> None:
        log = [(round(t, 9), tuple(a)) for t, a in arbiter.log]
        digest.update(repr((index, game.fingerprint(), log)).encode())

    seats = (Seat.parse(p1), Seat.parse(p2))
    summary = simulate(
        seats, games, seed=seed, mode=mode, variants=variants, on_finish=hook, reference=reference
    )
    for r in summary.results:
        digest.update(repr((r.winner, r.result, r.rounds, r.moves, round(r.seconds, 6))).encode())
    return digest.hexdigest()


def paths(pinned: dict[tuple[str, str, str, tuple[str, ...]], str]) -> list[object]:
    """Every pinned run through the arbiter and through the scheduler."""
    return [
        pytest.param(*key, reference, id=f"{'-'.join(map(str, key))}-{path}")
        for key in pinned
        for reference, path in ((True, "arbiter"), (False, "scheduler"))
    ]


@pytest.mark.parametrize(("mode", "p1", "p2", "variants", "reference"), paths(PINNED))
def test_simulated_games_are_unchanged(
    mode: str, p1: str, p2: str, variants: tuple[str, ...], reference: bool
) -> None:
    found = results_fingerprint(mode, p1, p2, variants, reference=reference)
    assert found == PINNED[(mode, p1, p2, variants)]


@pytest.mark.parametrize(("mode", "p1", "p2", "variants", "reference"), paths(PINNED_VARIANTS))
def test_simulated_games_with_variants_are_unchanged(
    mode: str, p1: str, p2: str, variants: tuple[str, ...], reference: bool
) -> None:
    expected = PINNED_VARIANTS[(mode, p1, p2, variants)]
    assert results_fingerprint(mode, p1, p2, variants, games=10, reference=reference) == expected
