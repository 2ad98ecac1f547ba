"""The results database: round trips, statistics, and a database that fails."""

import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.support.results import game_result

from spit.engine import SpitConfig
from spit.store import paths, records
from spit.store.records import (
    GameResult,
    RecordsError,
    compute_stats,
    load_results,
    record_result,
    save_finished_game,
)
from spit.store.replays import PlayerInfo, load_replay, new_meta

ANN, BOB, HARD, EASY = (
    PlayerInfo("Ann"),
    PlayerInfo("Bob"),
    PlayerInfo("b", "hard"),
    PlayerInfo("b", "easy"),
)


def result(p1, p2, winner, duration=60.0, when="2025-01-01T10:00:00+00:00", **kw) -> GameResult:
    return game_result(p1, p2, winner, when, duration=duration, **kw)


def at(minute: int) -> str:
    return f"2025-01-01T10:{minute:02d}:00+00:00"


def test_round_trip(isolated_dirs: Path):
    first = result(ANN, HARD, 0, when=at(1), variants=("V1", "V3"), replay="x.json")
    second = result(BOB, ANN, None, when=at(2), kind="match", scores=(100, 100))
    for r in (first, second):
        status = record_result(r)
        assert status.saved and status.message == "result saved"
    assert paths.database_path() == isolated_dirs / "data" / "results.sqlite3"
    assert load_results() == ([first, second], 0)


def test_no_database_means_no_results():
    assert load_results() == ([], 0)
    assert not paths.database_path().exists()  # reading never creates it


def test_stats_wins_losses_and_streaks_per_player_and_bot_level():
    # Ann against the hard bot: W W L W W W, then a draw with Bob.
    outcomes = [0, 0, 1, 0, 0, 0]
    results = [result(ANN, HARD, w, duration=30.0 + i, when=at(i)) for i, w in enumerate(outcomes)]
    results.append(result(ANN, BOB, None, when=at(10)))
    stats = compute_stats(results)
    ann = next(t for t in stats.players if t.label == "Ann")
    assert (ann.played, ann.wins, ann.losses, ann.draws) == (7, 5, 1, 1)
    assert ann.longest_streak == 3  # the last three wins
    assert ann.current_streak == 0  # the draw ended it
    assert ann.fastest_win == 30.0
    hard = stats.bots[0]
    assert (hard.label, hard.wins, hard.losses, hard.current_streak) == ("hard", 1, 5, 0)
    bob = next(t for t in stats.players if t.label == "Bob")
    assert (bob.played, bob.draws) == (1, 1)


def test_current_streak_counts_wins_up_to_the_latest_result():
    results = [result(ANN, EASY, w, when=at(i)) for i, w in enumerate([1, 0, 0])]
    ann = compute_stats(results).players[0]
    assert (ann.current_streak, ann.longest_streak) == (2, 2)


def test_fastest_win_overall_names_the_winner():
    results = [result(ANN, HARD, 1, duration=20.0, when=at(1)), result(ANN, BOB, 0, 40.0)]
    fastest = compute_stats(results).fastest_win
    assert fastest is not None
    assert fastest["winner"] == "Computer (hard)" and fastest["seconds"] == 20.0


def test_save_finished_game_records_result_and_replay(playout):
    game, times = playout(SpitConfig(scoring=True, target_score=60), seed=4)
    assert game.over
    status = save_finished_game(game, times, new_meta((ANN, HARD)))
    assert status.saved, status.message
    (r,), _ = load_results()
    assert r.kind == "match" and r.scores == tuple(game.scores)
    assert r.winner == game.winner and r.rounds == game.round_no
    assert r.duration == pytest.approx(times[-1])
    replay = load_replay(paths.replay_dir() / r.replay)
    assert replay.final.fingerprint() == game.fingerprint()


def test_locked_database_gives_message_and_game_goes_on(monkeypatch):
    record_result(result(ANN, BOB, 0))
    monkeypatch.setattr(records, "LOCK_TIMEOUT", 0.05)
    other = sqlite3.connect(paths.database_path())
    other.execute("BEGIN EXCLUSIVE")
    try:
        status = record_result(result(ANN, BOB, 1))
    finally:
        other.rollback()
        other.close()
    assert not status.saved
    assert status.message.startswith("result not saved: ")
    assert "locked" in status.message
    assert len(load_results()[0]) == 1


def test_read_only_database(monkeypatch):
    record_result(result(ANN, BOB, 0))
    real_connect = records._connect
    # Open the file as SQLite would on a read-only disk (chmod means nothing to root).
    monkeypatch.setattr(records, "_connect", lambda path, read_only=False: real_connect(path, True))
    status = record_result(result(ANN, BOB, 1))
    assert not status.saved and "read-only" in status.message


def test_corrupt_database(isolated_dirs):
    db = paths.database_path()
    db.parent.mkdir(parents=True)
    db.write_bytes(b"this is not sqlite at all" * 100)
    status = record_result(result(ANN, BOB, 0))
    assert not status.saved and "damaged" in status.message
    with pytest.raises(RecordsError, match="damaged"):
        load_results()
    assert db.read_bytes().startswith(b"this is not sqlite")  # left for the user to inspect


def test_data_dir_that_is_a_file(isolated_dirs, monkeypatch):
    blocker = isolated_dirs / "blocker"
    blocker.write_text("x")
    monkeypatch.setenv("SPIT_DATA_DIR", str(blocker / "data"))
    status = record_result(result(ANN, BOB, 0))
    assert not status.saved and status.message.startswith("result not saved: ")


def test_newer_schema_is_not_written():
    db = paths.database_path()
    db.parent.mkdir(parents=True)
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version = 99")
    status = record_result(result(ANN, BOB, 0))
    assert not status.saved and "newer" in status.message
    with pytest.raises(RecordsError, match="newer"):
        load_results()


def test_badly_edited_rows_are_skipped_and_counted():
    record_result(result(ANN, BOB, 0))
    with sqlite3.connect(paths.database_path()) as conn:
        conn.execute(
            "INSERT INTO results (finished_at, kind, mode, variants, player1, player2, winner,"
            " reason, rounds, duration) VALUES ('soon', 'game', 'spit', '', 'A', 'B', 7, 'x',"
            " 'many', -1)"
        )
    results, skipped = load_results()
    assert len(results) == 1 and skipped == 1


@given(st.binary(min_size=1, max_size=2000))
def test_junk_database_files_never_raise_from_record(tmp_path_factory, junk):
    db = tmp_path_factory.mktemp("db") / "r.sqlite3"
    db.write_bytes(junk)
    status = record_result(result(ANN, BOB, 0), db)
    assert isinstance(status.message, str)
    try:
        results, _ = load_results(db)
    except RecordsError as exc:
        assert str(db) in str(exc)
    else:
        assert len(results) <= 1
