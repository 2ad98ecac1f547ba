"""R11's exact ties: an input that goes to the engine without waiting in the queue.

The simulator's scheduler hands an input that would wait alone straight to
the engine and tells the queue (``InputQueue.alone``). That must leave the
queue exactly as queueing the input, taking it out and (if the engine took
it) accepting it would: the same priority, and the same turns within the
instant of a decided tie.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from spit.engine import call
from spit.realtime.order import InputQueue

#: one step: (time, players who send an input then, which of them the engine takes)
steps = st.lists(
    st.tuples(
        st.sampled_from([0.0, 0.5, 1.0]),
        st.sampled_from([(0,), (1,), (0, 1), (1, 0)]),
        st.lists(st.booleans(), min_size=2, max_size=2),
    ),
    max_size=30,
)


def decided(queue: InputQueue) -> tuple[object, ...]:
    """What the queue remembers of ties: all that ``alone`` may change."""
    return (queue.priority, queue._tie_at, queue._tie_next, queue._contested)


def run(history: list[tuple[float, tuple[int, ...], list[bool]]], shortcut: bool) -> list[object]:
    queue = InputQueue()
    seen: list[object] = []
    clock = 0.0
    for time, players, takes in history:
        clock = max(clock, time)
        if len(players) == 1 and shortcut:
            queue.alone(clock, players[0], takes[0])
        else:
            for p in players:
                queue.add(call(p), clock)
            for i in range(len(players)):
                item = queue.pop()
                if len(players) > 1:
                    seen.append(item.action.player)  # who went first in the tie
                if takes[i]:
                    queue.accepted(item)
        seen.append(decided(queue))
    return seen


@given(history=steps)
def test_r11_an_input_alone_leaves_the_queue_as_queueing_it_would(
    history: list[tuple[float, tuple[int, ...], list[bool]]],
) -> None:
    assert run(history, shortcut=True) == run(history, shortcut=False)


def test_r11_a_lone_input_within_a_decided_tie_is_a_turn() -> None:
    """After a tie at an instant was decided, a lone input at that instant passes
    the turn, as it would through the queue; a refused one does not."""
    for shortcut in (True, False):
        queue = InputQueue()
        queue.add(call(0), 1.0)
        queue.add(call(1), 1.0)
        first = queue.pop()
        queue.accepted(first)  # the tie at 1.0 is decided: player 1 has the next tie
        second = queue.pop()
        queue.accepted(second)
        assert queue._tie_next == 0
        if shortcut:
            queue.alone(1.0, 0, True)
        else:
            item = queue.add(call(0), 1.0)
            queue.accepted(queue.pop())
            assert item.action.player == 0
        assert queue._tie_next == 1 and queue.priority == 1
