"""Replay files: a finished game's save form plus the time of every action.

A replay is plain JSON (never pickle): the engine's save form
(``game.to_json()``: mode, config, seed, cards, actions, fingerprint) with two
more keys, ``times`` (seconds since the game started, one per action, never
decreasing) and ``meta`` (the players and the date). So a replay file is
also a valid save for ``spit.engine.saves``.

Loading checks everything and replays every action: a truncated, edited or
hostile file gives a ``ReplayFileError`` whose message is one line naming the
file and the problem.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from spit.engine import Action, AnyGame, ReplayError
from spit.engine.actions import action_from_json
from spit.engine.saves import new_game_from_save
from spit.store.paths import atomic_write, read_capped, replay_dir

#: Largest replay file we read; a long real game is well under 1 MB.
MAX_REPLAY_BYTES = 20_000_000
#: Longest game time a replay may claim (a week, in seconds).
MAX_TIME = 7 * 24 * 3600.0
MAX_NAME = 40
REPLAY_VERSION = 1


class ReplayFileError(Exception):
    """A replay file that cannot be used; ``str()`` is one line naming the file."""


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """Who played one side: a human's name, or a bot with its level."""

    name: str
    bot: str | None = None
    #: this side played from another machine (a network guest of a hosted game)
    remote: bool = False

    @property
    def label(self) -> str:
        """How to show this player: the name, or e.g. ``Computer (hard)`` (as on the board).

        Control characters (from an edited file or ``--vs me:NAME``) show as
        ``?``: printed to a terminal they would be escape sequences.
        """
        bot = self.bot
        if bot is not None and bot.startswith("me:"):  # "match me": as on the board
            bot = "like " + bot.removeprefix("me:")
        text = self.name if bot is None else f"Computer ({bot})"
        return "".join("?" if unicodedata.category(c) == "Cc" else c for c in text)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON form."""
        out: dict[str, Any] = {"name": self.name, "bot": self.bot}
        if self.remote:  # only then: older versions read the files as before
            out["remote"] = True
        return out


@dataclass(frozen=True, slots=True)
class ReplayMeta:
    """What the moves do not say: who played and when the game started (ISO 8601)."""

    players: tuple[PlayerInfo, PlayerInfo]
    date: str

    def to_json(self) -> dict[str, Any]:
        """Plain JSON form."""
        return {"players": [p.to_json() for p in self.players], "date": self.date}


def new_meta(players: Sequence[PlayerInfo], date: datetime | None = None) -> ReplayMeta:
    """Metadata for a game starting now (or at ``date``)."""
    when = (date or datetime.now(UTC)).astimezone(UTC)
    return ReplayMeta((players[0], players[1]), when.isoformat(timespec="seconds"))


@dataclass(slots=True)
class Replay:
    """A loaded replay: the starting position, the timed actions, and the final game.

    ``start`` has no action applied (drive it with ``timed`` to play the game
    back); ``final`` is the position after every action, its fingerprint
    checked against the file.
    """

    start: AnyGame
    timed: list[tuple[float, Action]]
    meta: ReplayMeta
    final: AnyGame
    path: Path | None = None
    #: the checked JSON data, to deal the start position again (``fresh_start``)
    data: dict[str, Any] | None = None

    def fresh_start(self) -> AnyGame:
        """A new copy of the starting position (``start`` may have been played on)."""
        if self.data is None:
            raise ValueError("this replay keeps no data to start again from")
        return new_game_from_save(self.data)

    @property
    def duration(self) -> float:
        """Seconds from the start to the last action."""
        return self.timed[-1][0] if self.timed else 0.0


# ------------------------------------------------------------------ times


def times_from_log(
    log: Iterable[tuple[float, Action]], start_time: float, offset: float = 0.0
) -> list[float]:
    """Action times in seconds since the game began, from an arbiter's ``log``.

    ``start_time`` is the arbiter's ``start_time``; ``offset`` is added (the
    game time already played before a resumed match was picked up again).
    """
    return [offset + max(0.0, t - start_time) for t, _ in log]


# ------------------------------------------------------------------ saving


def replay_data(game: AnyGame, times: Sequence[float], meta: ReplayMeta) -> dict[str, Any]:
    """The JSON-ready replay of ``game``; ``times`` are parallel to ``game.actions``."""
    if len(times) != len(game.actions):
        raise ValueError(f"{len(times)} times for {len(game.actions)} actions")
    data = game.to_json()
    data["times"] = [round(float(t), 4) for t in _monotonic(times)]
    data["meta"] = meta.to_json()
    data["replay_version"] = REPLAY_VERSION
    return data


def _monotonic(times: Sequence[float]) -> list[float]:
    out: list[float] = []
    last = 0.0
    for t in times:
        last = max(last, float(t))
        out.append(last)
    return out


def replay_name(game: AnyGame, meta: ReplayMeta) -> str:
    """A file name that says when and what: ``20250101-120000-spit-V1V3.json``."""
    stamp = re.sub(r"[^0-9T]", "", meta.date[:19]).replace("T", "-")
    variants = "".join(game.config.variants)
    return f"{stamp}-{game.mode}{'-' + variants if variants else ''}.json"


def save_replay(
    game: AnyGame,
    times: Sequence[float],
    meta: ReplayMeta,
    directory: Path | None = None,
    name: str | None = None,
) -> Path:
    """Write the replay of ``game`` to a new file in the replay folder; return its path.

    ``name`` (ending in ``.json``) replaces the dated file name. Never
    overwrites: a name already taken gets ``-2``, ``-3``... Raises OSError if
    it cannot be written.
    """
    directory = Path(directory) if directory is not None else replay_dir()
    directory.mkdir(parents=True, exist_ok=True)
    name = name or replay_name(game, meta)
    path = directory / name
    n = 2
    while path.exists():
        path = directory / f"{name[:-5]}-{n}.json"
        n += 1
    atomic_write(path, json.dumps(replay_data(game, times, meta), separators=(",", ":")))
    return path


# ------------------------------------------------------------------ loading


def load_replay(path: Path | str) -> Replay:
    """Read, check and replay a replay file; raise ReplayFileError naming the file."""
    path = Path(path)
    try:
        raw = read_capped(path, MAX_REPLAY_BYTES)
    except FileNotFoundError:
        raise ReplayFileError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ReplayFileError(f"{path}: is a folder, not a replay file") from None
    except OSError as exc:
        raise ReplayFileError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except ValueError as exc:
        raise ReplayFileError(f"{path}: {exc}") from None
    try:
        replay = parse_replay(raw)
    except ReplayFileError as exc:
        raise ReplayFileError(f"{path}: {exc}") from None
    replay.path = path
    return replay


def parse_replay(raw: bytes | str) -> Replay:
    """Parse and check replay JSON; raise ReplayFileError with a one-line reason."""
    try:
        data = json.loads(raw)
    except RecursionError:
        raise ReplayFileError("not a replay: nested too deeply") from None
    except ValueError as exc:
        raise ReplayFileError(f"not valid JSON ({_first_line(exc)})") from None
    try:
        return _check(data)
    except ReplayFileError:
        raise
    except ReplayError as exc:
        raise ReplayFileError(_first_line(exc)) from None
    except (RecursionError, MemoryError):
        raise ReplayFileError("the replay is too large or too deeply nested") from None
    except Exception as exc:  # a defect, not a bad file: still one line, never a traceback
        raise ReplayFileError(f"cannot replay ({type(exc).__name__}: {_first_line(exc)})") from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else type(exc).__name__


def _check(data: Any) -> Replay:
    if not isinstance(data, dict):
        raise ReplayFileError("not a replay: the file must hold a JSON object")
    if data.get("replay_version", REPLAY_VERSION) != REPLAY_VERSION:
        raise ReplayFileError(f"unsupported replay version {data.get('replay_version')!r:.20}")
    meta = _meta(data.get("meta"))
    fingerprint = data.get("fingerprint")
    if not isinstance(fingerprint, str) or not re.fullmatch(r"[0-9a-f]{32}", fingerprint):
        raise ReplayFileError("missing or malformed fingerprint")
    raw_actions = data.get("actions")
    if not isinstance(raw_actions, list):
        raise ReplayFileError("actions must be a list")
    times = _times(data.get("times"), len(raw_actions))
    start = new_game_from_save(data)
    final = new_game_from_save(data)
    timed: list[tuple[float, Action]] = []
    for i, (raw, t) in enumerate(zip(raw_actions, times, strict=True)):
        action = action_from_json(raw)
        try:
            final.apply(action)
        except ReplayError:
            raise
        except ValueError as exc:  # IllegalAction and other engine refusals
            raise ReplayFileError(
                f"action {i + 1} at {t:.2f}s ({action.describe()}) is illegal: {exc}"
            ) from None
        timed.append((t, action))
    if final.fingerprint() != fingerprint:
        raise ReplayFileError("the replayed game does not match its fingerprint (edited?)")
    return Replay(start, timed, meta, final, data=data)


def _times(value: Any, n_actions: int) -> list[float]:
    if not isinstance(value, list):
        raise ReplayFileError("times must be a list of seconds")
    if len(value) != n_actions:
        raise ReplayFileError(f"{len(value)} times for {n_actions} actions")
    out: list[float] = []
    last = 0.0
    for i, t in enumerate(value):
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t):
            raise ReplayFileError(f"time {i + 1} is not a number of seconds: {t!r:.30}")
        if not 0.0 <= t <= MAX_TIME:
            raise ReplayFileError(f"time {i + 1} is out of range: {t!r:.30}")
        if t < last:
            raise ReplayFileError(f"time {i + 1} ({t:g}s) is earlier than the one before")
        last = float(t)
        out.append(last)
    return out


def _quoted(value: object, limit: int = 24) -> str:
    """A bad value for a message: quoted, a long text cut with an ellipsis."""
    if isinstance(value, str) and len(value) > limit:
        return repr(value[:limit] + "…")
    return repr(value)[:limit]


def _meta(value: Any) -> ReplayMeta:
    if not isinstance(value, dict):
        raise ReplayFileError("meta must be an object with players and date")
    players = value.get("players")
    if not isinstance(players, list) or len(players) != 2:
        raise ReplayFileError("meta.players must list two players")
    infos: list[PlayerInfo] = []
    for p in players:
        if not isinstance(p, dict):
            raise ReplayFileError("each player must be an object with a name")
        name, bot = p.get("name"), p.get("bot")
        if not isinstance(name, str) or not name or len(name) > MAX_NAME:
            raise ReplayFileError(f"bad player name {_quoted(name)}")
        if bot is not None and (not isinstance(bot, str) or not 0 < len(bot) <= MAX_NAME):
            raise ReplayFileError(f"bad bot level {_quoted(bot)}")
        infos.append(PlayerInfo(name, bot, remote=p.get("remote") is True))
    date = value.get("date")
    if not isinstance(date, str):
        raise ReplayFileError("meta.date must be a date string")
    try:
        datetime.fromisoformat(date)
    except ValueError:
        raise ReplayFileError(f"meta.date is not an ISO date: {date!r:.30}") from None
    return ReplayMeta((infos[0], infos[1]), date)


# ------------------------------------------------------------------ checking


def verify_file(path: Path | str) -> tuple[bool, str]:
    """Replay one file without UI; return (ok, one line to print)."""
    try:
        replay = load_replay(path)
    except ReplayFileError as exc:
        return False, f"FAIL {exc}"
    game = replay.final
    names = " vs ".join(p.label for p in replay.meta.players)
    state = "finished" if game.over else f"unfinished, round {game.round_no}"
    return True, (
        f"ok   {path}: {game.mode}, {names}, {len(replay.timed)} actions, "
        f"{replay.duration:.1f}s, {state}, fingerprint {game.fingerprint()[:12]}"
    )
