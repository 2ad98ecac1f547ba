"""Process settings for a long-running ``spit server``.

The garbage collector's full passes walk every tracked object; a server's
first hundred thousand (modules, classes, the SSH and game code's own) are
made while starting and live as long as the process. ``freeze_startup``
moves them out of the collector's passes, so a full pass walks only what the
players' connections and matches made and pauses the event loop (every
match's timers) for that much less.
"""

from __future__ import annotations

import gc


def freeze_startup() -> None:
    """Collect once, then leave every object alive now out of later collections."""
    gc.collect()
    gc.freeze()
