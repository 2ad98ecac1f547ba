"""The timing decisions of docs/realtime.md: ties, pause instants, late inputs, the hold window."""

from __future__ import annotations

from typing import Any

from tests.support import FakeClock, deal
from tests.support.timing_model import tie_winners

from spit.engine import Action, Phase, SpitGame, call, card, play
from spit.realtime.arbiter import PAUSED, Applied, Arbiter, LogEntry, Outcome, Rejected, Timing
from spit.store.replays import times_from_log


def race_game() -> SpitGame:
    # Piles 5C (left) and KD (right) after the opening. Player 1: 6D fits the 5,
    # QC and QS fit the K; player 2: 6H fits the 5, QD fits the K.
    return deal(("6D JC JS QC QS", "6H JD JH QD QH"), ("5C 5H", "KD KC"))


def opened(clock: FakeClock, timing: Timing | None = None) -> tuple[SpitGame, Arbiter]:
    """A race game after its opening spit, on a fresh arbiter (player 1 holds the priority)."""
    game = race_game()
    game.apply(call(0))
    game.apply(call(1))
    assert game.phase is Phase.PLAY
    return game, Arbiter(game, timing or Timing(), clock)


def order(outcomes: list[Outcome]) -> list[tuple[str, int]]:
    return [(type(o).__name__, o.action.player) for o in outcomes]


def reason(outcome: Outcome) -> str:
    assert isinstance(outcome, Rejected), outcome
    return outcome.reason


def run(arbiter: Arbiter, ticks: list[float]) -> list[Outcome]:
    outcomes: list[Outcome] = []
    for t in ticks:
        outcomes += arbiter.tick(t)
    return outcomes


# ------------------------------------------------------------------ exact ties


def test_three_inputs_at_one_stamp_take_turns_and_pass_the_priority_once(
    clock: FakeClock,
) -> None:
    start = clock()
    for ticks in ([start + 12.0], [start + k * 0.25 for k in range(1, 49)]):
        _game, arbiter = opened(FakeClock(start))
        t = start + 1.0
        arbiter.submit(play(0, 0, 0), at=t)  # 6D on the 5: player 1, first
        arbiter.submit(play(0, 3, 1), at=t)  # QC on the K: player 1, second
        arbiter.submit(play(1, 3, 1), at=t)  # QD on the K: player 2
        # the stall at +11 makes a stalemate; both call at the same instant
        arbiter.submit(call(0), at=start + 11.5)
        arbiter.submit(call(1), at=start + 11.5)
        outcomes = run(arbiter, ticks)
        at_once = [o for o in outcomes if o.time == t]
        # holder, other, holder: player 2's queen lands before player 1's second card
        assert order(at_once) == [("Applied", 0), ("Applied", 1), ("Rejected", 0)]
        assert at_once[1].action == play(1, 3, 1) and "Q♦" in reason(at_once[2])
        # one tie, one pass: player 2 wins the next tie
        calls = [o.action.player for o in outcomes if o.time == start + 11.5]
        assert calls == [1, 0]


def test_a_refused_input_of_the_holder_decides_no_tie(clock: FakeClock) -> None:
    start = clock()
    game, arbiter = opened(clock)
    t = start + 1.0
    arbiter.submit(play(0, 1, 0), at=t)  # JC on the 5: never legal
    arbiter.submit(play(1, 0, 0), at=t)  # 6H on the 5
    arbiter.submit(play(0, 0, 0), at=t + 1.0)  # 6D on the 6H: refused (no tie)
    arbiter.submit(play(0, 3, 1), at=t + 2.0)  # next tie: QC and QD on the K
    arbiter.submit(play(1, 3, 1), at=t + 2.0)
    outcomes = arbiter.tick(t + 2.0)
    assert order(outcomes[:2]) == [("Rejected", 0), ("Applied", 1)]
    # player 1 still holds the priority: its queen wins the next tie
    assert order(outcomes[3:]) == [("Applied", 0), ("Rejected", 1)]
    assert game.piles[1][-1] == card("Q", "C")


def test_tied_inputs_made_in_a_pause_do_not_pass_the_priority(clock: FakeClock) -> None:
    start = clock()
    game, arbiter = opened(clock)
    arbiter.pause(start + 0.5)
    arbiter.submit(play(0, 0, 0), at=start + 1.0)
    arbiter.submit(play(1, 0, 0), at=start + 1.0)
    arbiter.resume(start + 2.0)
    arbiter.submit(play(1, 0, 0), at=start + 3.0)
    arbiter.submit(play(0, 0, 0), at=start + 3.0)
    outcomes = arbiter.tick(start + 3.0)
    assert [(o.time, reason(o)) for o in outcomes[:2]] == [(start + 1.0, PAUSED)] * 2
    assert order(outcomes[2:]) == [("Applied", 0), ("Rejected", 1)]  # player 1 still first
    assert game.piles[0][-1] == card("6", "D")


class Twin:
    """Makes its first legal action a fixed delay after each change: two of them tie every time."""

    def __init__(self, delay: float) -> None:
        self.delay = delay

    def plan(self, observation: Any, now: float) -> tuple[float, Action] | None:
        return (self.delay, observation.legal[0]) if observation.legal else None


def test_exact_ties_alternate_fairly_between_equally_fast_players() -> None:
    """R11: over a whole game of exact ties each player goes first half the time,
    whatever the ticks."""
    results = []
    for every in (None, 0.1):
        clock = FakeClock(0.0)
        arbiter = Arbiter(SpitGame(seed=4), Timing(), clock, {0: Twin(0.25), 1: Twin(0.25)})
        outcomes: list[Outcome] = []
        while clock.now < 60.0 and not arbiter.game.over:
            deadline = arbiter.next_deadline()
            assert deadline is not None
            clock.now = min(deadline, 60.0) if every is None else round(clock.now + every, 6)
            outcomes += arbiter.tick(clock.now)
        winners = tie_winners(outcomes)
        assert len(winners) > 50
        assert winners == [k % 2 for k in range(len(winners))]
        results.append(outcomes)
    assert results[0] == results[1]


# ------------------------------------------------------------------ pause instants


def test_an_input_stamped_at_the_pause_instant_counts_one_at_the_resume_instant_does_not(
    clock: FakeClock,
) -> None:
    start = clock()
    p, r = start + 1.0, start + 4.0
    results = []
    for tick_first in (False, True):
        game, arbiter = opened(FakeClock(start))
        arbiter.submit(play(0, 0, 0), at=p)  # 6D, pressed as the pause began
        arbiter.submit(play(1, 3, 1), at=r)  # QD, pressed as the game resumed
        outcomes = arbiter.tick(p) if tick_first else []
        arbiter.pause(p)
        outcomes += arbiter.tick(r) if tick_first else []
        arbiter.resume(r)
        outcomes += arbiter.tick(r + 1.0)
        assert [(type(o), o.time) for o in outcomes] == [(Applied, p), (Rejected, r)]
        assert reason(outcomes[1]) == PAUSED
        results.append((outcomes, game.fingerprint()))
    assert results[0] == results[1]


# ------------------------------------------------------------------ late inputs


def test_a_late_input_is_applied_at_its_arrival_and_keeps_its_stamp(clock: FakeClock) -> None:
    start = clock()
    _game, arbiter = opened(clock)
    arbiter.tick(start + 1.0)
    arbiter.submit(play(0, 0, 0), at=start + 0.5)  # made at +0.5, arrives after the tick at +1
    (outcome,) = arbiter.tick(start + 1.2)
    assert isinstance(outcome, Applied)
    assert (outcome.time, outcome.stamped) == (start + 1.0, start + 0.5)
    (entry,) = arbiter.log
    assert entry == (start + 1.0, play(0, 0, 0)) and entry.stamped == start + 0.5
    assert isinstance(entry, LogEntry) and entry.time == start + 1.0
    # replays take the applied times: they never run back
    assert times_from_log(arbiter.log, arbiter.start_time) == [1.0]


def test_a_late_input_loses_the_race_to_a_later_press_that_arrived_first(
    clock: FakeClock,
) -> None:
    """The fairness cost: no rollback. Player 2's 6 landed; player 1's earlier 6 is refused."""
    start = clock()
    game, arbiter = opened(clock)
    arbiter.submit(play(1, 0, 0), at=start + 0.8)
    arbiter.tick(start + 1.0)
    arbiter.submit(play(0, 0, 0), at=start + 0.5)
    (refused,) = arbiter.tick(start + 1.0)
    assert isinstance(refused, Rejected) and "6" in refused.reason
    assert (refused.time, refused.stamped) == (start + 1.0, start + 0.5)
    assert game.piles[0][-1] == card("6", "H")


def test_a_timer_that_ran_out_before_a_late_input_arrived_stays_fired(clock: FakeClock) -> None:
    start = clock()
    game, arbiter = opened(clock, Timing(stall_time=10.0))
    arbiter.tick(start + 10.5)  # the stall fired at +10: a stalemate
    arbiter.submit(play(0, 0, 0), at=start + 9.0)  # a play made before the stall, arriving now
    (refused,) = arbiter.tick(start + 10.5)
    assert isinstance(refused, Rejected) and "stalemate" in refused.reason
    assert game.phase is Phase.STALEMATE


def test_late_inputs_go_by_stamp_at_the_horizon(clock: FakeClock) -> None:
    start = clock()
    _game, arbiter = opened(clock)
    arbiter.tick(start + 2.0)
    arbiter.submit(play(0, 0, 0), at=start + 1.5)  # 6D, arrives first
    arbiter.submit(play(1, 0, 0), at=start + 1.0)  # 6H, pressed earlier
    # at the horizon itself, but after the tick there: late too (issue 19, defect 10)
    arbiter.submit(play(0, 3, 1), at=start + 2.0)
    outcomes = arbiter.tick(start + 2.0)
    assert [(o.action, o.stamped) for o in outcomes] == [
        (play(1, 0, 0), start + 1.0),
        (play(0, 0, 0), start + 1.5),
        (play(0, 3, 1), start + 2.0),
    ]
    assert [type(o) for o in outcomes] == [Applied, Rejected, Applied]


def test_a_late_input_made_during_a_pause_is_refused(clock: FakeClock) -> None:
    start = clock()
    game, arbiter = opened(clock)
    arbiter.pause(start + 1.0)
    arbiter.resume(start + 3.0)
    arbiter.tick(start + 4.0)
    arbiter.submit(play(0, 0, 0), at=start + 2.0)
    (refused,) = arbiter.tick(start + 4.0)
    assert (reason(refused), refused.time, refused.stamped) == (PAUSED, start + 4.0, start + 2.0)
    assert game.piles[0][-1] == card("5", "C")


def test_a_tick_earlier_than_the_last_does_nothing(clock: FakeClock) -> None:
    start = clock()
    _game, arbiter = opened(clock, Timing(stall_time=10.0))
    arbiter.submit(play(0, 0, 0), at=start + 4.0)
    arbiter.tick(start + 3.0)
    assert arbiter.tick(start + 2.0) == []
    assert arbiter.horizon == start + 3.0
    arbiter.submit(play(1, 3, 1), at=start + 2.5)  # late: takes effect at +3
    assert arbiter.tick(start + 2.9) == []  # still earlier than the horizon
    outcomes = arbiter.tick(start + 4.0)
    assert [(o.time, o.action) for o in outcomes] == [
        (start + 3.0, play(1, 3, 1)),
        (start + 4.0, play(0, 0, 0)),
    ]
    assert arbiter.timer() == (start + 14.0, "stall")


# ------------------------------------------------------------------ the hold window


def test_a_host_holding_a_window_orders_close_races_by_stamp(clock: FakeClock) -> None:
    """A network host ticks at now - W: an input that arrives within W of its press is
    ordered by its stamp; one delayed longer is late; timers keep their game-time instants."""
    W = 0.05
    start = clock()
    game, arbiter = opened(clock, Timing(stall_time=10.0))
    # (pressed, arrives, action): player 1's 6D is pressed first but its packet is slow
    traffic = [
        (start + 1.000, start + 1.040, play(0, 0, 0)),
        (start + 1.010, start + 1.012, play(1, 0, 0)),
        (start + 2.000, start + 2.120, play(1, 3, 1)),  # 120 ms late: more than W
        (start + 2.050, start + 2.060, play(0, 3, 1)),
    ]
    outcomes: list[Outcome] = []
    now = start
    while now < start + 13.0:
        now = round(now + 0.01, 6)
        for pressed, arrives, action in [x for x in traffic if x[1] <= now]:
            arbiter.submit(action, at=pressed)
            traffic.remove((pressed, arrives, action))
        outcomes += arbiter.tick(now - W)
    played = [(o.time, o.action, o.stamped) for o in outcomes if isinstance(o, Applied)]
    assert played[0] == (start + 1.0, play(0, 0, 0), None)  # the earlier press won
    assert played[1] == (start + 2.05, play(0, 3, 1), None)  # on time, by stamp
    assert [(type(o), o.action) for o in outcomes[1:4]] == [
        (Rejected, play(1, 0, 0)),
        (Applied, play(0, 3, 1)),
        (Rejected, play(1, 3, 1)),  # late: judged at its arrival, against the QC
    ]
    late = outcomes[3]
    assert late.stamped == start + 2.0 and start + 2.05 <= late.time <= start + 2.12 - W + 0.01
    # the stall fires at its exact game time, 10 s after the last play
    stall = outcomes[-1]
    assert isinstance(stall, Applied) and stall.auto and stall.time == start + 12.05
    assert game.phase is Phase.STALEMATE
