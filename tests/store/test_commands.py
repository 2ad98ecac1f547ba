"""The ``spit stats``, ``spit replay --verify`` and ``spit resume`` commands."""

import argparse
import json
import os

from tests.support.results import add_result

from spit.cli import main
from spit.cli import persist as persist_commands
from spit.engine import SpeedConfig, SpeedGame, SpitConfig, SpitGame
from spit.store import paths
from spit.store.replays import PlayerInfo, new_meta, save_replay
from spit.store.resume import list_saved_games, save_game

ANN, HARD, BOB = PlayerInfo("Ann"), PlayerInfo("bot", "hard"), PlayerInfo("Bob")


def add(winner, duration, minute):
    when = f"2025-02-03T10:{minute:02d}:00+00:00"
    add_result(ANN, HARD, winner, when, variants=("V1",), rounds=4, duration=duration)


def test_stats_tables_and_json(capsys):
    add(0, 95.0, 1)
    add(0, 75.0, 2)
    add(1, 50.0, 3)
    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    assert "Players" in out and "Ann" in out and "Computer opponents" in out and "hard" in out
    assert "Fastest win: Computer (hard) beat Ann in 0:50" in out
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


def test_resume_without_a_game(capsys):
    assert main(["resume"]) == 1
    assert "no unfinished games" in capsys.readouterr().out
    assert main(["resume", "--list"]) == 0


def test_resume_lists_several_games_and_picks_one_by_number_or_id(capsys):
    launched = []
    parser = argparse.ArgumentParser()
    persist_commands.register(
        parser.add_subparsers(), {"resume": lambda a: launched.append(a.replay) or 0}
    )
    spit = SpitGame(SpitConfig.from_variants(("V1", "V4")), seed=1)
    speed = SpeedGame(SpeedConfig(), seed=2)
    for game in (spit, speed):
        game.apply(game.legal_actions(0)[0])
    save_game(spit, [1.0], new_meta((ANN, HARD)), paths.saved_dir() / "a-spit.json")
    save_game(speed, [2.0], new_meta((ANN, BOB)), paths.saved_dir() / "b-speed.json")
    os.utime(paths.saved_dir() / "a-spit.json", (1e9, 1e9))  # the older of the two
    bad = paths.saved_dir() / "c-bad.json"
    bad.write_text("{nope")
    os.utime(bad, (9e8, 9e8))

    def run(*argv: str) -> int:
        args = parser.parse_args(list(argv))
        return args.handler(args)

    assert run("resume") == 0  # several: listed, nothing launched
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert "mode" in lines[1] and "players" in lines[1] and "score" in lines[1]
    assert lines[2].split()[:4] == ["1", "b-speed", "Speed", "-"]
    assert "Ann vs Bob" in lines[2]
    assert lines[3].split()[:5] == ["2", "a-spit", "Spit", "four", "stocks,"]
    assert "match to 100" in lines[3]  # the variants in words (issue 21)
    assert "Ann vs Computer (hard)" in lines[3] and "0-0" in lines[3]
    assert lines[4].split()[:2] == ["3", "c-bad"] and "unreadable: not valid JSON" in lines[4]
    assert launched == []
    assert run("resume", "2") == 0 and launched[-1].final.fingerprint() == spit.fingerprint()
    assert run("resume", "b-speed") == 0
    assert launched[-1].final.fingerprint() == speed.fingerprint()
    assert run("resume", "3") == 1
    err = capsys.readouterr().err
    assert "cannot resume c-bad" in err and "spit resume --delete c-bad" in err
    assert run("resume", "7") == 1 and "choose 1 to 3" in capsys.readouterr().err
    assert run("resume", "--delete", "c-bad") == 0 and not bad.exists()
    assert run("resume", "--delete", "1") == 0
    assert [g.id for g in list_saved_games()] == ["a-spit"]
    assert run("resume") == 0 and len(launched) == 3  # the only one left: resumed at once
    assert run("resume", "--delete", "zzz") == 1


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
    assert sum("Computer (easy) vs Computer (hard)" in line for line in lines) == 2


def test_file_names_never_send_control_characters_to_the_terminal(playout, capsys):
    """A file named with escape codes (a downloaded replay, a file dropped in the data
    folder) is printed with them as '?': raw, ESC [2J would clear the screen."""
    evil = "evil\x1b[2J\x07"
    game, times = playout(SpitConfig(round_limit=30), seed=9)
    good = save_replay(game, times, new_meta((ANN, HARD)))
    replay = good.rename(good.with_name(f"{evil}.json"))
    spit = SpitGame(SpitConfig(), seed=1)
    spit.apply(spit.legal_actions(0)[0])
    save_game(spit, [1.0], new_meta((ANN, BOB)), paths.saved_dir() / f"{evil}.json")
    (paths.saved_dir() / f"{evil}-bad.json").write_text("{nope")
    capsys.readouterr()
    for argv in (
        ["replay"],
        ["replay", "--verify"],
        ["replay", "--verify", str(replay), str(replay.with_name(f"{evil}-gone.json"))],
        ["coach", str(replay)],
        ["coach", str(replay.with_name(f"{evil}-gone.json"))],
        ["resume", "--list"],
        ["resume", f"{evil}-bad"],
        ["resume", "--delete", f"{evil}-none"],
    ):
        main(argv)
        out, err = capsys.readouterr()
        assert "evil" in out + err, argv
        assert "\x1b" not in out + err and "\x07" not in out + err, (argv, out, err)


def test_the_names_and_numbers_spit_replay_lists_are_accepted(playout, capsys, monkeypatch):
    """Issue 21 defect 7: the list showed bare names that --verify and coach refused."""
    game, times = playout(SpitConfig(round_limit=30), seed=9)
    path = save_replay(game, times, new_meta((ANN, HARD)))
    monkeypatch.chdir(paths.replay_dir().parent)  # not the replay folder: a bare name is not a path
    assert main(["replay"]) == 0
    listing = capsys.readouterr().out
    line = next(line for line in listing.splitlines() if path.name in line)
    assert line.split()[0] == "1"  # numbered
    for named in (path.name, path.stem, "1"):
        assert main(["replay", "--verify", named]) == 0
        assert capsys.readouterr().out.startswith("ok")
        assert main(["coach", named]) == 0
        assert capsys.readouterr().out.startswith(path.name)
    assert main(["replay", "--verify", "2"]) == 1  # there is no second one
    assert "2" in capsys.readouterr().out
