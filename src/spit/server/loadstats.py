"""What a node measures of its own load: timer lateness and time to pair, as histograms.

Every due deadline of every match (how long after it came due the tick that
handled it ran, by its timer or by an input's tick, each deadline once) and
every quick-pair wait (from the queue request to the pairing) is counted, none
left out: a count per bucket, so adding one is cheap and a quantile over all
of them reads the buckets, never a sorted list. The buckets are 0.1 ms wide up
to 20 ms, then 1 ms up to 200 ms, 10 ms up to 2 s, 100 ms up to 20 s and 1 s
up to 300 s; a quantile is the upper edge of its bucket (never below the true
figure). ``spit server --status`` and ``benchmarks/bench_server.py`` read them
from the status file (``StatusFile``).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from pathlib import Path

#: (upper end of a range, bucket width) in seconds, in order
_RANGES = ((0.02, 0.0001), (0.2, 0.001), (2.0, 0.01), (20.0, 0.1), (300.0, 1.0))


def _layout() -> tuple[tuple[float, ...], tuple[int, ...]]:
    """Every bucket's upper edge, and the first bucket of each range."""
    edges: list[float] = []
    starts: list[int] = []
    low = 0.0
    for high, width in _RANGES:
        starts.append(len(edges))
        steps = round((high - low) / width)
        edges.extend(round(low + width * (i + 1), 6) for i in range(steps))
        low = high
    return tuple(edges), tuple(starts)


#: the upper edge of each bucket (the last bucket also takes everything above)
EDGES, _STARTS = _layout()


def bucket_of(seconds: float) -> int:
    """The bucket a duration falls in (negative durations count as 0)."""
    low = 0.0
    for (high, width), start in zip(_RANGES, _STARTS, strict=True):
        if seconds < high:
            return start + max(0, int((seconds - low) / width))
        low = high
    return len(EDGES) - 1


class Histogram:
    """Durations counted in fixed buckets (``EDGES``)."""

    __slots__ = ("counts", "total")

    def __init__(self) -> None:
        self.counts = [0] * len(EDGES)
        self.total = 0

    def add(self, seconds: float) -> None:
        """Count one duration."""
        self.counts[bucket_of(seconds)] += 1
        self.total += 1

    def merge(self, other: Histogram) -> None:
        """Add every count of ``other`` to this one."""
        for i, n in enumerate(other.counts):
            if n:
                self.counts[i] += n
        self.total += other.total

    def quantile(self, q: float) -> float:
        """The duration below which a share ``q`` of the counts lie (0 if none)."""
        return quantile_of(self.sparse(), q)

    def sparse(self) -> dict[str, int]:
        """The buckets that counted something, as ``{bucket: count}`` (for JSON)."""
        return {str(i): n for i, n in enumerate(self.counts) if n}


def quantile_of(sparse: Mapping[str, int], q: float) -> float:
    """A quantile (the upper edge of its bucket) of counts in ``Histogram.sparse`` form."""
    items = sorted((int(k), int(n)) for k, n in sparse.items() if 0 <= int(k) < len(EDGES))
    total = sum(n for _, n in items)
    if not total:
        return 0.0
    rank = max(1, -(-q * total // 1))  # the rank of the q-th value, 1-based (ceiling)
    seen = 0
    for index, n in items:
        seen += n
        if seen >= rank:
            return EDGES[index]
    return EDGES[items[-1][0]]


class LoadStats:
    """A node's measured load: every match's timer lateness, every quick-pair wait."""

    #: seconds a "recent" window covers (the status's recent figures: this and the last)
    WINDOW = 60.0

    def __init__(self, now: float) -> None:
        self.lateness = Histogram()
        self.pairing = Histogram()
        self._recent = Histogram()
        self._previous = Histogram()
        self._recent_from = now

    def timer_late(self, seconds: float) -> None:
        """A match handled a due deadline ``seconds`` after it came due."""
        self.lateness.add(seconds)
        self._recent.add(seconds)

    def paired(self, waited: float) -> None:
        """A player was paired ``waited`` seconds after asking to queue."""
        self.pairing.add(waited)

    def recent_lateness(self, now: float) -> Histogram:
        """The lateness of the last one to two windows."""
        if now - self._recent_from >= self.WINDOW:
            self._previous, self._recent = self._recent, Histogram()
            self._recent_from = now
        both = Histogram()
        both.merge(self._previous)
        both.merge(self._recent)
        return both

    def status(self, now: float) -> dict[str, object]:
        """The figures for the status file (milliseconds and seconds, and the histograms)."""
        recent = self.recent_lateness(now)
        return {
            "lateness_p99_ms": round(recent.quantile(0.99) * 1000, 2),
            "lateness_all_p99_ms": round(self.lateness.quantile(0.99) * 1000, 2),
            "lateness_wakes": self.lateness.total,
            "lateness_hist": self.lateness.sparse(),
            "pair_p95_s": round(self.pairing.quantile(0.95), 3),
            "pair_hist": self.pairing.sparse(),
        }


class StatusFile:
    """The status file, replaced whole (0600) on each write, from any thread.

    The node writes it off the event loop; the last write at shutdown (``final``)
    is never overwritten by a write still under way from before.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._final = False

    def write(self, text: str, final: bool = False) -> None:
        """Replace the file's content with ``text`` (nothing after a final write)."""
        with self._lock:
            if self._final:
                return
            tmp = self.path.with_name(self.path.name + ".tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, self.path)
            self._final = final
