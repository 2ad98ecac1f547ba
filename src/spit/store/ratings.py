"""Ratings of people and computer levels, per mode, kept in the results database.

People are known by name; each has a Glicko-2 rating per mode (Spit, Speed)
that moves after every finished game against another person or against a
computer level. A computer level is a fixed anchor: its rating per mode comes
from a measured round-robin of the levels (``spit.bots.anchors``), so a
person's rating means the same on every machine. A game between two computer
players moves no rating; neither does a game against a computer player whose
level has no anchor (a mixed level such as ``expert:easy``), a game between two
people of the same name, or a game of a mode without anchors.

Each rated game is its own rating period (``glicko.rate``), and adds one row
per rated person to the ``ratings`` table: the rating after that game. A
person's current rating is their latest row; the rows are their history.
This module holds the table's SQL and the bookkeeping, on a connection it is
given; ``records`` opens the database and calls it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from spit.bots.anchors import ANCHORS
from spit.store.glicko import Rating, Result, rate

#: The RD given to a computer level's anchor rating: its fitted rating is known
#: to within about ±60 points (two RDs) from the tournament.
ANCHOR_RD = 30.0

SCHEMA = """
CREATE TABLE IF NOT EXISTS ratings (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    result_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    mode TEXT NOT NULL,
    at TEXT NOT NULL,
    rating REAL NOT NULL,
    rd REAL NOT NULL,
    volatility REAL NOT NULL,
    opponent TEXT NOT NULL,
    score REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS ratings_by_player ON ratings (name, mode, id);
"""
_STATEMENTS = [s.strip() for s in SCHEMA.split(";") if s.strip()]


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a finished game: a person's name, or a computer level (``bot``)."""

    name: str
    bot: str | None = None


@dataclass(frozen=True, slots=True)
class RatedGame:
    """What rating a game needs: its result id, time, mode, sides and winner."""

    result_id: int
    at: str
    mode: str
    sides: tuple[Side, Side]
    winner: int | None


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """A person's rating after one rated game."""

    result_id: int
    name: str
    mode: str
    at: str
    rating: Rating
    opponent: str
    score: float


def computer_label(level: str) -> str:
    """How a computer level appears as an opponent: ``computer (hard)``."""
    return f"computer ({level})"


def anchor(mode: str, level: str) -> Rating | None:
    """A computer level's fixed rating in ``mode``, or None if it has none."""
    value = ANCHORS.get(mode, {}).get(level)
    return None if value is None else Rating(value, ANCHOR_RD, 0.0)


def _opponent_label(side: Side) -> str:
    return side.name if side.bot is None else computer_label(side.bot)


def rated_sides(game: RatedGame) -> list[int]:
    """The sides (0, 1) whose people get a new rating from ``game`` (none, one or both)."""
    if game.mode not in ANCHORS:
        return []
    a, b = game.sides
    if a.bot is not None and b.bot is not None:
        return []  # computer against computer (watch, sim): nobody's rating moves
    if a.bot is None and b.bot is None:
        return [] if a.name == b.name else [0, 1]
    person, computer = (0, b) if a.bot is None else (1, a)
    assert computer.bot is not None
    return [person] if anchor(game.mode, computer.bot) is not None else []


class Ledger:
    """Current ratings in memory: apply rated games in order to get history rows."""

    def __init__(self) -> None:
        self.current: dict[tuple[str, str], Rating] = {}

    def rating(self, name: str, mode: str) -> Rating:
        """``name``'s current rating in ``mode`` (a newcomer's if none yet)."""
        return self.current.get((name, mode), Rating())

    def apply(self, game: RatedGame) -> list[HistoryRow]:
        """Rate ``game``: both sides from their ratings before it. Returns the new rows."""
        sides = rated_sides(game)
        if not sides:
            return []
        before: list[Rating] = []
        for side in game.sides:
            if side.bot is None:
                before.append(self.rating(side.name, game.mode))
            else:
                fixed = anchor(game.mode, side.bot)
                assert fixed is not None
                before.append(fixed)
        rows = []
        for p in sides:
            other = 1 - p
            score = 0.5 if game.winner is None else (1.0 if game.winner == p else 0.0)
            opponent = before[other]
            new = rate(before[p], [Result(opponent.rating, opponent.rd, score)])
            name = game.sides[p].name
            self.current[(name, game.mode)] = new
            rows.append(
                HistoryRow(
                    game.result_id,
                    name,
                    game.mode,
                    game.at,
                    new,
                    _opponent_label(game.sides[other]),
                    score,
                )
            )
        return rows


def replay_history(games: Iterable[RatedGame]) -> list[HistoryRow]:
    """Every history row that rating ``games`` (oldest first) in order gives."""
    ledger = Ledger()
    rows: list[HistoryRow] = []
    for game in games:
        rows.extend(ledger.apply(game))
    return rows


# ---------------------------------------------------------------- the table


def create_table(conn: sqlite3.Connection) -> None:
    """Create the ratings table and its index (inside the caller's transaction)."""
    for statement in _STATEMENTS:
        conn.execute(statement)


def insert_rows(conn: sqlite3.Connection, rows: Sequence[HistoryRow]) -> None:
    """Add history rows (inside the caller's transaction)."""
    conn.executemany(
        "INSERT INTO ratings (result_id, name, mode, at, rating, rd, volatility, opponent, score)"
        " VALUES (?,?,?,?,?,?,?,?,?)",
        [
            (
                r.result_id,
                r.name,
                r.mode,
                r.at,
                r.rating.rating,
                r.rating.rd,
                r.rating.volatility,
                r.opponent,
                r.score,
            )
            for r in rows
        ],
    )


def _current(conn: sqlite3.Connection, name: str, mode: str) -> Rating | None:
    row = conn.execute(
        "SELECT rating, rd, volatility FROM ratings WHERE name = ? AND mode = ? "
        "ORDER BY id DESC LIMIT 1",
        (name, mode),
    ).fetchone()
    if row is None or not all(isinstance(v, (int, float)) for v in row):
        return None
    return Rating(float(row[0]), float(row[1]), float(row[2]))


def rate_and_store(conn: sqlite3.Connection, game: RatedGame) -> list[HistoryRow]:
    """Rate one newly recorded game from the stored ratings and store the new rows."""
    ledger = Ledger()
    if rated_sides(game):
        for side in game.sides:
            if side.bot is None:
                found = _current(conn, side.name, game.mode)
                if found is not None:
                    ledger.current[(side.name, game.mode)] = found
    rows = ledger.apply(game)
    insert_rows(conn, rows)
    return rows


def read_history(conn: sqlite3.Connection) -> list[HistoryRow]:
    """Every stored history row, oldest first; damaged rows are left out."""
    rows = conn.execute(
        "SELECT result_id, name, mode, at, rating, rd, volatility, opponent, score "
        "FROM ratings ORDER BY id"
    ).fetchall()
    out = []
    for result_id, name, mode, at, rating, rd, vol, opponent, score in rows:
        texts = (name, mode, at, opponent)
        numbers = (rating, rd, vol, score)
        if not all(isinstance(t, str) for t in texts) or not isinstance(result_id, int):
            continue
        if not all(isinstance(v, (int, float)) for v in numbers):
            continue
        out.append(
            HistoryRow(
                result_id,
                name,
                mode,
                at,
                Rating(float(rating), float(rd), float(vol)),
                opponent,
                float(score),
            )
        )
    return out


__all__ = [
    "ANCHOR_RD",
    "HistoryRow",
    "Ledger",
    "RatedGame",
    "Side",
    "anchor",
    "computer_label",
    "create_table",
    "insert_rows",
    "rate_and_store",
    "rated_sides",
    "read_history",
    "replay_history",
]
