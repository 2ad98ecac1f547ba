"""``spit coach [REPLAY] [--json] [--at N]``: how fast each player was in a saved game,
and the moments to watch again (``--at N`` opens the replay viewer at moment N)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spit.cli.parsing import Subparsers

#: opens the replay viewer on ``args.replay`` at ``args.at`` (the TUI's ``launch_replay``)
Launcher = Callable[[argparse.Namespace], int]


def cmd_coach(args: argparse.Namespace) -> int:
    """Print the coaching summary of ``args.replay`` (the newest replay by default);
    with ``args.at``, open the replay at that moment instead."""
    # the coach's statistics and the replays load only when ``spit coach`` runs
    from spit.play.texts import printable
    from spit.store.coaching import coach_replay, last_replay
    from spit.store.replays import ReplayFileError, load_replay

    path: Path | None = args.replay
    if path is not None:  # a name or number as 'spit replay' lists them, or a path
        from spit.store.replay_list import find_replay

        path = find_replay(path)
    if path is None:
        path = last_replay()
        if path is None:
            print("spit: no saved games yet; play one, then run 'spit coach'", file=sys.stderr)
            return 1
    try:
        replay = load_replay(path)
    except ReplayFileError as exc:
        print(f"spit: {printable(exc)}", file=sys.stderr)
        return 1
    coaching = coach_replay(replay)
    at: int | None = getattr(args, "at", None)
    if at is not None:
        count = len(coaching.moments)
        if not 1 <= at <= count:
            have = f"moments 1 to {count}" if count > 1 else ("moment 1" if count else "none")
            print(f"spit: --at {at}: this game has {have}", file=sys.stderr)
            return 2
        launch: Launcher | None = getattr(args, "launch", None)
        if launch is None:
            print("spit: the replay viewer is not available in this build", file=sys.stderr)
            return 1
        moment = coaching.moments[at - 1]
        args.replay, args.at, args.note = replay, moment.at, moment.words()
        return launch(args)
    if args.json:
        print(json.dumps(coaching.to_json()))
        return 0
    names = " vs ".join(p.label for p in replay.meta.players)
    print(f"{printable(path.name)}: {replay.final.mode}, {names}, {replay.duration:.0f}s")
    print()
    for line in coaching.lines():
        print(line)
    moments = coaching.moment_lines()
    if moments:
        print()
        for line in moments:
            print(printable(line))
        shown = printable(path) if args.replay is not None else ""
        print(f"Watch one in the replay: spit coach {shown + ' ' if shown else ''}--at N")
    return 0


def _moment_number(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a moment's number") from None
    if number < 1:
        raise argparse.ArgumentTypeError("moments are numbered from 1")
    return number


def add_coach_parser(sub: Subparsers, launch: Launcher | None = None) -> None:
    """Register ``spit coach`` (``launch``: opens the replay viewer, for ``--at``)."""
    parser = sub.add_parser(
        "coach",
        help="reaction times, missed chances and slaps of a saved game",
        description="How fast each player was in a saved game: reaction times, missed "
        "chances, spit calls and slaps.",
    )
    parser.add_argument(
        "replay",
        nargs="?",
        type=Path,
        default=None,
        help="a replay: a file, or a name or number from 'spit replay' (default: the last game)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--at",
        type=_moment_number,
        metavar="N",
        help="open the replay at moment N of the list (the replay viewer)",
    )
    parser.set_defaults(handler=cmd_coach, launch=launch)
