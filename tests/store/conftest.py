"""Every persistence test runs with its own config file and data directory."""

import json
import random
from pathlib import Path

import pytest

from spit.engine import SYSTEM, SpitConfig, SpitGame
from spit.store.replays import PlayerInfo, new_meta, replay_data


@pytest.fixture(autouse=True)
def isolated_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point SPIT_CONFIG and SPIT_DATA_DIR into tmp_path (never the real user's dirs)."""
    monkeypatch.setenv("SPIT_CONFIG", str(tmp_path / "config" / "config.toml"))
    monkeypatch.setenv("SPIT_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


def random_playout(
    config: SpitConfig | None = None, seed: int = 1, max_actions: int = 20_000
) -> tuple[SpitGame, list[float]]:
    """A game played to its end (or ``max_actions``) by uniformly random legal actions.

    Returns the game and one time per action (0.25 s apart), as an arbiter log would.
    """
    game = SpitGame(config or SpitConfig(round_limit=30), seed=seed)
    rng = random.Random(seed)
    times: list[float] = []
    while not game.over and len(times) < max_actions:
        legal = game.legal_actions(0) + game.legal_actions(1) + game.legal_actions(SYSTEM)
        game.apply(rng.choice(legal))
        times.append(0.25 * len(times))
    return game, times


@pytest.fixture
def playout():
    """The ``random_playout`` helper, for tests that need finished games."""
    return random_playout


@pytest.fixture(scope="session")
def replay_text() -> str:
    """The JSON text of one finished game's replay (built in memory, no file)."""
    game, times = random_playout(SpitConfig(round_limit=30), seed=21)
    players = (PlayerInfo("Ann"), PlayerInfo("Bob"))
    return json.dumps(replay_data(game, times, new_meta(players)))
