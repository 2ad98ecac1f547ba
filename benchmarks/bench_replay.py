"""How fast a replay file is checked: actions verified per second by ``load_replay``.

Plays a few long random Spit games, saves their replays to a temporary folder,
then loads (parses, checks and replays) each one several times. Prints the
figure on its last line.
"""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path

from spit.engine import SYSTEM, SpitConfig, SpitGame
from spit.store.replays import PlayerInfo, load_replay, new_meta, save_replay


def playout(seed: int) -> tuple[SpitGame, list[float]]:
    game = SpitGame(SpitConfig(scoring=True, target_score=200), seed=seed)
    rng = random.Random(seed)
    times: list[float] = []
    while not game.over:
        legal = game.legal_actions(0) + game.legal_actions(1) + game.legal_actions(SYSTEM)
        game.apply(rng.choice(legal))
        times.append(0.3 * len(times))
    return game, times


def main() -> None:
    meta = new_meta((PlayerInfo("Ann"), PlayerInfo("Bob")))
    with tempfile.TemporaryDirectory() as tmp:
        paths: list[Path] = []
        total_actions = 0
        for seed in range(5):
            game, times = playout(seed)
            paths.append(save_replay(game, times, meta, Path(tmp)))
            total_actions += len(game.actions)
        size = sum(p.stat().st_size for p in paths) / len(paths)
        rounds = 5
        start = time.perf_counter()
        for _ in range(rounds):
            for path in paths:
                load_replay(path)
        elapsed = time.perf_counter() - start
    print(
        f"{len(paths)} replays, {total_actions / len(paths):.0f} actions each, {size / 1000:.0f} KB"
    )
    print(f"replay verification: {rounds * total_actions / elapsed:,.0f} actions/s")


if __name__ == "__main__":
    main()
