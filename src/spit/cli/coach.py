"""``spit coach [REPLAY] [--json]``: how fast each player was in a saved game."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spit.cli.parsing import Subparsers


def cmd_coach(args: argparse.Namespace) -> int:
    """Print the coaching summary of ``args.replay`` (the newest replay by default)."""
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
    if args.json:
        print(json.dumps(coaching.to_json()))
        return 0
    names = " vs ".join(p.label for p in replay.meta.players)
    print(f"{printable(path.name)}: {replay.final.mode}, {names}, {replay.duration:.0f}s")
    print()
    for line in coaching.lines():
        print(line)
    return 0


def add_coach_parser(sub: Subparsers) -> None:
    """Register ``spit coach``."""
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
    parser.set_defaults(handler=cmd_coach)
