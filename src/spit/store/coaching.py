"""Coaching from saved games: the summary of one replay, and a player's speed profile.

Joins the pure analysis (``spit.play.coach``) with the files (replays) and the
computer levels (``spit.bots.fit``): which level plays at a player's speed, and
the reaction time a "match me" bot should have.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spit.bots import DEFAULT_LEVEL
from spit.bots.fit import MIN_SAMPLES, closest_level, fit_reaction, typical_delay
from spit.bots.reaction import Reaction
from spit.engine import Action, AnyGame, ConfigError, get_mode
from spit.engine.saves import new_game_from_save
from spit.play.coach import Analysis, Moment, PlayerSummary, analyse, moments
from spit.store.paths import replay_dir
from spit.store.replays import PlayerInfo, Replay, ReplayFileError, load_replay

#: A closest level is named only from this many plays (fewer say too little).
MIN_PLAYS_FOR_LEVEL = 3
#: How many of a player's newest replays feed their speed profile.
PROFILE_REPLAYS = 50


@dataclass(frozen=True, slots=True)
class PlayerReport:
    """One player's coaching figures from one game."""

    label: str
    summary: PlayerSummary
    closest_level: str | None

    def to_json(self) -> dict[str, Any]:
        """Plain JSON form."""
        return {"player": self.label, "closest_level": self.closest_level, **self.summary.to_json()}


@dataclass(frozen=True, slots=True)
class Coaching:
    """The coaching summary of one game: a report per player."""

    mode: str
    duration: float
    players: tuple[PlayerReport, PlayerReport]
    source: str | None = None
    #: the moments to watch again (``spit.play.coach.moments``), numbered from 1 in order
    moments: tuple[Moment, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """Plain JSON form."""
        return {
            "mode": self.mode,
            "duration": round(self.duration, 3),
            "replay": self.source,
            "players": [p.to_json() for p in self.players],
            "moments": [m.to_json() for m in self.moments],
        }

    def moment_lines(self) -> list[str]:
        """The moments, numbered, under each player's name (at most 76 characters each)."""
        out: list[str] = []
        last = None
        for n, moment in enumerate(self.moments, start=1):
            if moment.player != last:
                last = moment.player
                out.append(f"{self.players[moment.player].label}: moments to watch again")
            out.append(f"  {n}. {moment.words()}")
        return out

    def lines(self) -> list[str]:
        """The summary as short lines of plain text (fits 80 columns)."""
        out: list[str] = []
        for report in self.players:
            out.extend(player_lines(report, calls_and_slaps=_has_slaps(self.mode)))
            out.append("")
        return out[:-1]


def _has_slaps(mode: str) -> bool:
    """Whether ``mode``'s games have calls at a stalemate and slaps (the mode's record says)."""
    try:
        return get_mode(mode).has_slaps
    except ConfigError:  # a replay of a mode this spit does not know
        return False


def _secs(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}s"


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def player_lines(report: PlayerReport, calls_and_slaps: bool = True) -> list[str]:
    """Five lines about one player (three without calls and slaps, as in Speed).

    Each line has at most 76 characters.
    """
    s = report.summary
    level = f"plays like {report.closest_level}" if report.closest_level else "too few plays"
    # timed from when the played card could first be played (see play/coach.py)
    reaction = (
        f"  reaction from when playable: median {_secs(s.median_reaction)}, "
        f"fastest {_secs(s.fastest_reaction)}"
    )
    if s.fumbles:
        reaction += f"; {_count(s.fumbles, 'fumble')}"
    lines = [
        f"{report.label}: {_count(s.plays, 'card')}, {s.cards_per_minute:.0f} a minute; {level}",
        reaction,
        f"  missed chances: {s.missed} ({s.missed_beaten} taken first by the opponent, "
        f"{s.missed_slow} left over 2s)",
    ]
    calls = f"{_count(s.calls, 'spit call')}, {s.late_calls} late" if s.calls else "no spit calls"
    if s.calls:
        calls += f" (median {_secs(s.median_call)})"
    chose = f"{_count(s.choices, 'pile choice')}, {s.right_choices} of the smaller pile"
    if s.slaps or s.missed_slaps:
        slaps = f"{_count(s.slaps, 'slap')}, {s.right_slaps} on the smaller pile"
        if s.median_slap is not None and not s.choices:
            slaps += f" (median {_secs(s.median_slap)})"
        if s.missed_slaps:
            slaps += f", {s.missed_slaps} too late"
        if s.choices:
            slaps += f"; {_count(s.choices, 'pile choice')}"
    elif s.choices:  # V2: the pile was chosen, never slapped
        slaps = chose
    else:
        slaps = "no slaps"
    if calls_and_slaps:
        lines.append(f"  {calls}")
        lines.append(f"  {slaps}")
    return lines


def _report(analysis: Analysis, player: int, label: str) -> PlayerReport:
    summary = analysis.summary(player)
    level = None
    if summary.plays >= MIN_PLAYS_FOR_LEVEL and summary.median_reaction:
        level = closest_level(summary.median_reaction)
    return PlayerReport(label, summary, level)


def coach_analysis(
    analysis: Analysis,
    players: Sequence[PlayerInfo],
    source: str | None = None,
    found: Sequence[Moment] = (),
) -> Coaching:
    """The coaching summary of an analysed game (``found``: its moments)."""
    reports = (_report(analysis, 0, players[0].label), _report(analysis, 1, players[1].label))
    return Coaching(analysis.mode, analysis.duration, reports, source, tuple(found))


def coached_players(players: Sequence[PlayerInfo]) -> list[int]:
    """Whose moments to show: the people (both players when two computers played)."""
    people = [p for p, info in enumerate(players) if info.bot is None]
    return people or [0, 1]


def _coach(
    start: AnyGame,
    timed: Sequence[tuple[float, Action]],
    players: Sequence[PlayerInfo],
    source: str | None,
    fumblers: Sequence[int] = (),
) -> Coaching:
    analysis = analyse(start, timed, fumblers)
    found = moments(start, timed, analysis, coached_players(players))
    return coach_analysis(analysis, players, source, found)


def coach_replay(replay: Replay) -> Coaching:
    """The coaching summary of a loaded replay, with its moments."""
    h8 = replay.meta.h8
    fumblers = [f.action.player for f in h8.fumbles] if h8 is not None else []
    source = str(replay.path) if replay.path is not None else None
    return _coach(replay.fresh_start(), replay.timed, replay.meta.players, source, fumblers)


def coach_game(
    game: AnyGame,
    times: Sequence[float],
    players: Sequence[PlayerInfo],
    fumblers: Sequence[int] = (),
) -> Coaching:
    """The coaching summary of a game just played (``times`` parallel to its actions;
    ``fumblers``: who made each of its fumbles)."""
    start = new_game_from_save(game.to_json())
    timed = list(zip(times, game.actions, strict=True))
    return _coach(start, timed, players, None, fumblers)


def replay_files(directory: Path | None = None) -> list[Path]:
    """The saved replays, newest first (by file time, then name)."""
    directory = Path(directory) if directory is not None else replay_dir()
    try:
        files = [p for p in directory.iterdir() if p.suffix == ".json" and p.is_file()]
    except OSError:
        return []

    def key(path: Path) -> tuple[float, str]:
        try:
            return (path.stat().st_mtime, path.name)
        except OSError:
            return (0.0, path.name)

    return sorted(files, key=key, reverse=True)


def last_replay(directory: Path | None = None) -> Path | None:
    """The newest saved replay, or None if there is none."""
    files = replay_files(directory)
    return files[0] if files else None


def _player_replays(
    name: str, directory: Path | None, mode: str | None = None
) -> Iterator[tuple[Replay, int]]:
    """The newest readable replays (of ``mode``, or any) where the person ``name`` played."""
    found = 0
    for path in replay_files(directory):
        if found >= PROFILE_REPLAYS:
            return
        try:
            replay = load_replay(path)
        except ReplayFileError:
            continue
        if mode is not None and replay.final.mode != mode:
            continue
        for seat, info in enumerate(replay.meta.players):
            if info.bot is None and info.name == name:
                found += 1
                yield replay, seat
                break


def player_reactions(
    name: str, directory: Path | None = None, mode: str | None = None
) -> list[float]:
    """Every measured reaction of the person ``name`` in their newest saved replays.

    ``mode`` ('spit' or 'speed') keeps only games of that mode.
    """
    out: list[float] = []
    for replay, seat in _player_replays(name, directory, mode):
        out.extend(analyse(replay.fresh_start(), replay.timed).reactions(seat))
    return out


@dataclass(frozen=True, slots=True)
class SpeedProfile:
    """A person's measured speed and the reaction a bot needs to match it."""

    name: str
    reactions: int
    reaction: Reaction

    @property
    def fitted(self) -> bool:
        """False when there were too few reactions and the default is used."""
        return self.reactions >= MIN_SAMPLES


def speed_profile(name: str, directory: Path | None = None) -> SpeedProfile:
    """Fit a reaction time to the person ``name``'s saved games (a default with too few)."""
    samples = player_reactions(name, directory)
    return SpeedProfile(name, len(samples), fit_reaction(samples))


# ------------------------------------------------------------------ match me

#: The computer level that plays at a person's own measured speed.
MATCH_ME = "match-me"
#: ``me:NAME`` names the person to match; plain ``match-me`` means player 1.
ME_PREFIX = "me:"


def match_me_name(level: str, default: str) -> str | None:
    """The person a "match me" level copies (``default`` for plain ``match-me``), else None."""
    if level == MATCH_ME:
        return default
    if level.startswith(ME_PREFIX):
        name = level[len(ME_PREFIX) :].strip()
        return name or None
    return None


def is_match_me(level: object) -> bool:
    """True for ``match-me`` and ``me:NAME``."""
    return isinstance(level, str) and (level == MATCH_ME or level.startswith(ME_PREFIX))


@dataclass(frozen=True, slots=True)
class MatchMe:
    """A "match me" bot's make-up: the fitted reaction and the strategy of the nearest level."""

    profile: SpeedProfile
    strategy: str

    @property
    def label(self) -> str:
        """The level as kept in replays and records: ``me:NAME``."""
        return f"{ME_PREFIX}{self.profile.name}"

    def describe(self) -> str:
        """How fast it plays, in words, for the board when the game starts."""
        name, n = self.profile.name, self.profile.reactions
        if self.profile.fitted:
            return f"The computer plays as fast as {name} in {n} saved plays ({self.strategy}-like)"
        return (
            f"Too few saved plays of {name} to copy ({n} of {MIN_SAMPLES}): "
            f"the computer plays at the {DEFAULT_LEVEL} level's speed"
        )


def match_me(name: str, directory: Path | None = None) -> MatchMe:
    """A bot as fast as ``name`` in their saved games, playing like the nearest level."""
    profile = speed_profile(name, directory)
    return MatchMe(profile, closest_level(typical_delay(profile.reaction)))
