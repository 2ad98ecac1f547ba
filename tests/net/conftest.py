"""Network tests: loopback only, ephemeral ports, every test bounded in time.

``tests.support.net`` has the shared pieces: a host on 127.0.0.1 port 0, bot
guests with a very fast reaction time, a recorder of every message a guest
receives, and positions where both players race for the same pile.
"""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def isolated_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """SPIT_CONFIG and SPIT_DATA_DIR in tmp_path: host keys, records and replays land there."""
    monkeypatch.setenv("SPIT_CONFIG", str(tmp_path / "config" / "config.toml"))
    monkeypatch.setenv("SPIT_DATA_DIR", str(tmp_path / "data"))
    return tmp_path
