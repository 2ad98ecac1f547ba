"""Engine throughput: random legal self-play on one core.

Run: ``PYTHONPATH=src python3 benchmarks/bench_engine.py [seconds]``. Each step
lists a randomly chosen player's legal actions and applies one of them (the
other player's if that one has none, the game's own CLOSE or STALL only when
nobody else can act). The last line printed is the Spit figure,
``transitions/s: N``.
"""

from __future__ import annotations

import random
import sys
import time

from spit.engine import SYSTEM, SpitConfig, SpitGame


def bench_spit(seconds: float) -> tuple[float, float]:
    """Play random Spit games for about ``seconds``; return (transitions/s, games/s)."""
    rnd = random.Random(1).random  # cheaper than randrange; the engine is what is timed
    config = SpitConfig()
    transitions = 0
    games = 0
    seed = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
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
    elapsed = time.perf_counter() - start
    return transitions / elapsed, games / elapsed


def main(argv: list[str] | None = None) -> None:
    """Print the Spit figures; the last line is ``transitions/s: N``."""
    args = sys.argv[1:] if argv is None else argv
    seconds = float(args[0]) if args else 5.0
    per_transition, per_game = bench_spit(seconds)
    print(f"Spit random self-play for {seconds:g} s on one core")
    print(f"games/s: {per_game:.1f}")
    print(f"transitions/s: {per_transition:.0f}")


if __name__ == "__main__":
    main()
