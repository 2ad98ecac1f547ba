"""Playing a replay back in time: speed 1x to 16x, pause, step, restart, and
jumps to the end or to the next or previous round.

No UI here: the replay viewer calls ``advance`` with the real time that has
passed and repaints the board from ``game`` and the events returned.
"""

from __future__ import annotations

from typing import Protocol

from spit.engine import Action, AnyGame
from spit.engine.events import Event

SPEEDS = (1.0, 2.0, 4.0, 8.0, 16.0)


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
        self._round_starts: list[int] | None = None

    @property
    def done(self) -> bool:
        """True once every action has been applied."""
        return self.index >= len(self.replay.timed)

    @property
    def duration(self) -> float:
        """Length of the replay in seconds."""
        return self.replay.duration

    def cycle_speed(self) -> float:
        """Go to the next of ``SPEEDS`` (after 16x, back to 1x); return it."""
        later = [s for s in SPEEDS if s > self.speed]
        self.speed = later[0] if later else SPEEDS[0]
        return self.speed

    def faster(self) -> float:
        """The next speed up (at most 16x); return it."""
        later = [s for s in SPEEDS if s > self.speed]
        self.speed = later[0] if later else SPEEDS[-1]
        return self.speed

    def slower(self) -> float:
        """The next speed down (at least 1x); return it."""
        earlier = [s for s in SPEEDS if s < self.speed]
        self.speed = earlier[-1] if earlier else SPEEDS[0]
        return self.speed

    @property
    def round_starts(self) -> list[int]:
        """The action index at which each round after the first begins (computed once)."""
        if self._round_starts is None:
            game = self.replay.fresh_start()
            starts: list[int] = []
            last = game.round_no
            for i, (_, action) in enumerate(self.replay.timed):
                game.apply(action)
                if game.round_no != last and i + 1 < len(self.replay.timed):
                    starts.append(i + 1)
                last = game.round_no
            self._round_starts = starts
        return self._round_starts

    def to_end(self) -> list[tuple[Action, list[Event]]]:
        """Apply every action left: the final position."""
        return self._apply_until(len(self.replay.timed))

    def next_round(self) -> list[tuple[Action, list[Event]]]:
        """Apply actions up to the start of the next round (or the end)."""
        later = [i for i in self.round_starts if i > self.index]
        return self._apply_until(later[0] if later else len(self.replay.timed))

    def previous_round(self) -> None:
        """Go back to the start of this round, or of the one before if already there.

        The game is dealt again and replayed silently, so ``game`` is a new object.
        """
        starts = [0, *self.round_starts]
        earlier = [i for i in starts if i < self.index]
        target = earlier[-1] if earlier else 0
        if len(earlier) >= 2 and self.index - target <= 1:  # just past a start: one more back
            target = earlier[-2]
        self.restart()
        self._apply_until(target)

    def _apply_until(self, index: int) -> list[tuple[Action, list[Event]]]:
        applied = []
        while self.index < min(index, len(self.replay.timed)):
            applied.append(self._apply_next())
        if self.index:
            self.position = max(self.position, self.replay.timed[self.index - 1][0])
        return applied

    def seek(self, seconds: float) -> list[tuple[Action, list[Event]]]:
        """Go to replay time ``seconds`` (from the start): every action up to it applied.

        Returns the actions applied since the start (the game is dealt again).
        """
        self.restart()
        timed = self.replay.timed
        target = min(max(0.0, seconds), self.duration)
        end = 0
        while end < len(timed) and timed[end][0] <= target:
            end += 1
        applied = self._apply_until(end)
        self.position = target
        return applied

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
