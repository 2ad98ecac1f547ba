"""What every strategy does outside play: call at once, slap or choose a pile."""

from __future__ import annotations

import random
from typing import Any

from spit.bots.style import Style
from spit.engine.actions import Action, Kind, choose, slap


def opening_or_end_action(
    obs: Any, legal: tuple[Action, ...], style: Style, rng: random.Random
) -> Action | None:
    """Call "spit!" (or "ready") when it is due; slap or choose the smaller pile (R16, V2).

    With probability ``style.wrong_slap`` the larger pile is taken instead.
    On equal piles the bot's own pile is the "smaller" one.
    """
    kinds = {a.kind for a in legal}
    if Kind.CALL in kinds:
        return next(a for a in legal if a.kind is Kind.CALL)
    if Kind.SLAP in kinds or Kind.CHOOSE in kinds:
        me = obs.player
        sizes = [p.size for p in obs.piles]
        smaller = me if sizes[me] <= sizes[1 - me] else 1 - me
        pile = smaller
        if style.wrong_slap and rng.random() < style.wrong_slap:
            pile = 1 - smaller
        return slap(me, pile) if Kind.SLAP in kinds else choose(me, pile)
    return None
