"""Sharing simulated games out to worker processes, and the round-robin tournament.

Results must not depend on the number of processes: each game's deal and
bots are seeded from the run seed and the game's index alone.
"""

from __future__ import annotations

import io
import json
import math
import multiprocessing
import threading
from pathlib import Path

import pytest

from spit.bots.sim import Seat, batch_size, default_jobs, simulate, start_method
from spit.bots.tournament import (
    expected_score,
    fit_ratings,
    pairing_seed,
    parse_levels,
    tournament,
)
from spit.cli import main


def test_simulate_gives_the_same_games_on_one_or_two_processes() -> None:
    seats = (Seat.parse("medium"), Seat.parse("hard:easy"))
    one = simulate(seats, 12, seed=21, jobs=1)
    two = simulate(seats, 12, seed=21, jobs=2)
    assert one.results == two.results
    assert {k: v for k, v in one.to_dict().items() if k != "games_per_s"} == {
        k: v for k, v in two.to_dict().items() if k != "games_per_s"
    }
    # and it is the series that playing the games one by one gives
    assert one.results == simulate(seats, 12, seed=21, jobs=1).results


def test_speed_sim_same_on_two_processes() -> None:
    seats = (Seat.parse("expert"), Seat.parse("easy"))
    one = simulate(seats, 10, seed=3, mode="speed", variants=("P1b",))
    two = simulate(seats, 10, seed=3, mode="speed", variants=("P1b",), jobs=2)
    assert one.results == two.results


def test_progress_counts_every_game_on_two_processes() -> None:
    seen: list[int] = []
    simulate((Seat.parse("easy"), Seat.parse("easy")), 6, seed=1, jobs=2, progress=seen.append)
    assert seen == sorted(seen) and seen[-1] == 6


def test_batches_and_default_jobs() -> None:
    assert batch_size(10, 1) == 1
    assert 1 <= batch_size(10_000, 2) <= 50
    assert default_jobs() >= 1
    assert default_jobs(3) == 1  # a short run is not worth a second process


@pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="no fork on this platform"
)
def test_workers_are_forked_unless_another_thread_runs() -> None:
    # A forked worker starts at once with everything loaded; a spawned one first
    # starts an interpreter and imports the simulator. Forking a process that
    # runs other threads is unsafe, so then the workers are spawned.
    assert threading.active_count() == 1
    assert start_method() == "fork"
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert start_method() == "spawn"
    finally:
        release.set()
        other.join()
    assert start_method() == "fork"


def test_the_progress_bar_runs_no_thread_of_its_own() -> None:
    # (else the simulator could not fork its workers while the bar is shown)
    from rich.console import Console

    from spit.cli.sim import progress_bar

    before = threading.active_count()
    with progress_bar(Console(file=io.StringIO()), "simulating") as progress:
        task = progress.add_task("games", total=3)
        progress.update(task, completed=2, refresh=True)
        assert threading.active_count() == before


def test_tournament_is_the_same_on_one_or_two_processes() -> None:
    one = tournament(("easy", "medium", "expert"), 3, seed=5, jobs=1)
    two = tournament(("easy", "medium", "expert"), 3, seed=5, jobs=2)
    assert [p.results for p in one.pairings] == [p.results for p in two.pairings]
    assert one.ratings == two.ratings
    # every ordered pair of different levels, N games each
    assert [(p.p1, p.p2) for p in one.pairings] == [
        ("easy", "medium"),
        ("easy", "expert"),
        ("medium", "easy"),
        ("medium", "expert"),
        ("expert", "easy"),
        ("expert", "medium"),
    ]
    assert all(p.games == 3 for p in one.pairings)
    assert one.total_games == 18
    assert one.ratings["medium"] == 1500.0


def test_tournament_pairing_is_the_sim_run_with_the_pairing_seed() -> None:
    result = tournament(("easy", "hard"), 4, seed=9)
    seats = (Seat.parse("hard"), Seat.parse("easy"))
    alone = simulate(seats, 4, seed=pairing_seed(9, "hard", "easy"))
    assert result.pairings[1].results == alone.results


def test_parse_levels() -> None:
    assert parse_levels("easy, Expert") == ("easy", "expert")
    for bad in ("easy", "easy,easy", "easy,wizard", ""):
        with pytest.raises(ValueError):
            parse_levels(bad)


# ------------------------------------------------------------------ the fit


def test_fit_recovers_the_ratings_that_predict_the_results() -> None:
    # 76% is what a 200-point gap predicts: the fit must find that gap.
    ratings = fit_ratings(["a", "b"], [("a", "b", 76, 24, 0)], anchor="b", prior_draws=0)
    assert ratings["b"] == 1500.0
    assert math.isclose(expected_score(ratings["a"], ratings["b"]), 0.76, rel_tol=1e-9)
    assert ratings["a"] == pytest.approx(1500 + 400 * math.log10(76 / 24), abs=1e-6)


def test_fit_is_consistent_over_three_levels() -> None:
    # results generated from ratings 1700, 1500, 1200 (expected scores, 1000 games each)
    true = {"x": 1700.0, "y": 1500.0, "z": 1200.0}
    outcomes = []
    for a, b in (("x", "y"), ("y", "z"), ("x", "z")):
        share = expected_score(true[a], true[b])
        outcomes.append((a, b, round(1000 * share), 1000 - round(1000 * share), 0))
    fitted = fit_ratings(["x", "y", "z"], outcomes, anchor="y", prior_draws=0)
    for level, rating in true.items():
        assert fitted[level] == pytest.approx(rating, abs=2.0)


def test_fit_draws_count_half_and_a_clean_sweep_stays_finite() -> None:
    even = fit_ratings(["a", "b"], [("a", "b", 0, 0, 10)], anchor="a")
    assert even["b"] == pytest.approx(1500.0)
    sweep = fit_ratings(["a", "b"], [("a", "b", 50, 0, 0)], anchor="a")
    assert math.isfinite(sweep["b"]) and sweep["b"] < 1500 - 400


# ------------------------------------------------------------------ the command


def test_cli_tournament_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["tournament", "--levels", "easy,hard", "--games", "2", "--seed", "3", "--json"]
    assert main([*args, "--jobs", "1"]) == 0
    one = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert main([*args, "--jobs", "2"]) == 0
    two = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert one["pairings"] == two["pairings"] and one["ratings"] == two["ratings"]
    assert one["levels"] == ["easy", "hard"] and one["games_per_pairing"] == 2
    assert set(one["ratings"]) == {"easy", "hard"}
    assert one["total_games"] == 4
    first = one["pairings"][0]
    assert set(first) == {"p1", "p2", "games", "p1_wins", "p2_wins", "draws"}


def test_cli_tournament_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--levels", "easy,medium", "--games", "1", "--mode", "speed"]) == 0
    out = capsys.readouterr().out
    assert "fitted ratings" in out and "easy" in out and "medium" in out and "1500" in out


@pytest.mark.parametrize(
    "args", [["--levels", "easy"], ["--levels", "easy,wizard"], ["--games", "0"], ["--jobs", "0"]]
)
def test_cli_tournament_bad_arguments(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["tournament", *args])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "error" in err[0]


def test_cli_sim_jobs_same_json(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["sim", "--p1", "expert", "--p2", "medium", "--games", "4", "--seed", "8", "--json"]
    figures = []
    for jobs in ("1", "2"):
        assert main([*base, "--jobs", jobs]) == 0
        data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
        data.pop("games_per_s")
        figures.append(data)
    assert figures[0] == figures[1]


def test_cli_sim_saves_replays_from_worker_processes(tmp_path: Path) -> None:
    folder = tmp_path / "replays"
    args = ["sim", "--games", "3", "--seed", "2", "--jobs", "2", "--save-replays", str(folder)]
    assert main([*args, "--json"]) == 0
    names = sorted(p.name for p in folder.iterdir())
    assert names == [f"sim-2-{i:06d}-spit.json" for i in range(3)]
