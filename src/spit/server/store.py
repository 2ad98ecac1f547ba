"""The server's store: accounts by SSH key, ratings per mode, results, daily attempts, bans.

``ServerStore`` is the interface the server talks to; ``SqliteStore`` is the
embedded default (one file, WAL mode, nothing to install). Every method is a
coroutine so a store that talks to a database server fits the same interface.
Each write that two players or two connections could race on — claiming a
name, linking a key, rating a match, starting a daily attempt — is one
transaction whose outcome the database's own constraints decide, never a
read-then-write in Python.

The store keeps no clock: callers pass times as ISO 8601 strings (UTC).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Protocol, TypeVar

from spit.bots.anchors import ANCHORS
from spit.server.names import name_key, name_problem
from spit.server.schema import LATEST, MIGRATIONS
from spit.store.glicko import Rating, Result, rate

T = TypeVar("T")

_ADD_KEY = "INSERT INTO account_keys (fingerprint, account_id, added) VALUES (?, ?, ?)"

#: The RD given to a computer level's fixed rating (as ``spit.store.ratings`` does).
ANCHOR_RD = 30.0


class StoreError(Exception):
    """A request the store refused; ``str()`` is a sentence for the player."""


class NameRefused(StoreError):
    """The name breaks the naming rules or is reserved."""


class NameTaken(StoreError):
    """Someone else already has this name (compared without regard to case)."""


class KeyTaken(StoreError):
    """The key already belongs to an account."""


@dataclass(frozen=True, slots=True)
class Account:
    """A player's account: its number and the name they claimed."""

    id: int
    name: str


@dataclass(frozen=True, slots=True)
class RatingRules:
    """When a rating counts as provisional and when it is shown on a leaderboard."""

    provisional_rd: float = 110.0  #: a rating with an RD this high or higher is shown with "?"
    board_rd: float = 75.0  #: a leaderboard shows only ratings with an RD this low or lower
    board_min_games: int = 10  #: … from at least this many rated games
    board_recent_days: int = 7  #: … and a rated game within this many days


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """An account's rating in one mode, with its rated games and the time of the last one."""

    rating: Rating
    games: int
    last_game: str | None

    def shown(self, rules: RatingRules) -> str:
        """The rating as a player reads it: "1510" or, while provisional, "1510?"."""
        mark = "?" if self.rating.rd >= rules.provisional_rd else ""
        return f"{round(self.rating.rating)}{mark}"


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a server match: an account, or a computer level (``bot``)."""

    account_id: int | None
    name: str
    bot: str | None = None


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A finished server match: what it was, who won, and its replay (JSON text)."""

    mode: str
    sides: tuple[Side, Side]
    winner: int | None  #: 1 or 2, None for no result
    rated: bool
    started: str
    ended: str
    replay: str


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A kept match as a list shows it."""

    id: int
    mode: str
    names: tuple[str, str]
    winner: int | None
    rated: bool
    ended: str


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of a leaderboard."""

    name: str
    rating: PlayerRating


@dataclass(frozen=True, slots=True)
class DailyEntry:
    """One line of a daily leaderboard: win first, then time."""

    name: str
    won: bool
    seconds: float


class ServerStore(Protocol):
    """What the server keeps, whatever database keeps it."""

    async def open(self) -> None: ...
    async def close(self) -> None: ...
    async def schema_version(self) -> int: ...
    async def account_for_key(self, fingerprint: str) -> Account | None: ...
    async def create_account(self, name: str, fingerprint: str, at: str) -> Account: ...
    async def link_key(self, account_id: int, fingerprint: str, at: str) -> None: ...
    async def keys_of(self, account_id: int) -> list[str]: ...
    async def account_named(self, name: str) -> Account | None: ...
    async def rating(self, account_id: int, mode: str) -> PlayerRating: ...
    async def record_match(self, match: MatchRecord) -> int: ...
    async def matches_of(self, account_id: int, limit: int = 20) -> list[MatchSummary]: ...
    async def replay_of(self, match_id: int, account_id: int) -> str | None: ...
    async def leaderboard(
        self, mode: str, now: str, rules: RatingRules, limit: int = 20
    ) -> list[Standing]: ...
    async def start_daily(self, day: str, mode: str, account_id: int, at: str) -> bool: ...
    async def finish_daily(
        self, day: str, mode: str, account_id: int, won: bool, seconds: float
    ) -> None: ...
    async def daily_board(self, day: str, mode: str, limit: int = 20) -> list[DailyEntry]: ...
    async def streak(self, mode: str, account_id: int, day: str) -> int: ...
    async def ban(self, kind: str, value: str, reason: str, at: str) -> None: ...
    async def unban(self, kind: str, value: str) -> bool: ...
    async def banned(self, kind: str, value: str) -> str | None: ...


def _private_file(path: Path) -> None:
    """Make ``path``'s directory 0700 and the file (and SQLite's side files) 0600."""
    path.parent.mkdir(parents=True, exist_ok=True)
    os.chmod(path.parent, 0o700)
    for suffix in ("", "-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            os.chmod(side, 0o600)


class SqliteStore:
    """The embedded store: one SQLite file in WAL mode, used from one worker thread.

    SQLite calls block, so they run on a thread of their own and the server's
    event loop never waits on the disk.
    """

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path) if str(path) != ":memory:" else None
        self._target = str(path)
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="spit-store")
        self._db: sqlite3.Connection | None = None

    async def _run(self, job: Callable[[sqlite3.Connection], T]) -> T:
        loop = asyncio.get_running_loop()

        def call() -> T:
            if self._db is None:
                raise StoreError("The store is not open.")
            return job(self._db)

        return await loop.run_in_executor(self._pool, call)

    async def open(self) -> None:
        """Open (or create) the database and bring its schema up to date."""

        def opening() -> None:
            if self.path is not None:
                _private_file(self.path)
                old_mask = os.umask(0o077)
                try:
                    db = sqlite3.connect(self._target, isolation_level=None)
                finally:
                    os.umask(old_mask)
            else:
                db = sqlite3.connect(":memory:", isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA foreign_keys=ON")
            db.execute("PRAGMA busy_timeout=5000")
            self._db = db
            _migrate(db)
            if self.path is not None:
                _private_file(self.path)

        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._pool, opening)

    async def close(self) -> None:
        """Close the database and the worker thread."""

        def closing() -> None:
            if self._db is not None:
                self._db.close()
                self._db = None

        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._pool, closing)
        self._pool.shutdown(wait=True)

    async def schema_version(self) -> int:
        """The highest migration applied."""
        return await self._run(_version)

    async def account_for_key(self, fingerprint: str) -> Account | None:
        """The account that ``fingerprint`` (an SSH key's SHA256 fingerprint) belongs to."""

        def job(db: sqlite3.Connection) -> Account | None:
            row = db.execute(
                "SELECT a.id, a.name FROM account_keys k JOIN accounts a ON a.id = k.account_id"
                " WHERE k.fingerprint = ?",
                (fingerprint,),
            ).fetchone()
            return Account(row[0], row[1]) if row else None

        return await self._run(job)

    async def create_account(self, name: str, fingerprint: str, at: str) -> Account:
        """A new account named ``name`` for the key ``fingerprint``, in one transaction."""
        problem = name_problem(name)
        if problem:
            raise NameRefused(problem)

        def job(db: sqlite3.Connection) -> Account:
            with _transaction(db):
                try:
                    cursor = db.execute(
                        "INSERT INTO accounts (name, name_key, created) VALUES (?, ?, ?)",
                        (name, name_key(name), at),
                    )
                except sqlite3.IntegrityError:
                    raise NameTaken(f"The name “{name}” is taken; choose another.") from None
                account_id = int(cursor.lastrowid or 0)
                try:
                    db.execute(
                        _ADD_KEY,
                        (fingerprint, account_id, at),
                    )
                except sqlite3.IntegrityError:
                    raise KeyTaken("This key already belongs to an account.") from None
            return Account(account_id, name)

        return await self._run(job)

    async def link_key(self, account_id: int, fingerprint: str, at: str) -> None:
        """Add ``fingerprint`` to the account: the player may sign in with either key."""

        def job(db: sqlite3.Connection) -> None:
            try:
                db.execute(
                    _ADD_KEY,
                    (fingerprint, account_id, at),
                )
            except sqlite3.IntegrityError:
                raise KeyTaken("This key already belongs to an account.") from None

        await self._run(job)

    async def keys_of(self, account_id: int) -> list[str]:
        """The fingerprints of the account's keys, oldest first."""

        def job(db: sqlite3.Connection) -> list[str]:
            rows = db.execute(
                "SELECT fingerprint FROM account_keys WHERE account_id = ?"
                " ORDER BY added, fingerprint",
                (account_id,),
            ).fetchall()
            return [r[0] for r in rows]

        return await self._run(job)

    async def account_named(self, name: str) -> Account | None:
        """The account with this name (without regard to case)."""

        def job(db: sqlite3.Connection) -> Account | None:
            row = db.execute(
                "SELECT id, name FROM accounts WHERE name_key = ?", (name_key(name),)
            ).fetchone()
            return Account(row[0], row[1]) if row else None

        return await self._run(job)

    async def rating(self, account_id: int, mode: str) -> PlayerRating:
        """The account's rating in ``mode`` (a newcomer's when it has no rated game)."""
        return await self._run(lambda db: _rating(db, account_id, mode))

    async def record_match(self, match: MatchRecord) -> int:
        """Keep a finished match and, if rated, move both ratings: one transaction."""

        def job(db: sqlite3.Connection) -> int:
            a, b = match.sides
            with _transaction(db):
                cursor = db.execute(
                    "INSERT INTO matches (mode, p1, p2, p1_name, p2_name, winner, rated, started,"
                    " ended, replay) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        match.mode,
                        a.account_id,
                        b.account_id,
                        a.name,
                        b.name,
                        match.winner,
                        int(match.rated),
                        match.started,
                        match.ended,
                        match.replay,
                    ),
                )
                if match.rated and match.winner in (1, 2):
                    _rate_match(db, match)
                return int(cursor.lastrowid or 0)

        return await self._run(job)

    async def matches_of(self, account_id: int, limit: int = 20) -> list[MatchSummary]:
        """The account's kept matches, newest first."""

        def job(db: sqlite3.Connection) -> list[MatchSummary]:
            rows = db.execute(
                "SELECT id, mode, p1_name, p2_name, winner, rated, ended FROM matches"
                " WHERE p1 = ? OR p2 = ? ORDER BY id DESC LIMIT ?",
                (account_id, account_id, limit),
            ).fetchall()
            return [MatchSummary(r[0], r[1], (r[2], r[3]), r[4], bool(r[5]), r[6]) for r in rows]

        return await self._run(job)

    async def replay_of(self, match_id: int, account_id: int) -> str | None:
        """The replay of a match the account played in (None for anyone else's)."""

        def job(db: sqlite3.Connection) -> str | None:
            row = db.execute(
                "SELECT replay FROM matches WHERE id = ? AND (p1 = ? OR p2 = ?)",
                (match_id, account_id, account_id),
            ).fetchone()
            return str(row[0]) if row else None

        return await self._run(job)

    async def leaderboard(
        self, mode: str, now: str, rules: RatingRules, limit: int = 20
    ) -> list[Standing]:
        """The best settled ratings in ``mode``: low RD, enough games, a recent game."""
        since = (datetime.fromisoformat(now) - timedelta(days=rules.board_recent_days)).isoformat()

        def job(db: sqlite3.Connection) -> list[Standing]:
            rows = db.execute(
                "SELECT a.name, r.rating, r.rd, r.volatility, r.games, r.last_game"
                " FROM ratings r JOIN accounts a ON a.id = r.account_id"
                " WHERE r.mode = ? AND r.rd <= ? AND r.games >= ? AND r.last_game >= ?"
                " ORDER BY r.rating DESC, a.name_key LIMIT ?",
                (mode, rules.board_rd, rules.board_min_games, since, limit),
            ).fetchall()
            return [
                Standing(r[0], PlayerRating(Rating(r[1], r[2], r[3]), r[4], r[5])) for r in rows
            ]

        return await self._run(job)

    async def start_daily(self, day: str, mode: str, account_id: int, at: str) -> bool:
        """Start the account's one attempt at ``day``'s challenge; False if it had it already."""

        def job(db: sqlite3.Connection) -> bool:
            cursor = db.execute(
                "INSERT INTO daily_attempts (day, mode, account_id, started) VALUES (?, ?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                (day, mode, account_id, at),
            )
            return cursor.rowcount == 1

        return await self._run(job)

    async def finish_daily(
        self, day: str, mode: str, account_id: int, won: bool, seconds: float
    ) -> None:
        """Record how the attempt ended (only the first ending counts)."""

        def job(db: sqlite3.Connection) -> None:
            db.execute(
                "UPDATE daily_attempts SET won = ?, seconds = ?"
                " WHERE day = ? AND mode = ? AND account_id = ? AND won IS NULL",
                (int(won), seconds, day, mode, account_id),
            )

        await self._run(job)

    async def daily_board(self, day: str, mode: str, limit: int = 20) -> list[DailyEntry]:
        """The day's finished attempts: winners first, then the fastest."""

        def job(db: sqlite3.Connection) -> list[DailyEntry]:
            rows = db.execute(
                "SELECT a.name, d.won, d.seconds FROM daily_attempts d"
                " JOIN accounts a ON a.id = d.account_id"
                " WHERE d.day = ? AND d.mode = ? AND d.won IS NOT NULL"
                " ORDER BY d.won DESC, d.seconds ASC, a.name_key LIMIT ?",
                (day, mode, limit),
            ).fetchall()
            return [DailyEntry(r[0], bool(r[1]), float(r[2])) for r in rows]

        return await self._run(job)

    async def streak(self, mode: str, account_id: int, day: str) -> int:
        """Days in a row, ending ``day`` (or the day before), with a finished daily attempt."""

        def job(db: sqlite3.Connection) -> int:
            rows = db.execute(
                "SELECT day FROM daily_attempts WHERE mode = ? AND account_id = ?"
                " AND won IS NOT NULL AND day <= ? ORDER BY day DESC",
                (mode, account_id, day),
            ).fetchall()
            return _streak([r[0] for r in rows], day)

        return await self._run(job)

    async def ban(self, kind: str, value: str, reason: str, at: str) -> None:
        """Ban a key fingerprint (``kind`` "key") or an address (``kind`` "address")."""

        def job(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO bans (kind, value, reason, at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (kind, value) DO UPDATE"
                " SET reason = excluded.reason, at = excluded.at",
                (kind, value, reason, at),
            )

        await self._run(job)

    async def unban(self, kind: str, value: str) -> bool:
        """Lift a ban; False if there was none."""

        def job(db: sqlite3.Connection) -> bool:
            cursor = db.execute("DELETE FROM bans WHERE kind = ? AND value = ?", (kind, value))
            return cursor.rowcount == 1

        return await self._run(job)

    async def banned(self, kind: str, value: str) -> str | None:
        """The reason ``value`` is banned, or None."""

        def job(db: sqlite3.Connection) -> str | None:
            row = db.execute(
                "SELECT reason FROM bans WHERE kind = ? AND value = ?", (kind, value)
            ).fetchone()
            return str(row[0]) if row else None

        return await self._run(job)


@contextlib.contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[None]:
    """One write transaction (taken at once, so two writers queue instead of failing)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _version(db: sqlite3.Connection) -> int:
    db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    row = db.execute("SELECT MAX(version) FROM schema_version").fetchone()
    return int(row[0]) if row and row[0] is not None else 0


def _migrate(db: sqlite3.Connection) -> None:
    """Apply every migration after the database's version, each in one transaction."""
    with _transaction(db):
        current = _version(db)
    if current > LATEST:
        raise StoreError(
            f"The database was written by a newer spit (schema {current}, this one knows {LATEST})."
        )
    for step in MIGRATIONS:
        if step.version <= current:
            continue
        with _transaction(db):
            for statement in step.sql("sqlite"):
                db.execute(statement)
            db.execute("INSERT INTO schema_version (version) VALUES (?)", (step.version,))


def _rating(db: sqlite3.Connection, account_id: int, mode: str) -> PlayerRating:
    row = db.execute(
        "SELECT rating, rd, volatility, games, last_game FROM ratings"
        " WHERE account_id = ? AND mode = ?",
        (account_id, mode),
    ).fetchone()
    if row is None:
        return PlayerRating(Rating(), 0, None)
    return PlayerRating(Rating(row[0], row[1], row[2]), row[3], row[4])


def _side_rating(db: sqlite3.Connection, side: Side, mode: str) -> Rating | None:
    if side.account_id is not None:
        return _rating(db, side.account_id, mode).rating
    anchor = ANCHORS.get(mode, {}).get(side.bot or "")
    return Rating(anchor, ANCHOR_RD) if anchor is not None else None


def _rate_match(db: sqlite3.Connection, match: MatchRecord) -> None:
    """Move each person's rating by this one game (a rating period of its own)."""
    ratings = [_side_rating(db, side, match.mode) for side in match.sides]
    if ratings[0] is None or ratings[1] is None:
        return
    for seat, side in enumerate(match.sides):
        if side.account_id is None:
            continue
        own, other = ratings[seat], ratings[1 - seat]
        assert own is not None and other is not None
        score = 1.0 if match.winner == seat + 1 else 0.0
        new = rate(own, [Result(other.rating, other.rd, score)])
        db.execute(
            "INSERT INTO ratings (account_id, mode, rating, rd, volatility, games, last_game)"
            " VALUES (?, ?, ?, ?, ?, 1, ?) ON CONFLICT (account_id, mode) DO UPDATE SET"
            " rating = excluded.rating, rd = excluded.rd, volatility = excluded.volatility,"
            " games = ratings.games + 1, last_game = excluded.last_game",
            (side.account_id, match.mode, new.rating, new.rd, new.volatility, match.ended),
        )


def _streak(days: Sequence[str], today: str) -> int:
    """How many consecutive days, newest first, end at ``today`` or the day before."""
    if not days:
        return 0
    expected = datetime.fromisoformat(today).date()
    first = datetime.fromisoformat(days[0]).date()
    if first < expected - timedelta(days=1):
        return 0
    expected = first
    count = 0
    for text in days:
        day = datetime.fromisoformat(text).date()
        if day != expected:
            break
        count += 1
        expected = day - timedelta(days=1)
    return count
