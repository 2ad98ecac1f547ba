"""The store on PostgreSQL (psycopg 3, async, with a connection pool): several nodes, one truth.

Chosen with ``spit server --store postgresql://…``. The queries are the
shared ones of ``SqlStore``; this module supplies transactions on pooled
connections, turns a unique violation into ``Duplicate``, locks the rating
rows a rating update reads (``FOR UPDATE``), and serialises migrations of
nodes starting at once with an advisory lock. ``schema`` (or ``?schema=`` in
the URL) keeps a server's tables in a schema of their own, as the tests do.

psycopg is imported only when this store is opened: a single node on SQLite
needs nothing installed.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator, Sequence
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from spit.server.store import Duplicate, Row, SqlStore, StoreError

#: The advisory lock key migrations take ("spit" in ASCII).
MIGRATION_LOCK = 0x73706974
_SCHEMA = re.compile(r"[a-z_][a-z0-9_]{0,62}\Z")


def split_schema(url: str) -> tuple[str, str | None]:
    """A URL without its ``schema=`` query parameter, and that schema (or None)."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    schema = next((v for k, v in query if k == "schema"), None)
    rest = [(k, v) for k, v in query if k != "schema"]
    return urlunsplit(parts._replace(query=urlencode(rest))), schema


class _PgTx:
    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def _execute(self, sql: str, params: Sequence[Any]) -> Any:
        from psycopg import errors

        try:
            return await self.conn.execute(sql.replace("?", "%s"), tuple(params))
        except errors.UniqueViolation as exc:
            raise Duplicate(str(exc).splitlines()[0]) from None

    async def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        cursor = await self._execute(sql, params)
        row = await cursor.fetchone()
        return None if row is None else tuple(row)

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        cursor = await self._execute(sql, params)
        return [tuple(r) for r in await cursor.fetchall()]

    async def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        cursor = await self._execute(sql, params)
        return int(cursor.rowcount)

    async def run_each(self, sql: str, rows: Sequence[Sequence[Any]]) -> list[int]:
        return [await self.run(sql, params) for params in rows]


class PostgresStore(SqlStore):
    """The server's store in a PostgreSQL database."""

    dialect = "postgresql"
    lock_rows = " FOR UPDATE"

    def __init__(
        self, url: str, schema: str | None = None, min_size: int = 1, max_size: int = 8
    ) -> None:
        self.url, from_url = split_schema(url)
        self.schema = schema or from_url
        if self.schema is not None and not _SCHEMA.match(self.schema):
            raise StoreError(f"not a schema name: {self.schema!r} (lower-case letters, _ , digits)")
        self.min_size, self.max_size = min_size, max_size
        self._pool: Any = None

    async def open(self) -> None:
        """Connect the pool, make the schema if asked for one, and migrate."""
        try:
            import psycopg
            from psycopg_pool import AsyncConnectionPool
        except ImportError:
            raise StoreError(
                "the PostgreSQL store needs psycopg: pip install 'spit[cluster]'"
            ) from None
        kwargs: dict[str, Any] = {}
        if self.schema is not None:
            try:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as c:
                    # two nodes starting at once: the lock makes the second wait, not fail
                    await c.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
                    await c.execute(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"')
            except psycopg.Error as exc:
                raise StoreError(f"cannot use PostgreSQL schema {self.schema}: {exc}") from None
            kwargs["options"] = f"-c search_path={self.schema}"
        self._pool = AsyncConnectionPool(
            self.url, min_size=self.min_size, max_size=self.max_size, kwargs=kwargs, open=False
        )
        try:
            await self._pool.open(wait=True, timeout=15)
        except Exception as exc:
            raise StoreError(f"cannot connect to PostgreSQL: {exc}") from None
        await self.migrate()

    async def close(self) -> None:
        """Close the pool."""
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    @contextlib.asynccontextmanager
    async def transaction(self, write: bool = True) -> AsyncIterator[_PgTx]:
        """One transaction on a pooled connection."""
        if self._pool is None:
            raise StoreError("The store is not open.")
        async with self._pool.connection() as conn, conn.transaction():
            yield _PgTx(conn)

    async def _lock_schema(self, tx: Any) -> None:
        await tx.one("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
