"""``spit server`` (the place where strangers meet) and ``spit online`` (its players' door).

See docs/server.md for running a server and what it keeps.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spit.cli.variants import variant_lists
from spit.net.defaults import DEFAULT_BOT_AFTER, DEFAULT_SERVER_PORT, DOOR_TOKEN_VARIABLE

if TYPE_CHECKING:
    from spit.cli.parsing import Subparsers
    from spit.server.store import RatingRules

Handler = Callable[[argparse.Namespace], int]

DEFAULT_PORT = DEFAULT_SERVER_PORT


def _port(text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) < 65536:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}")
    return int(text)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 <= value <= 86400:
        raise argparse.ArgumentTypeError("give 0 to 86400 seconds")
    return value


def _default_server_dir() -> Path:
    from spit.store.paths import data_dir

    return data_dir() / "server"


def register(sub: Subparsers, tui: dict[str, Handler]) -> None:
    """Add ``server`` and ``online``; ``tui`` has the lobby's screen launcher."""
    server = sub.add_parser(
        "server",
        help="run a spit server: a lobby, ranked pairing, accounts by SSH key",
        description="Run a spit server where players meet: `spit online HOST` or plain "
        "`ssh -t -p PORT HOST`. See docs/server.md.",
    )
    server.add_argument(
        "--bind",
        default="127.0.0.1",
        metavar="ADDR",
        help="address to listen on (default 127.0.0.1; 0.0.0.0 for everyone)",
    )
    server.add_argument(
        "--port",
        type=_port,
        default=DEFAULT_PORT,
        help=f"TCP port (default {DEFAULT_PORT}; 0: any free port)",
    )
    server.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="where the server keeps its database, host key and admins file "
        "(default: a 'server' folder in spit's data directory)",
    )
    server.add_argument(
        "--store",
        default=None,
        metavar="URL",
        help="where accounts, ratings and results live: sqlite:PATH (default: server.db in "
        "the data directory) or postgresql://USER@HOST/DB (several nodes; needs spit[cluster])",
    )
    server.add_argument(
        "--bus",
        default=None,
        metavar="URL",
        help="share the lobby with other nodes over Redis or Valkey: redis://HOST:PORT/DB "
        "(needs spit[cluster])",
    )
    server.add_argument(
        "--checkpoint",
        type=float,
        default=None,
        metavar="SECONDS",
        help="how often running matches are written to the store, so another node can "
        "carry them on if this one dies (default 1 with --bus, 5 alone)",
    )
    server.add_argument(
        "--bus-prefix",
        default="spit:",
        metavar="PREFIX",
        help="the bus's keys begin with this (servers sharing one Redis keep apart by it)",
    )
    server.add_argument(
        "--node", default=None, metavar="NAME", help="this node's name (default: its address)"
    )
    server.add_argument(
        "--public-address",
        default=None,
        metavar="HOST:PORT",
        help="where players reach this node, if not --bind:--port",
    )
    server.add_argument(
        "--drain",
        action="store_true",
        help="tell the running server (--data-dir) to start no new matches; running ones finish",
    )
    server.add_argument(
        "--undrain", action="store_true", help="let a drained server start matches again"
    )
    server.add_argument(
        "--status",
        action="store_true",
        help="show the running server's players, queue, matches and load",
    )
    server.add_argument(
        "--grace",
        type=_seconds,
        default=15.0,
        metavar="S",
        help="seconds before a computer holds a dropped player's seat (default 15)",
    )
    server.add_argument(
        "--rejoin",
        type=_seconds,
        default=60.0,
        metavar="S",
        help="seconds a dropped player may come back (default 60)",
    )
    server.add_argument(
        "--wave",
        type=_seconds,
        default=3.0,
        metavar="S",
        help="seconds between quick-pair waves (default 3)",
    )
    server.add_argument(
        "--ping-every",
        type=float,
        default=None,
        metavar="S",
        help="seconds between a match's pings to each player once their clock is measured, "
        "0.1 to 5 (default 1; more pings follow a changing link sooner, fewer cost less)",
    )
    server.add_argument(
        "--daily-level",
        default="medium",
        metavar="LEVEL",
        help="the computer level of the daily challenge (default medium)",
    )
    server.add_argument(
        "--watch-delay",
        type=_seconds,
        default=0.0,
        metavar="S",
        help="spectators see matches S seconds late, at most 60 (default 0: live)",
    )
    server.add_argument(
        "--board-rd",
        type=float,
        default=75.0,
        metavar="RD",
        help="leaderboards list ratings with a deviation this low or lower, 30 to 350 "
        "(default 75: settled)",
    )
    server.add_argument(
        "--board-games",
        type=int,
        default=10,
        metavar="N",
        help="... from at least N rated games, 1 to 1000 (default 10)",
    )
    server.add_argument(
        "--board-days",
        type=int,
        default=7,
        metavar="D",
        help="... with a rated game in the last D days, 1 to 365 (default 7)",
    )
    server.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="MODE:NAME",
        help="an optional rule every match of a mode is played with, e.g. "
        f"spit:alternating-colours ({variant_lists()}); repeat for more",
    )
    server.add_argument(
        "--no-door", action="store_true", help="refuse plain ssh (only spit online may play)"
    )
    server.set_defaults(handler=_cmd_server)

    online = sub.add_parser(
        "online",
        help="play on a spit server: its lobby, ranked pairing, the daily challenge",
        description="Sign in to a spit server with your SSH key (or one spit makes for you) "
        "and play. See docs/server.md.",
    )
    online.add_argument(
        "address",
        nargs="?",
        default=f"127.0.0.1:{DEFAULT_PORT}",
        metavar="HOST[:PORT]",
        help=f"the server (default 127.0.0.1:{DEFAULT_PORT})",
    )
    online.add_argument("--name", default="", help="the name to claim on first sign-in")
    online.add_argument("--guest", action="store_true", help="play unrated, without a key")
    online.add_argument(
        "--key", metavar="FILE", default=None, help="sign in with this SSH private key"
    )
    online.add_argument(
        "--json",
        action="store_true",
        help="print your account, ratings and recent results as JSON, no screen",
    )
    online.add_argument(
        "--replays", action="store_true", help="list your games kept on the server, no screen"
    )
    online.add_argument(
        "--fetch",
        type=int,
        metavar="N",
        default=None,
        help="with --replays: keep game N in your replays (spit replay --verify)",
    )
    online.add_argument(
        "--forget-key",
        action="store_true",
        help="forget the server's host key (to accept a new one on purpose)",
    )
    online.add_argument(
        "--bot-after",
        type=_seconds,
        default=DEFAULT_BOT_AFTER,
        metavar="S",
        help=f"quick-pair: a computer of your strength after S seconds "
        f"(default {DEFAULT_BOT_AFTER:.0f})",
    )
    online.add_argument(
        "--door",
        action="store_true",
        help=f"(used by the plain-ssh door: signs in with the token in {DOOR_TOKEN_VARIABLE})",
    )
    online.add_argument("--pin", default=None, help="(used by the plain-ssh door)")
    online.set_defaults(handler=lambda args: _cmd_online(args, tui["online"]))


def _fail(text: str) -> int:
    print(f"spit: {text}", file=sys.stderr)
    return 2


def _cmd_server(args: argparse.Namespace) -> int:
    data_dir = args.data_dir or _default_server_dir()
    if args.status:
        return _print_status(data_dir / "status.json")
    if args.drain or args.undrain:
        return _drain(data_dir, args.drain)
    from spit.bots import LEVELS
    from spit.server.node import ServerNode, ServerSettings
    from spit.server.store import StoreError
    from spit.server.tuning import freeze_startup

    if args.daily_level not in LEVELS:
        return _fail(f"unknown level {args.daily_level!r}; choose from {', '.join(LEVELS)}")
    try:
        variants = _server_variants(args.variant)
        rating = board_rules(args.board_rd, args.board_games, args.board_days)
    except ValueError as exc:
        return _fail(str(exc))
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)
    logging.getLogger("asyncssh").setLevel(logging.WARNING)
    settings = ServerSettings(
        data_dir=data_dir,
        bind=args.bind,
        port=args.port,
        grace=args.grace,
        rejoin=args.rejoin,
        wave_seconds=max(0.5, args.wave),
        daily_level=args.daily_level,
        door=not args.no_door,
        spectator_delay=min(args.watch_delay, 60.0),
        variants=variants,
        store_url=args.store,
        bus_url=args.bus,
        bus_prefix=args.bus_prefix,
        checkpoint_seconds=None
        if args.checkpoint is None
        else min(max(args.checkpoint, 0.05), 60.0),
        node_id=args.node,
        public_address=args.public_address,
        rating=rating,
    )
    if args.ping_every is not None:
        if not 0.1 <= args.ping_every <= 5.0:
            return _fail("--ping-every takes 0.1 to 5 seconds")
        settings.ping_every = args.ping_every

    async def main() -> int:
        try:
            node = ServerNode(settings)
            port = await node.start()
        except (OSError, ValueError, StoreError) as exc:
            return _fail(
                f"cannot start the server on {args.bind}:{args.port}: "
                f"{getattr(exc, 'strerror', None) or exc}"
            )
        freeze_startup()
        print(
            f"spit server: listening on {args.bind}:{port}; players run "
            f"`spit online {args.bind}:{port}` or `ssh -t -p {port} {args.bind}`",
            file=sys.stderr,
            flush=True,
        )
        stop = asyncio.Event()
        node.install_signal_handlers(stop)
        await stop.wait()
        saved = await node.shutdown()
        print(f"spit server: stopped; {saved} running match(es) saved", file=sys.stderr)
        return 0

    try:
        return asyncio.run(main())
    except KeyboardInterrupt:
        return 130


def _server_variants(values: list[str]) -> dict[str, tuple[str, ...]]:
    """``["spit:alternating-colours", "spit:V1"]`` -> ``{"spit": ("V1", "V3")}``:
    each rule named in words or by its id, checked by its mode."""
    from spit.cli.variants import parse_variants
    from spit.engine import mode_names

    chosen: dict[str, set[str]] = {}
    for value in values:
        mode, _, variant = value.partition(":")
        mode = mode.strip().lower()
        if mode not in mode_names() or not variant.strip():
            raise ValueError(
                f"--variant {value!r}: give MODE:VARIANT, e.g. spit:alternating-colours"
            )
        try:
            ids = parse_variants([variant], mode)  # naming the mode's choices if unknown
        except argparse.ArgumentTypeError as exc:
            raise ValueError(str(exc)) from None
        chosen.setdefault(mode, set()).update(ids)
    return {mode: tuple(sorted(names)) for mode, names in chosen.items()}


def _drain(data_dir: Path, drain: bool) -> int:
    """Ask the server of ``data_dir`` to start no new matches (or to start them again)."""
    if not data_dir.is_dir():
        return _fail(f"no server data directory at {data_dir}")
    flag = data_dir / "drain"
    if drain:
        flag.write_text("drain\n", encoding="utf-8")
        print(
            "spit: the server starts no new matches now; running ones finish "
            "(spit server --status shows how many are left)"
        )
    else:
        flag.unlink(missing_ok=True)
        print("spit: the server starts matches again")
    return 0


def board_rules(rd: float, games: int, days: int) -> RatingRules:
    """The leaderboards' thresholds an operator chose (ValueError says what is out of range)."""
    from spit.server.store import RatingRules

    if not 30 <= rd <= 350:
        raise ValueError("--board-rd takes 30 to 350")
    if not 1 <= games <= 1000:
        raise ValueError("--board-games takes 1 to 1000")
    if not 1 <= days <= 365:
        raise ValueError("--board-days takes 1 to 365")
    return RatingRules(board_rd=rd, board_min_games=games, board_recent_days=days)


def _print_status(path: Path) -> int:
    import time

    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return _fail(f"no server status at {path}: is a server running with this --data-dir?")
    try:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("not an object")
        age = time.time() - float(data.get("updated", 0))
        nodes = [n for n in data.get("nodes") or [] if isinstance(n, dict)]
    except (ValueError, TypeError):
        return _fail(f"{path} is not a server status file that can be read (damaged?)")
    state = "stopped" if data.get("stopped") else ("running" if age < 10 else "not answering")
    print(
        f"server {data.get('bind')}:{data.get('port')} (pid {data.get('pid')}): {state}, "
        f"up since {data.get('started')}"
    )
    print(
        f"  players online {data.get('online')}, waiting to be paired {data.get('queue')}, "
        f"matches {data.get('matches')}, connections {data.get('connections')}"
    )
    load = data.get("load")
    load_text = f"{load:.2f}" if isinstance(load, int | float) else "unknown"
    print(
        f"  timer lateness p99 {data.get('lateness_p99_ms')} ms (recent), pairing p95 "
        f"{data.get('pair_p95_s')} s, load {load_text}"
    )
    if data.get("checkpoint_writes"):
        print(f"  match checkpoints written {data['checkpoint_writes']}")
    if data.get("draining"):
        print("  draining: no new matches")
    if len(nodes) > 1 or (nodes and nodes[0].get("node") != data.get("node")):
        print("  nodes sharing the lobby:")
        for other in nodes:
            mark = " (draining)" if other.get("draining") else ""
            print(
                f"    {other.get('node')} at {other.get('address')}: {other.get('online')} "
                f"online, {other.get('matches')} matches{mark}"
            )
    return 0


def _online_key(args: argparse.Namespace) -> Any:
    import asyncssh

    from spit.net.online import player_key
    from spit.store.paths import data_dir

    if args.guest or args.door_token:
        return None
    if args.key:
        try:
            return asyncssh.read_private_key(args.key)
        except (OSError, asyncssh.KeyImportError) as exc:
            raise ValueError(f"cannot read the key {args.key}: {exc}") from None
    return player_key(data_dir())  # ValueError: said by the caller


def _cmd_online(args: argparse.Namespace, tui: Handler) -> int:
    from spit.net.host import split_address
    from spit.net.online import KNOWN_SERVERS, KnownServers
    from spit.store.paths import data_dir

    try:
        args.host, args.port = split_address(args.address, DEFAULT_PORT)
    except ValueError as exc:
        return _fail(str(exc))
    known = KnownServers(data_dir() / KNOWN_SERVERS)
    # the door's one-time token: taken out of the environment, so nothing started later sees it
    args.door_token = os.environ.pop(DOOR_TOKEN_VARIABLE, None) if args.door else None
    if args.door and not args.door_token:
        return _fail(f"--door signs in with the token in {DOOR_TOKEN_VARIABLE}, which is not set")
    if args.forget_key:
        server = f"{args.host}:{args.port}"
        try:
            forgot = known.forget(server)
        except ValueError as exc:
            return _fail(f"{exc}: fix it, or remove it to forget every server's key")
        print(f"spit: {'forgot' if forgot else 'had no'} host key for {server}")
        return 0
    try:
        args.client_key = _online_key(args)
    except ValueError as exc:
        return _fail(str(exc))
    args.known = None if args.door_token else known
    if args.json or args.replays:
        return asyncio.run(_online_report(args))
    return tui(args)


async def _online_report(args: argparse.Namespace) -> int:
    """``--json`` and ``--replays``: sign in, ask, print, leave."""
    from spit.net.client import JoinError
    from spit.net.online import OnlineClient
    from spit.net.runner import keep_replay

    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    try:
        client = await OnlineClient.connect(
            args.host,
            args.port,
            key=args.client_key,
            known=args.known,
            name=args.name,
            on_message=inbox.put_nowait,
        )
    except JoinError as exc:
        return _fail(f"cannot connect: {exc}")

    async def wait_for(*kinds: str) -> dict[str, Any]:
        while True:
            msg = await asyncio.wait_for(inbox.get(), 15)
            if msg["t"] in kinds:
                return msg

    try:
        first = await wait_for("welcome", "needname", "bye")
        if first["t"] != "welcome":
            why = first.get("reason") or "this key has no account yet: run spit online once"
            return _fail(f"cannot sign in: {why}")
        client.send("games")
        games = await wait_for("gamelist")
        if args.fetch is not None:
            client.send("fetch", id=args.fetch)
            got = await wait_for("replayfile", "error")
            if got["t"] == "error":
                return _fail(got["reason"])
            print(keep_replay(got["data"]))
            return 0
        if args.json:
            print(
                json.dumps(
                    {
                        "name": first["name"],
                        "guest": first["guest"],
                        "ratings": first.get("ratings", {}),
                        "games": [
                            dict(
                                zip(
                                    ("id", "mode", "p1", "p2", "winner", "rated", "ended"),
                                    row,
                                    strict=False,
                                )
                            )
                            for row in games["rows"]
                        ],
                    },
                    indent=1,
                )
            )
            return 0
        if not games["rows"]:
            print("No games kept on the server yet.")
        for number, mode, p1, p2, winner, rated, ended in games["rows"]:
            result = "no result" if winner is None else f"{[p1, p2][winner - 1]} won"
            print(
                f"#{number:<5} {ended[:16]}  {mode:<6} {p1} v {p2}: {result}"
                f"{'' if rated else ' (unrated)'}"
            )
        if games["rows"]:
            print("Keep one in your replays: spit online --replays --fetch N")
        return 0
    except TimeoutError:
        return _fail("the server did not answer")
    finally:
        await client.close()
