"""Playing a replay back in time: speed 1x/2x/4x, pause, step, restart.

No UI here: the replay viewer calls ``advance`` with the real time that has
passed and repaints the board from ``game`` and the events returned.
"""

from __future__ import annotations

from typing import Protocol

from spit.engine import Action, AnyGame
from spit.engine.events import Event

SPEEDS = (1.0, 2.0, 4.0)


class TimedGame(Protocol):
    """What playback needs of a recorded game (a saved replay is one)."""

    @property
    def timed(self) -> list[tuple[float, Action]]: ...

    @property
    def duration(self) -> float: ...

    def fresh_start(self) -> AnyGame: ...


class Playback:
    """Drives a replay's starting position with its timed actions."""

    def __init__(self, replay: TimedGame, speed: float = 1.0) -> None:
        self.replay = replay
        self.game: AnyGame = replay.fresh_start()
        self.index = 0  #: the next action to apply
        self.position = 0.0  #: replay time in seconds
        self.speed = speed
        self.paused = False

    @property
    def done(self) -> bool:
        """True once every action has been applied."""
        return self.index >= len(self.replay.timed)

    @property
    def duration(self) -> float:
        """Length of the replay in seconds."""
        return self.replay.duration

    def cycle_speed(self) -> float:
        """Go to the next speed of 1x, 2x, 4x (then back to 1x); return it."""
        later = [s for s in SPEEDS if s > self.speed]
        self.speed = later[0] if later else SPEEDS[0]
        return self.speed

    def toggle_pause(self) -> bool:
        """Pause or go on; return True if now paused."""
        self.paused = not self.paused
        return self.paused

    def advance(self, real_seconds: float) -> list[tuple[Action, list[Event]]]:
        """Move on by ``real_seconds`` of wall time (nothing while paused)."""
        if self.paused or self.done:
            return []
        self.position += max(0.0, real_seconds) * self.speed
        applied = []
        timed = self.replay.timed
        while self.index < len(timed) and timed[self.index][0] <= self.position:
            applied.append(self._apply_next())
        if self.done:
            self.position = self.duration
        return applied

    def step(self) -> list[tuple[Action, list[Event]]]:
        """Apply just the next action and jump to its time (for stepping while paused)."""
        if self.done:
            return []
        self.position = max(self.position, self.replay.timed[self.index][0])
        return [self._apply_next()]

    def restart(self) -> None:
        """Back to the start position."""
        self.game = self.replay.fresh_start()
        self.index = 0
        self.position = 0.0

    def wait(self) -> float | None:
        """Real seconds until the next action is due (None if paused or done)."""
        if self.paused or self.done:
            return None
        gap = self.replay.timed[self.index][0] - self.position
        return max(0.0, gap) / self.speed

    def _apply_next(self) -> tuple[Action, list[Event]]:
        _, action = self.replay.timed[self.index]
        self.index += 1
        return action, self.game.apply(action)
