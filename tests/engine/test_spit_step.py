"""``SpitGame.step`` recognises plays, moves and spit calls itself, for speed; here it
must give exactly the verdict of ``check`` (the one statement of why an action is
refused) on every action, in positions from whole random games, and carry out a
legal one exactly as ``apply`` does."""

from __future__ import annotations

import random

import pytest
from tests.engine.helpers import ALL_ACTIONS

from spit.engine import SYSTEM, Action, Kind, SpitConfig, SpitGame
from spit.engine.errors import IllegalAction

#: actions no list of legal ones holds: places off the layout, piles and players
#: that do not exist, a kind given as a plain int
ODD_ACTIONS: tuple[Action, ...] = (
    Action(Kind.PLAY, 0, -1, 0),
    Action(Kind.PLAY, 1, 5, 1),
    Action(Kind.PLAY, 0, 0, -1),
    Action(Kind.PLAY, 1, 0, 2),
    Action(Kind.PLAY, SYSTEM, 0, 0),
    Action(Kind.PLAY, -1, 0, 0),
    Action(Kind.MOVE, 0, -1, 0),
    Action(Kind.MOVE, 1, 5, 0),
    Action(Kind.MOVE, 1, 4, 0),
    Action(Kind.MOVE, SYSTEM, 0, 0),
    Action(Kind.MOVE, -1, 1, 0),
    Action(Kind.CALL, SYSTEM, 0, 0),
    Action(Kind.CALL, -1, 0, 0),
    Action(Kind.SLAP, 0, 0, 2),
    Action(Kind.CLOSE, 0, 0, 0),
    Action(Kind.STALL, 1, 0, 0),
    Action(0, 0, 0, 0),  # type: ignore[arg-type]
    Action(1, 0, 0, 0),  # type: ignore[arg-type]
    Action(2, 0, 0, 0),  # type: ignore[arg-type]
)


def verdict(game: SpitGame, action: Action) -> bool:
    """``check``'s verdict: True if ``action`` is legal now."""
    try:
        game.check(action)
    except IllegalAction:
        return False
    return True


@pytest.mark.parametrize(
    "config",
    [
        SpitConfig(),
        SpitConfig(four_stocks=True, alternating_colours=True),
        SpitConfig(choose_pile=True),
    ],
    ids=["R7-R20", "V1-V3", "V2"],
)
def test_R7_R10_R13_step_agrees_with_check_on_every_action(config: SpitConfig) -> None:
    rng = random.Random(7)
    positions = 0
    for seed in range(3):
        game = SpitGame(config, seed)
        while not game.over and len(game.actions) < 400:
            for action in (*ALL_ACTIONS, *ODD_ACTIONS):
                legal = verdict(game, action)
                quiet = game.copy()
                before = quiet.fingerprint()
                assert quiet.step(action) is legal, (game.phase, action)
                if not legal:
                    assert quiet.fingerprint() == before, action
                    continue
                loud = game.copy()
                events = loud.apply(action)
                assert quiet.fingerprint() == loud.fingerprint(), action
                assert quiet.actions == loud.actions == [*game.actions, action]
                assert (quiet.phase_count, quiet.progress_count) == (
                    loud.phase_count,
                    loud.progress_count,
                )
                assert events, action
            positions += 1
            actions = game.legal_actions(0) + game.legal_actions(1) or game.legal_actions(SYSTEM)
            game.apply(actions[rng.randrange(len(actions))])
    assert positions > 400
