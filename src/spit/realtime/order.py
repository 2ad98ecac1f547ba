"""The order in which waiting inputs reach the engine (R11), exact ties included.

Each input has a *stamp* (when the player made it) and a *time* (when it takes
its place in the game): the same, unless it arrived late, after the arbiter had
already run past its stamp, in which case its time is the moment it arrived.
Inputs go by time, then stamp. Inputs of both players at the very same time and
stamp are an exact tie: the player holding the priority goes first, the players
then alternate within that instant, and the priority passes to the other player
once per tie, at the moment the tie is decided (its first input is taken).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from spit.engine import Action


@dataclass(order=True, slots=True)
class Input:
    """One waiting input; ordered by (time, stamp, rank), rank being arrival order."""

    time: float
    stamp: float
    rank: int
    action: Action = field(compare=False)

    @property
    def late(self) -> bool:
        """True if it takes effect later than it was made (it arrived late)."""
        return self.time != self.stamp


class InputQueue:
    """Waiting inputs, handed out in time order with the alternating tie priority."""

    def __init__(self) -> None:
        self._items: list[Input] = []
        self._rank = 0
        #: the player (0 or 1) who goes first in the next exact tie
        self.priority = 0
        self._tie_at: tuple[float, float] | None = None  # the instant of the last tie
        self._tie_next = 0  # who goes next within that instant

    def __iter__(self) -> Iterator[Input]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def add(self, action: Action, time: float, stamp: float | None = None) -> Input:
        """Queue ``action`` to take effect at ``time`` (made at ``stamp``, default ``time``)."""
        self._rank += 1
        item = Input(time, time if stamp is None else stamp, self._rank, action)
        self._items.append(item)
        return item

    def head_time(self) -> float | None:
        """The time of the earliest waiting input, or None if none waits."""
        return min(i.time for i in self._items) if self._items else None

    def pop(self) -> Input:
        """Take the next input in order; this is when an exact tie is decided."""
        head = min(self._items)
        instant = (head.time, head.stamp)
        pick = head
        same = [i for i in self._items if i.time == head.time and i.stamp == head.stamp]
        players = {i.action.player for i in same}
        if 0 in players and 1 in players:
            if instant != self._tie_at:  # a new tie: the priority decides it, then passes
                first = self.priority
                self.priority = 1 - first
                self._tie_at = instant
            else:  # the same instant: the players alternate
                first = self._tie_next
            pick = min(i for i in same if i.action.player == first)
        if instant == self._tie_at and pick.action.player in (0, 1):
            self._tie_next = 1 - pick.action.player
        self._items.remove(pick)
        return pick

    def take_stamped(self, after: float, until: float) -> list[Input]:
        """Remove and return the inputs stamped in ``(after, until]``, in stamp order."""
        taken = sorted(
            (i for i in self._items if after < i.stamp <= until), key=lambda i: (i.stamp, i.rank)
        )
        for item in taken:
            self._items.remove(item)
        return taken

    def first_stamp_after(self, after: float) -> float | None:
        """The earliest stamp later than ``after``, or None."""
        stamps = [i.stamp for i in self._items if i.stamp > after]
        return min(stamps) if stamps else None


__all__ = ["Input", "InputQueue"]
