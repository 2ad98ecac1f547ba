"""Fixtures for the app tests: a fake clock, private folders, a stand-in terminal, and
the apps a command would run (``launched``, recorded instead of run)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.support import FakeClock
from tests.support.pilot import launched

__all__ = ["a_terminal", "clock", "isolated_dirs", "launched"]


@pytest.fixture
def clock() -> FakeClock:
    """A clock that moves only when the test advances it."""
    return FakeClock()


@pytest.fixture(autouse=True)
def isolated_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point SPIT_CONFIG and SPIT_DATA_DIR into tmp_path: the app records every game."""
    monkeypatch.setenv("SPIT_CONFIG", str(tmp_path / "config" / "config.toml"))
    monkeypatch.setenv("SPIT_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


@pytest.fixture(autouse=True)
def a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """In-process app tests run without a terminal: let ``spit.tui.launch.run`` go on.

    (tests/cli/test_cli.py checks the real refusal in a subprocess.)
    """
    from spit.tui import launch

    monkeypatch.setattr(launch, "terminal_problem", lambda: None)
