"""Seeded random playouts for volume: hundreds of thousands of transitions.

Every step checks cheap invariants (the chosen legal action applies, card
count, stock count, no stalemate left in PLAY); every round boundary checks the
full ones (each card once, the deal shapes of R3/R18, observations); every game
end checks the JSON round trip and the replay.
"""

from __future__ import annotations

import random

from spit.engine import SYSTEM, Phase, SpitConfig, SpitGame, dumps, loads
from spit.engine.events import GameOver

from .helpers import check_cards, check_observation, check_round_start

#: Each config is played from several seeds; small limits give many game ends.
CONFIGS = [
    SpitConfig(round_limit=100),
    SpitConfig(four_stocks=True, choose_pile=True, round_limit=15),
    SpitConfig(alternating_colours=True, round_limit=100),
    SpitConfig(scoring=True, target_score=60, round_limit=100),
    SpitConfig(four_stocks=True, alternating_colours=True, scoring=True, round_limit=100),
]
GAMES_PER_CONFIG = 110
MAX_STEPS = 20_000


def playout(config: SpitConfig, seed: int, replay: bool = True) -> tuple[int, int, list[str]]:
    """Play one game with random legal actions; return (transitions, rounds, results).

    With ``replay``, the finished game's JSON save must load to the same state.
    """
    rng = random.Random(seed)
    game = SpitGame(config, seed)
    n_stocks = config.n_stocks
    stocks, spit, piles, gathered = game.stocks, game.spit, game.piles, game.gathered
    round_no = game.round_no
    results: list[str] = []
    steps = 0
    legal = game.legal_actions
    while not game.over and steps < MAX_STEPS:
        steps += 1
        phase = game.phase
        if phase is Phase.PLAY:
            # Mostly players; now and then the stall timer (H6).
            if rng.random() < 0.01:
                actions = legal(SYSTEM)
            else:
                p = rng.randrange(2)
                actions = legal(p) or legal(1 - p)
        elif phase is Phase.SLAP or phase is Phase.CHOOSE:
            actions = legal(0) + legal(1) + legal(SYSTEM)
        else:
            actions = legal(0) + legal(1)
        assert actions, f"no legal action in {phase}"
        events = game.apply(actions[rng.randrange(len(actions))])
        if game.stocks is not stocks or game.round_no != round_no or game.over:
            # A round ended: the state was rebuilt. Full checks.
            stocks, spit, piles, gathered = game.stocks, game.spit, game.piles, game.gathered
            round_no = game.round_no
            check_cards(game)
            if not game.over:
                check_round_start(game)
                check_observation(game)
            for e in events:
                if isinstance(e, GameOver):
                    results.append(e.reason)
            continue
        # Cheap checks.
        assert len(stocks[0]) == n_stocks and len(stocks[1]) == n_stocks
        total = len(spit[0]) + len(spit[1]) + len(piles[0]) + len(piles[1])
        total += len(gathered[0]) + len(gathered[1])
        for st in stocks:
            for s in st:
                total += len(s)
        assert total == 52
        if game.phase is Phase.PLAY:
            assert game.can_anyone_move()
    if replay:
        assert loads(dumps(game)).fingerprint() == game.fingerprint()
    return steps, round_no, results


def test_random_playouts_keep_every_invariant() -> None:
    transitions = 0
    results: list[str] = []
    for i, config in enumerate(CONFIGS):
        for seed in range(GAMES_PER_CONFIG):
            steps, _, ends = playout(config, seed * 7919 + i, replay=seed % 6 == 0)
            transitions += steps
            results += ends
    # The volume this test is for, and games that really end, in each way that random
    # play reaches: R20 wins, V4 scores and H4 limits.
    assert transitions >= 200_000
    assert {"R20", "score", "round_limit"} <= set(results)
