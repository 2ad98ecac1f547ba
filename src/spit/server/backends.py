"""Which store a server uses: ``open_store("sqlite:PATH" | "postgresql://…")``."""

from __future__ import annotations

from pathlib import Path

from spit.server.postgres_store import PostgresStore
from spit.server.sqlite_store import SqliteStore
from spit.server.store import SqlStore


def open_store(url: str | Path) -> SqlStore:
    """The store a URL names: ``sqlite:PATH`` (or a plain path) or ``postgresql://…``."""
    text = str(url)
    if text.startswith(("postgresql://", "postgres://")):
        return PostgresStore(text)
    return SqliteStore(Path(text.removeprefix("sqlite:")))
