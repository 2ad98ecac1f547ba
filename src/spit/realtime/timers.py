"""The house-rule timers: when the game acts by itself (H2 calls, H3, H6, P4).

Every timer runs from a game event, never from when the arbiter happens to look:
a phase change or stalemate starts the call, slap and flip waits; a play, move
or spit restarts the stall wait. A pause shifts both starting points by its
length, so a pause stops every timer.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from spit.engine import CLOSE, FLIP, STALL, SYSTEM, AnyGame, Phase
from spit.engine.events import CardMoved, CardPlayed, Event, PhaseChanged, Spat, Stalemate

#: H8's defaults and limit, in seconds (the settings and replays ask these).
DEFAULT_FUMBLE_TIME = 0.5
DEFAULT_RACE_MARGIN = 0.25
MAX_FUMBLE_TIME = 2.0


@dataclass(frozen=True, slots=True)
class Timing:
    """The timing rules, in seconds.

    ``auto_spit``: H2's countdown after which the game calls "spit!" for every
    player who has not (None: players call, and the game calls for them only
    after ``stall_time``; a countdown longer than ``stall_time`` is cut to it).
    ``slap_time``: H3. ``stall_time``: H6 (and H2's call timeout).
    ``flip_delay``: the pause before Speed's side piles turn (P4).
    ``fumble_time``: H8's time-out after a fumble (0 to 2 s; 0 turns H8 off).
    ``race_margin``: H8's race margin (0 to 2 s): a refused press that would
    have fitted this long before is a lost race, not a fumble.
    """

    auto_spit: float | None = None
    slap_time: float = 3.0
    stall_time: float = 10.0
    flip_delay: float = 1.0
    fumble_time: float = DEFAULT_FUMBLE_TIME
    race_margin: float = DEFAULT_RACE_MARGIN

    def __post_init__(self) -> None:
        for name in ("slap_time", "stall_time", "flip_delay"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not 0 < value <= 3600:
                raise ValueError(f"{name} must be a number of seconds above 0")
        if self.auto_spit is not None and not (
            isinstance(self.auto_spit, (int, float)) and 0 <= self.auto_spit <= 3600
        ):
            raise ValueError("auto_spit must be a number of seconds, or None")
        for name in ("fumble_time", "race_margin"):
            value = getattr(self, name)
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or not 0 <= value <= MAX_FUMBLE_TIME
            ):
                raise ValueError(f"{name} must be 0 to {MAX_FUMBLE_TIME:g} seconds")

    @property
    def call_wait(self) -> float:
        """How long the game waits before calling for a player (H2): never past the stall time."""
        if self.auto_spit is None:
            return self.stall_time
        return min(self.auto_spit, self.stall_time)


class TimerKind(StrEnum):
    """Which timer is running (``Arbiter.timer()`` gives its deadline and kind).

    A ``StrEnum``: each equals its old string name, e.g. ``TimerKind.STALL == "stall"``.
    """

    CALL = "call"  #: H2: the game calls "spit!" (or "ready") for whoever has not
    FLIP = "flip"  #: P4: Speed's side piles turn a card onto each spit pile
    CLOSE = "close"  #: H3: the slap or choice window closes
    STALL = "stall"  #: H6: nobody has played for a while, treat it as a stalemate


#: A running timer: (deadline, kind).
Due = tuple[float, TimerKind]


class Timers:
    """The one timer that runs in the game's current position, and where it runs from."""

    def __init__(self, timing: Timing, start: float) -> None:
        self.timing = timing
        #: when the current phase (or stalemate) began: call, flip and slap waits
        self.phase_since = start
        #: the last play, move or spit (or phase change): the stall wait
        self.progress_at = start
        self._key: tuple[int, float, float] | None = None
        self._due: Due | None = None
        self._spent: tuple[int, float, float] | None = None

    def due(self, game: AnyGame) -> Due | None:
        """The running timer as (deadline, what), or None."""
        # It only changes with the game (its action count) or its starting
        # points, and the arbiter asks several times per position.
        key = (len(game.actions), self.phase_since, self.progress_at)
        if key != self._key:
            self._key = key
            self._due = None if key == self._spent else self._compute(game)
        return self._due

    def spend(self, game: AnyGame) -> None:
        """The running timer fired without effect: it must not fire again here."""
        self._spent = (len(game.actions), self.phase_since, self.progress_at)
        self._key = None

    def saw(self, events: list[Event], at: float) -> None:
        """Restart the waits that the ``events`` of an action applied ``at`` start."""
        for event in events:
            if isinstance(event, (PhaseChanged, Stalemate)):
                self.phase_since = at
                self.progress_at = at
            elif isinstance(event, (CardPlayed, CardMoved, Spat)):
                self.progress_at = at

    def shift(self, gap: float) -> None:
        """Move every wait on by ``gap`` seconds (a pause)."""
        self.phase_since += gap
        self.progress_at += gap

    def _compute(self, game: AnyGame) -> Due | None:
        phase = game.phase
        t = self.timing
        if phase is Phase.GAME_OVER:
            return None
        system = game.legal_actions(SYSTEM)
        if phase is Phase.OPENING or (phase is Phase.STALEMATE and FLIP not in system):
            return (self.phase_since + t.call_wait, TimerKind.CALL)
        if FLIP in system:
            return (self.phase_since + t.flip_delay, TimerKind.FLIP)
        if CLOSE in system:
            return (self.phase_since + t.slap_time, TimerKind.CLOSE)
        if STALL in system:
            return (self.progress_at + t.stall_time, TimerKind.STALL)
        return None


__all__ = [
    "DEFAULT_FUMBLE_TIME",
    "DEFAULT_RACE_MARGIN",
    "MAX_FUMBLE_TIME",
    "Due",
    "TimerKind",
    "Timers",
    "Timing",
]
