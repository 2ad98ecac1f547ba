"""A small, fully specified random generator owned by each game state.

The engine never touches the global ``random`` module: a game's randomness is
this generator, seeded once, so ``(config, seed, actions)`` fixes the game on
every Python version. SplitMix64 is simple, fast and well tested; its whole
state is one 64-bit int, which makes copies and fingerprints trivial.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

from spit.engine.cards import DECK_SIZE

_MASK = (1 << 64) - 1
_TWO64 = 1 << 64
_GAMMA = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
#: shuffles of fewer than _LIMITED items draw from tables worked out once
_LIMITED = 128
# SplitMix64's outputs for many draws at once: each output is worked out in a
# 128-bit lane of one big int (lane k holds the state after k + 1 steps), so a
# shuffle costs a handful of big-int operations instead of a few per card. A
# product of two 64-bit numbers fits its lane; each lane is cut back to 64 bits
# (``& lanes``) before the next product, so no lane spills into the next.
_LANE = 128
_Packed = tuple[int, int, int, Callable[[bytes], tuple[int, ...]], int, int]
#: _PACKED[m]: for ``m`` draws: the lane ones, the lane offsets (k + 1) * gamma,
#: the lanes' 64-bit mask, how to read the lanes' low 64 bits back, their bytes, and
#: the lowest of ``below``'s rejection bounds (the largest multiple of n not above
#: 2**64) over the draws' bounds n = 2 to m + 1;
#: each worked out when first needed (``_packed``)
_PACKED: list[_Packed | None] = [None] * _LIMITED


def _packed(m: int) -> _Packed:
    """The entry ``_PACKED[m]``, worked out and kept."""
    ones = sum(1 << (_LANE * k) for k in range(m))
    entry = (
        ones,
        sum(((k + 1) * _GAMMA) << (_LANE * k) for k in range(m)),
        _MASK * ones,
        struct.Struct("<" + "Q8x" * m).unpack,
        _LANE // 8 * m,
        min(_TWO64 - _TWO64 % n for n in range(2, m + 2)),
    )
    _PACKED[m] = entry
    return entry


def _draws(state: int, m: int) -> tuple[int, ...]:
    """The next ``m`` outputs of a generator in ``state`` (``next_u64`` ``m`` times), in order."""
    ones, offsets, lanes, unpack, size, _ = _PACKED[m] or _packed(m)
    z = (state * ones + offsets) & lanes
    z = ((z ^ (z >> 30)) & lanes) * _MIX1 & lanes
    z = ((z ^ (z >> 27)) & lanes) * _MIX2 & lanes
    return unpack((z ^ (z >> 31)).to_bytes(size, "little"))


def _shuffle_from(items: list[Any], top: int, state: int) -> int:
    """Fisher-Yates from index ``top`` down, one draw at a time from ``state``
    (as ``below``); returns the generator's state afterwards."""
    mask, gamma, mix1, mix2 = _MASK, _GAMMA, _MIX1, _MIX2
    for i in range(top, 0, -1):
        n = i + 1
        limit = _TWO64 - _TWO64 % n
        while True:
            state = z = (state + gamma) & mask
            z = ((z ^ (z >> 30)) * mix1) & mask
            z = ((z ^ (z >> 27)) * mix2) & mask
            z ^= z >> 31
            if z < limit:
                break
        j = z % n
        items[i], items[j] = items[j], items[i]
    return state


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
        """Shuffle ``items`` in place (Fisher-Yates; same draws as ``below``).

        The draws are worked out all at once (``_draws``), then the swaps made;
        a draw that ``below`` would reject (about once in 2**58) hands over to
        ``_shuffle_from``, which draws one at a time.
        """
        m = len(items) - 1
        if m <= 0:
            return
        state = self.state
        if m >= _LIMITED:
            self.state = _shuffle_from(items, m, state)
            return
        i = m
        low = (_PACKED[m] or _packed(m))[5]
        for z in _draws(state, m):
            if z >= low and z >= _TWO64 - _TWO64 % (i + 1):  # rejected: draw one by one
                self.state = _shuffle_from(items, i, (state + (m - i) * _GAMMA) & _MASK)
                return
            j = z % (i + 1)
            items[i], items[j] = items[j], items[i]
            i -= 1
        self.state = (state + m * _GAMMA) & _MASK

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
