"""``has_legal_action`` agrees with ``legal_actions`` in every position of random games."""

from __future__ import annotations

import random

import pytest

from spit.engine import SYSTEM, Phase, SpeedConfig, SpeedGame, SpitConfig, SpitGame
from spit.engine.base import Game


def _walk(game: Game, seed: int, steps: int = 3000) -> int:
    rng = random.Random(seed)
    checked = 0
    for _ in range(steps):
        if game.phase is Phase.GAME_OVER:
            break
        for p in (0, 1):
            assert game.has_legal_action(p) == bool(game.legal_actions(p))
            checked += 1
        legal = game.legal_actions(None) + game.legal_actions(SYSTEM)
        game.apply(rng.choice(legal))
    return checked


@pytest.mark.parametrize("seed", range(6))
def test_spit_agrees(seed: int) -> None:
    config = SpitConfig(four_stocks=seed % 2 == 1, round_limit=20)
    assert _walk(SpitGame(config, seed), seed) > 100


@pytest.mark.parametrize("seed", range(3))
def test_speed_agrees(seed: int) -> None:
    assert _walk(SpeedGame(SpeedConfig(), seed), seed) > 20
