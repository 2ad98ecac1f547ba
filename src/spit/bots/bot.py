"""A computer player: a strategy (what to do) plus a reaction time (when)."""

from __future__ import annotations

import random
from typing import Any, Protocol

from spit.bots.reaction import Reaction
from spit.engine.actions import Action


class Strategy(Protocol):
    """Chooses an action from an observation alone."""

    @property
    def name(self) -> str:
        """The strategy's name (its level)."""

    @property
    def anticipation(self) -> float:
        """The delay factor for an action planned one move ahead (1: none)."""

    @property
    def watchful(self) -> bool:
        """True if a planned play is dropped as soon as the piles make it illegal."""

    @property
    def forgetful(self) -> bool:
        """True if ``observe`` keeps nothing (the strategy has no memory)."""

    def observe(self, obs: Any) -> None:
        """Take in an observation without acting on it (memory; seeing it twice is harmless)."""

    def choose(self, obs: Any, rng: random.Random) -> Action | None:
        """The action to take now (after observing ``obs``), or None to wait for a change."""

    def follow_up(self, obs: Any, action: Action) -> Action | None:
        """The own action this strategy would make next if ``action`` lands as planned."""


class Bot:
    """An arbiter agent that plays for ``player``.

    It sees only the observation the arbiter hands it (no face-down card, no
    spit order, no seed) and answers with an action after a reaction delay.
    All its randomness (delays, tie-breaks) comes from its own
    ``random.Random(seed)``, so the game's dealing is never touched.
    """

    def __init__(self, player: int, strategy: Strategy, reaction: Reaction, seed: int = 0) -> None:
        if player not in (0, 1):
            raise ValueError(f"a bot plays for player 0 or 1, not {player!r}")
        self.player = player
        self.strategy = strategy
        self.reaction = reaction
        self.rng = random.Random(seed)
        self._expected: Action | None = None
        #: the strategy's delay factor for a planned-ahead action (fixed per game)
        self._anticipation = strategy.anticipation

    def plan(self, observation: Any, now: float) -> tuple[float, Action] | None:
        """(delay in seconds, action) to make, or None to wait for a change."""
        if observation.player != self.player:
            raise ValueError("a bot may only see its own player's observation")
        action = self.strategy.choose(observation, self.rng)
        if action is None:
            return None
        planned = None
        if self._anticipation < 1:
            planned = self.strategy.follow_up(observation, action)
        return self.delay_for(action, planned), action

    def delay_for(self, action: Action, planned: Action | None = None) -> float:
        """Draw the reaction delay before ``action``; ``planned`` is the action this
        bot plans to make next, if ``action`` lands (None: nothing planned ahead).

        The delay is shorter (times the strategy's anticipation) if ``action``
        is the one planned ahead with the last action.
        """
        delay = self.reaction.delay(action[0], self.rng)  # (its kind)
        if action == self._expected:
            delay *= self._anticipation  # planned ahead: no search needed
        self._expected = planned
        return delay

    @property
    def anticipates(self) -> bool:
        """True if this bot plans its next action while choosing one (anticipation below 1)."""
        return self._anticipation < 1

    @property
    def skips_when_stuck(self) -> bool:
        """True if a position without a legal action changes nothing for this bot.

        ``plan`` then returns None without drawing from its generator, and a
        forgetful strategy keeps nothing, so the arbiter need not show it one.
        """
        return self.strategy.forgetful

    @property
    def watchful(self) -> bool:
        """True if this bot watches the piles while its action is on the way."""
        return self.strategy.watchful

    def keeps(self, observation: Any, action: Action) -> bool:
        """Still make the planned ``action`` in this new position? (Only if legal.)

        The bot has seen the new position, so its strategy remembers it too.
        """
        if observation.player != self.player:
            raise ValueError("a bot may only see its own player's observation")
        self.strategy.observe(observation)
        return action in observation.legal

    def __repr__(self) -> str:
        return f"Bot(player={self.player}, strategy={self.strategy.name!r})"
