"""The embedded store: one SQLite file in WAL mode (nothing to install), for a single node.

SQLite calls block, so they run on one worker thread of their own and the
server's event loop never waits on the disk. SQLite has one writer at a time:
a write transaction takes the lock at once (``BEGIN IMMEDIATE``), and an
asyncio lock keeps each transaction's statements together on the one
connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from spit.server.store import Duplicate, Row, SqlStore, StoreError

T = TypeVar("T")


def _private_file(path: Path) -> None:
    """Make ``path``'s directory 0700 and the file (and SQLite's side files) 0600."""
    path.parent.mkdir(parents=True, exist_ok=True)
    os.chmod(path.parent, 0o700)
    for suffix in ("", "-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            os.chmod(side, 0o600)


class _SqliteTx:
    """A transaction's statements, each run on the store's worker thread."""

    def __init__(self, store: SqliteStore) -> None:
        self.store = store

    async def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return await self.store.call(lambda db: db.execute(sql, tuple(params)).fetchone())

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return await self.store.call(lambda db: db.execute(sql, tuple(params)).fetchall())

    async def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        return await self.store.call(lambda db: db.execute(sql, tuple(params)).rowcount)


class SqliteStore(SqlStore):
    """The server's store in one SQLite file (or ``:memory:``)."""

    dialect = "sqlite"

    def __init__(self, path: Path | str) -> None:
        self.path = None if str(path) == ":memory:" else Path(path)
        self._target = str(path)
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="spit-store")
        self._db: sqlite3.Connection | None = None
        self._lock = asyncio.Lock()

    async def call(self, job: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``job`` with the connection on the worker thread (unique breaks: ``Duplicate``)."""

        def work() -> T:
            if self._db is None:
                raise StoreError("The store is not open.")
            try:
                return job(self._db)
            except sqlite3.IntegrityError as exc:
                raise Duplicate(str(exc)) from None

        return await asyncio.get_running_loop().run_in_executor(self._pool, work)

    @contextlib.asynccontextmanager
    async def transaction(self, write: bool = True) -> AsyncIterator[_SqliteTx]:
        """One transaction; a write one takes SQLite's write lock at once."""
        async with self._lock:
            await self.call(lambda db: db.execute("BEGIN IMMEDIATE" if write else "BEGIN"))
            try:
                yield _SqliteTx(self)
            except BaseException:
                await self.call(lambda db: db.execute("ROLLBACK"))
                raise
            await self.call(lambda db: db.execute("COMMIT"))

    async def open(self) -> None:
        """Open (or create) the database file, private to its owner, and migrate it."""

        def opening() -> None:
            if self.path is not None:
                _private_file(self.path)
                old_mask = os.umask(0o077)
                try:
                    db = sqlite3.connect(
                        self._target, isolation_level=None, check_same_thread=False
                    )
                finally:
                    os.umask(old_mask)
            else:
                db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA foreign_keys=ON")
            db.execute("PRAGMA busy_timeout=5000")
            self._db = db

        await asyncio.get_running_loop().run_in_executor(self._pool, opening)
        await self.migrate()
        if self.path is not None:
            _private_file(self.path)

    async def close(self) -> None:
        """Close the database and the worker thread."""

        def closing() -> None:
            if self._db is not None:
                self._db.close()
                self._db = None

        await asyncio.get_running_loop().run_in_executor(self._pool, closing)
        self._pool.shutdown(wait=True)
