"""``spit host`` and ``spit join``: play over the network (see docs/network.md)."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from spit.cli.variants import variant_help

if TYPE_CHECKING:
    from spit.cli.parsing import Subparsers

Handler = Callable[[argparse.Namespace], int]


def _ms(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of milliseconds: {text!r}") from None
    if not 0 <= value <= 1000:
        raise argparse.ArgumentTypeError("give 0 to 1000 milliseconds")
    return value / 1000


def _port(text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) < 65536:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}")
    return int(text)


def register(sub: Subparsers, tui: dict[str, Handler]) -> None:
    """Add ``host`` and ``join``; ``tui`` has the screen launchers for both."""
    from spit.net.defaults import DEFAULT_CAP, DEFAULT_PORT, DEFAULT_WINDOW

    host = sub.add_parser(
        "host",
        help="host a game over the network (the other player runs spit join)",
        description="Host a game: prints the line the other player types. "
        "See docs/network.md for ports, firewalls and SSH tunnels.",
    )
    host.add_argument(
        "--port",
        type=_port,
        default=DEFAULT_PORT,
        help=f"TCP port to listen on (default {DEFAULT_PORT}; 0: any free port)",
    )
    host.add_argument(
        "--bind",
        default="127.0.0.1",
        metavar="ADDR",
        help="address to listen on (default 127.0.0.1, this machine only; "
        "0.0.0.0 lets players on your network join)",
    )
    from spit.engine import mode_names

    host.add_argument(
        "--mode", choices=mode_names(), default="spit", help="the game (default spit)"
    )
    host.add_argument(
        "--variant",
        action="append",
        metavar="NAME",
        help=variant_help(),
    )
    host.add_argument("--seed", type=int, default=None, help="deal from this seed")
    host.add_argument(
        "--target", type=int, default=None, metavar="N", help="play a scored match to N points"
    )
    host.add_argument(
        "--headless",
        action="store_true",
        help="no screen here: wait for two guests and run their game",
    )
    host.add_argument(
        "--window",
        type=_ms,
        default=DEFAULT_WINDOW,
        metavar="MS",
        help="the longest the host holds verdicts to order close races by press time; "
        "the wait follows the players' measured delays up to this "
        f"(default {DEFAULT_WINDOW * 1000:.0f}; 0: plain arrival order)",
    )
    host.add_argument(
        "--cap",
        type=_ms,
        default=DEFAULT_CAP,
        metavar="MS",
        help="the most any press may be judged earlier than it arrived, whatever the "
        f"measured delays (default {DEFAULT_CAP * 1000:.0f})",
    )
    host.add_argument(
        "--rejoin",
        type=float,
        default=60.0,
        metavar="S",
        help="seconds a dropped player has to come back (default 60)",
    )
    host.add_argument(
        "--allow-key",
        action="append",
        metavar="FILE",
        help="an SSH public key file (or authorized_keys) whose owner may join without a code",
    )
    host.add_argument("--name", default="", help="your name on the board")
    host.set_defaults(handler=lambda args: _cmd_host(args, tui["host"]))

    join = sub.add_parser(
        "join",
        help="join a game someone hosts (spit join HOST[:PORT] CODE)",
        description="Join a hosted game with the line its host gave you.",
    )
    join.add_argument("address", metavar="HOST[:PORT]", help="the host's address")
    join.add_argument("code", help="the join code the host gave you")
    join.add_argument("--watch", action="store_true", help="watch (public information only)")
    join.add_argument(
        "--bot",
        metavar="LEVEL",
        default=None,
        help="let a computer (easy, medium, hard, expert) play this seat",
    )
    join.add_argument("--name", default="", help="your name on the board")
    join.add_argument(
        "--key",
        metavar="FILE",
        default=None,
        help="an SSH private key the host allows (instead of the code's secret)",
    )
    join.set_defaults(handler=lambda args: _cmd_join(args, tui["join"]))


def _fail(text: str) -> int:
    print(f"spit: {text}", file=sys.stderr)
    return 2


def _variants(args: argparse.Namespace) -> tuple[str, ...]:
    from spit.cli.variants import parse_variants

    return parse_variants(args.variant, args.mode)


def allowed_keys(args: argparse.Namespace) -> list[Any]:
    """The SSH public keys of ``--allow-key`` (ValueError naming a file it cannot read)."""
    import asyncssh

    allowed: list[asyncssh.SSHKey] = []
    for path in args.allow_key or []:
        try:
            allowed.extend(asyncssh.read_public_key_list(path))
        except (OSError, asyncssh.KeyImportError) as exc:
            raise ValueError(f"cannot read the key file {path}: {exc}") from None
    return allowed


def host_variants(args: argparse.Namespace) -> tuple[str, ...]:
    """The checked variants of ``--variant`` (ValueError: unknown, or not for the game)."""
    try:
        return _variants(args)
    except argparse.ArgumentTypeError as exc:
        raise ValueError(str(exc)) from None


def make_host(args: argparse.Namespace) -> Any:
    """The ``Host`` the options describe (raises ValueError/OSError with a reason)."""

    from spit.net.host import Host
    from spit.net.runner import host_game, host_timing

    allowed = allowed_keys(args)
    variants = host_variants(args)
    game = host_game(args.mode, variants, args.seed, args.target)
    names = ("Player 1", "Player 2")
    if args.name and not args.headless:
        names = (args.name[:20], "Player 2")
    return Host(
        game,
        timing=host_timing(),
        window=args.window,
        cap=args.cap,
        bind=args.bind,
        port=args.port,
        remote_seats=(0, 1) if args.headless else (1,),
        names=names,
        allowed_keys=allowed,
        rejoin_timeout=args.rejoin,
        record=True,
    )


def _cmd_host(args: argparse.Namespace, tui: Handler) -> int:
    if not args.headless:
        # the screen hosts with what is checked here: variants and allowed keys
        try:
            args.variant = list(host_variants(args))
            args.allowed_keys = allowed_keys(args)
        except ValueError as exc:
            return _fail(f"cannot host: {exc}")
        return tui(args)
    from spit.net.runner import host_headless

    logging.basicConfig(level=logging.INFO, format="spit host: %(message)s", stream=sys.stderr)
    logging.getLogger("asyncssh").setLevel(logging.WARNING)

    async def main() -> int:
        try:
            host = make_host(args)
            await host.start()
        except (OSError, ValueError, argparse.ArgumentTypeError) as exc:
            reason = getattr(exc, "strerror", None) or exc
            return _fail(f"cannot host on {args.bind}:{args.port}: {reason}")
        ended = await host_headless(host, lambda line: print(line, flush=True))
        print(f"spit host: {ended}")
        return 0

    import asyncio

    try:
        return asyncio.run(main())
    except KeyboardInterrupt:
        print("spit host: stopped; the guests were told", file=sys.stderr)
        return 130


def parse_join(args: argparse.Namespace) -> tuple[str, int]:
    """(host, port) from the address argument; ValueError with a reason."""
    from spit.net.host import split_address

    return split_address(args.address)


def _cmd_join(args: argparse.Namespace, tui: Handler) -> int:
    try:
        address, port = parse_join(args)
    except ValueError as exc:
        return _fail(str(exc))
    from spit.net.runner import JoinError, join_as_bot, read_client_key

    if args.bot is None:
        try:
            args.client_key = read_client_key(args.key)
        except JoinError as exc:
            return _fail(f"cannot join: {exc}")
        return tui(args)
    from spit.bots import LEVELS

    level = args.bot.strip().lower()
    if level not in LEVELS:
        return _fail(f"unknown level {args.bot!r}; choose from {', '.join(LEVELS)}")

    async def main() -> int:
        try:
            key = read_client_key(args.key)
            ended = await join_as_bot(address, port, args.code, level, args.name, client_key=key)
        except JoinError as exc:
            return _fail(f"cannot join: {exc}")
        print(f"spit join: {ended}")
        return 0

    import asyncio

    try:
        return asyncio.run(main())
    except KeyboardInterrupt:
        return 130
