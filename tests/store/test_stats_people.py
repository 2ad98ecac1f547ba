"""``spit stats`` counts people's games, says what it skipped, and shows names as typed."""

import json
import sqlite3

import pytest
from tests.support.results import add_result

from spit.cli import main
from spit.store import paths
from spit.store.records import compute_stats, load_results
from spit.store.replays import PlayerInfo

ANN, HARD, EASY = PlayerInfo("Ann"), PlayerInfo("Computer (hard)", "hard"), PlayerInfo("c", "easy")


def add(p1: PlayerInfo, p2: PlayerInfo, winner: int | None, minute: int = 1) -> None:
    when = f"2025-02-03T10:{minute:02d}:00+00:00"
    add_result(p1, p2, winner, when, rounds=2, duration=30.0 + minute)


def test_games_between_computers_are_not_counted(capsys: pytest.CaptureFixture[str]) -> None:
    add(ANN, HARD, 0, 1)
    add(EASY, HARD, 1, 2)  # spit watch
    add(HARD, EASY, 0, 3)
    stats = compute_stats(load_results()[0])
    assert stats.results == 1 and stats.computer_only == 2
    assert [(t.label, t.played) for t in stats.bots] == [("hard", 1)]
    assert stats.fastest_win is not None and stats.fastest_win["winner"] == "Ann"
    assert main(["stats", "--json"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["results"] == 1 and data["computer_only_games"] == 2
    assert "2 game(s) between two computer players" in captured.err


def test_a_row_it_cannot_read_is_a_warning_not_a_draw(capsys: pytest.CaptureFixture[str]) -> None:
    add(ANN, HARD, 0, 1)
    with sqlite3.connect(paths.database_path()) as conn:  # a win whose winner was lost
        conn.execute(
            "INSERT INTO results (finished_at, kind, mode, variants, player1, player2, bot2,"
            " winner, reason, rounds, duration) VALUES ('2025-02-03T11:00:00+00:00', 'game',"
            " 'spit', '', 'Ann', 'c', 'hard', NULL, 'R20', 3, 40.0)"
        )
        conn.execute(  # a mode this version does not know
            "INSERT INTO results (finished_at, kind, mode, variants, player1, player2,"
            " winner, reason, rounds, duration) VALUES ('2025-02-03T11:01:00+00:00', 'game',"
            " 'chess', '', 'Ann', 'Bob', 0, 'R20', 3, 40.0)"
        )
    results, skipped = load_results()
    assert len(results) == 1 and skipped == 2
    assert main(["stats", "--json"]) == 0
    captured = capsys.readouterr()
    (ann,) = json.loads(captured.out)["players"]
    assert ann["draws"] == 0 and ann["played"] == 1
    assert "warning: 2 result(s)" in captured.err and "skipped" in captured.err


@pytest.mark.parametrize("name", ["Bob [/b]", "[afk] bob", "[bold red]x", "a\\[b]"])
def test_names_with_markup_show_as_typed(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    add(PlayerInfo(name), PlayerInfo("Cy"), 0, 1)
    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    assert name in out
    assert f"Fastest win: {name} beat Cy" in out


def test_h5_and_score_results_with_or_without_a_winner_are_kept() -> None:
    for winner, reason in ((0, "H5"), (None, "H5"), (1, "score"), (None, "score")):
        when = "2025-02-03T10:00:00+00:00"
        add_result(ANN, HARD, winner, when, mode="speed", reason=reason, rounds=1, duration=20.0)
    results, skipped = load_results()
    assert len(results) == 4 and skipped == 0


def test_few_games_give_provisional_ratings_marked_and_explained(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 21 defect 11: after 3 games the winner of 2 could be rated below the loser,
    with nothing to say that such ratings are rough guesses."""
    bob = PlayerInfo("Bob")
    add(ANN, bob, 0, 1)
    add(ANN, bob, 1, 2)
    add(ANN, bob, 0, 3)
    assert main(["stats", "--no-charts"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.strip().startswith(("│ Ann", "│ Bob"))]
    ratings = [line for line in rows if " spit " in line]
    assert len(ratings) >= 2 and all("?" in line for line in ratings[:2])
    assert "provisional" in " ".join(out.split())
    assert main(["stats", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert all(r["provisional"] for r in data["ratings"])
