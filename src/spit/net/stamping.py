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
arrival, and never earlier than the arrival minus that guest's own *reach*:
the ``REACH`` quantile (95%) of its measured delays less ``SLACK``, but at
least ``MARGIN`` (3 ms) and at most ``SPREAD`` (10 ms) over their median.

No single press carries evidence of its own delay that its sender could not
fake, so the reach is the trade between the two kinds of press: an honest
press is judged ``max(0, delay - reach)`` late, a lying one gains at most
``reach - delay``. With this reach an honest press is judged at most the
slack late unless it travelled slower than 19 in 20 of its guest's pings
(so a lead of more than the slack wins 95% of races), and a lie gains at
most the 95% quantile less the slack over the median on a press of median
delay: on a ±10 ms link (95% quantile 9 ms over the median) that is
``9 ms - SLACK``, 7 ms. The slack also takes up what the press's own path
adds over a pong's (about 2 ms at the median in
``benchmarks/bench_fairness.py``). On a link jittering by more than about
±15 ms the spread caps the reach, and honest presses slower than the median
plus 10 ms are judged late.

Three statistics over a guest's presses see liars that lie often. The *shift*:
an honest guest's presses claim, on average, the earliness its pings measure;
a liar's claim more. Over the guest's last ``SHIFT_SPAN`` presses the host
compares the mean claimed earliness (each taken between the 5% quantile of the
delays and the reach, so neither a lost packet nor a press claimed late weighs
more than an honest one can) with the mean of the pings' delays taken the same
way (a press that arrived behind another message, which may have waited behind
a lost one, counts at most that mean). Whatever that shift exceeds ``ERRORS``
standard errors of its mean by (the spread of the pings over the square root
of the presses so far; at least ``TOLERANCE``), every press is judged that
much later (never after its arrival): a liar claiming the same lie on every
press is caught within a few presses. The mean is as noisy as the link (a
uniform ±10 ms jitters by 5.8 ms a press), so a lie of a few ms takes many
presses to show in it; the *floor* sees it sooner: a liar claiming the same lie
on every press claims it over its fastest trips too, where a link jitters
least. The least earliness the last ``n`` presses claimed (taken as above) is,
for an honest guest, over the pings' ``1 - FLOOR_RISK ** (1 / n)`` quantile
(the one the least of ``n`` pings reaches) only one time in 10; whatever it is
over that by more than ``TOLERANCE``, every press is judged that much later
(from ``FLOOR_PRESSES`` presses on; the quantile is taken as at least the
fastest of the ``RECENT`` latest pings, so a link that gets slower, whose
presses claim what its latest pings measure, is judged later only until that
many pings have come back over it). The *far-fetched* presses: a press
claiming more than the reach plus the spread is honest only when its own
packet was lost (the messages that waited behind a lost one arrive in the same
read as it, and are not counted), about as often as pings travel that slowly.
A guest whose last ``FETCHED_SPAN`` presses hold more far-fetched ones than
that (see ``Stamper.suspect``; a liar claiming a second early on one press in
five is suspect within about 30 presses) has every press judged at least its
reach over its median delay later, so a lie gains nothing at the median. What
none of them sees is a liar who lies rarely (only the close races: its honest
presses keep the floor down), or by little (as much as a slow honest press
claims): the reach is what bounds it.

The host's own seats (its keyboard, a computer on the host) are *trusted*:
their stamps come from the host's own code, so they are never clamped below
``cap`` nor shifted, and the lag of each press (key event to the game loop)
is their measured one-way delay. The same rule sets every seat's wait: its
reach.
"""

from __future__ import annotations

import bisect
import math
import statistics
from collections import deque
from typing import NamedTuple

from spit.net.defaults import DEFAULT_CAP

#: Seconds by which two bounds on the offset that are equal may cross in floating point
#: (clocks of 10^4 s carry errors of ~10^-12 s): still one offset, not drift.
ROUNDING = 1e-9

#: Pings kept per connection (four a second once settled: about half a minute).
SAMPLES = 128
#: The quantile of a guest's measured one-way delays the reach is read from ...
REACH = 0.95
#: ... less this many seconds: an honest press is judged at most this much later than it
#: was made unless it travelled slower than the ``REACH`` quantile of the pings.
SLACK = 0.002
#: The reach is never less than this many seconds over the median delay (a link that
#: hardly jitters: what the host's and the guest's event loops add) ...
MARGIN = 0.003
#: ... and never more than this many seconds over it (a lost packet, a busy moment or
#: pongs held back on purpose widen it no further).
SPREAD = 0.010
#: A guest's last presses the shift is measured over.
SHIFT_SPAN = 32
#: The shift tolerated: this many standard errors of the mean over the presses so far ...
ERRORS = 1.5
#: ... and never less than this many seconds (pings and presses differ a little).
TOLERANCE = 0.001
#: The *floor*: the least earliness an honest guest's last ``n`` presses claimed is over
#: the pings' ``1 - FLOOR_RISK ** (1 / n)`` quantile (the one the least of ``n`` pings
#: reaches) in only this share of cases.
FLOOR_RISK = 0.1
#: The floor counts from this many presses (a few slow presses say nothing of a lie).
FLOOR_PRESSES = 8
#: ... and its quantile is at least the fastest of this many latest pings (a link that
#: got slower: its presses claim what its latest pings measure, not a lie).
RECENT = 32
#: Presses judged this much later for their shift (seconds): the guest is told.
TOLD = 0.003
#: The lower end of the range each earliness is taken within (a quantile of the delays).
LOW = 0.05
#: The jitter is the spread of the measured delays from the fastest to this quantile.
QUANTILE = 0.9
#: A press is *far-fetched* if it claims more than its reach plus ``SPREAD`` and did not
#: arrive behind another message: an honest one is when its own packet was lost, as
#: often as pongs travel that slowly (the messages that waited behind a lost one arrive
#: together with it, and count once). A guest is *suspect* while its last
#: ``FETCHED_SPAN`` presses hold at least ``FETCHED`` far-fetched ones and more than its
#: pongs predict (taken as at least ``LOSS``: 128 pings may have seen no lost packet) by
#: ``SIGMAS`` standard deviations (plus one).
FETCHED_SPAN = 64
FETCHED = 6
LOSS = 0.02
SIGMAS = 3.0


class Stamp(NamedTuple):
    """How one press was judged (host clock, seconds)."""

    stamp: float  #: the time the press is judged at
    claimed: float  #: the press time the sender claimed, in host time
    clamp: float  #: how much later than claimed it is judged (0: as claimed)


def _pick(ordered: list[float], q: float) -> float:
    """The ``q`` quantile of values already in order (the one at or just above it)."""
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _quantile(values: list[float], q: float) -> float:
    return _pick(sorted(values), q)


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
        #: (round trip, their clock minus ours, ping sent, pong received)
        self._samples: deque[tuple[float, float, float, float]] = deque(maxlen=SAMPLES)
        #: each kept sample's bounds on the offset: their clock minus when the pong came
        #: back (a low bound) and minus when the ping went (a high bound)
        self._low: deque[float] = deque(maxlen=SAMPLES)
        self._high: deque[float] = deque(maxlen=SAMPLES)
        self._lags: deque[float] = deque(maxlen=SAMPLES)
        #: the earliness each of the last presses claimed, within ``_range``
        self._claims: deque[float] = deque(maxlen=SHIFT_SPAN)
        #: whether each of the last presses was far-fetched
        self._fetched: deque[bool] = deque(maxlen=FETCHED_SPAN)
        self._offset: float | None = None
        self._delays: list[float] | None = None
        self._measure: tuple[float, float, float, float, float, float] | None = None
        #: the measured delays in order (with ``_measure``)
        self._ordered: list[float] = []

    @classmethod
    def local(cls, cap: float = DEFAULT_CAP) -> Stamper:
        """The stamper of a seat on the host (its keyboard, a computer): the host's
        own clock, a zero round trip; its presses' lags are its measured delay."""
        stamper = cls(cap)
        stamper.trusted = True
        stamper._samples.append((0.0, 0.0, 0.0, 0.0))
        stamper._low.append(0.0)
        stamper._high.append(0.0)
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
        self._low.append(their_clock - received)
        self._high.append(their_clock - sent)
        self._offset = None
        self._delays = None
        self._measure = None

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
        """Their clock minus ours, in seconds (None before any ping): the middle of
        the offsets every kept sample allows (see the module's docstring)."""
        if self._offset is None and self._samples:
            low, high = max(self._low), min(self._high)
            if low <= high + ROUNDING:  # equal bounds may cross by a rounding error
                self._offset = (low + high) / 2
            else:  # the clocks drift apart: the sample with the shortest round trip
                self._offset = min(self._samples)[1]
        return self._offset

    def delays(self) -> list[float]:
        """The measured one-way delays towards the host (seconds), oldest first."""
        if self.trusted:
            return list(self._lags) or [0.0]
        offset = self.offset
        if offset is None:
            return []
        if self._delays is None:
            # received - (their - offset), each sample's (kept as their - received)
            self._delays = [max(0.0, offset - low) for low in self._low]
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

    def _measured(self) -> tuple[float, float, float, float, float, float] | None:
        """(low end, reach, the pings' mean delay within them, its standard deviation,
        the median delay, the share of pings slower than the reach plus ``SPREAD``),
        None before any ping."""
        if self._measure is None or self.trusted:  # every change of the samples clears it
            delays = self.delays()
            if not delays:
                return None
            # one sort for the median and the quantiles; the spread in floats (the
            # statistics module's exact sums cost ~0.5 ms a call with 128 samples)
            ordered = self._ordered = sorted(delays)
            median = statistics.median(ordered)
            over = min(SPREAD, max(self.margin, _pick(ordered, REACH) - SLACK - median))
            reach = min(self.cap, median + over)
            low = min(reach, _pick(ordered, LOW))
            # each delay taken within [low, reach]: in order, the ends are runs of both
            first, last = bisect.bisect_right(ordered, low), bisect.bisect_left(ordered, reach)
            within = [low] * first + ordered[first:last] + [reach] * (len(ordered) - last)
            mean = math.fsum(within) / len(within)
            deviation = math.sqrt(math.fsum([(d - mean) ** 2 for d in within]) / len(within))
            slow = len(ordered) - bisect.bisect_right(ordered, reach + SPREAD)
            self._measure = (low, reach, mean, deviation, min(reach, median), slow / len(ordered))
        return self._measure

    @property
    def allowance(self) -> float | None:
        """The most one press may be judged earlier than it arrived (None: not measured
        yet): the reach, the ``REACH`` quantile of the measured delays less ``SLACK``,
        at least the margin and at most ``SPREAD`` over their median, never above the
        cap."""
        measured = self._measured()
        return None if measured is None else measured[1]

    @property
    def shift(self) -> float:
        """How much more earliness the last presses claimed than the pings measure
        (seconds, the mean over up to ``SHIFT_SPAN`` presses; 0 for a trusted seat)."""
        measured = self._measured()
        if self.trusted or measured is None or not self._claims:
            return 0.0
        return statistics.fmean(self._claims) - measured[2]

    @property
    def far_fetched(self) -> int:
        """How many of the last ``FETCHED_SPAN`` presses were far-fetched."""
        return sum(self._fetched)

    @property
    def suspect(self) -> bool:
        """True while more of the last presses are far-fetched (claim more than the
        reach plus ``SPREAD``, not behind another message) than the pings can explain:
        at least ``FETCHED`` of them, and more than the share of pings that slow (at
        least ``LOSS``) predicts by ``SIGMAS`` standard deviations plus one (False for
        a trusted seat)."""
        measured = self._measured()
        if self.trusted or measured is None or not self._fetched:
            return False
        count, share = self.far_fetched, max(LOSS, measured[5])
        expected = len(self._fetched) * share
        return count >= FETCHED and count > (
            expected + SIGMAS * math.sqrt(expected * (1 - share)) + 1
        )

    @property
    def correction(self) -> float:
        """How much later than claimed the next press is judged (seconds): for the
        shift, whatever it exceeds ``ERRORS`` standard errors of its mean by (at least
        ``TOLERANCE``; the pings' spread taken as at least the margin), or the floor
        exceeds ``TOLERANCE`` by, whichever is more, so an honest guest is seldom
        judged later, and then by little; and while the guest is
        ``suspect``, at least its reach over its median delay (a lie is then judged
        no earlier than the median delay allows)."""
        measured = self._measured()
        if self.trusted or measured is None or not self._claims:
            return 0.0
        spread = max(self.margin, measured[3])  # a link that seems not to jitter at all
        tolerance = max(TOLERANCE, ERRORS * spread / math.sqrt(len(self._claims)))
        shifted = max(0.0, self.shift - tolerance, self.floor - TOLERANCE)
        return max(shifted, measured[1] - measured[4]) if self.suspect else shifted

    @property
    def floor(self) -> float:
        """How much more earliness the least of the last presses claimed than the least
        of as many pings would take but once in 10 (seconds; 0 for a trusted seat and
        under ``FLOOR_PRESSES`` presses): the ``1 - FLOOR_RISK ** (1 / n)`` quantile of
        the delays, for ``n`` presses, or the fastest of the ``RECENT`` latest pings
        if that is more (a link that got slower). Every
        press of a liar who claims the same lie on each one claims it over the fastest
        trip too, where a link jitters least: the floor sees a lie of a few ms that the
        mean of the presses, as noisy as the link, does not."""
        measured = self._measured()
        if self.trusted or measured is None or len(self._claims) < FLOOR_PRESSES:
            return 0.0
        quantile = 1.0 - FLOOR_RISK ** (1.0 / len(self._claims))
        recent = min(self.delays()[-RECENT:])
        return min(self._claims) - max(recent, _pick(self._ordered, quantile))

    def forget_presses(self) -> None:
        """Start the shift and the count of far-fetched presses afresh (a new game on
        the same connection)."""
        self._claims.clear()
        self._fetched.clear()

    def judge(self, their_press: float, arrival: float, behind: bool = False) -> Stamp:
        """How a press the other side made at ``their_press`` (its own clock) that
        arrived at ``arrival`` (ours) is judged; ``behind``: it came in the same read
        as another message (it may have waited behind a lost one)."""
        offset = self.offset
        if offset is None:
            return Stamp(arrival, arrival, 0.0)  # nothing known yet: plain arrival order
        claimed = their_press - offset
        if self.trusted:
            lag = arrival - claimed
            if 0 <= lag <= self.cap:
                self._lags.append(lag)
            self._measure = None
            stamp = min(arrival, max(arrival - self.cap, claimed))
        else:
            measured = self._measured()
            assert measured is not None
            low, reach = measured[0], measured[1]
            earliness = min(reach, max(low, arrival - claimed))
            # a press that may have waited behind a lost message counts no more than
            # the pings' mean towards the shift
            self._claims.append(min(earliness, measured[2]) if behind else earliness)
            self._fetched.append(not behind and arrival - claimed > reach + SPREAD)
            stamp = min(arrival, max(arrival - reach, claimed) + self.correction)
        return Stamp(stamp, claimed, max(0.0, stamp - claimed))

    def stamp(self, their_press: float, arrival: float, behind: bool = False) -> float:
        """The host-clock stamp of a press (``judge`` without the details)."""
        return self.judge(their_press, arrival, behind).stamp
