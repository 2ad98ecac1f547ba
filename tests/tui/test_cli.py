"""The ``spit`` command: sub-commands, options, and clear errors (no traceback)."""

from __future__ import annotations

import pytest

from spit import cli
from spit.tui.app import SpitApp


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> list[SpitApp]:
    """Record the app the command would run, instead of running it."""
    apps: list[SpitApp] = []
    monkeypatch.setattr(SpitApp, "run", lambda self, **kw: apps.append(self))
    return apps


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        cli.main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.startswith("spit ")


def test_no_command_opens_the_title_menu(launched: list[SpitApp]) -> None:
    assert cli.main([]) == 0
    assert launched[0].start is None


def test_play_with_variants_and_seed(launched: list[SpitApp]) -> None:
    assert cli.main(["play", "--variant", "v1", "--variant", "V3,V4", "--seed", "42"]) == 0
    app = launched[0]
    assert app.start == "spit"
    assert app.settings.variants == ("V1", "V3", "V4") and app.settings.seed == 42


def test_speed_long_deal(launched: list[SpitApp]) -> None:
    assert cli.main(["speed", "--long-deal"]) == 0
    assert launched[0].start == "speed" and launched[0].settings.long_deal


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
