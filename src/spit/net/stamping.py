"""Press stamps: when did a player press, in the host's clock?

Each connection's clock offset and round-trip time are estimated from pings
(the sample with the smallest round trip is the most trustworthy). An action
carries the guest's own clock reading of the press; the host turns it into
host time with the offset, then clamps it: never later than the arrival, never
more than ``cap`` seconds earlier. A guest who lies about its press times
therefore gains at most ``cap``; an honest guest on a slow link is judged by
when it pressed, not by when its message arrived. Every seat, the host's own
keyboard included, goes through the same rule (the keyboard's link has a zero
round trip and a zero offset).
"""

from __future__ import annotations

from collections import deque

#: Pings kept per connection for the estimate.
SAMPLES = 16
#: The default cap (seconds): the most a stamp may lie before the arrival.
DEFAULT_CAP = 0.15


class Stamper:
    """One connection's clock estimate and its stamping rule."""

    def __init__(self, cap: float = DEFAULT_CAP) -> None:
        if not 0 <= cap <= 5:
            raise ValueError("the stamp cap must be 0..5 seconds")
        self.cap = cap
        self._samples: deque[tuple[float, float]] = deque(maxlen=SAMPLES)

    @classmethod
    def local(cls, cap: float = DEFAULT_CAP) -> Stamper:
        """The stamper of a zero-delay link in the host's own clock (its keyboard)."""
        stamper = cls(cap)
        stamper._samples.append((0.0, 0.0))
        return stamper

    def add_sample(self, sent: float, their_clock: float, received: float) -> None:
        """A ping sent at ``sent`` (host clock) came back at ``received``,
        answered when the other side's clock read ``their_clock``."""
        rtt = received - sent
        if rtt < 0:
            return
        offset = their_clock - (sent + received) / 2
        self._samples.append((rtt, offset))

    @property
    def ready(self) -> bool:
        """True once at least one ping has come back."""
        return bool(self._samples)

    def _best(self) -> tuple[float, float] | None:
        return min(self._samples) if self._samples else None

    @property
    def rtt(self) -> float | None:
        """The best round-trip estimate in seconds (None before any ping)."""
        best = self._best()
        return None if best is None else best[0]

    @property
    def offset(self) -> float | None:
        """Their clock minus ours, in seconds (None before any ping)."""
        best = self._best()
        return None if best is None else best[1]

    def stamp(self, their_press: float, arrival: float) -> float:
        """The host-clock stamp of a press the other side made at ``their_press``
        (its own clock) that arrived at ``arrival`` (ours)."""
        best = self._best()
        # nothing known yet: plain arrival order
        estimate = arrival if best is None else their_press - best[1]
        return min(arrival, max(arrival - self.cap, estimate))
