"""Files written before results became enums still load, with the same results.

tests/store/data/ holds two replays and a records database (as SQL) written
by the code of commit b16b418, when results were plain strings.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from spit.engine import Result, SpeedGame, SpitGame
from spit.store.records import compute_stats, load_results, record_result
from spit.store.replays import load_replay

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize(
    ("name", "game_class", "result"),
    [
        ("spit.replay.json", SpitGame, Result.SCORE),
        ("speed.replay.json", SpeedGame, Result.PLAYED_OUT),
    ],
)
def test_an_old_replay_replays_to_its_stored_fingerprint_and_result(
    name: str, game_class: type, result: Result
) -> None:
    replay = load_replay(DATA / name)  # checks the fingerprint of the final position
    game = replay.final
    assert isinstance(game, game_class) and game.over
    assert game.result is result and game.winner == 0


def test_an_old_records_database_loads_and_takes_new_results(tmp_path: Path) -> None:
    path = tmp_path / "records.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.executescript((DATA / "records-old.sql").read_text())
    conn.close()
    results, skipped = load_results(path)
    assert skipped == 0
    assert [(r.mode, r.kind, r.reason) for r in results] == [
        ("spit", "match", Result.SCORE),
        ("speed", "game", Result.PLAYED_OUT),
    ]
    new = results[1]
    assert record_result(new, path).saved
    again, _ = load_results(path)
    assert [r.reason for r in again] == ["score", "P6", "P6"]
    stats = compute_stats(again)
    assert stats.results + stats.computer_only == 3  # every row counted (people's apart)
