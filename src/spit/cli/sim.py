"""The ``spit sim`` sub-command: bots against bots, a progress bar and a table."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from spit.bots import DEFAULT_LEVEL, LEVELS, MODES
from spit.cli.parsing import CommandParser
from spit.cli.variants import variant_help, variant_word
from spit.engine.rule_words import MOVES, ROUND_LIMIT, variants_in_words

if TYPE_CHECKING:
    # rich's progress bar, the simulator and the replays load only when ``spit sim`` runs
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from spit.bots.sim import FinishedRun, Seat, Summary
    from spit.cli.parsing import Subparsers
    from spit.engine import AnyGame

MAX_GAMES = 10_000_000
MAX_JOBS = 256


def _seat(text: str) -> Seat:
    from spit.bots.sim import Seat

    try:
        return Seat.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _count(option: str, high: int) -> Callable[[str], int]:
    """An argparse type for ``option``: a whole number from 1 to ``high``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{option} needs a whole number, got {text!r}"
            ) from None
        if not 1 <= value <= high:
            raise argparse.ArgumentTypeError(f"{option} must be 1..{high}, got {value}")
        return value

    return parse


_games = _count("--games", MAX_GAMES)
_jobs = _count("--jobs", MAX_JOBS)


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--seed needs a whole number, got {text!r}") from None
    if not 0 <= value < 2**63:
        raise argparse.ArgumentTypeError("--seed must be from 0 to 2**63-1")
    return value


def add_jobs_argument(parser: argparse.ArgumentParser) -> None:
    """``--jobs J``: worker processes (default: every core)."""
    cores = max(1, os.cpu_count() or 1)  # the simulator's default_jobs(), without loading it
    parser.add_argument(
        "--jobs",
        type=_jobs,
        default=None,
        metavar="J",
        help="worker processes to share the games out to (default: every core, "
        f"here {cores}); the results are the same for any number",
    )


def progress_bar(console: Console, label: str) -> Progress:
    """The transient progress bar ``sim`` and ``tournament`` show on stderr.

    It is redrawn as games finish (``update(..., refresh=True)``), not by a
    thread of its own: the simulator forks its workers only from a process
    without other threads (``spit.bots.sim.start_method``).
    """
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    return Progress(*columns, console=console, transient=True, auto_refresh=False)


def add_sim_parser(subparsers: Subparsers) -> CommandParser:
    """Add ``sim`` to the ``spit`` command's sub-commands."""
    levels = ", ".join(LEVELS)
    parser = subparsers.add_parser(
        "sim",
        one_line_errors=True,
        help="play bots against bots, headless, and print statistics",
        description=(
            "Play bot against bot through the arbiter on a simulated clock. A seat is a "
            f"level ({levels}) or STRATEGY:REACTION, e.g. expert:easy."
        ),
    )
    # a string default goes through ``type`` too, and only when ``sim`` runs
    for seat in ("--p1", "--p2"):
        parser.add_argument(
            seat,
            type=_seat,
            default=DEFAULT_LEVEL,
            metavar="LEVEL",
            help=f"player {seat[-1]}: a level ({levels}) or STRATEGY:REACTION "
            f"(default {DEFAULT_LEVEL})",
        )
    parser.add_argument(
        "--games", type=_games, default=100, metavar="N", help="how many games (default 100)"
    )
    parser.add_argument(
        "--seed", type=_seed, default=0, metavar="S", help="the first game's seed (default 0)"
    )
    parser.add_argument(
        "--mode", choices=MODES, default="spit", help="the game: spit or speed (default spit)"
    )
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        type=variant_word,
        metavar="NAME",
        help=variant_help(more="repeat for several"),
    )
    add_jobs_argument(parser)
    parser.add_argument(
        "--json", action="store_true", help="no progress bar; print the figures as JSON last"
    )
    parser.add_argument(
        "--save-replays",
        type=Path,
        default=None,
        metavar="DIR",
        help="write every game's replay (JSON) into this folder",
    )
    parser.set_defaults(func=run_sim)
    return parser


def summary_table(summary: Summary) -> Table:
    """The figures of a simulation as a rich table."""
    from rich.table import Table

    variants = variants_in_words(summary.variants, none="none")
    table = Table(title=f"{summary.mode}: {summary.seats[0]} vs {summary.seats[1]}")
    table.caption = f"variants: {variants}, seed {summary.seed}"
    table.add_column("figure")
    table.add_column("value", justify="right")
    wins = summary.wins
    games = summary.games
    rows = [
        ("games", f"{games}"),
        (f"wins player 1 ({summary.seats[0]})", f"{wins[0]} ({wins[0] / games:.1%})"),
        (f"wins player 2 ({summary.seats[1]})", f"{wins[1]} ({wins[1] / games:.1%})"),
        ("draws", f"{summary.draws}"),
        (f"games ended by the {ROUND_LIMIT}", f"{summary.round_limit_games}"),
        ("mean rounds", f"{summary.rounds_mean:.2f}"),
        (f"mean moves (plays + {MOVES})", f"{summary.moves_mean:.1f}"),
        ("mean simulated length (s)", f"{summary.seconds_mean:.1f}"),
        ("games per second", f"{summary.games_per_s:.1f}"),
    ]
    for name, value in rows:
        table.add_row(name, value)
    return table


class ReplaySaver:
    """Writes each simulated game's replay into a folder.

    A top-level class holding plain data, so worker processes can run it too.
    """

    def __init__(self, folder: Path, seed: int, mode: str, seats: tuple[str, str]) -> None:
        self.folder = folder
        self.seed = seed
        self.mode = mode
        self.seats = seats

    def __call__(self, game: AnyGame, arbiter: FinishedRun, index: int) -> None:
        """Save game ``index``'s replay."""
        from spit.store.replays import PlayerInfo, new_meta, save_replay, times_from_log

        players = [PlayerInfo(f"P{p + 1}", bot=seat) for p, seat in enumerate(self.seats)]
        times = times_from_log(arbiter.log, arbiter.start_time)
        name = f"sim-{self.seed}-{index:06d}-{self.mode}.json"
        save_replay(game, times, new_meta(players), self.folder, name=name)


def _replay_saver(args: argparse.Namespace) -> ReplaySaver | None:
    """A hook that writes each simulated game's replay to ``--save-replays``."""
    folder: Path | None = args.save_replays
    if folder is None:
        return None
    return ReplaySaver(folder, args.seed, args.mode, (str(args.p1), str(args.p2)))


def run_sim(args: argparse.Namespace) -> int:
    """Run ``spit sim`` with parsed arguments; return the exit code."""
    from rich.console import Console

    from spit.bots.sim import SimulationError, default_jobs, new_game, simulate
    from spit.engine.errors import ConfigError

    err = Console(stderr=True)
    jobs = args.jobs or default_jobs(args.games)
    try:
        new_game(args.mode, args.variant, 0)  # bad variants fail before the progress bar
        saver = _replay_saver(args)
        if saver is not None:
            saver.folder.mkdir(parents=True, exist_ok=True)  # once, before the workers
        if args.json:
            summary = simulate(
                (args.p1, args.p2),
                args.games,
                args.seed,
                args.mode,
                args.variant,
                on_finish=saver,
                jobs=jobs,
            )
        else:
            with progress_bar(err, "simulating") as progress:
                task = progress.add_task("games", total=args.games)

                def advance(done: int) -> None:
                    progress.update(task, completed=done, refresh=True)

                summary = simulate(
                    (args.p1, args.p2),
                    args.games,
                    args.seed,
                    args.mode,
                    args.variant,
                    progress=advance,
                    on_finish=saver,
                    jobs=jobs,
                )
    except (ConfigError, ValueError) as exc:
        print(f"spit sim: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"spit sim: cannot save replays: {exc}", file=sys.stderr)
        return 1
    except SimulationError as exc:
        print(f"spit sim: simulation failed: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(summary.to_dict()))
    else:
        Console().print(summary_table(summary))
    return 0
