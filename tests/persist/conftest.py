"""Every persistence test runs with its own config file and data directory."""

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def isolated_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point SPIT_CONFIG and SPIT_DATA_DIR into tmp_path (never the real user's dirs)."""
    monkeypatch.setenv("SPIT_CONFIG", str(tmp_path / "config" / "config.toml"))
    monkeypatch.setenv("SPIT_DATA_DIR", str(tmp_path / "data"))
    return tmp_path
