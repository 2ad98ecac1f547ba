"""Games, replays and results are the player's own: files 0600 in folders 0700
(issue 19, defect 8: a save holds the seed, which rebuilds the opponent's hand)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.store.conftest import random_playout

from spit.store.paths import data_dir, database_path, replay_dir, saved_dir
from spit.store.records import save_finished_game
from spit.store.replays import PlayerInfo, new_meta, save_replay
from spit.store.resume import GameKeeper
from spit.store.settings import Settings, save_settings


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(autouse=True)
def usual_umask() -> Iterator[None]:
    """The usual umask, under which a plain open() makes 0644 files."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_a_saved_game_in_progress_is_private() -> None:
    game, times = random_playout(seed=4, max_actions=30)
    keeper = GameKeeper(new_meta([PlayerInfo("Ann"), PlayerInfo("Bob")]))
    assert keeper.save(game, times) is None
    assert keeper.path is not None and keeper.path.parent == saved_dir()
    assert mode(keeper.path) == 0o600
    assert mode(saved_dir()) == 0o700 and mode(data_dir()) == 0o700


def test_replays_and_the_results_database_are_private() -> None:
    game, times = random_playout(seed=5)
    status = save_finished_game(game, times, new_meta([PlayerInfo("Ann"), PlayerInfo("Bob")]))
    assert status.saved, status.message
    (replay,) = replay_dir().glob("*.json")
    assert mode(replay) == 0o600 and mode(replay_dir()) == 0o700
    assert mode(database_path()) == 0o600


def test_files_and_folders_of_older_versions_are_tightened() -> None:
    game, times = random_playout(seed=6)
    folder = replay_dir()
    folder.mkdir(parents=True)
    os.chmod(data_dir(), 0o755)
    os.chmod(folder, 0o755)
    database = database_path()
    database.touch(mode=0o644)
    os.chmod(database, 0o644)
    path = save_replay(game, times, new_meta([PlayerInfo("Ann"), PlayerInfo("Bob")]))
    assert mode(path) == 0o600 and mode(folder) == 0o700 and mode(data_dir()) == 0o700
    assert save_finished_game(game, times, new_meta([PlayerInfo("A"), PlayerInfo("B")])).saved
    assert mode(database) == 0o600


def test_the_settings_file_keeps_its_own_mode(isolated_dirs: Path) -> None:
    """Not a game file: a config the user made readable stays so."""
    save_settings(Settings())
    config = isolated_dirs / "config" / "config.toml"
    os.chmod(config, 0o644)
    save_settings(Settings())
    assert mode(config) == 0o644


def test_a_shared_folder_named_as_the_data_folder_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SPIT_DATA_DIR=/tmp (sticky, everyone's): spit's own files are private, the
    folder keeps its mode."""
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o1777)
    monkeypatch.setenv("SPIT_DATA_DIR", str(shared))
    game, times = random_playout(seed=4, max_actions=30)
    keeper = GameKeeper(new_meta([PlayerInfo("Ann"), PlayerInfo("Bob")]))
    assert keeper.save(game, times) is None
    assert keeper.path is not None and mode(keeper.path) == 0o600
    assert mode(saved_dir()) == 0o700
    assert mode(shared) == 0o1777
