"""Print which bot modules run (compiled or pure) and a digest of many simulated games.

Run by tests/bots/test_compiled.py in a fresh interpreter, on the sources
and (when ``SPIT_MYPYC=1`` asks for it) on the compiled build installed for
the interpreter: both must print the same digest.
The digest covers every ordered pair of levels, several variant sets, the
kernel and the arbiter's path: each game's result, full timed log and final
engine fingerprint.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from spit.bots import LEVELS, compiled
from spit.bots.sim import Seat, play_game

VARIANT_SETS: list[tuple[str, ...]] = [(), ("V1",), ("V2",), ("V3", "V4"), ("V1", "V2", "V3", "V4")]


def digest() -> str:
    """The sha256 of every game's result, timed log and fingerprint, in order."""
    total = hashlib.sha256()

    def keep(game: Any, run: Any, index: int) -> None:
        total.update(repr((index, [(t, tuple(a)) for t, a in run.log])).encode())
        total.update(game.fingerprint().encode())

    for p1 in LEVELS:
        for p2 in LEVELS:
            seats = (Seat.parse(p1), Seat.parse(p2))
            for v, variants in enumerate(VARIANT_SETS):
                for index in range(2):
                    reference = index == 1 and v % 2 == 0  # the arbiter's path too
                    result = play_game(
                        seats, "spit", variants, 17, index, on_finish=keep, reference=reference
                    )
                    total.update(repr(result).encode())
    return total.hexdigest()


if __name__ == "__main__":
    print(json.dumps([compiled.running_compiled(), digest()]))
