"""The ``spit stats``, ``spit replay`` and ``spit resume`` sub-commands.

Kept apart from ``spit.cli`` so that the command-line parser only has to
register them (``register(subparsers)``). Every handler returns an exit code
and prints a clear message, never a traceback, for a bad file.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from spit.engine import mode_names
from spit.play.texts import printable, to_ascii
from spit.store.paths import data_dir_problem, database_path, replay_dir, saved_dir

if TYPE_CHECKING:
    # rich's tables, SQLite and the saved games load only when one of these commands runs
    from rich.console import Console

    from spit.cli.parsing import Subparsers
    from spit.store.records import Stats
    from spit.store.replay_list import SavedReplay
    from spit.store.resume import SavedGame
    from spit.store.standings import Standings

#: Called to open the TUI on a replay or a resumed match, once the TUI provides it.
Launcher = Callable[[argparse.Namespace], int]


def register(subparsers: Subparsers, launchers: dict[str, Launcher] | None = None) -> None:
    """Add the three sub-commands; ``launchers`` opens the TUI for replay/resume."""
    launchers = launchers or {}
    stats = subparsers.add_parser(
        "stats",
        help="ratings, wins, losses, streaks, head-to-head records and fastest wins",
        description="Ratings, wins, losses, streaks, head-to-head records and fastest wins "
        "of the games played here, with a player's charts.",
    )
    stats.add_argument("--json", action="store_true", help="print one JSON object")
    stats.add_argument(
        "--player",
        metavar="NAME",
        help="whose charts to draw (rating and reaction times); default: who played most",
    )
    stats.add_argument(
        "--mode", choices=mode_names(), default="spit", help="the game of the charts"
    )
    stats.add_argument("--no-charts", action="store_true", help="only the tables")
    stats.set_defaults(handler=cmd_stats)

    replay = subparsers.add_parser(
        "replay",
        help="watch or check saved replays",
        description="List the saved replays, watch one, or check them (--verify).",
    )
    replay.add_argument(
        "files",
        nargs="*",
        type=Path,
        metavar="FILE",
        help="replay file(s), or a name or number from the list; without one, list the "
        "saved replays and where they are kept",
    )
    replay.add_argument(
        "--verify",
        action="store_true",
        help="replay without the UI and check each file's final fingerprint",
    )
    replay.add_argument(
        "--races",
        action="store_true",
        help="list every close race of a network game: both presses, who won and why",
    )
    replay.add_argument(
        "--at",
        type=replay_time,
        metavar="TIME",
        help="open the replay paused at this time (1:23, or seconds)",
    )
    replay.set_defaults(handler=cmd_replay, launch=launchers.get("replay"))

    resume = subparsers.add_parser(
        "resume",
        help="list the unfinished games, or carry on with one",
        description="Without GAME: resume the only unfinished game, or list them all.",
    )
    resume.add_argument(
        "game", nargs="?", metavar="GAME", help="the game's number in the list, or its id"
    )
    resume.add_argument("--list", action="store_true", help="only list the unfinished games")
    resume.add_argument(
        "--delete", metavar="GAME", help="delete a saved game (its number in the list, or its id)"
    )
    resume.set_defaults(handler=cmd_resume, launch=launchers.get("resume"))


def notes(stats: Stats) -> list[str]:
    """What the tables leave out: damaged rows, games between computer players."""
    out: list[str] = []
    if stats.skipped:
        out.append(
            f"warning: {stats.skipped} result(s) in {database_path()} could not be read "
            "(damaged or edited) and were skipped"
        )
    if stats.computer_only:
        out.append(
            f"{stats.computer_only} game(s) between two computer players (spit watch) "
            "are not counted"
        )
    return out


def print_stats(stats: Stats, console: Console) -> None:
    """Show the statistics as rich tables."""
    from spit.tui.tables import stats_renderable

    console.print(stats_renderable(stats, "Play one with 'spit play'."))


def _signed(value: float) -> str:
    rounded = round(value)
    return f"+{rounded}" if rounded > 0 else f"{rounded}" if rounded < 0 else "0"


def print_standings(standings: Standings, console: Console) -> None:
    """Show ratings (±2 RD, trend), head-to-head records and the computer levels' ratings."""
    from rich.markup import escape
    from rich.table import Table

    from spit.store.standings import PROVISIONAL_RD, TREND_GAMES

    if standings.ratings:
        table = Table(title="Ratings (Glicko-2)", title_justify="left")
        table.caption = (
            f"± is two rating deviations (95%); trend: change over the last {TREND_GAMES} games"
        )

        for name in ("Name", "Mode", "Rating", "±", "Trend", "Games"):
            table.add_column(name, justify="left" if name in ("Name", "Mode") else "right")
        for r in standings.ratings:
            table.add_row(
                escape(r.name),
                r.mode,
                r.shown,
                f"{2 * r.rd:.0f}",
                f"{_signed(r.trend)} ({r.trend_games})",
                str(r.games),
            )
        console.print(table)
        if any(r.provisional for r in standings.ratings):
            console.print(
                "? marks a provisional rating: after few games it is a rough guess "
                f"(± over {2 * PROVISIONAL_RD:.0f}), one game can move it by a hundred points "
                "or more, and the order of two such ratings says little yet."
            )
    if standings.head_to_head:
        table = Table(title="Head to head", title_justify="left")
        for name in ("Name", "Opponent", "Mode", "Won", "Lost", "Drawn"):
            table.add_column(name, justify="right" if name in ("Won", "Lost", "Drawn") else "left")
        for h in standings.head_to_head:
            table.add_row(
                escape(h.name),
                escape(h.opponent),
                h.mode,
                str(h.wins),
                str(h.losses),
                str(h.draws),
            )
        console.print(table)
    if standings.ratings or standings.head_to_head:
        levels = standings.computers
        modes = sorted(levels)
        line = "; ".join(
            f"{mode}: " + ", ".join(f"{lvl} {rating:.0f}" for lvl, rating in levels[mode].items())
            for mode in modes
        )
        console.print(f"Computer levels (fixed ratings): {line}")


def cmd_stats(args: argparse.Namespace) -> int:
    """``spit stats [--json]``."""
    from rich.console import Console

    from spit.store.records import RecordsError, compute_stats, load_results
    from spit.store.standings import load_standings

    try:
        results, skipped = load_results()
        standings = load_standings()
    except RecordsError as exc:
        print(f"spit: cannot read results: {printable(exc)}", file=sys.stderr)
        return 1
    stats = compute_stats(results, skipped)
    if args.json:
        data = stats.to_json()
        data.update(standings.to_json())
        print(json.dumps(data))
    else:
        console = Console()
        print_stats(stats, console)
        print_standings(standings, console)
        if not getattr(args, "no_charts", True):
            print_charts(
                stats,
                getattr(args, "player", None),
                getattr(args, "mode", "spit"),
                bool(getattr(args, "ascii", False)),
            )
    sys.stdout.flush()  # the tables first, then the notes on stderr
    for note in notes(stats):
        print(note, file=sys.stderr)
    return 0


def print_charts(stats: Stats, player: str | None, mode: str, ascii_only: bool = False) -> None:
    """The rating and reaction-time charts of ``player`` (default: who played most)."""
    from spit.tui.charts import charts_text, load_chart_data

    if player is None:
        if not stats.players:
            return
        player = max(stats.players, key=lambda t: t.played).label
    print()
    print(charts_text(load_chart_data(player, mode), ascii_only=ascii_only))


def replay_time(text: str) -> float:
    """``--at``'s value: a replay time such as ``1:23`` or ``83`` (seconds)."""
    from spit.play.coach import parse_clock

    try:
        return parse_clock(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def cmd_replay(args: argparse.Namespace) -> int:
    """``spit replay --verify FILE...`` checks; ``spit replay FILE`` watches;
    ``spit replay`` lists the saved replays (``--verify`` alone checks them all)."""
    from spit.store.replay_list import find_replay, saved_replays
    from spit.store.replays import ReplayFileError, load_replay, verify_file

    if getattr(args, "races", False):
        if not args.files:
            print("spit: name the replay file(s) whose races to list", file=sys.stderr)
            return 2
        return list_races(args.files, getattr(args, "ascii", False))
    if not args.files:
        entries = saved_replays()
        if not args.verify:
            return list_replays(entries, getattr(args, "ascii", False))
        args.files = [entry.path for entry in entries]
    else:  # the names and numbers the list shows, as well as paths
        entries = saved_replays()
        args.files = [find_replay(path, entries) for path in args.files]
    if args.verify:
        failed = 0
        for path in args.files:
            ok, line = verify_file(path)
            line = printable(line)
            print(to_ascii(line) if getattr(args, "ascii", False) else line, flush=True)
            failed += not ok
        return 1 if failed else 0
    if len(args.files) != 1:
        print("spit: watch one replay at a time (or use --verify)", file=sys.stderr)
        return 2
    try:
        replay = load_replay(args.files[0])
    except ReplayFileError as exc:
        print(f"spit: {printable(exc)}", file=sys.stderr)
        return 1
    at: float | None = getattr(args, "at", None)
    if at is not None and at > replay.duration:
        from spit.play.texts import clock_text

        length = clock_text(replay.duration)
        print(f"spit: --at {clock_text(at)}: this replay is {length} long", file=sys.stderr)
        return 2
    launch: Launcher | None = getattr(args, "launch", None)
    if launch is None:
        ok, line = verify_file(args.files[0])
        print(printable(line))
        print("spit: the replay viewer is not available in this build")
        return 0 if ok else 1
    args.replay = replay
    return launch(args)


def list_races(paths: list[Path], ascii_only: bool = False) -> int:
    """``spit replay --races FILE...``: every close race the host judged, in words."""
    from spit.store.races import close_races, race_lines
    from spit.store.replays import ReplayFileError, load_replay

    def say(text: str) -> None:
        text = printable(text)
        print(to_ascii(text) if ascii_only else text, flush=True)

    failed = 0
    for path in paths:
        try:
            replay = load_replay(path)
        except ReplayFileError as exc:
            print(f"spit: {printable(exc)}", file=sys.stderr)
            failed += 1
            continue
        if replay.presses is None:
            say(
                f"{path}: this replay keeps no record of presses (a game on one "
                "machine, or a network game from before spit kept them)"
            )
            continue
        names = [p.label for p in replay.meta.players]
        count = len(close_races(replay.presses))
        judged = sum(1 for p in replay.presses if p.order is not None)
        clamped = sum(1 for p in replay.presses if p.clamp > 0)
        say(
            f"{path}: {judged} presses judged by the host, {count} close "
            f"race{'' if count == 1 else 's'} (two presses for one pile within the "
            f"host's wait), {clamped} press{'' if clamped == 1 else 'es'} judged later "
            "than claimed"
        )
        for line in race_lines(replay.presses, names):
            say(line)
    return 1 if failed else 0


def list_replays(entries: list[SavedReplay], ascii_only: bool = False) -> int:
    """Print the saved replays (newest first) and the folder they are in."""
    problem = data_dir_problem()
    if problem is not None:
        print(f"spit: {printable(problem)}", file=sys.stderr)
        return 1
    folder = printable(replay_dir())
    if not entries:
        print(f"No saved replays yet. Finished games are saved in {folder}")
        return 0
    print(f"Saved replays in {folder} (newest first):")
    width = len(str(len(entries)))
    for n, entry in enumerate(entries, start=1):
        who = f"{entry.players}, " if entry.players else ""
        name = printable(entry.path.name)
        line = f"  {n:>{width}}  {name}  {entry.date}  {entry.mode or '?'}: {who}{entry.result}"
        print(to_ascii(line) if ascii_only else line)
    print("Watch one with 'spit replay N' (its number) or 'spit replay NAME';")
    print("check it with 'spit replay --verify N', coaching with 'spit coach N'.")
    return 0


COLUMNS = ("mode", "variants", "players", "round", "score", "played", "date")
HEADINGS = {
    "mode": "mode",
    "variants": "variants",
    "players": "players",
    "round": "round",
    "score": "score or cards",
    "played": "played",
    "date": "saved",
}


def saved_games_table(games: list[SavedGame]) -> list[str]:
    """The unfinished games as lines of aligned plain text, numbered from 1."""
    rows = [["#", "id", *(HEADINGS[c] for c in COLUMNS)]]
    for n, game in enumerate(games, start=1):
        columns = game.columns()
        if game.ok:
            rows.append([str(n), printable(game.id), *(columns[c] for c in COLUMNS)])
        else:
            rows.append([str(n), printable(game.id), f"unreadable: {printable(game.problem)}"])
    widths = [max(len(r[i]) for r in rows if len(r) > i + 1) for i in range(len(rows[0]) - 1)]
    lines = []
    for row in rows:
        cells = [cell.ljust(widths[i]) for i, cell in enumerate(row[:-1])]
        lines.append("  ".join([*cells, row[-1]]).rstrip())
    return lines


def _list_games(games: list[SavedGame]) -> None:
    print(f"Unfinished games, most recent first (kept in {printable(saved_dir())}):")
    for line in saved_games_table(games):
        print("  " + line)
    print("Resume one with 'spit resume N' (or its id); delete one with 'spit resume --delete N'.")


def cmd_resume(args: argparse.Namespace) -> int:
    """``spit resume [GAME]`` carries on with a saved game; ``--list``, ``--delete GAME``."""
    from spit.store.resume import delete_saved_game, find_saved_game, list_saved_games

    games = list_saved_games()
    if args.delete is not None:
        try:
            game = find_saved_game(args.delete, games)
            delete_saved_game(game)
        except LookupError as exc:
            print(f"spit: cannot delete: {printable(exc.args[0])}", file=sys.stderr)
            return 1
        except OSError as exc:
            reason = printable(exc.strerror or exc)
            print(f"spit: cannot delete {printable(game.path)}: {reason}", file=sys.stderr)
            return 1
        print(f"Deleted the saved game {printable(game.id)}.")
        return 0
    if not games:
        print("There are no unfinished games to resume.")
        return 0 if args.list else 1
    if args.list:
        _list_games(games)
        return 0
    if args.game is None:
        if len(games) > 1:
            _list_games(games)
            return 0
        chosen = games[0]
    else:
        try:
            chosen = find_saved_game(args.game, games)
        except LookupError as exc:
            reason = printable(exc.args[0])
            print(f"spit: cannot resume: {reason} (see 'spit resume --list')", file=sys.stderr)
            return 1
    if chosen.replay is None:
        name = printable(chosen.id)
        print(f"spit: cannot resume {name}: {printable(chosen.problem)}", file=sys.stderr)
        print(f"Run 'spit resume --delete {name}' to delete it.", file=sys.stderr)
        return 1
    launch: Launcher | None = getattr(args, "launch", None)
    if launch is None:
        print(f"Unfinished game: {printable(chosen.describe())}.")
        print("spit: the game screen is not available in this build")
        return 1
    args.replay = chosen.replay
    code: int = launch(args)
    return code
