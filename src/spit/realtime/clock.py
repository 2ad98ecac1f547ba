"""A clock that moves only when told to: the simulator's, and the tests'.

The arbiter takes any ``Clock`` (a function returning seconds). The real one
is ``time.monotonic``; ``ManualClock`` is the one a headless run (``spit sim``)
or a test moves by hand, so whole games run in no time and the same way twice.
"""

from __future__ import annotations


class ManualClock:
    """A clock reading ``now``, which only changes by ``advance`` or assignment."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        """Move on by ``seconds``; the new time."""
        self.now += seconds
        return self.now
