"""``spit online``: a player's connection to a ``spit server``.

The player signs in with their SSH key: their own (``~/.ssh/id_ed25519``,
``id_ecdsa``, ``id_rsa``, if not protected by a passphrase) or one spit makes
for them in its data directory; without a key, as an unrated guest. The
server's host key is trusted on first use and kept in ``known_servers.json``
in the data directory; a changed key is refused with a message saying how to
accept it on purpose. The lobby runs on one channel; each match on a second
channel of the same connection (``Guest.on_connection``), with the match
protocol ``spit join`` speaks.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncssh

from spit import __version__
from spit.net import lobbywire as wire
from spit.net import protocol as proto
from spit.net.client import CONNECT_ERRORS, Guest, JoinError, connect_failure, ssh_connect
from spit.net.codes import key_fingerprint

log = logging.getLogger("spit.net")

KNOWN_SERVERS = "known_servers.json"
OWN_KEY = "online_key"
#: The user's usual key files, tried in this order.
USUAL_KEYS = ("id_ed25519", "id_ecdsa", "id_rsa")


class ServerKeyChanged(JoinError):
    """The server's host key is not the one seen before."""


def player_key(data_dir: Path, ssh_dir: Path | None = None) -> asyncssh.SSHKey:
    """The key the player signs in with: their own unprotected SSH key, or spit's for them.

    ValueError (saying what to do) if spit's own key is there but cannot be read.
    """
    ssh_dir = ssh_dir if ssh_dir is not None else Path.home() / ".ssh"
    for name in USUAL_KEYS:
        path = ssh_dir / name
        if path.is_file():
            with contextlib.suppress(asyncssh.KeyImportError, OSError, ValueError):
                return asyncssh.read_private_key(str(path))
    path = data_dir / OWN_KEY
    if path.is_file():
        try:
            return asyncssh.read_private_key(str(path))
        except (asyncssh.KeyImportError, OSError, ValueError) as exc:
            raise ValueError(
                f"cannot read the key {path} ({exc}). It is your account on the servers "
                "you played on: put it back from a backup, or move it away to start a "
                "new account with a new key"
            ) from None
    data_dir.mkdir(parents=True, exist_ok=True)
    os.chmod(data_dir, 0o700)
    key = asyncssh.generate_private_key("ssh-ed25519", comment="spit online")
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(key.export_private_key())
    os.replace(tmp, path)
    return key


class KnownServers:
    """Host keys of the servers this player has used (trust on first use)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _load(self) -> dict[str, str]:
        """The kept keys ({} before the first); ValueError if the file is damaged (its
        keys are then unknown: trusting whatever key a server shows would defeat them)."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(
                f"the file of known server keys {self.path} cannot be read: {exc}"
            ) from None
        try:
            raw = json.loads(text)
        except ValueError:
            raw = None
        if not isinstance(raw, dict):
            raise ValueError(f"the file of known server keys {self.path} is damaged")
        return {str(k): str(v) for k, v in raw.items() if isinstance(v, str)}

    def get(self, server: str) -> str | None:
        """The fingerprint seen before for ``server`` ("host:port")."""
        return self._load().get(server)

    def remember(self, server: str, fingerprint: str) -> None:
        """Keep ``fingerprint`` as ``server``'s key (0600 in a 0700 directory)."""
        known = self._load()
        known[server] = fingerprint
        self._write(known)

    def forget(self, server: str) -> bool:
        """Drop ``server``'s key (to accept a new one on purpose); False if none was kept."""
        known = self._load()
        if known.pop(server, None) is None:
            return False
        self._write(known)
        return True

    def _write(self, known: dict[str, str]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        os.chmod(self.path.parent, 0o700)
        tmp = self.path.with_name(self.path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(known, f, indent=1, sort_keys=True)
        os.replace(tmp, self.path)


class _Checker(asyncssh.SSHClient):
    def __init__(self, expected: str | None) -> None:
        self.expected = expected
        self.seen: str | None = None

    def validate_host_public_key(
        self, host: str, addr: str, port: int, key: asyncssh.SSHKey
    ) -> bool:
        self.seen = key_fingerprint(key)
        return self.expected is None or self.seen == self.expected


class OnlineClient:
    """A signed-in connection to a spit server: the lobby channel and its matches."""

    def __init__(self) -> None:
        self.conn: asyncssh.SSHClientConnection | None = None
        self.process: asyncssh.SSHClientProcess[bytes] | None = None
        self.on_message: Callable[[dict[str, Any]], None] = lambda msg: None
        #: why the lobby ended (None while it lasts); ``left``: the player ended it
        self.ended: str | None = None
        self.left = False
        self.done = asyncio.Event()
        self.server = ""
        self._reader: asyncio.Task[None] | None = None
        #: how this client signed in (a match on another node signs in there the same way)
        self._key: asyncssh.SSHKey | None = None
        self._known: KnownServers | None = None
        self._name = ""
        #: the nodes the lobby last listed, and the round trips measured to them (ms)
        self.nodes: tuple[tuple[str, str], ...] = ()
        self.delays: dict[str, float] = {}
        self._measuring: asyncio.Task[None] | None = None
        #: connections to other nodes for matches hosted there
        self._side: set[asyncssh.SSHClientConnection] = set()
        #: each listed node's host key, as the lobby said (to sign in there if this one dies)
        self._pins: dict[str, str] = {}
        self._door_token: str | None = None

    @classmethod
    async def connect(
        cls,
        address: str,
        port: int,
        *,
        key: asyncssh.SSHKey | None,
        known: KnownServers | None,
        name: str = "",
        pin: str | None = None,
        door_token: str | None = None,
        on_message: Callable[[dict[str, Any]], None] | None = None,
        timeout: float = 15.0,
    ) -> OnlineClient:
        """Sign in (key, guest or door token) and open the lobby; JoinError says why not."""
        client = cls()
        if on_message is not None:
            client.on_message = on_message
        client.server = f"{address}:{port}"
        client._key, client._known, client._name = key, known, name
        client._door_token = door_token
        conn = await sign_in(
            address,
            port,
            key=key,
            known=known,
            name=name,
            pin=pin,
            door_token=door_token,
            timeout=timeout,
        )
        client.conn = conn
        try:
            client.process = await conn.create_process(
                subsystem=wire.LOBBY_SUBSYSTEM, encoding=None
            )
        except (asyncssh.Error, OSError) as exc:
            conn.close()
            raise JoinError(f"the server would not open its lobby: {exc}") from None
        client._reader = asyncio.create_task(client._read())
        client.send("hello", v=wire.LOBBY_VERSION, app=__version__, name=name[:40])
        return client

    def send(self, kind: str, **fields: Any) -> None:
        """Send one lobby message."""
        if self.process is None or self.ended is not None:
            return
        with contextlib.suppress(OSError, asyncssh.Error):
            self.process.stdin.write(wire.encode(kind, **fields))

    def _noticed(self, msg: dict[str, Any]) -> None:
        """The lobby listed the server's nodes: measure the round trips to them (once each)."""
        nodes: list[tuple[str, str]] = []
        for entry in msg.get("nodes", [])[:20]:
            if isinstance(entry, dict):
                node = str(entry.get("node", ""))[:64]
                nodes.append((node, str(entry.get("address", ""))[:300]))
                if entry.get("key"):
                    self._pins[node] = str(entry["key"])[:100]
        if not nodes or tuple(nodes) == self.nodes:
            return
        self.nodes = tuple(nodes)
        if self._measuring is None or self._measuring.done():
            self._measuring = asyncio.create_task(self._measure())

    async def _measure(self) -> None:
        """Time a TCP connection to each node three times; report the fastest of each."""
        for node, address in self.nodes:
            host, _, port = address.rpartition(":")
            best = math.inf
            for _ in range(3):
                began = time.monotonic()
                try:
                    _, writer = await asyncio.wait_for(
                        asyncio.open_connection(host.strip("[]"), int(port)), 3.0
                    )
                except (OSError, ValueError, TimeoutError):
                    continue
                best = min(best, (time.monotonic() - began) * 1000)
                writer.close()
                with contextlib.suppress(OSError):
                    await writer.wait_closed()
            if best < math.inf:
                self.delays[node] = round(best, 2)
        if self.delays:
            self.send("delays", ms=self.delays)

    async def _read(self) -> None:
        """Read the lobby; if its node goes away, sign in again on another node of the server."""
        while True:
            last_word, again, reason = await self._read_lobby()
            if (last_word is not None and not again) or not await self._sign_in_elsewhere():
                break
        self.ended = last_word or reason
        self.done.set()

    async def _sign_in_elsewhere(self) -> bool:
        """The lobby's node is gone: the nearest other node the lobby listed, signed in as before.

        False if there is none (one node alone), or none answers.
        """
        if self._door_token is not None:
            return False  # a plain-ssh door's process lives and dies with its node
        others = sorted(
            (entry for entry in self.nodes if entry[1] != self.server),
            key=lambda entry: self.delays.get(entry[0], math.inf),
        )
        for node, address in others:
            host, _, port = address.rpartition(":")
            try:
                conn = await sign_in(
                    host.strip("[]"),
                    int(port),
                    key=self._key,
                    known=self._known,
                    name=self._name,
                    pin=self._pins.get(node),
                    timeout=5.0,
                )
                process = await conn.create_process(subsystem=wire.LOBBY_SUBSYSTEM, encoding=None)
            except (JoinError, asyncssh.Error, OSError, ValueError) as exc:
                log.info("node %s did not take the lobby: %s", node, exc)
                continue
            old = self.conn
            self.conn, self.process, self.server = conn, process, address
            if old is not None:
                old.close()
            self.send("hello", v=wire.LOBBY_VERSION, app=__version__, name=self._name[:40])
            if self.delays:
                self.send("delays", ms=self.delays)
            self.on_message({"t": "info", "text": "Signed in again on another node of the server."})
            return True
        return False

    async def _read_lobby(self) -> tuple[str | None, bool, str]:
        """Read lobby messages until the channel ends: (the server's last word, whether it
        asked to sign in again elsewhere, why it ended)."""
        assert self.process is not None
        buffer = b""
        reason = "the connection to the server was lost"
        last_word: str | None = None
        again = False
        try:
            while True:
                chunk = await self.process.stdout.read(65536)
                if not chunk:
                    break
                buffer += chunk
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    msg = wire.decode_from_server(line + b"\n")
                    if msg["t"] == "ping":
                        self.send("pong", t0=msg["t0"], tc=time.monotonic())
                        continue
                    if msg["t"] == "bye":
                        last_word = msg["reason"]
                        again = bool(msg.get("again", False))
                    elif msg["t"] == "lobby" and "nodes" in msg:
                        self._noticed(msg)
                    self.on_message(msg)
                if len(buffer) > proto.MAX_HOST_LINE:
                    raise proto.ProtocolError("the server sent a message that is too long")
        except proto.ProtocolError as exc:
            reason = f"the server broke the protocol: {exc}"
        except (asyncssh.Error, OSError) as exc:
            reason = f"the connection to the server was lost: {exc}"
        except Exception as exc:  # a defect in a handler: end cleanly, say what
            log.exception("error while handling a message from the server")
            reason = f"internal error ({type(exc).__name__}: {exc})"
        return last_word, again, reason

    async def open_match(
        self,
        match_id: str,
        *,
        watch: bool = False,
        name: str = "",
        on_message: Callable[[dict[str, Any]], None] | None = None,
        address: str | None = None,
        pin: str | None = None,
        token: str | None = None,
    ) -> Guest:
        """The match ``match_id``: a ``Guest`` as ``spit join`` has.

        On this server's connection (a second channel), or, when the match is
        hosted on another node (``address``, its key ``pin``, as the "matched"
        message says), on a connection of its own to that node, signed in as
        this client is. ``token`` is the seat's secret: it plays that seat.
        """
        if self.conn is None:
            raise JoinError("not connected")
        subsystem = wire.MATCH_SUBSYSTEM_PREFIX + match_id + (f"/{token}" if token else "")
        if not address or address == self.server:
            return await Guest.on_connection(
                self.conn, subsystem, name=name, watch=watch, on_message=on_message
            )
        host, _, port = address.rpartition(":")
        try:
            number = int(port)
        except ValueError:
            raise JoinError(f"the server sent a bad address: {address[:60]!r}") from None
        conn = await sign_in(
            host.strip("[]"), number, key=self._key, known=self._known, name=self._name, pin=pin
        )
        self._side.add(conn)
        try:
            guest = await Guest.on_connection(
                conn, subsystem, name=name, watch=watch, on_message=on_message
            )
        except BaseException:
            conn.close()
            self._side.discard(conn)
            raise
        guest.owns_connection = True  # closing the match closes its connection
        return guest

    def open_matched(
        self,
        matched: dict[str, Any],
        *,
        name: str = "",
        on_message: Callable[[dict[str, Any]], None] | None = None,
    ) -> Awaitable[Guest]:
        """``open_match`` for a "matched" message (a seat, or watching when it has none)."""
        return self.open_match(
            matched["match"],
            watch=matched["seat"] is None,
            name=name,
            on_message=on_message,
            address=matched.get("address"),
            pin=matched.get("pin"),
            token=matched.get("token"),
        )

    def close_now(self) -> None:
        """Say goodbye and start closing, without waiting (the app is quitting)."""
        self.left = True
        self.send("bye", reason="left")
        if self._reader is not None:
            self._reader.cancel()
        if self._measuring is not None:
            self._measuring.cancel()
        for side in list(self._side):
            side.close()
        self._side.clear()
        if self.conn is not None:
            self.conn.close()
        if self.ended is None:
            self.ended = "you left"
            self.done.set()

    async def close(self) -> None:
        """Say goodbye, close the connection and wait until it is closed."""
        self.close_now()
        if self.conn is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.conn.wait_closed(), 2)


async def sign_in(
    address: str,
    port: int,
    *,
    key: asyncssh.SSHKey | None,
    known: KnownServers | None,
    name: str = "",
    pin: str | None = None,
    door_token: str | None = None,
    timeout: float = 15.0,
) -> asyncssh.SSHClientConnection:
    """An SSH connection signed in to a spit server (key, guest or door token).

    The server's host key must be ``pin`` if given, else the one ``known``
    remembers for it (the first one seen is remembered). JoinError says why not.
    """
    server = f"{address}:{port}"
    try:
        expected = pin or (known.get(server) if known is not None else None)
    except ValueError as exc:
        raise JoinError(
            f"{exc}: fix it, or remove it to trust each server's key again the next time "
            "you connect"
        ) from None
    checker = _Checker(expected)
    if door_token is not None:
        username, password, keys = "door", door_token, None
    elif key is None:
        username, password, keys = "guest", None, None
    else:
        username, password, keys = (name or "player"), None, [key]
    try:
        conn = await ssh_connect(
            address,
            port,
            checker,
            timeout,
            username=username,
            password=password,
            client_keys=keys,
            preferred_auth="password" if door_token else "publickey",
        )
    except CONNECT_ERRORS as exc:
        mismatch = None
        if checker.seen is not None and checker.seen != expected:
            mismatch = ServerKeyChanged(
                f"the server's key changed (it was {expected}, now {checker.seen}): this may "
                f"not be the server you used before. If its operator changed it on purpose, "
                f"run `spit online {server} --forget-key` and connect again"
            )
        raise connect_failure(
            exc,
            peer="server",
            where=server,
            timeout=timeout,
            refused="the server refused the sign-in",
            key_mismatch=mismatch,
        ) from None
    if known is not None and expected is None and checker.seen is not None:
        with contextlib.suppress(OSError, ValueError):
            known.remember(server, checker.seen)
    return conn


async def open_match_as_bot(
    client: OnlineClient,
    matched: dict[str, Any],
    level: str,
    *,
    reaction: Any = None,
    on_message: Callable[[dict[str, Any]], None] | None = None,
) -> Guest:
    """Play the seat ``matched`` (a "matched" message) with a computer of ``level``.

    ``on_message`` also sees every match message (a test's recorder).
    """
    from spit.bots import make_bot
    from spit.net.botseat import BotDriver

    loop = asyncio.get_running_loop()
    box: list[BotDriver] = []
    link: list[Guest] = []
    seat = matched["seat"]
    if seat is not None:
        bot = make_bot(level, seat, seed=seat + 1, mode=matched["mode"], reaction=reaction)
        box.append(
            BotDriver(bot, lambda a, at: link[0].action(a, at), time.monotonic, loop.call_later)
        )

    def deliver(msg: dict[str, Any]) -> None:
        if on_message is not None:
            on_message(msg)
        if box:
            box[0].handle(msg)

    guest = await client.open_matched(matched, on_message=deliver)
    link.append(guest)
    return guest


async def play_as_bot(
    client: OnlineClient,
    matched: dict[str, Any],
    level: str,
    *,
    reaction: Any = None,
    on_message: Callable[[dict[str, Any]], None] | None = None,
    next_matched: Callable[[str], Awaitable[dict[str, Any] | None]] | None = None,
) -> None:
    """Play the seat ``matched`` with a computer to the end, through any move of the match.

    When the match's connection is lost before the game is over (its node died),
    ``next_matched(match_id)`` waits for the lobby's next "matched" message for
    the same match (the node that carried it on) and the bot plays on there;
    None from it (nothing came in time) ends the match here.
    """
    over = asyncio.Event()

    def seen(msg: dict[str, Any]) -> None:
        if msg.get("t") == "over":
            over.set()
        if on_message is not None:
            on_message(msg)

    while True:
        guest = await open_match_as_bot(client, matched, level, reaction=reaction, on_message=seen)
        ended = asyncio.create_task(guest.done.wait())
        finished = asyncio.create_task(over.wait())
        try:
            await asyncio.wait((ended, finished), return_when=asyncio.FIRST_COMPLETED)
        finally:
            ended.cancel()
            finished.cancel()
        if over.is_set() or next_matched is None:
            await guest.close()
            return
        again = await next_matched(matched["match"])
        if again is None:
            return
        matched = again
