"""Five timing bugs of the arbiter (issue 11), each pinned by its smallest case."""

from __future__ import annotations

from tests.support import FakeClock, deal

from spit.engine import STALL, Phase, SpitGame, call, card, play
from spit.realtime.arbiter import Applied, Arbiter, Outcome, Rejected, Timing

STUCK = ("8C 9C 10C JC QC", "8D 9D 10D JD QD")  # no top is next to a 5


def race_game() -> SpitGame:  # the opening spit leaves play possible (a 6 on each side fits the 5)
    return deal(("6D JC JS QC QS", "6H JD JH QD QH"), ("5C 5H", "KD KC"))


def first_calls(outcomes: list[Outcome], at: float) -> list[int]:
    return [o.action.player for o in outcomes if isinstance(o, Applied) and o.time == at]


def test_tie_priority_passes_only_when_a_tie_is_decided(clock: FakeClock) -> None:
    """Bug 1: looking at a tie while a timer fires first must not pass the priority."""
    start = clock()

    def run(ticks: list[float]) -> list[Outcome]:
        arbiter = Arbiter(race_game(), Timing(stall_time=10.0), FakeClock(start))
        for p in (0, 1):
            arbiter.submit(call(p), at=start + 0.5)  # tie 1: player 1 has priority
            arbiter.submit(call(p), at=start + 11.0)  # tie 2, after the stall at 10.5
        outcomes: list[Outcome] = []
        for t in ticks:
            outcomes += arbiter.tick(t)
        return outcomes

    once = run([start + 11.0])
    often = run([start + 0.5 * k for k in range(1, 23)])
    assert first_calls(once, start + 0.5) == [0, 1]
    assert [o.action for o in once if isinstance(o, Applied) and o.auto] == [STALL]
    assert first_calls(once, start + 11.0) == [1, 0]  # the second tie goes to player 2
    assert once == often


def test_resume_without_a_tick_fires_what_was_due_before_the_pause(clock: FakeClock) -> None:
    """Bug 2a: the opening call due at +10 fires at +10 even if nothing ticked before pause(+12)."""
    start = clock()
    arbiter = Arbiter(race_game(), Timing(stall_time=10.0), clock)
    arbiter.pause(start + 12.0)
    arbiter.resume(start + 20.0)
    outcomes = arbiter.tick(start + 30.0)
    assert [(o.action, o.time) for o in outcomes[:2]] == [
        (call(0), start + 10.0),
        (call(1), start + 10.0),
    ]


def test_resume_without_a_tick_refuses_inputs_made_in_the_pause(clock: FakeClock) -> None:
    """Bug 2b: a call stamped inside the pause is refused; the timer shifts by the pause."""
    start = clock()
    game = race_game()
    arbiter = Arbiter(game, Timing(stall_time=10.0), clock)
    arbiter.submit(call(0), at=start + 15.0)
    arbiter.pause(start + 5.0)
    arbiter.resume(start + 20.0)
    outcomes = arbiter.tick(start + 21.0)
    assert [(type(o), o.time) for o in outcomes] == [(Rejected, start + 15.0)]
    assert game.called == [False, False]
    assert arbiter.timer() == (start + 25.0, "call")


def test_auto_spit_longer_than_the_stall_time_calls_at_the_stall_time(clock: FakeClock) -> None:
    """Bug 3 (H2): the game calls within the stall time in any case."""
    start = clock()
    arbiter = Arbiter(race_game(), Timing(auto_spit=12.0, stall_time=10.0), clock)
    assert arbiter.timer() == (start + 10.0, "call")
    outcomes = arbiter.tick(start + 10.0)
    assert [o.action for o in outcomes] == [call(0), call(1)]


def test_a_fresh_stalemate_after_an_automatic_spit_gets_a_fresh_countdown(
    clock: FakeClock,
) -> None:
    """Bug 4 (R13, H2): the new stalemate's calls start over, for both players alike."""
    # Opening spit 5C/5D: stalemate; the next spit cards 5H/5S leave it stuck again.
    game = deal(STUCK, ("5C 5H", "5D 5S"))
    arbiter = Arbiter(game, Timing(stall_time=10.0), clock)
    arbiter.submit(call(0), at=clock())
    arbiter.submit(call(1), at=clock())
    arbiter.tick(clock())
    assert game.phase is Phase.STALEMATE
    start = clock()
    arbiter.submit(call(1), at=start + 1.0)  # player 2 calls; player 1 never does
    outcomes = arbiter.tick(start + 10.0)
    assert [(o.action, o.time) for o in outcomes] == [
        (call(1), start + 1.0),
        (call(0), start + 10.0),
    ]
    assert game.phase is Phase.STALEMATE and game.called == [False, False]
    assert arbiter.timer() == (start + 20.0, "call")


def test_refusals_while_paused_are_listed_in_time_order(clock: FakeClock) -> None:
    """Bug 5: ``tick`` lists outcomes in time order, refusals in a pause too."""
    game = race_game()
    arbiter = Arbiter(game, Timing(), clock)
    start = clock()
    arbiter.submit(call(0), at=start)
    arbiter.submit(call(1), at=start)
    arbiter.tick(start)
    arbiter.pause(start + 1.0)
    arbiter.submit(play(0, 0, 0), at=start + 3.0)
    arbiter.submit(play(1, 0, 0), at=start + 2.0)
    outcomes = arbiter.tick(start + 5.0)
    assert [(type(o), o.time) for o in outcomes] == [
        (Rejected, start + 2.0),
        (Rejected, start + 3.0),
    ]
    assert game.piles[0][-1] == card("5", "C")
