"""Reaction times: how long a bot takes to see a position and act on it.

Human reaction times are well described by an ex-Gaussian: a normal part (the
usual speed of seeing and pressing) plus an exponential tail (the occasional
hesitation). A ``Reaction`` draws from that shape with the bot's own
``random.Random``, never the game's generator.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from math import log

from spit.engine.actions import Kind

_PLAY, _MOVE, _CALL, _SLAP, _CHOOSE = Kind.PLAY, Kind.MOVE, Kind.CALL, Kind.SLAP, Kind.CHOOSE


@dataclass(frozen=True, slots=True)
class Reaction:
    """An ex-Gaussian delay in seconds: ``max(floor, N(mu, sigma)) + Exp(tau)``.

    ``call_factor`` and ``slap_factor`` scale the delay of a "spit!" call and of
    a slap (or V2 choice); a slap is a reflex, quicker than finding a play.
    """

    mu: float
    sigma: float
    tau: float
    floor: float = 0.15
    call_factor: float = 0.8
    slap_factor: float = 0.6

    def __post_init__(self) -> None:
        for name in ("mu", "sigma", "tau", "floor", "call_factor", "slap_factor"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not 0 <= value <= 60:
                raise ValueError(f"reaction {name} must be 0..60 seconds, got {value!r}")

    @property
    def mean(self) -> float:
        """The mean delay of a play (ignoring the floor's small effect)."""
        return self.mu + self.tau

    def delay(self, kind: Kind, rng: random.Random) -> float:
        """Draw the delay before an action of ``kind``."""
        base = rng.gauss(self.mu, self.sigma)
        if base < self.floor:  # max(floor, N(mu, sigma))
            base = self.floor
        tau = self.tau
        if tau > 0:  # ``rng.expovariate(1.0 / tau)``, its formula written out (the same draw)
            base -= log(1.0 - rng.random()) / (1.0 / tau)
        if kind is _PLAY or kind is _MOVE:
            return base
        if kind is _CALL:
            return base * self.call_factor
        if kind is _SLAP or kind is _CHOOSE:
            return base * self.slap_factor
        return base


#: The reaction time of each level (see docs/bots.md).
REACTIONS: dict[str, Reaction] = {
    "easy": Reaction(mu=1.3, sigma=0.3, tau=0.5),
    "medium": Reaction(mu=0.85, sigma=0.2, tau=0.3),
    "hard": Reaction(mu=0.6, sigma=0.12, tau=0.18),
    "expert": Reaction(mu=0.42, sigma=0.08, tau=0.1),
}
