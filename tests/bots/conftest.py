"""Shared helpers for the bot tests: dealing chosen positions."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tests.support import spit_packets

Packets = Callable[..., list[list[int]]]


@pytest.fixture
def packets() -> Packets:
    """``packets(tops, spit, under)``: see ``tests.support.spit_packets``."""
    return spit_packets
