"""The ``spit tournament`` sub-command: a round-robin of computer levels and their ratings."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from spit.bots import MODES
from spit.cli.parsing import CommandParser
from spit.cli.sim import _games, _seed, add_jobs_argument, progress_bar
from spit.cli.variants import variant_help, variant_word
from spit.engine.rule_words import variants_in_words

if TYPE_CHECKING:
    # rich's tables and the simulator load only when ``spit tournament`` runs
    from rich.table import Table

    from spit.bots.tournament import Tournament
    from spit.cli.parsing import Subparsers


def _levels(text: str) -> tuple[str, ...]:
    from spit.bots.tournament import parse_levels

    try:
        return parse_levels(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_tournament_parser(subparsers: Subparsers) -> CommandParser:
    """Add ``tournament`` to the ``spit`` command's sub-commands."""
    parser = subparsers.add_parser(
        "tournament",
        one_line_errors=True,
        help="a round-robin of computer levels, with fitted ratings",
        description=(
            "Every ordered pair of the levels plays N games (so each pair meets in both "
            "seats); the table shows the results and ratings fitted to them (Elo scale, "
            "medium = 1500)."
        ),
    )
    parser.add_argument(
        "--levels",
        type=_levels,
        default=("easy", "medium", "hard", "expert"),
        metavar="L1,L2,...",
        help="the levels that take part (default: easy,medium,hard,expert)",
    )
    parser.add_argument(
        "--games", type=_games, default=100, metavar="N", help="games per ordered pair"
    )
    parser.add_argument(
        "--seed", type=_seed, default=0, metavar="S", help="the run's seed (same seed, same games)"
    )
    parser.add_argument("--mode", choices=MODES, default="spit", help="the game to play")
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
        "--json", action="store_true", help="no progress bar; print the results as JSON"
    )
    parser.set_defaults(func=run_tournament)
    return parser


def _with_share(count: int, games: int) -> str:
    """``7 (70%)``: a count and its share of the games."""
    return f"{count} ({count / games:.0%})" if games else str(count)


def results_table(result: Tournament) -> Table:
    """Each pairing's wins and draws."""
    from rich.table import Table

    variants = variants_in_words(result.variants, none="none")
    table = Table(title=f"{result.mode} round-robin, {result.games} games per pairing")
    table.caption = f"variants: {variants}, seed {result.seed}"
    table.add_column("player 1")
    table.add_column("player 2")
    table.add_column("player 1 wins", justify="right")
    table.add_column("player 2 wins", justify="right")
    table.add_column("draws", justify="right")
    for p in result.pairings:
        table.add_row(
            p.p1,
            p.p2,
            _with_share(p.p1_wins, p.games),
            _with_share(p.p2_wins, p.games),
            _with_share(p.draws, p.games),
        )
    return table


def ratings_table(result: Tournament) -> Table:
    """The fitted rating of each level, strongest first, with its overall score."""
    from rich.table import Table

    table = Table(title="fitted ratings")
    table.caption = f"Bradley–Terry fit on the Elo scale, {result.ratings_anchor} = 1500"
    table.add_column("level")
    table.add_column("rating", justify="right")
    table.add_column("won", justify="right")
    table.add_column("drawn", justify="right")
    table.add_column("lost", justify="right")
    for level in sorted(result.levels, key=lambda name: -result.ratings[name]):
        wins, draws, losses = result.score(level)
        table.add_row(level, f"{result.ratings[level]:.0f}", str(wins), str(draws), str(losses))
    return table


def run_tournament(args: argparse.Namespace) -> int:
    """Run ``spit tournament`` with parsed arguments; return the exit code."""
    from rich.console import Console

    from spit.bots.sim import SimulationError, default_jobs
    from spit.bots.tournament import tournament
    from spit.engine.errors import ConfigError

    levels: tuple[str, ...] = args.levels
    total = args.games * len(levels) * (len(levels) - 1)
    jobs = args.jobs or default_jobs(total)
    err = Console(stderr=True)
    try:
        if args.json:
            result = tournament(levels, args.games, args.seed, args.mode, args.variant, jobs)
        else:
            with progress_bar(err, "playing") as progress:
                task = progress.add_task("games", total=total)

                def advance(done: int) -> None:
                    progress.update(task, completed=done, refresh=True)

                result = tournament(
                    levels, args.games, args.seed, args.mode, args.variant, jobs, advance
                )
    except (ConfigError, ValueError) as exc:
        print(f"spit tournament: error: {exc}", file=sys.stderr)
        return 2
    except SimulationError as exc:
        print(f"spit tournament: simulation failed: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result.to_dict()))
    else:
        console = Console()
        console.print(results_table(result))
        console.print(ratings_table(result))
        console.print(
            f"{result.total_games} games in {result.wall_seconds:.1f} s on {jobs} process(es)"
        )
    return 0
