"""One ``spit server`` node: an SSH listener, the lobby, and every match it runs.

Who is who comes from SSH: a player's public key is their account (its SHA256
fingerprint is the account's key), the user name ``guest`` lets anyone in
without a key to play unrated, and the user ``door`` is how the plain-ssh
door's own game process comes back in for the player it serves. A connection
opens one of three kinds of session:

- the ``spit-lobby`` subsystem (``spit online``): lobby messages
  (``spit.net.lobbywire``);
- a ``spit:<match>`` subsystem: one match, served by that match's ``Host``
  exactly as ``spit host`` serves its guests (press stamps, the hold window,
  hidden cards never sent);
- a shell with a terminal (plain ``ssh``): the door (``spit.server.door``) runs
  the game's screens in a process of their own for that connection.

Matches are the existing authoritative host (``spit.net.host.Host``) without
a listener of its own, many per process. Results, ratings and replays go to
the store. Log lines are ``event=… key=value`` so they can be searched.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import signal
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import asyncssh

from spit import __version__
from spit.bots.anchors import ANCHORS
from spit.bots.reaction import Reaction
from spit.engine import get_mode, mode_names
from spit.net import defaults
from spit.net import lobbywire as wire
from spit.net import protocol as proto
from spit.net.codes import key_fingerprint, load_or_make_host_key
from spit.net.host import CIPHERS, Host, Limits
from spit.net.resume import CheckpointError, TailMark, extend_checkpoint
from spit.net.runner import host_game
from spit.realtime.arbiter import Timing
from spit.server.backends import open_store
from spit.server.bus import Bus, NodeSnapshot, QueueEntry, open_bus
from spit.server.daily import DEFAULT_DAILY_LEVEL, challenge_for
from spit.server.door import let_doors_end, resident_mb, run_door
from spit.server.loadstats import LoadStats, StatusFile
from spit.server.lobby import LINK_MINUTES, LobbySession, Player
from spit.server.pairing import WAVE_SECONDS, PairingRules, Waiting, nearest_level, run_wave
from spit.server.placement import choose_node
from spit.server.store import (
    Account,
    MatchRecord,
    MovedElsewhere,
    PlayerRating,
    RatingRules,
    ServerStore,
    Side,
    StoreError,
)
from spit.server.tuning import Slices

log = logging.getLogger("spit.server")

#: The port ``spit server`` listens on unless told otherwise.
DEFAULT_SERVER_PORT = defaults.DEFAULT_SERVER_PORT
#: Room codes: easy to read aloud (no 0/O, 1/I/L).
ROOM_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: Seconds between a server match's pings to each player once their clock is measured:
#: four times fewer than ``spit host``'s (``Limits.ping_every``). The pings and their
#: answers were about a third of a loaded server's SSH packets; the press stamps read
#: the same 128 kept pings, which then span about two minutes instead of half of one
#: (docs/server.md: what that costs in fairness).
SERVER_PING_EVERY = 1.0


def event(kind: str, /, **fields: object) -> str:
    """One structured log line: ``event=KIND key=value …`` (values quoted if they need it)."""
    parts = [f"event={kind}"]
    for key, value in fields.items():
        text = str(value)
        if not text or any(c.isspace() or c in '"=' for c in text):
            text = json.dumps(text)
        parts.append(f"{key}={text}")
    return " ".join(parts)


@dataclass(slots=True)
class ServerSettings:
    """What an operator may set (``spit server`` options and the defaults)."""

    data_dir: Path
    #: the store: None for the SQLite file in the data directory, or "postgresql://…"
    store_url: str | None = None
    #: the bus shared with other nodes: None for this node alone, or "redis://…"
    bus_url: str | None = None
    #: the bus's key prefix (servers sharing one Redis keep apart by it)
    bus_prefix: str = "spit:"
    #: this node's name among the nodes (default: its address)
    node_id: str | None = None
    #: where players reach this node, HOST:PORT (default: the bind address and port)
    public_address: str | None = None
    bind: str = "127.0.0.1"
    port: int = DEFAULT_SERVER_PORT
    wave_seconds: float = WAVE_SECONDS
    grace: float = 15.0  #: seconds before a computer holds a dropped player's seat
    rejoin: float = 60.0  #: seconds a dropped player may come back in
    #: seconds between two rounds of checkpoints (each running match with a new move in
    #: it, all in one transaction). Alone, at most this much play is lost when the node
    #: dies; None: 1 s with other nodes to carry matches on (a shared bus), 5 s alone (for a
    #: restart after a crash: each checkpoint rebuilds the match's save on the loop)
    #: (with a shared bus the tail on the bus keeps each tick between two checkpoints)
    checkpoint_seconds: float | None = None
    #: with a shared bus, the most seconds a tick's messages wait for its actions to be
    #: kept on the bus (``Host.hold_output``); a slower bus is logged, the game goes on
    tail_wait: float = 0.05
    #: seconds a dealt match waits for both players to come before it is called off
    no_show: float = 30.0
    #: seconds a match whose owner was never seen on the bus waits before another node
    #: resumes it (an owner seen and then gone is dead once its snapshot runs out)
    orphan_seconds: float = 10.0
    daily_level: str = DEFAULT_DAILY_LEVEL
    rating: RatingRules = field(default_factory=RatingRules)
    pairing: PairingRules = field(default_factory=PairingRules)
    #: a game in which a computer held a seat for a while still counts for that seat's player
    rate_held_games: bool = True
    max_connections: int = 600
    max_preauth_per_address: int = 8
    login_timeout: float = 10.0
    max_sessions_per_key: int = 3
    max_sessions_per_address: int = 20
    idle_timeout: float = 1800.0
    door: bool = True  #: offer the plain-ssh door
    max_doors: int = 40
    doors_per_address: int = 4
    #: seconds a spectator's view lags the game (0: live)
    spectator_delay: float = 0.0
    #: the optional rules every match of a mode is played with, e.g. {"spit": ("V3",)}
    variants: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: the matches' timers (None: a local game's defaults); tests make them short
    timing: Timing | None = None
    #: how fast a computer holding a seat (or an opponent from the queue) reacts (None: its level)
    bot_reaction: Reaction | None = None
    #: seconds between a match's pings to each player once the clock estimate settled
    #: (``SERVER_PING_EVERY``; fewer pings cost less but follow a changing link more slowly)
    ping_every: float = SERVER_PING_EVERY

    @property
    def store_path(self) -> Path:
        """The embedded database."""
        return self.data_dir / "server.db"

    @property
    def host_key_path(self) -> Path:
        """The server's SSH host key."""
        return self.data_dir / "host_key"

    @property
    def admins_path(self) -> Path:
        """One OpenSSH public key per line: the admins."""
        return self.data_dir / "admins"

    @property
    def status_path(self) -> Path:
        """What ``spit server --status`` reads."""
        return self.data_dir / "status.json"

    @property
    def drain_path(self) -> Path:
        """While this file exists the node takes no new matches (``spit server --drain``)."""
        return self.data_dir / "drain"


#: Running matches whose checkpoints one transaction of a checkpoint round brings up
#: to date (a round of 80-200 in one held the store's write lock for up to 1.6 s under load).
CHECKPOINT_CHUNK = 32
#: New matches of one wave whose first checkpoints are written together (the first
#: batch's players are told after this many deals, not after the whole wave's).
DEAL_BATCH = 16


def _now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def fingerprint_of(key: asyncssh.SSHKey) -> str:
    """An SSH public key's account key: its SHA256 fingerprint as OpenSSH prints it."""
    return str(key.get_fingerprint("sha256"))


# ---------------------------------------------------------------- identity


@dataclass(slots=True)
class Identity:
    """Who a connection is: a key (an account, or one to be made), or a guest."""

    peer: str
    username: str = ""
    fingerprint: str | None = None
    guest: bool = False
    #: the door's token this connection signed in with (its player's identity)
    door_for: Identity | None = None


class _Gate(asyncssh.SSHServer):
    """One SSH connection's sign-in."""

    def __init__(self, node: ServerNode) -> None:
        self.node = node
        self.identity = Identity("?")
        self.conn: asyncssh.SSHServerConnection | None = None
        self.authenticated = False
        #: the lobby player of this connection, once its lobby session signed in
        self.player_id: str | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.identity.peer = str(peer[0]) if peer else "?"
        problem = self.node.admit(self)
        if problem:
            log.warning(event("refused", peer=self.identity.peer, why=problem))
            conn.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self.node.forget(self)

    async def begin_auth(self, username: str) -> bool:
        self.identity.fingerprint = None
        self.identity.username = username
        reason = await self.node.store.banned("address", self.identity.peer)
        if reason is not None:
            log.warning(event("banned", peer=self.identity.peer, why=reason))
            if self.conn is not None:
                self.conn.close()
            return True
        if username == "guest":
            self.identity.guest = True
            return False  # no sign-in needed: an unrated guest
        return True

    def password_auth_supported(self) -> bool:
        return self.identity.username == "door"

    def validate_password(self, username: str, password: str) -> bool:
        if username != "door":
            return False
        player = self.node.take_door_token(password)
        if player is None:
            log.warning(event("door_token_refused", peer=self.identity.peer))
            return False
        self.identity.door_for = player
        return True

    def public_key_auth_supported(self) -> bool:
        return self.identity.username not in ("guest", "door")

    def kbdint_auth_supported(self) -> bool:
        # After its keys, a plain ssh client asks this: without a key, play as a guest.
        return self.identity.username not in ("guest", "door")

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        self.identity.fingerprint = None
        self.identity.guest = True
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        # Called for a probe and again for the signed request; asyncssh checks the
        # signature after this returns, and only the last key checked can succeed.
        self.identity.fingerprint = fingerprint_of(key)
        return True

    def auth_completed(self) -> None:
        self.authenticated = True
        self.node.signed_in(self)

    def effective(self) -> Identity:
        """The player this connection acts for (the door's player for a door process)."""
        return self.identity.door_for or self.identity


@dataclass(eq=False, slots=True)
class Seated:
    """A player sitting down to a match, wherever their lobby is."""

    id: str  #: the player's id ("a<account>" or a guest's)
    name: str
    account: int | None
    node: str  #: the node the player's lobby is on

    @classmethod
    def of(cls, player: Player, node: str) -> Seated:
        """A lobby player of ``node``."""
        account = None if player.account is None else player.account.id
        return cls(player.id, player.name, account, node)

    def to_json(self) -> dict[str, Any]:
        """As the host command carries it."""
        return {"player": self.id, "name": self.name, "account": self.account, "node": self.node}

    @classmethod
    def from_json(cls, data: Any) -> Seated | str:
        """A side of a host command: a player, or a computer level (a str)."""
        if isinstance(data, dict) and "bot" in data:
            return str(data["bot"])[:20]
        account = data["account"]
        return cls(
            str(data["player"])[:80],
            str(data["name"])[:40],
            None if account is None else int(account),
            str(data["node"])[:64],
        )


@dataclass(slots=True)
class ServerMatch:
    """A match the node runs: its host, who sits where, and how it ends."""

    id: str
    mode: str
    host: Host
    seats: tuple[str | None, str | None]  #: player ids (None: a computer)
    names: tuple[str, str]
    accounts: tuple[int | None, int | None]
    bots: tuple[str | None, str | None]
    rated: bool
    daily: str | None  #: the day of a daily attempt
    started: str
    started_at: float
    task: asyncio.Task[None] | None = None
    #: [seat, from, to] spans of game time a computer held a player's seat
    held: list[list[float | int | None]] = field(default_factory=list)
    #: a move was applied since the last checkpoint
    dirty: bool = False
    #: True once another node took the match over (this one keeps nothing of its end)
    moved: bool = False
    #: the node each seat's player is in the lobby on (None: a computer)
    homes: tuple[str | None, str | None] = (None, None)
    #: each seat's secret: a client that opens ``spit:<match>/<token>`` plays that seat
    tokens: tuple[str, str] = ("", "")
    #: how far the tail on the bus has got (what the game gained since its checkpoint)
    tail: TailMark = field(default_factory=TailMark)
    #: the tail's entries on the bus that no checkpoint holds yet
    tail_seqs: list[int] = field(default_factory=list)

    def seat_of(self, player_id: str) -> int | None:
        """The seat ``player_id`` sits in, if any."""
        for number, who in enumerate(self.seats):
            if who == player_id:
                return number
        return None


class ServerNode:
    """The server: listener, lobby, pairing waves, matches, store."""

    def __init__(
        self,
        settings: ServerSettings,
        store: ServerStore | None = None,
        bus: Bus | None = None,
        clock: Callable[[], float] = time.monotonic,
        today: Callable[[], date] = lambda: datetime.now(UTC).date(),
    ) -> None:
        self.settings = settings
        self.clock = clock
        self.today = today
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        os.chmod(settings.data_dir, 0o700)
        self.store: ServerStore = store or open_store(settings.store_url or settings.store_path)
        self.bus: Bus = bus or open_bus(settings.bus_url, settings.bus_prefix)
        #: the other nodes as the bus last showed them
        self.cluster: list[NodeSnapshot] = []
        #: no new matches: running ones finish (``spit server --drain``)
        self.draining = False
        self.key = load_or_make_host_key(settings.host_key_path)
        self.admins = _read_admins(settings.admins_path)
        self.players: dict[str, Player] = {}
        self.queue: dict[str, Waiting] = {}
        #: the (rating, deviation) per mode of the accounts signed in here, as last read
        #: (at sign-in and after each of their matches): a queue request needs no store
        #: read, which waited hundreds of ms behind a burst of sign-ins (and missed a wave)
        self._ratings: dict[int, dict[str, tuple[float, float]]] = {}
        #: how many times each account's ratings were found changed elsewhere (a read
        #: under way meanwhile is not kept)
        self._rated_elsewhere: dict[int, int] = {}
        self.matches: dict[str, ServerMatch] = {}
        #: the rooms this node's players opened: code -> (player id, mode) (the bus has them all)
        self.rooms: dict[str, tuple[str, str]] = {}
        #: challenges to this node's players: id -> (challenger, their delays, to, mode)
        self.challenges: dict[int, tuple[Seated, dict[str, float], str, str]] = {}
        self._gates: set[_Gate] = set()
        self._preauth: dict[str, int] = {}
        self._door_tokens: dict[str, tuple[Identity, float]] = {}
        self._link_codes: dict[str, tuple[int, float]] = {}
        self._guests = 0
        self._challenge_ids = 0
        self._server: asyncssh.SSHAcceptor | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._lobby_dirty = asyncio.Event()
        self._closing = False
        self.started_at = time.time()
        #: this node process among the nodes (a restarted node is a new owner of its matches)
        self.owner = ""
        #: checkpoints written since start (``--status``)
        self.checkpoint_writes = 0
        #: every node process this node has seen on the bus (one gone from it has died)
        self._owners_seen: set[str] = set()
        #: every match's timer lateness and every quick-pair wait (the status's figures)
        self.load = LoadStats(clock())
        self._status_file = StatusFile(settings.status_path)
        #: plain-ssh sessions running now, and each one's game process -> its terminal
        self.open_doors = 0
        self.doors: dict[int, int] = {}
        #: the address of each running door's player (one entry per door)
        self.door_peers: list[str] = []

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> int:
        """Open the store and listen; returns the port (useful with port 0)."""
        await self.store.open()
        await self.bus.open()
        self._server = await asyncssh.create_server(
            lambda: _Gate(self),
            self.settings.bind,
            self.settings.port,
            server_host_keys=[self.key],
            encryption_algs=list(CIPHERS),
            process_factory=self._session,
            encoding=None,
            allow_scp=False,
            agent_forwarding=False,
            x11_forwarding=False,
            line_editor=False,
            login_timeout=self.settings.login_timeout,
            keepalive_interval=15,
            keepalive_count_max=4,
        )
        self.settings.port = self._server.get_port() or self.settings.port
        self.owner = f"{self.node_id}/{secrets.token_hex(4)}"
        jobs = (self._waves(), self._lobby_pusher(), self._status_writer(), self._share())
        for job in (*jobs, self._inbox(), self._adopt_orphans(), self._checkpoint_writer()):
            self._spawn(job)
        log.info(event("listening", bind=self.settings.bind, port=self.settings.port))
        return self.settings.port

    def _spawn(self, job: Any) -> asyncio.Task[Any]:
        task = asyncio.create_task(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def install_signal_handlers(self, stop: asyncio.Event) -> None:
        """SIGTERM and SIGINT set ``stop`` (``spit server`` then shuts down cleanly)."""
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, stop.set)

    async def shutdown(self, reason: str = "the server is shutting down") -> int:
        """Save every running match, tell everyone, close; returns how many were saved."""
        self._closing = True
        saved = 0
        # with other nodes up, each running match carries on on one of them (they adopt
        # its checkpoint once this node has left the bus); alone, it is kept unfinished
        others = [c for c in self.cluster if c.node != self.node_id and not c.draining]
        for match in list(self.matches.values()):
            if others and not match.host.game.over:
                await self._keep_checkpoint(match)
                match.moved = True
                text = "This server node is restarting: your match carries on on another node."
                why = f"{reason}: another node carries the match on"
                log.info(event("match_handed_over", match=match.id))
            else:
                if await self._checkpoint(match):
                    saved += 1
                text = "The server is restarting: your match was saved."
                why = f"{reason}; the match was saved"
            for seat, player_id in enumerate(match.seats):
                if player_id is not None:
                    await self.tell(match.homes[seat], player_id, {"t": "info", "text": text})
            await match.host.close(why)
            if match.task is not None:
                match.task.cancel()
        for player in list(self.players.values()):
            # with other nodes up, a client signs in again on one of them by itself
            player.send(wire.encode("bye", reason=reason, again=bool(others)))
            player.close(reason)
        await let_doors_end(self)
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
        for task in list(self._tasks):
            task.cancel()
        for gate in list(self._gates):
            if gate.conn is not None:
                gate.conn.close()
        deadline = self.clock() + 5.0  # the doors' game processes end on their hang-up
        while (self.doors or self.open_doors) and self.clock() < deadline:
            await asyncio.sleep(0.05)
        with contextlib.suppress(OSError):
            self._write_status(stopped=True)
        await self.store.close()
        with contextlib.suppress(Exception):
            await self.bus.withdraw(self.node_id)
        await self.bus.close()
        log.info(event("stopped", saved_matches=saved))
        return saved

    async def _checkpoint(self, match: ServerMatch) -> bool:
        """Keep an unfinished match in the store (config, seed, the moves so far)."""
        game = match.host.game
        if game.over or not match.host.match.started:
            return False
        data = match.host.replay_data()
        data["server"] = {"match": match.id, "held": match.held, "unfinished": True}
        record = MatchRecord(
            mode=match.mode,
            sides=self._sides(match),
            winner=None,
            rated=False,
            started=match.started,
            ended=_now_iso(),
            replay=json.dumps(data, separators=(",", ":")),
        )
        try:
            await self.store.record_match(record, checkpoint=(match.id, self.owner))
        except (StoreError, OSError) as exc:
            log.error(event("checkpoint_failed", match=match.id, why=exc))
            return False
        log.info(event("match_saved", match=match.id))
        return True

    # ------------------------------------------------------------ connections

    def admit(self, gate: _Gate) -> str | None:
        """Whether a new TCP connection may go on to sign in (None) or why not."""
        if self._closing:
            return "shutting down"
        if len(self._gates) >= self.settings.max_connections:
            return "too many connections"
        peer = gate.identity.peer
        if self._preauth.get(peer, 0) >= self.settings.max_preauth_per_address:
            return "too many sign-ins at once from this address"
        self._gates.add(gate)
        self._preauth[peer] = self._preauth.get(peer, 0) + 1
        return None

    def signed_in(self, gate: _Gate) -> None:
        """A connection finished signing in: it no longer counts as pending."""
        self._release_preauth(gate.identity.peer)

    def forget(self, gate: _Gate) -> None:
        """A connection closed."""
        if gate in self._gates:
            self._gates.discard(gate)
            if not gate.authenticated:
                self._release_preauth(gate.identity.peer)

    def _release_preauth(self, peer: str) -> None:
        left = self._preauth.get(peer, 0) - 1
        if left > 0:
            self._preauth[peer] = left
        else:
            self._preauth.pop(peer, None)

    def door_token(self, identity: Identity) -> str:
        """A one-time password with which the door's process signs in as ``identity``."""
        token = secrets.token_urlsafe(24)
        self._door_tokens[token] = (identity, self.clock() + 30.0)
        return token

    def take_door_token(self, token: str) -> Identity | None:
        """The identity a door token stands for (once; expired tokens stand for nobody)."""
        now = self.clock()
        for stale in [t for t, (_, until) in self._door_tokens.items() if until < now]:
            del self._door_tokens[stale]
        entry = self._door_tokens.pop(token, None)
        return entry[0] if entry else None

    async def _session(self, process: asyncssh.SSHServerProcess[bytes]) -> None:
        gate = process.channel.get_connection().get_owner()
        if not isinstance(gate, _Gate):
            process.exit(1)
            return
        subsystem = process.subsystem
        try:
            if subsystem == wire.LOBBY_SUBSYSTEM:
                await LobbySession(self, gate, process).run()
            elif subsystem and subsystem.startswith(wire.MATCH_SUBSYSTEM_PREFIX):
                await self._match_session(gate, process, subsystem)
            elif subsystem is None and process.get_terminal_type() and self.settings.door:
                await run_door(self, gate, process)
            else:
                process.stdout.write(
                    b"This is a spit server. Play with `spit online HOST`, or `ssh -t` for "
                    b"the game in this terminal.\r\n"
                )
                process.exit(1)
        except (asyncssh.Error, OSError, asyncio.IncompleteReadError) as exc:
            log.info(event("session_error", peer=gate.identity.peer, why=exc))
        finally:
            with contextlib.suppress(Exception):
                process.exit(0)

    async def _match_session(
        self, gate: _Gate, process: asyncssh.SSHServerProcess[bytes], subsystem: str
    ) -> None:
        match_id, _, token = subsystem.removeprefix(wire.MATCH_SUBSYSTEM_PREFIX).partition("/")
        match = self.matches.get(match_id)
        who = self._player_for(gate)
        if match is None:
            process.stdout.write(proto.encode("error", reason="that match is over or unknown"))
            return
        seat = match.seat_of(who.id) if who is not None else None
        if token:
            # a seat's token plays that seat whoever signed in (a player sent here by another
            # node); a wrong one only watches
            seat = next(
                (n for n, t in enumerate(match.tokens) if secrets.compare_digest(t, token)), None
            )
            if seat is None:
                log.warning(event("bad_seat_token", match=match_id, peer=gate.identity.peer))
        if seat is None:
            grant: tuple[str, int | None] = ("watch", None)
            log.info(event("watch", match=match_id, peer=gate.identity.peer))
        else:
            grant = ("play", seat)
        await match.host.serve(process, grant, gate.identity.peer, takes_back=seat is not None)

    def _player_for(self, gate: _Gate) -> Player | None:
        """The lobby player whose connection this is (the lobby session is opened first)."""
        return self.players.get(gate.player_id or "")

    # ------------------------------------------------------------ lobby

    def event_line(self, kind: str, /, **fields: object) -> str:
        """A structured log line (``event``), for the sessions."""
        return event(kind, **fields)

    def where_is(self, match_id: str) -> str:
        """Why a match cannot be watched: it is over or unknown."""
        return "that match is over or unknown"

    def watch_notice(self, match_id: str, player: Player | None = None) -> dict[str, Any] | None:
        """The "matched" message that lets a watcher in (on this node or the one hosting it).

        A ``player`` who plays in that match is sent back to their own seat instead: a
        player who watched their own match would see it as a spectator and play nothing.
        None: no such match; an empty dict: the seat's own notice follows from the node
        that hosts the match.
        """
        match = self.matches.get(match_id)
        if match is not None:
            seat = None if player is None else match.seat_of(player.id)
            return self.matched_notice(match, seat)
        if player is not None and player.match == match_id:
            self._spawn(self._send_back(player))
            return {}  # the seat's own notice comes from the node that hosts it
        for other in self.cluster:
            if other.node == self.node_id:
                continue
            for m in other.matches:
                if m["id"] == match_id:
                    return {
                        "t": "matched",
                        "match": match_id,
                        "seat": None,
                        "mode": m["mode"],
                        "names": list(m["names"]),
                        "address": other.address,
                        "pin": other.key,
                    }
        return None

    def door_port(self) -> int:
        """The port the door's game processes sign back in on."""
        return self.settings.port

    def max_doors(self) -> int:
        """How many plain-ssh sessions may run at once."""
        return self.settings.max_doors

    def doors_per_address(self) -> int:
        """How many plain-ssh sessions one address may hold."""
        return self.settings.doors_per_address

    def max_sessions_per_address(self) -> int:
        """How many lobby sessions one address may hold."""
        return self.settings.max_sessions_per_address

    def idle_timeout(self) -> float:
        """Seconds a lobby session may stay silent."""
        return self.settings.idle_timeout

    def leave_queue(self, player: Player) -> bool:
        """Take ``player`` out of the quick-pair queue; False if they were not in it."""
        gone = self.queue.pop(player.id, None) is not None
        self._spawn(self._bus_quietly(self.bus.dequeue(player.id)))
        if gone:
            self.lobby_changed()
        return gone

    async def standings(self, mode: str, player: Player | None = None) -> bytes:
        """The leaderboard of ``mode``, and where ``player`` stands (ranked or not yet)."""
        problem = self.check_mode(mode)
        if problem:
            return wire.encode("error", reason=problem)
        rules = self.settings.rating
        board = await self.store.leaderboard(mode, _now_iso(), rules)
        rows = [
            [s.name, round(s.rating.rating.rating), round(s.rating.rating.rd), s.rating.games]
            for s in board
        ]
        fields: dict[str, Any] = {}
        if player is not None and player.account is not None:
            mine = await self.store.rating(player.account.id, mode)
            place = next((i for i, s in enumerate(board) if s.name == player.name), None)
            fields["me"] = _standing_words(mine, rules, place)
        return wire.encode("standings", mode=mode, rows=rows, **fields)

    async def admin(self, player: Player, cmd: str, arg: str) -> list[str]:
        """An admin's command: ``list``, ``kick NAME``, ``ban KIND VALUE``, ``unban KIND VALUE``."""
        log.warning(event("admin", by=player.name, cmd=cmd, arg=arg[:80]))
        words = arg.split()
        if cmd == "list":
            return [
                f"{p.name}  {p.peer}  {p.fingerprint or 'guest'}"
                + (f"  in match {p.match}" if p.match else "")
                for p in sorted(self.players.values(), key=lambda p: p.name)
            ]
        if cmd == "kick" and words:
            target = self._named(words[0])
            if target is None:
                return [f"nobody called {words[0]} is online"]
            target.send(wire.encode("bye", reason="an admin removed you from the server"))
            target.close("kicked")
            return [f"kicked {target.name}"]
        if cmd in ("ban", "unban") and len(words) >= 2:
            kind, value = words[0], words[1]
            if kind == "name":
                target = self._named(value)
                if target is None or target.fingerprint is None:
                    return [f"nobody called {value} is online with a key"]
                kind, value = "key", target.fingerprint
            if kind not in ("key", "address"):
                return ["ban what? key FINGERPRINT, address ADDRESS or name NAME"]
            if cmd == "unban":
                done = await self.store.unban(kind, value)
                return [f"unbanned {kind} {value}" if done else f"{kind} {value} was not banned"]
            reason = " ".join(words[2:]) or "banned by an admin"
            await self.store.ban(kind, value, reason, _now_iso())
            for other in list(self.players.values()):
                if (kind == "key" and other.fingerprint == value) or (
                    kind == "address" and other.peer == value
                ):
                    other.send(wire.encode("bye", reason=f"you are banned: {reason}"))
                    other.close("banned")
            return [f"banned {kind} {value}"]
        return [
            "commands: list, kick NAME, ban key|address|name VALUE [REASON],"
            " unban key|address VALUE"
        ]

    def _named(self, name: str) -> Player | None:
        return next(
            (p for p in self.players.values() if p.name.casefold() == name.casefold()), None
        )

    def lobby_changed(self) -> None:
        """Something the lobby shows changed: push it soon (at most every half second)."""
        self._lobby_dirty.set()

    def lobby_message(self) -> bytes:
        """What every lobby shows: who is online, the queues, the live matches."""
        queue: dict[str, int] = {}
        for entry in self.queue.values():
            queue[entry.pool] = queue.get(entry.pool, 0) + 1
        matches = [
            {"id": m.id, "mode": m.mode, "names": list(m.names)}
            for m in self.matches.values()
            if not m.host.game.over
        ]
        names = {p.name for p in self.players.values()}
        for other in self.cluster:
            if other.node != self.node_id:
                names.update(other.online)
                matches.extend(
                    {"id": m["id"], "mode": m["mode"], "names": m["names"]} for m in other.matches
                )
        online = sorted(names)[:200]
        nodes = [
            {"node": c.node, "address": c.address, "key": c.key}
            for c in self.cluster
            if not c.draining and c.node != self.node_id
        ]
        if not nodes:  # this node alone: nothing to measure
            return wire.encode("lobby", online=online, matches=matches[:100], queue=queue)
        nodes.append({"node": self.node_id, "address": self.address, "key": self.host_fingerprint})
        return wire.encode(
            "lobby", online=online, matches=matches[:100], queue=queue, nodes=nodes[:20]
        )

    @property
    def node_id(self) -> str:
        """This node's name among the nodes."""
        return self.settings.node_id or self.address

    @property
    def address(self) -> str:
        """Where players reach this node."""
        return self.settings.public_address or f"{self.settings.bind}:{self.settings.port}"

    @property
    def checkpoint_seconds(self) -> float:
        """Seconds between two rounds of checkpoints (``ServerSettings.checkpoint_seconds``)."""
        if self.settings.checkpoint_seconds is not None:
            return self.settings.checkpoint_seconds
        return 1.0 if self.settings.bus_url else 5.0

    @property
    def host_fingerprint(self) -> str:
        """The fingerprint of this node's host key as ``spit online`` clients pin it."""
        return key_fingerprint(self.key)

    def snapshot(self) -> NodeSnapshot:
        """This node as the other nodes see it."""
        return NodeSnapshot(
            node=self.node_id,
            address=self.address,
            draining=self.draining,
            key=self.host_fingerprint,
            owner=self.owner,
            online=tuple(sorted(p.name for p in self.players.values())),
            matches=tuple(
                {"id": m.id, "mode": m.mode, "names": list(m.names)}
                for m in self.matches.values()
                if not m.host.game.over
            ),
        )

    async def _share(self) -> None:
        """Every second: publish this node, read the others, notice a drain request."""
        while True:
            draining = self.settings.drain_path.exists()
            if draining != self.draining:
                self.draining = draining
                log.warning(event("draining" if draining else "drain_lifted", node=self.node_id))
            try:
                await self.bus.publish(self.snapshot())
                cluster = await self.bus.everyone()
            except (OSError, ConnectionError) as exc:
                log.warning(event("bus_unreachable", why=exc))
            else:
                self._owners_seen.update(c.owner for c in cluster if c.owner)
                if [c.online + tuple(str(m) for m in c.matches) for c in cluster] != [
                    c.online + tuple(str(m) for m in c.matches) for c in self.cluster
                ]:
                    self.lobby_changed()
                self.cluster = cluster
            await asyncio.sleep(1.0)

    async def _lobby_pusher(self) -> None:
        """The lobby's news, at most once a second, to the players in the lobby.

        A player in a match gets no lobby news until it ends (and then the latest):
        with hundreds of matches the news would cost more than the games.
        """
        told: dict[str, bytes] = {}
        while True:
            await self._lobby_dirty.wait()
            self._lobby_dirty.clear()
            data = self.lobby_message()
            slices = Slices()
            for player in list(self.players.values()):
                if player.match is None and told.get(player.id) != data:
                    player.send(data)
                    told[player.id] = data
                    await slices.pause()  # hundreds of sends: let the matches tick between
            for gone in [pid for pid in told if pid not in self.players]:
                del told[gone]
            await asyncio.sleep(1.0)

    def new_link_code(self, account: Account) -> str:
        """A one-time code with which another key joins ``account`` (ten minutes)."""
        code = "".join(secrets.choice(ROOM_ALPHABET) for _ in range(8))
        self._link_codes[code] = (account.id, self.clock() + LINK_MINUTES * 60)
        return code

    def take_link_code(self, code: str) -> int | None:
        """The account a link code stands for (once), or None."""
        entry = self._link_codes.pop(code.strip().upper(), None)
        if entry is None or entry[1] < self.clock():
            return None
        return entry[0]

    def new_guest_id(self) -> str:
        """A fresh id for a guest (unique among the nodes: it names this one)."""
        self._guests += 1
        return f"g{self._guests}@{self.node_id}"

    async def rating_words(self, account: Account | None) -> dict[str, str]:
        """The account's rating per mode as players read it ("1510?" while provisional)."""
        return await self.ratings_of(None if account is None else account.id)

    async def ratings_of(self, account: int | None) -> dict[str, str]:
        """As ``rating_words``, by the account's number."""
        if account is None:
            return {}
        out = {}
        known: dict[str, tuple[float, float]] = {}
        changes = self._rated_elsewhere.get(account, 0)
        for mode in mode_names():
            rating = await self.store.rating(account, mode)
            out[mode] = rating.shown(self.settings.rating)
            known[mode] = (rating.rating.rating, rating.rating.rd)
        if self._rated_elsewhere.get(account, 0) == changes:
            self._ratings[account] = known  # read at sign-in and after each match: current
        return out

    def enter_lobby(self, player: Player) -> None:
        """A player signed in to the lobby (a second sign-in of an account replaces the first)."""
        old = self.players.get(player.id)
        if old is not None:
            old.send(wire.encode("bye", reason="you signed in again somewhere else"))
            old.close("signed in elsewhere")
        self.players[player.id] = player
        log.info(event("lobby_in", player=player.name, peer=player.peer, guest=player.guest))
        self.lobby_changed()
        for match in self.matches.values():
            if match.seat_of(player.id) is not None and not match.host.game.over:
                self._tell_matched(player, match)
                return
        self._spawn(self._send_back(player))

    async def _send_back(self, player: Player) -> None:
        """A player signed in again while in a match on another node: send them back to it."""
        try:
            notice = await self.bus.seat_of(player.id)
        except (OSError, ConnectionError):
            return
        live = {self.address} | {c.address for c in self.cluster}
        if notice is None or self.players.get(player.id) is not player:
            return
        if notice.get("address") not in live:
            return  # its node died: the node that carries the match on will say where
        self.deliver(player.id, notice)

    def leave_lobby(self, player: Player) -> None:
        """A lobby connection closed."""
        if self.players.get(player.id) is player:
            del self.players[player.id]
            if player.account is not None:
                self._ratings.pop(player.account.id, None)
            if self.queue.pop(player.id, None) is not None:
                self._spawn(self._bus_quietly(self.bus.dequeue(player.id)))
            for code in [c for c, (who, _) in self.rooms.items() if who == player.id]:
                del self.rooms[code]
                self._spawn(self._bus_quietly(self.bus.drop_room(code)))
            log.info(event("lobby_out", player=player.name))
            self.lobby_changed()

    def check_mode(self, mode: str) -> str | None:
        """Why ``mode`` cannot be played here now, or None."""
        if self.draining:
            return "this server is about to restart and starts no new matches: try again soon"
        if mode not in mode_names():
            return f"unknown mode {mode[:10]!r}: " + ", ".join(mode_names())
        return None

    async def join_queue(self, player: Player, mode: str, bot_after: float | None) -> str | None:
        """Quick-pair ``player`` in ``mode``; returns a problem or None."""
        problem = self.check_mode(mode)
        if problem:
            return problem
        if player.match is not None:
            return "you are in a match already"
        # the wait counts from the request, not from the store's answer
        asked, asked_wall = self.clock(), time.time()
        rating = await self._rating_of(player, mode)
        wait = None if bot_after is None else max(0.0, min(bot_after, 3600.0))
        self.queue[player.id] = Waiting(player.id, mode, rating[0], rating[1], asked, wait)
        await self.bus.enqueue(
            QueueEntry(
                player.id,
                self.node_id,
                mode,
                rating[0],
                rating[1],
                asked_wall,
                wait,
                player.name,
                None if player.account is None else player.account.id,
                dict(player.delays),
            )
        )
        log.info(event("queued", player=player.name, mode=mode))
        self.lobby_changed()
        return None

    async def _rating_of(self, player: Player, mode: str) -> tuple[float, float]:
        if player.account is None:
            return (1500.0, 350.0)
        known = self._ratings.get(player.account.id, {}).get(mode)
        if known is not None:
            return known
        rating = await self.store.rating(player.account.id, mode)
        return (rating.rating.rating, rating.rating.rd)

    async def _waves(self) -> None:
        """A wave every ``wave_seconds`` on a fixed beat: a wave's own work does not
        push the next one later (one that overran a whole beat is followed at once)."""
        loop = asyncio.get_running_loop()
        due = loop.time() + self.settings.wave_seconds
        while True:
            await asyncio.sleep(max(0.0, due - loop.time()))
            await self.run_wave()
            due = max(due + self.settings.wave_seconds, loop.time())

    async def run_wave(self) -> None:
        """Pair the shared queue once, if this node holds the lead (one node at a time does).

        The waves task calls this every few seconds on every node. Each pair is
        taken out of the shared queue in one atomic step before its match is
        dealt (so nobody is in two matches, whichever node decided), and the
        match is hosted on the node the two players reach best (``choose_node``).
        """
        try:
            if not await self.bus.lead(self.node_id, self.settings.wave_seconds * 3 + 1.0):
                return
            entries = await self.bus.queued()
        except (OSError, ConnectionError) as exc:
            log.warning(event("bus_unreachable", why=exc))
            return
        if not entries:
            return
        by_id = {e.player: e for e in entries}
        now, wall = self.clock(), time.time()
        waiting = [
            Waiting(e.player, e.pool, e.rating, e.rd, now - max(0.0, wall - e.since), e.bot_after)
            for e in entries
        ]
        # A wave over hundreds of players takes tens of milliseconds: it runs off
        # the event loop (the matches' ticks go on; threads share the GIL every 5 ms).
        wave = await asyncio.to_thread(run_wave, waiting, now, self.settings.pairing, ANCHORS)
        live = self._live_nodes()
        slices = Slices()
        # the matches dealt here go in batches: each batch's first checkpoints are one
        # write (a write each, behind the checkpoint rounds, took 15-400 ms a match)
        batch: list[ServerMatch] = []
        waited: list[float] = []  # when each player of the batch asked to queue (wall)

        async def open_batch() -> None:
            await self._open(batch)
            for since in waited:
                self.load.paired(time.time() - since)  # dealt and told just now
            batch.clear()
            waited.clear()

        for a, b in wave.pairs:  # those who waited longest first
            ea, eb = by_id[a], by_id[b]
            if not await self.bus.claim((a, b)):
                continue  # one of them left the queue (or was paired) meanwhile
            homes = (ea.node, eb.node)
            where = choose_node(
                homes, (ea.delays, eb.delays), self._candidates(live, homes), self.node_id
            )
            sides = (
                Seated(a, ea.name, ea.account, ea.node),
                Seated(b, eb.name, eb.account, eb.node),
            )
            if where == self.node_id:
                batch.append(self._deal(ea.pool, sides))
                waited.extend((ea.since, eb.since))
                if len(batch) >= DEAL_BATCH:
                    await open_batch()
            else:
                await self.host_on(where, ea.pool, sides)
                self.load.paired(time.time() - ea.since)  # placed and told just now
                self.load.paired(time.time() - eb.since)
            await slices.pause()  # let the running matches tick between new ones
        if batch:
            await open_batch()
        for who, level in wave.to_bots:
            entry = by_id[who]
            if not await self.bus.claim((who,)):
                continue
            where = choose_node(
                (entry.node,), (entry.delays,), self._candidates(live, (entry.node,)), self.node_id
            )
            seated = Seated(who, entry.name, entry.account, entry.node)
            await self.host_on(where, entry.pool, (seated, level))
            self.load.paired(time.time() - entry.since)
        self.lobby_changed()

    def _live_nodes(self) -> dict[str, NodeSnapshot]:
        """The nodes that may host a new match now (this one included unless draining)."""
        live = {c.node: c for c in self.cluster if not c.draining}
        if self.draining:
            live.pop(self.node_id, None)
        else:
            live[self.node_id] = self.snapshot()
        return live

    def _candidates(
        self, live: dict[str, NodeSnapshot], homes: tuple[str, ...]
    ) -> dict[str, NodeSnapshot]:
        """``live`` and the players' own nodes (alive: they queued there; maybe not seen yet)."""
        known = {c.node for c in self.cluster} | {self.node_id}
        out = dict(live)
        for home in homes:
            if home not in out and home not in known:
                out[home] = NodeSnapshot(home, "")
        return out

    async def host_on(
        self,
        node: str,
        mode: str,
        sides: tuple[Seated | str, Seated | str],
        *,
        rated: bool | None = None,
    ) -> None:
        """Have ``node`` deal a match between ``sides`` (here at once, or through its inbox)."""
        if node == self.node_id:
            await self.start_match(mode, sides, rated=rated)
            return
        command = {
            "t": "host",
            "mode": mode,
            "sides": [{"bot": s} if isinstance(s, str) else s.to_json() for s in sides],
            "rated": rated,
        }
        log.info(event("placed", node=node, mode=mode))
        await self.bus.post(node, command)

    async def start_match(
        self,
        mode: str,
        players: tuple[Player | Seated | str, Player | Seated | str],
        *,
        seed: int | None = None,
        daily: str | None = None,
        rated: bool | None = None,
    ) -> ServerMatch:
        """Deal a match between two players, or a player and a computer level (a str).

        A player is one of this node's lobby (a ``Player``) or anyone's (a
        ``Seated``, which says where their lobby is: they are told there).
        """
        match = self._deal(mode, players, seed=seed, daily=daily, rated=rated)
        await self._open([match])
        return match

    def _deal(
        self,
        mode: str,
        players: tuple[Player | Seated | str, Player | Seated | str],
        *,
        seed: int | None = None,
        daily: str | None = None,
        rated: bool | None = None,
    ) -> ServerMatch:
        """A new match between two sides, dealt and its computers seated (not yet run)."""
        sides = (self._seated(players[0]), self._seated(players[1]))
        game = host_game(mode, self.settings.variants.get(mode, ()), seed)
        match_id = secrets.token_hex(5)
        names = tuple(s if isinstance(s, str) else s.name for s in sides)
        bots = tuple(s if isinstance(s, str) else None for s in sides)
        names = tuple(f"Computer ({n})" if b else n for n, b in zip(names, bots, strict=True))
        humans = tuple(n for n, s in enumerate(sides) if not isinstance(s, str))
        host = self._new_host(game, (names[0], names[1]), humans)
        accounts = tuple(None if isinstance(s, str) else s.account for s in sides)
        if rated is None:
            rated = all(
                (isinstance(s, str) and s in ANCHORS.get(mode, {}))
                or (not isinstance(s, str) and s.account is not None)
                for s in sides
            )
        match = ServerMatch(
            id=match_id,
            mode=mode,
            host=host,
            seats=(
                None if isinstance(sides[0], str) else sides[0].id,
                None if isinstance(sides[1], str) else sides[1].id,
            ),
            names=(names[0], names[1]),
            accounts=(accounts[0], accounts[1]),
            bots=(bots[0], bots[1]),
            rated=rated,
            daily=daily,
            started=_now_iso(),
            started_at=self.clock(),
            homes=(
                None if isinstance(sides[0], str) else sides[0].node,
                None if isinstance(sides[1], str) else sides[1].node,
            ),
            tokens=(secrets.token_urlsafe(18), secrets.token_urlsafe(18)),
        )
        for seat, side in enumerate(sides):
            if isinstance(side, str):
                host.seat_bot(seat, side)
        return match

    async def _open(self, matches: Sequence[ServerMatch]) -> None:
        """Run newly dealt ``matches`` here (their first checkpoints in one write) and
        tell their players where to connect."""
        await self._launch_all(matches)
        for match in matches:
            log.info(
                event(
                    "match_start",
                    match=match.id,
                    node=self.node_id,
                    mode=match.mode,
                    p1=match.names[0],
                    p2=match.names[1],
                    rated=match.rated,
                )
            )
            await self._seat_everyone(match)

    def _new_host(self, game: Any, names: tuple[str, str], humans: tuple[int, ...]) -> Host:
        host = Host(
            game,
            names=names,
            remote_seats=humans,
            key=self.key,
            rejoin_timeout=self.settings.rejoin,
            limits=Limits(max_connections=1 << 30, ping_every=self.settings.ping_every),
            clock=self.clock,
            timing=self.settings.timing,
            bot_reaction=self.settings.bot_reaction,
        )
        host.watch_delay = self.settings.spectator_delay
        host.stats.sink = self.load.timer_late
        return host

    async def _launch(self, match: ServerMatch) -> None:
        """Run ``match`` here: its tick loop, its checkpoints, its seat hand-backs."""
        await self._launch_all([match])

    async def _launch_all(self, matches: Sequence[ServerMatch]) -> None:
        """Run ``matches`` here; their first checkpoints are written (in one
        transaction) before play (the rounds only bring them up to date, so a match
        that ended never gets one again)."""
        for match in matches:
            self._attach(match)
        await self._keep_checkpoints_of(matches)
        for match in matches:
            match.task = self._spawn(self._run_match(match))

    def _attach(self, match: ServerMatch) -> None:
        """Hook ``match``'s host to this node (seat hand-backs, applied ticks) and list it."""

        def handed_back(seat: int) -> None:
            self._end_hold(match, seat)
            log.info(event("seat_handed_back", match=match.id, seat=seat + 1))

        match.host.on_handed_back = handed_back
        self.matches[match.id] = match

        def applied() -> None:
            match.dirty = True
            if self.keeps_tail:
                self._extend_tail(match)

        match.host.on_applied = applied
        if self.keeps_tail:
            match.tail = match.host.tail_mark()  # the tail follows the first checkpoint

    @property
    def keeps_tail(self) -> bool:
        """True with a shared bus: each applied tick is kept there before the players
        see it, so a match resumed on another node loses nothing (``spit.net.resume``)."""
        return bool(self.settings.bus_url)

    def _extend_tail(self, match: ServerMatch) -> None:
        """Keep what ``match`` gained in its last tick on the bus; the messages of that
        tick wait for the write (at most ``tail_wait`` seconds)."""
        entry, match.tail = match.host.tail_since(match.tail)
        seq = int(entry["seq"])
        match.tail_seqs.append(seq)
        write = self._spawn(self._write_tail(match, seq, entry))
        match.host.hold_output(write, self.settings.tail_wait)

    async def _drop_tail(self, match: ServerMatch) -> None:
        """The match is over (its result kept): its tail is of no more use."""
        if self.keeps_tail:
            match.tail_seqs.clear()
            await self._bus_quietly(self.bus.drop_tail(match.id, self.owner))

    async def _write_tail(self, match: ServerMatch, seq: int, entry: dict[str, Any]) -> None:
        try:
            await self.bus.keep_tail(match.id, self.owner, seq, entry)
        except Exception as exc:  # the bus's own errors too: the game goes on
            log.warning(event("tail_not_kept", match=match.id, why=exc))

    async def _seat_everyone(self, match: ServerMatch, **extra: Any) -> None:
        """Tell each player of ``match`` where to connect (through their own node)."""
        for seat, player_id in enumerate(match.seats):
            if player_id is not None:
                notice = {**self.matched_notice(match, seat), **extra}
                await self._bus_quietly(self.bus.set_seat(player_id, notice))
                await self.tell(match.homes[seat], player_id, notice)
        self.lobby_changed()

    # ------------------------------------------------------------ checkpoints

    def _checkpoint_text(self, match: ServerMatch) -> str:
        """What another node needs to carry on with ``match``: its save and who sits where."""
        server = {
            "match": match.id,
            "mode": match.mode,
            "seats": list(match.seats),
            "names": list(match.names),
            "accounts": list(match.accounts),
            "bots": list(match.bots),
            "homes": list(match.homes),
            "tokens": list(match.tokens),
            "rated": match.rated,
            "daily": match.daily,
            "started": match.started,
            "held": match.held,
        }
        replay = match.host.replay_data()
        return json.dumps({"replay": replay, "server": server}, separators=(",", ":"))

    async def _keep_checkpoint(self, match: ServerMatch) -> bool:
        """Write ``match``'s checkpoint now; False if another node took the match over."""
        return not await self._keep_checkpoints_of([match])

    async def _keep_checkpoints_of(self, matches: Sequence[ServerMatch]) -> set[str]:
        """Write these matches' checkpoints now, in one transaction; returns the ids of
        those another node took over (none written on a store error: logged)."""
        if not matches:
            return set()
        rows = [(m.id, self._checkpoint_text(m)) for m in matches]
        covered = {m.id: list(m.tail_seqs) for m in matches}
        try:
            refused = set(await self.store.put_checkpoints(self.owner, rows, _now_iso()))
        except (StoreError, OSError) as exc:
            log.error(event("checkpoint_failed", matches=len(rows), why=exc))
            return set()
        self.checkpoint_writes += len(rows) - len(refused)
        for match in matches:
            if match.id not in refused:
                await self._trim_tail(match, covered[match.id])
        return refused

    async def _trim_tail(self, match: ServerMatch, covered: list[int]) -> None:
        """A checkpoint now holds the tail entries ``covered``: drop them from the bus."""
        if not covered:
            return
        done = set(covered)
        match.tail_seqs = [s for s in match.tail_seqs if s not in done]
        try:
            await self.bus.drop_tail(match.id, self.owner, covered)
        except Exception as exc:  # left over, they expire; a resume skips what it has
            log.warning(event("tail_not_trimmed", match=match.id, why=exc))

    async def _checkpoint_writer(self) -> None:
        """Checkpoint the running matches as they go: every ``checkpoint_seconds``, each
        match that applied a move since (``Host.on_applied``), ``CHECKPOINT_CHUNK``
        matches a transaction (a wave's new matches wait for the store's write lock
        no longer than one of them)."""
        while True:
            await asyncio.sleep(self.checkpoint_seconds)
            due = [m for m in self.matches.values() if m.dirty and not m.host.match.finished]
            if not due:
                continue
            rows = []
            covered: dict[str, list[int]] = {}
            for match in due:
                match.dirty = False
                covered[match.id] = list(match.tail_seqs)
                rows.append((match.id, self._checkpoint_text(match)))
                await asyncio.sleep(0)  # the matches tick between two checkpoints
            refused: list[str] = []
            written: list[ServerMatch] = []
            for start in range(0, len(rows), CHECKPOINT_CHUNK):
                chunk = due[start : start + CHECKPOINT_CHUNK]
                try:
                    refused += await self.store.keep_checkpoints(
                        self.owner, rows[start : start + CHECKPOINT_CHUNK], _now_iso()
                    )
                except (StoreError, OSError) as exc:
                    log.error(event("checkpoint_failed", matches=len(chunk), why=exc))
                    for match in chunk:
                        match.dirty = True
                    continue
                written += chunk
            self.checkpoint_writes += len(written) - len(refused)
            for match in written:
                if match.id not in refused:
                    await self._trim_tail(match, covered[match.id])
            for match_id in refused:
                moved = self.matches.get(match_id)
                if moved is not None:
                    log.warning(event("match_moved", match=match_id))
                    moved.moved = True
                    await moved.host.close("the match moved to another node of the server")

    async def _adopt_orphans(self) -> None:
        """Carry on with the matches of a node process that died (every node looks)."""
        seen_since: dict[str, float] = {}
        while True:
            await asyncio.sleep(1.0)
            if self.draining or self._closing:
                continue
            try:
                owners = await self.store.checkpoint_owners()
            except (StoreError, OSError) as exc:
                log.warning(event("store_unreachable", why=exc))
                continue
            alive = {c.owner for c in self.cluster} | {self.owner}
            now = self.clock()
            orphans = {m: o for m, o in owners.items() if o not in alive and m not in self.matches}
            for gone in [m for m in seen_since if m not in orphans]:
                del seen_since[gone]
            for match_id, owner in orphans.items():
                # an owner seen on the bus whose snapshot ran out is dead; one never seen
                # (this node started after it died, or it has not published yet) must
                # stay missing for a while first
                first = seen_since.setdefault(match_id, now)
                if owner in self._owners_seen or now - first >= self.settings.orphan_seconds:
                    await self.resume(match_id, owner)
                    seen_since.pop(match_id, None)

    async def resume(self, match_id: str, owner: str) -> ServerMatch | None:
        """Take ``match_id`` over from ``owner`` (gone) and carry on from its checkpoint."""
        text = await self.store.take_checkpoint(match_id, owner, self.owner)
        if text is None:
            return None  # another node took it first
        text, tail = await self._with_tail(match_id, owner, text)
        try:
            match = self._match_from_checkpoint(text)
        except (ValueError, KeyError, TypeError, IndexError) as exc:  # CheckpointError too
            log.error(event("resume_failed", match=match_id, why=exc))
            await self.store.drop_checkpoint(match_id, self.owner)
            return None
        if match.host.game.over:
            # the node died after the last move and before it kept the result: keep it
            log.info(event("match_resumed", match=match_id, node=self.node_id, was=owner, over=1))
            await self._finish(match)
            await self._bus_quietly(self.bus.drop_tail(match_id, owner))
            return match
        await self._launch(match)  # its checkpoint now holds the old node's tail
        if tail:
            await self._bus_quietly(self.bus.drop_tail(match_id, owner))
        log.info(event("match_resumed", match=match_id, node=self.node_id, was=owner, tail=tail))
        await self._seat_everyone(match, resumed=True)
        return match

    async def _with_tail(self, match_id: str, owner: str, text: str) -> tuple[str, int]:
        """Checkpoint ``text`` with the tail ``owner`` kept on the bus after it, and how
        many tail entries there were (the checkpoint alone if the tail cannot be read)."""
        try:
            entries = await self.bus.tail(match_id, owner)
        except Exception as exc:  # the bus's own errors too: the checkpoint alone, then
            log.warning(event("tail_unreadable", match=match_id, why=exc))
            return text, 0
        if not entries:
            return text, 0
        try:
            data = json.loads(text)
            data["replay"] = extend_checkpoint(data["replay"], entries)
        except (CheckpointError, ValueError, KeyError, TypeError) as exc:
            log.warning(event("tail_refused", match=match_id, why=exc))
            return text, 0
        return json.dumps(data, separators=(",", ":")), len(entries)

    def _match_from_checkpoint(self, text: str) -> ServerMatch:
        data = json.loads(text)
        server = data["server"]
        host = Host.resumed(
            data["replay"],
            finished=True,  # a tail may hold the last move: the result is then kept
            names=(str(server["names"][0]), str(server["names"][1])),
            remote_seats=tuple(n for n in range(2) if server["seats"][n] is not None),
            key=self.key,
            rejoin_timeout=self.settings.rejoin,
            limits=Limits(max_connections=1 << 30, ping_every=self.settings.ping_every),
            clock=self.clock,
            timing=self.settings.timing,
            bot_reaction=self.settings.bot_reaction,
        )
        host.watch_delay = self.settings.spectator_delay
        host.stats.sink = self.load.timer_late
        match = ServerMatch(
            id=str(server["match"]),
            mode=str(server["mode"]),
            host=host,
            seats=(server["seats"][0], server["seats"][1]),
            names=(str(server["names"][0]), str(server["names"][1])),
            accounts=(server["accounts"][0], server["accounts"][1]),
            bots=(server["bots"][0], server["bots"][1]),
            rated=bool(server["rated"]),
            daily=server["daily"],
            started=str(server["started"]),
            started_at=self.clock(),
            held=list(server["held"]),
            homes=(server["homes"][0], server["homes"][1]),
            tokens=(str(server["tokens"][0]), str(server["tokens"][1])),
        )
        for seat, level in enumerate(match.bots):
            if level is not None:
                host.seat_bot(seat, str(level))
        return match

    def _seated(self, side: Player | Seated | str) -> Seated | str:
        return Seated.of(side, self.node_id) if isinstance(side, Player) else side

    def matched_notice(self, match: ServerMatch, seat: int | None) -> dict[str, Any]:
        """The "matched" message for ``seat`` (None: a watcher): where to connect, and how."""
        notice: dict[str, Any] = {
            "t": "matched",
            "match": match.id,
            "seat": seat,
            "mode": match.mode,
            "names": list(match.names),
            "rated": match.rated,
            "daily": match.daily is not None,
            "address": self.address,
            "pin": self.host_fingerprint,
        }
        if seat is not None:
            notice["token"] = match.tokens[seat]
        return notice

    def _tell_matched(self, player: Player, match: ServerMatch) -> None:
        seat = match.seat_of(player.id)
        self.deliver(player.id, self.matched_notice(match, seat))

    async def tell(self, node: str | None, player_id: str, message: dict[str, Any]) -> None:
        """Give ``message`` to a player whose lobby is on ``node`` (here, or through its inbox).

        If that node is gone, the player's client has signed in on another one: every
        live node is asked (a node without the player ignores it).
        """
        if node is None or node == self.node_id:
            self.deliver(player_id, message)
            return
        command = {"t": "deliver", "player": player_id, "msg": message}
        live = {c.node for c in self.cluster}
        if node in live:
            await self._bus_quietly(self.bus.post(node, command))
            return
        self.deliver(player_id, message)
        for other in live - {self.node_id}:
            await self._bus_quietly(self.bus.post(other, command))

    def deliver(self, player_id: str, message: dict[str, Any]) -> None:
        """Send a lobby player of this node ``message`` (noting a match it starts or ends)."""
        player = self.players.get(player_id)
        if player is None:
            return
        kind = message.get("t")
        if kind == "matched" and message.get("seat") is not None:
            player.match = str(message["match"])
            self.queue.pop(player_id, None)
        elif kind == "result":
            player.match = None
        fields = {k: v for k, v in message.items() if k != "t"}
        player.send(wire.encode(str(kind), **fields))

    async def _bus_quietly(self, job: Any) -> None:
        """Run a bus call; a bus that cannot be reached is logged, not raised."""
        try:
            await job
        except (OSError, ConnectionError) as exc:
            log.warning(event("bus_unreachable", why=exc))

    async def _inbox(self) -> None:
        """Carry out what other nodes ask of this one: host a match, tell a player."""
        while True:
            try:
                messages = await self.bus.take(self.node_id)
            except (OSError, ConnectionError) as exc:
                log.warning(event("bus_unreachable", why=exc))
                messages = []
            for message in messages:
                try:
                    await self._carry_out(message)
                except (KeyError, TypeError, ValueError) as exc:
                    log.warning(event("bad_bus_message", why=exc))
            await asyncio.sleep(0.1 if not messages else 0)

    async def _carry_out(self, message: dict[str, Any]) -> None:
        kind = message.get("t")
        if kind == "host":
            mode = str(message["mode"])
            if mode not in mode_names():
                raise ValueError(f"unknown mode {mode[:10]!r}")
            sides = tuple(Seated.from_json(s) for s in message["sides"][:2])
            if len(sides) != 2:
                raise ValueError("a match has two sides")
            rated = message.get("rated")
            await self.start_match(
                mode, (sides[0], sides[1]), rated=None if rated is None else bool(rated)
            )
        elif kind == "challenge":
            challenger = Seated.from_json(message["from"])
            target = self._named(str(message["to"]))
            mode = str(message["mode"])
            if isinstance(challenger, str) or mode not in mode_names():
                raise ValueError("not a challenge")
            delays = {str(k)[:64]: float(v) for k, v in dict(message["delays"]).items()}
            if target is None:
                text = f"nobody called {str(message['to'])[:40]} is online"
                await self.tell(challenger.node, challenger.id, {"t": "info", "text": text})
            else:
                self._challenged(challenger, delays, target, mode)
        elif kind == "deliver":
            msg = message["msg"]
            if not isinstance(msg, dict) or msg.get("t") not in ("matched", "result", "info"):
                raise ValueError("not a message for a player")
            player = self.players.get(str(message["player"]))
            if msg["t"] == "result" and player is not None and player.account is not None:
                # rated on another node: read again
                account = player.account.id
                self._ratings.pop(account, None)
                self._rated_elsewhere[account] = self._rated_elsewhere.get(account, 0) + 1
            self.deliver(str(message["player"]), msg)
        else:
            raise ValueError(f"unknown command {str(kind)[:20]!r}")

    async def _run_match(self, match: ServerMatch) -> None:
        watchdog = self._spawn(self._watch_seats(match))
        try:
            await match.host.run()
        finally:
            watchdog.cancel()
        if self._closing:
            return
        await self._finish(match)

    async def _watch_seats(self, match: ServerMatch) -> None:
        """After the grace time, a computer of the player's strength holds a dropped seat."""
        host = match.host
        while not host.match.finished:
            await asyncio.sleep(min(1.0, self.settings.grace / 4 or 1.0))
            now = self.clock()
            if not host.match.started and now - match.started_at >= self.settings.no_show:
                # a player never came to the match dealt for them: no game, no result;
                # the one who came (if any) is back in the lobby, free to play again
                log.info(event("no_show", match=match.id))
                await host.close("the other player never came to the match")
                return
            for seat in host.match.seats:
                if (
                    seat.dropped_at is not None
                    and not host.bot_holds(seat.number)
                    and now - seat.dropped_at >= self.settings.grace
                    and match.seats[seat.number] is not None
                    and host.match.started
                ):
                    level = await self._holding_level(match, seat.number)
                    host.seat_bot(seat.number, level)
                    match.held.append([seat.number, round(self._game_time(match), 2), None])
                    log.info(event("seat_held", match=match.id, seat=seat.number + 1, level=level))

    async def _holding_level(self, match: ServerMatch, seat: int) -> str:
        account = match.accounts[seat]
        levels = ANCHORS.get(match.mode) or {"medium": 1500.0}
        if account is None:
            return "medium" if "medium" in levels else next(iter(levels))
        rating = await self.store.rating(account, match.mode)
        return nearest_level(rating.rating.rating, levels)

    def _game_time(self, match: ServerMatch) -> float:
        return max(0.0, self.clock() - match.host.match.arbiter.start_time)

    def _end_hold(self, match: ServerMatch, seat: int) -> None:
        for span in match.held:
            if span[0] == seat and span[2] is None:
                span[2] = round(self._game_time(match), 2)

    def _sides(self, match: ServerMatch) -> tuple[Side, Side]:
        return (
            Side(match.accounts[0], match.names[0], match.bots[0]),
            Side(match.accounts[1], match.names[1], match.bots[1]),
        )

    async def _finish(self, match: ServerMatch) -> None:
        """Keep the result and the replay, move the ratings, tell the players."""
        self.matches.pop(match.id, None)
        if match.moved:
            return  # another node carries on with it
        game = match.host.game
        for seat in range(2):
            self._end_hold(match, seat)
        for player_id in match.seats:
            player = self.players.get(player_id or "")
            if player is not None and player.match == match.id:
                player.match = None
            if player_id is not None:
                await self._bus_quietly(self.bus.set_seat(player_id, None))
        if not game.over:
            with contextlib.suppress(StoreError, OSError):
                await self.store.drop_checkpoint(match.id, self.owner)
            await self._drop_tail(match)
            for seat, player_id in enumerate(match.seats):
                if player_id is not None:  # free to play again, wherever their lobby is
                    ended = {"t": "result", "text": "The match ended without a result."}
                    await self.tell(match.homes[seat], player_id, ended)
            self.lobby_changed()
            return
        data = match.host.replay_data()
        data["server"] = {"match": match.id, "held": match.held}
        winner = None if game.winner is None else game.winner + 1
        rated = match.rated and (self.settings.rate_held_games or not match.held)
        record = MatchRecord(
            mode=match.mode,
            sides=self._sides(match),
            winner=winner,
            rated=rated,
            started=match.started,
            ended=_now_iso(),
            replay=json.dumps(data, separators=(",", ":")),
        )
        try:
            await self.store.record_match(record, checkpoint=(match.id, self.owner))
        except MovedElsewhere:
            log.warning(event("match_moved", match=match.id))
            return
        except (StoreError, OSError) as exc:
            log.error(event("result_not_kept", match=match.id, why=exc))
        await self._drop_tail(match)
        if match.daily is not None:
            for seat, account in enumerate(match.accounts):
                if account is not None:
                    await self.store.finish_daily(
                        match.daily,
                        match.mode,
                        account,
                        game.winner == seat,
                        round(self._game_time(match), 2),
                    )
        log.info(event("match_end", match=match.id, winner=winner or "none", rated=rated))
        coaching: list[list[str]] = [[], []]
        if match.daily is not None:
            coaching = await asyncio.to_thread(_coaching_lines, record.replay)
        for seat, player_id in enumerate(match.seats):
            account = match.accounts[seat]
            if player_id is None:
                continue
            extra: dict[str, Any] = {}
            if match.daily is not None and account is not None:
                day = date.fromisoformat(match.daily)
                streak = await self.store.streak(match.mode, account, match.daily)
                share = challenge_for(day, match.mode, self.settings.daily_level).share_line(
                    game.winner == seat, self._game_time(match), streak
                )
                extra = {"share": share, "coaching": coaching[seat]}
            if game.winner is None:
                text = "The game is a draw."
            else:
                text = "You won!" if game.winner == seat else f"{match.names[game.winner]} won."
            if rated and account is not None:
                shown = (await self.store.rating(account, match.mode)).shown(self.settings.rating)
                text += f" Your {get_mode(match.mode).title} rating is now {shown}."
            ratings = await self.ratings_of(account)
            result = {"t": "result", "text": text, "ratings": ratings, **extra}
            await self.tell(match.homes[seat], player_id, result)
        self.lobby_changed()

    # ------------------------------------------------------------ status

    async def _status_writer(self) -> None:
        while True:
            with contextlib.suppress(OSError):  # the file is written off the event loop
                await asyncio.to_thread(self._status_file.write, self._status_text())
            await asyncio.sleep(2.0)

    def status(self) -> dict[str, Any]:
        """What ``spit server --status`` shows."""
        return {
            "pid": os.getpid(),
            "version": __version__,
            "bind": self.settings.bind,
            "port": self.settings.port,
            "started": datetime.fromtimestamp(self.started_at, UTC).isoformat(timespec="seconds"),
            "updated": time.time(),
            "online": len(self.players),
            "queue": len(self.queue),
            "matches": len(self.matches),
            "connections": len(self._gates),
            **self.load.status(self.clock()),
            "checkpoint_writes": self.checkpoint_writes,
            "owner": self.owner,
            "node": self.node_id,
            "draining": self.draining,
            "nodes": [
                {
                    "node": c.node,
                    "address": c.address,
                    "draining": c.draining,
                    "online": len(c.online),
                    "matches": len(c.matches),
                }
                for c in self.cluster
            ],
            "doors": len(self.doors),
            "door_mb": [round(mb, 1) for mb in map(resident_mb, self.doors) if mb is not None],
            "load": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
        }

    def _status_text(self, stopped: bool = False) -> str:
        data = self.status()
        data["stopped"] = stopped
        return json.dumps(data)

    def _write_status(self, stopped: bool = False) -> None:
        self._status_file.write(self._status_text(stopped), final=stopped)

    # ------------------------------------------------------------ rooms, challenges, daily

    def new_room(self, player: Player, mode: str) -> str:
        """A private room in ``mode``: its code is passed on to the friend (on any node)."""
        code = "".join(secrets.choice(ROOM_ALPHABET) for _ in range(6))
        self.rooms[code] = (player.id, mode)
        room = {"mode": mode, "owner": Seated.of(player, self.node_id).to_json()}
        room["delays"] = dict(player.delays)
        self._spawn(self._bus_quietly(self.bus.put_room(code, room)))
        return code

    async def enter_room(self, player: Player, code: str) -> str | None:
        """Join the room ``code`` (opened on any node): the match starts at once."""
        code = code.strip().upper()
        if player.match is not None:
            return "you are in a match already: finish it first"
        owned = self.rooms.get(code)
        if owned is not None and owned[0] == player.id:
            return "that is your own room: pass the code to a friend"
        try:
            room = await self.bus.take_room(code)
        except (OSError, ConnectionError):
            return "the rooms cannot be reached just now: try again in a moment"
        if room is None:
            return "no room has that code (it may have started or closed)"
        self.rooms.pop(code, None)
        try:
            owner = Seated.from_json(room["owner"])
            mode = str(room["mode"])
            delays = {str(k): float(v) for k, v in dict(room.get("delays", {})).items()}
        except (KeyError, TypeError, ValueError):
            return "no room has that code (it may have started or closed)"
        if isinstance(owner, str) or mode not in mode_names():
            return "no room has that code (it may have started or closed)"
        if owner.id == player.id:
            return "that is your own room: pass the code to a friend"
        if owner.node == self.node_id and owner.id not in self.players:
            return "the room's owner has left"
        me = Seated.of(player, self.node_id)
        await self._pair(mode, (owner, me), (delays, dict(player.delays)), rated=False)
        return None

    async def _pair(
        self,
        mode: str,
        sides: tuple[Seated, Seated],
        delays: tuple[Mapping[str, float], Mapping[str, float]],
        *,
        rated: bool | None = None,
    ) -> None:
        """Deal a match between two players on the node they reach best."""
        homes = (sides[0].node, sides[1].node)
        live = self._candidates(self._live_nodes(), homes)
        where = choose_node(homes, delays, live, self.node_id)
        await self.host_on(where, mode, sides, rated=rated)

    def challenge(self, player: Player, name: str, mode: str) -> str | None:
        """Challenge someone online by name (on this node or another)."""
        problem = self.check_mode(mode)
        if problem:
            return problem
        if name.casefold() == player.name.casefold():
            return "you cannot challenge yourself"
        target = self._named(name)
        me = Seated.of(player, self.node_id)
        if target is not None:
            self._challenged(me, dict(player.delays), target, mode)
            return None
        for other in self.cluster:
            if other.node != self.node_id and any(
                n.casefold() == name.casefold() for n in other.online
            ):
                command = {
                    "t": "challenge",
                    "from": me.to_json(),
                    "delays": dict(player.delays),
                    "to": name[:40],
                    "mode": mode,
                }
                self._spawn(self._bus_quietly(self.bus.post(other.node, command)))
                return None
        return f"nobody called {name[:40]} is online"

    def _challenged(
        self, challenger: Seated, delays: dict[str, float], target: Player, mode: str
    ) -> None:
        self._challenge_ids += 1
        self.challenges[self._challenge_ids] = (challenger, delays, target.id, mode)
        target.send(
            wire.encode("challenged", id=self._challenge_ids, by=challenger.name, mode=mode)
        )

    async def answer(self, player: Player, number: int, accept: bool) -> str | None:
        """Accept or decline a challenge."""
        entry = self.challenges.pop(number, None)
        if entry is None or entry[2] != player.id:
            return "that challenge is no longer open"
        if accept and player.match is not None:
            return "you are in a match already: finish it first"
        challenger, delays, _, mode = entry
        if challenger.node == self.node_id and challenger.id not in self.players:
            return "the challenger has left"
        if not accept:
            text = f"{player.name} declined your challenge."
            await self.tell(challenger.node, challenger.id, {"t": "info", "text": text})
            return None
        me = Seated.of(player, self.node_id)
        await self._pair(mode, (challenger, me), (delays, dict(player.delays)))
        return None

    async def daily(self, player: Player, mode: str, play: bool) -> bytes:
        """The day's challenge: the board, and with ``play`` the player's one attempt."""
        problem = self.check_mode(mode)
        if problem:
            return wire.encode("error", reason=problem)
        day = self.today()
        challenge = challenge_for(day, mode, self.settings.daily_level)
        day_text = day.isoformat()
        played = False
        if play:
            if player.account is None:
                return wire.encode(
                    "error", reason="the daily challenge needs an account: sign in with an SSH key"
                )
            if player.match is not None:
                return wire.encode("error", reason="you are in a match already")
            if not await self.store.start_daily(day_text, mode, player.account.id, _now_iso()):
                return wire.encode(
                    "error", reason="you have had today's attempt: come back tomorrow"
                )
            await self.start_match(
                mode, (player, challenge.level), seed=challenge.seed, daily=day_text, rated=True
            )
            played = True
        rows = [[e.name, e.won, e.seconds] for e in await self.store.daily_board(day_text, mode)]
        streak = 0
        if player.account is not None:
            streak = await self.store.streak(mode, player.account.id, day_text)
        return wire.encode(
            "dailyinfo",
            mode=mode,
            day=day_text,
            level=challenge.level,
            played=played,
            rows=rows,
            streak=streak,
        )


def _read_admins(path: Path) -> set[str]:
    """The fingerprints of the keys in the admins file (one OpenSSH public key a line)."""
    found: set[str] = set()
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return found
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            found.add(fingerprint_of(asyncssh.import_public_key(line)))
        except (asyncssh.KeyImportError, ValueError):
            log.warning(event("bad_admin_key", line=line[:40]))
    return found


def _standing_words(rating: PlayerRating, rules: RatingRules, place: int | None) -> str:
    """Where a player stands, in words: their place, or what they lack to be ranked."""
    shown = rating.shown(rules)
    if place is not None:
        return f"You are number {place + 1}, at {shown}."
    if rating.games < rules.board_min_games:
        more = rules.board_min_games - rating.games
        return f"You: {shown}, {rating.games} rated games; {more} more to be ranked."
    if rating.rating.rd > rules.board_rd:
        return f"You: {shown}; a few more games settle your rating enough to be ranked."
    return f"You: {shown}; play a rated game this week to be ranked."


def _coaching_lines(replay_json: str) -> list[list[str]]:
    """Each seat's coaching lines from a finished match's replay (runs off the event loop)."""
    from spit.store.coaching import coach_replay, player_lines
    from spit.store.replays import ReplayFileError, parse_replay

    try:
        coaching = coach_replay(parse_replay(replay_json))
    except (ReplayFileError, ValueError):
        return [[], []]
    calls = get_mode(coaching.mode).has_slaps
    return [player_lines(report, calls) for report in coaching.players]
