"""One player's lobby connection on a ``spit server``: sign-in, then what they ask for.

``LobbySession`` reads the ``spit-lobby`` channel line by line (size, rate and
stall limits as the match protocol has), signs the player in (an account by
SSH key, claiming a name on first use; or an unrated guest) and answers each
request by asking the node (``LobbyNode``: what the session needs of it).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

import asyncssh

from spit import __version__
from spit.engine import mode_names
from spit.net import lobbywire as wire
from spit.net import protocol as proto
from spit.server.names import name_problem
from spit.server.store import Account, KeyTaken, NameRefused, NameTaken, ServerStore

log = logging.getLogger("spit.server")

#: Lobby messages per second a client may send (sustained) and at once.
LOBBY_RATE = 10.0
LOBBY_BURST = 30.0
#: Seconds a half-sent line (or the hello) may take.
LOBBY_STALL = 10.0
#: Minutes a code for linking another key stays good.
LINK_MINUTES = 10


@dataclass(eq=False, slots=True)
class Player:
    """A signed-in lobby connection."""

    id: str  #: "a<account id>" or "g<n>"
    name: str
    account: Account | None
    fingerprint: str | None
    peer: str
    send: Callable[[bytes], None]
    close: Callable[[str], None]
    admin: bool = False
    match: str | None = None
    #: round trips the player's client measured to the server's nodes (node id -> ms)
    delays: dict[str, float] = field(default_factory=dict)

    @property
    def guest(self) -> bool:
        """True for a player without an account (unrated)."""
        return self.account is None


class LobbyNode(Protocol):
    """What a lobby session asks of the server node."""

    store: ServerStore
    admins: set[str]
    players: dict[str, Player]

    @property
    def matches(self) -> Mapping[str, Any]: ...
    def event_line(self, kind: str, /, **fields: object) -> str: ...
    def max_sessions_per_address(self) -> int: ...
    def where_is(self, match_id: str) -> str: ...
    def watch_notice(
        self, match_id: str, player: Player | None = None
    ) -> dict[str, Any] | None: ...
    def idle_timeout(self) -> float: ...
    def enter_lobby(self, player: Player) -> None: ...
    def leave_lobby(self, player: Player) -> None: ...
    def lobby_message(self) -> bytes: ...
    def new_guest_id(self) -> str: ...
    def new_link_code(self, account: Account) -> str: ...
    def take_link_code(self, code: str) -> int | None: ...
    async def rating_words(self, account: Account | None) -> dict[str, str]: ...
    async def join_queue(
        self, player: Player, mode: str, bot_after: float | None
    ) -> str | None: ...
    def leave_queue(self, player: Player) -> bool: ...
    def new_room(self, player: Player, mode: str) -> str: ...
    async def enter_room(self, player: Player, code: str) -> str | None: ...
    def challenge(self, player: Player, name: str, mode: str) -> str | None: ...
    async def answer(self, player: Player, number: int, accept: bool) -> str | None: ...
    async def daily(self, player: Player, mode: str, play: bool) -> bytes: ...
    async def standings(self, mode: str, player: Player | None = None) -> bytes: ...
    async def admin(self, player: Player, cmd: str, arg: str) -> list[str]: ...


class _Bucket:
    """A token bucket: ``rate`` a second, ``burst`` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst, self.level, self.at = rate, burst, burst, time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level < 1:
            return False
        self.level -= 1
        return True


class LobbySession:
    """A player's lobby channel."""

    def __init__(
        self, node: LobbyNode, gate: Any, process: asyncssh.SSHServerProcess[bytes]
    ) -> None:
        self.node = node
        self.gate = gate
        self.process = process
        self.identity = gate.effective()
        self.player: Player | None = None
        self.closed = False
        self._pending_name = False

    # ------------------------------------------------------------ sending

    def send(self, data: bytes) -> None:
        """Queue one line for the client (never blocks; a client that stops reading is closed)."""
        if self.closed:
            return
        try:
            self.process.stdout.write(data)
        except (OSError, asyncssh.Error, BrokenPipeError):
            self.close("the connection broke")
            return
        if self.process.channel.get_write_buffer_size() > 1 << 20:
            self.close("not reading its messages")

    def close(self, reason: str) -> None:
        """End the lobby channel."""
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(Exception):
            self.process.exit(0)
        log.info(self.node.event_line("lobby_closed", peer=self.identity.peer, why=reason))

    def error(self, reason: str) -> None:
        """Tell the client what was wrong with its request (the session goes on)."""
        self.send(wire.encode("error", reason=reason[:300]))

    # ------------------------------------------------------------ reading

    async def run(self) -> None:
        """Serve the channel until it closes."""
        try:
            await self._read()
        finally:
            if self.player is not None:
                self.node.leave_lobby(self.player)
            self.close("disconnected")

    async def _read(self) -> None:
        bucket = _Bucket(LOBBY_RATE, LOBBY_BURST)
        buffer = b""
        hello = False
        started = time.monotonic()
        self.send(wire.encode("hello", v=wire.LOBBY_VERSION, app=__version__))
        while not self.closed:
            if buffer or not hello:
                timeout = max(0.0, started + LOBBY_STALL - time.monotonic())
            else:
                timeout = self.node.idle_timeout()
            try:
                chunk = await asyncio.wait_for(self.process.stdin.read(4096), timeout)
            except TimeoutError:
                why = "idle too long" if hello and not buffer else "stalled"
                self.send(wire.encode("bye", reason=f"closed: {why}"))
                self.close(why)
                return
            if not chunk:
                return
            if not buffer:
                started = time.monotonic()
            buffer += chunk
            while b"\n" in buffer and not self.closed:
                line, buffer = buffer.split(b"\n", 1)
                if not bucket.take():
                    self._refuse("too many messages")
                    return
                try:
                    msg = wire.decode_from_client(line + b"\n")
                except proto.ProtocolError as exc:
                    self._refuse(str(exc))
                    return
                started = time.monotonic()
                if not hello:
                    if msg["t"] != "hello":
                        self._refuse("say hello first")
                        return
                    if msg["v"] != wire.LOBBY_VERSION:
                        self._refuse(
                            f"this server speaks lobby protocol {wire.LOBBY_VERSION}, your spit "
                            f"speaks {msg['v']}: both need the same spit version"
                        )
                        return
                    hello = True
                    await self._sign_in(msg.get("name", ""))
                    continue
                try:
                    await self._handle(msg)
                except Exception:  # a defect must not end the server or this player
                    log.exception("lobby request failed")
                    self.error("the server could not do that (its log says why)")
            if len(buffer) >= wire.MAX_CLIENT_LINE:
                self._refuse("message too long")
                return

    def _refuse(self, reason: str) -> None:
        log.warning(self.node.event_line("lobby_protocol", peer=self.identity.peer, why=reason))
        self.send(wire.encode("bye", reason=reason[:300]))
        self.close(reason)

    # ------------------------------------------------------------ sign-in

    async def _sign_in(self, name: str) -> None:
        node, identity = self.node, self.identity
        fingerprint = identity.fingerprint
        if fingerprint is not None:
            reason = await node.store.banned("key", fingerprint)
            if reason is not None:
                self._refuse(f"this key is banned from the server: {reason}")
                return
        same_address = sum(1 for p in node.players.values() if p.peer == identity.peer)
        if same_address >= node.max_sessions_per_address():
            self._refuse("too many players from your address are online")
            return
        if fingerprint is None:
            guest_id = node.new_guest_id()
            self._enter(None, f"guest{guest_id[1:].split('@')[0]}", guest_id)
            return
        account = await node.store.account_for_key(fingerprint)
        if account is not None:
            self._enter(account, account.name, f"a{account.id}")
            return
        self._pending_name = True
        if name and name_problem(name) is None:
            await self._claim(name)
        else:
            self.send(
                wire.encode("needname", problem=name_problem(name) or "")
                if name
                else wire.encode("needname")
            )

    async def _claim(self, name: str) -> None:
        fingerprint = self.identity.fingerprint
        if fingerprint is None or not self._pending_name:
            self.error("you have a name already")
            return
        account: Account | None
        try:
            account = await self.node.store.create_account(
                name, fingerprint, datetime.now(UTC).isoformat(timespec="seconds")
            )
        except (NameRefused, NameTaken) as exc:
            self.send(wire.encode("needname", problem=str(exc)))
            return
        except KeyTaken:  # the same key signed up on another connection just now
            account = await self.node.store.account_for_key(fingerprint)
        if account is None:
            self.error("this key could not be signed in")
            return
        self._pending_name = False
        log.info(self.node.event_line("account_new", name=account.name, key=fingerprint))
        self._enter(account, account.name, f"a{account.id}")

    async def _link(self, code: str) -> None:
        """Add this connection's new key to the account that made ``code``."""
        fingerprint = self.identity.fingerprint
        if fingerprint is None or not self._pending_name:
            self.error("only a new key can be linked to an account")
            return
        account_id = self.node.take_link_code(code)
        if account_id is None:
            self.send(wire.encode("needname", problem="That link code is wrong or too old."))
            return
        try:
            await self.node.store.link_key(
                account_id, fingerprint, datetime.now(UTC).isoformat(timespec="seconds")
            )
        except KeyTaken:
            self.error("this key already belongs to an account")
            return
        account = await self.node.store.account_for_key(fingerprint)
        if account is None:
            self.error("this key could not be linked")
            return
        log.info(self.node.event_line("key_linked", name=account.name, key=fingerprint))
        self._enter(account, account.name, f"a{account.id}")

    def _enter(self, account: Account | None, name: str, player_id: str) -> None:
        fingerprint = self.identity.fingerprint
        self.player = Player(
            id=player_id,
            name=name,
            account=account,
            fingerprint=fingerprint,
            peer=self.identity.peer,
            send=self.send,
            close=self.close,
            admin=fingerprint is not None and fingerprint in self.node.admins,
        )
        self.gate.player_id = player_id
        self._pending_name = False
        asyncio.get_running_loop().create_task(self._welcome(self.player))

    async def _welcome(self, player: Player) -> None:
        ratings = await self.node.rating_words(player.account)
        self.send(wire.encode("welcome", guest=player.guest, name=player.name, ratings=ratings))
        self.node.enter_lobby(player)
        self.send(self.node.lobby_message())

    # ------------------------------------------------------------ requests

    async def _handle(self, msg: dict[str, Any]) -> None:
        kind = msg["t"]
        if kind == "ping":
            self.send(wire.encode("pong", t0=msg["t0"], tc=time.monotonic()))
            return
        if kind == "bye":
            self.close("left")
            return
        if kind in ("pong", "error", "hello"):
            return
        if kind == "claim":
            await self._claim(msg["name"])
            return
        if kind == "link":
            await self._link(msg["code"])
            return
        player = self.player
        if player is None:
            self.error("choose a name first")
            return
        node = self.node
        problem: str | None = None
        if kind == "queue":
            problem = await node.join_queue(player, msg["mode"], msg.get("bot_after"))
            if problem is None:
                self.send(wire.encode("queued", mode=msg["mode"]))
        elif kind == "newlink":
            if player.account is None:
                problem = "a guest has no account to link a key to"
            else:
                code = node.new_link_code(player.account)
                self.send(wire.encode("linkcode", code=code, minutes=LINK_MINUTES))
        elif kind == "unqueue":
            node.leave_queue(player)
            self.send(wire.encode("unqueued"))
        elif kind == "challenge":
            problem = node.challenge(player, msg["name"], msg["mode"])
            if problem is None:
                self.send(wire.encode("info", text=f"Challenge sent to {msg['name'][:40]}."))
        elif kind == "answer":
            problem = await node.answer(player, msg["id"], msg["accept"])
        elif kind == "room":
            problem = _mode_problem(msg["mode"])
            if problem is None:
                code = node.new_room(player, msg["mode"])
                self.send(wire.encode("roomcode", code=code, mode=msg["mode"]))
        elif kind == "enter":
            problem = await node.enter_room(player, msg["code"])
        elif kind == "watch":
            notice = node.watch_notice(msg["match"], player)
            if notice is None:
                problem = node.where_is(msg["match"])
            elif notice:
                self.send(wire.encode("matched", **{k: v for k, v in notice.items() if k != "t"}))
        elif kind == "delays":
            player.delays = {
                str(k)[:64]: float(v)
                for k, v in list(msg["ms"].items())[:20]
                if isinstance(v, int | float) and 0 <= v < 60_000
            }
        elif kind == "board":
            self.send(await node.standings(msg["mode"], player))
        elif kind == "daily":
            self.send(await node.daily(player, msg["mode"], bool(msg.get("play", False))))
        elif kind == "games":
            await self._games(player)
        elif kind == "fetch":
            await self._fetch(player, msg["id"])
        elif kind == "admin":
            if not player.admin:
                log.warning(node.event_line("admin_refused", player=player.name))
                problem = "only the server's admins may do that"
            else:
                lines = await node.admin(player, msg["cmd"], msg.get("arg", ""))
                self.send(wire.encode("adminout", lines=lines[:200]))
        if problem:
            self.error(problem)

    async def _games(self, player: Player) -> None:
        if player.account is None:
            self.send(wire.encode("gamelist", rows=[]))
            return
        rows = [
            [m.id, m.mode, m.names[0], m.names[1], m.winner, m.rated, m.ended]
            for m in await self.node.store.matches_of(player.account.id, 50)
        ]
        self.send(wire.encode("gamelist", rows=rows))

    async def _fetch(self, player: Player, match_id: int) -> None:
        raw = None
        if player.account is not None:
            raw = await self.node.store.replay_of(match_id, player.account.id)
        if raw is None:
            self.error("no game of yours has that number")
            return
        self.send(wire.encode("replayfile", id=match_id, data=json.loads(raw)))


def _mode_problem(mode: str) -> str | None:
    return None if mode in mode_names() else f"unknown mode {mode[:10]!r}"
