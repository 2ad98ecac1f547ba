"""The arbiter's timers by name: what runs out, and what the game does then."""

from __future__ import annotations

from enum import StrEnum


class TimerKind(StrEnum):
    """Which timer is running (``Arbiter.timer()`` gives its deadline and kind).

    A ``StrEnum``: each equals its old string name, e.g. ``TimerKind.STALL == "stall"``.
    """

    CALL = "call"  #: H2: the game calls "spit!" (or "ready") for whoever has not
    FLIP = "flip"  #: P4: Speed's side piles turn a card onto each spit pile
    CLOSE = "close"  #: H3: the slap or choice window closes
    STALL = "stall"  #: H6: nobody has played for a while, treat it as a stalemate
