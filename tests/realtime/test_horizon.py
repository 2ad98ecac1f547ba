"""An input stamped exactly at the horizon that arrives after the tick there is late
(issue 19, defect 10): applied at its arrival, after what that tick did, and marked
late, the same on every path. docs/realtime.md, *Late inputs*."""

from __future__ import annotations

import dataclasses

from hypothesis import given
from tests.realtime.test_timing_properties import SETTINGS, cases
from tests.support.timing_model import START, Case

from spit.bots.sim import new_game
from spit.engine import call
from spit.realtime.arbiter import PAUSED, Applied, Arbiter, Outcome, Rejected, Timing
from spit.realtime.clock import ManualClock

#: an exact binary fraction, far below the stamps' grid of 1/16 s
EPSILON = 2.0**-20


def test_a_call_at_the_horizon_after_its_tick_comes_after_the_other_players() -> None:
    """Spit, seed 7, default timing: P2's call stamped 0.5 was there for tick(0.5);
    P1's, stamped 0.5 too, arrives just after it: late, applied after P2's."""
    arbiter = Arbiter(new_game("spit", (), 7), Timing(), ManualClock(0.0))
    arbiter.submit(call(1), at=0.5)
    first = arbiter.tick(0.5)
    arbiter.submit(call(0), at=0.5)
    later = arbiter.tick(1.0)
    assert [(type(o), o.action, o.time, o.stamped) for o in first] == [
        (Applied, call(1), 0.5, None)
    ]
    assert [(type(o), o.action, o.time, o.stamped) for o in later[:1]] == [
        (Applied, call(0), 0.5, 0.5)
    ]
    assert [entry.stamped for entry in arbiter.log[:2]] == [None, 0.5]


def test_a_call_at_the_timers_instant_after_its_tick_is_late() -> None:
    """P1's call stamped 10.0, when the call timer runs out, arriving just after
    tick(10.0): the timer has called for both; the late call is refused, marked late."""
    arbiter = Arbiter(new_game("spit", (), 7), Timing(), ManualClock(0.0))
    fired = arbiter.tick(10.0)
    assert [(o.action, o.auto) for o in fired[:2]] == [(call(0), True), (call(1), True)]
    arbiter.submit(call(0), at=10.0)
    (refused,) = arbiter.tick(10.5)
    assert isinstance(refused, Rejected)
    assert (refused.time, refused.stamped) == (10.0, 10.0)


def drive_after(case: Case, shift: float = 0.0, again: bool = False) -> list[Outcome]:
    """Tick at each input's stamp first, then deliver the inputs stamped there (made
    ``shift`` earlier); ``again``: tick at that instant once more right after."""
    arbiter = Arbiter(case.game(), case.timing, lambda: START)
    points = [(s, 0, "tick") for s in sorted({s for s, _ in case.inputs})]
    points += [(p, 1, "pause") for p, _ in case.pauses]
    points += [(r, 1, "resume") for _, r in case.pauses if r is not None]
    outcomes: list[Outcome] = []
    for t, _, what in sorted(points):
        if what == "pause":
            arbiter.pause(t)
        elif what == "resume":
            arbiter.resume(t)
        else:
            outcomes += arbiter.tick(t)
            for stamp, action in case.inputs:
                if stamp == t:
                    arbiter.submit(action, at=stamp - shift)
            if again:
                outcomes += arbiter.tick(t)
    outcomes += arbiter.tick(case.end)
    return outcomes


def unshifted(outcomes: list[Outcome], shift: float) -> list[Outcome]:
    """The outcomes with each late input's stamp moved ``shift`` later."""
    out: list[Outcome] = []
    for o in outcomes:
        fields = {f: getattr(o, f) for f in o.__slots__}
        if o.stamped is not None:
            fields["stamped"] = o.stamped + shift
        elif isinstance(o, Rejected) and o.reason == PAUSED:
            fields["time"] = o.time + shift  # refused for the pause at its own stamp
        out.append(type(o)(**fields))
    return out


@SETTINGS
@given(case=cases())
def test_inputs_at_the_horizon_after_the_tick_are_late_inputs(case: Case) -> None:
    """Delivered just after the tick at their own stamp, inputs are late: each says
    when it was made, and the game goes exactly as for inputs made a moment before
    (a late input goes by stamp at the horizon), whether the next tick comes at
    that same instant or later.

    H8 is off here: its race-margin window starts exactly a margin before the
    stamp, so a stamp moved by a moment can put a position on the other side of
    that window's edge. H8 under every tick pattern is the timing model's
    (``check_fumbles``, tests/realtime/test_timing_properties.py).
    """
    case = dataclasses.replace(case, timing=dataclasses.replace(case.timing, fumble_time=0.0))
    at_horizon = drive_after(case)
    for o in at_horizon:
        if isinstance(o, Applied) and o.auto:
            continue
        if isinstance(o, Rejected) and o.reason == PAUSED:
            continue  # refused for the pause at its own stamp, as every pause input
        assert o.stamped is not None, f"{o} arrived after the tick at its stamp: late"
        assert o.stamped <= o.time
    assert unshifted(drive_after(case, shift=EPSILON), EPSILON) == at_horizon
    assert drive_after(case, again=True) == at_horizon
