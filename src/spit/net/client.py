"""``spit join``: the guest's end of the SSH connection.

``Guest.connect`` checks the host's key against the join code before sending
the code, opens the ``spit`` subsystem, says hello (protocol version), and
answers the host's pings with its own clock. Every message from the host is
checked with the schema; what is left goes to ``on_message``. ``latency``
delays everything both ways (tests use it to play over a slow link).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
import time
from collections.abc import Callable
from typing import Any

import asyncssh

from spit import __version__
from spit.engine import Action
from spit.net import protocol as proto
from spit.net.codes import CodeError, key_fingerprint, split_code
from spit.net.host import CIPHERS, SUBSYSTEM
from spit.realtime.arbiter import Clock

log = logging.getLogger("spit.net")


class JoinError(Exception):
    """Joining failed; the text says why, for the player."""


async def ssh_connect(
    address: str,
    port: int,
    client: asyncssh.SSHClient,
    timeout: float,
    *,
    username: str,
    password: str | None,
    client_keys: list[asyncssh.SSHKey] | None,
    preferred_auth: str,
) -> asyncssh.SSHClientConnection:
    """An SSH connection to a spit host or server, ``client`` checking its key.

    Only spit's host key type and ciphers, none of the user's SSH files (known
    hosts, agent, config); on failure one of ``CONNECT_ERRORS``.
    """
    return await asyncio.wait_for(
        asyncssh.connect(
            address,
            port,
            username=username,
            password=password,
            client_keys=client_keys,
            client_factory=lambda: client,
            known_hosts=([], [], []),
            server_host_key_algs=["ssh-ed25519"],
            encryption_algs=list(CIPHERS),
            agent_path=None,
            config=None,
            preferred_auth=preferred_auth,
        ),
        timeout,
    )


#: What connecting over SSH may raise that ``connect_failure`` puts in words.
CONNECT_ERRORS = (TimeoutError, asyncssh.DisconnectError, OSError)


def connect_failure(
    exc: BaseException,
    *,
    peer: str,
    where: str,
    timeout: float,
    refused: str,
    key_mismatch: JoinError | None = None,
) -> JoinError:
    """What a player reads when connecting to the ``peer`` ("host", "server") at ``where`` failed.

    ``exc`` is one of ``CONNECT_ERRORS``; ``refused`` is the words for a refused
    sign-in, ``key_mismatch`` the error for a host key that is not the one expected
    (None if the key was not the trouble).
    """
    if isinstance(exc, TimeoutError):
        return JoinError(f"no answer from {where} within {timeout:.0f} s")
    if isinstance(exc, asyncssh.PermissionDenied):
        return JoinError(refused)
    if isinstance(exc, (asyncssh.HostKeyNotVerifiable, asyncssh.KeyExchangeFailed)):
        if key_mismatch is not None:
            return key_mismatch
        return JoinError(f"secure connection failed: {exc.reason}")
    if isinstance(exc, asyncssh.DisconnectError):
        # the peer's own words (why it is full), without asyncssh's "(error 12)"
        reason = re.sub(r"\s*\(error \d+\)$", "", exc.reason)
        return JoinError(f"the {peer} closed the connection: {reason}")
    if isinstance(exc, OSError):
        return JoinError(f"cannot reach {where}: {exc.strerror or exc}")
    return JoinError(f"cannot connect to {where}: {exc}")


class _Client(asyncssh.SSHClient):
    def __init__(self, fingerprint: str) -> None:
        self.fingerprint = fingerprint
        self.mismatch = False

    def validate_host_public_key(
        self, host: str, addr: str, port: int, key: asyncssh.SSHKey
    ) -> bool:
        ok = key_fingerprint(key) == self.fingerprint
        self.mismatch = not ok
        return ok


class _Delay:
    """Runs callbacks ``delay`` seconds later, in order (a slow link for tests)."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.queue: asyncio.Queue[tuple[float, Callable[[], None]]] = asyncio.Queue()
        self.task = asyncio.create_task(self._run())

    def put(self, fn: Callable[[], None]) -> None:
        self.queue.put_nowait((time.monotonic() + self.delay, fn))

    async def _run(self) -> None:
        while True:
            due, fn = await self.queue.get()
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            fn()


class Guest:
    """A connection to a spit host."""

    def __init__(self, clock: Clock, latency: float) -> None:
        self.clock = clock
        self.latency = latency
        self.conn: asyncssh.SSHClientConnection | None = None
        self.process: asyncssh.SSHClientProcess[bytes] | None = None
        self.on_message: Callable[[dict[str, Any]], None] = lambda msg: None
        #: why the connection ended (None while it is open)
        self.ended: str | None = None
        self.done = asyncio.Event()
        self.sent = 0
        self._next_id = 0
        self._reader: asyncio.Task[None] | None = None
        self._out: _Delay | None = None
        self._in: _Delay | None = None
        self._last_word: str | None = None
        self.answer_pings = True
        #: False for a match channel on a connection someone else opened (and closes)
        self.owns_connection = True

    @classmethod
    async def connect(
        cls,
        address: str,
        port: int,
        code: str,
        *,
        watch: bool = False,
        name: str = "",
        clock: Clock = time.monotonic,
        latency: float = 0.0,
        timeout: float = 15.0,
        on_message: Callable[[dict[str, Any]], None] | None = None,
        client_key: asyncssh.SSHKey | None = None,
        say_hello: bool = True,
        answer_pings: bool = True,
        bot: str | None = None,
    ) -> Guest:
        """Connect and log in; raise JoinError with a clear reason if that fails.

        ``bot``: the level of the computer that plays this seat (the host records
        it as a computer, not as a person). ``say_hello=False`` leaves the hello to
        the caller and ``answer_pings=False`` hands the pings to ``on_message``
        instead of answering them (tests of bad peers, and of how the host uses
        the answers).
        """
        try:
            fingerprint, _secret = split_code(code)
        except CodeError as exc:
            raise JoinError(str(exc)) from None
        guest = cls(clock, latency)
        guest.answer_pings = answer_pings
        if on_message is not None:
            guest.on_message = on_message
        client = _Client(fingerprint)
        try:
            conn = await ssh_connect(
                address,
                port,
                client,
                timeout,
                username="watch" if watch else "play",
                password=code.strip().lower(),
                client_keys=[client_key] if client_key is not None else None,
                preferred_auth="publickey,password" if client_key else "password",
            )
        except CONNECT_ERRORS as exc:
            mismatch = None
            if client.mismatch:
                mismatch = JoinError(
                    "the host's key does not match the join code: this may not be the "
                    "host you were given (someone in the middle?); ask for the line again"
                )
            raise connect_failure(
                exc,
                peer="host",
                where=f"{address}:{port}",
                timeout=timeout,
                refused="the host refused the join code (wrong or already used)",
                key_mismatch=mismatch,
            ) from None
        try:
            await guest._open(conn, SUBSYSTEM)
        except JoinError:
            conn.close()
            raise
        guest._start(latency, say_hello, name, watch, bot)
        return guest

    @classmethod
    async def on_connection(
        cls,
        conn: asyncssh.SSHClientConnection,
        subsystem: str,
        *,
        name: str = "",
        watch: bool = False,
        clock: Clock = time.monotonic,
        on_message: Callable[[dict[str, Any]], None] | None = None,
    ) -> Guest:
        """A match on a connection that is already signed in (``spit online``'s second channel).

        Closing this guest closes only its channel, not the connection.
        """
        guest = cls(clock, 0.0)
        guest.owns_connection = False
        if on_message is not None:
            guest.on_message = on_message
        await guest._open(conn, subsystem)
        guest._start(0.0, True, name, watch)
        return guest

    async def _open(self, conn: asyncssh.SSHClientConnection, subsystem: str) -> None:
        self.conn = conn
        try:
            self.process = await conn.create_process(subsystem=subsystem, encoding=None)
        except (asyncssh.Error, OSError) as exc:
            raise JoinError(f"the host would not open a game session: {exc}") from None

    def _start(
        self, latency: float, say_hello: bool, name: str, watch: bool, bot: str | None = None
    ) -> None:
        guest = self
        if latency > 0:
            guest._out = _Delay(latency / 2)
            guest._in = _Delay(latency / 2)
        guest._reader = asyncio.create_task(guest._read())
        if say_hello:
            extra = {"bot": bot[:20]} if bot is not None else {}
            guest.send(
                "hello",
                v=proto.VERSION,
                app=__version__,
                name=name[:40],
                role="watch" if watch else "play",
                **extra,
            )

    # ------------------------------------------------------------ sending

    def send(self, kind: str, **fields: Any) -> None:
        """Send one message (after the injected latency, if any)."""
        self.send_raw(proto.encode(kind, **fields))

    def send_raw(self, data: bytes) -> None:
        """Send bytes as they are (tests send broken ones)."""
        if self._out is not None:
            self._out.put(lambda: self._write(data))
        else:
            self._write(data)

    def _write(self, data: bytes) -> None:
        if self.process is None or self.ended is not None:
            return
        with contextlib.suppress(OSError, asyncssh.Error):
            self.process.stdin.write(data)
            self.sent += 1

    def action(self, action: Action, at: float | None = None) -> int:
        """Send a press (``at``: when it was made, our clock); returns its id."""
        self._next_id += 1
        at = self.clock() if at is None else at
        self.send("action", id=self._next_id, a=action.to_json(), at=at)
        return self._next_id

    def decide(self, what: str) -> None:
        """Answer the host's ``choose``: ``bot`` or ``save``."""
        self.send("decide", what=what)

    # ------------------------------------------------------------ receiving

    async def _read(self) -> None:
        assert self.process is not None
        buffer = b""
        reason = "the connection to the host was lost (the host quit or the network failed)"
        try:
            while True:
                chunk = await self.process.stdout.read(65536)
                if not chunk:
                    break
                buffer += chunk
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    msg = proto.decode(line + b"\n", proto.HOST_TO_GUEST, proto.MAX_HOST_LINE)
                    if self._in is not None:
                        self._in.put(functools.partial(self._receive, msg))
                    else:
                        self._receive(msg)
                if len(buffer) > proto.MAX_HOST_LINE:
                    raise proto.ProtocolError("the host sent a message that is too long")
        except proto.ProtocolError as exc:
            reason = f"the host broke the protocol: {exc}"
        except (asyncssh.Error, OSError) as exc:
            reason = f"the connection to the host was lost: {exc}"
        except Exception as exc:  # a defect in a message handler: end cleanly, say what
            log.exception("error while handling a message from the host")
            reason = f"internal error ({type(exc).__name__}: {exc})"
        if self._in is not None:
            self._in.put(lambda: self._end(reason))
        else:
            self._end(reason)

    def _receive(self, msg: dict[str, Any]) -> None:
        kind = msg["t"]
        if kind == "ping":
            if self.answer_pings:
                self.send("pong", t0=msg["t0"], tc=self.clock())
            else:
                self.on_message(msg)  # the caller answers (or not)
            return
        if kind == "hello":
            problem = proto.version_problem(msg["v"])
            if problem:
                self._end(problem)
                return
        if kind in ("bye", "error"):
            self._last_word = msg["reason"]
        self.on_message(msg)
        if kind == "bye":
            self._end(msg["reason"])

    def _end(self, reason: str) -> None:
        if self.ended is None:
            # The host's last word (why it closed us) says more than a lost connection.
            self.ended = self._last_word or reason
            self.done.set()

    def close_now(self) -> None:
        """Say goodbye and start closing, without waiting (the app is quitting)."""
        if self.ended is None and self.process is not None:
            with contextlib.suppress(Exception):
                self.process.stdin.write(proto.encode("bye", reason="left"))
        self._end("you left")
        for helper in (self._out, self._in):
            if helper is not None:
                helper.task.cancel()
        if self._reader is not None:
            self._reader.cancel()
        if not self.owns_connection:
            if self.process is not None:
                with contextlib.suppress(Exception):
                    self.process.close()
        elif self.conn is not None:
            self.conn.close()

    async def close(self) -> None:
        """Close the connection (politely, if it is still open) and wait until it is."""
        self.close_now()
        if self.conn is not None and self.owns_connection:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.conn.wait_closed(), 2)
