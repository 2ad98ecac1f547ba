"""``spit host``: the SSH server that runs one match for two seats and any spectators.

Guests log in over SSH (asyncssh) with their seat's join code as the
password (user ``play``) or the spectators' code (user ``watch``), or with a
key the host lists as allowed, then open the ``spit`` subsystem, which
carries newline-delimited JSON (``spit.net.protocol``). Every received line
is checked against the size cap, the rate cap and the schema; a connection
that breaks the protocol, floods, or stalls in the middle of a message is
closed with a log line, and the match goes on for the honest player.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import asyncssh

from spit import __version__
from spit.bots import LEVELS, make_bot
from spit.bots.reaction import Reaction
from spit.engine import Action, AnyGame
from spit.net import protocol as proto
from spit.net.botseat import BotDriver
from spit.net.codes import AuthGuard, load_or_make_host_key, make_code, same_secret, split_code
from spit.net.defaults import DEFAULT_CAP, DEFAULT_PORT, DEFAULT_WINDOW
from spit.net.match import CHOOSE_TIMEOUT, Match
from spit.net.stamping import Stamper
from spit.realtime.arbiter import Applied, Clock, Timing
from spit.store.settings import same_name
from spit.store.writer import Writer

if TYPE_CHECKING:
    from spit.net.resume import Earlier, TailMark
    from spit.store.replays import ReplayMeta

log = logging.getLogger("spit.net")

SUBSYSTEM = "spit"
#: Pings 50 ms apart when a connection opens (the clock estimate settles in under a second).
FAST_PINGS = 16
#: AES-GCM first: as safe as ChaCha20-Poly1305 and, with ``cryptography``, about a
#: third of its cost for the small packets a game sends (both are standard SSH ciphers).
CIPHERS = ("aes128-gcm@openssh.com", "aes256-gcm@openssh.com", "chacha20-poly1305@openssh.com")


@dataclass(slots=True)
class Limits:
    """How much a guest may send, and how long it may take."""

    rate: float = 40.0  #: messages per second, sustained
    burst: float = 80.0  #: messages at once
    stall: float = 5.0  #: seconds a half-sent message (or the hello) may take
    ping_every: float = 0.25  #: seconds between pings once the estimate has settled
    dead_after: float = 10.0  #: seconds of silence after which a connection is dropped
    max_buffer: int = 1 << 20  #: bytes waiting to be sent before a guest counts as gone
    max_connections: int = 16  #: SSH connections at once (players, spectators, strangers)
    login: float = 10.0  #: seconds a connection has to log in (SSH handshake and code)
    per_address: int = 8  #: connections still logging in from one address at once
    #: spectators at once, so the seats always find room (None: half of max_connections)
    max_watchers: int | None = None

    @property
    def watchers(self) -> int:
        """How many spectators may watch at once."""
        if self.max_watchers is not None:
            return self.max_watchers
        return self.max_connections // 2


@dataclass(slots=True)
class HostStats:
    """Timer lateness of the tick loop (for the benchmark): how long after each deadline
    came due the tick that handled it ran (by its timer, or sooner by an input's tick;
    each deadline once)."""

    lateness: list[float] = field(default_factory=list)
    #: also told each lateness (``spit server`` counts every match's in one place)
    sink: Callable[[float], None] | None = None

    def late(self, seconds: float) -> None:
        """A due deadline was handled ``seconds`` after it came due."""
        self.lateness.append(seconds)
        if self.sink is not None:
            self.sink(seconds)


class _Bucket:
    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate, self.burst, self.level, self.at = rate, burst, burst, now

    def take(self, now: float) -> bool:
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level < 1:
            return False
        self.level -= 1
        return True


class _Server(asyncssh.SSHServer):
    """One SSH connection's authentication: which seat the guest may take.

    Connections still logging in are kept in ``Host.logging_in``, oldest
    first. A newcomer never waits behind idle ones: past ``per_address`` from
    one address, or past ``max_connections`` in all, the oldest still logging
    in is closed to make room (it has had its chance), so strangers holding
    connections open cannot keep a dropped player from rejoining. Only when
    every connection has logged in is the newcomer refused, told why.
    """

    def __init__(self, host: Host) -> None:
        self.host = host
        self.grant: tuple[str, int | None] | None = None
        self.peer = "?"
        self.conn: asyncssh.SSHServerConnection | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        peer = conn.get_extra_info("peername")
        self.peer = str(peer[0]) if peer else "?"
        self.conn = conn
        host = self.host
        host.open_connections += 1
        same = [s for s in host.logging_in if s.peer == self.peer]
        host.logging_in[self] = None
        if len(same) >= host.limits.per_address:
            log.warning(
                "%s: more than %d connections logging in from one address: the oldest closed",
                self.peer,
                host.limits.per_address,
            )
            same[0].refuse("too many connections from your address are logging in at once")
        if host.open_connections > host.limits.max_connections:
            older = [s for s in host.logging_in if s is not self]
            if older:
                log.warning(
                    "%s: the host is full: the oldest connection still logging in closed",
                    self.peer,
                )
                older[0].refuse("the host is full and you took too long to log in")
            else:
                log.warning("%s: too many connections at once, refused", self.peer)
                self.refuse("the host is full (too many connections at once): try again soon")

    def refuse(self, reason: str) -> None:
        """Close this connection, telling the other end why (an SSH disconnect reason)."""
        self.host.logging_in.pop(self, None)
        conn = self.conn
        if conn is not None:
            # after this turn of the loop: the SSH version line must go out first
            asyncio.get_running_loop().call_soon(
                conn.disconnect, asyncssh.DISC_TOO_MANY_CONNECTIONS, reason
            )

    def auth_completed(self) -> None:
        self.host.logging_in.pop(self, None)

    def connection_lost(self, exc: Exception | None) -> None:
        self.host.open_connections -= 1
        self.host.logging_in.pop(self, None)

    def begin_auth(self, username: str) -> bool:
        return True

    def password_auth_supported(self) -> bool:
        return True

    async def validate_password(self, username: str, password: str) -> bool:
        grant = await self.host.check_code(self.peer, username, password)
        self.grant = grant
        return grant is not None

    def public_key_auth_supported(self) -> bool:
        return bool(self.host.allowed_keys)

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        if key.public_data not in self.host.allowed_keys:
            return False
        grant = self.host.grant_for_key(username, key.public_data)
        self.grant = grant
        return grant is not None


class _Conn:
    """A guest's subsystem channel as a ``Link``."""

    def __init__(self, host: Host, process: asyncssh.SSHServerProcess[bytes], peer: str) -> None:
        self.host = host
        self.process = process
        self.peer = peer
        self.closed = False
        self.seat: int | None = None
        self.stamper = Stamper(host.cap)
        self.pings: dict[float, None] = {}
        self.heard = host.clock()
        self._out: list[bytes] = []
        #: a flush waits for the host's held output (``Host.hold_output``)
        self._waiting = False
        #: the seat's own player (spit server): a computer holding the seat makes way
        self.takes_back = False

    def send(self, data: bytes) -> None:
        """Queue a message; everything queued in one turn of the loop goes as one packet."""
        if self.closed:
            return
        if not self._out:
            asyncio.get_running_loop().call_soon(self._flush)
        self._out.append(data)

    def _flush(self) -> None:
        held = self.host.held_output
        if held is not None:
            if not self._waiting:
                self._waiting = True
                held.add_done_callback(self._released)
            return
        data, self._out = b"".join(self._out), []
        if self.closed or not data:
            return
        try:
            self.process.stdout.write(data)
        except (OSError, asyncssh.Error, BrokenPipeError):
            self.close("the connection broke")
            return
        if self.process.channel.get_write_buffer_size() > self.host.limits.max_buffer:
            log.warning("%s is not reading its messages: closed", self.peer)
            self.close("not reading")

    def _released(self, _held: object) -> None:
        self._waiting = False
        self._flush()

    def close(self, reason: str, tell: bool = False) -> None:
        """Close the channel (after what is queued, and the reason if ``tell``)."""
        if self.closed:
            return
        if tell:
            self._out.append(proto.encode("error", reason=reason[:300]))
        data, self._out = b"".join(self._out), []
        self.closed = True
        with contextlib.suppress(Exception):
            if data:
                self.process.stdout.write(data)
            self.process.exit(1)
        self.host._lost(self, reason)


class DelayedLink:
    """A spectator's link whose every message goes out ``delay`` seconds late."""

    def __init__(self, link: _Conn, delay: float) -> None:
        self.link = link
        self.delay = delay

    def send(self, data: bytes) -> None:
        """Send ``data`` after the delay (in order: every message waits the same)."""
        asyncio.get_running_loop().call_later(self.delay, self.link.send, data)


class LocalSeat:
    """The host's own player: its presses go through the same stamping path as a guest's."""

    def __init__(self, host: Host, number: int, on_message: Callable[[dict[str, Any]], None]):
        self.host = host
        self.number = number
        self.on_message = on_message
        self._next_id = 0

    def send(self, data: bytes) -> None:
        self.on_message(proto.decode(data, proto.HOST_TO_GUEST, proto.MAX_HOST_LINE))

    def press(self, action: Action, at: float) -> int:
        """A key of this seat made ``action`` at ``at`` (host clock); returns its id."""
        self._next_id += 1
        self.host.match.submit_local(self.number, self._next_id, action, at, self.host.clock())
        return self._next_id

    def decide(self, what: str) -> str | None:
        """Choose what happens to a seat whose player did not come back."""
        return self.host.match.decide(self.number, what, self.host.clock())


class Host:
    """Serves one match over SSH."""

    def __init__(
        self,
        game: AnyGame,
        *,
        timing: Timing | None = None,
        window: float = DEFAULT_WINDOW,
        cap: float = DEFAULT_CAP,
        bind: str = "127.0.0.1",
        port: int = DEFAULT_PORT,
        remote_seats: tuple[int, ...] = (1,),
        names: tuple[str, str] = ("Player 1", "Player 2"),
        key_path: Path | None = None,
        key: asyncssh.SSHKey | None = None,
        allowed_keys: list[asyncssh.SSHKey] | None = None,
        limits: Limits | None = None,
        guard: AuthGuard | None = None,
        rejoin_timeout: float = 60.0,
        choose_timeout: float = CHOOSE_TIMEOUT,
        record: bool = False,
        clock: Clock = time.monotonic,
        bot_reaction: Reaction | None = None,
    ) -> None:
        self.game = game
        self.clock = clock
        self.cap = cap
        self.bind = bind
        self.port = port
        self.limits = limits or Limits()
        self.guard = guard or AuthGuard()
        #: the host key: ``key`` if given (a server's many matches share one), else read
        self.key = key if key is not None else load_or_make_host_key(key_path)
        self.allowed_keys = {k.public_data for k in allowed_keys or []}
        #: the seat each allowed key took the first time it played (it keeps that one)
        self.key_seats: dict[bytes, int] = {}
        self.remote_seats = remote_seats
        self.codes = {s: make_code(self.key) for s in remote_seats}
        self.watch_code = make_code(self.key)
        self.stats = HostStats()
        #: SSH connections open now (authenticated or not)
        self.open_connections = 0
        #: connections still logging in, oldest first
        self.logging_in: dict[_Server, None] = {}
        self.bot_reaction = bot_reaction
        #: seconds a spectator's view lags the game (so a watcher cannot relay a hand)
        self.watch_delay = 0.0
        #: called with a seat a computer handed back to its player
        self.on_handed_back: Callable[[int], None] | None = None
        #: called (on the loop) after each tick that applied an action: when to checkpoint
        self.on_applied: Callable[[], None] | None = None
        #: the output to the guests waits for these writes (``hold_output``)
        self._holding: set[asyncio.Future[Any]] = set()
        self._held: asyncio.Future[None] | None = None
        self._watch_links: dict[_Conn, Any] = {}
        self._archiver: Any = None
        self._final_replay: dict[str, Any] | None = None
        self._server: asyncssh.SSHAcceptor | None = None
        #: the running ``run``'s end, its next timer, the deadline that timer is for,
        #: and the tick asked for soon (an input came)
        self._done: asyncio.Future[None] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._due: float | None = None
        self._soon: asyncio.Handle | None = None
        self._conns: set[_Conn] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._bots: dict[int, BotDriver] = {}
        #: the computer level of a guest that said it plays with one (``spit join --bot``)
        self.guest_levels: dict[int, str] = {}
        self.match = Match(
            game,
            timing,
            clock,
            window,
            names,
            rejoin_timeout,
            replay=self._replay_json,
            on_outcomes=self._on_outcomes,
            on_save=self._save,
            result_text=self.result_text,
        )
        self.match.choose_timeout = choose_timeout
        self.match.wake = self._wake_soon
        self.match.take_over = self._take_over
        self.match.on_start = self._start_recording
        self._record = record
        self._writer: Writer | None = None
        self._closing = False
        #: the part played before, for a match carried on from a checkpoint (``resumed``)
        self.earlier: Earlier | None = None

    @classmethod
    def resumed(
        cls, data: Mapping[str, Any] | str | bytes, finished: bool = False, **host_kwargs: Any
    ) -> Host:
        """A host that carries on the match checkpointed in ``data`` (``replay_data()``
        of an earlier host, or its JSON text), in the position it stopped in.

        ``host_kwargs`` are the constructor's (not ``game``); ``names`` and
        ``remote_seats`` default to the checkpoint's, and the game keeps its own
        fumble rule (H8) whatever ``timing`` says. Each seat then has the rejoin
        window to connect, as after a drop. ``replay_data()`` gives the whole
        game, the earlier part first. Raises ``CheckpointError`` (one line) for
        data that is malformed, edited, hostile or (unless ``finished``) of a
        game already over: such a host only gives its replay, it never plays.
        """
        from spit.net.resume import read_checkpoint

        earlier = read_checkpoint(data, finished)
        host_kwargs.setdefault("names", earlier.names)
        host_kwargs.setdefault("remote_seats", earlier.remote_seats)
        host_kwargs["timing"] = earlier.timing(host_kwargs.get("timing") or Timing())
        host = cls(earlier.game, **host_kwargs)
        host.earlier = earlier
        host.match.played_before = earlier.offset  # the clock goes on from there
        host.match.carry_on(host.clock())
        host._start_recording()
        return host

    def _start_recording(self) -> None:
        """Keep the game (save as it goes, replay and result at the end) from its start,
        under the names the players joined with. The writes run on a background
        thread (``spit.store.writer``), never on the event loop that judges presses."""
        if not self._record or self._archiver is not None:
            return
        from spit.store.archive import Archiver

        self._writer = Writer("spit-host-writer")
        archiver = Archiver(
            self.match.arbiter,
            self._players(self.match.names),
            resumed=self.earlier.replay if self.earlier is not None else None,
            writer=self._writer,
            on_saved=lambda: self._log_saved(archiver),
        )
        archiver.extra = self._audit
        self._archiver = archiver

    @staticmethod
    def _log_saved(archiver: Any) -> None:
        """A background write finished (runs on the writer's thread): say how it went."""
        if archiver.message:
            log.info("%s", archiver.message)

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> int:
        """Listen; returns the port (useful with port 0)."""
        self._server = await asyncssh.create_server(
            lambda: _Server(self),
            self.bind,
            self.port,
            server_host_keys=[self.key],
            encryption_algs=list(CIPHERS),
            process_factory=self._session,
            encoding=None,
            allow_scp=False,
            agent_forwarding=False,
            x11_forwarding=False,
            line_editor=False,
            login_timeout=self.limits.login,
            keepalive_interval=self.limits.dead_after / 2,
            keepalive_count_max=2,
        )
        self.port = self._server.get_port() or self.port
        log.info("listening on %s:%d", self.bind, self.port)
        return self.port

    def join_line(self, seat: int, address: str | None = None) -> str:
        """The line a guest types to take ``seat``."""
        return f"spit join {address or self.bind}:{self.port} {self.codes[seat]}"

    def watch_line(self, address: str | None = None) -> str:
        """The line a spectator types."""
        return f"spit join {address or self.bind}:{self.port} {self.watch_code} --watch"

    def local_seat(self, number: int, on_message: Callable[[dict[str, Any]], None]) -> LocalSeat:
        """Seat the host's own player (zero-delay link, the same stamping rule)."""
        seat = LocalSeat(self, number, on_message)
        self.match.attach(number, seat, Stamper.local(self.cap), self.clock())
        return seat

    async def run(self) -> None:
        """Tick the match until it is over (or closed).

        The ticks run in the event loop's own callbacks: one timer for the next
        deadline (a deadline's tick runs as soon as the loop reaches its timer,
        with no task to wake), and a tick soon after each new input.
        """
        loop = asyncio.get_running_loop()
        self._done = loop.create_future()
        self._tick()
        try:
            await self._done
        finally:
            self._done = None
            self._set_timer(None)
            if self._soon is not None:
                self._soon.cancel()
                self._soon = None
        await asyncio.sleep(0)

    def _wake_soon(self) -> None:
        """The schedule may have changed (a new input, a seat back): tick soon."""
        if self._done is None or self._soon is not None:
            return
        self._soon = asyncio.get_running_loop().call_soon(self._tick_soon)

    def _tick_soon(self) -> None:
        self._soon = None
        self._tick()

    def _tick_due(self) -> None:
        """The timer of the next deadline ran: tick."""
        self._timer = None
        self._tick()

    def _tick(self) -> None:
        """Tick now and set the timer for the next deadline (or end ``run``).

        Whichever way the tick came (its timer, or an input's), a deadline that
        came due before it counts how late it was handled (``HostStats``), once.
        """
        done = self._done
        if done is None or done.done():
            return
        if self._soon is not None:  # this tick is the one asked for
            self._soon.cancel()
            self._soon = None
        match = self.match
        now = self.clock()
        if self._due is not None and now >= self._due:
            self.stats.late(now - self._due)
            self._due = None
        try:
            if not match.finished:
                match.tick(now)
            if match.finished:
                self._set_timer(None)
                done.set_result(None)
                return
            self._set_timer(match.wake_at())
        except Exception as exc:  # a defect: ``run`` raises it, as a loop would
            self._set_timer(None)
            done.set_exception(exc)

    def _set_timer(self, deadline: float | None) -> None:
        """Wait for ``deadline`` (host clock; None: for nothing) with one timer."""
        if self._timer is not None and deadline is not None and deadline == self._due:
            return  # the timer already set for this deadline stays
        self._due = deadline
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if deadline is not None:
            delay = max(0.0, deadline - self.clock())
            self._timer = asyncio.get_running_loop().call_later(delay, self._tick_due)

    async def close(self, reason: str = "the host closed the game") -> None:
        """Keep an unfinished game, tell everyone, close every connection, stop listening."""
        if self._closing:
            return
        self._closing = True
        if self._archiver is not None and not self.game.over and self.match.started:
            problem = self._archiver.save_now()
            if problem:
                log.warning("%s", problem)
        self.match.close(reason)
        for conn in list(self._conns):
            conn._flush()  # the goodbye goes out first
            conn.closed = True
            with contextlib.suppress(Exception):
                conn.process.exit(0)
        for task in list(self._tasks):
            task.cancel()
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
        self._wake_soon()
        await self.finish_writes()

    async def finish_writes(self, timeout: float = 10.0) -> None:
        """Wait (off the loop) until the result, replay and save are on disk."""
        writer = self._writer
        if writer is None:
            return
        try:
            done = await asyncio.to_thread(writer.close, timeout)
        except asyncio.CancelledError:  # the app is closing: finish them here, then go
            writer.close(timeout)
            raise
        if not done:
            log.warning("the last records were not written within %.0f s", timeout)

    # ------------------------------------------------------------ auth

    async def check_code(
        self, peer: str, username: str, password: str
    ) -> tuple[str, int | None] | None:
        """The grant a code gives (``("play", seat)`` or ``("watch", None)``), or None."""
        locked = self.guard.locked(peer)
        grant: tuple[str, int | None] | None = None
        try:
            _fp, secret = split_code(password)
        except ValueError:
            secret = ""
        if username == "watch" and secret and same_secret(secret, split_code(self.watch_code)[1]):
            grant = ("watch", None)
        elif username == "play" and secret:
            for seat, code in self.codes.items():
                if same_secret(secret, split_code(code)[1]):
                    grant = ("play", seat)
        if locked:
            # Every answer waits the longest back-off; a right code still gets in
            # (behind a tunnel every guest is 127.0.0.1: a stranger's wrong codes
            # must not lock the real guest out). The wait ends well within the
            # login time-out, or the right code could never be answered.
            await asyncio.sleep(min(self.guard.max_delay, 0.8 * self.limits.login))
            if grant is None:
                log.warning("join refused from %s: too many wrong codes", peer)
                return None
            log.info("right code from %s after its wrong codes: let in", peer)
            return grant
        if grant is None:
            delay = self.guard.fail(peer)
            log.warning(
                "wrong join code from %s (%d of %d allowed); answering in %.1f s",
                peer,
                self.guard.failures(peer),
                self.guard.max_failures,
                delay,
            )
            await asyncio.sleep(delay)
            return None
        return grant

    def grant_for_key(self, username: str, key: bytes = b"") -> tuple[str, int | None] | None:
        """An allowed key watches, or plays one seat: the first free remote seat that
        no other key holds, the first time; that same seat ever after (to rejoin).
        So one key holder connecting twice cannot take both seats."""
        if username == "watch":
            return ("watch", None)
        bound = self.key_seats.get(key)
        if bound is not None:
            return ("play", bound)  # taken already: ``_seat`` refuses it, saying so
        held = set(self.key_seats.values())
        for seat in self.remote_seats:
            if seat not in held and not self.match.seat_taken(seat):
                self.key_seats[key] = seat
                log.info("an allowed key takes seat %d", seat + 1)
                return ("play", seat)
        return None

    # ------------------------------------------------------------ sessions

    async def _session(self, process: asyncssh.SSHServerProcess[bytes]) -> None:
        owner = process.channel.get_connection().get_owner()
        grant = owner.grant if isinstance(owner, _Server) else None
        peer = owner.peer if isinstance(owner, _Server) else "?"
        if process.subsystem != SUBSYSTEM or grant is None:
            log.warning("%s opened no spit session: closed", peer)
            process.stdout.write(proto.encode("error", reason="this is a spit host: use spit join"))
            process.exit(1)
            return
        await self.serve(process, grant, peer)

    async def serve(
        self,
        process: asyncssh.SSHServerProcess[bytes],
        grant: tuple[str, int | None],
        peer: str,
        takes_back: bool = False,
    ) -> None:
        """Play this match over ``process``, a channel someone else authenticated.

        ``grant`` is ``("play", seat)`` or ``("watch", None)``. ``spit server`` runs
        many matches behind one listener and hands each its players' channels here;
        ``takes_back``: this is the seat's own player, back from a drop, and a
        computer holding the seat leaves it when their hello arrives.
        """
        conn = _Conn(self, process, peer)
        conn.takes_back = takes_back
        self._conns.add(conn)
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        pinger = asyncio.create_task(self._pinger(conn))
        try:
            await self._serve(conn, grant)
        except (asyncssh.Error, OSError, asyncio.IncompleteReadError) as exc:
            conn.close(f"connection error: {exc}")
        except Exception:  # a defect here: say so in the log and to the guest, never silently
            log.exception("%s: internal error while serving it: closed", peer)
            conn.close("internal error on the host", tell=True)
        finally:
            pinger.cancel()
            if task is not None:
                self._tasks.discard(task)
            conn.close("disconnected")

    async def _serve(self, conn: _Conn, grant: tuple[str, int | None]) -> None:
        process = conn.process
        conn.send(proto.encode("hello", v=proto.VERSION, app=__version__))
        bucket = _Bucket(self.limits.rate, self.limits.burst, self.clock())
        buffer = b""
        hello = False
        # A half-sent message (or the hello) must be complete within ``stall``
        # seconds of its first byte, however slowly it drips in.
        started = self.clock()
        while not conn.closed:
            timeout = None
            if buffer or not hello:
                timeout = max(0.0, started + self.limits.stall - self.clock())
            try:
                chunk = await asyncio.wait_for(process.stdin.read(4096), timeout)
            except TimeoutError:
                what = "in the middle of a message" if buffer else "before saying hello"
                log.warning("%s stalled %s: closed", conn.peer, what)
                conn.close("stalled", tell=True)
                return
            if not chunk:
                return
            if not buffer and hello:
                started = self.clock()
            buffer += chunk
            lines = 0  # messages taken from this chunk so far
            moved = False  # a move, a choice or the hello: the schedule may have changed
            while b"\n" in buffer and not conn.closed:
                line, buffer = buffer.split(b"\n", 1)
                now = self.clock()
                conn.heard = now
                if not bucket.take(now):
                    log.warning("%s sent too many messages (flood): closed", conn.peer)
                    conn.close("too many messages", tell=True)
                    return
                try:
                    msg = proto.decode(line + b"\n", proto.GUEST_TO_HOST)
                except proto.ProtocolError as exc:
                    log.warning("%s broke the protocol (%s): closed", conn.peer, exc)
                    conn.close(str(exc), tell=True)
                    return
                started = now  # the rest of the buffer starts a new message
                if not hello:
                    if msg["t"] != "hello":
                        log.warning("%s sent %s before hello: closed", conn.peer, msg["t"])
                        conn.close("say hello first", tell=True)
                        return
                    problem = proto.version_problem(msg["v"])
                    if problem:
                        log.warning("%s speaks protocol %s: refused", conn.peer, msg["v"])
                        conn.close(problem, tell=True)
                        return
                    if not self._seat(conn, grant, msg, now):
                        return
                    hello = moved = True
                    continue
                self._handle(conn, msg, now, behind=lines > 0)
                lines += 1
                moved = moved or msg["t"] in ("action", "decide")
            # Tick at once: with no hold window the verdict goes out without waiting
            # for the tick loop to be scheduled. (Pings and pongs change nothing the
            # tick loop does not already wait for: no tick for them.)
            if moved:
                if self._done is not None:
                    self._tick()  # the tick the input asked for, now (and the next timer)
                else:
                    self.match.tick(self.clock())
            if len(buffer) >= proto.MAX_LINE:
                log.warning("%s sent a message over %d bytes: closed", conn.peer, proto.MAX_LINE)
                conn.close("message too long", tell=True)
                return

    def _seat(
        self, conn: _Conn, grant: tuple[str, int | None], msg: dict[str, Any], now: float
    ) -> bool:
        role, seat = grant
        if role == "watch" or msg.get("role") == "watch":
            if len(self.match.watchers) >= self.limits.watchers:
                log.warning("%s wanted to watch: no room for more spectators, refused", conn.peer)
                conn.close(
                    f"the host has no room for more spectators ({self.limits.watchers} "
                    "watch already)",
                    tell=True,
                )
                return False
            link: Any = conn
            if self.watch_delay > 0:
                link = DelayedLink(conn, self.watch_delay)
            self._watch_links[conn] = link
            self.match.attach_watcher(link)
            log.info("%s watches", conn.peer)
            return True
        assert seat is not None
        if conn.takes_back and self.bot_holds(seat):
            # the seat's own player is back (spit server): the computer leaves at once
            self.release_bot(seat)
            if self.on_handed_back is not None:
                self.on_handed_back(seat)
        if self.match.seat_taken(seat):
            log.warning("%s tried seat %d, which is taken: refused", conn.peer, seat + 1)
            conn.close("that seat is taken: someone already joined with this code", tell=True)
            return False
        if self.match.finished:
            conn.close("the game is over", tell=True)
            return False
        name = _clean_name(msg.get("name"))
        taken = any(same_name(name, other) for other in self.match.names)
        if name and not self.match.started and not taken:
            self.match.seats[seat].name = name
        level = msg.get("bot")
        if not self.match.started:  # the seat's player as the records keep it
            if level in LEVELS:
                self.guest_levels[seat] = level
            else:
                self.guest_levels.pop(seat, None)
        conn.seat = seat
        self.match.attach(seat, conn, conn.stamper, now)
        return True

    def _handle(self, conn: _Conn, msg: dict[str, Any], now: float, behind: bool = False) -> None:
        """One checked message; ``behind``: it came in the same read as the one before."""
        kind = msg["t"]
        if kind == "pong":
            t0 = msg["t0"]
            if t0 in conn.pings:
                del conn.pings[t0]
                # A pong that arrived together with another message may have waited
                # behind it (TCP delivers in order): its delay would say too much.
                if not behind:
                    conn.stamper.add_sample(t0, msg["tc"], now)
        elif kind == "ping":
            conn.send(proto.encode("pong", t0=msg["t0"], tc=now))
        elif kind == "action":
            if conn.seat is None:
                conn.send(
                    proto.encode("verdict", id=msg["id"], ok=False, reason="spectators cannot play")
                )
                return
            self.match.receive_action(conn.seat, msg, now, behind)
        elif kind == "decide":
            problem = self.match.decide(conn.seat, msg["what"], now)
            if problem:
                conn.send(proto.encode("error", reason=problem))
        elif kind == "bye":
            conn.close("left: " + msg["reason"][:60])
        elif kind == "error":
            log.info("%s reports: %s", conn.peer, msg["reason"][:100])

    async def _pinger(self, conn: _Conn) -> None:
        """Pings: quickly at first (to settle the clock estimate), then every second."""
        n = 0
        while not conn.closed:
            now = self.clock()
            if now - conn.heard > self.limits.dead_after:
                log.warning("%s silent for %.0f s: dropped", conn.peer, now - conn.heard)
                conn.close(
                    f"the host heard nothing from you for {self.limits.dead_after:g} s "
                    "and closed the connection",
                    tell=True,
                )
                return
            conn.pings[now] = None
            if len(conn.pings) > 32:
                conn.pings.pop(next(iter(conn.pings)))
            conn.send(proto.encode("ping", t0=now))
            n += 1
            await asyncio.sleep(0.05 if n < FAST_PINGS else self.limits.ping_every)

    def _lost(self, conn: _Conn, reason: str) -> None:
        self._conns.discard(conn)
        if conn.seat is not None:
            log.info("seat %d connection closed (%s)", conn.seat + 1, reason)
            if self.match.seats[conn.seat].link is conn:
                self.match.drop(conn.seat, self.clock())
        else:
            self.match.detach_watcher(self._watch_links.pop(conn, conn))

    # ------------------------------------------------------------ match hooks

    def _take_over(self, seat: int) -> None:
        """A computer takes the seat of a player who did not come back."""
        self.seat_bot(seat)

    def seat_bot(self, seat: int, level: str = "medium") -> None:
        """Seat a computer player of ``level`` (it plays through the same stamping path)."""
        loop = asyncio.get_running_loop()
        bot = make_bot(
            level,
            seat,
            seed=int(self.clock() * 1000) % 2**32,
            mode=self.game.mode,
            reaction=self.bot_reaction,
        )
        driver_box: list[BotDriver] = []
        local = LocalSeat(self, seat, lambda msg: driver_box[0].handle(msg))

        def send(action: Action, at: float) -> None:
            local.press(action, at)

        driver = BotDriver(bot, send, self.clock, loop.call_later)
        driver_box.append(driver)
        self._bots[seat] = driver
        self.match.attach(seat, local, Stamper.local(self.cap), self.clock())

    def bot_holds(self, seat: int) -> bool:
        """True while a computer plays ``seat``."""
        return seat in self._bots

    def release_bot(self, seat: int) -> None:
        """The computer leaves ``seat`` (its player is back): the seat waits for them."""
        driver = self._bots.pop(seat, None)
        if driver is None:
            return
        driver.handle({"t": "bye", "reason": "the player is back"})
        self.match.drop(seat, self.clock(), why="handed back")

    @property
    def held_output(self) -> asyncio.Future[None] | None:
        """While writes given to ``hold_output`` run: the future of their end, else None."""
        held = self._held
        return held if held is not None and not held.done() else None

    def hold_output(self, write: asyncio.Future[Any], timeout: float) -> None:
        """Keep every message to the guests and spectators back until ``write`` is
        done, or ``timeout`` seconds have passed (then say so in the log).

        A node of ``spit server`` holds the messages a tick made until that
        tick's actions are kept where another node can read them, so nothing
        a player saw can be lost with this node.
        """
        if self._held is None or self._held.done():
            self._held = asyncio.get_running_loop().create_future()
        held = self._held
        self._holding.add(write)

        def done(_write: object = None) -> None:
            if write not in self._holding:
                return
            self._holding.discard(write)
            if not self._holding and not held.done():
                held.set_result(None)

        def too_slow() -> None:
            if write in self._holding:
                log.warning("a write the messages wait for took over %.0f ms", timeout * 1000)
                done()

        write.add_done_callback(done)
        asyncio.get_running_loop().call_later(timeout, too_slow)

    def tail_since(self, mark: TailMark) -> tuple[dict[str, Any], TailMark]:
        """What the game gained since ``mark``, as a checkpoint's tail entry
        (``spit.net.resume.extend_checkpoint`` adds it to a checkpoint), and the
        mark after it. Presses not judged yet come again in the next entry."""
        game = self.game
        actions = game.actions
        first = min(mark.actions, len(actions))
        times = self._times_from(first)
        presses = self._judged_presses(mark.presses)
        fumbles = self._fumble_notes(mark.fumbles)
        unjudged = next((i for i, p in enumerate(presses) if p.judged is None), len(presses))
        entry = {
            "seq": mark.seq,
            "actions": [first, [a.to_json() for a in actions[first:]]],
            "times": [first, [round(float(t), 4) for t in times]],
            "presses": [mark.presses, [p.to_json() for p in presses]],
            "fumbles": [mark.fumbles, [f.to_json() for f in fumbles]],
        }
        after = replace(
            mark,
            seq=mark.seq + 1,
            actions=len(actions),
            presses=mark.presses + unjudged,
            fumbles=mark.fumbles + len(fumbles),
        )
        return entry, after

    def tail_mark(self) -> TailMark:
        """The mark of the game as it is now (a tail starts here, after a checkpoint)."""
        from spit.net.resume import TailMark

        earlier = self.earlier.h8 if self.earlier is not None else None
        fumbles = (len(earlier.fumbles) if earlier is not None else 0) + (
            len(self.match.arbiter.fumbles) if self.match.arbiter.timing.fumble_time > 0 else 0
        )
        presses = self._judged_presses(0)
        unjudged = next((i for i, p in enumerate(presses) if p.judged is None), len(presses))
        return TailMark(actions=len(self.game.actions), presses=unjudged, fumbles=fumbles)

    def _times_from(self, first: int) -> list[float]:
        """The times of the game's actions from index ``first`` on, as ``_replay_json``
        keeps them, reading only the arbiter's new log entries (a tick's tail needs
        a few, not the whole game's)."""
        log = self.match.arbiter.log
        before = len(self.game.actions) - len(log)  # actions the arbiter did not apply
        if self._archiver is not None or first < before:
            times = self._times()
            times = [0.0] * (len(self.game.actions) - len(times)) + times
            return times[first:]
        from spit.store.replays import times_from_log

        offset = self.earlier.offset if self.earlier is not None else 0.0
        return times_from_log(log[first - before :], self.match.arbiter.start_time, offset)

    def _judged_presses(self, first: int) -> list[Any]:
        """The race audit's presses from index ``first`` on (as the replay keeps them)."""
        session = self.match.presses
        if self.earlier is None:
            return list(session[first:])
        return self.earlier.presses(session)[first:]

    def _fumble_notes(self, first: int) -> list[Any]:
        """The fumble record's notes (H8) from index ``first`` on."""
        earlier = self.earlier.h8 if self.earlier is not None else None
        before = len(earlier.fumbles) if earlier is not None else 0
        if before + len(self.match.arbiter.fumbles) <= first:
            return []  # none since (the usual case: no need to build the record)
        h8 = (self._archiver.meta if self._archiver is not None else self._meta()).h8
        return [] if h8 is None else list(h8.fumbles[first:])

    def replay_data(self) -> dict[str, Any]:
        """The game so far in the replay format (what ``spit replay`` reads); a new
        dict each call (its top level may be changed)."""
        return dict(self._replay_json())

    def result_text(self) -> str:
        """The result in the words of a local game (the play layer's), never a rule id."""
        from spit.play.status import result_text

        return result_text(self.game, self.match.names)

    def _on_outcomes(self, outcomes: list[Any]) -> None:
        if self._archiver is not None:
            self._archiver(outcomes)
        if self.on_applied is not None and any(isinstance(o, Applied) for o in outcomes):
            self.on_applied()

    def _times(self) -> list[float]:
        if self._archiver is not None:
            return list(self._archiver.times())
        from spit.store.replays import times_from_log

        times = times_from_log(self.match.arbiter.log, self.match.arbiter.start_time)
        return times if self.earlier is None else self.earlier.all_times(times)

    def _audit(self) -> dict[str, Any]:
        """The race audit for the replay: every press the host judged."""
        from spit.store.races import presses_json

        presses = self.match.presses
        if self.earlier is not None:
            presses = self.earlier.presses(presses)
        return {"presses": presses_json(presses)}

    def _meta(self) -> ReplayMeta:
        """The replay metadata without an archiver: a resumed match keeps its date
        and earlier fumbles (H8)."""
        from spit.store.replays import h8_record, new_meta

        arbiter = self.match.arbiter
        players = self._players(self.match.names)
        earlier = self.earlier
        if earlier is None:
            h8 = h8_record(arbiter.timing, arbiter.fumbles, arbiter.start_time)
            return replace(new_meta(players), h8=h8)
        h8 = earlier.h8_record(arbiter.timing, arbiter.fumbles, arbiter.start_time)
        return replace(earlier.replay.meta, players=(players[0], players[1]), h8=h8)

    def _replay_json(self) -> dict[str, Any]:
        """The replay (built once when the game is over: the players' copy and the
        server's are the same)."""
        if self._final_replay is not None:
            return self._final_replay
        from spit.store.replays import replay_data

        meta = self._archiver.meta if self._archiver is not None else self._meta()
        times = self._times()
        game = self.game
        if len(times) != len(game.actions):
            times = [0.0] * (len(game.actions) - len(times)) + times
        data = replay_data(game, times, meta, self._audit())
        if game.over:
            self._final_replay = data
        return data

    def _players(self, names: tuple[str, str]) -> list[Any]:
        """The players as replays and saves keep them: the guests' seats are remote."""
        from spit.store.replays import PlayerInfo

        return [
            PlayerInfo(n, bot=self.guest_levels.get(i), remote=i in self.remote_seats)
            for i, n in enumerate(names)
        ]

    def _save(self) -> str:
        """Keep the unfinished game in the host's saved games (``spit resume``)."""
        from spit.store.resume import new_save_path, save_game

        try:
            if self._archiver is not None:
                problem = self._archiver.save_now()
                if problem:
                    raise OSError(problem)
                path = self._archiver.save_path
            else:
                meta = self._meta()
                path = save_game(self.game, self._times(), meta, new_save_path(self.game, meta))
        except (OSError, ValueError) as exc:
            return f"the match could not be saved on the host: {exc}"
        log.info("match saved to %s", path)
        return "the match was saved on the host: `spit resume` there picks it up again"


def _clean_name(value: Any) -> str:
    if not isinstance(value, str):
        return ""
    return "".join(c for c in value if c.isprintable())[:20].strip()


def split_address(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """``host``, ``host:port`` or ``[v6]:port`` -> (host, port); ValueError if not."""
    text = text.strip()
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port_text = rest[1:] if rest.startswith(":") else ""
    elif text.count(":") == 1:
        host, _, port_text = text.partition(":")
    else:
        host, port_text = text, ""
    if not host:
        raise ValueError(f"no host in {text!r}")
    if not port_text:
        return host, default_port
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ValueError(f"bad port in {text!r}")
    return host, int(port_text)
