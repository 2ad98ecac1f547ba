"""Start-up to the first board, several times, against the minimal Textual app.

Starts ``python -m spit play --seed 7`` and ``benchmarks/minimal_app.py`` in
turn in the same 80x24 pty harness as ``bench_tui.py`` and times each from
the fork until its first screen shows ("call SPIT!", "ready: press keys"):
the wall time and the CPU time the app had used by then (the steadier figure
on a busy machine). Runs alternate so that both see the same load.

Run: ``PYTHONPATH=src python3 benchmarks/bench_startup.py [--runs 5]``. The
last line is ``startup_ratio: X`` (spit's median wall time over the minimal
app's).
"""

from __future__ import annotations

import argparse
import statistics

from bench_tui import MINIMAL_COMMAND, SEED, SPIT_COMMAND, compile_sources, start_once


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="start-ups of each app")
    args = parser.parse_args()
    compile_sources()
    spit: list[tuple[float, float]] = []
    minimal: list[tuple[float, float]] = []
    for _ in range(args.runs):
        spit.append(start_once([*SPIT_COMMAND, str(SEED)], b"call SPIT!"))
        minimal.append(start_once(MINIMAL_COMMAND, b"ready: press keys"))
    for name, runs in (("spit", spit), ("minimal app", minimal)):
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        print(f"{name}: start-up median {wall:.3f} s wall, {cpu:.2f} s CPU ({len(runs)} runs)")
    cpu_ratio = statistics.median(c for _, c in spit) / statistics.median(c for _, c in minimal)
    print(f"startup_cpu_ratio: {cpu_ratio:.2f}")
    wall_ratio = statistics.median(w for w, _ in spit) / statistics.median(w for w, _ in minimal)
    print(f"startup_ratio: {wall_ratio:.2f}")


if __name__ == "__main__":
    main()
