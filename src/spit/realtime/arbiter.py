"""The real-time layer: orders timestamped inputs, runs the timers, drives agents.

No UI and no wall clock of its own: time comes from an injectable clock, so
tests and the simulator run whole games on a fake clock. Inputs are applied in
order of their timestamps (R11), exact ties by an alternating priority
(``order``); the timers apply H2, H3, H6 and Speed's P4 (``timers``); agents
(bots) plan an action after a delay and it then goes through the same queue as
a human's key. What happens depends only on the inputs, their stamps and the
pause and resume times, never on when or how often ``tick`` is called; the
full contract is docs/realtime.md.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from spit.engine import Action, AnyGame, Kind
from spit.engine.errors import EngineError
from spit.engine.events import Event
from spit.realtime.fumbles import FUMBLING, Fumble, FumbleJudge
from spit.realtime.order import Input, InputQueue
from spit.realtime.timers import Due, Timers, Timing

Clock = Callable[[], float]

#: the reason given for an input made while the game was paused
PAUSED = "the game is paused"


@dataclass(frozen=True, slots=True)
class Applied:
    """An action that the engine accepted at ``time``; ``auto`` if a timer made it.

    ``stamped`` is set only for a late input (one that arrived after the
    arbiter had run to its stamp): the time it was made; ``time`` is then the
    moment it arrived (the horizon), when it was applied.
    """

    time: float
    action: Action
    events: list[Event]
    auto: bool = False
    stamped: float | None = None


@dataclass(frozen=True, slots=True)
class Rejected:
    """An input that was refused (R11: a faster move made it illegal, or it never was).

    ``stamped`` as for ``Applied``: set only for a late input. ``fumble`` is
    the fumble time (H8) in seconds that this refusal started: 0 if it started
    none (a lost race, a call, a press during a fumble time: ``FUMBLING``).
    """

    time: float
    action: Action
    reason: str
    stamped: float | None = None
    fumble: float = 0.0


Outcome = Applied | Rejected


class LogEntry(tuple[float, Action]):
    """One applied action of ``Arbiter.log``: a ``(time, action)`` pair, as replays need it.

    ``stamped`` is the time a late input was made (None when it was applied at
    its own stamp, or was a timer's). Equality and unpacking see only the pair.
    """

    stamped: float | None

    def __new__(cls, time: float, action: Action, stamped: float | None = None) -> LogEntry:
        entry = super().__new__(cls, (time, action))
        entry.stamped = stamped
        return entry

    @property
    def time(self) -> float:
        """When the action was applied."""
        return self[0]

    @property
    def action(self) -> Action:
        """The action."""
        return self[1]

    def __repr__(self) -> str:
        late = "" if self.stamped is None else f", stamped={self.stamped!r}"
        return f"LogEntry({self[0]!r}, {self[1]!r}{late})"


class Agent(Protocol):
    """A computer player: sees only its observation, answers with a delayed action.

    An agent with ``skips_when_stuck = True`` promises that a position in
    which its player has no legal action changes nothing for it (its plan
    would be None, its ``keeps`` False, and it remembers nothing): the arbiter
    then does not build it an observation for such a position.
    """

    def plan(self, observation: Any, now: float) -> tuple[float, Action] | None:
        """Return (delay in seconds, action), or None to wait for the next change."""


@runtime_checkable
class WatchfulAgent(Agent, Protocol):
    """An agent that may watch the piles while its action is on the way.

    While ``watchful`` is true the arbiter shows it every new position during
    a planned action, and drops the plan when ``keeps`` says it no longer makes
    sense (the agent plans again from that moment).
    """

    @property
    def watchful(self) -> bool:
        """True while the agent wants to see positions change under its plan."""

    def keeps(self, observation: Any, action: Action) -> bool:
        """Still make the planned ``action`` in this new position?"""


@dataclass(slots=True)
class _Plan:
    time: float
    action: Action = field(compare=False)
    #: when the position it was planned on appeared (H8 judges from there)
    made: float = field(default=0.0, compare=False)


class Arbiter:
    """Applies both players' inputs to a game in real time."""

    def __init__(
        self,
        game: AnyGame,
        timing: Timing | None = None,
        clock: Clock = time.monotonic,
        agents: Mapping[int, Agent] | None = None,
    ) -> None:
        self.game = game
        self.timing = timing or Timing()
        self.clock = clock
        self.agents: dict[int, Agent] = dict(agents or {})
        self._watchers: dict[int, WatchfulAgent] = {
            p: agent for p, agent in self.agents.items() if isinstance(agent, WatchfulAgent)
        }
        start = clock()
        self.start_time = start
        #: every applied action with its time, in order: the replay log
        self.log: list[LogEntry] = []
        self._queue = InputQueue()
        self._timers = Timers(self.timing, start, game)
        #: how far the game has been run: no input can take effect before it
        self._horizon = start
        #: the last instant played through (its inputs, plans and timers done), if any:
        #: an input stamped at it or before that arrives now is late
        self._settled: float | None = None
        #: when the position last changed (agents plan from there)
        self._changed_at = start
        self._paused_at: float | None = None
        #: finished pauses: inputs stamped in (pause, resume] are refused
        self._pauses: list[tuple[float, float]] = []
        #: outcomes decided outside ``tick`` (by ``resume``), returned by the next tick
        self._outbox: list[Outcome] = []
        self._plans: dict[int, _Plan | None] = dict.fromkeys(self.agents)
        #: an agent's released plan until the queue hands it to the engine
        self._in_flight: dict[int, Input | None] = dict.fromkeys(self.agents)
        self._version = 0
        self._planned_version: dict[int, int] = dict.fromkeys(self.agents, -1)
        #: agents that need not see a position in which they cannot act
        self._skips: dict[int, bool] = {
            p: bool(getattr(a, "skips_when_stuck", False)) for p, a in self.agents.items()
        }
        #: H8: the recent positions, the players' fumble times and the fumbles so far
        self._fumbles = FumbleJudge(game, self.timing.fumble_time, self.timing.race_margin, start)

    # ------------------------------------------------------------------ input

    def submit(self, action: Action, at: float | None = None, seen: float | None = None) -> None:
        """Queue a player's action, stamped with the time it was made.

        An input that arrives after the arbiter has run to its stamp (a *late*
        input: stamped before the horizon, or at an instant a tick has already
        played) takes effect when it arrived: at the horizon, after everything
        that was done there. ``seen`` is when the position the player acted on
        stood, if before the stamp (a network guest sees the game late): H8
        judges a refused play or move from a race margin before it.
        """
        stamp = self.clock() if at is None else at
        if seen is not None and seen >= stamp:
            seen = None
        settled = self._settled
        late = stamp < self._horizon or (settled is not None and stamp <= settled)
        self._queue.add(action, max(stamp, self._horizon), stamp, seen, late)

    @property
    def fumbles(self) -> list[Fumble]:
        """Every fumble so far (H8), in order."""
        return self._fumbles.fumbles

    def fumbled_until(self, player: int) -> float:
        """When ``player``'s fumble time (H8) ends; in the past if none runs."""
        return self._fumbles.until(player)

    @property
    def paused(self) -> bool:
        """True while the game clock is stopped."""
        return self._paused_at is not None

    @property
    def horizon(self) -> float:
        """How far the game has run: a later input stamped before this is late."""
        return self._horizon

    def pause(self, now: float | None = None) -> None:
        """Stop every timer; inputs made after ``now`` and until the resume are refused.

        A pause cannot reach into the past: before the last tick, it starts there.
        """
        if self._paused_at is None:
            at = self.clock() if now is None else now
            self._paused_at = max(at, self._horizon)

    def resume(self, now: float | None = None) -> None:
        """Restart the timers where they stopped.

        Whatever was due before the pause is settled first and inputs made
        during it are refused; the outcomes come with the next ``tick``.
        """
        paused_at = self._paused_at
        if paused_at is None:
            return
        at = self.clock() if now is None else now
        at = max(at, paused_at)
        self._settle(paused_at, self._outbox)
        self._refuse_paused(paused_at, at, self._outbox)
        gap = at - paused_at
        self._timers.shift(gap)
        self._fumbles.shift(gap)
        for plan in self._plans.values():
            if plan is not None:
                plan.time += gap
        self._pauses.append((paused_at, at))
        self._paused_at = None
        self._horizon = max(self._horizon, at)

    # ------------------------------------------------------------------ timing

    def timer(self) -> Due | None:
        """The next timer as (deadline, what), or None if none runs now."""
        return self._timers.due()

    def next_deadline(self) -> float | None:
        """The earliest time at which ``tick`` has something to do."""
        if self._outbox or self._agents_to_plan():
            return self._horizon  # outcomes to hand out, or agents yet to see the position
        limit = self._paused_at
        if limit is None:
            # The simulator's path (once per step): plain comparisons, no lists.
            best = self._queue.head_time()
            for plan in self._plans.values():
                if plan is not None and (best is None or plan.time < best):
                    best = plan.time
            due = self.timer()
            if due is not None and (best is None or due[0] < best):
                best = due[0]
            return None if best is None else max(best, self._horizon)
        times: list[float] = []
        head = self._queue.head_time()
        if head is not None:
            times.append(head)
        times.extend(p.time for p in self._plans.values() if p is not None)
        timer = self.timer()
        if timer is not None:
            times.append(timer[0])
        if limit is not None:
            times = [t for t in times if t <= limit]
            refusal = self._queue.first_stamp_after(limit)  # an input made in the pause
            if refusal is not None:
                times.append(refusal)
        return max(min(times), self._horizon) if times else None

    # ------------------------------------------------------------------- ticks

    def tick(self, now: float | None = None) -> list[Outcome]:
        """Apply every input and timer due by ``now``, in time order.

        A tick earlier than the last one does nothing (time never runs back).
        """
        now = self.clock() if now is None else now
        outcomes, self._outbox = self._outbox, []
        paused_at = self._paused_at
        if paused_at is None:
            if now >= self._horizon:
                self._settle(now, outcomes)
                self._horizon = now
            return outcomes
        # Inputs made before the pause still count (R11): play up to the
        # moment of the pause, then refuse whatever was made during it.
        until = min(now, paused_at)
        if until >= self._horizon:
            self._settle(until, outcomes)
            self._horizon = until
        self._refuse_paused(paused_at, now, outcomes)
        return outcomes

    def _refuse_paused(self, paused_at: float, until: float, outcomes: list[Outcome]) -> None:
        """Refuse the inputs made in ``(paused_at, until]``, in time order."""
        for item in self._queue.take_stamped(paused_at, until):
            self._refuse(item, item.stamp, outcomes)

    def _settle(self, until: float, outcomes: list[Outcome]) -> None:
        """Apply inputs, plans and timers due by ``until``, in time order.

        At one instant inputs go before timers: a timer fires only when no
        input stamped at or before its deadline is still waiting.
        """
        self._plan_agents(max(self._changed_at, self._horizon))
        if self._settled is None or until > self._settled:
            self._settled = until
        queue = self._queue
        plans = self._plans.values()
        while True:
            first = queue.head_time()
            for plan in plans:
                if plan is not None and (first is None or plan.time < first):
                    first = plan.time
            timer = self.timer()
            if timer is not None and timer[0] <= until and (first is None or timer[0] < first):
                self._fire(timer, outcomes)
                self._plan_agents(timer[0])
                continue
            if first is None or first > until:
                return
            self._release_plans(first)
            item = queue.pop()
            self._drop_in_flight(item)
            if self._pauses and self._made_in_pause(item.stamp):
                self._refuse(item, item.time, outcomes)
                continue
            stamped = item.stamp if item.late else None
            if self._fumbles.held_back(item.action, item.time):
                # H8: inside a fumble time a play or move is refused untried.
                outcomes.append(Rejected(item.time, item.action, FUMBLING, stamped))
                if item.action.player in self._plans:
                    self._planned_version[item.action.player] = -1  # plan again
            elif (
                self._apply(item.time, item.action, outcomes, False, stamped, item.seen) is not None
            ):
                queue.accepted(item)
            self._plan_agents(item.time)

    def _refuse(self, item: Input, at: float, outcomes: list[Outcome]) -> None:
        """Refuse an input made during a pause, without showing it to the engine."""
        self._drop_in_flight(item)
        stamped = item.stamp if at != item.stamp else None
        outcomes.append(Rejected(at, item.action, PAUSED, stamped))
        if item.action.player in self._plans:
            self._planned_version[item.action.player] = -1  # plan again

    def _made_in_pause(self, stamp: float) -> bool:
        return any(p < stamp <= r for p, r in self._pauses)

    def _fire(self, timer: Due, outcomes: list[Outcome]) -> None:
        deadline, what = timer
        version = self._version
        for action in self._timers.actions(what):  # H2's calls, H3, H6, P4
            self._apply(deadline, action, outcomes, auto=True)
        if version == self._version:
            self._timers.spend()  # a timer that changes nothing must not spin

    def _apply(
        self,
        at: float,
        action: Action,
        outcomes: list[Outcome],
        auto: bool = False,
        stamped: float | None = None,
        seen: float | None = None,
    ) -> list[Event] | None:
        try:
            events = self.game.apply(action)
        except EngineError as exc:
            fumble = None
            if not auto:
                made = at if stamped is None else stamped
                fumble = self._fumbles.judge(
                    action, at, made if seen is None else seen, len(self.game.actions), stamped
                )
            length = 0.0 if fumble is None else fumble.until - at
            outcomes.append(Rejected(at, action, str(exc), stamped, length))
            if action.player in self._plans:
                self._planned_version[action.player] = -1  # plan again (R11)
            return None
        self.log.append(LogEntry(at, action, stamped))
        self._version += 1
        self._changed_at = at
        self._timers.saw(at)
        self._fumbles.saw(self.game, at)
        outcomes.append(Applied(at, action, events, auto, stamped))
        return events

    # ------------------------------------------------------------------ agents

    def _agents_to_plan(self) -> bool:
        """True if some agent has yet to see the current position."""
        if self.game.over:
            return False
        version = self._version
        plans, in_flight, planned = self._plans, self._in_flight, self._planned_version
        for p in self.agents:
            if plans[p] is None and in_flight[p] is None and planned[p] != version:
                return True
        return False

    def _plan_agents(self, now: float) -> None:
        """Show each agent the position that changed at ``now``; it plans from then."""
        version = self._version  # planning changes no position
        in_flight, planned, plans = self._in_flight, self._planned_version, self._plans
        game = self.game
        for p, agent in self.agents.items():
            # An agent plans once per new position, and never while its last
            # action still waits in the queue (it has not seen that action land).
            if in_flight[p] is not None or planned[p] == version:
                continue
            pending = plans[p]
            watcher = self._watchers.get(p)
            if pending is not None and (watcher is None or not watcher.watchful):
                continue  # committed to its plan until the action lands or is refused
            planned[p] = version
            if game.over:
                continue
            if self._skips[p] and not game.has_legal_action(p):
                plans[p] = None  # a watchful agent's plan would not be kept
                continue
            observation = game.observation(p)
            if pending is not None and watcher is not None:
                # A watchful agent sees the position change under its hand: if its
                # planned action no longer fits, it drops it and thinks again now.
                if watcher.keeps(observation, pending.action):
                    continue
                plans[p] = None
            plan = agent.plan(observation, now)
            if plan is not None:
                delay, action = plan
                plans[p] = _Plan(now + max(0.0, delay), action, now)

    def _release_plans(self, until: float) -> None:
        """Agents' plans due by ``until`` become inputs stamped at their planned time."""
        for p, plan in self._plans.items():
            if plan is not None and plan.time <= until:
                self._in_flight[p] = self._queue.add(plan.action, plan.time, seen=plan.made)
                self._plans[p] = None

    def _drop_in_flight(self, item: Input) -> None:
        player = item.action.player
        if self._in_flight.get(player) is item:
            self._in_flight[player] = None

    def elapsed(self, now: float | None = None) -> float:
        """Seconds of game time since the start (pauses included)."""
        return (self.clock() if now is None else now) - self.start_time

    def played(self, now: float | None = None) -> float:
        """Seconds of play since the start: ``elapsed`` without the pauses (the game
        clock a board shows; a network match's wait for its players is a pause)."""
        at = self.clock() if now is None else now
        stopped = sum(max(0.0, min(end, at) - begin) for begin, end in self._pauses)
        if self._paused_at is not None:
            stopped += max(0.0, at - self._paused_at)
        return max(0.0, at - self.start_time - stopped)


__all__ = [
    "FUMBLING",
    "PAUSED",
    "Agent",
    "Applied",
    "Arbiter",
    "Clock",
    "Fumble",
    "Kind",
    "LogEntry",
    "Outcome",
    "Rejected",
    "Timing",
]
