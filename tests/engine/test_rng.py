"""The game's own random generator: SplitMix64, unbiased draws, Fisher-Yates shuffles."""

from __future__ import annotations

from collections import Counter

import pytest

from spit.engine.rng import Rng


def test_splitmix64_reference_outputs() -> None:
    # The published SplitMix64 sequence for seed 0.
    rng = Rng(0)
    assert [rng.next_u64() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]


def test_same_seed_same_sequence_different_seed_different_sequence() -> None:
    a, b, c = Rng(42), Rng(42), Rng(43)
    seq_a = [a.next_u64() for _ in range(20)]
    assert seq_a == [b.next_u64() for _ in range(20)]
    assert seq_a != [c.next_u64() for _ in range(20)]


def test_seed_is_reduced_to_64_bits_and_must_be_an_int() -> None:
    assert Rng(2**64 + 5).state == 5
    for bad in (1.0, "1", None, True):
        with pytest.raises(TypeError):
            Rng(bad)  # type: ignore[arg-type]


def test_below_stays_in_range_and_is_roughly_uniform() -> None:
    rng = Rng(7)
    counts = Counter(rng.below(6) for _ in range(60_000))
    assert sorted(counts) == [0, 1, 2, 3, 4, 5]
    assert all(9_400 < n < 10_600 for n in counts.values())
    with pytest.raises(ValueError):
        rng.below(0)
    assert all(rng.below(1) == 0 for _ in range(10))


def test_shuffle_is_fisher_yates_with_the_same_draws_as_below() -> None:
    items = list(range(52))
    rng = Rng(99)
    reference_rng = Rng(99)
    reference = list(items)
    for i in range(len(reference) - 1, 0, -1):
        j = reference_rng.below(i + 1)
        reference[i], reference[j] = reference[j], reference[i]
    rng.shuffle(items)
    assert items == reference
    assert rng.state == reference_rng.state
    assert sorted(items) == list(range(52)) and items != list(range(52))


def test_every_position_is_reachable_by_a_shuffle() -> None:
    firsts = Counter()
    rng = Rng(3)
    for _ in range(4_000):
        deck = list(range(4))
        rng.shuffle(deck)
        firsts[tuple(deck)] += 1
    assert len(firsts) == 24  # all 4! orders occur


def test_copy_is_independent() -> None:
    rng = Rng(11)
    rng.next_u64()
    twin = rng.copy()
    assert twin.next_u64() == rng.next_u64()
    twin.next_u64()
    assert twin.state != rng.state


def test_shuffles_of_every_size_match_one_draw_at_a_time() -> None:
    # The shuffle works its draws out all at once; ``below``, one by one, is the reference.
    for size in (0, 1, 2, 3, 13, 26, 27, 52, 127, 128, 200):
        for seed in (0, 1, 2**64 - 1, 0x9E3779B97F4A7C15, 12345):
            rng, reference_rng = Rng(seed), Rng(seed)
            items, reference = list(range(size)), list(range(size))
            rng.shuffle(items)
            for i in range(size - 1, 0, -1):
                j = reference_rng.below(i + 1)
                reference[i], reference[j] = reference[j], reference[i]
            assert items == reference
            assert rng.state == reference_rng.state


def test_a_rejected_draw_in_a_shuffle_is_drawn_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # A draw ``below`` rejects (about once in 2**58) cannot be met by chance: here the
    # generator's stream gets one inserted before its 5th draw, in both the shuffle's
    # all-at-once draws and ``next_u64``, which ``below`` (the reference) reads.
    from spit.engine import rng as rng_module

    rejected = 2**64 - 1
    real_draws = rng_module._draws

    def draws(state: int, m: int) -> tuple[int, ...]:
        out = real_draws(state, m)
        return (*out[:4], rejected, *out[4:])

    monkeypatch.setattr(rng_module, "_draws", draws)
    items = list(range(26))
    Rng(77).shuffle(items)
    reference_rng = Rng(77)
    stream = [reference_rng.next_u64() for _ in range(60)]
    stream.insert(4, rejected)
    reference, k = list(range(26)), 0
    for i in range(25, 0, -1):
        n = i + 1
        while stream[k] >= 2**64 - 2**64 % n:
            k += 1
        j = stream[k] % n
        k += 1
        reference[i], reference[j] = reference[j], reference[i]
    assert items == reference
