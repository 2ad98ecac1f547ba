"""Benchmark: headless bot-vs-bot games per second on one core.

Run: ``PYTHONPATH=src python3 benchmarks/bench_sim.py [GAMES] [LEVEL] [MODE]``
(defaults: 1000 games, medium vs medium, Spit). Time is the process's own CPU
time (the machine is shared). It says whether the mypyc-compiled modules ran
(only from a wheel built with ``SPIT_MYPYC=1``, run without
``PYTHONPATH=src``). The last line is the figure: ``sim games/s: N``.
"""

from __future__ import annotations

import sys
import time

from spit.bots import compiled
from spit.bots.sim import Seat, simulate


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    level = sys.argv[2] if len(sys.argv) > 2 else "medium"
    mode = sys.argv[3] if len(sys.argv) > 3 else "spit"
    seats = (Seat.parse(level), Seat.parse(level))
    start = time.process_time()
    summary = simulate(seats, games, seed=1, mode=mode)
    cpu = time.process_time() - start
    print(f"bots: {compiled.describe()}")
    print(f"{games} games of {level} vs {level} ({mode}) in {cpu:.1f} s of CPU time")
    print(f"mean rounds {summary.rounds_mean:.2f}, mean moves {summary.moves_mean:.1f}")
    print(f"sim games/s: {games / cpu:.1f}")


if __name__ == "__main__":
    main()
