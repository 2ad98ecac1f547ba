"""An outside model of the arbiter's timing contract, and a driver for tick patterns.

Written from RULES.md (H2, H3, H6, P4, R11) and docs/realtime.md, not from the
arbiter's code: the model replays the outcomes on its own copy of the game,
works out every timer's deadline in *game time* (wall time minus the pauses
before it), and checks each outcome against that. The driver runs one stream
of timestamped inputs, pauses and resumes under a chosen tick pattern.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from tests.support import deal

from spit.bots import make_bot
from spit.bots.sim import new_game
from spit.engine import (
    CLOSE,
    FLIP,
    STALL,
    SYSTEM,
    Action,
    Game,
    Kind,
    Phase,
    SpitGame,
    call,
    choose,
    move,
    play,
    slap,
)
from spit.engine.events import CardMoved, CardPlayed, PhaseChanged, Spat, Stalemate
from spit.realtime.arbiter import FUMBLING, PAUSED, Applied, Arbiter, Outcome, Rejected, Timing

START = 0.0
STUCK = ("8C 9C 10C JC QC", "8D 9D 10D JD QD")


@dataclass(frozen=True)
class Case:
    """One stream: a game, timing rules, inputs, pauses, bots and an end time."""

    mode: str
    variants: tuple[str, ...]
    seed: int
    #: random legal actions played before the arbiter takes over; -1: on to a
    #: slap; -2: a Spit deal in which spit after spit leaves a stalemate
    warmup: int
    timing: Timing
    inputs: tuple[tuple[float, Action], ...]  # (stamp, action) in order of arrival
    pauses: tuple[tuple[float, float | None], ...]  # (pause, resume or None), in order
    end: float
    bots: tuple[tuple[int, str], ...] = ()  # (player, level)

    def game(self) -> Game:
        """The position the arbiter starts from (the same every time)."""
        game = new_game(self.mode, self.variants, self.seed)
        rng = random.Random(self.seed)
        if (
            self.warmup == -1
        ):  # stall and call until a round ends and the slap (or V2 choice) begins
            for _ in range(500):
                if game.over or game.phase in (Phase.SLAP, Phase.CHOOSE):
                    break
                legal = game.legal_actions(SYSTEM) or game.legal_actions(None)
                game.apply(legal[0])
            return game
        if self.warmup == -2 and self.mode == "spit":
            # Every top card is 8 to Q and the first spit cards are low: each
            # spit leaves a fresh stalemate (R13), four times over.
            return deal(STUCK, ("5C 5H 3C 3H", "5D 5S 3D 3S"))
        for _ in range(self.warmup):
            if game.over:
                break
            legal = game.legal_actions(None) + game.legal_actions(SYSTEM)
            game.apply(rng.choice(legal))
        return game

    def paused_interval(self, stamp: float) -> bool:
        """True if ``stamp`` falls in a pause: the game is stopped in (pause, resume]."""
        return any(p < stamp and (r is None or stamp <= r) for p, r in self.pauses)


def all_actions(mode: str) -> list[Action]:
    """Every action either player can send in ``mode`` (most are illegal most of the time)."""
    out: list[Action] = []
    for p in (0, 1):
        out += [play(p, s, t) for s in range(5) for t in (0, 1)] + [call(p)]
        if mode == "spit":
            out += [move(p, s) for s in range(5)]
            out += [slap(p, t) for t in (0, 1)] + [choose(p, t) for t in (0, 1)]
    return out


# ------------------------------------------------------------------ driving


class Recorder:
    """Wraps a bot: records each plan (time asked, delay, action)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.plans: list[tuple[float, float, Action]] = []
        self.watchful = bot.watchful

    def plan(self, observation: Any, now: float) -> tuple[float, Action] | None:
        plan: tuple[float, Action] | None = self.bot.plan(observation, now)
        if plan is not None:
            self.plans.append((now, plan[0], plan[1]))
        return plan

    def keeps(self, observation: Any, action: Action) -> bool:
        return bool(self.bot.keeps(observation, action))


@dataclass
class Run:
    """What one run produced."""

    outcomes: list[Outcome]
    log: list[tuple[float, Action, float | None]]
    fingerprint: str
    plans: dict[int, list[tuple[float, float, Action]]] = field(default_factory=dict)

    def key(self) -> tuple[object, ...]:
        """Everything that must not depend on the tick pattern."""
        return (self.outcomes, self.log, self.fingerprint, self.plans)


def drive(case: Case, pattern: str, ticks: Sequence[float] = (), ticks_first: bool = True) -> Run:
    """Run ``case``, ticking by ``pattern``: 'once', 'random' (at ``ticks``), 'ms', 'deadline'.

    Each input arrives just before the arbiter is first asked about a time at or
    after its stamp (so none is late); pauses and resumes happen at their times.
    ``ticks_first``: whether a tick at the very time of a pause or resume comes
    before it.
    """
    game = case.game()
    agents = {
        p: Recorder(make_bot(level, p, seed=case.seed + p, mode=case.mode))
        for p, level in case.bots
    }
    arbiter = Arbiter(game, case.timing, lambda: START, dict(agents))
    waiting = list(case.inputs)  # in order of arrival, not of stamp
    outcomes: list[Outcome] = []

    def arrive(upto: float) -> None:
        for stamp, action in [x for x in waiting if x[0] <= upto]:
            arbiter.submit(action, at=stamp)
        waiting[:] = [x for x in waiting if x[0] > upto]

    def tick(t: float) -> None:
        arrive(t)
        outcomes.extend(arbiter.tick(t))

    if pattern == "ms":
        ticks = [k / 1000 for k in range(1, round(case.end * 1000) + 1)]
    elif pattern == "once":
        ticks = []
    pending = iter(sorted(ticks))
    next_tick = next(pending, None)
    events = [(p, "pause") for p, _ in case.pauses]
    events += [(r, "resume") for _, r in case.pauses if r is not None]
    for t, what in [*sorted(events), (case.end, "end")]:
        if pattern == "deadline":
            for _ in range(100_000):
                deadline = arbiter.next_deadline()
                stamp = min((s for s, _ in waiting), default=math.inf)
                if stamp <= t and (deadline is None or stamp < deadline):
                    arrive(stamp)
                    continue
                if deadline is None or deadline > t or (deadline == t and not ticks_first):
                    break
                tick(deadline)
            else:  # pragma: no cover - a spinning driver is a bug in the arbiter
                raise AssertionError("next_deadline() does not move on")
        else:
            while next_tick is not None and (next_tick < t or (next_tick == t and ticks_first)):
                tick(next_tick)
                next_tick = next(pending, None)
        arrive(t)
        if what == "pause":
            arbiter.pause(t)
        elif what == "resume":
            arbiter.resume(t)
    tick(case.end)
    log = [(entry[0], entry[1], entry.stamped) for entry in arbiter.log]
    plans = {p: agent.plans for p, agent in agents.items()}
    return Run(outcomes, log, game.fingerprint(), plans)


# ------------------------------------------------------------------ the model


class GameClock:
    """Game time: wall time with the pauses taken out."""

    def __init__(self, pauses: tuple[tuple[float, float | None], ...]) -> None:
        self.pauses = [(p, math.inf if r is None else r) for p, r in pauses]

    def game_time(self, wall: float) -> float:
        return wall - sum(min(r, wall) - p for p, r in self.pauses if p < wall)

    def wall(self, game_time: float) -> float:
        """The wall time at which the game clock shows ``game_time`` (outside any pause)."""
        wall = game_time
        for p, r in self.pauses:
            if p < wall:
                wall += r - p
        return wall


def expected_timer(game: Game, timing: Timing) -> tuple[str, str] | None:
    """Which timer runs in this position (H2, H3, H6, P4) and which event starts it."""
    phase = game.phase
    if phase is Phase.GAME_OVER:
        return None
    if phase is Phase.OPENING:
        return "call", "phase"
    if phase is Phase.STALEMATE:
        return ("flip", "phase") if game.mode == "speed" else ("call", "phase")
    if phase in (Phase.SLAP, Phase.CHOOSE):
        return "close", "phase"
    return "stall", "progress"


def wait(timing: Timing, what: str) -> float:
    if what == "call":  # H2: the countdown, and in any case within the stall time
        return (
            timing.stall_time
            if timing.auto_spit is None
            else min(timing.auto_spit, timing.stall_time)
        )
    return {"close": timing.slap_time, "stall": timing.stall_time, "flip": timing.flip_delay}[what]


TIMER_ACTION = {"flip": FLIP, "close": CLOSE, "stall": STALL}


def check(case: Case, run: Run) -> None:
    """Check one run against the contract; raise AssertionError on the first breach."""
    outcomes = run.outcomes
    times = [o.time for o in outcomes]
    assert times == sorted(times), "outcomes are not in time order"
    check_inputs(case, run)
    check_timers_and_rules(case, run)
    check_no_timer_overtakes_an_input(case, run)
    check_tie_alternation(run)
    check_bot_plans(case, run)
    check_fumbles(case, run)


def check_fumbles(case: Case, run: Run) -> None:
    """H8 from RULES.md: a play or move refused in every position of the race
    margin before its press starts the fumble time; inside it that player's plays
    and moves are refused untried and start nothing; a lost race, a call, a slap,
    a choice and a computer's press never fumble; fumble time 0 is no H8."""
    timing = case.timing
    fumbling = (Kind.PLAY, Kind.MOVE)
    bots = {p for p, _ in case.bots}
    game = case.game()
    clock = GameClock(case.pauses)
    history = [(START, game.legal_actions(0), game.legal_actions(1))]
    until = {0: -math.inf, 1: -math.inf}
    for o in run.outcomes:
        a, p = o.action, o.action.player
        mine = p in (0, 1) and a.kind in fumbling
        if isinstance(o, Applied):
            assert not mine or o.time >= until[p], f"{o} landed in a fumble time"
            game.apply(a)
            history.append((o.time, game.legal_actions(0), game.legal_actions(1)))
            continue
        if o.reason == PAUSED:
            assert o.fumble == 0
            continue
        if o.reason == FUMBLING:
            assert timing.fumble_time > 0 and mine and o.time < until[p], f"{o} held back"
            assert o.fumble == 0, "a press inside a fumble time started another"
            continue
        assert not mine or o.time >= until[p], f"{o} was tried inside a fumble time"
        if not mine or timing.fumble_time == 0:
            assert o.fumble == 0, f"{o} is not a play or a move, or H8 is off"
            continue
        if p in bots:
            assert o.fumble == 0, f"a computer fumbled: {o}"
            continue
        made = o.time if o.stamped is None else o.stamped
        start = made - timing.race_margin
        # the positions standing from ``start`` on, one replaced at that very instant
        # too (before the start: the first one)
        before = [h for h in history if h[0] < start]
        if not before and not case.game().actions:
            before = history[:1]  # before the start of a fresh game: its first position
        window = [*before[-1:], *(h for h in history if h[0] >= start)]
        # a window reaching back before a game the arbiter took over: no fumble
        fitted = not before or any(a in h[1 + p] for h in window)
        if fitted:
            assert o.fumble == 0, f"{o} is a lost race, not a fumble"
        else:
            assert math.isclose(o.fumble, timing.fumble_time), f"{o} should be a fumble"
            until[p] = clock.wall(clock.game_time(o.time) + timing.fumble_time)


def _human_inputs(case: Case) -> list[tuple[float, Action]]:
    bots = {p for p, _ in case.bots}
    return [(s, a) for s, a in case.inputs if a.player not in bots]


def _is_input(o: Outcome) -> bool:
    return not (isinstance(o, Applied) and o.auto)


def check_inputs(case: Case, run: Run) -> None:
    """Every input gets one outcome, at its stamp; made in a pause means refused."""
    bots = {p for p, _ in case.bots}
    got = Counter(
        (o.time, o.action, o.stamped, isinstance(o, Rejected) and o.reason == PAUSED)
        for o in run.outcomes
        if _is_input(o) and o.action.player not in bots
    )
    want = Counter(
        (
            max(stamp, START),
            action,
            stamp if stamp < START else None,  # made before the arbiter started: late
            case.paused_interval(stamp),
        )
        for stamp, action in _human_inputs(case)
    )
    assert got == want, f"inputs and outcomes differ: {got - want} vs {want - got}"
    # one player's inputs at one stamp go in the order they arrived
    for player in (0, 1):
        mine = [(s, a) for s, a in _human_inputs(case) if a.player == player]
        seen = [
            (o.time, o.action) for o in run.outcomes if _is_input(o) and o.action.player == player
        ]
        for stamp in {s for s, _ in mine if s > START}:
            order = [a for s, a in mine if s == stamp]
            assert [a for t, a in seen if t == stamp] == order


def check_timers_and_rules(case: Case, run: Run) -> None:
    """Replay the outcomes on a copy of the game: each is what the engine says,
    each automatic action comes exactly when its timer runs out, none is missed."""
    game = case.game()
    clock = GameClock(case.pauses)
    phase_start = progress = START
    calls_due: list[int] = []

    def deadline() -> tuple[float, str] | None:
        timer = expected_timer(game, case.timing)
        if timer is None:
            return None
        what, anchor = timer
        since = phase_start if anchor == "phase" else progress
        return clock.wall(clock.game_time(since) + wait(case.timing, what)), what

    due = deadline()
    for o in run.outcomes:
        if isinstance(o, Applied) and o.auto:
            assert due is not None and o.time == due[0], f"{o} fired; the model expected {due}"
            what = due[1]
            if what == "call":
                # H2: the game calls only for a player holding spit cards who has
                # not called yet, in this same prompt.
                assert o.action.kind is Kind.CALL and game.is_legal(o.action)
                if isinstance(game, SpitGame):
                    assert game.spit[o.action.player]
                if not calls_due:
                    calls_due = [p for p in (0, 1) if game.is_legal(call(p))]
                assert o.action.player in calls_due
                calls_due.remove(o.action.player)
            else:
                assert o.action == TIMER_ACTION[what]
        else:
            assert due is None or o.time <= due[0], f"{o} came after the {due} timer"
            calls_due = []
        if isinstance(o, Applied):
            events = game.apply(o.action)
            assert events == o.events
            for event in events:
                if isinstance(event, (PhaseChanged, Stalemate)):
                    phase_start = progress = o.time
                    calls_due = []
                elif isinstance(event, (CardPlayed, CardMoved, Spat)):
                    progress = o.time
        elif o.reason == PAUSED:
            assert case.paused_interval(o.stamped if o.stamped is not None else o.time)
        elif o.reason == FUMBLING:
            pass  # H8: held back untried in a fumble time (``check_fumbles``)
        else:
            # a refused input changes nothing: the engine refuses it here too
            assert not game.is_legal(o.action), f"{o} was refused yet is legal"
        due = deadline()
    settled = case.end
    assert due is None or due[0] > settled, f"the {due} timer never fired"
    assert game.fingerprint() == run.fingerprint


def check_no_timer_overtakes_an_input(case: Case, run: Run) -> None:
    """A timer fires only once every input stamped at or before its deadline is settled."""
    seen: Counter[tuple[float, Action]] = Counter()
    inputs = Counter((max(s, START), a) for s, a in _human_inputs(case))
    for o in run.outcomes:
        if _is_input(o):
            seen[(o.time, o.action)] += 1
        else:
            waiting = {k for k, n in inputs.items() if k[0] <= o.time and seen[k] < n}
            assert not waiting, f"{o} fired while {waiting} waited"


def instants(outcomes: list[Outcome]) -> Iterator[list[Outcome]]:
    """The inputs' outcomes grouped by instant (time and stamp), in order."""
    group: list[Outcome] = []
    for o in outcomes:
        if not _is_input(o) or (isinstance(o, Rejected) and o.reason == PAUSED):
            continue
        if group and (group[0].time, group[0].stamped) != (o.time, o.stamped):
            yield group
            group = []
        group.append(o)
    if group:
        yield group


def tie_winners(outcomes: list[Outcome]) -> list[int]:
    """Who won each decided exact tie: the first applied input of an instant
    while the other player still had an input waiting at that instant."""
    winners: list[int] = []
    for group in instants(outcomes):
        for k, o in enumerate(group):
            if isinstance(o, Applied):
                if any(later.action.player == 1 - o.action.player for later in group[k + 1 :]):
                    winners.append(o.action.player)
                break
    return winners


def check_tie_alternation(run: Run) -> None:
    """R11 ties: the priority starts with player 1 and passes at each decided tie."""
    winners = tie_winners(run.outcomes)
    assert winners == [k % 2 for k in range(len(winners))], f"tie winners {winners}"


def check_bot_plans(case: Case, run: Run) -> None:
    """A bot plans when the position changes and acts its delay later (in game time),
    through the same queue: its outcome comes at that time, in time order."""
    clock = GameClock(case.pauses)
    change_times = {START} | {o.time for o in run.outcomes}
    for p, plans in run.plans.items():
        due: Counter[tuple[float, Action]] = Counter()
        for now, delay, action in plans:
            assert now in change_times, f"bot {p} planned at {now}, when nothing happened"
            at = clock.wall(clock.game_time(now) + max(0.0, delay))
            due[(round(at, 9), action)] += 1  # bots' delays are not on the grid: round
        acted = Counter(
            (round(o.time, 9), o.action)
            for o in run.outcomes
            if _is_input(o) and o.action.player == p
        )
        assert not acted - due, f"bot {p} acted without a plan: {acted - due}"


def without_lone_refusals(case: Case, run: Run) -> Case:
    """The same case without the inputs that were refused outright (not made in a
    pause, starting no fumble: H8) and had no input of the other player at their stamp."""
    refused = Counter(
        (o.time, o.action)
        for o in run.outcomes
        if isinstance(o, Rejected) and o.reason != PAUSED and o.stamped is None and not o.fumble
    )
    others = Counter(
        (o.time, o.action.player) for o in run.outcomes if _is_input(o) and o.stamped is None
    )
    kept = []
    for stamp, action in case.inputs:
        lone = others[(stamp, 1 - action.player)] == 0
        if lone and refused[(stamp, action)] > 0:
            refused[(stamp, action)] -= 1
            continue
        kept.append((stamp, action))
    return Case(**{**case.__dict__, "inputs": tuple(kept)})


__all__ = ["Case", "Run", "all_actions", "check", "drive", "tie_winners", "without_lone_refusals"]
