"""Keeping every game: the glue between a running game and the files.

An ``Archiver`` listens to a game's arbiter (call it with the outcomes of each
tick, e.g. as a TUI session listener). During a match it saves the match in
progress after every round; when the game or match ends it saves the replay
and records the result. It never raises: problems become ``message``, which
the UI shows ("result not saved: ...").

Given a ``Writer``, the archiver only decides on the caller's thread what to
save (and copies it); the writing itself (files, fsync, a SQLite database
another program may hold locked) runs on the writer's thread, so a game on
an event loop never waits for the disk. ``on_saved`` is called (on that
thread) after each write, for the UI to show the new ``message``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from spit.engine import AnyGame
from spit.realtime.arbiter import Arbiter
from spit.store.replays import PlayerInfo, Replay, ReplayMeta, new_meta, times_from_log
from spit.store.resume import MatchKeeper
from spit.store.writer import Writer

if TYPE_CHECKING:
    from spit.store.records import RecordStatus


class Archiver:
    """Saves the match after each round and the replay and result at the end."""

    def __init__(
        self,
        arbiter: Arbiter,
        players: Sequence[PlayerInfo],
        resumed: Replay | None = None,
        database: Path | None = None,
        match_file: Path | None = None,
        writer: Writer | None = None,
        on_saved: Callable[[], None] | None = None,
    ) -> None:
        self.arbiter = arbiter
        self.database = database
        #: runs the writes (None: right away, on the caller's thread)
        self.writer = writer
        self.on_saved = on_saved
        if resumed is not None:
            self.keeper = MatchKeeper.resuming(resumed, match_file)
        else:
            self.keeper = MatchKeeper(new_meta(players), path=match_file)
        #: what the players should be told (a failed save, or "result saved"), else None
        self.message: str | None = None
        #: the outcome of recording the finished game (None until it is written)
        self.status: RecordStatus | None = None
        self._finished = False

    @property
    def meta(self) -> ReplayMeta:
        """The replay metadata (players and start date)."""
        return self.keeper.meta

    def session_times(self) -> list[float]:
        """This session's action times, in seconds since the arbiter started.

        Actions the game already held when the arbiter took it over (a position
        set up before play) count as made at the start.
        """
        times = times_from_log(self.arbiter.log, self.arbiter.start_time)
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
        if game.is_match:
            job = self.keeper.due(game, self.session_times())
            if job is not None:
                self._run(lambda: self._match_saved(job()))
        if game.over:
            self._finished = True
            final, times, meta = game.copy(), self.times(), self.keeper.meta
            self._run(lambda: self._record(final, times, meta))

    def _run(self, job: Callable[[], None]) -> None:
        if self.writer is None:
            job()
        else:
            self.writer.submit(job)

    def _record(self, game: AnyGame, times: list[float], meta: ReplayMeta) -> None:
        # SQLite loads here, when the first game ends (on the writer's thread)
        from spit.store.records import save_finished_game

        self._recorded(save_finished_game(game, times, meta, self.database))

    def _match_saved(self, problem: str | None) -> None:
        if problem:
            self.message = problem
            self._saved()

    def _recorded(self, status: RecordStatus) -> None:
        self.status = status
        self.message = status.message
        self._saved()

    def _saved(self) -> None:
        if self.on_saved is not None:
            self.on_saved()
