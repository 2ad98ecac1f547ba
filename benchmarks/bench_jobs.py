"""Benchmark: how much faster ``--jobs 2`` plays a run than one process, and the machine's ceiling.

Run: ``PYTHONPATH=src python3 benchmarks/bench_jobs.py [GAMES] [ROUNDS]``
(defaults: 4000 medium vs medium Spit games, 2 rounds). Each round times, in
fresh interpreters and in this order:

* one process playing all the games (``simulate(..., jobs=1)``);
* two independent processes playing half the games each, at the same time:
  the most any split of the work over two cores can give on this machine
  (on a shared VM two busy cores slow each other down, so it is below 2);
* ``simulate(..., jobs=2)``, the simulator's own worker processes.

Wall times; the figures of each round are printed, then the best time of
each over the rounds (the usual answer to a noisy machine). The last line is
``jobs_speedup: X``: the best one-process time over the best ``--jobs 2`` time.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def _command(games: int, jobs: int) -> list[str]:
    code = (
        "from spit.bots.sim import Seat, simulate\n"
        f"simulate((Seat.parse('medium'), Seat.parse('medium')), {games}, seed=1, jobs={jobs})\n"
    )
    return [sys.executable, "-c", code]


def _timed(commands: list[list[str]]) -> float:
    """Run the commands at the same time; the wall time until all are done."""
    env = dict(os.environ, PYTHONPATH=str(SRC))
    started = time.perf_counter()
    running = [subprocess.Popen(command, env=env) for command in commands]
    for process in running:
        if process.wait() != 0:
            raise SystemExit(f"{process.args!r} failed")
    return time.perf_counter() - started


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    ones: list[float] = []
    pairs: list[float] = []
    twos: list[float] = []
    for _ in range(rounds):
        one = _timed([_command(games, 1)])
        halves = _timed([_command(games // 2, 1), _command(games - games // 2, 1)])
        jobs = _timed([_command(games, 2)])
        print(
            f"{games} games: one process {one:.2f} s; two independent halves {halves:.2f} s "
            f"(ceiling {one / halves:.2f}x); --jobs 2 {jobs:.2f} s ({one / jobs:.2f}x)"
        )
        ones.append(one)
        pairs.append(halves)
        twos.append(jobs)
    one, halves, jobs = min(ones), min(pairs), min(twos)
    print(f"best times: one process {one:.2f} s, halves {halves:.2f} s, --jobs 2 {jobs:.2f} s")
    print(f"ceiling (two independent halves): {one / halves:.2f}x")
    print(f"jobs_speedup: {one / jobs:.2f}")


if __name__ == "__main__":
    main()
