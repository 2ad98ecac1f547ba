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
    """A transaction's statements, each run on the store's worker thread.

    The transaction begins with its first statement, in the same job on the
    worker (each job waits its turn of the event loop and of the interpreter's
    lock: a job fewer for every transaction).
    """

    def __init__(self, store: SqliteStore, begin: str) -> None:
        self.store = store
        #: the BEGIN statement until a job has taken it
        self.begin: str | None = begin
        self.begun = False

    async def _run(self, job: Callable[[sqlite3.Connection], T]) -> T:
        begin = self.begin
        if begin is None:
            return await self.store.call(job)
        self.begin = None

        def begun_then(db: sqlite3.Connection) -> T:
            db.execute(begin)
            self.begun = True
            return job(db)

        return await self.store.call(begun_then)

    async def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return await self._run(lambda db: db.execute(sql, tuple(params)).fetchone())

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return await self._run(lambda db: db.execute(sql, tuple(params)).fetchall())

    async def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        return await self._run(lambda db: db.execute(sql, tuple(params)).rowcount)

    async def run_each(self, sql: str, rows: Sequence[Sequence[Any]]) -> list[int]:
        # one job on the worker for them all (a job each: a checkpoint round of 200
        # matches held the write lock for 400 ms)
        return await self._run(
            lambda db: [db.execute(sql, tuple(params)).rowcount for params in rows]
        )


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
            tx = _SqliteTx(self, "BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield tx
            except BaseException:
                if tx.begin is None:  # a job began it (or is beginning it: cancelled)

                    def rollback(db: sqlite3.Connection) -> None:
                        if db.in_transaction:
                            db.execute("ROLLBACK")

                    await self.call(rollback)
                raise
            if tx.begun:
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
            db.execute("PRAGMA foreign_keys=ON")
            db.execute("PRAGMA busy_timeout=5000")
            self._db = db

        try:
            await asyncio.get_running_loop().run_in_executor(self._pool, opening)
            await self.migrate()  # first: a file that is not spit's is left as it was
            await self.call(lambda db: db.execute("PRAGMA journal_mode=WAL"))
        except sqlite3.DatabaseError as exc:  # not a database, damaged, or another program's
            raise StoreError(
                f"the database {self.path or ':memory:'} cannot be used ({exc}): it is damaged "
                "or not spit's; move it away to start with an empty one, or put a backup back"
            ) from None
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
