"""The arbiter's agent loop as bots rely on it (R11): re-plan after a rejection,
and never plan while an earlier action of the same agent is still unapplied."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.support import FakeClock

from spit.engine import Kind, Phase, SpitGame, call
from spit.realtime.arbiter import Arbiter, Rejected, Timing


class FirstLegal:
    """Plays its first legal action after a fixed delay; records what it saw."""

    def __init__(
        self, player: int, delay: float, arbiter_ref: list[Arbiter], limit: int = 10**9
    ) -> None:
        self.player = player
        self.limit = limit
        self.delay = delay
        self.arbiter_ref = arbiter_ref
        self.calls: list[tuple[float, Any, bool]] = []

    def plan(self, observation: Any, now: float) -> tuple[float, Any] | None:
        arbiter = self.arbiter_ref[0]
        waiting = any(i.action.player == self.player for i in arbiter._queue)
        self.calls.append((now, observation, waiting))
        if not observation.legal or len(self.calls) > self.limit:
            return None
        return self.delay, observation.legal[0]


def _run(arbiter: Arbiter, clock: FakeClock, until: float) -> list:
    outcomes = []
    while not arbiter.game.over:
        deadline = arbiter.next_deadline()
        if deadline is None or deadline > until:
            break
        clock.now = deadline
        outcomes.extend(arbiter.tick(deadline))
    return outcomes


def test_agent_is_not_asked_to_plan_while_its_action_waits_in_the_queue() -> None:
    game = SpitGame(seed=11)
    clock = FakeClock(0.0)
    ref: list[Arbiter] = []
    agents = {p: FirstLegal(p, 0.5, ref) for p in (0, 1)}
    arbiter = Arbiter(game, Timing(), clock, agents)
    ref.append(arbiter)
    _run(arbiter, clock, until=30.0)
    # Both agents use the same delay, so their actions fall due in the same tick.
    assert len(arbiter.log) > 10
    for agent in agents.values():
        assert not any(waiting for _, _, waiting in agent.calls)


def test_r11_rejected_plan_is_planned_again(packets: Callable[..., list[list[int]]]) -> None:
    # Both players' only play is onto pile 1 (the 5 on player 1's side): player 1's
    # 4 and player 2's 6. Player 1 is faster; player 2's planned 6 on the 5 is then
    # judged against the 4 and refused, and player 2 must plan again.
    game = SpitGame(packets=packets(("4C 10C 10D 10H 10S", "6C QC QD QH QS"), ("5H", "8D")))
    game.apply(call(0))
    game.apply(call(1))
    assert game.phase is Phase.PLAY
    clock = FakeClock(0.0)
    ref: list[Arbiter] = []
    slow = FirstLegal(1, 0.9, ref)
    fast = FirstLegal(0, 0.3, ref, limit=1)  # plays its 4 at 0.3 s, then does nothing
    arbiter = Arbiter(game, Timing(), clock, {0: fast, 1: slow})
    ref.append(arbiter)
    outcomes = _run(arbiter, clock, until=1.0)
    rejected = [o for o in outcomes if isinstance(o, Rejected) and o.action.player == 1]
    assert [o.action.kind for o in rejected] == [Kind.PLAY]
    assert rejected[0].time == 0.9
    # Nothing else changed the position, yet player 2 was asked again at once.
    assert [now for now, _, _ in slow.calls] == [0.0, 0.9]


def test_next_deadline_is_the_start_while_agents_have_not_planned() -> None:
    # A driver that sleeps until next_deadline() must wake at once to let the
    # agents plan, not at the H2 call timeout.
    game = SpitGame(seed=5)
    clock = FakeClock(100.0)
    ref: list[Arbiter] = []
    arbiter = Arbiter(game, Timing(), clock, {0: FirstLegal(0, 0.4, ref)})
    ref.append(arbiter)
    assert arbiter.next_deadline() == 100.0
    arbiter.tick(100.0)
    assert arbiter.next_deadline() == 100.4  # player 1's call (R5)
    arbiter.tick(100.4)
    assert game.called[0]


class Watchful(FirstLegal):
    """FirstLegal that watches the piles: drops a plan the position made illegal."""

    watchful = True

    def keeps(self, observation: Any, action: Any) -> bool:
        return action in observation.legal


def test_r11_watchful_agent_drops_its_plan_when_the_pile_changes(
    packets: Callable[..., list[list[int]]],
) -> None:
    # The same race as above, but player 2 watches the piles: when player 1's 4
    # lands at 0.3 s its planned 6 no longer fits, so it thinks again at 0.3 s
    # instead of having its card refused at 0.9 s.
    game = SpitGame(packets=packets(("4C 10C 10D 10H 10S", "6C QC QD QH QS"), ("5H", "8D")))
    game.apply(call(0))
    game.apply(call(1))
    clock = FakeClock(0.0)
    ref: list[Arbiter] = []
    watcher = Watchful(1, 0.9, ref)
    fast = FirstLegal(0, 0.3, ref, limit=1)
    arbiter = Arbiter(game, Timing(), clock, {0: fast, 1: watcher})
    ref.append(arbiter)
    outcomes = _run(arbiter, clock, until=1.0)
    assert not [o for o in outcomes if isinstance(o, Rejected)]
    assert [now for now, _, _ in watcher.calls] == [0.0, 0.3]
    # its new plan (if any) was made from the position after the 4 landed
    assert watcher.calls[1][1].piles[0].top == game.piles[0][-1]


def test_a_watchful_agent_keeps_a_plan_that_still_fits(
    packets: Callable[..., list[list[int]]],
) -> None:
    # Player 1 plays on pile 1 (its 4 on the 5); player 2's 9 on pile 2 (the 8)
    # is untouched by that, so the watcher keeps its plan and plays it at 0.9 s.
    game = SpitGame(packets=packets(("4C 10C 10D 10H 10S", "9C QC QD QH QS"), ("5H", "8D")))
    game.apply(call(0))
    game.apply(call(1))
    clock = FakeClock(0.0)
    ref: list[Arbiter] = []
    watcher = Watchful(1, 0.9, ref, limit=1)
    fast = FirstLegal(0, 0.3, ref, limit=1)
    arbiter = Arbiter(game, Timing(), clock, {0: fast, 1: watcher})
    ref.append(arbiter)
    _run(arbiter, clock, until=1.0)
    plays = [(t, a.player) for t, a in arbiter.log if a.kind is Kind.PLAY]
    assert plays == [(0.3, 0), (0.9, 1)]
