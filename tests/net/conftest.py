"""Network tests: loopback only, ephemeral ports, every test bounded in time.

``tests.support.net`` has the shared pieces: a host on 127.0.0.1 port 0, bot
guests with a very fast reaction time, a recorder of every message a guest
receives, and positions where both players race for the same pile.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.support.net import LogLines


@pytest.fixture(autouse=True)
def isolated_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """SPIT_CONFIG and SPIT_DATA_DIR in tmp_path: host keys, records and replays land there."""
    monkeypatch.setenv("SPIT_CONFIG", str(tmp_path / "config" / "config.toml"))
    monkeypatch.setenv("SPIT_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


@pytest.fixture
def host_log() -> Iterator[LogLines]:
    """The host's log lines (logger ``spit.net``) during the test."""
    handler = LogLines()
    logger = logging.getLogger("spit.net")
    logger.addHandler(handler)
    old = logger.level
    logger.setLevel(logging.INFO)
    yield handler
    logger.removeHandler(handler)
    logger.setLevel(old)
