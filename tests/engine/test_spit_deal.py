"""Spit: the deck, the deal and the opening spit (R1-R5, R18, V1)."""

from __future__ import annotations

import pytest

from spit.engine import (
    IllegalAction,
    Phase,
    SpitConfig,
    SpitGame,
    call,
    move,
    parse_cards,
    play,
)
from spit.engine.events import Dealt, Spat

from .helpers import full_sizes, make_game, opened, short_sizes

DECK = list(range(52))


def sizes(game: SpitGame, player: int) -> list[int]:
    return [len(s) for s in game.stocks[player]]


def test_r1_two_players_one_deck_of_52_distinct_cards() -> None:
    for seed in (0, 1, 99, 2**63):
        game = SpitGame(SpitConfig(), seed)
        assert sorted(game.all_cards()) == DECK
        assert len(game.stocks) == 2 and len(game.spit) == 2


def test_r1_there_is_no_third_player() -> None:
    game = opened(SpitGame(SpitConfig(), 3))
    before = game.fingerprint()
    for action in (play(2, 0, 0), play(3, 0, 0), move(3, 1), call(3)):
        with pytest.raises(IllegalAction):
            game.apply(action)
    assert game.fingerprint() == before


def test_r1_suits_do_not_matter_without_v3() -> None:
    # Pile 0 starts with 7C; an 8 or a 6 of any suit goes on it.
    game = opened(
        make_game(["8H", "8S", "6D", "6C", "10C"], ["2D", "3D", "4D", "5D", "10D"], "7C", "KD")
    )
    assert game.legal_actions(0) == [play(0, s, 0) for s in range(4)]


def test_r2_each_player_is_dealt_26_cards_from_the_seed() -> None:
    hands = []
    for seed in (1, 2, 3):
        game = SpitGame(SpitConfig(), seed)
        dealt = [e for e in game.opening_events if isinstance(e, Dealt)]
        assert [sum(e.stock_sizes) + e.spit_cards for e in dealt] == [26, 26]
        hand0 = sorted(c for s in game.stocks[0] for c in s) + sorted(game.spit[0])
        assert len(hand0) == 26
        hands.append(sorted(hand0))
    # The deal is a shuffle fixed by the seed: other seeds, other hands; same seed, same deal.
    assert hands[0] != hands[1] != hands[2]
    assert SpitGame(SpitConfig(), 2).fingerprint() == SpitGame(SpitConfig(), 2).fingerprint()
    assert SpitGame(SpitConfig(), 2).fingerprint() != SpitGame(SpitConfig(), 3).fingerprint()


def test_r3_layout_is_dealt_row_by_row_with_tops_face_up() -> None:
    p0 = DECK[:26]
    p1 = DECK[26:]
    game = SpitGame(SpitConfig(), 0, packets=[p0, p1])
    # Row 1: cards 0-4 onto stocks 1-5; row 2: 5-8 onto 2-5; row 3: 9-11 onto 3-5;
    # row 4: 12, 13 onto 4, 5; row 5: 14 onto 5.
    assert game.stocks[0] == [[0], [1, 5], [2, 6, 9], [3, 7, 10, 12], [4, 8, 11, 13, 14]]
    assert sizes(game, 1) == [1, 2, 3, 4, 5]
    obs = game.observation(1)
    assert [v.top for v in obs.stocks[0]] == [0, 5, 9, 12, 14]
    assert [v.face_down for v in obs.stocks[0]] == [0, 1, 2, 3, 4]
    assert [v.top for v in obs.stocks[1]] == [26, 31, 35, 38, 40]


def test_r4_spit_cards_are_the_rest_hidden_and_turned_up_in_order() -> None:
    p0 = DECK[:26]
    p1 = DECK[26:]
    game = SpitGame(SpitConfig(), 0, packets=[p0, p1])
    assert sorted(game.spit[0]) == p0[15:]
    obs = game.observation(0)
    assert obs.spit_counts == (11, 11)
    assert not obs.visible_cards() & set(p0[15:] + p1[15:])
    # The first spit turns up packets[p][15]; the next one packets[p][16].
    events = game.apply(call(0)) + game.apply(call(1))
    assert [e for e in events if isinstance(e, Spat)] == [Spat(0, 0, 15), Spat(1, 1, 41)]
    assert game.spit[0][-1] == 16


def test_r5_nothing_is_played_before_the_opening_spit() -> None:
    game = make_game(["8H", "8S", "6D", "6C", "10C"], ["2D", "3D", "4D", "5D", "10D"], "7C", "KD")
    assert game.phase is Phase.OPENING
    before = game.fingerprint()
    for action in (play(0, 0, 0), play(0, 0, 1), move(0, 1)):
        with pytest.raises(IllegalAction):
            game.apply(action)
    assert game.fingerprint() == before
    assert game.legal_actions(0) == [call(0)]


def test_r5_opening_spit_starts_one_pile_per_player_on_their_side() -> None:
    game = make_game(["8H", "8S", "6D", "6C", "10C"], ["2D", "3D", "4D", "5D", "10D"], "7C", "KD")
    # One call is not enough while the other player also holds spit cards (H2).
    assert not [e for e in game.apply(call(1)) if isinstance(e, Spat)]
    assert game.phase is Phase.OPENING and game.piles == [[], []]
    events = game.apply(call(0))
    seven, king = parse_cards("7C KD")
    assert [e for e in events if isinstance(e, Spat)] == [Spat(0, 0, seven), Spat(1, 1, king)]
    assert game.piles == [[seven], [king]]
    assert game.phase is Phase.PLAY
    assert [p.in_use for p in game.observation(0).piles] == [True, True]


def test_r18_exactly_15_cards_full_layout_no_spit_cards_one_pile() -> None:
    game = SpitGame(SpitConfig(), 0, packets=[DECK[15:], DECK[:15]])
    assert sizes(game, 1) == [1, 2, 3, 4, 5]
    assert game.spit[1] == []
    assert len(game.spit[0]) == 37 - 15
    assert game.one_pile_round
    # Only the player with spit cards calls; their single call opens the round.
    assert game.legal_actions(1) == []
    with pytest.raises(IllegalAction):
        game.apply(call(1))
    events = game.apply(call(0))
    # Player 0's packet is DECK[15:], so its 16th card (turned up first) is 30.
    assert [e for e in events if isinstance(e, Spat)] == [Spat(0, 0, 30)]
    assert game.phase is Phase.PLAY
    assert game.piles[1] == [] and not game.observation(0).piles[1].in_use


@pytest.mark.parametrize(
    ("count", "expected"),
    [(1, [1, 0, 0, 0, 0]), (4, [1, 1, 1, 1, 0]), (7, [1, 2, 2, 1, 1]), (12, [1, 2, 3, 3, 3])],
)
def test_r18_fewer_than_15_cards_are_dealt_as_far_as_they_go(
    count: int, expected: list[int]
) -> None:
    short = DECK[:count]
    game = SpitGame(SpitConfig(), 0, packets=[DECK[count:], short])
    assert sizes(game, 1) == expected
    assert game.spit[1] == []
    # Each stock's top is the last card dealt onto it.
    for stock in game.stocks[1]:
        assert stock == sorted(stock)
    assert sorted(c for s in game.stocks[1] for c in s) == short
    assert game.pile_used == [True, False]


def test_r18_only_the_opponents_pile_is_used_in_a_one_pile_round() -> None:
    # Player 1 has 3 cards (stocks 1-3), player 0 starts pile 0 with a 9.
    game = make_game(
        ["2C", "3C", "4C", "5C", "6C"],
        ["10H", "8H", "KH"],
        "9S",
        config=SpitConfig(),
        pad=(True, False),
    )
    opened(game)
    assert game.one_pile_round
    assert game.legal_actions(1) == [play(1, 0, 0), play(1, 1, 0)]
    before = game.fingerprint()
    with pytest.raises(IllegalAction, match="not in use"):
        game.apply(play(1, 0, 1))
    assert game.fingerprint() == before


def test_v1_four_stocks_layout_of_10_and_16_spit_cards() -> None:
    config = SpitConfig(four_stocks=True)
    game = SpitGame(config, 0, packets=[DECK[:26], DECK[26:]])
    # Row by row over four stocks: 0-3, then 4-6 onto 2-4, 7-8 onto 3-4, 9 onto 4.
    assert game.stocks[0] == [[0], [1, 4], [2, 5, 7], [3, 6, 8, 9]]
    assert len(game.spit[0]) == 16 and game.spit[0][-1] == 10
    seeded = SpitGame(config, 5)
    assert [sizes(seeded, p) for p in (0, 1)] == [[1, 2, 3, 4]] * 2
    assert [len(seeded.spit[p]) for p in (0, 1)] == [16, 16]


def test_v1_there_is_no_fifth_stock() -> None:
    game = opened(SpitGame(SpitConfig(four_stocks=True), 11))
    before = game.fingerprint()
    for action in (play(0, 4, 0), play(0, 4, 1), move(0, 4)):
        with pytest.raises(IllegalAction, match="no stock 5"):
            game.apply(action)
    assert game.fingerprint() == before
    assert all(a.source < 4 for a in game.legal_actions(0) + game.legal_actions(1))


@pytest.mark.parametrize(
    ("count", "spit_cards", "expected"),
    [(10, 0, [1, 2, 3, 4]), (11, 1, [1, 2, 3, 4]), (6, 0, [1, 2, 2, 1]), (9, 0, [1, 2, 3, 3])],
)
def test_v1_r18_applies_at_10_cards(count: int, spit_cards: int, expected: list[int]) -> None:
    game = SpitGame(SpitConfig(four_stocks=True), 0, packets=[DECK[count:], DECK[:count]])
    assert sizes(game, 1) == expected
    assert len(game.spit[1]) == spit_cards
    assert game.one_pile_round == (spit_cards == 0)


def test_helper_shapes_agree_with_the_rule_text() -> None:
    """The test helpers' R3 order gives the shapes the rules state."""
    assert short_sizes(15, 5) == full_sizes(5) == [1, 2, 3, 4, 5]
    assert short_sizes(10, 4) == full_sizes(4) == [1, 2, 3, 4]
    assert short_sizes(5, 5) == [1, 1, 1, 1, 1]
