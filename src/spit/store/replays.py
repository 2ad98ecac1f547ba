"""Replay files: a finished game's save form plus the time of every action.

A replay is plain JSON (never pickle): the engine's save form
(``game.to_json()``: mode, config, seed, cards, actions, fingerprint) with two
more keys, ``times`` (seconds since the game started, one per action, never
decreasing) and ``meta`` (the players and the date), and, for a game played
with fumbles (H8), ``h8``: the fumble time, the race margin and every fumble.
So a replay file is also a valid save for ``spit.engine.saves``. A replay
without ``h8`` (every replay older than H8) was played without it. A network
host's replay also has ``presses``, its race audit (``spit.store.races``);
older replays have none.

Loading checks everything and replays every action: a truncated, edited or
hostile file gives a ``ReplayFileError`` whose message is one line naming the
file and the problem.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from spit.engine import Action, AnyGame, Kind, ReplayError
from spit.engine.actions import action_from_json
from spit.engine.saves import new_game_from_save
from spit.realtime.fumbles import FUMBLE_KINDS, HISTORY, Fumble
from spit.realtime.timers import MAX_FUMBLE_TIME, Timing
from spit.store.paths import atomic_write, private_dir, read_capped, replay_dir
from spit.store.races import Press, PressError, parse_presses

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
class FumbleNote:
    """One fumble (H8) as a replay keeps it: ``action`` refused at ``time`` (seconds
    since the start) with ``index`` actions applied; every position from ``first``
    actions on to ``index`` refused it."""

    index: int
    first: int
    time: float
    action: Action

    def to_json(self) -> list[Any]:
        """Plain JSON form: ``[index, first, time, action]``."""
        return [self.index, self.first, round(self.time, 4), self.action.to_json()]


@dataclass(frozen=True, slots=True)
class H8Record:
    """A game's fumble rule (H8) and its fumbles, in the order they happened."""

    fumble_time: float
    race_margin: float
    fumbles: tuple[FumbleNote, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """Plain JSON form."""
        return {
            "fumble_time": self.fumble_time,
            "race_margin": self.race_margin,
            "fumbles": [f.to_json() for f in self.fumbles],
        }

    def count(self, player: int) -> int:
        """How many times ``player`` fumbled."""
        return sum(1 for f in self.fumbles if f.action.player == player)

    def timing(self, timing: Timing) -> Timing:
        """``timing`` with this game's fumble time and race margin."""
        from dataclasses import replace

        return replace(timing, fumble_time=self.fumble_time, race_margin=self.race_margin)


def h8_record(
    timing: Timing,
    fumbles: Sequence[Fumble],
    start_time: float,
    offset: float = 0.0,
    prior: H8Record | None = None,
) -> H8Record | None:
    """The H8 record of a game from its arbiter's ``timing`` and ``fumbles``
    (times as ``times_from_log`` gives them); None if the game has no H8.

    ``prior``: the record of the sessions before a resumed game."""
    if timing.fumble_time <= 0:
        return prior
    notes = tuple(
        FumbleNote(f.index, f.first, offset + max(0.0, f.time - start_time), f.action)
        for f in fumbles
    )
    earlier = prior.fumbles if prior is not None else ()
    return H8Record(timing.fumble_time, timing.race_margin, earlier + notes)


@dataclass(frozen=True, slots=True)
class ReplayMeta:
    """What the moves do not say: who played and when the game started (ISO 8601),
    and the fumble rule (H8) with every fumble (None: a game without H8)."""

    players: tuple[PlayerInfo, PlayerInfo]
    date: str
    h8: H8Record | None = None

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
    #: a network host's race audit (None: the replay keeps none)
    presses: list[Press] | None = None

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


def replay_data(
    game: AnyGame,
    times: Sequence[float],
    meta: ReplayMeta,
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The JSON-ready replay of ``game``; ``times`` are parallel to ``game.actions``.

    ``extra``: more keys to keep (a network host's ``presses``)."""
    if len(times) != len(game.actions):
        raise ValueError(f"{len(times)} times for {len(game.actions)} actions")
    data = game.to_json()
    data["times"] = [round(float(t), 4) for t in _monotonic(times)]
    data["meta"] = meta.to_json()
    if meta.h8 is not None:
        data["h8"] = meta.h8.to_json()
    data["replay_version"] = REPLAY_VERSION
    if extra:
        data.update(extra)
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
    extra: Mapping[str, Any] | None = None,
) -> Path:
    """Write the replay of ``game`` to a new file in the replay folder; return its path.

    ``name`` (ending in ``.json``) replaces the dated file name. Never
    overwrites: a name already taken gets ``-2``, ``-3``... Raises OSError if
    it cannot be written.
    """
    directory = Path(directory) if directory is not None else replay_dir()
    private_dir(directory)
    name = name or replay_name(game, meta)
    path = directory / name
    n = 2
    while path.exists():
        path = directory / f"{name[:-5]}-{n}.json"
        n += 1
    atomic_write(path, json.dumps(replay_data(game, times, meta, extra), separators=(",", ":")))
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
    h8 = _h8(data.get("h8"), len(data.get("actions") or ()))
    if h8 is not None:
        meta = ReplayMeta(meta.players, meta.date, h8)
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
    fumbles = _FumbleCheck(h8, times)
    for i, (raw, t) in enumerate(zip(raw_actions, times, strict=True)):
        action = action_from_json(raw)
        fumbles.position(final, i)
        fumbles.action(action, i, t)
        try:
            final.apply(action)
        except ReplayError:
            raise
        except ValueError as exc:  # IllegalAction and other engine refusals
            raise ReplayFileError(
                f"action {i + 1} at {t:.2f}s ({action.describe()}) is illegal: {exc}"
            ) from None
        timed.append((t, action))
    fumbles.position(final, len(times))
    if final.fingerprint() != fingerprint:
        raise ReplayFileError("the replayed game does not match its fingerprint (edited?)")
    presses = None
    if data.get("presses") is not None:
        try:
            presses = parse_presses(data["presses"], len(raw_actions))
        except PressError as exc:
            raise ReplayFileError(f"the race audit is damaged: {exc}") from None
    return Replay(start, timed, meta, final, data=data, presses=presses)


#: Most fumbles a replay may hold (one per refused press; a long game has far fewer).
MAX_FUMBLES = 1_000_000
#: Slack for times rounded to 0.1 ms in the file.
_SLACK = 0.002
#: How far back a fumble's window can reach (the positions the arbiter keeps).
_REACH = HISTORY + 2 * MAX_FUMBLE_TIME + 1.0


def _h8(value: Any, n_actions: int) -> H8Record | None:
    """The checked ``h8`` key: None when absent (a game without fumbles)."""
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"fumble_time", "race_margin", "fumbles"}:
        raise ReplayFileError("h8 must hold fumble_time, race_margin and fumbles")
    limits = {}
    for key in ("fumble_time", "race_margin"):
        v = value[key]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= MAX_FUMBLE_TIME:
            raise ReplayFileError(f"h8.{key} must be 0 to {MAX_FUMBLE_TIME:g} seconds")
        limits[key] = float(v)
    raw = value["fumbles"]
    if not isinstance(raw, list) or len(raw) > MAX_FUMBLES:
        raise ReplayFileError("h8.fumbles must be a list")
    notes: list[FumbleNote] = []
    for n, item in enumerate(raw, 1):
        if not isinstance(item, list) or len(item) != 4:
            raise ReplayFileError(f"fumble {n} must be [index, first, time, action]")
        index, first, t, action_raw = item
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (index, first)):
            raise ReplayFileError(f"fumble {n}: index and first must be whole numbers")
        if not 0 <= first <= index <= n_actions:
            raise ReplayFileError(f"fumble {n}: its positions are out of range")
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not 0 <= t <= MAX_TIME:
            raise ReplayFileError(f"fumble {n}: bad time {t!r:.30}")
        action = action_from_json(action_raw)
        if action.kind not in FUMBLE_KINDS:
            raise ReplayFileError(f"fumble {n}: only a play or a move can be a fumble")
        if notes and (index < notes[-1].index or t < notes[-1].time):
            raise ReplayFileError(f"fumble {n} is out of order")
        notes.append(FumbleNote(index, first, float(t), action))
    if limits["fumble_time"] == 0 and notes:
        raise ReplayFileError("fumbles recorded in a game without fumbles")
    return H8Record(limits["fumble_time"], limits["race_margin"], tuple(notes))


class _FumbleCheck:
    """Checks each recorded fumble (H8) while the actions are replayed: every
    position of its window refused it, the window reaches a race margin back, it
    came when that position stood, and its player made no play or move in the
    fumble time after it."""

    def __init__(self, h8: H8Record | None, times: Sequence[float]) -> None:
        self.h8 = h8
        self.notes = list(h8.fumbles) if h8 is not None else []
        self.times = times
        self.held: dict[int, tuple[float, int]] = {}  # player: (until, fumble number)
        self._next = 0  # the first note whose window has not closed

    def position(self, game: AnyGame, k: int) -> None:
        """``game`` stands after ``k`` actions: the fumbles judged in it must be refused."""
        if self.h8 is None:
            return
        while self._next < len(self.notes) and self.notes[self._next].index < k:
            self._next += 1
        times = self.times
        standing = times[k - 1] if k else 0.0  # since when this position stood
        for n in range(self._next, len(self.notes)):
            note = self.notes[n]
            if note.first > k:
                if note.time - standing > _REACH:
                    break  # this and every later window start after this position
                continue
            if game.is_legal(note.action):
                raise ReplayFileError(
                    f"fumble {n + 1} ({note.action.describe()}) fitted after {k} actions"
                )
            if note.index == k:
                if (k and note.time < times[k - 1] - _SLACK) or (
                    k < len(times) and note.time > times[k] + _SLACK
                ):
                    raise ReplayFileError(f"fumble {n + 1} is not at the time of its position")
                if note.first and times[note.first - 1] > note.time - self.h8.race_margin + _SLACK:
                    raise ReplayFileError(f"fumble {n + 1} does not reach a race margin back")
                player = note.action.player
                until = self.held.get(player, (float("-inf"), 0))[0]
                if note.time < until - _SLACK:
                    raise ReplayFileError(f"fumble {n + 1} came inside the one before")
                self.held[player] = (note.time + self.h8.fumble_time, n + 1)

    def action(self, action: Action, i: int, t: float) -> None:
        """Action ``i`` at ``t``: no play or move inside its player's fumble time."""
        if self.h8 is None or action.kind not in (Kind.PLAY, Kind.MOVE):
            return
        held = self.held.get(action.player)
        if held is not None and t < held[0] - _SLACK:
            raise ReplayFileError(
                f"action {i + 1} at {t:.2f}s ({action.describe()}) came inside fumble {held[1]}"
            )


def _times(value: Any, n_actions: int) -> list[float]:
    if not isinstance(value, list):
        raise ReplayFileError("times must be a list of seconds")
    if len(value) != n_actions:
        raise ReplayFileError(f"{len(value)} times for {n_actions} actions")
    out: list[float] = []
    last = 0.0
    for i, t in enumerate(value):
        if isinstance(t, bool) or not isinstance(t, (int, float)):
            raise ReplayFileError(f"time {i + 1} is not a number of seconds: {t!r:.30}")
        # compared before any float(): an int too large for a float must not overflow
        if isinstance(t, float) and not math.isfinite(t):
            raise ReplayFileError(f"time {i + 1} is not a number of seconds: {t!r:.30}")
        if not 0 <= t <= MAX_TIME:
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
