"""The order in which waiting inputs reach the engine (R11), exact ties included.

Each input has a *stamp* (when the player made it) and a *time* (when it takes
its place in the game): the same, unless it arrived late, after the arbiter had
already run past its stamp, in which case its time is the moment it arrived.
Inputs go by time, then stamp, then arrival. Inputs of both players at the very
same time and stamp are an exact tie: the player holding the priority goes
first. The tie is decided when the engine accepts the first of them; only then
does the priority pass to the other player (once per tie), and the players take
turns for the rest of that instant. A refused input decides nothing: it is as
if it had never been sent.
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
    #: when the position the player acted on stood, if not at ``stamp`` (H8)
    seen: float | None = field(default=None, compare=False)

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
        self._contested: tuple[float, float] | None = None  # the last pop was a tie there

    def __iter__(self) -> Iterator[Input]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def add(
        self, action: Action, time: float, stamp: float | None = None, seen: float | None = None
    ) -> Input:
        """Queue ``action`` to take effect at ``time`` (made at ``stamp``, default ``time``;
        ``seen``: when the position it was made on stood, if earlier)."""
        self._rank += 1
        item = Input(time, time if stamp is None else stamp, self._rank, action, seen)
        self._items.append(item)
        return item

    def head_time(self) -> float | None:
        """The time of the earliest waiting input, or None if none waits."""
        items = self._items
        if len(items) < 2:
            return items[0].time if items else None
        return min(i.time for i in items)

    def pop(self) -> Input:
        """Take the next input in order (call ``accepted`` if the engine takes it)."""
        self._contested = None
        if len(self._items) == 1:  # the common case: nothing to order
            return self._items.pop()
        head = min(self._items)
        instant = (head.time, head.stamp)
        pick = head
        same = [i for i in self._items if i.time == head.time and i.stamp == head.stamp]
        players = {i.action.player for i in same}
        if 0 in players and 1 in players:
            # An exact tie: the priority holder goes first, unless this tie was
            # already decided, in which case the players take turns.
            first = self._tie_next if instant == self._tie_at else self.priority
            pick = min(i for i in same if i.action.player == first)
            self._contested = instant
        self._items.remove(pick)
        return pick

    def accepted(self, item: Input) -> None:
        """The engine applied ``item``: if it won a tie, the tie is decided now."""
        player = item.action.player
        if player not in (0, 1):
            return
        instant = (item.time, item.stamp)
        if instant == self._contested and instant != self._tie_at:
            self.priority = 1 - player  # decided: the other player has the next tie
            self._tie_at = instant
        if instant == self._tie_at:
            self._tie_next = 1 - player

    def alone(self, time: float, player: int, applied: bool) -> None:
        """An input of ``player`` made at ``time`` that would have waited alone
        went to the engine without being queued (``applied``: it took it).

        The same as ``add``, ``pop`` and (if applied) ``accepted`` of it: a lone
        input decides no tie, but within the instant of a decided tie it is a turn.
        """
        self._contested = None
        tie = self._tie_at
        if applied and tie is not None and tie[0] == time and tie[1] == time:
            self._tie_next = 1 - player

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
