"""Engine speed: random legal self-play, transitions (applied actions) per second.

Run by hand: ``python3 benchmarks/bench_engine.py``. Prints Speed's figure on a
line ``speed transitions/s: N`` and Spit's on the last line, ``transitions/s: N``.
Time is the process's own CPU time, and each figure is the best of a few short
runs, so other programs on the machine disturb it less.
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


def bench_spit(seconds: float = RUNS * SECONDS_PER_RUN) -> float:
    """Spit: each step applies a random legal player action, or a SYSTEM timer action."""
    chooser = random.Random(1)
    choice = chooser.choice
    transitions = 0
    seed = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        game = SpitGame(SpitConfig(round_limit=200), seed=seed)
        seed += 1
        legal = game.legal_actions
        apply = game.apply
        while not game.over:
            actions = legal(0) + legal(1) or legal(SYSTEM)
            apply(choice(actions))
            transitions += 1
    return transitions / (time.perf_counter() - start)


def main() -> None:
    """Print both figures; Spit's stays on the last line."""
    print(f"speed transitions/s: {bench_speed():.0f}")
    print(f"transitions/s: {bench_spit():.0f}")


if __name__ == "__main__":
    main()
