"""The plain-ssh door: ``ssh -t -p PORT HOST`` plays with nothing installed.

For each such connection the server starts the game's own screens
(``spit online``) in a process of their own, on a pseudo-terminal, and
relays bytes between that terminal and the SSH channel: the player's
terminal size and its changes, colours (``TERM``), and a clean end when
either side goes away. The process signs back in to this server as the
connection's player with a one-time token, so both doors share one lobby and
one code path. Presses are stamped by that process as they reach the server,
so the player's own network delay counts against them in races
(docs/server.md says what that costs).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import shutil
import signal
import struct
import sys
import tempfile
import termios
from typing import Any, Protocol

import asyncssh

from spit.net.codes import key_fingerprint
from spit.net.defaults import DOOR_TOKEN_VARIABLE

log = logging.getLogger("spit.server")

#: Seconds the game process has to end after a hang-up before it is killed.
HANGUP_GRACE = 3.0
#: Seconds the doors' game processes have, when the server shuts down, to end by
#: themselves (told so by the lobby), then as many again after a hang-up.
SHUTDOWN_GRACE = 3.0


class DoorHost(Protocol):
    """What the door needs of the server node."""

    open_doors: int
    key: asyncssh.SSHKey
    #: each running door's game process id -> its terminal (the pty's master side)
    doors: dict[int, int]
    #: the address of each running door's player
    door_peers: list[str]

    def door_port(self) -> int: ...
    def max_doors(self) -> int: ...
    def doors_per_address(self) -> int: ...
    def idle_timeout(self) -> float: ...
    def door_token(self, identity: Any) -> str: ...
    def event_line(self, kind: str, /, **fields: object) -> str: ...


def _set_size(fd: int, cols: int, rows: int) -> None:
    cols = max(1, min(int(cols or 80), 1000))
    rows = max(1, min(int(rows or 24), 1000))
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


def terminal_size(fd: int) -> tuple[int, int]:
    """(columns, rows) of the terminal ``fd``."""
    rows, cols, _, _ = struct.unpack("HHHH", fcntl.ioctl(fd, termios.TIOCGWINSZ, b"\0" * 8))
    return cols, rows


def resident_mb(pid: int) -> float | None:
    """The resident memory of process ``pid`` in MB (Linux), or None."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        return None
    return None


def _take_terminal() -> None:  # runs in the child, before exec
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def game_process(
    port: int, pin: str, token: str, home: str, term: str
) -> tuple[list[str], dict[str, str]]:
    """The command line and environment of one door's game process (``spit online``).

    The one-time token goes in the environment, not on the command line: any
    local user can read a command line (``ps``), and a token starting with ``-``
    would be taken for an option.
    """
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": home,
        "TERM": term,
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "SPIT_CONFIG": os.path.join(home, "config.toml"),
        "SPIT_DATA_DIR": os.path.join(home, "data"),
        "SPIT_PURE_PYTHON": os.environ.get("SPIT_PURE_PYTHON", ""),
        "PYTHONPATH": os.pathsep.join(p for p in sys.path if p),
        DOOR_TOKEN_VARIABLE: token,
    }
    if os.environ.get("NO_COLOR"):
        env["NO_COLOR"] = "1"
    command = [sys.executable, "-m", "spit", "online", f"127.0.0.1:{port}", "--door", "--pin", pin]
    return command, env


async def run_door(node: DoorHost, gate: Any, process: asyncssh.SSHServerProcess[bytes]) -> None:
    """Serve one plain-ssh player until they leave or the connection drops."""
    if node.open_doors >= node.max_doors():
        process.stdout.write(b"The server is full right now; try again in a few minutes.\r\n")
        return
    identity = gate.effective()
    if node.door_peers.count(identity.peer) >= node.doors_per_address():
        process.stdout.write(b"Too many sessions from your address; close one first.\r\n")
        return
    token = node.door_token(identity)
    cols, rows, _, _ = process.get_terminal_size()
    home = tempfile.mkdtemp(prefix="spit-door-")
    os.chmod(home, 0o700)
    command, env = game_process(
        node.door_port(),
        key_fingerprint(node.key),
        token,
        home,
        process.get_terminal_type() or "xterm-256color",
    )
    master, slave = os.openpty()
    _set_size(slave, cols, rows)
    node.open_doors += 1
    node.door_peers.append(identity.peer)
    child: asyncio.subprocess.Process | None = None
    loop = asyncio.get_running_loop()
    output_done = asyncio.Event()
    try:
        child = await asyncio.create_subprocess_exec(
            *command,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            cwd=home,
            start_new_session=True,
            preexec_fn=_take_terminal,
        )
        os.close(slave)
        slave = -1
        node.doors[child.pid] = master
        log.info(node.event_line("door_open", peer=identity.peer, pid=child.pid))

        def readable() -> None:
            try:
                data = os.read(master, 65536)
            except OSError:
                data = b""
            if not data:
                loop.remove_reader(master)
                output_done.set()
                return
            try:
                process.stdout.write(data)
            except (OSError, asyncssh.Error):
                loop.remove_reader(master)
                output_done.set()

        loop.add_reader(master, readable)
        pump = asyncio.create_task(_pump_input(process, master, node.idle_timeout()))
        waiter = asyncio.create_task(child.wait())
        done, _ = await asyncio.wait({pump, waiter}, return_when=asyncio.FIRST_COMPLETED)
        if waiter not in done:  # the player hung up: let the game end cleanly
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, signal.SIGHUP)
            try:
                await asyncio.wait_for(asyncio.shield(waiter), HANGUP_GRACE)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(child.pid, signal.SIGKILL)
                await waiter
        # what the game wrote as it ended (the terminal given back, its last
        # words) reaches the player before the session ends, if they are there
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(output_done.wait(), 1.0)
        pump.cancel()
        code = child.returncode or 0
        with contextlib.suppress(Exception):
            process.exit(code if code >= 0 else 1)
    finally:
        node.open_doors -= 1
        node.door_peers.remove(identity.peer)
        if child is not None:
            node.doors.pop(child.pid, None)
        with contextlib.suppress(Exception):
            loop.remove_reader(master)
        with contextlib.suppress(OSError):
            os.close(master)
        if slave >= 0:
            with contextlib.suppress(OSError):
                os.close(slave)
        if child is not None and child.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, signal.SIGKILL)
        shutil.rmtree(home, ignore_errors=True)
        log.info(node.event_line("door_closed", peer=identity.peer))


async def let_doors_end(node: DoorHost) -> None:
    """Before the server closes its connections: let each door's game process end,
    so that it gives its player's terminal back as it was (the app's screen left,
    mouse reporting off, the cursor shown) and says why, over a connection still
    open. Told by the lobby that the server is going, a process ends by itself; one
    still running after ``SHUTDOWN_GRACE`` is hung up on, as if its player had."""
    if await _doors_gone(node, SHUTDOWN_GRACE):
        return
    for pid in list(node.doors):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGHUP)
    await _doors_gone(node, SHUTDOWN_GRACE)


async def _doors_gone(node: DoorHost, seconds: float) -> bool:
    """Wait up to ``seconds`` for every door's session to end; True if they all did."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while node.doors and loop.time() < deadline:
        await asyncio.sleep(0.05)
    return not node.doors


async def _pump_input(process: asyncssh.SSHServerProcess[bytes], master: int, idle: float) -> None:
    """Keys from the SSH channel into the terminal; size changes as they come.

    Returns (ending the session) when the channel closes or after ``idle``
    seconds without a key.
    """
    while True:
        try:
            data = await asyncio.wait_for(process.stdin.read(4096), idle)
        except TimeoutError:
            with contextlib.suppress(Exception):
                process.stdout.write(b"\r\nClosed after a long time without a key.\r\n")
            return
        except asyncssh.TerminalSizeChanged as change:
            with contextlib.suppress(OSError):
                _set_size(master, change.width, change.height)
            continue
        except (asyncssh.Error, OSError):
            return
        if not data:
            return
        view = memoryview(data)
        while view:
            try:
                written = os.write(master, view)
            except BlockingIOError:
                await asyncio.sleep(0.01)
                continue
            except OSError:
                return
            view = view[written:]
