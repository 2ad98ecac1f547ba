"""The headless simulator and ``spit sim``: games end, figures add up, bad input is refused."""

from __future__ import annotations

import json

import pytest

from spit.bots.sim import ROUND_LIMIT, Seat, derive_seed, play_game, simulate
from spit.cli import main


@pytest.mark.parametrize("variants", [(), ("V1",), ("V2",), ("V3",), ("V4",), ("V1", "V2", "V3")])
def test_r20_h4_sim_games_always_end(variants: tuple[str, ...]) -> None:
    seats = (Seat.parse("medium"), Seat.parse("hard:medium"))
    summary = simulate(seats, 4, seed=3, variants=variants)
    assert summary.games == 4
    for result in summary.results:
        assert result.rounds >= 1 and result.moves > 0 and result.seconds > 0
        if "V4" in variants:
            assert result.result in ("score", ROUND_LIMIT)
        else:
            assert result.result in ("R20", ROUND_LIMIT)
            assert (result.winner is None) == (result.result == ROUND_LIMIT)


def test_h4_round_limit_games_are_counted_as_draws() -> None:
    seats = (Seat.parse("medium"), Seat.parse("medium"))
    summary = simulate(seats, 6, seed=1, round_limit=1)
    # One round can only be won by R20 if it was a one-pile round, never on a first deal.
    assert summary.round_limit_games == 6
    assert summary.draws == 6
    assert summary.wins == [0, 0]
    assert summary.rounds_mean == 1


def test_simulation_is_deterministic_given_the_seed() -> None:
    seats = (Seat.parse("easy"), Seat.parse("expert"))
    assert play_game(seats, seed=9, index=2) == play_game(seats, seed=9, index=2)
    assert play_game(seats, seed=9, index=2) != play_game(seats, seed=9, index=3)


def test_derived_seeds_differ_by_role_and_index() -> None:
    seeds = {derive_seed(0, i, role) for i in range(50) for role in ("game", "p1", "p2")}
    assert len(seeds) == 150


def test_summary_figures_add_up() -> None:
    seats = (Seat.parse("hard"), Seat.parse("easy"))
    summary = simulate(seats, 5, seed=2)
    assert sum(summary.wins) + summary.draws == 5
    assert summary.rounds_mean == sum(r.rounds for r in summary.results) / 5
    assert summary.games_per_s > 0


def test_seat_parsing() -> None:
    assert Seat.parse("Hard") == Seat("hard", "hard")
    assert Seat.parse("expert:easy") == Seat("expert", "easy")
    assert str(Seat.parse("expert:easy")) == "expert:easy"
    with pytest.raises(ValueError, match="unknown level"):
        Seat.parse("expert:lightning")


def test_cli_json_last_line_has_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["sim", "--p1", "hard", "--p2", "easy", "--games", "3", "--seed", "4", "--json"])
    assert code == 0
    out = capsys.readouterr().out.strip().splitlines()
    data = json.loads(out[-1])
    for key in ("games", "wins", "draws", "rounds_mean", "moves_mean", "seconds_mean"):
        assert key in data
    assert data["games"] == 3
    assert len(data["wins"]) == 2 and sum(data["wins"]) + data["draws"] == 3
    assert data["games_per_s"] > 0


def test_cli_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--games", "2", "--variant", "v1"]) == 0
    out = capsys.readouterr().out
    for label in ("games", "wins player 1", "draws", "mean rounds", "games per second"):
        assert label in out
    assert "games ended by the round limit" in out and "four stocks" in out


@pytest.mark.parametrize(
    "args",
    [
        ["--p1", "wizard"],
        ["--games", "0"],
        ["--games", "many"],
        ["--seed", "-1"],
        ["--variant", "V9"],
        ["--mode", "poker"],
    ],
)
def test_cli_bad_arguments_exit_2_with_one_line(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        code = main(["sim", "--games", "1", *args])
        raise SystemExit(code)
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "error" in err[0]


@pytest.mark.parametrize("variants", [(), ("V3",), ("P1b",), ("P1b", "V3")])
def test_p6_h5_speed_sim_games_always_end(variants: tuple[str, ...]) -> None:
    seats = (Seat.parse("easy"), Seat.parse("expert"))
    summary = simulate(seats, 5, seed=6, mode="speed", variants=variants)
    assert summary.games == 5
    for result in summary.results:
        assert result.result in ("P6", "H5", ROUND_LIMIT)
        assert result.moves > 0


def test_cli_speed_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--mode", "speed", "--games", "4", "--variant", "V3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert data["mode"] == "speed" and data["variants"] == ["V3"] and data["games"] == 4


def test_cli_speed_refuses_spit_only_variants(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--mode", "speed", "--variant", "V1", "--games", "1"]) == 2
    assert "Speed has no variant 'V1'" in capsys.readouterr().err
