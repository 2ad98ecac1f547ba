"""What ``spit host --headless`` and ``spit join --bot`` run, without a screen.

Also the pieces the screens share: the game a host deals, the address to
print in the join line, and keeping a replay the host sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from spit.bots import make_bot
from spit.bots.sim import new_game
from spit.engine import AnyGame, get_mode
from spit.net.botseat import BotDriver
from spit.net.client import Guest, JoinError
from spit.net.host import Host
from spit.realtime.arbiter import Timing

log = logging.getLogger("spit.net")

WILDCARDS = ("0.0.0.0", "::", "")


def host_game(
    mode: str, variants: Sequence[str] = (), seed: int | None = None, target: int | None = None
) -> AnyGame:
    """A fresh game for the host to deal (``target``: a scored match to that many points)."""
    import random

    seed = random.randrange(2**63) if seed is None else seed
    if target is not None:
        info = get_mode(mode)
        return info.new_game(info.match_config(variants, target), seed)
    return new_game(mode, variants, seed)


def host_timing() -> Timing:
    """The timers of a local game, from the settings file (slap time, fumbles)."""
    from spit.store.settings import load_settings

    user, _warnings = load_settings()
    return user.timing()


def public_address(bind: str) -> str:
    """The address to put in the join line: the bind address, or for a wildcard
    bind this machine's address on its local network (no packet is sent)."""
    if bind not in WILDCARDS:
        return bind
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("192.0.2.1", 9))  # a documentation address: picks the outgoing interface
        return str(s.getsockname()[0])
    return socket.gethostname()


def keep_replay(data: dict[str, Any]) -> str:
    """Check a replay the host sent and keep it in this player's replay folder.

    Returns what to tell the player (where it went, or why it was not kept).
    """
    from spit.store.paths import atomic_write, private_dir, replay_dir
    from spit.store.replays import ReplayFileError, parse_replay, replay_name

    raw = json.dumps(data, separators=(",", ":"))
    try:
        replay = parse_replay(raw)
    except ReplayFileError as exc:
        return f"the host's replay was not kept: {exc}"
    folder = replay_dir()
    try:
        private_dir(folder)
        name = replay_name(replay.final, replay.meta)
        path = folder / name
        n = 2
        while path.exists():
            path = folder / f"{name[:-5]}-{n}.json"
            n += 1
        atomic_write(path, raw)
    except OSError as exc:
        return f"the host's replay was not kept: {exc.strerror or exc}"
    return f"replay saved: {path}"


def read_client_key(path: str | None) -> Any:
    """The private key of ``--key FILE`` (None without one); JoinError if unreadable."""
    if path is None:
        return None
    import asyncssh

    try:
        return asyncssh.read_private_key(path)
    except (OSError, asyncssh.KeyImportError) as exc:
        raise JoinError(f"cannot read the key {path}: {exc}") from None


async def host_headless(host: Host, say: Callable[[str], None] = print) -> str:
    """Serve until the match is over (or Ctrl+C); returns how it ended."""
    address = public_address(host.bind)
    for seat in host.remote_seats:
        say(f"Player {seat + 1}: {host.join_line(seat, address)}")
    say(f"Spectators: {host.watch_line(address)}")
    try:
        await host.run()
    except asyncio.CancelledError:
        await host.close("the host quit the game")
        raise
    if host.match.closed_reason is not None:
        ended = host.match.closed_reason
    elif host.match.game.over:
        ended = host.result_text()  # in words: "Guesty played every card and wins the game!"
    else:
        ended = "the game ended"
    await asyncio.sleep(0.2)  # let the last messages (result, replay) go out
    await host.close("the game is over; the host has closed")
    return ended


async def join_as_bot(
    address: str,
    port: int,
    code: str,
    level: str,
    name: str = "",
    say: Callable[[str], None] = print,
    client_key: Any = None,
) -> str:
    """Play a seat with a computer of ``level``; returns why the connection ended."""
    loop = asyncio.get_running_loop()
    box: list[BotDriver] = []
    link: list[Guest] = []

    def on_message(msg: dict[str, Any]) -> None:
        kind = msg["t"]
        if kind == "welcome" and not box:
            if msg["seat"] is None:
                return
            bot = make_bot(level, msg["seat"], seed=int(time.time()), mode=msg["mode"])
            box.append(
                BotDriver(bot, lambda a, at: link[0].action(a, at), time.monotonic, loop.call_later)
            )
            say(f"playing seat {msg['seat'] + 1} ({msg['mode']}) as the {level} computer")
        if box:
            box[0].handle(msg)
        if kind == "over":
            say(msg["text"])
        elif kind == "replay":
            say(keep_replay(msg["data"]))
        elif kind == "paused" and msg["why"] == "dropped":
            say(f"player {msg['seat'] + 1} dropped: the game is paused")
        elif kind == "choose" and box and "bot" in msg["options"]:
            # the other player did not come back: a computer plays on for them
            say(f"player {msg['seat'] + 1} did not come back: a computer takes their seat")
            link[0].decide("bot")
        elif kind == "error":
            say(f"host: {msg['reason']}")
        elif kind == "notice":
            say(f"host: {msg['text']}")

    guest = await Guest.connect(
        address,
        port,
        code,
        name=name or f"{level} computer",
        on_message=on_message,
        client_key=client_key,
        bot=level,  # the host records this seat as a computer of that level
    )
    link.append(guest)
    await guest.done.wait()
    await guest.close()
    return guest.ended or "closed"


__all__ = [
    "JoinError",
    "host_game",
    "host_headless",
    "host_timing",
    "join_as_bot",
    "keep_replay",
    "public_address",
]


def data_log_file() -> Path:
    """Where a host with a screen writes its log lines."""
    from spit.store.paths import data_dir

    return data_dir() / "host.log"
