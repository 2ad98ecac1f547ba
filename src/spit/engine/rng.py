"""A small, fully specified random generator owned by each game state.

The engine never touches the global ``random`` module: a game's randomness is
this generator, seeded once, so ``(config, seed, actions)`` fixes the game on
every Python version. SplitMix64 is simple, fast and well tested; its whole
state is one 64-bit int, which makes copies and fingerprints trivial.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from spit.engine.cards import DECK_SIZE

_MASK = (1 << 64) - 1
_TWO64 = 1 << 64
_GAMMA = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
#: how many shuffle sizes keep their draws (``_steps``)
_LIMITED = 128


@lru_cache(maxsize=_LIMITED)
def _steps(size: int) -> tuple[tuple[int, int, int], ...]:
    """A shuffle's draws for ``size`` items, in order: (index, bound, rejection limit).

    Worked out at a size's first shuffle and kept (all sizes at import took
    some 3 ms of every start-up, for the one or two sizes a game shuffles).
    """
    return tuple((i, i + 1, _TWO64 - _TWO64 % (i + 1)) for i in range(size - 1, 0, -1))


class Rng:
    """SplitMix64 with unbiased bounded draws and Fisher-Yates shuffles."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError("seed must be an int")
        self.state = seed & _MASK

    def next_u64(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + _GAMMA) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform int in ``range(n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = _TWO64 - _TWO64 % n
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def shuffle(self, items: list[Any]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates; same draws as ``below``)."""
        state = self.state
        mask, gamma, mix1, mix2 = _MASK, _GAMMA, _MIX1, _MIX2
        size = len(items)
        steps = _steps(size)
        for i, n, limit in steps:
            state = z = (state + gamma) & mask
            z = ((z ^ (z >> 30)) * mix1) & mask
            z = ((z ^ (z >> 27)) * mix2) & mask
            z ^= z >> 31
            while z >= limit:  # rejected (about once in 2**58 draws): draw again
                state = z = (state + gamma) & mask
                z = ((z ^ (z >> 30)) * mix1) & mask
                z = ((z ^ (z >> 27)) * mix2) & mask
                z ^= z >> 31
            j = z % n
            items[i], items[j] = items[j], items[i]
        self.state = state

    def copy(self) -> Rng:
        """An independent generator in the same state."""
        other = Rng(0)
        other.state = self.state
        return other


def shuffled_deck(rng: Rng) -> list[int]:
    """The 52 card ids (0..51) shuffled by ``rng`` (R2, P1): every fresh deal starts here."""
    deck = list(range(DECK_SIZE))
    rng.shuffle(deck)
    return deck
