"""What the app starts with, what it depends on, and dealing game sessions from them.

* ``AppSettings``: the settings in force (the settings file, the rules of the
  next games, keys, names); one value the app holds and hands to its screens.
* ``Opening``: what the command asked the app to open first.
* ``AppDependencies``: the app's links to the outside world (clock, game and
  bot factories, where results go, the background writer), each replaceable
  by tests.
* ``Dealer``: deals a ``Session`` for a game screen from those.

No Textual here: the screens get a ``Dealer`` passed down and never reach up
into the app. Bots, records and the writer thread are imported only when a
game needs them, so the title screen comes up sooner.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from spit.engine import AnyGame, ConfigError, get_mode
from spit.engine.schema import SettingValue
from spit.play.keys import KeyMap, KeyMapError
from spit.play.session import Recorder, Session
from spit.realtime.arbiter import Agent, Arbiter, Clock, Timing
from spit.store.paths import config_path
from spit.store.settings import BOT_LEVELS, save_settings, set_aside
from spit.store.settings import Settings as UserSettings
from spit.tui.render import Palette, palette_named

if TYPE_CHECKING:
    from spit.store.replays import PlayerInfo, Replay
    from spit.store.writer import Writer

#: The settings file's defaults: the one source of the app's defaults too.
_DEFAULTS = UserSettings()


def _copy_rules(
    rules: Mapping[str, Mapping[str, SettingValue]],
) -> dict[str, dict[str, SettingValue]]:
    return {name: dict(values) for name, values in rules.items()}


@dataclass
class GameSettings:
    """What the next game is dealt with: each mode's rules, the seed, the timing.

    ``rules``: each mode's settings by key, as its schema declares them
    (``Mode.settings``; the settings file's ``[rules.<mode>]``).
    ``computer_auto_spit`` is H2's countdown in games against the computer
    (None: the players call, as between two people).
    """

    rules: dict[str, dict[str, SettingValue]] = field(
        default_factory=lambda: _copy_rules(_DEFAULTS.rules)
    )
    seed: int | None = None
    timing: Timing = field(default_factory=Timing)
    #: H2 against the computer: the game calls "spit!" after this many seconds
    computer_auto_spit: float | None = _DEFAULTS.auto_spit
    bot_level: str = _DEFAULTS.bot_level

    def rules_of(self, mode: str) -> dict[str, SettingValue]:
        """``mode``'s settings by key (its defaults where none is set)."""
        return get_mode(mode).setting_values(self.rules.get(mode))

    def choose(self, mode: str, **values: SettingValue) -> None:
        """Set some of ``mode``'s settings (by key); ConfigError for a bad value."""
        info = get_mode(mode)
        for key, value in values.items():
            setting = info.setting(key)
            if setting is None:
                raise ConfigError(f"{info.title} has no setting {key!r}")
            setting.check(value)
        self.rules[mode] = {**self.rules_of(mode), **values}

    def variants(self, mode: str) -> tuple[str, ...]:
        """The optional rules ``mode``'s next game has, by id."""
        values = self.rules_of(mode)
        return tuple(s.variant for s in get_mode(mode).settings if s.variant and values[s.key])

    def set_variants(self, mode: str, ids: tuple[str, ...]) -> None:
        """Give ``mode``'s next games exactly the optional rules ``ids`` (a match's too)."""
        chosen = {s.key: s.variant in ids for s in get_mode(mode).settings if s.variant}
        self.choose(mode, **chosen)

    def set_target(self, mode: str, target: int) -> None:
        """Play ``mode`` as a match to ``target``: its target setting, and the
        variant its matches need (the mode's ``match_variant``: Spit's V4)."""
        info = get_mode(mode)
        if info.target is None:
            raise ConfigError(f"{info.title} has no match to a target")
        values: dict[str, SettingValue] = {info.target.key: target}
        needs = None if info.match_variant is None else info.variant_setting(info.match_variant)
        if needs is not None:
            values[needs.key] = True
        self.choose(mode, **values)


def settings_from_user(user: UserSettings, seed: int | None = None) -> GameSettings:
    """The app's game settings from the settings file's."""
    return GameSettings(
        rules=_copy_rules(user.rules),
        seed=seed,
        timing=user.timing(),
        computer_auto_spit=user.auto_spit,
        bot_level=user.bot_level,
    )


def keymap_from_user(user: UserSettings) -> tuple[KeyMap, str | None]:
    """The key map of the settings file, or the default and why it could not be used."""
    try:
        return KeyMap.from_keys(user.keys, repeat_window=user.repeat_window), None
    except KeyMapError as exc:
        return KeyMap.default(), f"the keys in the settings cannot be used ({exc}); default keys"


#: writes the settings file; returns the file written (raises OSError or ValueError)
SaveSettings = Callable[[UserSettings], Path]


def write_settings(save: SaveSettings, user: UserSettings) -> tuple[Path | None, str | None]:
    """Write ``user`` with ``save``: (the file, None), or (None, why it was not saved);
    when saved but its keys cannot be used, (the file, that problem)."""
    aside = set_aside()
    try:
        path = save(user)
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return None, f"cannot write {config_path()} ({reason})"
    problems = [keymap_from_user(user)[1]]
    if aside is not None and aside.copy.exists():
        kept = f"the old file {aside.reason}: it is kept as {aside.copy}"
        if aside.commented:
            kept += ", and those lines are kept as comments"
        problems.insert(0, kept)
    found = [p for p in problems if p]
    return path, "; ".join(found) if found else None


@dataclass
class AppSettings:
    """The settings in force: the settings file's contents (``user``), the rules
    of the next games (``game``: the file's, with the command line's choices),
    the key map and the players' names, and the file's problems (``warnings``)."""

    user: UserSettings = field(default_factory=UserSettings)
    game: GameSettings = field(default_factory=GameSettings)
    keymap: KeyMap = field(default_factory=KeyMap.default)
    names: tuple[str, str] = ("Player 1", "Player 2")
    warnings: list[str] = field(default_factory=list)
    #: suits as S H D C and boxes in ASCII (``--ascii``)
    ascii_only: bool = False
    #: no effects on the board (``--reduce-motion``; the settings file has its own)
    reduce_motion: bool = False

    @property
    def palette(self) -> Palette:
        """The card colours the settings file chose."""
        return palette_named(self.user.palette)

    def apply(self, user: UserSettings) -> str | None:
        """Use ``user`` for the next games (names, rules, timing, keys); the seed stays.

        Returns a problem to show if its keys cannot be used.
        """
        self.user = user
        self.game = settings_from_user(user, seed=self.game.seed)
        self.names = user.names
        self.keymap, problem = keymap_from_user(user)
        return problem


@dataclass(frozen=True)
class Opening:
    """What the app opens first: a game of ``mode`` ('spit' or 'speed'; computer
    ``opponents`` by player number, e.g. ``{1: "hard"}``), a ``resumed`` saved
    match, or a ``replay`` in the viewer. All empty: the title menu."""

    mode: str | None = None
    opponents: Mapping[int, str] = field(default_factory=dict)
    replay: Replay | None = None
    resumed: Replay | None = None
    #: a screen to open instead, made with the app's dealer (``spit host``, ``spit join``)
    screen: Callable[[Dealer], object] | None = None
    #: open the ``replay`` paused at this time (seconds), with this note (a coach's moment)
    replay_at: float | None = None
    replay_note: str | None = None

    @property
    def is_menu(self) -> bool:
        """True when nothing but the title menu is asked for."""
        asked = (self.mode, self.replay, self.resumed, self.screen)
        return all(choice is None for choice in asked)

    def __post_init__(self) -> None:
        for level in self.opponents.values():
            if level in BOT_LEVELS:
                continue
            from spit.store.coaching import MATCH_ME, is_match_me

            if not is_match_me(level):
                choices = ", ".join((*BOT_LEVELS, MATCH_ME))
                raise ValueError(f"unknown level {level!r}; choose from {choices}")


def make_game(mode: str, settings: GameSettings, seed: int) -> AnyGame:
    """A new game of ``mode`` (a registered mode's name) with the settings' rules
    (its own, as its schema reads them: ``Mode.config_from_settings``)."""
    info = get_mode(mode)
    return info.new_game(info.config_from_settings(settings.rules_of(mode)), seed)


GameFactory = Callable[[str, GameSettings, int], AnyGame]
#: (level, player, seed, mode) -> a computer player
BotFactory = Callable[[str, int, int, str], Agent]


def _make_bot(level: str, player: int, seed: int, mode: str) -> Agent:
    from spit.bots import make_bot

    return make_bot(level, player, seed=seed, mode=mode)


@dataclass
class AppDependencies:
    """The app's links to the outside world; tests replace them.

    ``clock``: None for the real clock (``time.monotonic``, which Textual
    stamps key events with: each key's own time orders it, R11, and screens
    wake themselves for timers); a test's clock moves only when the test
    advances it and ticks. ``game_factory(mode, settings, seed)`` deals the
    games; ``agents`` are extra computer players by player number;
    ``bot_factory`` makes the computer opponents; ``bot_seed`` seeds the bots'
    own generators (default: at random, never from the deal). ``record``:
    keep every game's replay and result (``database``, ``save_file``: where;
    None: the data directory), written by ``writer`` off the event loop (None:
    the app's own). ``save_settings`` writes the settings file.
    """

    clock: Clock | None = None
    game_factory: GameFactory = make_game
    agents: Mapping[int, Agent] = field(default_factory=dict)
    bot_factory: BotFactory = _make_bot
    bot_seed: int | None = None
    record: bool = True
    database: Path | None = None
    save_file: Path | None = None
    writer: Writer | None = None
    save_settings: SaveSettings = save_settings


def player_infos(
    names: tuple[str, str], levels: Mapping[int, str], agents: Mapping[int, Agent]
) -> tuple[PlayerInfo, PlayerInfo]:
    """Who plays each side, for the records: a name, or a computer and its level."""
    from spit.store.replays import PlayerInfo

    out = []
    for p in (0, 1):
        if p in levels:
            out.append(PlayerInfo(names[p], bot=levels[p]))
        elif p in agents:
            out.append(PlayerInfo(names[p], bot="computer"))
        else:
            out.append(PlayerInfo(names[p]))
    return (out[0], out[1])


def computer_name(level: str) -> str:
    """How a computer player is named on the board."""
    return f"Computer ({level})"


def _match_me_name(level: str, default: str) -> str | None:
    """The person a "match me" level copies, else None; coaching (and the replays it
    reads) loads only for such a level, never for a plain computer level."""
    if level in BOT_LEVELS:
        return None
    from spit.store.coaching import match_me_name

    return match_me_name(level, default)


class Dealer:
    """Deals game sessions with the settings in force and the app's dependencies."""

    def __init__(self, settings: AppSettings, deps: AppDependencies) -> None:
        #: the app's settings (the app replaces its fields when they change)
        self.settings = settings
        self.deps = deps
        self._seed = settings.game.seed
        self._writer = deps.writer
        self._own_writer = False

    @property
    def clock(self) -> Clock:
        """The game clock."""
        return self.deps.clock or time.monotonic

    @property
    def real_time(self) -> bool:
        """True on the real clock: key events' own times count, and screens wake for timers."""
        return self.deps.clock is None

    def next_seed(self) -> None:
        """Move to the next seed for 'play again' (a fixed seed steps by one)."""
        if self._seed is not None:
            self._seed = (self._seed + 1) % 2**64

    def deal(
        self,
        mode: str,
        opponents: Mapping[int, str] | None = None,
        resumed: Replay | None = None,
        on_saved: Callable[[], None] | None = None,
    ) -> Session:
        """A new game session with the current settings (or the ``resumed`` match).

        ``opponents`` maps player numbers to computer levels; those players are
        bots, which see only their observation and act through the arbiter. A
        resumed match brings its own players (names and computer levels).
        ``on_saved`` is called (on the writer's thread) after each save.
        """
        settings = self.settings.game
        names = list(self.settings.names)
        if resumed is not None:
            from spit.store.coaching import is_match_me

            game = resumed.final
            players = resumed.meta.players
            names = [players[0].name, players[1].name]
            opponents = {
                p: info.bot
                for p, info in enumerate(players)
                if info.bot is not None and (info.bot in BOT_LEVELS or is_match_me(info.bot))
            }
        else:
            seed = self._seed if self._seed is not None else random.SystemRandom().getrandbits(63)
            game = self.deps.game_factory(mode, settings, seed)
        agents: dict[int, Agent] = dict(self.deps.agents)
        timing = settings.timing
        if resumed is not None:  # the game goes on under its own fumble rule (none: H8 off)
            h8 = resumed.meta.h8
            timing = replace(timing, fumble_time=0.0) if h8 is None else h8.timing(timing)
        levels: dict[int, str] = {}
        notes: list[str] = []
        if opponents:
            for player, level in opponents.items():
                bot_seed = self.deps.bot_seed
                if bot_seed is None:
                    bot_seed = random.SystemRandom().getrandbits(63)
                person = _match_me_name(level, self.settings.names[0])
                if person is not None:  # "match me": as fast as that person's saved games
                    from spit.bots import make_bot
                    from spit.store.coaching import match_me
                    from spit.store.replays import MAX_NAME

                    like = match_me(person)
                    agents[player] = make_bot(
                        like.strategy,
                        player,
                        seed=bot_seed + player,
                        mode=game.mode,
                        reaction=like.profile.reaction,
                    )
                    names[player] = computer_name(f"like {person}")[:MAX_NAME]
                    level = like.label[:MAX_NAME]
                    notes.append(like.describe())
                else:
                    agents[player] = self.deps.bot_factory(
                        level, player, bot_seed + player, game.mode
                    )
                    names[player] = computer_name(level)
                levels[player] = level
            if timing.auto_spit is None:
                timing = replace(timing, auto_spit=settings.computer_auto_spit)
        shown = (names[0], names[1])
        recorder = None
        if self.deps.record:
            players = player_infos(shown, levels, agents)
            people = len(agents) < 2  # two computers playing: nothing to resume
            recorder = self._recorder(players, resumed, on_saved, keep_progress=people)
        session = Session.local(
            game,
            keymap=self.settings.keymap,
            timing=timing,
            clock=self.clock,
            agents=agents,
            names=shown,
            levels=levels,
            recorder=recorder,
            time_offset=resumed.duration if resumed is not None else 0.0,
        )
        if notes:  # how a "match me" computer plays, on the news line at the start
            session.announce("; ".join(notes))
        return session

    def _recorder(
        self,
        players: tuple[PlayerInfo, PlayerInfo],
        resumed: Replay | None,
        on_saved: Callable[[], None] | None,
        keep_progress: bool = True,
    ) -> Callable[[Arbiter], Recorder]:
        """What keeps a session's game: the match after each round, the replay and result at
        the end, written on the background writer (``spit.store.archive``)."""
        from spit.store.archive import Archiver

        writer = self.writer()

        def archiver(arbiter: Arbiter) -> Archiver:
            return Archiver(
                arbiter,
                players,
                resumed=resumed,
                database=self.deps.database,
                save_file=self.deps.save_file,
                keep_progress=keep_progress,
                writer=writer,
                on_saved=on_saved,
            )

        return archiver

    def writer(self) -> Writer:
        """The background writer (the app's own unless the dependencies give one)."""
        if self._writer is None:
            from spit.store.writer import UI_SETTLE, Writer

            self._writer = Writer(settle=UI_SETTLE)
            self._own_writer = True
        return self._writer

    def close(self, timeout: float | None = None) -> bool:
        """Finish the pending writes (at exit); False if ``timeout`` passed first."""
        if self._writer is None:
            return True
        if self._own_writer:
            return self._writer.close(timeout)
        return self._writer.flush(timeout)
