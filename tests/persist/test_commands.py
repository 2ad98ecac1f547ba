"""The ``spit stats``, ``spit replay --verify`` and ``spit resume`` commands."""

import argparse
import json

from spit.cli import main
from spit.cli import persist as persist_commands
from spit.engine import SpitConfig, SpitGame
from spit.store import paths
from spit.store.records import GameResult, record_result
from spit.store.replays import PlayerInfo, new_meta, save_replay
from spit.store.resume import save_match_in_progress

ANN, HARD = PlayerInfo("Ann"), PlayerInfo("bot", "hard")


def add(winner, duration, minute):
    status = record_result(
        GameResult(
            kind="game",
            mode="spit",
            variants=("V1",),
            players=(ANN, HARD),
            scores=None,
            winner=winner,
            reason="R20",
            rounds=4,
            duration=duration,
            finished_at=f"2025-02-03T10:{minute:02d}:00+00:00",
        )
    )
    assert status.saved


def test_stats_tables_and_json(capsys):
    add(0, 95.0, 1)
    add(0, 75.0, 2)
    add(1, 50.0, 3)
    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    assert "Players" in out and "Ann" in out and "Computer opponents" in out and "hard" in out
    assert "Fastest win: bot (hard) beat Ann in 0:50" in out
    assert main(["stats", "--json"]) == 0
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    (ann,) = data["players"]
    assert (ann["wins"], ann["losses"], ann["longest_streak"], ann["current_streak"]) == (
        2,
        1,
        2,
        0,
    )
    assert ann["fastest_win"] == 75.0
    assert data["bots"][0]["name"] == "hard" and data["bots"][0]["wins"] == 1


def test_stats_with_damaged_database(capsys):
    db = paths.database_path()
    db.parent.mkdir(parents=True)
    db.write_bytes(b"garbage" * 200)
    assert main(["stats"]) == 1
    err = capsys.readouterr().err
    assert "damaged" in err and str(db) in err and "Traceback" not in err


def test_replay_verify_one_line_per_file_and_exit_code(playout, tmp_path, capsys):
    game, times = playout(SpitConfig(round_limit=30), seed=9)
    good = save_replay(game, times, new_meta((ANN, HARD)))
    bad = tmp_path / "bad.json"
    data = json.loads(good.read_text())
    data["actions"].reverse()
    bad.write_text(json.dumps(data))
    junk = tmp_path / "junk.json"
    junk.write_bytes(b"\x00\x01not json")
    assert main(["replay", "--verify", str(good)]) == 0
    assert main(["replay", "--verify", str(good), str(bad), str(junk)]) == 1
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 4
    assert lines[0].startswith("ok") and lines[1].startswith("ok")
    assert lines[2].startswith(f"FAIL {bad}: ") and lines[3].startswith(f"FAIL {junk}: ")


def test_resume_without_a_match(capsys):
    assert main(["resume"]) == 1
    assert "no unfinished match" in capsys.readouterr().out


def test_resume_damaged_match_then_discard(capsys):
    path = paths.match_path()
    path.parent.mkdir(parents=True)
    path.write_text('{"format": "spit-game"')
    assert main(["resume"]) == 1
    err = capsys.readouterr().err
    assert str(path) in err and "--discard" in err
    assert path.exists()
    assert main(["resume", "--discard"]) == 0
    assert not path.exists()


def test_resume_hands_the_rebuilt_match_to_the_game_screen():
    game = SpitGame(SpitConfig(scoring=True), seed=1)
    save_match_in_progress(game, [], new_meta((ANN, HARD)))
    launched = []
    # With a launcher (the TUI) registered, resume hands it the rebuilt match.
    parser = argparse.ArgumentParser()
    persist_commands.register(
        parser.add_subparsers(), {"resume": lambda a: launched.append(a.replay) or 0}
    )
    args = parser.parse_args(["resume"])
    assert args.handler(args) == 0
    assert launched[0].final.fingerprint() == game.fingerprint()


def test_sim_save_replays_writes_verifiable_replays(tmp_path, capsys):
    folder = tmp_path / "sim"
    args = ["sim", "--games", "2", "--json", "--save-replays", str(folder)]
    assert main([*args, "--p1", "easy", "--p2", "hard"]) == 0
    assert main([*args, "--mode", "speed"]) == 0
    files = sorted(folder.iterdir())
    assert len(files) == 4
    capsys.readouterr()
    assert main(["replay", "--verify", *map(str, files)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 4 and all(line.startswith("ok") for line in lines)
    assert sum("bot (easy) vs bot (hard)" in line for line in lines) == 2
