"""What ``spit stats`` and the app's stats screen show of ratings.

``load_standings()`` reads the results database (read-only) and returns each
person's rating per mode with its uncertainty and trend, the computer
levels' fixed ratings, and every person's record against each opponent.
``rating_history(name, mode)`` is one person's rating after each rated game,
for a chart. A database from before ratings existed (schema 1) is rated in
memory from its results, the same way the upgrade would rate it.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from spit.bots.anchors import ANCHORS
from spit.store import ratings
from spit.store.glicko import Rating
from spit.store.paths import database_path
from spit.store.ratings import HistoryRow
from spit.store.records import (
    SCHEMA_VERSION,
    GameResult,
    RecordsError,
    _connect,
    _reason,
    load_results,
    rated_game,
)

#: A rating whose deviation is above this is provisional (shown with a "?"):
#: so few games that one more can move it by a hundred points or more.
PROVISIONAL_RD = 110.0
#: The trend is the change over this many of a person's latest rated games.
TREND_GAMES = 10


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A person's rating in one mode, with its 95% interval and recent trend."""

    name: str
    mode: str
    rating: float
    rd: float
    volatility: float
    games: int
    trend: float
    trend_games: int

    @property
    def provisional(self) -> bool:
        """True while the rating is still a rough guess: its deviation is above
        ``PROVISIONAL_RD`` (a new player's is 350; a few games bring it down)."""
        return self.rd > PROVISIONAL_RD

    @property
    def shown(self) -> str:
        """The rating as players read it: ``1510``, or ``1510?`` while provisional."""
        return f"{self.rating:.0f}" + ("?" if self.provisional else "")

    @property
    def interval(self) -> tuple[float, float]:
        """``rating`` ± 2 RD."""
        return (self.rating - 2 * self.rd, self.rating + 2 * self.rd)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON form."""
        low, high = self.interval
        return {
            "name": self.name,
            "mode": self.mode,
            "rating": round(self.rating, 1),
            "rd": round(self.rd, 1),
            "interval": [round(low, 1), round(high, 1)],
            "volatility": round(self.volatility, 6),
            "games": self.games,
            "trend": round(self.trend, 1),
            "trend_games": self.trend_games,
            "provisional": self.provisional,
        }


@dataclass(slots=True)
class HeadToHead:
    """A person's record against one opponent (a person or a computer level) in one mode."""

    name: str
    opponent: str
    mode: str
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def played(self) -> int:
        """Games played."""
        return self.wins + self.losses + self.draws

    def to_json(self) -> dict[str, Any]:
        """Plain JSON form."""
        return {
            "name": self.name,
            "opponent": self.opponent,
            "mode": self.mode,
            "played": self.played,
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
        }


@dataclass(slots=True)
class Standings:
    """Ratings, anchors and head-to-head records."""

    ratings: list[PlayerRating] = field(default_factory=list)
    head_to_head: list[HeadToHead] = field(default_factory=list)
    history: list[HistoryRow] = field(default_factory=list)

    @property
    def computers(self) -> dict[str, dict[str, float]]:
        """The computer levels' fixed ratings, per mode."""
        return {mode: dict(levels) for mode, levels in ANCHORS.items()}

    def rating_history(self, name: str, mode: str) -> list[tuple[datetime, float, float]]:
        """(time, rating, RD) after each of ``name``'s rated games in ``mode``, oldest first."""
        out = []
        for row in self.history:
            if row.name == name and row.mode == mode:
                with contextlib.suppress(ValueError):
                    out.append((datetime.fromisoformat(row.at), row.rating.rating, row.rating.rd))
        return out

    def to_json(self) -> dict[str, Any]:
        """Plain JSON form (the keys ``spit stats --json`` adds)."""
        return {
            "ratings": [r.to_json() for r in self.ratings],
            "computer_ratings": self.computers,
            "head_to_head": [h.to_json() for h in self.head_to_head],
        }


def standings_from(results: Sequence[GameResult], history: Sequence[HistoryRow]) -> Standings:
    """Build the standings from results (oldest first) and rating history rows (in order)."""
    per_player: dict[tuple[str, str], list[Rating]] = {}
    for row in history:
        per_player.setdefault((row.name, row.mode), []).append(row.rating)
    rated = []
    for (name, mode), steps in per_player.items():
        current = steps[-1]
        count = min(TREND_GAMES, len(steps))
        before = steps[-1 - count] if len(steps) > count else Rating()
        rated.append(
            PlayerRating(
                name,
                mode,
                current.rating,
                current.rd,
                current.volatility,
                len(steps),
                current.rating - before.rating,
                count,
            )
        )
    rated.sort(key=lambda r: (r.mode, -r.rating, r.name))
    records: dict[tuple[str, str, str], HeadToHead] = {}
    for result in results:
        players = result.players
        if players[0].bot is not None and players[1].bot is not None:
            continue  # computer against computer is nobody's record
        for side, player in enumerate(players):
            if player.bot is not None:
                continue
            other = players[1 - side]
            opponent = other.name if other.bot is None else ratings.computer_label(other.bot)
            key = (player.name, opponent, result.mode)
            record = records.setdefault(key, HeadToHead(*key))
            if result.winner is None:
                record.draws += 1
            elif result.winner == side:
                record.wins += 1
            else:
                record.losses += 1
    head_to_head = sorted(records.values(), key=lambda h: (h.name, h.mode, -h.played, h.opponent))
    return Standings(rated, head_to_head, list(history))


def load_history(path: Path | None = None) -> list[HistoryRow]:
    """Every stored rating history row, oldest first (read-only).

    A database made before ratings existed is rated in memory from its
    results. Raises RecordsError if the database cannot be read.
    """
    path = Path(path) if path is not None else database_path()
    if not path.exists():
        return []
    conn: sqlite3.Connection | None = None
    try:
        conn = _connect(path, read_only=True)
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise RecordsError(f"{path}: made by a newer version of spit")
        if version >= 2:
            return ratings.read_history(conn)
    except sqlite3.Error as exc:
        raise RecordsError(f"{path}: {_reason(exc)}") from None
    finally:
        if conn is not None:
            with contextlib.suppress(sqlite3.Error):
                conn.close()
    results, _ = load_results(path)
    return ratings.replay_history(rated_game(i, r) for i, r in enumerate(results, start=1))


def load_standings(path: Path | None = None) -> Standings:
    """Ratings and records from the results database; raises RecordsError if unreadable."""
    results, _ = load_results(path)
    return standings_from(results, load_history(path))


def rating_history(
    name: str, mode: str, path: Path | None = None
) -> list[tuple[datetime, float, float]]:
    """``name``'s (time, rating, RD) after each rated game in ``mode``, oldest first.

    Empty for a computer level (its rating is fixed) or someone without rated
    games. Raises RecordsError if the database cannot be read.
    """
    return Standings(history=load_history(path)).rating_history(name, mode)


__all__ = [
    "TREND_GAMES",
    "HeadToHead",
    "PlayerRating",
    "Standings",
    "load_history",
    "load_standings",
    "rating_history",
    "standings_from",
]
