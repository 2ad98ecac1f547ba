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
from operator import itemgetter

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
_OVER = Phase.GAME_OVER
_PLAY, _MOVE = Kind.PLAY, Kind.MOVE
#: an action's kind (its first field)
_kind_of = itemgetter(0)


class Stuck(RuntimeError):
    """The game has nothing left to happen, or did not end within its steps (a bug)."""


class _Seat:
    """One bot as the scheduler shows it positions, as ``Arbiter._plan_agents`` does.

    ``consider`` writes the bot's plan into the scheduler's ``plan_time`` and
    ``plan_action`` lists (the seat's own entries).
    """

    def __init__(
        self,
        game: AnyGame,
        bot: Bot,
        plan_time: list[float],
        plan_action: list[Action | None],
    ) -> None:
        self.game = game
        self.bot = bot
        self.player = bot.player
        self.skips = bot.skips_when_stuck
        #: shown new positions while its action is on the way (a style's: fixed)
        self.watchful = bot.watchful
        self.plan_time = plan_time
        self.plan_action = plan_action

    def consider(self, now: float, pending: Action | None) -> None:
        """The bot sees the new position at ``now``: it keeps its ``pending``
        action (a watchful bot), or plans afresh, or waits for a change."""
        game = self.game
        p = self.player
        if self.skips and not game.has_legal_action(p):
            self._drop()  # nothing it can do: a watchful bot's plan would not be kept
            return
        observation = game.observation(p)
        if pending is not None and self.bot.keeps(observation, pending):
            return
        self._set(now, self.bot.plan(observation, now))

    def _drop(self) -> None:
        self.plan_action[self.player] = None
        self.plan_time[self.player] = _INF

    def _set(self, now: float, plan: tuple[float, Action] | None) -> None:
        if plan is None:
            self._drop()
            return
        delay, action = plan
        self.plan_time[self.player] = now + (delay if delay > 0.0 else 0.0)  # never before now
        self.plan_action[self.player] = action


class _SpitSeat(_Seat):
    """A Spit bot without memory, seeing the game's visible state instead of an
    observation built for it: the same facts, so the same decisions.

    Its ``Search`` is built once on the game's own lists (its stock tops and
    face-down counts, the pile tops), which the game keeps up to date in place;
    the search changes them only while it looks ahead, and puts them back.
    """

    def __init__(
        self,
        game: SpitGame,
        bot: Bot,
        strategy: SpitStrategy,
        plan_time: list[float],
        plan_action: list[Action | None],
    ) -> None:
        super().__init__(game, bot, plan_time, plan_action)
        p = self.player
        self.spit = game
        self.strategy = strategy
        self.style = strategy.style
        self.anticipates = bot.anticipates
        self.search = strategy.search_for(
            game.config.alternating_colours, game.tops[p], game.down[p], game.pile_tops, []
        )

    def consider(self, now: float, pending: Action | None) -> None:
        # ``_Seat.consider`` with ``Bot.keeps`` and ``Bot.plan`` on the live position:
        # the player's legal actions are all the bot reads of an observation here.
        game = self.spit
        p = self.player
        legal = game.legal_actions(p)
        if not legal:
            self.plan_action[p] = None
            self.plan_time[p] = _INF
            return
        if pending is not None and pending in legal:
            return  # ``Bot.keeps``: still legal
        bot = self.bot
        if game.phase is _PLAYING:  # ``StyledStrategy.choose``, then ``Bot.plan``
            search = self.search
            known = game.known
            search.known = known[p]  # (``Search.update``)
            search.opponent_mask = known[1 - p]
            action = self.strategy.choose_in_play(search, legal, bot.rng)
            # ``SpitStrategy.follow_up_in``: the best own action after this one
            planned = search.best_after(action) if self.anticipates else None
            delay = bot.delay_for(action, planned)
            self.plan_time[p] = now + (delay if delay > 0.0 else 0.0)
            self.plan_action[p] = action
            return
        piles = game.piles
        choice = call_slap_or_choose(
            p, legal, self.style, bot.rng, lambda: (len(piles[0]), len(piles[1]))
        )
        self._set(now, None if choice is None else (bot.delay_for(choice), choice))


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
        self.now = 0.0
        #: the game's actions before the scheduler started (its log is the rest)
        self._before = len(game.actions)
        #: when each applied action was applied, in order (``game.actions`` has them)
        self._times: list[float] = []
        #: per player: the position it last planned from (the number of actions
        #: applied), its plan's time and action, and its released action while it
        #: waits in the queue
        self._planned = [-1, -1]
        self._plan_time = [_INF, _INF]
        self._plan_action: list[Action | None] = [None, None]
        self._in_flight: list[Input | None] = [None, None]
        self.seats = tuple(self._seat(bot) for bot in bots)

    def _seat(self, bot: Bot) -> _Seat:
        game, strategy = self.game, bot.strategy
        if (
            isinstance(game, SpitGame)
            and isinstance(strategy, SpitStrategy)
            and bot.skips_when_stuck
        ):
            return _SpitSeat(game, bot, strategy, self._plan_time, self._plan_action)
        return _Seat(game, bot, self._plan_time, self._plan_action)

    @property
    def log(self) -> list[tuple[float, Action]]:
        """Every action applied, with its time, in order."""
        return list(zip(self._times, self.game.actions[self._before :], strict=True))

    @property
    def moves(self) -> int:
        """Plays and R10 moves applied."""
        kinds = list(map(_kind_of, self.game.actions[self._before :]))
        return kinds.count(_PLAY) + kinds.count(_MOVE)

    def run(self, max_steps: int = 5_000_000) -> None:
        """Play to the end, as ``Arbiter._settle`` would over the whole game.

        Each step takes the earliest thing due: a timer that runs out before
        every waiting input and plan, else the next input (plans due by then
        are released into the queue first, player 0's first); then each bot
        that has not seen the new position plans from it, at that time.
        """
        game = self.game
        actions = game.actions
        step = game.step
        queue = self.queue
        timers = self.timers
        saw = timers.saw
        times = self._times
        planned = self._planned
        plan_time = self._plan_time
        plan_action = self._plan_action
        in_flight = self._in_flight
        seats = self.seats
        watchful = [seat.watchful for seat in seats]
        now = self.now
        over = _OVER
        steps = 0
        waiting = 0  # inputs in the queue
        head: float | None = None
        at = 0.0  # when the position last changed (or an input was refused)
        while True:
            # Each bot that has not seen this position plans from it
            # (``Arbiter._plan_agents``): never while its own action waits in
            # the queue, and a bot committed to its plan only if watchful.
            if game.phase is over:
                self.now = now
                return
            version = len(actions)  # the position: it changes with every applied action
            for p in (0, 1):
                if in_flight[p] is not None or planned[p] == version:
                    continue
                pending = plan_action[p]
                if pending is not None and not watchful[p]:
                    continue  # committed to its plan until the action lands or is refused
                planned[p] = version
                seats[p].consider(at, pending)
            steps += 1
            if steps > max_steps:
                self.now = now
                raise Stuck(f"the game did not end within {max_steps} steps")
            # The next thing due.
            t0, t1 = plan_time
            first = t1 if t1 < t0 else t0
            if waiting:
                head = queue.head_time()
                if head is not None and head < first:
                    first = head
            else:
                head = None
            due = timers.running
            if due is not None and due[0] < first:  # at one instant inputs go first
                at = due[0]
                if at > now:
                    now = at
                done = len(actions)
                for made in timers.actions(due[1]):
                    self._apply(at, made)
                if done == len(actions):
                    timers.spend()
            elif first == _INF:
                self.now = now
                raise Stuck(f"the game is stuck in phase {game.phase}")
            elif head is None and t0 != t1:
                # One input is due and none waits: it would wait in the queue
                # alone, and leave it at once (``InputQueue.alone``).
                at = first
                if at > now:
                    now = at
                p = 0 if t0 < t1 else 1
                lone = plan_action[p]
                assert lone is not None
                plan_time[p] = _INF
                plan_action[p] = None
                if step(lone):  # ``_apply``, inlined for the commonest case
                    times.append(at)
                    saw(at)
                    queue.alone(at, p, True)
                else:
                    planned[p] = -1  # refused (R11): its player plans again
                    queue.alone(at, p, False)
            else:
                if first > now:
                    now = first
                for p in (0, 1):  # the plans due go into the queue, player 0's first
                    if plan_time[p] <= first:
                        due_action = plan_action[p]
                        assert due_action is not None
                        in_flight[p] = queue.add(due_action, plan_time[p])
                        waiting += 1
                        plan_time[p] = _INF
                        plan_action[p] = None
                item = queue.pop()
                waiting -= 1
                p = item.action.player
                if in_flight[p] is item:
                    in_flight[p] = None
                at = item.time
                if self._apply(at, item.action):
                    queue.accepted(item)

    def _apply(self, at: float, action: Action) -> bool:
        """Apply ``action`` at ``at`` if the engine takes it (``Arbiter._apply``)."""
        if not self.game.step(action):
            p = action[1]
            if p == 0 or p == 1:
                self._planned[p] = -1  # refused (R11): its player plans again
            return False
        self._times.append(at)
        self.timers.saw(at)
        return True

    def finished(self) -> Scheduled:
        """The game's log as ``LogEntry`` pairs, for an ``on_finish`` hook."""
        return Scheduled([LogEntry(t, a) for t, a in self.log], self.timing)


__all__ = ["Scheduled", "Scheduler", "Stuck"]
