"""A lean scheduler for bot-versus-bot games: the arbiter's order, without its people.

``spit sim`` and ``spit tournament`` play hundreds of thousands of games
between bots. The ``Arbiter`` serves people too (late inputs, pauses, the
outcomes and events a screen shows), and builds an observation for each bot
at each position. This scheduler plays the same games with the same engine
(``Game.step``, which builds no events), the same input queue and tie rule
(``realtime.order.InputQueue``) and the same timers (``realtime.timers.Timers``:
which timer runs, from when, and what it does), and none of the rest. It has
no clock: it jumps from one thing due to the next.

What it shares with the arbiter is therefore everything that decides a
game: the rules (the engine), the order of inputs and exact ties, inputs
before timers at one instant, what a timer does and when. What it has of its
own is the agents' side of ``Arbiter._plan_agents`` (a bot sees each new
position once, never while its own action waits in the queue, and a watchful
one is shown positions while its action is on the way), and how a Spit bot
sees a position: not through an observation built for it, but through the
game's visible state kept up to date as cards move (``SpitGame.tops``,
``down``, ``known``, ``pile_tops``), which is exactly what an observation
holds. ``tests/bots/test_schedule.py`` plays many games both ways and requires
the same timed action log, result and final state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from spit.bots.bot import Bot
from spit.bots.common import call_slap_or_choose
from spit.bots.spit_strategy import SpitStrategy
from spit.engine import Action, AnyGame, Kind, Phase
from spit.engine.spit_game import SpitGame
from spit.realtime.arbiter import LogEntry
from spit.realtime.order import Input, InputQueue
from spit.realtime.timers import Timers, Timing

_INF = float("inf")
_PLAYING = Phase.PLAY
_PLAY, _MOVE = Kind.PLAY, Kind.MOVE


class Stuck(RuntimeError):
    """The game has nothing left to happen, or did not end within its steps (a bug)."""


class _Seat:
    """One bot as the scheduler asks it: plan from the current position, keep a plan."""

    def __init__(self, game: AnyGame, bot: Bot) -> None:
        self.game = game
        self.bot = bot
        self.player = bot.player
        self.skips = bot.skips_when_stuck

    @property
    def watchful(self) -> bool:
        """Whether the bot is shown new positions while its action is on the way."""
        return self.bot.watchful

    def plan(self, now: float) -> tuple[float, Action] | None:
        """What the bot does from this position, as ``Agent.plan`` on its observation."""
        return self.bot.plan(self.game.observation(self.player), now)

    def keeps(self, action: Action) -> bool:
        """Whether a watchful bot keeps its planned ``action`` in this new position."""
        return self.bot.keeps(self.game.observation(self.player), action)


class _SpitSeat(_Seat):
    """A Spit bot without memory, seeing the game's visible state instead of an
    observation built for it: the same facts, so the same decisions.

    Its ``Search`` is built once on the game's own lists (its stock tops and
    face-down counts, the pile tops), which the game keeps up to date in place;
    the search changes them only while it looks ahead, and puts them back.
    """

    def __init__(self, game: SpitGame, bot: Bot, strategy: SpitStrategy) -> None:
        super().__init__(game, bot)
        p = self.player
        self.spit = game
        self.strategy = strategy
        self.style = strategy.style
        self.anticipates = bot.anticipates
        self._watchful = bot.watchful  # (a style's, fixed for the game)
        self.search = strategy.search_for(
            game.config.alternating_colours, game.tops[p], game.down[p], game.pile_tops, []
        )

    def plan(self, now: float) -> tuple[float, Action] | None:
        # ``StyledStrategy.choose`` and ``Bot.plan`` on the live position.
        game = self.spit
        p = self.player
        legal = game.legal_actions(p)
        if not legal:
            return None
        bot = self.bot
        if game.phase is _PLAYING:
            search = self.search
            known = game.known
            search.update(known[p], known[1 - p])
            strategy = self.strategy
            action = strategy.choose_in_play(search, legal, bot.rng)
            planned = strategy.follow_up_in(search, action) if self.anticipates else None
            return bot.delay_for(action, planned), action
        piles = game.piles
        choice = call_slap_or_choose(
            p, legal, self.style, bot.rng, lambda: (len(piles[0]), len(piles[1]))
        )
        if choice is None:
            return None
        return bot.delay_for(choice), choice

    @property
    def watchful(self) -> bool:
        return self._watchful

    def keeps(self, action: Action) -> bool:
        # ``Bot.keeps``: still legal (the strategy remembers nothing).
        return action in self.spit.legal_actions(self.player)


def _seat(game: AnyGame, bot: Bot) -> _Seat:
    strategy = bot.strategy
    if isinstance(game, SpitGame) and isinstance(strategy, SpitStrategy) and bot.skips_when_stuck:
        return _SpitSeat(game, bot, strategy)
    return _Seat(game, bot)


@dataclass(slots=True)
class Scheduled:
    """How a finished game was played, for an ``on_finish`` hook: the timed log
    (``LogEntry`` pairs, as ``Arbiter.log``) and the clock's start."""

    log: list[LogEntry]
    timing: Timing
    start_time: float = 0.0


class Scheduler:
    """Plays one game between two bots to its end (``run``), on game time from 0.

    ``game`` is freshly dealt or in any position; ``bots`` are the two seats'
    ``Bot``s, player 0's first. Afterwards ``log`` holds every applied action
    as ``(time, action)``, ``moves`` counts plays and R10 moves, and ``now``
    is the game's length in seconds.
    """

    def __init__(self, game: AnyGame, bots: Sequence[Bot], timing: Timing | None = None) -> None:
        if len(bots) != 2 or [b.player for b in bots] != [0, 1]:
            raise ValueError("the scheduler needs a bot for player 0 and one for player 1")
        self.game = game
        self.timing = timing or Timing()
        self.timers = Timers(self.timing, 0.0, game)
        self.queue = InputQueue()
        self.seats = (_seat(game, bots[0]), _seat(game, bots[1]))
        self.now = 0.0
        self.moves = 0
        self.log: list[tuple[float, Action]] = []
        self._version = 0
        #: per player: the position it last planned from, its plan's time and action,
        #: and its released action while it waits in the queue
        self._planned = [-1, -1]
        self._plan_time = [_INF, _INF]
        self._plan_action: list[Action | None] = [None, None]
        self._in_flight: list[Input | None] = [None, None]

    def run(self, max_steps: int = 5_000_000) -> None:
        """Play to the end, as ``Arbiter._settle`` would over the whole game.

        Each step takes the earliest thing due: a timer that runs out before
        every waiting input and plan, else the next input (plans due by then
        are released into the queue first, player 0's first).
        """
        game = self.game
        queue = self.queue
        timers = self.timers
        plan_time = self._plan_time
        steps = 0
        self._plan_agents(0.0)
        while not game.over:
            t0, t1 = plan_time
            first = t1 if t1 < t0 else t0
            if len(queue):
                head = queue.head_time()
                if head is not None and head < first:
                    first = head
            due = timers.due()
            if due is not None and due[0] < first:  # at one instant inputs go first
                at = due[0]
                if at > self.now:
                    self.now = at
                version = self._version
                for action in timers.actions(due[1]):
                    self._apply(at, action)
                if version == self._version:
                    timers.spend()
                self._plan_agents(at)
            elif first == _INF:
                raise Stuck(f"the game is stuck in phase {game.phase}")
            else:
                if first > self.now:
                    self.now = first
                for p in (0, 1):
                    if plan_time[p] <= first:
                        action = self._plan_action[p]
                        assert action is not None
                        self._in_flight[p] = queue.add(action, plan_time[p])
                        plan_time[p] = _INF
                        self._plan_action[p] = None
                item = queue.pop()
                p = item.action.player
                if self._in_flight[p] is item:
                    self._in_flight[p] = None
                if self._apply(item.time, item.action):
                    queue.accepted(item)
                self._plan_agents(item.time)
            steps += 1
            if steps > max_steps:
                raise Stuck(f"the game did not end within {max_steps} steps")

    def _apply(self, at: float, action: Action) -> bool:
        if not self.game.step(action):
            p = action[1]
            if p == 0 or p == 1:
                self._planned[p] = -1  # refused (R11): its player plans again
            return False
        self.log.append((at, action))
        self._version += 1
        self.timers.saw(at)
        kind = action[0]
        if kind is _PLAY or kind is _MOVE:
            self.moves += 1
        return True

    def _plan_agents(self, now: float) -> None:
        """Each bot that has not seen this position plans from it (``Arbiter._plan_agents``)."""
        version = self._version
        planned = self._planned
        game = self.game
        for seat in self.seats:
            p = seat.player
            if self._in_flight[p] is not None or planned[p] == version:
                continue
            pending = self._plan_action[p]
            if pending is not None and not seat.watchful:
                continue  # committed to its plan until the action lands or is refused
            planned[p] = version
            if game.over:
                continue
            if seat.skips and not game.has_legal_action(p):
                self._plan_action[p] = None  # a watchful bot's plan would not be kept
                self._plan_time[p] = _INF
                continue
            if pending is not None:
                if seat.keeps(pending):
                    continue
                self._plan_action[p] = None
                self._plan_time[p] = _INF
            plan = seat.plan(now)
            if plan is not None:
                delay, action = plan
                self._plan_time[p] = now + (delay if delay > 0.0 else 0.0)
                self._plan_action[p] = action

    def finished(self) -> Scheduled:
        """The game's log as ``LogEntry`` pairs, for an ``on_finish`` hook."""
        return Scheduled([LogEntry(t, a) for t, a in self.log], self.timing)


__all__ = ["Scheduled", "Scheduler", "Stuck"]
