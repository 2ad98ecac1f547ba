"""Results of finished games built by hand, for the records, ratings and stats tests."""

from __future__ import annotations

from typing import Any

from spit.store.records import GameResult, record_result
from spit.store.replays import PlayerInfo


def game_result(
    p1: PlayerInfo,
    p2: PlayerInfo,
    winner: int | None,
    finished_at: str = "2025-01-01T10:00:00+00:00",
    **fields: Any,
) -> GameResult:
    """One game of Spit (not a match) between ``p1`` and ``p2``, three rounds, a minute
    long, won by R20 (or, without a winner, drawn at the round limit); ``fields``
    replace any of these."""
    values: dict[str, Any] = {
        "kind": "game",
        "mode": "spit",
        "variants": (),
        "players": (p1, p2),
        "scores": None,
        "winner": winner,
        "reason": "R20" if winner is not None else "round_limit",
        "rounds": 3,
        "duration": 60.0,
        "finished_at": finished_at,
    }
    values.update(fields)
    return GameResult(**values)


def add_result(
    p1: PlayerInfo, p2: PlayerInfo, winner: int | None, finished_at: str, **fields: Any
) -> None:
    """Record ``game_result(...)`` in the results database; it must be saved."""
    status = record_result(game_result(p1, p2, winner, finished_at, **fields))
    assert status.saved, status.message
