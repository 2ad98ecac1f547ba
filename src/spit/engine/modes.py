"""The game modes: one registry, from a mode's name to everything about it.

Each mode's own module registers a ``Mode`` (``spit_game.py``: Spit,
``speed_game.py``: Speed). Everything that depends on the mode (making a game
from settings or the command line, loading a save, the words on the board,
what each seat and a spectator may see over the network and its JSON forms)
asks the registry or the ``Mode`` record instead of comparing names.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from spit.engine.errors import ConfigError
from spit.engine.schema import TARGET_FIELD, Setting, SettingValue, check_schema, checked_values

if TYPE_CHECKING:
    from spit.engine.base import AnyGame
    from spit.engine.observers import Observer

#: The version of a config's JSON form (``Mode.config_json``).
CONFIG_VERSION = 1


@dataclass(frozen=True, slots=True)
class Mode:
    """One game mode: its classes, its optional rules and the shape of its table.

    ``variants`` maps each optional rule's id (as RULES.md names it) to the
    config field it sets to true. The flags describe the table, so the screen
    and the words can follow them without knowing the mode by name.
    """

    name: str  #: the save files' and the command line's name, e.g. "spit"
    title: str  #: the name shown to players, e.g. "Spit"
    game_class: type[AnyGame]
    config_class: type[Any]
    variants: Mapping[str, str]
    #: R10: a stock's top card can be moved to an empty slot
    has_moves: bool
    #: P4: a stalemate is resolved by the side piles, not by calling; the call
    #: is "ready" at the opening
    side_piles: bool
    #: what each player has besides their face-up cards, e.g. "spit cards"
    reserve_name: str
    #: in a match, the lowest total wins (V4) rather than the first to the target (P7)
    lowest_score_wins: bool
    #: the match rule in words, with ``{target}`` for the target score
    match_rule: str
    #: the face-up cards are a private hand (Speed), not a public layout (Spit's
    #: stock tops, R3): a person playing the computer does not see its hand
    private_hand: bool = False
    #: who sees what (``spit.engine.observers.Observer``): its class, or
    #: "module:Class" to import it when first asked (``observer``)
    observer_class: type[Observer] | str = ""
    #: the variant a match to a target score turns on (Spit's V4), if any
    match_variant: str | None = None
    #: what a player may set for its games (``spit.engine.schema``): the settings
    #: file's ``[rules.<name>]`` table, the setup and settings screens, the
    #: command line's options
    settings: tuple[Setting, ...] = ()

    def __post_init__(self) -> None:
        check_schema(self.settings)

    def setting(self, key: str) -> Setting | None:
        """The setting called ``key`` (the settings file's key), or None."""
        return next((s for s in self.settings if s.key == key), None)

    @property
    def target(self) -> Setting | None:
        """The match target's setting (the config's ``target_score``), if a player sets one."""
        return next((s for s in self.settings if s.field == TARGET_FIELD), None)

    def variant_setting(self, vid: str) -> Setting | None:
        """The setting that turns the optional rule ``vid`` on, if there is one."""
        return next((s for s in self.settings if s.variant == vid), None)

    def setting_values(self, values: Mapping[str, Any] | None = None) -> dict[str, SettingValue]:
        """Every setting's value: ``values``' where good, the defaults for the rest."""
        return checked_values(self.settings, values or {})

    def config_from_settings(self, values: Mapping[str, Any]) -> Any:
        """The config the settings' ``values`` (by key) give; ConfigError if bad."""
        fields = {s.field: v for s, v in zip(self.settings, self._checked(values), strict=True)}
        try:
            return self.config_class(**fields)
        except TypeError as exc:
            raise ConfigError(f"bad {self.title} config: {exc}") from exc

    def _checked(self, values: Mapping[str, Any]) -> list[SettingValue]:
        return [s.check(values[s.key]) if s.key in values else s.default for s in self.settings]

    def config(self, variants: Iterable[str] = (), **fields: Any) -> Any:
        """A config with the given optional rules (ids, any case) and fields.

        Raises ConfigError naming the choices for an unknown id.
        """
        ids = {v.upper(): name for v, name in self.variants.items()}
        flags: dict[str, Any] = dict(fields)
        for v in variants:
            name = ids.get(v.strip().upper())
            if name is None:
                from spit.engine.rule_words import variant_names

                choices = variant_names(self.variants)
                raise ConfigError(f"{self.title} has no variant {v!r}; choose from {choices}")
            flags[name] = True
        try:
            return self.config_class(**flags)
        except TypeError as exc:
            raise ConfigError(f"bad {self.title} config: {exc}") from exc

    @property
    def has_slaps(self) -> bool:
        """True if a round can end with the players slapping a pile (Spit's R16)."""
        from spit.engine.actions import Kind

        kinds = self.game_class.PLAYER_KINDS.values()
        return any(Kind.SLAP in phase_kinds for phase_kinds in kinds)

    def known_variants(self, variants: Iterable[str]) -> tuple[str, ...]:
        """Those of ``variants`` this mode has (settings list every mode's together)."""
        ids = {v.upper(): v for v in self.variants}
        return tuple(ids[v.upper()] for v in variants if v.upper() in ids)

    def new_game(self, config: Any = None, seed: int = 0) -> AnyGame:
        """A new game of this mode (None: the default rules)."""
        return self.game_class(config, seed)

    def match_config(self, variants: Iterable[str], target: int, **fields: Any) -> Any:
        """A config for a match to ``target`` points: ``match_variant`` turned on too."""
        chosen = [*variants]
        if self.match_variant is not None and self.match_variant not in chosen:
            chosen.append(self.match_variant)
        return self.config(chosen, target_score=target, **fields)

    def observer(self) -> Observer:
        """Who sees what in this mode, and its observations' JSON form (made once)."""
        made = _OBSERVERS.get(self.name)
        if made is None:
            cls = self.observer_class
            if isinstance(cls, str):
                if not cls:
                    raise ConfigError(f"{self.title} cannot be played over the network")
                module, _, name = cls.partition(":")
                cls = getattr(importlib.import_module(module), name)
            made = _OBSERVERS[self.name] = cls(self.name)
        return made

    def config_json(self, config: Any) -> dict[str, Any]:
        """``config`` in its versioned JSON form (``config_from_json`` reads it)."""
        return {"v": CONFIG_VERSION, "rules": config.to_dict()}

    def config_from_json(self, data: object) -> Any:
        """The config ``config_json`` gave; ConfigError saying what is wrong."""
        if not isinstance(data, dict) or "rules" not in data:
            raise ConfigError(f"not a {self.title} rules config")
        version = data.get("v")
        if type(version) is not int or version != CONFIG_VERSION:
            raise ConfigError(f"not a {self.title} rules config of version {CONFIG_VERSION}")
        try:
            config = self.config_class.from_dict(data["rules"])
        except (ValueError, TypeError) as exc:
            raise ConfigError(f"bad {self.title} config: {exc}") from exc
        return config


_MODES: dict[str, Mode] = {}
_OBSERVERS: dict[str, Observer] = {}


def register_mode(mode: Mode) -> None:
    """Add a game mode (each mode's module calls this once)."""
    _MODES[mode.name] = mode
    _OBSERVERS.pop(mode.name, None)


def unregister_mode(name: str) -> None:
    """Take a mode out of the registry (a test's own mode, when the test is done)."""
    _MODES.pop(name, None)
    _OBSERVERS.pop(name, None)


def get_mode(name: str) -> Mode:
    """The mode called ``name``; ConfigError naming the choices if there is none."""
    mode = _MODES.get(name)
    if mode is None:
        raise ConfigError(f"unknown game mode {name!r:.30}; choose from {', '.join(_MODES)}")
    return mode


def mode_names() -> tuple[str, ...]:
    """The registered modes' names, in the order they were registered."""
    return tuple(_MODES)


def all_modes() -> tuple[Mode, ...]:
    """Every registered mode."""
    return tuple(_MODES.values())
