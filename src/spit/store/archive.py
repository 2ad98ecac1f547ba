"""Keeping every game: the glue between a running game and the files.

An ``Archiver`` listens to a game's arbiter (call it with the outcomes of each
tick, e.g. as a TUI session listener). While the game goes on it keeps the
game's save file up to date (``spit.store.resume.GameKeeper``: every round,
every few actions, and on ``save_now`` when the players leave or quit); when
the game or match ends it saves the replay, records the result and removes
the save. It never raises: problems become ``message``, which the UI shows
("result not saved: ...").
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from spit.realtime.arbiter import Arbiter
from spit.store.records import RecordStatus, save_finished_game
from spit.store.replays import PlayerInfo, Replay, new_meta, times_from_log
from spit.store.resume import GameKeeper


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
    ) -> None:
        """``save_file``: where to keep the game in progress (default: a new file
        in the saved-games folder, or the resumed game's own file).
        ``keep_progress``: False keeps no unfinished game (two computers playing)."""
        self.arbiter = arbiter
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
        if self.keep_progress or game.over:
            problem = self.keeper.update(game, self.session_times())
            if problem:
                self.message = problem
        if game.over:
            self.status = save_finished_game(game, self.times(), self.keeper.meta, self.database)
            self.message = self.status.message

    def save_now(self) -> str | None:
        """Save the unfinished game at once (the players leave or quit); a problem, or None."""
        if self.status is not None or not self.keep_progress:
            return None
        problem = self.keeper.save(self.arbiter.game, self.session_times())
        if problem:
            self.message = problem
        return problem

    @property
    def save_path(self) -> Path | None:
        """The game's save file, if it has one now."""
        return self.keeper.path if self.keeper.saved else None
