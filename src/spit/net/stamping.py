"""Press stamps: when did a player press, in the host's clock, and how far to trust it?

Each connection's clock is estimated from pings, as NTP does: a ping sent at
``s`` (host clock), answered when the other clock read ``c`` and back at
``r`` says the offset lies in ``[c - r, c - s]``; the samples with the
shortest round trips say it best. The estimate is the median offset of the
quarter of the kept samples with the shortest round trips, so one jittered
sample, or the best sample leaving the window, moves it by little (ties stay
ties).

With the offset, every pong also measures the one-way delay towards the host
(the direction presses travel): ``r - (c - offset)``. A press is judged at the
guest's reading of it turned into host time, clamped: never after its
arrival, and never earlier than the arrival minus that guest's own
*allowance*, its measured one-way delay (the 90th percentile of the kept
samples) plus ``MARGIN``. A guest that lies about its press times therefore
gains at most the allowance minus its true delay: the margin plus its own
jitter, and once it has been clamped again and again the allowance drops to
its fastest measured delay plus the margin (``strict``).

The host's own seats (its keyboard, a computer on the host) are *trusted*:
their stamps come from the host's own code, so they are never clamped below
``cap``, and the lag of each press (key event to the game loop) is their
measured one-way delay. The same rule sets every seat's wait: its measured
delay plus the margin.
"""

from __future__ import annotations

import statistics
from collections import deque
from typing import NamedTuple

from spit.net.defaults import DEFAULT_CAP

#: Pings kept per connection (one a second once settled: about a minute).
SAMPLES = 64
#: Seconds added to a guest's measured one-way delay before a press counts as too early.
MARGIN = 0.003
#: The share of the measured one-way delays an honest press may take (its allowance).
QUANTILE = 0.9


class Stamp(NamedTuple):
    """How one press was judged (host clock, seconds)."""

    stamp: float  #: the time the press is judged at
    claimed: float  #: the press time the sender claimed, in host time
    clamp: float  #: how much later than claimed it is judged (0: as claimed)


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Stamper:
    """One connection's clock estimate and its stamping rule."""

    def __init__(self, cap: float = DEFAULT_CAP, *, margin: float = MARGIN) -> None:
        if not 0 <= cap <= 5:
            raise ValueError("the stamp cap must be 0..5 seconds")
        if not 0 <= margin <= 0.1:
            raise ValueError("the stamp margin must be 0..0.1 seconds")
        self.cap = cap
        self.margin = margin
        #: True for a seat on the host itself (its stamps are not clamped below the cap)
        self.trusted = False
        #: True once the sender has been clamped again and again: fastest delay + margin
        self.strict = False
        #: (round trip, their clock minus ours, ping sent, pong received)
        self._samples: deque[tuple[float, float, float, float]] = deque(maxlen=SAMPLES)
        self._their: deque[float] = deque(maxlen=SAMPLES)
        self._lags: deque[float] = deque(maxlen=SAMPLES)
        self._offset: float | None = None
        self._delays: list[float] | None = None

    @classmethod
    def local(cls, cap: float = DEFAULT_CAP) -> Stamper:
        """The stamper of a seat on the host (its keyboard, a computer): the host's
        own clock, a zero round trip; its presses' lags are its measured delay."""
        stamper = cls(cap)
        stamper.trusted = True
        stamper._samples.append((0.0, 0.0, 0.0, 0.0))
        stamper._their.append(0.0)
        stamper._offset = 0.0
        return stamper

    def add_sample(self, sent: float, their_clock: float, received: float) -> None:
        """A ping sent at ``sent`` (host clock) came back at ``received``,
        answered when the other side's clock read ``their_clock``."""
        rtt = received - sent
        if rtt < 0 or self.trusted:
            return
        offset = their_clock - (sent + received) / 2
        self._samples.append((rtt, offset, sent, received))
        self._their.append(their_clock)
        self._offset = None
        self._delays = None

    @property
    def ready(self) -> bool:
        """True once at least one ping has come back."""
        return bool(self._samples)

    @property
    def count(self) -> int:
        """How many samples the estimate rests on."""
        return len(self._samples)

    @property
    def rtt(self) -> float | None:
        """The shortest kept round trip in seconds (None before any ping)."""
        return min(s[0] for s in self._samples) if self._samples else None

    @property
    def offset(self) -> float | None:
        """Their clock minus ours, in seconds (None before any ping): the median
        offset of the kept samples with the shortest quarter of round trips."""
        if self._offset is None and self._samples:
            best = sorted(self._samples)[: max(1, len(self._samples) // 4)]
            self._offset = statistics.median(s[1] for s in best)
        return self._offset

    def delays(self) -> list[float]:
        """The measured one-way delays towards the host (seconds), oldest first."""
        if self.trusted:
            return list(self._lags) or [0.0]
        offset = self.offset
        if offset is None:
            return []
        if self._delays is None:
            self._delays = [
                max(0.0, received - (their - offset))
                for (_rtt, _off, _sent, received), their in zip(
                    self._samples, self._their, strict=True
                )
            ]
        return list(self._delays)

    @property
    def delay(self) -> float | None:
        """The typical one-way delay towards the host (the median), None before any ping."""
        delays = self.delays()
        return statistics.median(delays) if delays else None

    @property
    def jitter(self) -> float:
        """How much the one-way delay varies: its 90th percentile minus its fastest."""
        delays = self.delays()
        return _quantile(delays, QUANTILE) - min(delays) if delays else 0.0

    @property
    def allowance(self) -> float | None:
        """The most a press may be judged earlier than it arrived (None: not measured yet).

        Its measured one-way delay (90th percentile; the fastest when ``strict``)
        plus the margin, never above the cap.
        """
        delays = self.delays()
        if not delays:
            return None
        measured = min(delays) if self.strict else _quantile(delays, QUANTILE)
        return min(self.cap, measured + self.margin)

    @property
    def normal_allowance(self) -> float | None:
        """The allowance as if not ``strict`` (what counts as a clamp)."""
        delays = self.delays()
        if not delays:
            return None
        return min(self.cap, _quantile(delays, QUANTILE) + self.margin)

    def judge(self, their_press: float, arrival: float) -> Stamp:
        """How a press the other side made at ``their_press`` (its own clock) that
        arrived at ``arrival`` (ours) is judged."""
        offset = self.offset
        if offset is None:
            return Stamp(arrival, arrival, 0.0)  # nothing known yet: plain arrival order
        claimed = their_press - offset
        if self.trusted:
            lag = arrival - claimed
            if 0 <= lag <= self.cap:
                self._lags.append(lag)
            stamp = min(arrival, max(arrival - self.cap, claimed))
        else:
            allowance = self.allowance
            assert allowance is not None
            stamp = min(arrival, max(arrival - allowance, claimed))
        return Stamp(stamp, claimed, max(0.0, stamp - claimed))

    def stamp(self, their_press: float, arrival: float) -> float:
        """The host-clock stamp of a press (``judge`` without the details)."""
        return self.judge(their_press, arrival).stamp
