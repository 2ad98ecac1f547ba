"""Never lose a game: every unfinished game is saved, one file each, and can be resumed.

A game in progress (a single game or a V4 / P7 match) is written to its own
file in the ``saved/`` folder of the data directory, atomically, in the
replay format (config, seed, cards, actions with times, players): after
every round, every ``SAVE_EVERY`` actions or ``SAVE_AFTER`` seconds, and whenever
the players leave or
quit (or the terminal closes). The engine is deterministic, so loading the
file replays the actions and gives the very position that was saved. The
file is removed when the game ends. Starting a new game never touches
another game's file, so several unfinished games can wait side by side;
``list_saved_games`` lists them (a damaged file is listed with its reason,
never raised), ``find_saved_game`` picks one by number or id.

The single ``match-in-progress.json`` of older versions is listed too.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spit.engine import AnyGame, Kind
from spit.engine.rule_words import rules_in_words
from spit.store.paths import PRIVATE_FILE, atomic_write, match_path, private_dir, saved_dir

if TYPE_CHECKING:
    # the replays load when a game is saved or read, not for the title menu's quick look
    from spit.store.replays import Replay, ReplayMeta

__all__ = [
    "SAVE_EVERY",
    "GameKeeper",
    "SavedGame",
    "delete_saved_game",
    "find_saved_game",
    "has_saved_games",
    "list_saved_games",
    "new_save_path",
    "save_game",
]

#: At most this many unfinished games are kept: a new game's first save removes the
#: oldest beyond it (a file that cannot be read is kept, to be looked at or deleted).
MAX_SAVED = 5
#: ... but only games whose file has not changed for this many seconds.
PRUNE_AFTER = 600.0
#: A game in progress is saved again once this many actions were made since the last save.
SAVE_EVERY = 20
#: ... or when this many seconds of play went by since the last save (or none yet)
SAVE_AFTER = 5.0

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,80}$")


@dataclass(frozen=True, slots=True)
class SavedGame:
    """One unfinished game's file: the game rebuilt from it, or why it cannot be.

    ``id`` is the file name without ``.json``; ``saved_at`` the file's last
    change (local time). Exactly one of ``replay`` and ``problem`` is set.
    """

    id: str
    path: Path
    saved_at: datetime | None
    replay: Replay | None = None
    problem: str | None = None

    @property
    def ok(self) -> bool:
        """True if the game can be resumed."""
        return self.replay is not None

    def columns(self) -> dict[str, str]:
        """What a list of saved games shows: mode, variants, players, round, score, date."""
        date = self.saved_at.strftime("%Y-%m-%d %H:%M") if self.saved_at else "?"
        if self.replay is None:
            return {
                "id": self.id,
                "mode": "?",
                "variants": "",
                "players": "unreadable",
                "round": "",
                "score": "",
                "played": "",
                "date": date,
            }
        game = self.replay.final
        variants = rules_in_words(game.config.variants, game.is_match, game.config.target_score)
        if game.is_match:
            score = f"{game.scores[0]}-{game.scores[1]}"
        else:  # a single game: the cards each player still holds
            score = f"{cards_held(game, 0)}-{cards_held(game, 1)} cards"
        played = self.replay.timed[-1][0] if self.replay.timed else 0.0
        return {
            "id": self.id,
            "mode": game.info.title,
            "variants": variants or "-",
            "players": " vs ".join(
                p.label + (" (remote)" if p.remote else "") for p in self.replay.meta.players
            ),
            "round": str(game.round_no),
            "score": score,
            "played": f"{int(played) // 60}:{int(played) % 60:02d}",
            "date": date,
        }

    def describe(self) -> str:
        """One line for a menu or a message."""
        c = self.columns()
        if self.replay is None:
            return f"{c['id']}: unreadable ({self.problem})"
        variants = f" ({c['variants']})" if c["variants"] != "-" else ""
        hosted = any(p.remote for p in self.replay.meta.players)
        where = ", was over the network: resumes at this keyboard" if hosted else ""
        return (
            f"{c['mode']}{variants}: {c['players']}, round {c['round']}, {c['score']}, "
            f"{c['played']} played, saved {c['date']}{where}"
        )


def cards_held(game: AnyGame, player: int) -> int:
    """Every card a player still holds: face up, under them, and face down aside."""
    placed = sum((top is not None) + under for top, under in game.columns(player))
    return placed + game.reserve_size(player)


#: The actions that make a game worth keeping (calls alone do not).
_PROGRESS = (Kind.PLAY, Kind.MOVE, Kind.SLAP, Kind.CHOOSE)


def played_a_card(game: AnyGame) -> bool:
    """True once a card was played or moved, or a round ended (a slap, a new deal):
    a game left after only the opening calls is not worth keeping."""
    return game.round_no > 1 or any(action.kind in _PROGRESS for action in game.actions)


def _saved_at(path: Path) -> datetime | None:
    try:
        return datetime.fromtimestamp(path.stat().st_mtime)
    except (OSError, ValueError, OverflowError):
        return None


def read_saved_game(path: Path) -> SavedGame:
    """The saved game in ``path``; a file that cannot be used gives its ``problem``."""
    path = Path(path)
    stem = path.name.removesuffix(".json")
    saved_at = _saved_at(path)
    if not path.is_file():  # a folder, a FIFO (reading it would wait forever), a dead link
        return SavedGame(stem, path, saved_at, problem="not a regular file")
    from spit.store.replays import ReplayFileError, load_replay

    try:
        replay = load_replay(path)
    except ReplayFileError as exc:
        reason = str(exc).removeprefix(f"{path}: ")
        return SavedGame(stem, path, saved_at, problem=reason)
    if replay.final.over:
        return SavedGame(stem, path, saved_at, problem="this game is already over")
    return SavedGame(stem, path, saved_at, replay=replay)


def list_saved_games(directory: Path | None = None) -> list[SavedGame]:
    """Every unfinished game, most recently saved first. Never raises.

    Each ``*.json`` file in the saved-games folder (and the old
    ``match-in-progress.json``) is loaded and checked; one that cannot be
    read is listed with the reason.
    """
    folder = Path(directory) if directory is not None else saved_dir()
    paths: list[Path] = []
    with contextlib.suppress(OSError):
        paths = [p for p in folder.iterdir() if p.suffix == ".json" and not p.name.startswith(".")]
    if directory is None:
        legacy = match_path()
        if legacy.exists() or legacy.is_symlink():
            paths.append(legacy)
    games = [read_saved_game(p) for p in paths]
    games.sort(key=lambda g: (g.saved_at or datetime.min, g.id), reverse=True)
    return games


def has_saved_games(directory: Path | None = None) -> bool:
    """True if any saved game's file is there (a quick look: nothing is loaded)."""
    folder = Path(directory) if directory is not None else saved_dir()
    with contextlib.suppress(OSError):
        if any(p.suffix == ".json" and not p.name.startswith(".") for p in folder.iterdir()):
            return True
    return directory is None and match_path().exists()


def find_saved_game(choice: str, games: Sequence[SavedGame]) -> SavedGame:
    """The game ``choice`` names: its number in ``games`` (1 first) or its id.

    Raises LookupError with a message for the player.
    """
    text = choice.strip().removesuffix(".json")
    if text.isdigit():
        n = int(text)
        if 1 <= n <= len(games):
            return games[n - 1]
        if not games:
            raise LookupError("there are no unfinished games")
        raise LookupError(f"there is no game number {n}: choose 1 to {len(games)}")
    for game in games:
        if game.id == text:
            return game
    raise LookupError(f"no unfinished game has the id {choice!r:.60}")


def delete_saved_game(game: SavedGame) -> None:
    """Remove a saved game's file (gone already is fine); raises OSError if it cannot."""
    with contextlib.suppress(FileNotFoundError):
        game.path.unlink()


def new_save_path(game: AnyGame, meta: ReplayMeta, directory: Path | None = None) -> Path:
    """A file name for a new game's save that no other saved game uses.

    The name is reserved by creating the (empty) file exclusively, so that two
    games started in the same second, even in two processes, never share one.
    Raises OSError if the folder cannot be written.
    """
    from spit.store.replays import replay_name

    folder = Path(directory) if directory is not None else saved_dir()
    private_dir(folder)
    stem = replay_name(game, meta).removesuffix(".json")
    if not _ID.match(stem):
        stem = "game"
    path = folder / f"{stem}.json"
    n = 2
    while True:
        try:
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, PRIVATE_FILE))
            return path
        except FileExistsError:
            path = folder / f"{stem}-{n}.json"
            n += 1


def save_game(game: AnyGame, times: Sequence[float], meta: ReplayMeta, path: Path) -> Path:
    """Write the game so far to ``path`` (atomically); raises OSError or ValueError."""
    from spit.store.replays import replay_data

    atomic_write(path, json.dumps(replay_data(game, times, meta), separators=(",", ":")))
    return path


#: a save (or the clearing of the file) to run, maybe on the writer's thread
SaveJob = Callable[[], "str | None"]


class GameKeeper:
    """Keeps one game's save file in step with the game being played.

    Call ``update(game, session_times)`` after every tick that applied an
    action; ``session_times`` are this session's action times in seconds
    (``replays.times_from_log(arbiter.log, arbiter.start_time)``). It saves
    after the first action, when a new round is dealt, when ``SAVE_EVERY``
    actions were made or ``SAVE_AFTER`` seconds of play went by since the
    last save (so a crash loses at most a few seconds), and removes the file
    when the game is over. ``save`` saves at once (leaving, quitting, a
    signal). When a resumed game goes on, the earlier times come first and
    this session's follow after the last of them.
    """

    def __init__(
        self,
        meta: ReplayMeta,
        prior_times: Sequence[float] = (),
        path: Path | None = None,
        saved_round: int = 1,
        directory: Path | None = None,
    ) -> None:
        self.meta = meta
        self.prior_times = [float(t) for t in prior_times]
        self.offset = self.prior_times[-1] if self.prior_times else 0.0
        #: the save file; chosen at the first save of a new game
        self.path = Path(path) if path is not None else None
        self.directory = directory
        self.saved_round = saved_round
        self.saved_actions = len(self.prior_times)
        #: this session's time of the newest action saved (None: nothing saved yet)
        self.saved_at: float | None = None
        #: the last save error, for the UI to show (None when all is well)
        self.problem: str | None = None

    @classmethod
    def resuming(cls, replay: Replay, path: Path | None = None) -> GameKeeper:
        """A keeper for a game picked up again from ``replay`` (saved to its own file).

        The new session's times follow the last action, or the end of the last
        fumble time (H8) if that was later: the game stopped while it was saved.
        """
        keeper = cls(
            replay.meta,
            [t for t, _ in replay.timed],
            path=path if path is not None else replay.path,
            saved_round=replay.final.round_no,
        )
        h8 = replay.meta.h8
        if h8 is not None and h8.fumbles:
            keeper.offset = max(keeper.offset, h8.fumbles[-1].time + h8.fumble_time)
        return keeper

    def all_times(self, session_times: Sequence[float]) -> list[float]:
        """Every action time of the game: earlier sessions, then this one."""
        return self.prior_times + [self.offset + float(t) for t in session_times]

    def update(self, game: AnyGame, session_times: Sequence[float]) -> str | None:
        """Save when a round was dealt or enough was played; clear the file at the end.

        Returns a message for the players if the save failed (the game goes on).
        """
        job = self.due(game, session_times)
        return None if job is None else job()

    def save(self, game: AnyGame, session_times: Sequence[float]) -> str | None:
        """Save the game now, unless it is over or nothing was played yet.

        Returns a message for the players if the save failed.
        """
        job = self.snapshot(game, session_times)
        return None if job is None else job()

    def due(self, game: AnyGame, session_times: Sequence[float]) -> SaveJob | None:
        """``update`` in two halves: what is due now, as a job, or None.

        Deciding (and copying what to write) happens here, on the caller's
        thread; the job touches only that copy and the file, so it may run on
        another thread while the game goes on (``spit.store.writer``). The jobs
        must run in the order they were made.
        """
        if game.over:
            return self._clear_job
        due = game.round_no > self.saved_round
        due = due or len(game.actions) - self.saved_actions >= SAVE_EVERY
        if not due and len(game.actions) > self.saved_actions:
            newest = session_times[-1] if session_times else 0.0
            due = self.saved_at is None or newest - self.saved_at >= SAVE_AFTER
        if not due:
            return None
        return self.snapshot(game, session_times)

    def snapshot(self, game: AnyGame, session_times: Sequence[float]) -> SaveJob | None:
        """``save`` in two halves: the game as it is now, as a job that writes it (see ``due``).

        None if the game is over or nothing new was played. The job returns a
        message for the players if the save failed (then the next call tries
        again).
        """
        if game.over or not game.actions or len(game.actions) == self.saved_actions:
            return None
        if self.path is None and not played_a_card(game):
            return None  # only calls so far: nothing to come back to
        last = (self.saved_round, self.saved_actions)
        self.saved_round, self.saved_actions = game.round_no, len(game.actions)
        self.saved_at = session_times[-1] if session_times else 0.0
        first = self.path is None
        try:
            if self.path is None:
                self.path = new_save_path(game, self.meta, self.directory)
            from spit.store.replays import replay_data

            data = replay_data(game, self.all_times(session_times), self.meta)
        except (OSError, ValueError) as exc:
            error = exc  # ``exc`` itself is unbound when the block ends
            if first:
                self._give_back_name()
            return lambda: self._failed(error, last)
        path = self.path
        return lambda: self._write(path, data, last, first)

    def _prune(self) -> None:
        """Keep ``MAX_SAVED`` unfinished games: remove the oldest others beyond it.

        Only files left alone for ``PRUNE_AFTER`` seconds go (a game being played
        elsewhere, in another terminal or by a server, saves every few seconds),
        and only readable ones; the files are sorted by their dates, and only
        those to remove are read.
        """
        if self.path is None:
            return
        dated: list[tuple[float, Path]] = []
        with contextlib.suppress(OSError):
            for path in self.path.parent.iterdir():
                if path.suffix != ".json" or path.name.startswith(".") or path == self.path:
                    continue
                with contextlib.suppress(OSError):
                    dated.append((path.stat().st_mtime, path))
        dated.sort(reverse=True)
        now = time.time()
        for mtime, path in dated[MAX_SAVED - 1 :]:
            if now - mtime < PRUNE_AFTER:
                continue
            old = read_saved_game(path)
            if old.ok:
                with contextlib.suppress(OSError):
                    delete_saved_game(old)

    def _clear_job(self) -> str | None:
        self.clear()
        return None

    def _write(
        self, path: Path, data: dict[str, Any], last: tuple[int, int], first: bool
    ) -> str | None:
        try:
            atomic_write(path, json.dumps(data, separators=(",", ":")))
        except (OSError, ValueError) as exc:
            if first and self.path == path:
                self._give_back_name()
            return self._failed(exc, last)
        self.problem = None
        if first:
            self._prune()
        return None

    def _give_back_name(self) -> None:
        """Remove the empty file that reserved this game's save name (its first save failed)."""
        if self.path is not None:
            with contextlib.suppress(OSError):
                self.path.unlink()
            self.path = None

    def _failed(self, exc: Exception, last: tuple[int, int]) -> str:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        self.problem = f"game not saved: {reason}"
        self.saved_round, self.saved_actions = last  # try again on the next call
        return self.problem

    @property
    def saved(self) -> bool:
        """True if the game has a save file (it can be resumed)."""
        return self.path is not None and self.path.exists()

    def clear(self) -> None:
        """Remove the save file (the game is over)."""
        if self.path is not None:
            with contextlib.suppress(OSError):
                self.path.unlink()
