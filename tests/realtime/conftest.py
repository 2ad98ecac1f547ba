"""Fixtures for the arbiter tests."""

import pytest
from tests.support import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    """A clock that moves only when the test advances it."""
    return FakeClock()
