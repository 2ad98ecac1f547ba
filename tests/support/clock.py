"""The tests' clock: the simulator's ManualClock, starting at 100 s."""

from __future__ import annotations

from spit.realtime.clock import ManualClock


class FakeClock(ManualClock):
    """A ``ManualClock`` that starts at 100 s, so times a little before the start are valid."""

    def __init__(self, start: float = 100.0) -> None:
        super().__init__(start)
