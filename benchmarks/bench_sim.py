"""Benchmark: headless bot-vs-bot games per second (medium vs medium, Spit).

Run: ``PYTHONPATH=src python3 benchmarks/bench_sim.py [GAMES]``. The last line
is the figure: ``sim games/s: N``.
"""

from __future__ import annotations

import sys
import time

from spit.bots.sim import Seat, simulate


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    seats = (Seat.parse("medium"), Seat.parse("medium"))
    start = time.perf_counter()
    summary = simulate(seats, games, seed=1)
    wall = time.perf_counter() - start
    print(f"{games} games of medium vs medium (Spit) in {wall:.1f} s")
    print(f"mean rounds {summary.rounds_mean:.2f}, mean moves {summary.moves_mean:.1f}")
    print(f"sim games/s: {games / wall:.1f}")


if __name__ == "__main__":
    main()
