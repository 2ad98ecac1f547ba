"""Ratings: the Glicko-2 maths, updates through the records layer, the schema
upgrade of an old database, and what ``spit stats`` shows of them."""

import json
import math
import sqlite3
from datetime import datetime

import pytest
from tests.support.results import game_result

from spit.bots.anchors import ANCHORS
from spit.cli import main
from spit.store import paths
from spit.store.glicko import SCALE, Rating, Result, expected_score, rate, rate_game
from spit.store.ratings import ANCHOR_RD, RatedGame, Side, replay_history
from spit.store.records import GameResult, load_results, rated_game, record_result
from spit.store.replays import PlayerInfo
from spit.store.standings import TREND_GAMES, load_standings, rating_history, standings_from

ANN, BOB = PlayerInfo("Ann"), PlayerInfo("Bob")
MEDIUM, HARD = PlayerInfo("computer", "medium"), PlayerInfo("computer", "hard")


def result(p1, p2, winner, minute=0, mode="spit") -> GameResult:
    when = f"2025-03-01T{10 + minute // 60:02d}:{minute % 60:02d}:00+00:00"
    return game_result(p1, p2, winner, when, mode=mode)


def add(*args, **kwargs) -> None:
    status = record_result(result(*args, **kwargs))
    assert status.saved, status.message


# ------------------------------------------------------------------ the maths


def test_glicko2_paper_example():
    # Glickman, "Example of the Glicko-2 system": 1500/200/0.06 plays 1400/30 (won),
    # 1550/100 (lost) and 1700/300 (lost) with tau = 0.5.
    player = Rating(1500, 200, 0.06)
    games = [Result(1400, 30, 1), Result(1550, 100, 0), Result(1700, 300, 0)]
    new = rate(player, games, tau=0.5)
    # the paper's figures, computed there with rounded intermediate values
    assert new.rating == pytest.approx(1464.06, abs=0.02)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)
    # and on Glicko-2's own scale, to the paper's four decimals
    assert round((new.rating - 1500) / SCALE, 4) == -0.2069
    assert round(new.rd / SCALE, 4) == 0.8722


def test_no_games_in_a_period_only_widens_the_rd():
    player = Rating(1620, 200, 0.06)
    idle = rate(player, [])
    assert idle.rating == 1620 and idle.volatility == 0.06
    assert idle.rd == pytest.approx(math.hypot(200 / SCALE, 0.06) * SCALE)
    assert idle.rd > player.rd
    # but never past a newcomer's uncertainty
    assert rate(Rating(1500, 349.9, 0.06), []).rd == 350.0


def test_wins_raise_losses_lower_and_draws_between_equals_change_nothing():
    me = Rating(1500, 100, 0.06)
    assert rate(me, [Result(1500, 100, 1.0)]).rating > 1500
    assert rate(me, [Result(1500, 100, 0.0)]).rating < 1500
    drawn = rate(me, [Result(1500, 100, 0.5)])
    assert drawn.rating == pytest.approx(1500)
    assert drawn.rd < 100  # a game played is information


def test_one_game_is_zero_sum_between_equal_players():
    winner, loser = rate_game(Rating(), Rating(), 1.0)
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert winner.rd == pytest.approx(loser.rd)


def test_an_upset_raises_the_volatility_and_stays_finite():
    # a huge surprise takes the volatility iteration's other branch (delta^2 > phi^2 + v)
    new = rate(Rating(1500, 30, 0.06), [Result(2600, 30, 1.0)] * 8)
    assert all(math.isfinite(x) for x in (new.rating, new.rd, new.volatility))
    assert new.volatility > 0.06 and new.rating > 1500


def test_expected_score_is_symmetric():
    a, b = Rating(1700, 80), Rating(1500, 80)
    assert expected_score(a, b) + expected_score(b, a) == pytest.approx(1.0)
    assert expected_score(a, b) > 0.5


# ------------------------------------------------------ through the records layer


def test_a_game_against_a_computer_level_rates_only_the_person():
    add(ANN, HARD, 0)
    history = rating_history("Ann", "spit")
    assert len(history) == 1
    when, rating, rd = history[0]
    assert when == datetime.fromisoformat("2025-03-01T10:00:00+00:00")
    expected = rate(Rating(), [Result(ANCHORS["spit"]["hard"], ANCHOR_RD, 1.0)])
    assert (rating, rd) == pytest.approx((expected.rating, expected.rd))
    assert rating_history("computer", "spit") == []  # computer levels stay at their anchors
    standings = load_standings()
    assert [(r.name, r.mode, r.games) for r in standings.ratings] == [("Ann", "spit", 1)]
    assert standings.computers["spit"]["hard"] == ANCHORS["spit"]["hard"]


def test_people_are_rated_from_their_ratings_before_the_game():
    add(ANN, MEDIUM, 0)  # Ann gets ahead of Bob first
    add(BOB, ANN, 0, minute=1)  # then Bob beats her
    ann, bob = Rating(), Rating()
    ann = rate(ann, [Result(ANCHORS["spit"]["medium"], ANCHOR_RD, 1.0)])
    bob_after, ann_after = rate_game(bob, ann, 1.0)
    assert rating_history("Bob", "spit")[-1][1:] == pytest.approx((bob_after.rating, bob_after.rd))
    assert rating_history("Ann", "spit")[-1][1:] == pytest.approx((ann_after.rating, ann_after.rd))


def test_games_that_move_no_rating():
    add(MEDIUM, HARD, 0)  # computer against computer (watch)
    add(ANN, PlayerInfo("computer", "expert:easy"), 0, minute=1)  # a level without an anchor
    add(ANN, ANN, 0, minute=2)  # the same name on both sides
    assert load_standings().ratings == []
    assert len(load_results()[0]) == 3


def test_ratings_are_kept_per_mode():
    add(ANN, MEDIUM, 0, mode="spit")
    add(ANN, MEDIUM, 1, minute=1, mode="speed")
    ratings = {r.mode: r for r in load_standings().ratings}
    assert ratings["spit"].rating > 1500 > ratings["speed"].rating


def test_draws_and_head_to_head_records():
    add(ANN, BOB, 0)
    add(BOB, ANN, None, minute=1)
    add(ANN, HARD, 1, minute=2)
    add(MEDIUM, HARD, 0, minute=3)  # nobody's record
    records = {(h.name, h.opponent): h for h in load_standings().head_to_head}
    assert set(records) == {("Ann", "Bob"), ("Bob", "Ann"), ("Ann", "computer (hard)")}
    ann_bob = records[("Ann", "Bob")]
    assert (ann_bob.wins, ann_bob.losses, ann_bob.draws) == (1, 0, 1)
    bob_ann = records[("Bob", "Ann")]
    assert (bob_ann.wins, bob_ann.losses, bob_ann.draws) == (0, 1, 1)
    assert records[("Ann", "computer (hard)")].losses == 1


def test_trend_is_the_change_over_the_latest_games():
    for minute in range(TREND_GAMES + 2):
        add(ANN, MEDIUM, 0, minute=minute)
    (ann,) = load_standings().ratings
    steps = [rating for _, rating, _ in rating_history("Ann", "spit")]
    assert ann.games == TREND_GAMES + 2 and ann.trend_games == TREND_GAMES
    assert ann.trend == pytest.approx(steps[-1] - steps[1])
    assert ann.trend > 0 and ann.rd < 350


# ------------------------------------------------------------------ the upgrade

SCHEMA_1 = """
CREATE TABLE results (
    id INTEGER PRIMARY KEY AUTOINCREMENT, finished_at TEXT NOT NULL, kind TEXT NOT NULL,
    mode TEXT NOT NULL, variants TEXT NOT NULL, player1 TEXT NOT NULL, bot1 TEXT,
    player2 TEXT NOT NULL, bot2 TEXT, score1 INTEGER, score2 INTEGER, winner INTEGER,
    reason TEXT NOT NULL, rounds INTEGER NOT NULL, duration REAL NOT NULL, replay TEXT
);
PRAGMA user_version = 1;
"""


def _old_database(rows):
    db = paths.database_path()
    db.parent.mkdir(parents=True)
    with sqlite3.connect(db) as conn:
        conn.executescript(SCHEMA_1)
        conn.executemany(
            "INSERT INTO results (finished_at, kind, mode, variants, player1, bot1, player2,"
            " bot2, winner, reason, rounds, duration) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            rows,
        )
    conn.close()
    return db


OLD_ROWS = [
    ("2024-05-01T10:00:00+00:00", "game", "spit", "", "Ann", None, "c", "hard", 0, "R20", 3, 50),
    ("2024-05-01T10:05:00+00:00", "game", "spit", "", "Ann", None, "Bob", None, 1, "R20", 4, 70),
    ("2024-05-01T10:09:00+00:00", "game", "speed", "", "Bob", None, "c", "easy", 0, "P6", 1, 30),
    ("not a date", "game", "spit", "", "Zed", None, "c", "easy", 0, "R20", 2, 40),  # damaged
]


def test_old_database_is_rated_when_read_and_upgraded_when_written():
    db = _old_database(OLD_ROWS)
    # Reading (read-only) rates the old results in memory; nothing is written.
    before = load_standings()
    assert {(r.name, r.mode) for r in before.ratings} == {
        ("Ann", "spit"),
        ("Bob", "spit"),
        ("Bob", "speed"),
    }
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    conn.close()
    # Writing upgrades: the ratings table is filled from the old results, then the new game.
    add(ANN, BOB, 0, minute=30)
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 2
        count = conn.execute("SELECT COUNT(*) FROM ratings").fetchone()[0]
    conn.close()
    assert count == 1 + 2 + 1 + 2  # Ann v hard, Ann v Bob, Bob v easy, Ann v Bob again
    results, skipped = load_results()
    assert len(results) == 4 and skipped == 1  # the old results are all still there
    # the stored ratings are what rating every result in order gives
    expected = standings_from(
        results, replay_history(rated_game(i, r) for i, r in enumerate(results))
    )
    after = load_standings()
    assert [(r.name, r.mode) for r in after.ratings] == [(r.name, r.mode) for r in expected.ratings]
    for got, want in zip(after.ratings, expected.ratings, strict=True):
        assert (got.rating, got.rd, got.games) == pytest.approx((want.rating, want.rd, want.games))


def test_ledger_replay_matches_step_by_step_updates():
    games = [
        RatedGame(1, "t1", "spit", (Side("Ann"), Side("c", "easy")), 0),
        RatedGame(2, "t2", "spit", (Side("Ann"), Side("Bob")), None),
        RatedGame(3, "t3", "spit", (Side("c", "easy"), Side("c", "hard")), 0),
    ]
    rows = replay_history(games)
    assert [(r.result_id, r.name, r.score) for r in rows] == [
        (1, "Ann", 1.0),
        (2, "Ann", 0.5),
        (2, "Bob", 0.5),
    ]
    assert rows[0].opponent == "computer (easy)" and rows[1].opponent == "Bob"


# ------------------------------------------------------------------ spit stats


def test_stats_json_has_ratings_and_head_to_head(capsys):
    add(ANN, HARD, 0)
    add(ANN, BOB, 1, minute=1)
    assert main(["stats", "--json"]) == 0
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert "players" in data  # the existing figures are still there
    by_name = {r["name"]: r for r in data["ratings"]}
    ann = by_name["Ann"]
    assert set(ann) == {
        "name",
        "mode",
        "rating",
        "rd",
        "interval",
        "volatility",
        "games",
        "trend",
        "trend_games",
        "provisional",
    }
    assert ann["mode"] == "spit" and ann["games"] == 2
    low, high = ann["interval"]
    assert low == pytest.approx(ann["rating"] - 2 * ann["rd"], abs=0.2)
    assert high == pytest.approx(ann["rating"] + 2 * ann["rd"], abs=0.2)
    assert by_name["Bob"]["games"] == 1
    assert data["computer_ratings"]["spit"]["medium"] == 1500.0
    h2h = {(h["name"], h["opponent"]): h for h in data["head_to_head"]}
    assert h2h[("Ann", "computer (hard)")]["wins"] == 1
    assert h2h[("Bob", "Ann")]["wins"] == 1


def test_stats_table_shows_ratings_trend_and_records(capsys):
    weird = PlayerInfo("[red]Zed")
    add(weird, MEDIUM, 0)
    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    assert "Ratings" in out and "±" in out and "Trend" in out and "Head to head" in out
    assert "[red]Zed" in out  # a name is shown as typed, never read as markup
    assert "computer (medium)" in out and "Computer levels" in out


def test_stats_with_no_games_says_so(capsys):
    assert main(["stats", "--json"]) == 0
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert data["ratings"] == [] and data["head_to_head"] == []


def test_the_rating_chart_reads_the_real_history():
    from spit.tui.charts import load_ratings

    add(ANN, MEDIUM, 0)
    add(ANN, MEDIUM, 1, minute=1)
    steps = rating_history("Ann", "spit")
    assert [r for _, r, _ in steps] == load_ratings("Ann", "spit")
    assert len(steps) == 2 and steps[0][1] > 1500 > steps[1][1] - 200
