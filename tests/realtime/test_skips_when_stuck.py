"""An agent with ``skips_when_stuck`` is not shown positions in which it cannot act,
and the game goes exactly as it would if it were shown them."""

from __future__ import annotations

import random
from typing import Any

from spit.engine import Action, Phase, SpitConfig, SpitGame
from spit.realtime.arbiter import Arbiter
from spit.realtime.clock import ManualClock


class Picker:
    """Plays a random legal action after a random delay; counts what it is shown."""

    def __init__(self, seed: int, skips: bool) -> None:
        self.rng = random.Random(seed)
        self.skips_when_stuck = skips
        self.stuck_views = 0

    def plan(self, observation: Any, now: float) -> tuple[float, Action] | None:
        if not observation.legal:
            self.stuck_views += 1
            return None
        return self.rng.uniform(0.1, 1.5), self.rng.choice(observation.legal)


def _play(seed: int, skips: bool) -> tuple[tuple, list, int]:
    game = SpitGame(SpitConfig(round_limit=6), seed)
    agents = {p: Picker(seed * 2 + p, skips) for p in (0, 1)}
    clock = ManualClock(0.0)
    arbiter = Arbiter(game, clock=clock, agents=agents)  # type: ignore[arg-type]
    for _ in range(200_000):
        if game.phase is Phase.GAME_OVER:
            break
        deadline = arbiter.next_deadline()
        assert deadline is not None
        clock.now = max(clock.now, deadline)
        arbiter.tick(clock.now)
    assert game.phase is Phase.GAME_OVER
    return game.state_key(), list(arbiter.log), sum(a.stuck_views for a in agents.values())


def test_stuck_positions_are_skipped_without_changing_the_game() -> None:
    for seed in range(4):
        key, log, stuck = _play(seed, skips=False)
        skipped_key, skipped_log, skipped_stuck = _play(seed, skips=True)
        assert stuck > 0  # the positions exist...
        assert skipped_stuck == 0  # ...and a skipping agent never sees them
        assert (skipped_key, skipped_log) == (key, log)
