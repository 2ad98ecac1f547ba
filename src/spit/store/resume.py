"""Never lose a match: the match in progress is saved after every round.

A V4 scoring match (or a Speed P7 match) writes its replay-so-far (config,
seed, cards, actions with times, players) to one file in the data directory
each time a new round is dealt, atomically. ``spit resume`` rebuilds the game
by replaying the actions and carries on from the start of the next round.
The file is removed when the match ends.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from pathlib import Path

from spit.engine import Game
from spit.store.paths import atomic_write, match_path
from spit.store.replays import Replay, ReplayFileError, ReplayMeta, load_replay, replay_data

__all__ = [
    "MatchKeeper",
    "ReplayFileError",
    "clear_match_in_progress",
    "load_match_in_progress",
    "match_in_progress_exists",
    "save_match_in_progress",
]


def save_match_in_progress(
    game: Game, times: Sequence[float], meta: ReplayMeta, path: Path | None = None
) -> Path:
    """Write the match so far (atomically); raises OSError if it cannot."""
    path = Path(path) if path is not None else match_path()
    atomic_write(path, json.dumps(replay_data(game, times, meta), separators=(",", ":")))
    return path


def match_in_progress_exists(path: Path | None = None) -> bool:
    """True if a saved match is waiting to be resumed."""
    return (Path(path) if path is not None else match_path()).is_file()


def load_match_in_progress(path: Path | None = None) -> Replay | None:
    """The saved match, rebuilt and checked; None if there is none.

    Raises ReplayFileError (one line naming the file) if the file is damaged;
    the file is then left where it is for the player to inspect or discard.
    """
    path = Path(path) if path is not None else match_path()
    if not path.exists():
        return None
    replay = load_replay(path)
    if replay.final.over:
        raise ReplayFileError(f"{path}: this match is already over; nothing to resume")
    return replay


def clear_match_in_progress(path: Path | None = None) -> None:
    """Remove the saved match (when it has ended, or the players discard it)."""
    path = Path(path) if path is not None else match_path()
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


class MatchKeeper:
    """Keeps the match file in step with a match being played.

    Call ``update(game, session_times)`` after every tick that applied an
    action; ``session_times`` are this session's action times in seconds
    (``replays.times_from_log(arbiter.log, arbiter.start_time)``). When a
    resumed match goes on, the earlier times come first, shifted by nothing,
    and this session's times follow after the last of them.
    """

    def __init__(
        self,
        meta: ReplayMeta,
        prior_times: Sequence[float] = (),
        path: Path | None = None,
        saved_round: int = 1,
    ) -> None:
        self.meta = meta
        self.prior_times = [float(t) for t in prior_times]
        self.offset = self.prior_times[-1] if self.prior_times else 0.0
        self.path = path
        self.saved_round = saved_round
        #: the last save error, for the UI to show (None when all is well)
        self.problem: str | None = None

    @classmethod
    def resuming(cls, replay: Replay, path: Path | None = None) -> MatchKeeper:
        """A keeper for a match picked up again from ``replay``."""
        return cls(
            replay.meta,
            [t for t, _ in replay.timed],
            path=path,
            saved_round=replay.final.round_no,
        )

    def all_times(self, session_times: Sequence[float]) -> list[float]:
        """Every action time of the match: earlier sessions, then this one."""
        return self.prior_times + [self.offset + float(t) for t in session_times]

    def update(self, game: Game, session_times: Sequence[float]) -> str | None:
        """Save when a new round has been dealt; clear the file when the match is over.

        Returns a message for the players if the save failed (the match goes on).
        """
        if not game.is_match:
            return None
        if game.over:
            clear_match_in_progress(self.path)
            return None
        if game.round_no <= self.saved_round:
            return None
        try:
            save_match_in_progress(game, self.all_times(session_times), self.meta, self.path)
        except (OSError, ValueError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self.problem = f"match not saved: {reason}"
            return self.problem
        self.saved_round = game.round_no
        self.problem = None
        return None
