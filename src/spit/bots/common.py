"""What every strategy shares: the style, calling at once, slapping or choosing
a pile, random play, and picking the best-scored play."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from spit.bots.style import Style
from spit.engine.actions import Action, Kind, choose, slap
from spit.engine.base import Phase


class StyledStrategy:
    """A strategy that plays in the manner of a ``Style``; modes add ``_best_play``."""

    def __init__(self, style: Style) -> None:
        self.style = style

    @property
    def name(self) -> str:
        """The style's name."""
        return self.style.name

    @property
    def anticipation(self) -> float:
        """The delay factor for a play planned one move ahead."""
        return self.style.anticipation

    @property
    def watchful(self) -> bool:
        """Whether a planned play is dropped as soon as the piles make it illegal."""
        return self.style.watchful

    #: False for a strategy that remembers what it is shown (``observe`` does something)
    forgetful: bool = True

    def observe(self, obs: Any) -> None:
        """Take in an observation the bot was shown (a strategy with memory keeps it)."""

    def choose(self, obs: Any, rng: random.Random) -> Action | None:
        """The action to take now, or None to wait for the position to change."""
        self.observe(obs)
        legal: tuple[Action, ...] = obs.legal
        if not legal:
            return None
        if obs.phase is not Phase.PLAY:
            return opening_or_end_action(obs, legal, self.style, rng)
        if self.style.random_play:
            return rng.choice(legal)
        return self._best_play(obs, legal, rng)

    def _best_play(self, obs: Any, legal: tuple[Action, ...], rng: random.Random) -> Action:
        """The best of the ``legal`` plays (and moves) in ``obs``."""
        raise NotImplementedError


_CALL, _SLAP, _CHOOSE = Kind.CALL, Kind.SLAP, Kind.CHOOSE

#: Scores closer than this are equal (``pick_best``).
TIE = 1e-9


def pick_best(scored: Iterable[tuple[float, Action]], rng: random.Random) -> Action:
    """The action with the highest score; equal scores are broken by ``rng``.

    Scores within ``TIE`` of each other are equal; ``rng.choice`` picks among
    them in the order they came (the legal actions' order).
    """
    best: list[Action] = []
    best_score = float("-inf")
    for score, action in scored:
        if score > best_score + TIE:
            best_score = score
            best = [action]
        elif score > best_score - TIE:
            best.append(action)
    return best[0] if len(best) == 1 else rng.choice(best)


def opening_or_end_action(
    obs: Any, legal: Sequence[Action], style: Style, rng: random.Random
) -> Action | None:
    """Call "spit!" (or "ready") when it is due; slap or choose the smaller pile (R16, V2).

    With probability ``style.wrong_slap`` the larger pile is taken instead.
    On equal piles the bot's own pile is the "smaller" one.
    """
    return call_slap_or_choose(obs.player, legal, style, rng, lambda: [p.size for p in obs.piles])


def call_slap_or_choose(
    me: int,
    legal: Sequence[Action],
    style: Style,
    rng: random.Random,
    pile_sizes: Callable[[], Sequence[int]],
) -> Action | None:
    """``opening_or_end_action`` for player ``me``, given the ``legal`` actions and a
    way to count the spit piles' cards (asked only when a pile is to be taken).

    The one place this decision is made: the observation-based strategies and
    the simulator's scheduler (``schedule``) both call it.
    """
    slapping = choosing = False
    for a in legal:
        kind = a[0]
        if kind is _CALL:
            return a
        slapping = slapping or kind is _SLAP
        choosing = choosing or kind is _CHOOSE
    if slapping or choosing:
        sizes = pile_sizes()
        smaller = me if sizes[me] <= sizes[1 - me] else 1 - me
        pile = smaller
        if style.wrong_slap and rng.random() < style.wrong_slap:
            pile = 1 - smaller
        return slap(me, pile) if slapping else choose(me, pile)
    return None
