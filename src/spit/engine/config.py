"""Rules configurations: frozen values, checked when made."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

from spit.engine.errors import ConfigError

VARIANT_FIELDS = {
    "V1": "four_stocks",
    "V2": "choose_pile",
    "V3": "alternating_colours",
    "V4": "scoring",
}


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
    round_limit: int = 1000

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type in ("bool", bool):
                if not isinstance(value, bool):
                    raise ConfigError(f"{f.name} must be true or false, got {value!r}")
            elif not isinstance(value, int) or isinstance(value, bool):
                raise ConfigError(f"{f.name} must be a whole number, got {value!r}")
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
    def variants(self) -> tuple[str, ...]:
        """The variant ids in force, e.g. ``('V1', 'V3')``."""
        return tuple(v for v, name in VARIANT_FIELDS.items() if getattr(self, name))

    @classmethod
    def from_variants(cls, variants: list[str] | tuple[str, ...] = (), **kwargs: int) -> SpitConfig:
        """Build from variant ids such as ``['V1', 'v3']``."""
        flags: dict[str, object] = dict(kwargs)
        for v in variants:
            name = VARIANT_FIELDS.get(v.strip().upper())
            if name is None:
                raise ConfigError(f"unknown variant {v!r}; choose from V1, V2, V3, V4")
            flags[name] = True
        return cls(**flags)  # type: ignore[arg-type]

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-ready form."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> SpitConfig:
        """Parse the plain form, rejecting unknown keys and wrong types."""
        if not isinstance(data, dict):
            raise ConfigError("config must be an object")
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ConfigError(f"unknown config keys: {', '.join(sorted(map(str, unknown)))}")
        return cls(**data)
