"""Quick-pair in waves: closest ratings first, gaps widen with RD and waiting, bots after a wait."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from spit.server.pairing import PairingRules, Waiting, allowed_gap, nearest_level, run_wave

LEVELS = {"spit": {"easy": 900.0, "medium": 1500.0, "hard": 2000.0}}


def _w(
    player: str,
    rating: float,
    rd: float = 50.0,
    since: float = 0.0,
    pool: str = "spit",
    bot_after: float | None = None,
) -> Waiting:
    return Waiting(player, pool, rating, rd, since, bot_after)


def test_the_closest_ratings_are_paired_first() -> None:
    queue = [_w("a", 1500), _w("b", 1590), _w("c", 1510), _w("d", 1600)]
    wave = run_wave(queue, now=0.0)
    assert {frozenset(p) for p in wave.pairs} == {frozenset("ac"), frozenset("bd")}


def test_the_pairs_come_in_the_order_to_deal_them_the_longest_waiter_first() -> None:
    """A wave of a hundred matches takes a while to deal: those who waited longest
    are dealt first, whichever pair was chosen first."""
    queue = [_w("a", 1500, since=5.0), _w("b", 1500, since=5.0)]
    queue += [_w("c", 1800, since=0.0), _w("d", 1850, since=4.0)]
    wave = run_wave(queue, now=6.0)
    assert [frozenset(p) for p in wave.pairs] == [frozenset("cd"), frozenset("ab")]


def test_a_wide_gap_waits_until_the_allowed_gap_has_grown() -> None:
    rules = PairingRules(base_gap=100, gap_per_second=10, rd_weight=0)
    queue = [_w("a", 1500, since=0.0), _w("b", 1800, since=0.0)]
    assert run_wave(queue, now=3.0, rules=rules).pairs == ()
    assert run_wave(queue, now=20.0, rules=rules).pairs == (("a", "b"),)


def test_uncertain_ratings_accept_a_wider_gap() -> None:
    settled = allowed_gap(_w("a", 0, rd=40), _w("b", 0, rd=40), 0.0, PairingRules())
    new = allowed_gap(_w("a", 0, rd=350), _w("b", 0, rd=40), 0.0, PairingRules())
    assert new > settled


def test_the_gap_never_passes_the_maximum() -> None:
    rules = PairingRules(max_gap=300)
    assert allowed_gap(_w("a", 0, rd=350), _w("b", 0, rd=350), 1e6, rules) == 300
    assert run_wave([_w("a", 1000, rd=350), _w("b", 1400, rd=350)], 1e6, rules).pairs == ()


def test_players_in_different_pools_are_never_paired() -> None:
    queue = [_w("a", 1500, pool="spit"), _w("b", 1500, pool="speed")]
    assert run_wave(queue, now=100.0).pairs == ()


def test_a_player_who_waited_long_enough_gets_the_nearest_computer_level() -> None:
    queue = [_w("a", 1950, since=0.0, bot_after=30.0)]
    assert run_wave(queue, now=10.0, levels=LEVELS).to_bots == ()
    assert run_wave(queue, now=30.0, levels=LEVELS).to_bots == (("a", "hard"),)


def test_a_person_is_preferred_to_a_computer() -> None:
    queue = [_w("a", 1500, bot_after=0.0), _w("b", 1520)]
    wave = run_wave(queue, now=5.0, levels=LEVELS)
    assert wave.pairs == (("a", "b"),) and wave.to_bots == ()


def test_nearest_level_breaks_ties_by_name() -> None:
    assert nearest_level(1200, {"b": 1000.0, "a": 1400.0}) == "a"


@given(
    st.lists(
        st.tuples(
            st.floats(500, 2500),
            st.floats(30, 350),
            st.floats(0, 60),
            st.sampled_from(["spit", "speed"]),
        ),
        max_size=30,
    ),
    st.floats(0, 120),
)
def test_a_wave_never_pairs_a_player_twice_or_outside_the_allowed_gap(
    entries: list[tuple[float, float, float, str]], now: float
) -> None:
    queue = [_w(str(i), r, rd, since, pool, 20.0) for i, (r, rd, since, pool) in enumerate(entries)]
    wave = run_wave(queue, now, levels=LEVELS)
    seen = [p for pair in wave.pairs for p in pair] + [p for p, _ in wave.to_bots]
    assert len(seen) == len(set(seen))
    by_id = {w.player: w for w in queue}
    for a, b in wave.pairs:
        wa, wb = by_id[a], by_id[b]
        assert wa.pool == wb.pool
        assert abs(wa.rating - wb.rating) <= allowed_gap(wa, wb, now, PairingRules())
    # a wave is maximal: no two unpaired players of a pool could have been paired
    left = [w for w in queue if w.player not in seen]
    for i, a in enumerate(left):
        for b in left[i + 1 :]:
            if a.pool == b.pool:
                assert abs(a.rating - b.rating) > allowed_gap(a, b, now, PairingRules())
