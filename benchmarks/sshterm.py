"""A plain ssh session on a pty, as a player with only an ssh client has one.

Shared by ``bench_server.py`` (the doors' memory) and the door's tests
(``tests/server``): sign in to a server on 127.0.0.1, open a terminal, read
what it shows without its control sequences, type keys. A benchmark imports
it as ``sshterm`` (its own folder is on the path), a test as
``benchmarks.sshterm`` (pytest puts the repository root on the path).
"""

from __future__ import annotations

import asyncio
import contextlib
import re

import asyncssh

#: terminal control sequences: CSI (colours, cursor moves, modes), charset, keypad, OSC
ANSI = re.compile(rb"\x1b\[[0-9;?$>]*[A-Za-z~]|\x1b[()][A-Z0-9]|\x1b[=>]|\x1b\][^\x07]*\x07")


async def sign_in(
    port: int, username: str = "guest", key: asyncssh.SSHKey | None = None
) -> asyncssh.SSHClientConnection:
    """An SSH connection to 127.0.0.1:``port`` (any host key; ``key`` or none)."""
    return await asyncssh.connect(
        "127.0.0.1",
        port,
        username=username,
        client_keys=[key] if key is not None else None,
        known_hosts=None,
        agent_path=None,
        config=None,
    )


class Terminal:
    """The far end of a plain ssh session: what it showed, and keys to type.

    A task reads everything the session sends as it comes (so the far end never
    waits on a full pipe) into ``seen``.
    """

    def __init__(self, process: asyncssh.SSHClientProcess[bytes]) -> None:
        self.process = process
        self.seen = bytearray()
        self.closed = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def open(
        cls,
        conn: asyncssh.SSHClientConnection,
        size: tuple[int, int] = (80, 24),
        term_type: str = "xterm-256color",
    ) -> Terminal:
        """A session with a pty of ``size`` (columns, rows) on ``conn``."""
        process = await conn.create_process(term_type=term_type, term_size=size, encoding=None)
        return cls(process)

    async def _read(self) -> None:
        try:
            while chunk := await self.process.stdout.read(65536):
                self.seen.extend(chunk)
        except (asyncssh.Error, OSError):
            pass
        finally:
            self.closed.set()

    def text(self) -> str:
        """Everything shown so far, without control sequences."""
        return ANSI.sub(b"", bytes(self.seen)).decode("utf-8", "replace")

    async def shows(self, words: str, timeout: float) -> None:
        """Wait until ``words`` have been shown; AssertionError if the session ends first."""

        async def wait() -> None:
            while words not in self.text():
                if self.closed.is_set():
                    raise AssertionError(f"the session ended before showing {words!r}")
                await asyncio.sleep(0.05)

        await asyncio.wait_for(wait(), timeout)

    def type(self, keys: str) -> None:
        """Send ``keys`` as typed (escape sequences as they are)."""
        self.process.stdin.write(keys.encode())

    def resize(self, columns: int, rows: int) -> None:
        """Change the terminal's size, as a window resize does."""
        self.process.change_terminal_size(columns, rows)

    async def stop(self) -> None:
        """Stop reading (the connection is the caller's to close)."""
        self.reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.reader
