"""The house-rule timers: when the game acts by itself (H2 calls, H3, H6, P4).

Every timer runs from a game event, never from when the arbiter happens to look:
a phase change or stalemate starts the call, slap and flip waits; a play, move
or spit restarts the stall wait (the game counts these, ``Game.phase_count``
and ``Game.progress_count``, so no event need be built to see them). A pause
shifts both starting points by its length, so a pause stops every timer.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from spit.engine import CLOSE, FLIP, STALL, SYSTEM, Action, AnyGame, Phase, call
from spit.engine.actions import PLAYERS

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
    """The one timer that runs in the game's current position, and where it runs from.

    Both the arbiter and the simulator's scheduler (``spit.bots.schedule``) keep
    their timers here: which timer runs in a phase, from when, and what it does
    when it runs out (``actions``) are decided in this class alone.
    """

    def __init__(self, timing: Timing, start: float, game: AnyGame) -> None:
        self.timing = timing
        self.game = game
        #: when the current phase (or stalemate) began: call, flip and slap waits
        self.phase_since = start
        #: the last play, move or spit (or phase change): the stall wait
        self.progress_at = start
        self._phase_count = game.phase_count
        self._progress_count = game.progress_count
        self._stall_time = timing.stall_time
        #: how long each timer that runs from the phase's start waits
        self._waits = {
            TimerKind.CALL: timing.call_wait,
            TimerKind.CLOSE: timing.slap_time,
            TimerKind.FLIP: timing.flip_delay,
        }
        self._kind = self._kind_now()
        #: the running timer as ``due`` gives it, kept up to date by ``saw``,
        #: ``spend`` and ``shift`` (for a caller that applies every action
        #: through ``saw``, as the arbiter and the simulator's scheduler do)
        self.running: Due | None = self._compute()

    def due(self) -> Due | None:
        """The running timer as (deadline, what), or None."""
        if self.game.phase_count != self._phase_count:
            # The game was changed past ``saw`` (a lesson applies keys itself):
            # the phase's timer, its waits where they were.
            self._phase_count = self.game.phase_count
            self._kind = self._kind_now()
            self.running = self._compute()
        return self.running

    def spend(self) -> None:
        """The running timer fired without effect: it must not fire again until
        the game changes (``saw``) or the waits move (``shift``)."""
        self.running = None

    def saw(self, at: float) -> None:
        """The game took an action at ``at``: restart the waits it started.

        A phase change or a stalemate (the game's ``phase_count``) starts the
        call, flip and slap waits; a play, move or spit (``progress_count``)
        restarts the stall wait.
        """
        game = self.game
        if game.phase_count != self._phase_count:
            self._phase_count = game.phase_count
            self._progress_count = game.progress_count
            self.phase_since = self.progress_at = at
            self._kind = self._kind_now()
            self.running = self._compute()
        elif game.progress_count != self._progress_count:
            self._progress_count = game.progress_count
            self.progress_at = at
            kind = self._kind
            if kind is _STALL:  # (the commonest case: a card played)
                self.running = (at + self._stall_time, kind)
            else:
                self.running = self._compute()
        else:
            self.running = self._compute()

    def shift(self, gap: float) -> None:
        """Move every wait on by ``gap`` seconds (a pause)."""
        self.phase_since += gap
        self.progress_at += gap
        self.running = self._compute()

    def actions(self, kind: TimerKind) -> list[Action]:
        """What the game does when the ``kind`` timer runs out, in order.

        H2 calls for each player who has not called in this prompt. Who that is
        is settled before the first call: the spit that the calls make may leave
        a fresh stalemate, a new prompt with its own countdown.
        """
        if kind is TimerKind.CALL:
            game = self.game
            return [call(p) for p in PLAYERS if call(p) in game.legal_actions(p)]
        return [_TIMER_ACTIONS[kind]]

    def _kind_now(self) -> TimerKind | None:
        """The timer of the game's phase (the timing actions a phase allows
        change only with the phase)."""
        game = self.game
        phase = game.phase
        if phase is Phase.GAME_OVER:
            return None
        system = game.legal_actions(SYSTEM)
        if phase is Phase.OPENING or (phase is Phase.STALEMATE and FLIP not in system):
            return TimerKind.CALL
        if FLIP in system:
            return TimerKind.FLIP
        if CLOSE in system:
            return TimerKind.CLOSE
        if STALL in system:
            return TimerKind.STALL
        return None

    def _compute(self) -> Due | None:
        kind = self._kind
        if kind is None:
            return None
        if kind is _STALL:
            return (self.progress_at + self._stall_time, kind)
        return (self.phase_since + self._waits[kind], kind)


_STALL = TimerKind.STALL
#: the action a timer makes when it runs out (H2's calls: ``Timers.actions``)
_TIMER_ACTIONS = {TimerKind.FLIP: FLIP, TimerKind.CLOSE: CLOSE, TimerKind.STALL: STALL}


__all__ = [
    "DEFAULT_FUMBLE_TIME",
    "DEFAULT_RACE_MARGIN",
    "MAX_FUMBLE_TIME",
    "Due",
    "TimerKind",
    "Timers",
    "Timing",
]
