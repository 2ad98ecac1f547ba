"""Keeping every game: the glue between a running game and the files.

An ``Archiver`` listens to a game's arbiter (call it with the outcomes of each
tick, e.g. as a TUI session listener). During a match it saves the match in
progress after every round; when the game or match ends it saves the replay
and records the result. It never raises: problems become ``message``, which
the UI shows ("result not saved: ...").
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from spit.realtime.arbiter import Arbiter
from spit.store.records import RecordStatus, save_finished_game
from spit.store.replays import PlayerInfo, Replay, new_meta, times_from_log
from spit.store.resume import MatchKeeper


class Archiver:
    """Saves the match after each round and the replay and result at the end."""

    def __init__(
        self,
        arbiter: Arbiter,
        players: Sequence[PlayerInfo],
        resumed: Replay | None = None,
        database: Path | None = None,
        match_file: Path | None = None,
    ) -> None:
        self.arbiter = arbiter
        self.database = database
        if resumed is not None:
            self.keeper = MatchKeeper.resuming(resumed, match_file)
        else:
            self.keeper = MatchKeeper(new_meta(players), path=match_file)
        #: what the players should be told (a failed save, or "result saved"), else None
        self.message: str | None = None
        #: the outcome of recording the finished game (None until it ends)
        self.status: RecordStatus | None = None

    @property
    def meta(self) -> Any:
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
        """Look at the game after a tick; save whatever is due."""
        if self.status is not None:
            return
        game = self.arbiter.game
        if game.is_match:
            problem = self.keeper.update(game, self.session_times())
            if problem:
                self.message = problem
        if game.over:
            self.status = save_finished_game(game, self.times(), self.keeper.meta, self.database)
            self.message = self.status.message
