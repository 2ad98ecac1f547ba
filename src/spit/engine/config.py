"""Rules configurations: frozen values, checked when made."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from spit.engine.errors import ConfigError

#: H4's default limit on rounds (Spit) or deals (Speed) before a draw.
DEFAULT_ROUND_LIMIT = 1000

VARIANT_FIELDS = {
    "V1": "four_stocks",
    "V2": "choose_pile",
    "V3": "alternating_colours",
    "V4": "scoring",
}


def _check_field_types(config: SpitConfig | SpeedConfig) -> None:
    """Raise ConfigError unless every field is a bool or a whole number, as declared."""
    for f in fields(config):
        value = getattr(config, f.name)
        if f.type in ("bool", bool):
            if not isinstance(value, bool):
                raise ConfigError(f"{f.name} must be true or false, got {value!r}")
        elif not isinstance(value, int) or isinstance(value, bool):
            raise ConfigError(f"{f.name} must be a whole number, got {value!r}")


def _checked_keys(cls: type[SpitConfig | SpeedConfig], data: object) -> dict[str, Any]:
    """The plain form of a config as keyword arguments, rejecting unknown keys."""
    if not isinstance(data, dict):
        raise ConfigError("config must be an object")
    known = {f.name for f in fields(cls)}
    unknown = set(data) - known
    if unknown:
        raise ConfigError(f"unknown config keys: {', '.join(sorted(map(str, unknown)))}")
    return data  # the values are checked by the config's ``__post_init__``


@dataclass(frozen=True, slots=True)
class SpitConfig:
    """The rules of one Spit game or match.

    ``four_stocks`` is V1, ``choose_pile`` V2, ``alternating_colours`` V3,
    ``scoring`` V4 (a match scored to ``target_score``, lowest total wins);
    ``round_limit`` is H4's limit on rounds before a draw.
    """

    four_stocks: bool = False
    choose_pile: bool = False
    alternating_colours: bool = False
    scoring: bool = False
    target_score: int = 100
    round_limit: int = DEFAULT_ROUND_LIMIT

    def __post_init__(self) -> None:
        _check_field_types(self)
        if not 1 <= self.target_score <= 100_000:
            raise ConfigError(f"target_score must be 1..100000, got {self.target_score}")
        if not 1 <= self.round_limit <= 1_000_000:
            raise ConfigError(f"round_limit must be 1..1000000, got {self.round_limit}")

    @property
    def n_stocks(self) -> int:
        """Stocks in a layout: 5, or 4 under V1."""
        return 4 if self.four_stocks else 5

    @property
    def layout_size(self) -> int:
        """Cards in a full layout: 15, or 10 under V1."""
        n = self.n_stocks
        return n * (n + 1) // 2

    @property
    def match(self) -> bool:
        """True for a V4 match scored to ``target_score``; False for a single game."""
        return self.scoring

    @property
    def variants(self) -> tuple[str, ...]:
        """The variant ids in force, e.g. ``('V1', 'V3')``."""
        return tuple(v for v, name in VARIANT_FIELDS.items() if getattr(self, name))

    @classmethod
    def from_variants(
        cls,
        variants: list[str] | tuple[str, ...] = (),
        *,
        target_score: int = 100,
        round_limit: int = DEFAULT_ROUND_LIMIT,
    ) -> SpitConfig:
        """Build from variant ids such as ``['V1', 'v3']``."""
        ids = set()
        for v in variants:
            vid = v.strip().upper()
            if vid not in VARIANT_FIELDS:
                from spit.engine.rule_words import variant_names

                choices = variant_names(VARIANT_FIELDS)
                raise ConfigError(f"unknown variant {v!r}; choose from {choices}")
            ids.add(vid)
        return cls(
            four_stocks="V1" in ids,
            choose_pile="V2" in ids,
            alternating_colours="V3" in ids,
            scoring="V4" in ids,
            target_score=target_score,
            round_limit=round_limit,
        )

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-ready form."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> SpitConfig:
        """Parse the plain form, rejecting unknown keys and wrong types."""
        return cls(**_checked_keys(cls, data))


#: Speed's optional rules by id, and the SpeedConfig field each one sets.
SPEED_VARIANT_FIELDS = {"P1b": "long_deal", "V3": "alternating_colours"}


@dataclass(frozen=True, slots=True)
class SpeedConfig:
    """The rules of one Speed game or match.

    ``long_deal`` is P1b (side piles of 5, 20 cards to each player);
    ``alternating_colours`` is V3; ``target_score`` above 0 plays a P7 match to
    that score (0: a single game); ``round_limit`` is H4's limit on deals.
    """

    long_deal: bool = False
    alternating_colours: bool = False
    target_score: int = 0
    round_limit: int = DEFAULT_ROUND_LIMIT

    def __post_init__(self) -> None:
        _check_field_types(self)
        if not 0 <= self.target_score <= 100_000:
            raise ConfigError(f"target_score must be 0..100000, got {self.target_score}")
        if not 1 <= self.round_limit <= 1_000_000:
            raise ConfigError(f"round_limit must be 1..1000000, got {self.round_limit}")

    @property
    def side_pile_size(self) -> int:
        """Cards in each side pile at the deal: 10, or 5 under P1b."""
        return 5 if self.long_deal else 10

    @property
    def player_cards(self) -> int:
        """Cards each player is dealt (hand plus draw pile): 15, or 20 under P1b."""
        return 20 if self.long_deal else 15

    @property
    def match(self) -> bool:
        """True for a P7 match to ``target_score``; False for a single game."""
        return self.target_score > 0

    @property
    def variants(self) -> tuple[str, ...]:
        """The optional rule ids in force, e.g. ``('P1b', 'V3', 'P7')``."""
        ids = tuple(v for v, name in SPEED_VARIANT_FIELDS.items() if getattr(self, name))
        return (*ids, "P7") if self.match else ids

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-ready form."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> SpeedConfig:
        """Parse the plain form, rejecting unknown keys and wrong types."""
        return cls(**_checked_keys(cls, data))
