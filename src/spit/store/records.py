"""Results of finished games and matches, kept in SQLite in the data directory.

Every write is one transaction. A database that is locked, read-only or
corrupt never stops a game: ``record_result`` returns a ``RecordStatus``
whose message the UI shows ("result not saved: <reason>"). ``compute_stats``
turns the results into wins, losses, streaks and fastest wins. Recording a
result also updates the players' ratings (``spit.store.ratings``) in the same
transaction.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from spit.engine import AnyGame, Result, mode_names
from spit.store import ratings
from spit.store.paths import data_dir_problem, database_path
from spit.store.replays import PlayerInfo, ReplayMeta, save_replay

#: 1: results; 2: and the ratings history (filled from the results on upgrade).
SCHEMA_VERSION = 2
#: Seconds to wait for another spit process that holds the database.
LOCK_TIMEOUT = 1.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    finished_at TEXT NOT NULL,
    kind TEXT NOT NULL,
    mode TEXT NOT NULL,
    variants TEXT NOT NULL,
    player1 TEXT NOT NULL,
    bot1 TEXT,
    player2 TEXT NOT NULL,
    bot2 TEXT,
    score1 INTEGER,
    score2 INTEGER,
    winner INTEGER,
    reason TEXT NOT NULL,
    rounds INTEGER NOT NULL,
    duration REAL NOT NULL,
    replay TEXT
);
"""
_COLUMNS = (
    "finished_at, kind, mode, variants, player1, bot1, player2, bot2, "
    "score1, score2, winner, reason, rounds, duration, replay"
)


#: ``reason`` of a game that may end without a winner (H4 round limit, Speed's
#: H5 with equal cards, a match that ended level); a draw with any other reason
#: is a damaged row, as is a winner after the round limit.
DRAWN_REASONS = frozenset({Result.ROUND_LIMIT, Result.STUCK, Result.SCORE})
NO_WINNER_REASONS = frozenset({Result.ROUND_LIMIT})


class RecordsError(Exception):
    """The results database cannot be read; the message says why, in one line."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game or match. ``winner`` is 0, 1 or None for a draw."""

    kind: str  # "game", or "match" (V4, P7)
    mode: str  # "spit" or "speed"
    variants: tuple[str, ...]
    players: tuple[PlayerInfo, PlayerInfo]
    scores: tuple[int, int] | None
    winner: int | None
    reason: str
    rounds: int
    duration: float
    finished_at: str
    replay: str | None = None

    @classmethod
    def from_game(
        cls,
        game: AnyGame,
        players: Sequence[PlayerInfo],
        duration: float,
        replay: str | None = None,
        finished_at: datetime | None = None,
    ) -> GameResult:
        """The result of a finished ``game`` (or match)."""
        match = game.is_match
        scores = game.scores if match else None
        when = (finished_at or datetime.now(UTC)).astimezone(UTC)
        return cls(
            kind="match" if match else "game",
            mode=game.mode,
            variants=tuple(game.config.variants),
            players=(players[0], players[1]),
            scores=None if scores is None else (int(scores[0]), int(scores[1])),
            winner=game.winner,
            reason=game.result,
            rounds=game.round_no,
            duration=float(duration),
            finished_at=when.isoformat(timespec="seconds"),
            replay=replay,
        )


@dataclass(frozen=True, slots=True)
class RecordStatus:
    """The outcome of saving a result: ``message`` is fit to show the players."""

    saved: bool
    message: str


def _connect(path: Path, read_only: bool = False) -> sqlite3.Connection:
    if read_only:
        uri = f"{path.resolve().as_uri()}?mode=ro"
        return sqlite3.connect(uri, uri=True, timeout=LOCK_TIMEOUT)
    return sqlite3.connect(path, timeout=LOCK_TIMEOUT)


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    message = text[0] if text else type(exc).__name__
    if isinstance(exc, OSError) and exc.strerror:
        message = exc.strerror
    lowered = message.lower()
    if "locked" in lowered or "busy" in lowered:
        return "the results database is in use by another program (locked)"
    if "readonly" in lowered or "read-only" in lowered or "permission" in lowered:
        return "the results database cannot be written (read-only)"
    if "not a database" in lowered or "malformed" in lowered or "corrupt" in lowered:
        return "the results database is damaged (not a valid SQLite file)"
    return message


def _prepare(conn: sqlite3.Connection) -> None:
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise RecordsError("the results database was made by a newer version of spit")
    if version == SCHEMA_VERSION:
        return
    if version < 1:
        conn.executescript(f"BEGIN; {_SCHEMA} PRAGMA user_version = 1; COMMIT;")
    _upgrade_to_ratings(conn)


def _upgrade_to_ratings(conn: sqlite3.Connection) -> None:
    """Schema 1 to 2: add the ratings table and rate every result already recorded.

    One immediate transaction, which checks the version again: two programs
    upgrading the same database at once cannot both fill the table.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        if conn.execute("PRAGMA user_version").fetchone()[0] < 2:
            ratings.create_table(conn)
            rows = conn.execute(
                f"SELECT id, {_COLUMNS} FROM results ORDER BY finished_at, id"
            ).fetchall()
            games = []
            for row in rows:
                result = _from_row(row[1:])
                if result is not None and isinstance(row[0], int):
                    games.append(rated_game(row[0], result))
            ratings.insert_rows(conn, ratings.replay_history(games))
            conn.execute("PRAGMA user_version = 2")
        conn.commit()
    except BaseException:
        conn.rollback()
        raise


def rated_game(result_id: int, result: GameResult) -> ratings.RatedGame:
    """What rating needs to know of a result."""
    a, b = result.players
    sides = (ratings.Side(a.name, a.bot), ratings.Side(b.name, b.bot))
    return ratings.RatedGame(result_id, result.finished_at, result.mode, sides, result.winner)


def record_result(result: GameResult, path: Path | None = None) -> RecordStatus:
    """Add ``result`` to the database in one transaction. Never raises."""
    path = Path(path) if path is not None else database_path()
    conn: sqlite3.Connection | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = _connect(path)
        _prepare(conn)
        with conn:
            cursor = conn.execute(
                f"INSERT INTO results ({_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                _row(result),
            )
            assert cursor.lastrowid is not None
            ratings.rate_and_store(conn, rated_game(cursor.lastrowid, result))
    except (sqlite3.Error, OSError, RecordsError) as exc:
        reason = str(exc) if isinstance(exc, RecordsError) else _reason(exc)
        return RecordStatus(False, f"result not saved: {reason}")
    finally:
        if conn is not None:
            with contextlib.suppress(sqlite3.Error):
                conn.close()
    return RecordStatus(True, "result saved")


def save_finished_game(
    game: AnyGame,
    times: Sequence[float],
    meta: ReplayMeta,
    database: Path | None = None,
    extra: Mapping[str, Any] | None = None,
) -> RecordStatus:
    """Save the replay of a finished game and record its result; never raises.

    The message tells the players what was not saved, if anything: "result
    not saved: <reason>" and/or "replay not saved: <reason>".
    """
    replay_name: str | None = None
    problems: list[str] = []
    try:
        replay_name = save_replay(game, times, meta, extra=extra).name
    except (OSError, ValueError) as exc:
        problems.append(f"replay not saved: {_reason(exc)}")
    duration = float(times[-1]) if times else 0.0
    result = GameResult.from_game(game, meta.players, duration, replay_name)
    status = record_result(result, database)
    if not status.saved:
        problems.insert(0, status.message)
    if problems:
        return RecordStatus(status.saved, "; ".join(problems))
    return status


def _row(r: GameResult) -> tuple[Any, ...]:
    s1, s2 = r.scores if r.scores is not None else (None, None)
    p1, p2 = r.players
    return (
        r.finished_at,
        r.kind,
        r.mode,
        " ".join(r.variants),
        p1.name,
        p1.bot,
        p2.name,
        p2.bot,
        s1,
        s2,
        r.winner,
        r.reason,
        r.rounds,
        r.duration,
        r.replay,
    )


def load_results(path: Path | None = None) -> tuple[list[GameResult], int]:
    """Every result, oldest first, and the number of damaged rows skipped.

    A missing database means no results. Raises RecordsError if it cannot be read.
    """
    if path is None:
        problem = data_dir_problem()
        if problem is not None:
            raise RecordsError(problem)
    path = Path(path) if path is not None else database_path()
    if not path.exists():
        return [], 0
    if not path.is_file():
        raise RecordsError(f"{path}: not a regular file")
    conn: sqlite3.Connection | None = None
    try:
        conn = _connect(path, read_only=True)
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version == 0:
            tables = conn.execute("SELECT name FROM sqlite_master WHERE name='results'").fetchall()
            if not tables:
                return [], 0
        elif version > SCHEMA_VERSION:
            raise RecordsError(f"{path}: made by a newer version of spit")
        rows = conn.execute(f"SELECT {_COLUMNS} FROM results ORDER BY finished_at, id").fetchall()
    except sqlite3.Error as exc:
        raise RecordsError(f"{path}: {_reason(exc)}") from None
    finally:
        if conn is not None:
            with contextlib.suppress(sqlite3.Error):
                conn.close()
    results: list[GameResult] = []
    skipped = 0
    for row in rows:
        result = _from_row(row)
        if result is None:
            skipped += 1
        else:
            results.append(result)
    return results, skipped


def _from_row(row: tuple[Any, ...]) -> GameResult | None:
    """A result from a database row, or None if the row was damaged or edited badly."""
    (when, kind, mode, variants, p1, b1, p2, b2, s1, s2, winner, reason, rounds, dur, rep) = row
    texts = (when, kind, mode, variants, p1, p2, reason)
    if not all(isinstance(t, str) for t in texts):
        return None
    if not all(b is None or isinstance(b, str) for b in (b1, b2, rep)):
        return None
    if winner not in (None, 0, 1) or not isinstance(rounds, int) or rounds < 0:
        return None
    if kind not in ("game", "match") or mode not in mode_names():
        return None
    if winner is None and reason not in DRAWN_REASONS:  # a lost winner is not a draw
        return None
    if winner is not None and reason in NO_WINNER_REASONS:
        return None
    if not isinstance(dur, (int, float)) or dur < 0:
        return None
    if (s1 is None) != (s2 is None) or not all(s is None or isinstance(s, int) for s in (s1, s2)):
        return None
    try:
        datetime.fromisoformat(when)
    except ValueError:
        return None
    return GameResult(
        kind=kind,
        mode=mode,
        variants=tuple(variants.split()),
        players=(PlayerInfo(p1, b1), PlayerInfo(p2, b2)),
        scores=None if s1 is None else (s1, s2),
        winner=winner,
        reason=reason,
        rounds=rounds,
        duration=float(dur),
        finished_at=when,
        replay=rep,
    )


# ------------------------------------------------------------------ statistics


@dataclass(slots=True)
class Tally:
    """One player's (or one bot level's) record."""

    label: str
    played: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    current_streak: int = 0
    longest_streak: int = 0
    fastest_win: float | None = None

    def add(self, outcome: str, duration: float) -> None:
        """Count one result: ``outcome`` is "win", "loss" or "draw"."""
        self.played += 1
        if outcome == "win":
            self.wins += 1
            self.current_streak += 1
            self.longest_streak = max(self.longest_streak, self.current_streak)
            if self.fastest_win is None or duration < self.fastest_win:
                self.fastest_win = duration
        else:
            self.current_streak = 0
            if outcome == "loss":
                self.losses += 1
            else:
                self.draws += 1

    def to_json(self) -> dict[str, Any]:
        """Plain JSON form."""
        return {
            "name": self.label,
            "played": self.played,
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
            "current_streak": self.current_streak,
            "longest_streak": self.longest_streak,
            "fastest_win": self.fastest_win,
        }


@dataclass(slots=True)
class Stats:
    """Everything ``spit stats`` shows."""

    results: int = 0
    skipped: int = 0
    players: list[Tally] = field(default_factory=list)
    bots: list[Tally] = field(default_factory=list)
    fastest_win: dict[str, Any] | None = None
    #: games between two computer players (``spit watch``): kept, not counted
    computer_only: int = 0

    def to_json(self) -> dict[str, Any]:
        """Plain JSON form."""
        return {
            "results": self.results,
            "skipped_rows": self.skipped,
            "computer_only_games": self.computer_only,
            "players": [t.to_json() for t in self.players],
            "bots": [t.to_json() for t in self.bots],
            "fastest_win": self.fastest_win,
        }


def compute_stats(results: Sequence[GameResult], skipped: int = 0) -> Stats:
    """Wins, losses, draws and win streaks per human name and per bot level.

    Only games a person played count: games between two computer players
    (``spit watch``) are counted apart in ``computer_only``. Results must be
    oldest first; streaks count consecutive wins, and a current streak is the
    run of wins ending with that player's latest result.
    """
    humans: dict[str, Tally] = {}
    bots: dict[str, Tally] = {}
    fastest: GameResult | None = None
    computer_only = 0
    counted = 0
    for r in results:
        if all(player.bot is not None for player in r.players):
            computer_only += 1
            continue
        counted += 1
        for side, player in enumerate(r.players):
            outcome = "draw" if r.winner is None else "win" if r.winner == side else "loss"
            table, key = (humans, player.name) if player.bot is None else (bots, player.bot)
            tally = table.setdefault(key, Tally(key))
            tally.add(outcome, r.duration)
        if r.winner is not None and (fastest is None or r.duration < fastest.duration):
            fastest = r
    stats = Stats(results=counted, skipped=skipped, computer_only=computer_only)
    order = lambda t: (-t.wins, t.losses, t.label)  # noqa: E731
    stats.players = sorted(humans.values(), key=order)
    stats.bots = sorted(bots.values(), key=order)
    if fastest is not None:
        assert fastest.winner is not None
        stats.fastest_win = {
            "winner": fastest.players[fastest.winner].label,
            "loser": fastest.players[1 - fastest.winner].label,
            "seconds": fastest.duration,
            "mode": fastest.mode,
            "kind": fastest.kind,
            "finished_at": fastest.finished_at,
        }
    return stats


def rating_history(
    name: str, mode: str, path: Path | None = None
) -> list[tuple[datetime, float, float]]:
    """``name``'s (time, rating, RD) after each rated game in ``mode``, oldest first.

    The charts read it here; ``spit.store.standings`` (which builds on this
    module, hence the import inside) has the details. Raises RecordsError if
    the database cannot be read.
    """
    from spit.store.standings import rating_history as history

    return history(name, mode, path)
