"""The real-time layer: orders timestamped inputs, runs the timers, drives agents.

No UI and no wall clock of its own: time comes from an injectable clock, so
tests and the simulator run whole games on a fake clock. Inputs are applied in
order of their timestamps (R11); inputs from both players with the very same
timestamp are ordered by an alternating priority, and that order is what the
log records. Timers apply H2 (calls), H3 (slap window), H6 (stalls) and Speed's
P4 flip pause. Agents (bots) plan an action after a delay and their action then
goes through the same queue as a human's key.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from spit.engine import CLOSE, FLIP, STALL, SYSTEM, Action, Game, Kind, Phase, call
from spit.engine.errors import EngineError
from spit.engine.events import CardMoved, CardPlayed, Event, PhaseChanged, Spat, Stalemate

Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class Timing:
    """The timing rules, in seconds.

    ``auto_spit``: H2's countdown after which the game calls "spit!" for every
    player who has not (None: players call, and the game calls for them only
    after ``stall_time``). ``slap_time``: H3. ``stall_time``: H6 (and H2's
    call timeout). ``flip_delay``: the pause before Speed's side piles turn (P4).
    """

    auto_spit: float | None = None
    slap_time: float = 3.0
    stall_time: float = 10.0
    flip_delay: float = 1.0

    def __post_init__(self) -> None:
        for name in ("slap_time", "stall_time", "flip_delay"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not 0 < value <= 3600:
                raise ValueError(f"{name} must be a number of seconds above 0")
        if self.auto_spit is not None and not (
            isinstance(self.auto_spit, (int, float)) and 0 <= self.auto_spit <= 3600
        ):
            raise ValueError("auto_spit must be a number of seconds, or None")


@dataclass(frozen=True, slots=True)
class Applied:
    """An action that the engine accepted at ``time``; ``auto`` if a timer made it."""

    time: float
    action: Action
    events: list[Event]
    auto: bool = False


@dataclass(frozen=True, slots=True)
class Rejected:
    """An input that was refused (R11: a faster move made it illegal, or it never was)."""

    time: float
    action: Action
    reason: str


Outcome = Applied | Rejected


class Agent(Protocol):
    """A computer player: sees only its observation, answers with a delayed action.

    An agent may also have ``watchful = True`` and a method
    ``keeps(observation, action) -> bool``: the arbiter then shows it every new
    position while an action is planned, and drops the plan when ``keeps`` says
    it no longer makes sense (the agent plans again from that moment).
    """

    def plan(self, observation: Any, now: float) -> tuple[float, Action] | None:
        """Return (delay in seconds, action), or None to wait for the next change."""


@dataclass(order=True, slots=True)
class _Input:
    time: float
    rank: int
    action: Action = field(compare=False)


class Arbiter:
    """Applies both players' inputs to a game in real time."""

    def __init__(
        self,
        game: Game,
        timing: Timing | None = None,
        clock: Clock = time.monotonic,
        agents: dict[int, Agent] | None = None,
    ) -> None:
        self.game = game
        self.timing = timing or Timing()
        self.clock = clock
        self.agents: dict[int, Agent] = dict(agents or {})
        start = clock()
        self.start_time = start
        #: every applied action with its time, in order: the replay log
        self.log: list[tuple[float, Action]] = []
        self._queue: list[_Input] = []
        self._rank = 0
        self._tie_winner = 0  # the player who goes first in the next exact tie
        self._phase_since = start
        self._progress_at = start
        self._timer_key: tuple[int, float, float] | None = None
        self._timer: tuple[float, str] | None = None
        self._plans: dict[int, _Input | None] = dict.fromkeys(self.agents)
        #: an agent's released plan until the queue hands it to the engine
        self._in_flight: dict[int, _Input | None] = dict.fromkeys(self.agents)
        self._last_tick = start
        self._version = 0
        self._planned_version: dict[int, int] = dict.fromkeys(self.agents, -1)
        self._paused_at: float | None = None

    # ------------------------------------------------------------------ input

    def submit(self, action: Action, at: float | None = None) -> None:
        """Queue a player's action, stamped with the time it was made."""
        stamp = self.clock() if at is None else at
        self._rank += 1
        self._queue.append(_Input(stamp, self._rank, action))

    @property
    def paused(self) -> bool:
        """True while the game clock is stopped."""
        return self._paused_at is not None

    def pause(self, now: float | None = None) -> None:
        """Stop every timer; inputs made while paused are refused."""
        if self._paused_at is None:
            self._paused_at = self.clock() if now is None else now

    def resume(self, now: float | None = None) -> None:
        """Restart the timers where they stopped."""
        if self._paused_at is None:
            return
        now = self.clock() if now is None else now
        gap = max(0.0, now - self._paused_at)
        self._paused_at = None
        self._phase_since += gap
        self._progress_at += gap
        for p, plan in self._plans.items():
            if plan is not None:
                plan.time += gap
                self._plans[p] = plan

    # ------------------------------------------------------------------ timing

    def timer(self) -> tuple[float, str] | None:
        """The next timer as (deadline, what), or None if none runs now."""
        # The timer only changes with the game (its action count) or the
        # times it runs from; ticks ask for it several times per position.
        key = (len(self.game.actions), self._phase_since, self._progress_at)
        if key != self._timer_key:
            self._timer_key = key
            self._timer = self._compute_timer()
        return self._timer

    def _compute_timer(self) -> tuple[float, str] | None:
        game = self.game
        phase = game.phase
        t = self.timing
        if phase is Phase.GAME_OVER:
            return None
        if phase is Phase.OPENING or (
            phase is Phase.STALEMATE and FLIP not in game.legal_actions(SYSTEM)
        ):
            wait = t.auto_spit if t.auto_spit is not None else t.stall_time
            return (self._phase_since + wait, "call")
        system = game.legal_actions(SYSTEM)
        if FLIP in system:
            return (self._phase_since + t.flip_delay, "flip")
        if CLOSE in system:
            return (self._phase_since + t.slap_time, "close")
        if STALL in system:
            return (self._progress_at + t.stall_time, "stall")
        return None

    def next_deadline(self) -> float | None:
        """The earliest time at which ``tick`` has something to do."""
        # Written as plain loops: the simulator calls this once per step.
        best: float | None = None
        for item in self._queue:
            if best is None or item.time < best:
                best = item.time
        for plan in self._plans.values():
            if plan is not None and (best is None or plan.time < best):
                best = plan.time
        # e.g. at the start: agents have not planned yet
        if (best is None or self._last_tick < best) and self._agents_to_plan():
            best = self._last_tick
        timer = self.timer()
        if timer is not None and (best is None or timer[0] < best):
            best = timer[0]
        return best

    # ------------------------------------------------------------------- ticks

    def tick(self, now: float | None = None) -> list[Outcome]:
        """Apply every input and timer due by ``now``, in time order."""
        now = self.clock() if now is None else now
        self._last_tick = now
        outcomes: list[Outcome] = []
        if self._paused_at is not None:
            # Inputs made before the pause still count (R11): play up to the
            # moment of the pause, then refuse whatever came during it.
            self._run(min(now, self._paused_at), outcomes)
            for item in self._queue:
                outcomes.append(Rejected(item.time, item.action, "the game is paused"))
            self._queue.clear()
            self._in_flight = dict.fromkeys(self.agents)
            return outcomes
        self._run(now, outcomes)
        return outcomes

    def _run(self, now: float, outcomes: list[Outcome]) -> None:
        """Apply inputs, plans and timers due by ``now``, in time order."""
        self._plan_agents(now)
        while True:
            self._release_plans(now)
            item = self._next_input(now)
            timer = self.timer()
            if timer is not None and timer[0] <= now and (item is None or timer[0] < item.time):
                version = self._version
                self._fire(timer, outcomes)
                if version == self._version:
                    break  # a timer that changes nothing must not spin
            elif item is not None:
                self._remove(item)
                if self._in_flight.get(item.action.player) is item:
                    self._in_flight[item.action.player] = None
                self._apply(item.time, item.action, outcomes)
            else:
                break
            self._plan_agents(now)

    def _next_input(self, now: float) -> _Input | None:
        queue = self._queue
        if not queue:
            return None
        if len(queue) == 1:  # the usual case: no tie is possible
            only = queue[0]
            return only if only.time <= now else None
        due = [i for i in queue if i.time <= now]
        if not due:
            return None
        first = min(due)
        ties = [i for i in due if i.time == first.time and i.action.player != first.action.player]
        if ties:
            # Exact tie between the two players: the recorded alternating priority decides.
            preferred = [
                i for i in due if i.time == first.time and i.action.player == self._tie_winner
            ]
            self._tie_winner = 1 - self._tie_winner
            if preferred:
                return min(preferred)
        return first

    def _remove(self, item: _Input) -> None:
        """Take ``item`` itself out of the queue (by identity: no field comparisons)."""
        queue = self._queue
        for i, queued in enumerate(queue):
            if queued is item:
                del queue[i]
                return

    def _fire(self, timer: tuple[float, str], outcomes: list[Outcome]) -> None:
        deadline, what = timer
        if what == "call":
            for p in (0, 1):
                if call(p) in self.game.legal_actions(p):
                    self._apply(deadline, call(p), outcomes, auto=True)
                    if self.game.phase not in (Phase.OPENING, Phase.STALEMATE):
                        break
            return
        action = {"flip": FLIP, "close": CLOSE, "stall": STALL}[what]
        self._apply(deadline, action, outcomes, auto=True)

    def _apply(
        self, at: float, action: Action, outcomes: list[Outcome], auto: bool = False
    ) -> None:
        try:
            events = self.game.apply(action)
        except EngineError as exc:
            outcomes.append(Rejected(at, action, str(exc)))
            if action.player in self._plans:
                self._planned_version[action.player] = -1  # plan again (R11)
            return
        self.log.append((at, action))
        self._version += 1
        for event in events:
            if isinstance(event, (PhaseChanged, Stalemate)):
                self._phase_since = at
                self._progress_at = at
            elif isinstance(event, (CardPlayed, CardMoved, Spat)):
                self._progress_at = at
        outcomes.append(Applied(at, action, events, auto))

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
        version = self._version
        in_flight, planned = self._in_flight, self._planned_version
        for p, agent in self.agents.items():
            # An agent plans once per new position, and never while its last
            # action still waits in the queue (it has not seen that action land).
            if in_flight[p] is not None or planned[p] == version:
                continue
            pending = self._plans[p]
            if pending is not None and not getattr(agent, "watchful", False):
                continue  # committed to its plan until the action lands or is refused
            planned[p] = version
            if self.game.over:
                continue
            observation = self.game.observation(p)
            if pending is not None:
                # A watchful agent sees the position change under its hand: if its
                # planned action no longer fits, it drops it and thinks again now.
                if agent.keeps(observation, pending.action):  # type: ignore[attr-defined]
                    continue
                self._plans[p] = None
            plan = agent.plan(observation, now)
            if plan is not None:
                delay, action = plan
                self._rank += 1
                self._plans[p] = _Input(now + max(0.0, delay), self._rank, action)

    def _release_plans(self, now: float) -> None:
        for p, plan in self._plans.items():
            if plan is not None and plan.time <= now:
                self._queue.append(plan)
                self._in_flight[p] = plan
                self._plans[p] = None

    def elapsed(self, now: float | None = None) -> float:
        """Seconds of game time since the start (pauses included)."""
        return (self.clock() if now is None else now) - self.start_time


__all__ = ["Agent", "Applied", "Arbiter", "Clock", "Kind", "Outcome", "Rejected", "Timing"]
