"""Benchmark: headless bot-vs-bot games per second on one core.

Run: ``PYTHONPATH=src python3 benchmarks/bench_sim.py [GAMES] [LEVEL] [MODE]``
(defaults: 1000 games, medium vs medium, Spit). Time is the process's own CPU
time (the machine is shared). It says whether the mypyc-compiled modules ran
(only from a wheel built with ``SPIT_MYPYC=1``, run without
``PYTHONPATH=src``). The last line is the figure: ``sim games/s: N``.
"""

from __future__ import annotations

import argparse
import time

from spit.bots import compiled
from spit.bots.sim import Seat, simulate
from spit.engine import mode_names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=1000, help="games (1000)")
    parser.add_argument("level", nargs="?", default="medium", help="both bots' level (medium)")
    parser.add_argument("mode", nargs="?", default="spit", choices=mode_names(), help="the game")
    args = parser.parse_args()
    games, level, mode = max(1, args.games), args.level, args.mode
    try:
        seats = (Seat.parse(level), Seat.parse(level))
    except ValueError as exc:
        parser.error(str(exc))
    start = time.process_time()
    summary = simulate(seats, games, seed=1, mode=mode)
    cpu = time.process_time() - start
    print(f"bots: {compiled.describe()}")
    print(f"{games} games of {level} vs {level} ({mode}) in {cpu:.1f} s of CPU time")
    print(f"mean rounds {summary.rounds_mean:.2f}, mean moves {summary.moves_mean:.1f}")
    print(f"sim games/s: {games / cpu:.1f}")


if __name__ == "__main__":
    main()
