"""Keeping every game: the glue between a running game and the files.

An ``Archiver`` listens to a game's arbiter (call it with the outcomes of each
tick, e.g. as a TUI session listener). While the game goes on it keeps the
game's save file up to date (``spit.store.resume.GameKeeper``: every round,
every few actions, and on ``save_now`` when the players leave or quit); when
the game or match ends it saves the replay, records the result and removes
the save. It never raises: problems become ``message``, which the UI shows
("result not saved: ...").

Given a ``Writer``, the archiver only decides on the caller's thread what to
save (and copies it); the writing itself (files, fsync, a SQLite database
another program may hold locked) runs on the writer's thread, so a game on
an event loop never waits for the disk. ``on_saved`` is called (on that
thread) after each write, for the UI to show the new ``message``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spit.engine import AnyGame
from spit.realtime.arbiter import Arbiter
from spit.store.replays import (
    PlayerInfo,
    Replay,
    ReplayMeta,
    h8_record,
    new_meta,
    times_from_log,
)
from spit.store.resume import GameKeeper, played_a_card
from spit.store.writer import Writer

if TYPE_CHECKING:
    from spit.store.records import RecordStatus

#: seconds ``save_now`` waits for the writer (a save the players asked for)
SAVE_NOW_WAIT = 10.0


class Archiver:
    """Saves the game as it goes, and the replay and result at the end."""

    def __init__(
        self,
        arbiter: Arbiter,
        players: Sequence[PlayerInfo],
        resumed: Replay | None = None,
        database: Path | None = None,
        save_file: Path | None = None,
        keep_progress: bool = True,
        writer: Writer | None = None,
        on_saved: Callable[[], None] | None = None,
    ) -> None:
        """``save_file``: where to keep the game in progress (default: a new file
        in the saved-games folder, or the resumed game's own file).
        ``keep_progress``: False keeps no unfinished game (two computers playing).
        ``writer``: runs the writes (None: right away, on the caller's thread);
        ``on_saved``: called after each write."""
        self.arbiter = arbiter
        self.writer = writer
        self.on_saved = on_saved
        self._finished = False
        self.keep_progress = keep_progress
        self.database = database
        if resumed is not None:
            self.keeper = GameKeeper.resuming(resumed, save_file)
        else:
            self.keeper = GameKeeper(new_meta(players), path=save_file)
        #: what the players should be told (a failed save, or "result saved"), else None
        self.message: str | None = None
        #: the outcome of recording the finished game (None until it ends)
        self.status: RecordStatus | None = None
        #: the times of the arbiter's log entries read so far (``session_times``)
        self._logged: list[float] = []
        #: the fumbles (H8) of the sessions before this one, and how many of this one's are noted
        self._prior_h8 = resumed.meta.h8 if resumed is not None else None
        self._noted: int | None = None
        #: more keys for the finished game's replay, read when it ends (a host's presses)
        self.extra: Callable[[], Mapping[str, Any]] | None = None

    @property
    def begun(self) -> bool:
        """True once a card was played or moved (a resumed game has begun already):
        a game left after only the opening calls is not kept."""
        return self.keeper.saved or played_a_card(self.arbiter.game)

    @property
    def meta(self) -> ReplayMeta:
        """The replay metadata (players, start date, and the fumbles so far)."""
        self._note_fumbles()
        return self.keeper.meta

    def _note_fumbles(self) -> None:
        """Bring the fumble record (H8) in the metadata up to date with the arbiter."""
        fumbles = self.arbiter.fumbles
        if self._noted == len(fumbles):
            return
        self._noted = len(fumbles)
        record = h8_record(
            self.arbiter.timing,
            fumbles,
            self.arbiter.start_time,
            self.keeper.offset,
            self._prior_h8,
        )
        self.keeper.meta = replace(self.keeper.meta, h8=record)

    def session_times(self) -> list[float]:
        """This session's action times, in seconds since the arbiter started.

        Actions the game already held when the arbiter took it over (a position
        set up before play) count as made at the start.
        """
        log, times = self.arbiter.log, self._logged
        if len(log) < len(times):  # not the log these were read from
            times.clear()
        if len(log) > len(times):  # the log only grows: read the new entries alone
            times.extend(times_from_log(log[len(times) :], self.arbiter.start_time))
        before = len(self.arbiter.game.actions) - len(self.keeper.prior_times) - len(times)
        return [0.0] * max(0, before) + times

    def times(self) -> list[float]:
        """Every action time of the game so far, in seconds since it began."""
        return self.keeper.all_times(self.session_times())

    def __call__(self, outcomes: object = None) -> None:
        """Look at the game after a tick; save whatever is due (on the writer, if any)."""
        if self._finished:
            return
        game = self.arbiter.game
        self._note_fumbles()
        if self.keep_progress or game.over:
            job = self.keeper.due(game, self.session_times())
            if job is not None:
                self._run(lambda: self._progress_saved(job()))
        if game.over:
            self._finished = True
            final, times, meta = game.copy(), self.times(), self.keeper.meta
            extra = dict(self.extra()) if self.extra is not None else None
            self._run(lambda: self._record(final, times, meta, extra))

    def save_now(self) -> str | None:
        """Save the unfinished game at once (the players leave or quit); a problem, or None.

        Waits for the writer: the save is on disk (or has failed) when this returns.
        """
        if self._finished or not self.keep_progress:
            return None
        self._note_fumbles()
        job = self.keeper.snapshot(self.arbiter.game, self.session_times())
        outcome: list[str | None] = []
        if job is not None:
            self._run(lambda: outcome.append(self._progress_saved(job())))
        if self.writer is not None and not self.writer.flush(SAVE_NOW_WAIT):
            return "game not saved yet: the disk is still busy"
        return outcome[0] if outcome else None

    def _run(self, job: Callable[[], object]) -> None:
        if self.writer is None:
            job()
        else:
            self.writer.submit(job)

    def _record(
        self,
        game: AnyGame,
        times: list[float],
        meta: ReplayMeta,
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        # SQLite loads here, when the first game ends (on the writer's thread)
        from spit.store.records import save_finished_game

        status = save_finished_game(game, times, meta, self.database, extra)
        self.status = status
        self.message = status.message
        self._saved()

    def _progress_saved(self, problem: str | None) -> str | None:
        if problem:
            self.message = problem
            self._saved()
        return problem

    def _saved(self) -> None:
        if self.on_saved is not None:
            self.on_saved()

    @property
    def save_path(self) -> Path | None:
        """The game's save file, if it has one now."""
        return self.keeper.path if self.keeper.saved else None
