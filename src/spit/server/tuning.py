"""Process settings for a long-running ``spit server``.

The garbage collector's full passes walk every tracked object; a server's
first hundred thousand (modules, classes, the SSH and game code's own) are
made while starting and live as long as the process. ``freeze_startup``
moves them out of the collector's passes, so a full pass walks only what the
players' connections and matches made and pauses the event loop (every
match's timers) for that much less. A full pass still walks every match's
objects (100-300 ms with 200 matches on a loaded 2-core machine, a pause for
every match at once), and Python starts one after every 10 passes of the middle
generation (about every 15 s under that load): ``freeze_startup`` lets
``FULL_AFTER`` middle passes go by first (about one full pass every two and a
half minutes; cyclic garbage waits that long, no longer).

The store's worker thread (SQLite) hands the interpreter's lock back and forth
with the event loop on every statement: at Python's default switch interval
(5 ms) a busy loop kept it waiting up to that long each time (150 checkpoint
writes next to a busy thread: 250-730 ms; at 1 ms, 20-50 ms), all the while
holding the store's write lock that a wave's new matches wait for.
``freeze_startup`` also sets the interval to ``SWITCH_INTERVAL``.
"""

from __future__ import annotations

import asyncio
import gc
import sys
import time

#: Passes of the middle generation before a full one is considered (Python's: 10).
FULL_AFTER = 100
#: Seconds a thread may hold the interpreter's lock while another waits for it.
SWITCH_INTERVAL = 0.001


def freeze_startup() -> None:
    """Collect once, then leave every object alive now out of later collections;
    full collections ``FULL_AFTER`` middle ones apart; threads take turns every
    ``SWITCH_INTERVAL``."""
    gc.collect()
    gc.freeze()
    young, middle, _full = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_AFTER)
    sys.setswitchinterval(SWITCH_INTERVAL)


class Slices:
    """Long work on the event loop in slices: ``pause`` lets the loop run (every
    match's ticks) once ``budget`` seconds went by since the last pause, not after
    every step (a turn of a busy loop can take longer than a step)."""

    def __init__(self, budget: float = 0.004) -> None:
        self.budget = budget
        self._since = time.perf_counter()

    async def pause(self) -> None:
        """Yield to the loop if this slice has used its budget."""
        if time.perf_counter() - self._since >= self.budget:
            await asyncio.sleep(0)
            self._since = time.perf_counter()
