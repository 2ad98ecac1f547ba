"""Engine speed: random legal self-play, transitions (applied actions) per second.

Run by hand: ``python3 benchmarks/bench_engine.py``. Prints Speed's figure on a
line ``speed transitions/s: N``, then Spit's games/s, and Spit's transitions on
the last line, ``transitions/s: N``. Time is the process's own CPU time, and
each figure is the best of a few short runs, so other programs on the machine
disturb it less.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from spit.engine import SYSTEM, Phase, SpeedConfig, SpeedGame, SpitConfig, SpitGame

RUNS = 10
SECONDS_PER_RUN = 0.3


def _speed_run(seconds: float, first_seed: int) -> float:
    """Speed: each step applies a random legal action of either player, else the SYSTEM flip."""
    rand = random.Random(first_seed).random
    game_over = Phase.GAME_OVER
    config = SpeedConfig()
    transitions = 0
    seed = first_seed
    start = time.process_time()
    while time.process_time() - start < seconds:
        game = SpeedGame(config, seed=seed)
        seed += 1
        legal = game.legal_actions
        apply = game.apply
        while game.phase is not game_over:
            actions = legal(None) or legal(SYSTEM)
            apply(actions[int(rand() * len(actions))])
            transitions += 1
    return transitions / (time.process_time() - start)


def bench_speed(runs: int = RUNS, seconds: float = SECONDS_PER_RUN) -> float:
    """Best Speed transitions/s over a few runs on fresh seeds."""
    return max(_speed_run(seconds, 1000 * i) for i in range(runs))


def _spit_run(seconds: float, first_seed: int) -> tuple[float, float]:
    """Spit: whole games; each step lists a randomly chosen player's legal actions and
    applies one (the other player's if they have none, the game's CLOSE or STALL only
    when no player can act). Returns (transitions/s, games/s)."""
    rnd = random.Random(first_seed).random
    config = SpitConfig()
    transitions = 0
    games = 0
    seed = first_seed
    start = time.process_time()
    while time.process_time() - start < seconds:
        game = SpitGame(config, seed)
        seed += 1
        legal = game.legal_actions
        apply = game.apply
        while not game.over:
            p = 0 if rnd() < 0.5 else 1
            actions = legal(p) or legal(1 - p) or legal(SYSTEM)
            apply(actions[int(rnd() * len(actions))])
            transitions += 1
        games += 1
    elapsed = time.process_time() - start
    return transitions / elapsed, games / elapsed


def bench_spit(seconds: float = RUNS * SECONDS_PER_RUN) -> tuple[float, float]:
    """Spit (transitions/s, games/s): the best of ten runs sharing ``seconds`` of CPU time."""
    runs = [_spit_run(seconds / RUNS, 1000 * i) for i in range(RUNS)]
    return max(r[0] for r in runs), max(r[1] for r in runs)


def main() -> None:
    """Print every figure; Spit's transitions/s stays on the last line."""
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else RUNS * SECONDS_PER_RUN
    print(f"speed transitions/s: {bench_speed():.0f}")
    per_transition, per_game = bench_spit(seconds)
    print(f"spit games/s: {per_game:.1f}")
    print(f"transitions/s: {per_transition:.0f}")


if __name__ == "__main__":
    main()
