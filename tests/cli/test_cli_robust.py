"""The ``spit`` command where it meets the outside world (issue 9): no terminal,
closed pipes, ASCII-only output, odd files named by the environment, and a
description for every option."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from spit import cli
from spit.engine import SpitConfig, SpitGame
from spit.store.replays import PlayerInfo, new_meta, save_replay
from spit.tui.app import SpitApp

SRC = str(Path(__file__).resolve().parents[2] / "src")


def run_spit(
    *args: str, env: dict[str, str] | None = None, stdin: int | None = subprocess.DEVNULL
) -> subprocess.CompletedProcess[bytes]:
    """``python -m spit ARGS`` in a child process (bounded in time)."""
    full = {**os.environ, "PYTHONPATH": SRC, **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "spit", *args],
        stdin=stdin,
        capture_output=True,
        env=full,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("command", [[], ["play"], ["speed"], ["watch"], ["play", "--vs", "easy"]])
def test_without_a_terminal_it_says_so_and_exits_2(command: list[str]) -> None:
    done = run_spit(*command)
    assert done.returncode == 2
    assert b"needs a terminal" in done.stderr
    assert b"\x1b[" not in done.stdout  # no escape codes written into the file


def test_replay_and_resume_without_a_terminal(tmp_path: Path) -> None:
    game = SpitGame(SpitConfig(), seed=1)
    path = save_replay(game, [], new_meta((PlayerInfo("A"), PlayerInfo("B"))), tmp_path)
    env = {"SPIT_DATA_DIR": str(tmp_path / "data"), "SPIT_CONFIG": str(tmp_path / "c.toml")}
    done = run_spit("replay", str(path), env=env)
    assert done.returncode == 2 and b"needs a terminal" in done.stderr


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    """``spit rules | head -1``: the reader leaves; no BrokenPipeError traceback."""
    env = {**os.environ, "PYTHONPATH": SRC}
    for args in (["rules"], ["--help"], ["rules", "--ascii"]):
        child = subprocess.Popen(
            [sys.executable, "-m", "spit", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            env=env,
        )
        assert child.stdout is not None and child.stderr is not None
        child.stdout.read(10)
        child.stdout.close()  # like head -1 exiting
        err = child.stderr.read()
        child.wait(timeout=60)
        assert b"Traceback" not in err and b"BrokenPipe" not in err, err


def test_replay_verify_into_a_closed_pipe(tmp_path: Path) -> None:
    game = SpitGame(SpitConfig(), seed=1)
    meta = new_meta((PlayerInfo("A"), PlayerInfo("B")))
    files = [str(save_replay(game, [], meta, tmp_path, name=f"r{i}.json")) for i in range(400)]
    env = {**os.environ, "PYTHONPATH": SRC}
    child = subprocess.Popen(
        [sys.executable, "-m", "spit", "replay", "--verify", *files],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert child.stdout is not None and child.stderr is not None
    child.stdout.readline()
    child.stdout.close()
    err = child.stderr.read()
    child.wait(timeout=60)
    assert b"Traceback" not in err, err


ASCII_ENV = {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONIOENCODING": ""}


def test_rules_in_an_ascii_locale() -> None:
    done = run_spit("rules", env=ASCII_ENV)
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    done.stdout.decode("ascii")  # nothing but ASCII
    assert b"one rank up or down" in done.stdout


@pytest.mark.parametrize(
    "env",
    [
        {"LC_ALL": "C"},  # Python's UTF-8 mode would write UTF-8 here
        {"LC_ALL": "", "LC_CTYPE": "", "LANG": "C"},  # Python coerces it to C.UTF-8
        {"LC_ALL": "POSIX"},
    ],
)
def test_rules_in_a_locale_that_takes_no_unicode_are_plain_readable_ascii(
    env: dict[str, str],
) -> None:
    """Issue 21 defect 5: only PYTHONUTF8=0 switched to ASCII, and then printed raw Markdown."""
    done = run_spit("rules", env={"PYTHONUTF8": "", "PYTHONIOENCODING": "", **env})
    assert done.returncode == 0, done.stderr
    text = done.stdout.decode("ascii")  # nothing but ASCII
    assert "**" not in text and "|---" not in text and "`" not in text
    assert "\nKeys\n====\n" in text and "- four stocks: " in text
    assert all(len(line) <= 80 for line in text.splitlines())


@pytest.mark.parametrize(
    ("env", "unicode"),
    [
        ({"LC_ALL": "C", "LANG": "en_GB.UTF-8"}, False),
        ({"LC_CTYPE": "C.UTF-8", "LANG": "C"}, False),  # what Python's coercion leaves
        ({"LC_CTYPE": "C.UTF-8"}, True),
        ({"LANG": "en_GB.UTF-8"}, True),
        ({"LC_ALL": "de_DE.utf8"}, True),
        ({"LANG": "en_GB"}, True),
        ({"LANG": "ru_RU.KOI8-R"}, False),
        ({}, False),
    ],
)
def test_the_locale_decides_whether_the_suits_can_be_shown(
    env: dict[str, str], unicode: bool
) -> None:
    from spit.play.texts import locale_takes_unicode

    assert locale_takes_unicode(env) is unicode


def test_a_c_locale_gives_the_ascii_board(
    launched: list[SpitApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 21 defect 5: with LC_ALL=C the board drew boxes and suits."""
    monkeypatch.setenv("LC_ALL", "C")
    assert cli.main(["play"]) == 0
    assert launched[0].settings.ascii_only
    monkeypatch.setenv("LC_ALL", "en_GB.UTF-8")
    assert cli.main(["play"]) == 0
    assert not launched[1].settings.ascii_only


def test_rules_leave_a_line_before_the_keys(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21 defect 18: "First to play every card wins." ran into the Keys heading."""
    assert cli.main(["rules"]) == 0
    lines = [line.strip() for line in capsys.readouterr().out.splitlines()]
    keys = lines.index("Keys")
    assert lines[keys - 1] == ""


def test_rules_ascii_option_forces_ascii() -> None:
    done = run_spit("rules", "--ascii")
    assert done.returncode == 0
    done.stdout.decode("ascii")


def test_replay_verify_in_an_ascii_locale(tmp_path: Path) -> None:
    game = SpitGame(SpitConfig(), seed=1)
    path = save_replay(game, [], new_meta((PlayerInfo("Zoë ♠"), PlayerInfo("B"))), tmp_path)
    done = run_spit("replay", "--verify", str(path), env=ASCII_ENV)
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr and done.stdout.startswith(b"ok")


def test_ascii_option_reaches_the_app(
    launched: list[SpitApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("LC_ALL", "LC_CTYPE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "en_GB.UTF-8")  # a terminal that shows the suits
    assert cli.main(["--ascii", "play"]) == 0
    assert launched[0].settings.ascii_only
    assert cli.main(["play", "--ascii"]) == 0
    assert launched[1].settings.ascii_only
    assert cli.main(["play"]) == 0
    assert not launched[2].settings.ascii_only


def test_speed_refuses_spit_only_variants(
    launched: list[SpitApp], capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["speed", "--variant", "V1,V4"]) == 2
    err = capsys.readouterr().err
    assert "'V1'" in err and "Speed takes long-deal, alternating-colours" in err
    assert cli.main(["watch", "--mode", "speed", "--variant", "V2"]) == 2
    assert launched == []
    assert cli.main(["speed", "--variant", "v3"]) == 0
    assert launched[0].settings.game.variants("speed") == ("V3",)


def test_each_game_takes_the_variants_its_help_lists(
    launched: list[SpitApp], capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 21 defect 4: one list per game, from the registry, in --help and errors."""
    from spit.cli.variants import choices_text
    from spit.engine import get_mode

    for command, mode in (("play", "spit"), ("speed", "speed")):
        with pytest.raises(SystemExit):
            cli.main([command, "--help"])
        help_text = " ".join(capsys.readouterr().out.split()).replace("- ", "-")  # wrapped
        assert choices_text(mode) in help_text
        for word in choices_text(mode).split(", "):  # every one listed is taken
            launched.clear()
            assert cli.main([command, "--variant", word]) == 0, capsys.readouterr().err
            (vid,) = launched[0].settings.game.variants(mode)
            assert vid in get_mode(mode).variants
    assert cli.main(["speed", "--variant", "P1b"]) == 0  # the rule's id still works
    assert launched[-1].settings.game.variants("speed") == ("P1b",)
    assert cli.main(["sim", "--mode", "speed", "--variant", "long-deal", "--games", "1"]) == 0


@pytest.mark.parametrize("seat", ["expert:", "expert:godlike", ":easy"])
def test_sim_refuses_a_half_seat(seat: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        cli.main(["sim", "--p1", seat, "--games", "1"])
    assert info.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


def test_every_option_has_a_description() -> None:
    missing = []

    def walk(parser: argparse.ArgumentParser) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    if not any(c.dest == name and c.help for c in action._choices_actions):
                        missing.append(f"{parser.prog} {name}")
                    walk(sub)
            elif action.help in (None, "", argparse.SUPPRESS) and not isinstance(
                action, argparse._HelpAction
            ):
                missing.append(f"{parser.prog} {'/'.join(action.option_strings) or action.dest}")

    walk(cli.build_parser())
    assert missing == []


def test_config_naming_a_fifo_is_refused_with_the_reason(tmp_path: Path) -> None:
    fifo = tmp_path / "config.fifo"
    os.mkfifo(fifo)
    from spit.store.settings import Settings, load_settings, save_settings

    settings, warnings = load_settings(fifo)  # returns at once: it never opens the pipe
    assert settings == Settings()
    assert "named pipe (FIFO)" in warnings[0] and str(fifo) in warnings[0]
    with pytest.raises(OSError, match="named pipe"):
        save_settings(Settings(), fifo)
    assert fifo.is_fifo()


def test_stats_with_the_data_dir_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    not_a_dir = tmp_path / "data-file"
    not_a_dir.write_text("x")
    done = run_spit("stats", env={"SPIT_DATA_DIR": str(not_a_dir)})
    assert done.returncode == 1
    assert b"is a file, not a folder" in done.stderr and str(not_a_dir).encode() in done.stderr
    assert b"No finished games yet" not in done.stdout


def test_replay_list_with_the_data_dir_a_file(tmp_path: Path) -> None:
    not_a_dir = tmp_path / "data-file"
    not_a_dir.write_text("x")
    done = run_spit("replay", env={"SPIT_DATA_DIR": str(not_a_dir)})
    assert done.returncode == 1
    assert b"is a file, not a folder" in done.stderr
    assert b"No saved replays yet" not in done.stdout


def test_the_no_terminal_message_names_every_command_that_needs_none(tmp_path: Path) -> None:
    """Issue 21 defect 18: coach, tournament and resume --list work without a terminal
    too, and the message says so; each one it names does run without one."""
    env = {"SPIT_DATA_DIR": str(tmp_path / "data"), "SPIT_CONFIG": str(tmp_path / "c.toml")}
    message = run_spit("play", env=env).stderr.decode()
    for command in ("rules", "stats", "sim", "tournament", "coach", "replay --verify"):
        assert command in message
    assert "resume --list" in message
    tournament = ["tournament", "--levels", "easy,medium", "--games", "1"]
    for command in (["resume", "--list"], tournament):
        done = run_spit(*command, env=env)
        assert b"needs a terminal" not in done.stderr and done.returncode == 0, done.stderr


def test_every_command_says_what_it_does_in_its_own_help(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 21 defect 18: `play --help` and `speed --help` had no description."""
    from tests.support.commands import every_command

    for command in every_command():
        with pytest.raises(SystemExit):
            cli.main([command, "--help"])
        paragraphs = capsys.readouterr().out.split("\n\n")
        assert paragraphs[0].startswith("usage:")
        assert not paragraphs[1].lstrip().startswith(("options:", "positional")), command


def test_the_tournament_table_shows_each_count_with_its_share(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 21 defect 18: "P1 wins" had percentages and "P2 wins" not."""
    args = ["tournament", "--levels", "easy,medium", "--games", "2", "--jobs", "1"]
    assert cli.main(args) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if "easy" in line]
    pairings = [line for line in rows if "medium" in line and line.count("%") >= 3]
    assert len(pairings) == 2, rows
