"""The settings file: key maps, each game's rules, timing, bot level, names.

A TOML file in the user's config directory (``SPIT_CONFIG`` overrides its
path; see ``spit.store.paths``). ``load_settings`` reads it with ``tomllib`` and
never fails: a mistake gives a warning naming the file, the line and the
problem, and only the bad part falls back to its default. ``save_settings``
updates the file atomically with tomlkit, keeping a person's comments, layout
and any keys spit does not know.

Each game's rules are a table of their own, ``[rules.<mode>]``, holding the
settings that mode's schema declares (``Mode.settings``). A file of the old
layout (one ``variants`` list and per-mode keys in ``[game]``) is read as
it always was; saving it moves those values into the tables and first keeps
the old file as ``NAME.old``. A file spit cannot read, or whose values it
cannot all use, is kept as ``NAME.bak`` before it is written over.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from spit.bots import DEFAULT_LEVEL, LEVELS
from spit.engine import all_modes, get_mode, mode_names
from spit.engine.errors import ConfigError
from spit.engine.rule_words import variant_id, variant_names
from spit.engine.schema import SettingValue
from spit.play.keys import (
    ACTIONS,
    check_key,
    default_keys,
    keymap_problems,
    shown,
)
from spit.realtime.timers import (
    DEFAULT_FUMBLE_TIME,
    DEFAULT_RACE_MARGIN,
    MAX_FUMBLE_TIME,
    Timing,
)
from spit.store.paths import atomic_write, config_path, read_capped

#: Largest config file we read (a real one is about 1 KB).
MAX_CONFIG_BYTES = 1_000_000
#: The computer levels, weakest first (the bots' own list).
BOT_LEVELS: tuple[str, ...] = LEVELS
MAX_NAME = 24
#: The card colours (``spit.tui.render.PALETTES`` has each one's colours).
PALETTE_NAMES = ("default", "colour-blind", "four-colour", "light")
#: Longest held-key window, in seconds (the key map allows 0 to 2).
MAX_REPEAT_WINDOW = 2.0
#: The opponent the setup screen chose last: a person at this keyboard, a
#: computer level, or a computer as fast as player 1 ("match-me").
PERSON = "person"
OPPONENTS: tuple[str, ...] = (PERSON, *LEVELS, "match-me")
#: The table of each game's rules: ``[rules.<mode>]``.
RULES = "rules"
#: The old layout's keys of ``[game]``: one ``variants`` list for every game,
#: Speed's deal and each game's ``<mode>_target`` (moved to ``[rules.<mode>]``).
OLD_VARIANTS = "variants"
OLD_DEAL = "speed_deal"
OLD_TARGET = "{mode}_target"
#: The old ``speed_deal`` value that meant the long deal (the rule P1b).
OLD_LONG_DEAL = ("long", "P1b")

Rules = Mapping[str, Mapping[str, SettingValue]]


def _rules_of_modes(given: Rules) -> dict[str, dict[str, SettingValue]]:
    """Every registered mode's values (``given``'s where good, else defaults),
    and ``given``'s for modes not registered (kept as they are)."""
    out = {m.name: m.setting_values(given.get(m.name)) for m in all_modes() if m.settings}
    for name, values in given.items():
        out.setdefault(name, dict(values))
    return out


def old_keys(mode_list: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """The keys of ``[game]`` in the old layout (every registered mode's target)."""
    names = mode_list if mode_list is not None else mode_names()
    return (OLD_VARIANTS, OLD_DEAL, *(OLD_TARGET.format(mode=m) for m in names))


@dataclass(frozen=True)
class Settings:
    """Every user setting.

    ``rules``: each game's settings by mode name, then by the key its schema
    gives (``Mode.settings``); a registered mode's values are checked and
    completed with its defaults when made (``rules_of`` reads them).
    ``auto_spit`` is H2's countdown in seconds against the computer (None: off);
    ``repeat_window`` the held-key window: a second press of the same key
    sooner than this is taken as the key held down, and ignored (0 to 2 s);
    ``palette`` the card colours (one of ``PALETTE_NAMES``); ``fumble_time``
    and ``race_margin`` are H8's (0 to 2 s; a fumble time of 0 turns fumbles off).
    """

    names: tuple[str, str] = ("Player 1", "Player 2")
    keys: tuple[dict[str, str], dict[str, str]] = field(default_factory=default_keys)
    rules: Rules = field(default_factory=dict)
    bot_level: str = DEFAULT_LEVEL
    auto_spit: float | None = 2.0
    slap_time: float = 3.0
    repeat_window: float = 0.5
    palette: str = "default"
    mode: str = field(default_factory=lambda: mode_names()[0])
    opponent: str = PERSON
    fumble_time: float = DEFAULT_FUMBLE_TIME
    race_margin: float = DEFAULT_RACE_MARGIN
    #: the board's brief highlights (a played card's slot and pile, a slap) are off
    reduce_motion: bool = False
    #: the terminal bell on a stalemate, a spit and the end of a game
    sound: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", _rules_of_modes(self.rules))

    def with_changes(self, **changes: Any) -> Settings:
        """A copy with some fields changed."""
        return replace(self, **changes)

    def rules_of(self, mode: str) -> dict[str, SettingValue]:
        """The settings of ``mode``'s games by key (its defaults where none is kept)."""
        return get_mode(mode).setting_values(self.rules.get(mode))

    def with_rules(self, mode: str, **values: SettingValue) -> Settings:
        """A copy with some of ``mode``'s settings changed (by key)."""
        rules = {name: dict(v) for name, v in self.rules.items()}
        rules[mode] = {**self.rules_of(mode), **values}
        return replace(self, rules=rules)

    def timing(self) -> Timing:
        """The timing rules of a game dealt with these settings (players call, H2)."""
        return Timing(
            auto_spit=None,
            slap_time=self.slap_time,
            fumble_time=self.fumble_time,
            race_margin=self.race_margin,
        )


def same_name(a: str, b: str) -> bool:
    """True if two players' names are the same to a reader (case and spaces aside):
    two players may not share one, or messages and records cannot tell them apart."""
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def _number(value: object, low: float, high: float) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if not math.isfinite(value) or not low <= value <= high:
        return None
    return float(value)


# ---------------------------------------------------------------- loading


def load_settings(path: Path | str | None = None) -> tuple[Settings, list[str]]:
    """Read the settings file; return (settings, warnings). Never raises.

    A missing file gives the defaults and no warning. A file that cannot be
    read or parsed gives the defaults and one warning; a bad value gives a
    warning naming its line and keeps the default for that value only.
    """
    path = Path(path) if path is not None else config_path()
    try:
        raw = read_capped(path, MAX_CONFIG_BYTES)
    except FileNotFoundError:
        return Settings(), []
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return Settings(), [f"{path}: cannot read the settings file ({reason}); using defaults"]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        return Settings(), [f"{path}, line {line}: not UTF-8 text; using defaults"]
    import tomllib  # only when there is a file to read

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        salvaged = salvage(text)
        if salvaged is None:
            return Settings(), [f"{path}: {exc}; using defaults"]
        text, dropped = salvaged
        data = tomllib.loads(text)
        skipped = [f"{path}, line {n}: {reason}; that line is ignored" for n, reason in dropped]
    except RecursionError:
        return Settings(), [f"{path}: nested too deeply; using defaults"]
    else:
        skipped = []
    reader = _Reader(path, text)
    settings = reader.read(data)
    return settings, skipped + reader.in_line_order()


#: How many unreadable lines ``salvage`` sets aside before it gives up on a file.
MAX_BAD_LINES = 20
#: What ``salvage`` writes before a line it could not read, when the file is saved.
BAD_LINE_MARK = "# spit could not read this line: "
_AT_LINE = re.compile(r"\(at line (\d+), column \d+\)")


def salvage(text: str) -> tuple[str, list[tuple[int, str]]] | None:
    """``text`` with each line TOML cannot read turned into a comment, and those
    lines' numbers and problems; None if that does not make it valid TOML.

    So a mistake on one line of the settings file costs that line, not the
    whole file.
    """
    import tomllib

    lines = text.splitlines()
    dropped: list[tuple[int, str]] = []
    for _ in range(MAX_BAD_LINES):
        try:
            tomllib.loads("\n".join(lines))
        except tomllib.TOMLDecodeError as exc:
            found = _AT_LINE.search(str(exc))
            number = int(found.group(1)) if found else 0
            if not 1 <= number <= len(lines) or lines[number - 1].startswith(BAD_LINE_MARK):
                return None
            dropped.append((number, _AT_LINE.sub("", str(exc)).strip()))
            lines[number - 1] = BAD_LINE_MARK + lines[number - 1]
        except RecursionError:
            return None
        else:
            return "\n".join(lines) + ("\n" if text.endswith("\n") else ""), dropped
    return None


class _Reader:
    """Turns parsed TOML into Settings, collecting one warning per problem."""

    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.lines = text.splitlines()
        self.warnings: list[str] = []
        self._lines_of: list[int] = []
        #: a value could not be used: saving would write over it (so a copy is kept)
        self.lost = False
        #: the file has keys of the old layout (saving moves them)
        self.old_layout = False

    def warn(self, dotted: str, problem: str, lost: bool = True) -> None:
        """Note a problem at ``dotted``; ``lost``: saving would write over the value."""
        line = find_line(self.lines, dotted)
        where = f"{self.path}, line {line}" if line else str(self.path)
        self.warnings.append(f"{where}: {dotted}: {problem}")
        self._lines_of.append(line or 0)
        self.lost = self.lost or lost

    def in_line_order(self) -> list[str]:
        """The warnings in the order of the file's lines (those without a line first)."""
        order = sorted(range(len(self.warnings)), key=lambda i: self._lines_of[i])
        return [self.warnings[i] for i in order]

    def table(self, data: dict[str, Any], name: str, prefix: str = "") -> dict[str, Any]:
        value = data.get(name, {})
        if not isinstance(value, dict):
            self.warn(prefix + name, "must be a table; using defaults")
            return {}
        return value

    def unknown(self, table: dict[str, Any], prefix: str, known: tuple[str, ...]) -> None:
        for key in table:
            if key not in known:
                self.warn(f"{prefix}{key}", "unknown setting, ignored", lost=False)

    def read(self, data: dict[str, Any]) -> Settings:
        defaults = Settings()
        self.unknown(data, "", ("players", "game", "timing", "keys", "display", RULES))
        players = self.table(data, "players")
        game = self.table(data, "game")
        rules = self.table(data, RULES)
        timing = self.table(data, "timing")
        display = self.table(data, "display")
        self.unknown(display, "display.", ("palette", "reduce_motion", "sound"))
        self.unknown(players, "players.", ("player1", "player2"))
        self.unknown(
            game,
            "game.",
            ("bot_level", "mode", "opponent", *old_keys()),
        )
        self.unknown(
            timing,
            "timing.",
            ("auto_spit", "slap_time", "repeat_window", "fumble_time", "race_margin"),
        )
        names = tuple(self.name(players, f"player{p + 1}", defaults.names[p]) for p in (0, 1))
        if same_name(names[0], names[1]):
            other = next(n for n in defaults.names[::-1] if not same_name(n, names[0]))
            self.warn(
                "players.player2",
                f"the same name as player 1 ({names[1]!r}); using {other!r}",
            )
            names = (names[0], other)
        return Settings(
            names=(names[0], names[1]),
            keys=self.keys(self.table(data, "keys")),
            rules=self.rules(rules, self.old_rules(game)),
            bot_level=self.choice(game, "bot_level", BOT_LEVELS, defaults.bot_level),
            auto_spit=self.auto_spit(timing, defaults.auto_spit),
            slap_time=self.seconds(timing, "slap_time", 0.5, 30.0, defaults.slap_time),
            repeat_window=self.seconds(
                timing, "repeat_window", 0.0, MAX_REPEAT_WINDOW, defaults.repeat_window
            ),
            palette=self.choice(display, "palette", PALETTE_NAMES, defaults.palette, "display"),
            mode=self.choice(game, "mode", mode_names(), defaults.mode),
            opponent=self.choice(game, "opponent", OPPONENTS, defaults.opponent),
            fumble_time=self.seconds(
                timing, "fumble_time", 0.0, MAX_FUMBLE_TIME, defaults.fumble_time
            ),
            race_margin=self.seconds(
                timing, "race_margin", 0.0, MAX_FUMBLE_TIME, defaults.race_margin
            ),
            reduce_motion=self.flag(display, "reduce_motion", defaults.reduce_motion),
            sound=self.flag(display, "sound", defaults.sound),
        )

    def flag(self, table: dict[str, Any], key: str, default: bool) -> bool:
        """A true/false setting of the display table."""
        if key not in table:
            return default
        value = table[key]
        if isinstance(value, bool):
            return value
        self.warn(f"display.{key}", f"must be true or false, got {shown(value)}; using {default}")
        return default

    def rules(
        self, table: dict[str, Any], old: dict[str, dict[str, SettingValue]]
    ) -> dict[str, dict[str, SettingValue]]:
        """Each game's settings: its ``[rules.<mode>]`` table, checked by its schema,
        over what the old layout gave (``old``), over its defaults."""
        out: dict[str, dict[str, SettingValue]] = {}
        for name in table:
            if name not in mode_names():
                self.warn(f"{RULES}.{name}", "no game of that name, ignored", lost=False)
        for mode in all_modes():
            if not mode.settings:
                continue
            values = dict(old.get(mode.name, {}))
            if mode.name in table:
                section = self.table(table, mode.name, f"{RULES}.")
                known = tuple(s.key for s in mode.settings)
                self.unknown(section, f"{RULES}.{mode.name}.", known)
                for setting in mode.settings:
                    if setting.key not in section:
                        continue
                    try:
                        values[setting.key] = setting.check(section[setting.key])
                    except ConfigError:
                        self.warn(
                            f"{RULES}.{mode.name}.{setting.key}",
                            f"must be {setting.allowed()}, got {shown(section[setting.key])}; "
                            f"using {shown(values.get(setting.key, setting.default))}",
                        )
            out[mode.name] = mode.setting_values(values)
        return out

    def old_rules(self, game: dict[str, Any]) -> dict[str, dict[str, SettingValue]]:
        """The rules a file of the old layout chose in ``[game]``, by mode: one
        ``variants`` list for every game (each takes the rules it has), Speed's
        deal (``speed_deal = "long"``: its long deal) and ``<mode>_target``."""
        out: dict[str, dict[str, SettingValue]] = {m.name: {} for m in all_modes()}
        if any(key in game for key in old_keys()):
            self.old_layout = True
        chosen: set[str] | None = None
        if OLD_VARIANTS in game:
            chosen = set(self.variants(game))
        if OLD_DEAL in game:
            deal = game[OLD_DEAL]
            if deal == "standard" or deal in OLD_LONG_DEAL:
                chosen = (chosen or set()) | ({"P1b"} if deal in OLD_LONG_DEAL else set())
            else:
                self.warn(
                    f"game.{OLD_DEAL}",
                    f'must be "standard" or "long", got {shown(deal)}; using "standard"',
                )
        for mode in all_modes():
            for setting in mode.settings:
                if chosen is not None and setting.variant is not None:
                    out[mode.name][setting.key] = setting.variant in chosen
            key = OLD_TARGET.format(mode=mode.name)
            target = mode.target
            if key in game and target is not None:
                try:
                    out[mode.name][target.key] = target.check(game[key])
                except ConfigError:
                    self.warn(
                        f"game.{key}",
                        f"must be a whole number from {target.low} to {target.high}, "
                        f"got {shown(game[key])}; using {target.default}",
                    )
        return out

    def name(self, table: dict[str, Any], key: str, default: str) -> str:
        if key not in table:
            return default
        value = table[key]
        if not isinstance(value, str) or not value.strip() or not value.isprintable():
            self.warn(
                f"players.{key}", f"must be a non-empty name, got {shown(value)}; using {default!r}"
            )
            return default
        if len(value) > MAX_NAME:
            self.warn(f"players.{key}", f"longer than {MAX_NAME} characters; shortened")
        return value.strip()[:MAX_NAME]

    def variants(self, table: dict[str, Any]) -> tuple[str, ...]:
        """The old layout's ``variants``: rule ids or words, any game's."""
        value = table[OLD_VARIANTS]
        if not isinstance(value, list):
            self.warn(
                "game.variants",
                'must be a list such as ["four-stocks", "alternating-colours"], '
                f"got {shown(value)}",
            )
            return ()
        known = tuple(dict.fromkeys(v for m in all_modes() for v in m.variants))
        chosen: list[str] = []
        for item in value:
            v = variant_id(item) if isinstance(item, str) else None  # a word or a rule id
            if v not in known:
                self.warn(
                    "game.variants",
                    f"unknown variant {shown(item)} ignored (choose from {variant_names(known)})",
                )
            elif v not in chosen:
                chosen.append(v)
        return tuple(chosen)

    def choice(
        self,
        table: dict[str, Any],
        key: str,
        options: tuple[str, ...],
        default: str,
        section: str = "game",
    ) -> str:
        if key not in table:
            return default
        value = table[key]
        if isinstance(value, str) and value in options:
            return value
        self.warn(
            f"{section}.{key}",
            f"must be one of {', '.join(options)}, got {shown(value)}; using {default!r}",
        )
        return default

    def seconds(
        self, table: dict[str, Any], key: str, low: float, high: float, default: float
    ) -> float:
        if key not in table:
            return default
        value = _number(table[key], low, high)
        if value is None:
            self.warn(
                f"timing.{key}",
                f"must be a number of seconds from {low:g} to {high:g}, "
                f"got {shown(table[key])}; using {default:g}",
            )
            return default
        return value

    def auto_spit(self, table: dict[str, Any], default: float | None) -> float | None:
        if "auto_spit" not in table:
            return default
        value = table["auto_spit"]
        if value == "off" or value is False:
            return None
        number = _number(value, 0.0, 30.0)
        if number is None:
            self.warn(
                "timing.auto_spit",
                f'must be seconds from 0 to 30 or "off", got {shown(value)}; using {default}',
            )
            return default
        return number

    def keys(self, table: dict[str, Any]) -> tuple[dict[str, str], dict[str, str]]:
        maps = default_keys()
        self.unknown(table, "keys.", ("player1", "player2"))
        for p in (0, 1):
            name = f"player{p + 1}"
            section = self.table(table, name) if name in table else {}
            for action, key in section.items():
                dotted = f"keys.{name}.{action}"
                if action not in ACTIONS:
                    self.warn(dotted, "unknown action, ignored")
                    continue
                bad = check_key(key)
                if bad:
                    self.warn(dotted, f"{bad}; using {maps[p][action]!r}")
                    continue
                maps[p][action] = key.lower() if key.isalpha() else key
        problems = keymap_problems(maps)
        if problems:
            self.warn("keys", f"{problems[0]}; using the default keys for both players")
            return default_keys()
        return maps


def find_line(lines: list[str], dotted: str) -> int | None:
    """The 1-based line where the TOML key ``dotted`` (or its nearest table) is set.

    A small scan of ``[table]`` headers and ``key =`` lines; good enough to point
    a person at their mistake (it is not a TOML parser).
    """
    target = dotted.split(".")
    best: tuple[int, int] | None = None  # (matched depth, line)
    table: list[str] = []
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        header = _HEADER.match(stripped)
        if header:
            table = _split_key(header.group(1))
            path = table
        else:
            assign = _ASSIGN.match(stripped)
            if not assign:
                continue
            path = table + _split_key(assign.group(1))
        depth = _common(path, target)
        if depth == len(path) and depth and (best is None or depth > best[0]):
            best = (depth, number)
    return best[1] if best else None


_HEADER = re.compile(r"^\[\s*([^\[\]]+?)\s*\]")
_ASSIGN = re.compile(
    r"^((?:[A-Za-z0-9_-]+|\"[^\"]*\"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|\"[^\"]*\"|'[^']*'))*)\s*="
)


def _split_key(key: str) -> list[str]:
    parts = re.findall(r"\"[^\"]*\"|'[^']*'|[^.\s]+", key)
    return [p.strip("\"'") for p in parts]


def _common(a: list[str], b: list[str]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


# ---------------------------------------------------------------- saving

#: The first line of a settings file spit writes from scratch.
HEADER = "spit settings (see docs/files.md). Comments and unknown keys are kept."


def save_settings(settings: Settings, path: Path | str | None = None) -> Path:
    """Write ``settings`` to the config file atomically; return its path.

    The file is updated in place: a person's comments, layout and keys spit
    does not know survive. Raises OSError if the file cannot be written (the
    old file is then intact).
    """
    path = Path(path) if path is not None else config_path()
    try:
        raw: bytes | None = read_capped(path, MAX_CONFIG_BYTES)
    except (OSError, ValueError):  # missing, unreadable, too big: start afresh
        raw = None
    old = None
    if raw is not None:
        aside = _set_aside(path, raw)
        if aside is not None:  # never write over what could not be used without keeping it
            atomic_write(aside.copy, raw, private=True)
        try:
            old = raw.decode("utf-8")
        except UnicodeDecodeError:
            old = None
        if old is not None and not _is_toml(old):
            salvaged = salvage(old)
            old = None if salvaged is None else salvaged[0]
    atomic_write(path, dumps_settings(settings, old), private=False)
    return path


def backup_path(path: Path) -> Path:
    """Where ``save_settings`` keeps a settings file it could not read: ``NAME.bak``."""
    return path.with_name(path.name + ".bak")


def old_layout_path(path: Path) -> Path:
    """Where ``save_settings`` keeps a file of the old layout it moves: ``NAME.old``."""
    return path.with_name(path.name + ".old")


@dataclass(frozen=True)
class SetAside:
    """A copy ``save_settings`` keeps before it writes over the file, and why."""

    copy: Path
    #: why, in words: "had lines spit could not read", "had values spit could not use"...
    reason: str
    #: the lines spit could not read are kept in the new file too, as comments
    commented: bool = False


def set_aside(path: Path | str | None = None) -> SetAside | None:
    """The copy that saving the settings file now would keep (None: none is needed)."""
    path = Path(path) if path is not None else config_path()
    try:
        raw = read_capped(path, MAX_CONFIG_BYTES)
    except (OSError, ValueError):
        return None
    return _set_aside(path, raw)


def _set_aside(path: Path, raw: bytes) -> SetAside | None:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return SetAside(backup_path(path), "was not text spit could read")
    if not _is_toml(text):
        return SetAside(backup_path(path), "had lines spit could not read", commented=True)
    import tomllib

    reader = _Reader(path, text)
    reader.read(tomllib.loads(text))
    if reader.lost:
        return SetAside(backup_path(path), "had values spit could not use")
    if reader.old_layout and not old_layout_path(path).exists():
        return SetAside(old_layout_path(path), "was in the old layout (its rules are now by game)")
    return None


def _values(settings: Settings) -> dict[str, dict[str, Any]]:
    """The file's tables and values for ``settings``."""
    auto: object = "off" if settings.auto_spit is None else settings.auto_spit
    return {
        "players": {"player1": settings.names[0], "player2": settings.names[1]},
        "game": {
            "bot_level": settings.bot_level,
            "mode": settings.mode,
            "opponent": settings.opponent,
        },
        RULES: {name: dict(values) for name, values in settings.rules.items() if values},
        "timing": {
            "auto_spit": auto,
            "slap_time": settings.slap_time,
            "repeat_window": settings.repeat_window,
            "fumble_time": settings.fumble_time,
            "race_margin": settings.race_margin,
        },
        "display": {
            "palette": settings.palette,
            "reduce_motion": settings.reduce_motion,
            "sound": settings.sound,
        },
        "keys": {"player1": dict(settings.keys[0]), "player2": dict(settings.keys[1])},
    }


def dumps_settings(settings: Settings, old: str | None = None) -> str:
    """The TOML text of ``settings``: ``old`` (a settings file's text) with the
    values changed, or a new file if there is none (or it is not valid TOML,
    or cannot be updated in place)."""
    if old is not None and _is_toml(old):
        updated = _updated(settings, old)
        if updated is not None:
            return updated
    import tomlkit  # only when saving: reading needs tomllib alone, and start-up reads

    doc = tomlkit.document()
    doc.add(tomlkit.comment(HEADER))
    doc.add(tomlkit.nl())
    _merge(doc, _values(settings))
    return tomlkit.dumps(doc)


def _is_toml(text: str) -> bool:
    """Whether ``text`` is valid TOML as the game reads it (tomlkit accepts more,
    such as a key set twice, and cannot update such a file)."""
    import tomllib

    try:
        tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):
        return False
    return True


def _updated(settings: Settings, old: str) -> str | None:
    """``old`` with the values of ``settings`` set in place, or None if tomlkit
    cannot do it for this file (the result would not be valid TOML)."""
    import tomlkit
    import tomlkit.exceptions

    try:
        doc = tomlkit.parse(old)
        _merge(doc, _values(settings))
        game = doc.get("game")
        if isinstance(game, MutableMapping):  # the old layout's keys now live in the rules tables
            for key in old_keys((*mode_names(), *settings.rules)):
                if key in game:
                    del game[key]
        text = tomlkit.dumps(doc)
    except (tomlkit.exceptions.TOMLKitError, ValueError, TypeError, RecursionError):
        return None
    return text if _is_toml(text) else None


def _merge(table: Any, values: Mapping[str, Any]) -> None:
    """Set ``values`` in a tomlkit table, touching only the values that changed."""
    import tomlkit
    from tomlkit.items import InlineTable

    for key, value in values.items():
        current = table.get(key)
        if isinstance(value, Mapping):
            if not isinstance(current, Mapping):
                if isinstance(table, InlineTable):  # {…} holds only {…}
                    table[key] = tomlkit.inline_table()
                else:  # a table of tables ("keys") is written as [keys.player1] headers
                    nested = all(isinstance(v, Mapping) for v in value.values())
                    table[key] = tomlkit.table(is_super_table=nested)
                current = table[key]
            _merge(current, value)
        elif (
            current is None or _plain(current) != value or type(_plain(current)) is not type(value)
        ):
            table[key] = value


def _plain(item: Any) -> Any:
    """A tomlkit value as plain Python (``unwrap``), anything else as it is."""
    unwrap = getattr(item, "unwrap", None)
    return unwrap() if callable(unwrap) else item
