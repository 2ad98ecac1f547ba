"""Playing a replay back in time: speed 1x to 16x, pause, step, restart, and
jumps to the end or to the next or previous round.

No UI here: the replay viewer calls ``advance`` with the real time that has
passed and repaints the board from ``game`` and the outcomes returned: each
action applied, and each fumble (H8) the replay recorded, refused in the
position it was made in, as the live game's arbiter gives them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from spit.engine import Action, AnyGame, IllegalAction
from spit.realtime.arbiter import Applied, Outcome, Rejected

SPEEDS = (1.0, 2.0, 4.0, 8.0, 16.0)


class TimedGame(Protocol):
    """What playback needs of a recorded game (a saved replay is one)."""

    @property
    def timed(self) -> list[tuple[float, Action]]: ...

    @property
    def duration(self) -> float: ...

    def fresh_start(self) -> AnyGame: ...


class RecordedFumble(Protocol):
    """One fumble (H8) of a replay: ``action`` refused at ``time``, ``index`` actions in."""

    @property
    def index(self) -> int: ...

    @property
    def time(self) -> float: ...

    @property
    def action(self) -> Action: ...


class FumbleRecord(Protocol):
    """A replay's fumble rule (H8): its fumble time and its fumbles in order."""

    @property
    def fumble_time(self) -> float: ...

    @property
    def fumbles(self) -> Sequence[RecordedFumble]: ...


class Playback:
    """Drives a replay's starting position with its timed actions (and its fumbles, if any)."""

    def __init__(
        self, replay: TimedGame, speed: float = 1.0, h8: FumbleRecord | None = None
    ) -> None:
        self.replay = replay
        self.game: AnyGame = replay.fresh_start()
        self.index = 0  #: the next action to apply
        self.position = 0.0  #: replay time in seconds
        self.speed = speed
        self.paused = False
        self._round_starts: list[int] | None = None
        self._fumbles: Sequence[RecordedFumble] = h8.fumbles if h8 is not None else ()
        self._fumble_time = h8.fumble_time if h8 is not None else 0.0
        self._next_fumble = 0  #: the next of ``_fumbles`` to show

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

    def to_end(self) -> list[Outcome]:
        """Apply every action left: the final position."""
        return self._apply_until(len(self.replay.timed))

    def next_round(self) -> list[Outcome]:
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

    def _apply_until(self, index: int) -> list[Outcome]:
        """A jump: the actions up to ``index``, without the fumbles passed on the way."""
        applied: list[Outcome] = []
        while self.index < min(index, len(self.replay.timed)):
            applied.append(self._apply_next())
        if self.index:
            self.position = max(self.position, self.replay.timed[self.index - 1][0])
        self._skip_fumbles()
        return applied

    def seek(self, seconds: float) -> list[Outcome]:
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
        self._skip_fumbles()
        return applied

    def toggle_pause(self) -> bool:
        """Pause or go on; return True if now paused."""
        self.paused = not self.paused
        return self.paused

    def advance(self, real_seconds: float) -> list[Outcome]:
        """Move on by ``real_seconds`` of wall time (nothing while paused)."""
        if self.paused or self.done:
            return []
        self.position += max(0.0, real_seconds) * self.speed
        applied = self._due_fumbles(self.position)
        timed = self.replay.timed
        while self.index < len(timed) and timed[self.index][0] <= self.position:
            applied.append(self._apply_next())
            applied += self._due_fumbles(self.position)
        if self.done:
            self.position = self.duration
        return applied

    def step(self) -> list[Outcome]:
        """Apply just the next action and jump to its time (for stepping while paused);
        the fumbles made just before it come first."""
        if self.done:
            return []
        fumbles = self._due_fumbles(None)
        self.position = max(self.position, self.replay.timed[self.index][0])
        return [*fumbles, self._apply_next()]

    def restart(self) -> None:
        """Back to the start position."""
        self.game = self.replay.fresh_start()
        self.index = 0
        self.position = 0.0
        self._next_fumble = 0

    def wait(self) -> float | None:
        """Real seconds until the next action is due (None if paused or done)."""
        if self.paused or self.done:
            return None
        gap = self.replay.timed[self.index][0] - self.position
        return max(0.0, gap) / self.speed

    def _apply_next(self) -> Applied:
        at, action = self.replay.timed[self.index]
        self.index += 1
        return Applied(at, action, self.game.apply(action))

    def _due_fumbles(self, until: float | None) -> list[Outcome]:
        """The fumbles made in the position on the board by replay time ``until`` (None:
        all of them), each refused as the game refused it; those of earlier positions
        (passed by a jump) are dropped."""
        due: list[Outcome] = []
        notes = self._fumbles
        while self._next_fumble < len(notes):
            note = notes[self._next_fumble]
            if note.index > self.index:
                break
            if note.index == self.index:
                if until is not None and note.time > until:
                    break
                reason = self._refusal(note.action)
                due.append(Rejected(note.time, note.action, reason, fumble=self._fumble_time))
            self._next_fumble += 1
        return due

    def _skip_fumbles(self) -> None:
        """Drop the fumbles made before ``position`` (a jump shows none of them)."""
        notes = self._fumbles
        while self._next_fumble < len(notes):
            note = notes[self._next_fumble]
            if note.index > self.index or (note.index == self.index and note.time > self.position):
                break
            self._next_fumble += 1

    def _refusal(self, action: Action) -> str:
        """Why the game refuses ``action`` now (a loaded replay's fumbles were all refused)."""
        try:
            self.game.check(action)
        except IllegalAction as exc:
            return exc.reason
        return "it does not fit"
