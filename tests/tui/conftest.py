"""Fixtures for the app tests: a fake clock and apps dealt from known positions."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "arbiter"))

from arbiter_helpers import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    """A clock that moves only when the test advances it."""
    return FakeClock()
