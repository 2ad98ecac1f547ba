"""Cards as ints: names, ranks, suits, colours and the adjacency tables (R1, R7, R8, V3)."""

from __future__ import annotations

import pytest

from spit.engine.cards import (
    ADJACENT,
    ADJACENT_ALTERNATING,
    RANK,
    RED,
    SUIT,
    adjacency_rows,
    adjacency_table,
    card,
    card_name,
    card_names,
    parse_card,
    parse_cards,
    ranks_adjacent,
)


def test_r1_a_deck_is_52_cards_of_13_ranks_in_4_suits() -> None:
    pairs = {(RANK[c], SUIT[c]) for c in range(52)}
    assert pairs == {(r, s) for r in range(1, 14) for s in range(4)}
    for c in range(52):
        assert card(RANK[c], SUIT[c]) == c


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [("AS", 1, 3), ("10h", 10, 2), ("QD", 12, 1), ("K♣", 13, 0), ("2♥", 2, 2), (" jc ", 11, 0)],
)
def test_parse_card(text: str, rank: int, suit: int) -> None:
    c = parse_card(text)
    assert (RANK[c], SUIT[c]) == (rank, suit)


@pytest.mark.parametrize("text", ["", "A", "1S", "11H", "ZS", "AX", "10", "♠A"])
def test_parse_card_rejects_nonsense_with_a_message(text: str) -> None:
    with pytest.raises(ValueError, match=r"\S"):
        parse_card(text)


def test_names_round_trip() -> None:
    for c in range(52):
        assert parse_card(card_name(c)) == c
        assert parse_card(card_name(c, symbols=False)) == c
    assert card_names(parse_cards("AS 10H KD"), symbols=False) == "AS 10H KD"
    assert card_name(parse_card("QH")) == "Q♥"


def test_card_rejects_out_of_range() -> None:
    for rank, suit in [(0, 0), (14, 0), (1, 4), (1, -1)]:
        with pytest.raises(ValueError):
            card(rank, suit)


def test_r7_r8_rank_adjacency() -> None:
    for a in range(1, 14):
        for b in range(1, 14):
            expected = abs(a - b) == 1 or {a, b} == {1, 13}  # A-K turns the corner (R8)
            assert ranks_adjacent(a, b) == expected, (a, b)


def test_r8_corner_cases_by_name() -> None:
    def fits(top: str, c: str) -> bool:
        return ADJACENT[parse_card(top) * 52 + parse_card(c)]

    assert fits("AS", "KH") and fits("AS", "2H")
    assert fits("KS", "QH") and fits("KS", "AH")
    assert fits("2S", "AH") and fits("2S", "3H")
    assert not fits("AS", "QH") and not fits("KS", "2H") and not fits("AS", "AH")


def test_v3_red_is_hearts_and_diamonds() -> None:
    reds = [c for c in range(52) if RED[c]]
    assert [card_name(c, symbols=False)[-1] for c in reds] == ["D"] * 13 + ["H"] * 13
    assert RED[parse_card("QH")] and RED[parse_card("2D")]
    assert not RED[parse_card("QS")] and not RED[parse_card("2C")]


def test_v3_alternating_table_needs_both_rank_and_colour() -> None:
    for top in range(52):
        for c in range(52):
            expected = ranks_adjacent(RANK[top], RANK[c]) and RED[top] != RED[c]
            assert ADJACENT_ALTERNATING[top * 52 + c] == expected
    assert adjacency_table(True) is ADJACENT_ALTERNATING
    assert adjacency_table(False) is ADJACENT
    for alternating in (False, True):
        table = adjacency_table(alternating)
        rows = adjacency_rows(alternating)
        assert all(rows[t][c] == table[t * 52 + c] for t in range(52) for c in range(52))
