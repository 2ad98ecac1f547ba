"""The cyclic collector's older passes between frames, not on a key's way to the screen.

Python's collector runs its passes as objects are made: a pass over the
second generation (a few milliseconds) or over everything (tens) comes in
the middle of whatever code made the object that tipped it, e.g. a key's
handler, and the key's effect shows that much later. The game screen asks,
after drawing a key, whether such a pass is near (``older_pass_near``: the
next young collection would start it) and, if so, runs it a little later
(``AFTER_FRAME``: past the key's frame, while nobody waits for anything)
with ``collect_due``. The passes are the ones Python would run, about as
often, only a little earlier.
"""

from __future__ import annotations

import gc

#: seconds after a key's drawing at which the screen runs a pass that is near: past
#: its frame (at most two of Textual's frames, 240 a second as spit runs it), before a fast next key
AFTER_FRAME = 0.02


def _near() -> int | None:
    """The older generation the next young collection would go on to (None: none)."""
    if not gc.isenabled():
        return None
    _, count1, count2 = gc.get_count()
    _, threshold1, threshold2 = gc.get_threshold()
    if threshold1 <= 0 or count1 + 1 < threshold1:
        return None
    # (this second-generation pass would be the one that makes a full one due)
    return 2 if threshold2 > 0 and count2 + 1 > threshold2 else 1


def older_pass_near() -> bool:
    """True if the next young collection would start a pass over an older generation."""
    return _near() is not None


def collect_due() -> int | None:
    """Run the older pass that is near now (``older_pass_near``); which generation was
    collected (None: none was near any more, or the collector is off)."""
    generation = _near()
    if generation is not None:
        gc.collect(generation)
    return generation
