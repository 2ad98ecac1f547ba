"""The daily challenge: one deal per day and mode, the same for everyone, against a fixed level.

The seed is a hash of the date and the mode, so every server (and every node
of one) deals the same game on the same day without keeping anything. One
rated attempt per player per day; the store keeps the attempts, and the day's
board ranks winners first, then the fastest.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import date

#: The computer level the daily challenge is played against, unless the server says otherwise.
DEFAULT_DAILY_LEVEL = "medium"


@dataclass(frozen=True, slots=True)
class DailyChallenge:
    """One day's challenge in one mode."""

    day: date
    mode: str
    seed: int
    level: str

    def share_line(self, won: bool, seconds: float, streak: int) -> str:
        """A line to pass on: the day, the result, the time, the streak (no cards given away)."""
        result = "won" if won else "lost"
        days = f", a {streak}-day streak" if streak > 1 else ""
        mode = self.mode.capitalize()
        return (
            f"spit daily {mode} {self.day.isoformat()}: {result} against {self.level}"
            f" in {seconds:.1f} s{days}"
        )


def daily_seed(day: date, mode: str) -> int:
    """The seed of ``day``'s deal in ``mode``: a hash of both, 63 bits."""
    digest = hashlib.sha256(f"spit-daily:{mode}:{day.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def challenge_for(day: date, mode: str, level: str = DEFAULT_DAILY_LEVEL) -> DailyChallenge:
    """The challenge of ``day`` in ``mode``."""
    return DailyChallenge(day, mode, daily_seed(day, mode), level)
