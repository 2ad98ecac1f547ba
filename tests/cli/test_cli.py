"""The ``spit`` command: sub-commands, options, and clear errors (no traceback)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from spit import cli
from spit.tui.app import SpitApp


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        cli.main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.startswith("spit ")


def test_no_command_opens_the_title_menu(launched: list[SpitApp]) -> None:
    assert cli.main([]) == 0
    assert launched[0].opening.mode is None


def test_play_with_variants_and_seed(launched: list[SpitApp]) -> None:
    assert cli.main(["play", "--variant", "v1", "--variant", "V3,V4", "--seed", "42"]) == 0
    app = launched[0]
    assert app.opening.mode == "spit"
    assert app.settings.game.variants("spit") == ("V1", "V3", "V4")
    assert app.settings.game.seed == 42


def test_speed_long_deal(launched: list[SpitApp]) -> None:
    assert cli.main(["speed", "--long-deal"]) == 0
    assert launched[0].opening.mode == "speed"
    assert launched[0].settings.game.rules_of("speed")["long_deal"] is True


def test_unknown_variant_is_a_clear_error(
    launched: list[SpitApp], capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["play", "--variant", "V9"]) == 2
    assert "unknown variant 'V9'" in capsys.readouterr().err
    assert launched == []


def test_bad_seed_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        cli.main(["play", "--seed", "-1"])
    assert info.value.code == 2
    assert "seed must be from 0" in capsys.readouterr().err


def test_play_vs_level_makes_player_2_the_computer(launched: list[SpitApp]) -> None:
    assert cli.main(["play", "--vs", "Hard"]) == 0
    assert launched[0].opening.mode == "spit" and launched[0].opening.opponents == {1: "hard"}


def test_speed_vs_level(launched: list[SpitApp]) -> None:
    assert cli.main(["speed", "--vs", "easy"]) == 0
    assert launched[0].opening.mode == "speed" and launched[0].opening.opponents == {1: "easy"}


def test_watch_two_computer_players(launched: list[SpitApp]) -> None:
    assert cli.main(["watch", "--p1", "easy", "--p2", "expert", "--mode", "speed"]) == 0
    app = launched[0]
    assert app.opening.mode == "speed" and app.opening.opponents == {0: "easy", 1: "expert"}


def test_unknown_level_is_a_clear_error(
    launched: list[SpitApp], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        cli.main(["play", "--vs", "godlike"])
    assert info.value.code == 2
    assert "unknown level 'godlike'" in capsys.readouterr().err
    assert launched == []


def test_rules_prints_the_rules_and_keys(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["rules"]) == 0
    out = capsys.readouterr().out
    assert "Spit" in out and "Speed" in out
    assert "one rank up or down" in out and "q w e r t" in out


def test_play_vs_match_me(launched: list[SpitApp], capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "--vs", "match-me"]) == 0
    assert launched[-1].opening.opponents == {1: "match-me"}
    assert cli.main(["speed", "--vs", "me:Ann"]) == 0
    assert launched[-1].opening.opponents == {1: "me:Ann"}
    with pytest.raises(SystemExit):
        cli.main(["play", "--vs", "me:"])
    assert "match-me or me:NAME" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["play", "--vs", "me:a\x1b[31mb"])
    assert "cannot hold control characters" in capsys.readouterr().err


def test_the_app_runs_with_what_was_loaded_before_it_kept_from_the_collector(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import gc

    frozen: list[int] = []
    collecting: list[bool] = []

    def run(self: SpitApp, **kw: object) -> None:
        frozen.append(gc.get_freeze_count())
        collecting.append(gc.isenabled())

    monkeypatch.setattr(SpitApp, "run", run)
    before = gc.get_freeze_count()
    assert cli.main(["play"]) == 0
    assert frozen and frozen[0] > before  # full collections skip it while the app runs
    assert gc.get_freeze_count() == before  # and it is handed back when the app ends
    # the collector is off up to the first frame (``SpitApp.on_ready``), on after the app
    assert collecting == [False] and gc.isenabled()


def test_the_command_freezes_what_it_built_before_the_interpreter_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import gc
    import runpy
    from importlib.metadata import entry_points

    # Both ways in (the console script and ``python -m spit``) go through
    # ``spit.__main__.main``, then ``entry``.
    (script,) = entry_points(group="console_scripts", name="spit")
    assert script.value == "spit.__main__:main"
    collecting: list[bool] = []

    def main(argv: list[str] | None = None) -> int:
        collecting.append(gc.isenabled())
        return 3

    monkeypatch.setattr(cli, "main", main)
    before = gc.get_freeze_count()
    try:
        with pytest.raises(SystemExit) as leaving:
            runpy.run_module("spit", run_name="__main__")
        assert leaving.value.code == 3  # main's exit code, unchanged
        # The objects left are kept from the interpreter's last full collections.
        assert gc.get_freeze_count() > before
        # the modules load without the cyclic collector; it is on again at the end
        assert collecting == [False] and gc.isenabled()
    finally:
        gc.enable()
        gc.unfreeze()


def test_a_setting_games_share_is_checked_by_the_game_it_is_for(
    launched: list[SpitApp], capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 22: the options come from each mode's settings; ``--target`` is Spit's
    (1 and up, turning its scoring on) and Speed's (0: single games) in ``spit watch``."""
    assert cli.main(["watch", "--mode", "speed", "--target", "0", "--long-deal"]) == 0
    speed = launched[0].settings.game
    assert speed.rules_of("speed")["target"] == 0 and speed.variants("speed") == ("P1b",)
    assert cli.main(["watch", "--mode", "spit", "--target", "0"]) == 2
    assert "--target: match target: must be a whole number from 1 to 100000" in (
        capsys.readouterr().err
    )
    assert cli.main(["watch", "--target", "25", "--four-stocks"]) == 0
    spit = launched[1].settings.game
    assert spit.rules_of("spit")["target"] == 25 and spit.variants("spit") == ("V1", "V4")
    assert len(launched) == 2


def test_the_game_runs_textual_at_1000_frames_a_second() -> None:
    """The frame rate is set once, by the command line before Textual is imported
    (set later, Textual would never read it)."""
    code = (
        "import os, sys; os.environ.pop('TEXTUAL_FPS', None); import spit.cli as cli; "
        "assert 'textual' not in sys.modules; cli._tui(); "
        "import textual.constants as c; print(c.MAX_FPS)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "1000"
