"""A mode's settings schema: the options a player may set for its games.

Each ``Mode`` declares its ``settings``, a tuple of ``Setting``: the key it
has in the mode's table of the settings file (``[rules.<mode>]``) and after
``--`` on the command line, its type (true/false, a whole number in a range,
or one of some words), its default, the config field it sets, and the words
a player reads. The settings file, the setup and settings screens and the
command line ask the schema instead of listing each mode's fields.

>>> s = variant_setting("V1", "four_stocks")
>>> (s.key, s.label, s.kind, s.default)
('four_stocks', 'four stocks', 'flag', False)
>>> target_setting(1, 100, "a scoring match").check(7)
7
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from spit.engine.errors import ConfigError
from spit.engine.rule_words import VARIANT_WORDS

#: A setting's value: true/false, a whole number or one of its words.
SettingValue = bool | int | str
#: The largest match target any mode offers (V4's usual target is 100).
MAX_TARGET = 100_000
#: The config field every mode's match target sets (``Mode.target``).
TARGET_FIELD = "target_score"


@dataclass(frozen=True, slots=True)
class Setting:
    """One option of a mode, as the settings file, the screens and the command line see it.

    ``default``'s type is the setting's type: a bool (a box to tick), an int
    (from ``low`` to ``high``) or a str (one of ``choices``, each with its
    words in ``choice_words``). ``variant`` is the rule id when the setting
    turns an optional rule on (its words are the rule's); ``field`` is the
    config field it sets.
    """

    key: str  #: the file's key in the mode's table and the command line's --key
    field: str  #: the config field it sets
    default: SettingValue
    label: str  #: a few words: the screens' label
    line: str  #: one line saying what it does (a hint, --help)
    low: int = 0
    high: int = 0
    choices: tuple[str, ...] = ()
    choice_words: tuple[str, ...] = ()
    variant: str | None = None

    def __post_init__(self) -> None:
        if self.kind == "choice" and (
            self.default not in self.choices or len(self.choice_words) != len(self.choices)
        ):
            raise ValueError(f"setting {self.key}: its default and words must match its choices")
        if self.kind == "number" and not self.low <= int(self.default) <= self.high:
            raise ValueError(f"setting {self.key}: its default is out of its range")

    @property
    def kind(self) -> Literal["flag", "number", "choice"]:
        """'flag' (true or false), 'number' (a whole number) or 'choice' (one of some words)."""
        if isinstance(self.default, bool):
            return "flag"
        if isinstance(self.default, int):
            return "number"
        return "choice"

    @property
    def option(self) -> str:
        """The command line's option: ``--`` and the key with dashes, e.g. ``--four-stocks``."""
        return "--" + self.key.replace("_", "-")

    def allowed(self) -> str:
        """What the setting takes, in words: ``'true or false'``, ``'1 to 100000'``..."""
        if self.kind == "flag":
            return "true or false"
        if self.kind == "number":
            return f"a whole number from {self.low} to {self.high}"
        return "one of " + ", ".join(self.choices)

    def check(self, value: object) -> SettingValue:
        """``value`` if this setting takes it; ConfigError saying what it takes."""
        kind = self.kind
        if kind == "flag" and isinstance(value, bool):
            return value
        if (
            kind == "number"
            and isinstance(value, int)
            and not isinstance(value, bool)
            and self.low <= value <= self.high
        ):
            return value
        if kind == "choice" and isinstance(value, str) and value in self.choices:
            return value
        raise ConfigError(f"{self.label}: must be {self.allowed()}")

    def parse(self, text: str) -> SettingValue:
        """The value typed as ``text`` (a screen's field, a command line's word);
        ConfigError saying what it takes."""
        word = text.strip()
        if self.kind == "flag":
            lowered = word.casefold()
            if lowered in ("true", "yes", "on", "1"):
                return True
            if lowered in ("false", "no", "off", "0"):
                return False
        elif self.kind == "number":
            try:
                return self.check(int(word))
            except ValueError:
                pass
        else:
            for value, words in zip(self.choices, self.choice_words, strict=True):
                if word.casefold() in (value.casefold(), words.casefold()):
                    return value
        raise ConfigError(f"{self.label}: must be {self.allowed()}, not {word[:40]!r}")

    def words_for(self, value: SettingValue) -> str:
        """A value as a player reads it (a choice's words; a number or on/off otherwise)."""
        if self.kind == "choice" and value in self.choices:
            return self.choice_words[self.choices.index(str(value))]
        if self.kind == "flag":
            return "on" if value else "off"
        return str(value)


def variant_setting(vid: str, field: str) -> Setting:
    """The setting that turns the optional rule ``vid`` on, in that rule's words."""
    words = VARIANT_WORDS[vid]
    return Setting(words.name.replace("-", "_"), field, False, words.label, words.line, variant=vid)


def target_setting(low: int, default: int, line: str) -> Setting:
    """A mode's match target: the config's ``target_score``, from ``low`` to ``MAX_TARGET``."""
    return Setting("target", TARGET_FIELD, default, "match target", line, low, MAX_TARGET)


def variant_settings(fields: Mapping[str, str]) -> tuple[Setting, ...]:
    """One ``variant_setting`` for each of a mode's variants (``{id: field}``)."""
    return tuple(variant_setting(vid, field) for vid, field in fields.items())


def check_schema(settings: Iterable[Setting]) -> None:
    """Raise ValueError if two settings share a key or a config field."""
    keys: set[str] = set()
    fields: set[str] = set()
    for s in settings:
        if s.key in keys or s.field in fields:
            raise ValueError(f"setting {s.key}: its key or field is used twice")
        keys.add(s.key)
        fields.add(s.field)


def checked_values(
    settings: Iterable[Setting], values: Mapping[str, Any]
) -> dict[str, SettingValue]:
    """Every setting's value: ``values``' where it is good, else the default."""
    out: dict[str, SettingValue] = {}
    for s in settings:
        try:
            out[s.key] = s.check(values[s.key]) if s.key in values else s.default
        except ConfigError:
            out[s.key] = s.default
    return out
