"""Press stamps: when did a player press, in the host's clock, and how far to trust it?

Each connection's clock is estimated from pings, as NTP does, from the
fastest trips: a ping sent at ``s`` (host clock), answered when the other
clock read ``c`` and back at ``r`` says the offset (their clock minus ours)
lies in ``[c - r, c - s]``, and every kept sample narrows it. The estimate is
the middle of what is left, ``(max(c - r) + min(c - s)) / 2``: it rests on the
fastest trip each way, so jitter, which only ever adds delay, cannot move it;
it is off by half the difference between the fastest trips out and back (a
link slower one way than the other). If the samples disagree (a clock that
drifts), the offset of the sample with the shortest round trip is used.

With the offset, every pong also measures the one-way delay towards the host
(the direction presses travel): ``r - (c - offset)``. A press is judged at the
guest's reading of it turned into host time, clamped: never after its
arrival, and never earlier than the arrival minus that guest's own
*allowance*: its measured one-way delay (the median of the kept samples) plus
``MARGIN``. A guest that lies about its press times therefore gains the
margin on a typical press (a press that happens to travel faster than usual
gains its head start too), and an honest press slower than usual by more
than the margin is judged that much late. Once a guest's presses have been
clamped again and again (8 of its last 10), the margin is taken away
(``strict``) until they fit again (3 or fewer of the last 10 clamped).

The host's own seats (its keyboard, a computer on the host) are *trusted*:
their stamps come from the host's own code, so they are never clamped below
``cap``, and the lag of each press (key event to the game loop) is their
measured one-way delay. The same rule sets every seat's wait: its measured
delay plus the margin.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections import deque
from typing import NamedTuple

from spit.net.defaults import DEFAULT_CAP

#: Pings kept per connection (four a second once settled: about half a minute).
SAMPLES = 128
#: Seconds added to a guest's measured one-way delay before a press counts as too early.
MARGIN = 0.005
#: The jitter is the spread of the measured delays from the fastest to this quantile.
QUANTILE = 0.9


class Stamp(NamedTuple):
    """How one press was judged (host clock, seconds)."""

    stamp: float  #: the time the press is judged at
    claimed: float  #: the press time the sender claimed, in host time
    clamp: float  #: how much later than claimed it is judged (0: as claimed)


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _median_sorted(ordered: list[float]) -> float:
    """``statistics.median`` of a list already sorted."""
    n = len(ordered)
    if n % 2:
        return ordered[n // 2]
    return (ordered[n // 2 - 1] + ordered[n // 2]) / 2


class _Extreme:
    """The largest (or smallest) of the last ``SAMPLES`` values, kept as they come."""

    __slots__ = ("_largest", "_window")

    def __init__(self, largest: bool) -> None:
        self._largest = largest
        self._window: deque[tuple[int, float]] = deque()  # (sample number, value)

    def add(self, number: int, value: float) -> None:
        window = self._window
        if self._largest:
            while window and window[-1][1] <= value:
                window.pop()
        else:
            while window and window[-1][1] >= value:
                window.pop()
        window.append((number, value))
        while window[0][0] <= number - SAMPLES:
            window.popleft()

    @property
    def value(self) -> float:
        return self._window[0][1]


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
        # Kept as the samples come, so no estimate walks every sample (pongs come
        # four times a second and the hold window is re-estimated as often):
        # the bounds on the offset, the shortest round trip, and every sample's
        # received - their clock, sorted (a delay is that plus the offset).
        self._added = 0
        self._low = _Extreme(largest=True)
        self._high = _Extreme(largest=False)
        self._fastest = _Extreme(largest=False)
        self._gaps: list[float] = []

    @classmethod
    def local(cls, cap: float = DEFAULT_CAP) -> Stamper:
        """The stamper of a seat on the host (its keyboard, a computer): the host's
        own clock, a zero round trip; its presses' lags are its measured delay."""
        stamper = cls(cap)
        stamper._keep(0.0, 0.0, 0.0, 0.0)
        stamper.trusted = True
        stamper._offset = 0.0
        return stamper

    def add_sample(self, sent: float, their_clock: float, received: float) -> None:
        """A ping sent at ``sent`` (host clock) came back at ``received``,
        answered when the other side's clock read ``their_clock``."""
        rtt = received - sent
        if rtt < 0 or self.trusted:
            return
        self._keep(rtt, sent, their_clock, received)

    def _keep(self, rtt: float, sent: float, their_clock: float, received: float) -> None:
        if len(self._samples) == SAMPLES:  # the oldest goes
            oldest_received, oldest_their = self._samples[0][3], self._their[0]
            gaps = self._gaps
            del gaps[bisect_left(gaps, oldest_received - oldest_their)]
        offset = their_clock - (sent + received) / 2
        self._samples.append((rtt, offset, sent, received))
        self._their.append(their_clock)
        number = self._added
        self._added += 1
        self._low.add(number, their_clock - received)
        self._high.add(number, their_clock - sent)
        self._fastest.add(number, rtt)
        insort(self._gaps, received - their_clock)
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
        return self._fastest.value if self._samples else None

    @property
    def offset(self) -> float | None:
        """Their clock minus ours, in seconds (None before any ping): the middle of
        the offsets every kept sample allows (see the module's docstring)."""
        if self._offset is None and self._samples:
            low, high = self._low.value, self._high.value
            if low <= high:
                self._offset = (low + high) / 2
            else:  # the clocks drift apart: the sample with the shortest round trip
                self._offset = min(self._samples)[1]
        return self._offset

    def _pairs(self) -> zip[tuple[tuple[float, float, float, float], float]]:
        return zip(self._samples, self._their, strict=True)

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
                for (_rtt, _off, _sent, received), their in self._pairs()
            ]
        return list(self._delays)

    def _sorted_delays(self, *at: int) -> list[float] | None:
        """The delays at these places of their sorted order (negative: from the end),
        None before any ping; read from the kept sorted samples, not sorted anew."""
        if self.trusted:
            ordered = sorted(self._lags) or [0.0]
            return [ordered[i] for i in at]
        offset = self.offset
        if offset is None:
            return None
        gaps = self._gaps
        return [max(0.0, gaps[i] + offset) for i in at]

    def _median(self) -> float | None:
        n = len(self._lags) if self.trusted else len(self._gaps)
        if self.trusted and n == 0:
            return 0.0
        if n % 2:
            middle = self._sorted_delays(n // 2)
            return None if middle is None else middle[0]
        pair = self._sorted_delays(n // 2 - 1, n // 2)
        return None if pair is None else _median_sorted(pair)

    @property
    def delay(self) -> float | None:
        """The typical one-way delay towards the host (the median), None before any ping."""
        return self._median()

    @property
    def jitter(self) -> float:
        """How much the one-way delay varies: its 90th percentile minus its fastest."""
        n = (len(self._lags) or 1) if self.trusted else len(self._gaps)
        ends = self._sorted_delays(min(n - 1, int(QUANTILE * n)), 0) if n else None
        return ends[0] - ends[1] if ends else 0.0

    @property
    def allowance(self) -> float | None:
        """The most a press may be judged earlier than it arrived (None: not measured yet).

        Its measured one-way delay (the median) plus the margin (none when
        ``strict``), never above the cap.
        """
        median = self._median()
        if median is None:
            return None
        margin = 0.0 if self.strict else self.margin
        return min(self.cap, median + margin)

    def too_early(self, claimed: float, arrival: float) -> bool:
        """True if a press claims to be earlier than the normal allowance (the median
        delay plus the margin) lets it: what "clamped again and again" counts, also
        while ``strict``. An honest press does so when it travels slower than usual
        by more than the margin; a liar's does so most of the time."""
        if self.trusted:
            return False
        median = self._median()
        if median is None:
            return False
        return arrival - claimed > min(self.cap, median + self.margin)

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
