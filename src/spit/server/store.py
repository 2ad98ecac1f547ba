"""The server's store: accounts by SSH key, ratings per mode, results, daily attempts, bans.

``ServerStore`` is the interface the server talks to. ``SqlStore`` holds every
query once, in SQL both back ends speak, over a small ``Tx`` interface (one
transaction); ``spit.server.sqlite_store`` (the embedded default: one file,
nothing to install) and ``spit.server.postgres_store`` (several nodes on one
PostgreSQL) supply it. ``open_store`` picks one from a URL.

Each write that two players, two connections or two server nodes could race
on is one transaction whose outcome the database decides: a name claim and
a key link by unique constraints, a daily attempt by its primary key, a
rating update by locking both players' rating rows (``FOR UPDATE`` on
PostgreSQL; SQLite has one writer at a time) before reading them.

The store keeps no clock: callers pass times as ISO 8601 strings (UTC).
"""

from __future__ import annotations

import contextlib
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from spit.bots.anchors import ANCHORS
from spit.server.names import name_key, name_problem
from spit.server.schema import LATEST, MIGRATIONS
from spit.store.glicko import Rating, Result, rate

_ADD_KEY = "INSERT INTO account_keys (fingerprint, account_id, added) VALUES (?, ?, ?)"

#: The RD given to a computer level's fixed rating (as ``spit.store.ratings`` does).
ANCHOR_RD = 30.0


class StoreError(Exception):
    """A request the store refused; ``str()`` is a sentence for the player."""


class MovedElsewhere(StoreError):
    """A match's result was not kept: another node resumed the match and owns it now."""


class NameRefused(StoreError):
    """The name breaks the naming rules or is reserved."""


class NameTaken(StoreError):
    """Someone else already has this name (compared without regard to case)."""


class KeyTaken(StoreError):
    """The key already belongs to an account."""


class Duplicate(StoreError):
    """A write broke a unique constraint (raised by a ``Tx``; the store says what it means)."""


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
    async def record_match(
        self, match: MatchRecord, checkpoint: tuple[str, str] | None = None
    ) -> int: ...
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
    async def keep_checkpoint(self, match_id: str, owner: str, data: str, at: str) -> bool: ...
    async def put_checkpoints(
        self, owner: str, checkpoints: Sequence[tuple[str, str]], at: str
    ) -> list[str]: ...
    async def keep_checkpoints(
        self, owner: str, checkpoints: Sequence[tuple[str, str]], at: str
    ) -> list[str]: ...
    async def drop_checkpoint(self, match_id: str, owner: str) -> None: ...
    async def checkpoint_owners(self) -> dict[str, str]: ...
    async def take_checkpoint(self, match_id: str, owner: str, new_owner: str) -> str | None: ...
    async def unban(self, kind: str, value: str) -> bool: ...
    async def banned(self, kind: str, value: str) -> str | None: ...


Row = tuple[Any, ...]


class Tx(Protocol):
    """One transaction: statements with ``?`` placeholders, in SQL both back ends speak."""

    async def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """The first row, or None."""

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row."""

    async def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a write; how many rows it changed. A unique constraint broken: ``Duplicate``."""

    async def run_each(self, sql: str, rows: Sequence[Sequence[Any]]) -> list[int]:
        """Run one write once per row of parameters, in order; how many rows each changed."""


class SqlStore(ABC):
    """Every query of the server, once, over a back end's transactions."""

    #: "sqlite" or "postgresql": how ``schema.MIGRATIONS`` are spelt
    dialect = "sqlite"
    #: appended to the rating rows' read inside a rating update (PostgreSQL locks them)
    lock_rows = ""

    @abstractmethod
    def transaction(self, write: bool = True) -> contextlib.AbstractAsyncContextManager[Tx]:
        """One transaction (``write``: the store's write lock on a one-writer database)."""

    @abstractmethod
    async def open(self) -> None:
        """Connect and bring the schema up to date (``migrate``)."""

    @abstractmethod
    async def close(self) -> None:
        """Disconnect."""

    async def _lock_schema(self, tx: Tx) -> None:
        """Keep two nodes from migrating at once (nothing to do with one writer)."""
        return None

    async def migrate(self) -> None:
        """Apply every migration after the database's version, all in one transaction."""
        async with self.transaction() as tx:
            await self._lock_schema(tx)
            await tx.run("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            current = await _version(tx)
            if current > LATEST:
                raise StoreError(
                    f"The database was written by a newer spit (schema {current}, this one "
                    f"knows {LATEST})."
                )
            for step in MIGRATIONS:
                if step.version <= current:
                    continue
                for statement in step.sql(self.dialect):
                    await tx.run(statement)
                await tx.run("INSERT INTO schema_version (version) VALUES (?)", (step.version,))

    async def schema_version(self) -> int:
        """The highest migration applied."""
        async with self.transaction(write=False) as tx:
            return await _version(tx)

    async def account_for_key(self, fingerprint: str) -> Account | None:
        """The account that ``fingerprint`` (an SSH key's SHA256 fingerprint) belongs to."""
        async with self.transaction(write=False) as tx:
            row = await tx.one(
                "SELECT a.id, a.name FROM account_keys k JOIN accounts a ON a.id = k.account_id"
                " WHERE k.fingerprint = ?",
                (fingerprint,),
            )
        return Account(int(row[0]), str(row[1])) if row else None

    async def create_account(self, name: str, fingerprint: str, at: str) -> Account:
        """A new account named ``name`` for the key ``fingerprint``, in one transaction."""
        problem = name_problem(name)
        if problem:
            raise NameRefused(problem)
        async with self.transaction() as tx:
            try:
                row = await tx.one(
                    "INSERT INTO accounts (name, name_key, created) VALUES (?, ?, ?) RETURNING id",
                    (name, name_key(name), at),
                )
            except Duplicate:
                raise NameTaken(f"The name “{name}” is taken; choose another.") from None
            assert row is not None
            account_id = int(row[0])
            try:
                await tx.run(_ADD_KEY, (fingerprint, account_id, at))
            except Duplicate:
                raise KeyTaken("This key already belongs to an account.") from None
        return Account(account_id, name)

    async def link_key(self, account_id: int, fingerprint: str, at: str) -> None:
        """Add ``fingerprint`` to the account: the player may sign in with either key."""
        async with self.transaction() as tx:
            try:
                await tx.run(_ADD_KEY, (fingerprint, account_id, at))
            except Duplicate:
                raise KeyTaken("This key already belongs to an account.") from None

    async def keys_of(self, account_id: int) -> list[str]:
        """The fingerprints of the account's keys, oldest first."""
        async with self.transaction(write=False) as tx:
            rows = await tx.all(
                "SELECT fingerprint FROM account_keys WHERE account_id = ?"
                " ORDER BY added, fingerprint",
                (account_id,),
            )
        return [str(r[0]) for r in rows]

    async def account_named(self, name: str) -> Account | None:
        """The account with this name (without regard to case)."""
        async with self.transaction(write=False) as tx:
            row = await tx.one(
                "SELECT id, name FROM accounts WHERE name_key = ?", (name_key(name),)
            )
        return Account(int(row[0]), str(row[1])) if row else None

    async def rating(self, account_id: int, mode: str) -> PlayerRating:
        """The account's rating in ``mode`` (a newcomer's when it has no rated game)."""
        async with self.transaction(write=False) as tx:
            return await _rating(tx, account_id, mode)

    async def record_match(
        self, match: MatchRecord, checkpoint: tuple[str, str] | None = None
    ) -> int:
        """Keep a finished match and, if rated, move both ratings: one transaction.

        ``checkpoint`` (match id, owner): the running match's checkpoint, dropped in
        the same transaction; if another owner holds it now (the match was resumed
        on another node) nothing is kept (``MovedElsewhere``), so a result is never
        recorded twice. A match with no checkpoint yet is kept as any other.
        """
        a, b = match.sides
        async with self.transaction() as tx:
            if checkpoint is not None:
                gone = await tx.run(
                    "DELETE FROM checkpoints WHERE match_id = ? AND owner = ?", checkpoint
                )
                if gone != 1:
                    held = await tx.one(
                        "SELECT owner FROM checkpoints WHERE match_id = ?", (checkpoint[0],)
                    )
                    if held is not None:  # none at all: it ended before its first one
                        raise MovedElsewhere(f"match {checkpoint[0]} is run by another node now")
            row = await tx.one(
                "INSERT INTO matches (mode, p1, p2, p1_name, p2_name, winner, rated, started,"
                " ended, replay) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
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
            assert row is not None
            if match.rated and match.winner in (1, 2):
                await self._rate_match(tx, match)
            return int(row[0])

    async def _rate_match(self, tx: Tx, match: MatchRecord) -> None:
        """Move each person's rating by this one game (a rating period of its own).

        Both rating rows are made if missing, then read locked, in account order
        (two nodes rating two matches of the same players cannot deadlock).
        """
        people = sorted({s.account_id for s in match.sides if s.account_id is not None})
        for account_id in people:
            await tx.run(
                "INSERT INTO ratings (account_id, mode, rating, rd, volatility, games, last_game)"
                " VALUES (?, ?, ?, ?, ?, 0, '') ON CONFLICT (account_id, mode) DO NOTHING",
                (account_id, match.mode, BASE.rating, BASE.rd, BASE.volatility),
            )
        locked: dict[int, Rating] = {}
        for account_id in people:
            row = await tx.one(
                "SELECT rating, rd, volatility FROM ratings WHERE account_id = ? AND mode = ?"
                + self.lock_rows,
                (account_id, match.mode),
            )
            assert row is not None
            locked[account_id] = Rating(float(row[0]), float(row[1]), float(row[2]))
        ratings = [_side_rating(side, match.mode, locked) for side in match.sides]
        if ratings[0] is None or ratings[1] is None:
            return
        for seat, side in enumerate(match.sides):
            if side.account_id is None:
                continue
            own, other = ratings[seat], ratings[1 - seat]
            assert own is not None and other is not None
            score = 1.0 if match.winner == seat + 1 else 0.0
            new = rate(own, [Result(other.rating, other.rd, score)])
            await tx.run(
                "UPDATE ratings SET rating = ?, rd = ?, volatility = ?, games = games + 1,"
                " last_game = ? WHERE account_id = ? AND mode = ?",
                (new.rating, new.rd, new.volatility, match.ended, side.account_id, match.mode),
            )

    async def matches_of(self, account_id: int, limit: int = 20) -> list[MatchSummary]:
        """The account's kept matches, newest first."""
        async with self.transaction(write=False) as tx:
            rows = await tx.all(
                "SELECT id, mode, p1_name, p2_name, winner, rated, ended FROM matches"
                " WHERE p1 = ? OR p2 = ? ORDER BY id DESC LIMIT ?",
                (account_id, account_id, limit),
            )
        return [
            MatchSummary(
                int(r[0]),
                str(r[1]),
                (str(r[2]), str(r[3])),
                None if r[4] is None else int(r[4]),
                bool(r[5]),
                str(r[6]),
            )
            for r in rows
        ]

    async def replay_of(self, match_id: int, account_id: int) -> str | None:
        """The replay of a match the account played in (None for anyone else's)."""
        async with self.transaction(write=False) as tx:
            row = await tx.one(
                "SELECT replay FROM matches WHERE id = ? AND (p1 = ? OR p2 = ?)",
                (match_id, account_id, account_id),
            )
        return str(row[0]) if row else None

    async def leaderboard(
        self, mode: str, now: str, rules: RatingRules, limit: int = 20
    ) -> list[Standing]:
        """The best settled ratings in ``mode``: low RD, enough games, a recent game."""
        since = (datetime.fromisoformat(now) - timedelta(days=rules.board_recent_days)).isoformat()
        async with self.transaction(write=False) as tx:
            rows = await tx.all(
                "SELECT a.name, r.rating, r.rd, r.volatility, r.games, r.last_game"
                " FROM ratings r JOIN accounts a ON a.id = r.account_id"
                " WHERE r.mode = ? AND r.rd <= ? AND r.games >= ? AND r.last_game >= ?"
                " ORDER BY r.rating DESC, a.name_key LIMIT ?",
                (mode, rules.board_rd, max(1, rules.board_min_games), since, limit),
            )
        return [
            Standing(str(r[0]), PlayerRating(Rating(r[1], r[2], r[3]), int(r[4]), str(r[5])))
            for r in rows
        ]

    async def start_daily(self, day: str, mode: str, account_id: int, at: str) -> bool:
        """Start the account's one attempt at ``day``'s challenge; False if it had it already."""
        async with self.transaction() as tx:
            changed = await tx.run(
                "INSERT INTO daily_attempts (day, mode, account_id, started) VALUES (?, ?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                (day, mode, account_id, at),
            )
        return changed == 1

    async def finish_daily(
        self, day: str, mode: str, account_id: int, won: bool, seconds: float
    ) -> None:
        """Record how the attempt ended (only the first ending counts)."""
        async with self.transaction() as tx:
            await tx.run(
                "UPDATE daily_attempts SET won = ?, seconds = ?"
                " WHERE day = ? AND mode = ? AND account_id = ? AND won IS NULL",
                (int(won), seconds, day, mode, account_id),
            )

    async def daily_board(self, day: str, mode: str, limit: int = 20) -> list[DailyEntry]:
        """The day's finished attempts: winners first, then the fastest."""
        async with self.transaction(write=False) as tx:
            rows = await tx.all(
                "SELECT a.name, d.won, d.seconds FROM daily_attempts d"
                " JOIN accounts a ON a.id = d.account_id"
                " WHERE d.day = ? AND d.mode = ? AND d.won IS NOT NULL"
                " ORDER BY d.won DESC, d.seconds ASC, a.name_key LIMIT ?",
                (day, mode, limit),
            )
        return [DailyEntry(str(r[0]), bool(r[1]), float(r[2])) for r in rows]

    async def streak(self, mode: str, account_id: int, day: str) -> int:
        """Days in a row, ending ``day`` (or the day before), with a finished daily attempt."""
        async with self.transaction(write=False) as tx:
            rows = await tx.all(
                "SELECT day FROM daily_attempts WHERE mode = ? AND account_id = ?"
                " AND won IS NOT NULL AND day <= ? ORDER BY day DESC",
                (mode, account_id, day),
            )
        return _streak([str(r[0]) for r in rows], day)

    async def keep_checkpoint(self, match_id: str, owner: str, data: str, at: str) -> bool:
        """Write a running match's checkpoint (the first one too); False if another
        node process owns it now (``put_checkpoints`` for one match)."""
        return not await self.put_checkpoints(owner, [(match_id, data)], at)

    async def put_checkpoints(
        self, owner: str, checkpoints: Sequence[tuple[str, str]], at: str
    ) -> list[str]:
        """Write several running matches' checkpoints (match id, data; first ones too)
        in one transaction; returns the matches another node process owns now (not
        written). A wave's new matches are kept this way, all at once.

        One statement per match: a node that lost a match (it was resumed elsewhere
        while this node was cut off) can never write over the new owner's checkpoint.
        """
        async with self.transaction() as tx:
            changed = await tx.run_each(
                "INSERT INTO checkpoints (match_id, owner, data, updated) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (match_id) DO UPDATE SET data = excluded.data,"
                " updated = excluded.updated WHERE checkpoints.owner = excluded.owner",
                [(match_id, owner, data, at) for match_id, data in checkpoints],
            )
        return [m for (m, _), n in zip(checkpoints, changed, strict=True) if n != 1]

    async def keep_checkpoints(
        self, owner: str, checkpoints: Sequence[tuple[str, str]], at: str
    ) -> list[str]:
        """Bring several matches' checkpoints (match id, data) up to date in one
        transaction. Only a checkpoint ``owner`` holds is written: one whose match
        ended meanwhile (its result dropped it) is never written again.

        Returns the matches another node process owns now (not written).
        """
        refused: list[str] = []
        async with self.transaction() as tx:
            changed = await tx.run_each(
                "UPDATE checkpoints SET data = ?, updated = ? WHERE match_id = ? AND owner = ?",
                [(data, at, match_id, owner) for match_id, data in checkpoints],
            )
            for (match_id, _), n in zip(checkpoints, changed, strict=True):
                if n != 1:
                    row = await tx.one(
                        "SELECT owner FROM checkpoints WHERE match_id = ?", (match_id,)
                    )
                    if row is not None:
                        refused.append(match_id)
        return refused

    async def drop_checkpoint(self, match_id: str, owner: str) -> None:
        """The match ended (or was given up) on ``owner``: no one resumes it."""
        async with self.transaction() as tx:
            await tx.run(
                "DELETE FROM checkpoints WHERE match_id = ? AND owner = ?", (match_id, owner)
            )

    async def checkpoint_owners(self) -> dict[str, str]:
        """Every checkpointed match and the node process that owns it."""
        async with self.transaction(write=False) as tx:
            rows = await tx.all("SELECT match_id, owner FROM checkpoints")
        return {str(r[0]): str(r[1]) for r in rows}

    async def take_checkpoint(self, match_id: str, owner: str, new_owner: str) -> str | None:
        """Move a match from ``owner`` (gone) to ``new_owner``: its data, or None if taken.

        One atomic statement: of two nodes taking the same match, one gets it.
        """
        async with self.transaction() as tx:
            row = await tx.one(
                "UPDATE checkpoints SET owner = ? WHERE match_id = ? AND owner = ? RETURNING data",
                (new_owner, match_id, owner),
            )
        return None if row is None else str(row[0])

    async def ban(self, kind: str, value: str, reason: str, at: str) -> None:
        """Ban a key fingerprint (``kind`` "key") or an address (``kind`` "address")."""
        async with self.transaction() as tx:
            await tx.run(
                "INSERT INTO bans (kind, value, reason, at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (kind, value) DO UPDATE"
                " SET reason = excluded.reason, at = excluded.at",
                (kind, value, reason, at),
            )

    async def unban(self, kind: str, value: str) -> bool:
        """Lift a ban; False if there was none."""
        async with self.transaction() as tx:
            changed = await tx.run("DELETE FROM bans WHERE kind = ? AND value = ?", (kind, value))
        return changed == 1

    async def banned(self, kind: str, value: str) -> str | None:
        """The reason ``value`` is banned, or None."""
        async with self.transaction(write=False) as tx:
            row = await tx.one(
                "SELECT reason FROM bans WHERE kind = ? AND value = ?", (kind, value)
            )
        return str(row[0]) if row else None


#: A newcomer's rating (the row a rating update starts from).
BASE = Rating()


async def _version(tx: Tx) -> int:
    row = await tx.one("SELECT MAX(version) FROM schema_version")
    return int(row[0]) if row and row[0] is not None else 0


async def _rating(tx: Tx, account_id: int, mode: str) -> PlayerRating:
    row = await tx.one(
        "SELECT rating, rd, volatility, games, last_game FROM ratings"
        " WHERE account_id = ? AND mode = ?",
        (account_id, mode),
    )
    if row is None or int(row[3]) == 0:
        return PlayerRating(Rating(), 0, None)
    return PlayerRating(
        Rating(float(row[0]), float(row[1]), float(row[2])), int(row[3]), str(row[4])
    )


def _side_rating(side: Side, mode: str, people: dict[int, Rating]) -> Rating | None:
    if side.account_id is not None:
        return people[side.account_id]
    anchor = ANCHORS.get(mode, {}).get(side.bot or "")
    return Rating(anchor, ANCHOR_RD) if anchor is not None else None


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
