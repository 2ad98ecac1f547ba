"""Process settings for a long-running ``spit server``.

The garbage collector's full passes walk every tracked object; a server's
first hundred thousand (modules, classes, the SSH and game code's own) are
made while starting and live as long as the process. ``freeze_startup``
moves them out of the collector's passes, so a full pass walks only what the
players' connections and matches made and pauses the event loop (every
match's timers) for that much less.
"""

from __future__ import annotations

import asyncio
import gc
import time


def freeze_startup() -> None:
    """Collect once, then leave every object alive now out of later collections."""
    gc.collect()
    gc.freeze()


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
