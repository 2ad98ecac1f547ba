"""Speed's rules, one test (or more) per rule id: P1-P7, V3, H4, H5, H6.

Positions are set with a given 52-card deck, read in the order documented on
``deal_speed``: player 1's cards (hand slots 1-5, then the draw pile in
drawing order), player 2's, side pile 1 and side pile 2 (in turning order),
then the two centre cards.
"""

from __future__ import annotations

import json
import random

import pytest

from spit.engine import (
    FLIP,
    STALL,
    SYSTEM,
    ConfigError,
    IllegalAction,
    Phase,
    ReplayError,
    SpeedConfig,
    SpeedGame,
    call,
    dumps,
    loads,
    parse_card,
    parse_cards,
    play,
)
from spit.engine.cards import RANK, RED
from spit.engine.events import (
    CardPlayed,
    CardTurnedUp,
    GameDrawn,
    GameOver,
    GameWon,
    PhaseChanged,
    Scored,
    SidePilesRebuilt,
    Spat,
    SpitCalled,
    Stalemate,
)
from spit.realtime.arbiter import Arbiter, Timing


def make_deck(
    p0: str = "",
    p1: str = "",
    side0: str = "",
    side1: str = "",
    centre: str = "",
    long_deal: bool = False,
) -> list[int]:
    """A full deck with the given cards first in each section, the rest in id order."""
    n, k = (20, 5) if long_deal else (15, 10)
    sections = [(p0, n), (p1, n), (side0, k), (side1, k), (centre, 2)]
    given = [parse_cards(text) for text, _ in sections]
    used = [c for cards in given for c in cards]
    assert len(used) == len(set(used)), "a card is given twice"
    spare = iter(sorted(set(range(52)) - set(used)))
    deck: list[int] = []
    for cards, (_, size) in zip(given, sections, strict=True):
        assert len(cards) <= size
        deck.extend(cards)
        deck.extend(next(spare) for _ in range(size - len(cards)))
    return deck


def opened(config: SpeedConfig, deck: list[int]) -> SpeedGame:
    """A game on ``deck`` with both players ready (P2)."""
    game = SpeedGame(config, deck=deck)
    game.apply(call(0))
    game.apply(call(1))
    return game


def slot_of(game: SpeedGame, player: int, name: str) -> int:
    """The hand slot holding the named card."""
    return game.hands[player].index(parse_card(name))


def random_playout(game: SpeedGame, rng: random.Random, max_steps: int = 200_000) -> None:
    """Apply random legal actions (players and SYSTEM alike) until the game is over."""
    for _ in range(max_steps):
        if game.over:
            return
        actions = game.legal_actions(None) + game.legal_actions(SYSTEM)
        game.apply(rng.choice(actions))
    raise AssertionError("the game did not end")


# ------------------------------------------------------------------------ P1


def test_p1_deal_gives_side_piles_of_ten_and_fifteen_cards_each() -> None:
    game = SpeedGame(SpeedConfig(), seed=11)
    assert [len(s) for s in game.side] == [10, 10]
    assert len(game.centre) == 2 and game.piles == [[], []]
    for p in (0, 1):
        assert game.hand_count(p) == 5 and len(game.draw[p]) == 10
        assert game.card_count(p) == 15
    assert sorted(game.all_cards()) == list(range(52))


def test_p1_given_deck_is_dealt_in_the_documented_order() -> None:
    game = SpeedGame(SpeedConfig(), deck=list(range(52)))
    assert game.hands == [[0, 1, 2, 3, 4], [15, 16, 17, 18, 19]]
    assert game.draw[0][-1] == 5 and game.draw[0][0] == 14  # next card drawn is at the end
    assert game.draw[1][-1] == 20 and game.draw[1][0] == 29
    assert game.side[0][-1] == 30 and game.side[0][0] == 39  # next card turned is at the end
    assert game.side[1][-1] == 40 and game.side[1][0] == 49
    assert game.centre == [50, 51]


@pytest.mark.parametrize(
    "deck", [list(range(51)), [*range(51), 0], [*range(51), True], [*range(51), 52], "AS KD"]
)
def test_p1_a_bad_given_deck_is_refused(deck: object) -> None:
    with pytest.raises(ConfigError):
        SpeedGame(SpeedConfig(), deck=deck)  # type: ignore[arg-type]
    with pytest.raises(ReplayError):
        SpeedGame.from_start(SpeedConfig(), 0, deck)


def test_p1b_long_deal_gives_side_piles_of_five_and_twenty_cards_each() -> None:
    game = SpeedGame(SpeedConfig(long_deal=True), seed=11)
    assert [len(s) for s in game.side] == [5, 5]
    assert len(game.centre) == 2
    for p in (0, 1):
        assert game.hand_count(p) == 5 and len(game.draw[p]) == 15
    assert sorted(game.all_cards()) == list(range(52))


# ------------------------------------------------------------------------ P2


def test_p2_centre_cards_turn_up_together_only_when_both_are_ready() -> None:
    deck = make_deck(p0="6C 2D 3D 4D 5D", centre="7H KC")
    game = SpeedGame(SpeedConfig(), deck=deck)
    assert game.phase is Phase.OPENING
    assert game.hands[0] == parse_cards("6C 2D 3D 4D 5D")  # hands are drawn at the deal
    with pytest.raises(IllegalAction, match="ready"):
        game.apply(play(0, 0, 0))
    assert game.legal_actions(None) == [call(0), call(1)]
    assert game.apply(call(0)) == [SpitCalled(0)]
    assert game.phase is Phase.OPENING and game.piles == [[], []]
    with pytest.raises(IllegalAction, match="already ready"):
        game.apply(call(0))
    events = game.apply(call(1))
    seven, king = parse_cards("7H KC")
    assert events[:3] == [SpitCalled(1), Spat(0, 0, seven), Spat(1, 1, king)]
    assert game.piles == [[seven], [king]] and game.centre == []
    assert game.phase is Phase.PLAY  # 6C fits 7H
    with pytest.raises(IllegalAction):
        game.apply(call(0))  # no more calls once play is under way


def test_p2_hand_is_hidden_from_the_opponent() -> None:
    game = SpeedGame(SpeedConfig(), seed=5)
    obs = game.observation(0)
    assert obs.hand == tuple(game.hands[0])
    assert obs.opponent_hand_count == 5
    assert obs.pile_tops == (None, None)  # centre cards are face down until both are ready
    assert obs.visible_cards() == set(game.hands[0])
    assert not obs.visible_cards() & set(game.hands[1])


# ------------------------------------------------------------------------ P3


def test_p3_play_one_rank_either_way_turning_the_corner_and_draw_back_up() -> None:
    deck = make_deck(p0="2C 5D 9H KS AD JD QD", centre="AC 8S")
    game = opened(SpeedConfig(), deck)
    king, ace_d, jack, queen = parse_cards("KS AD JD QD")
    events = game.apply(play(0, 3, 0))  # K on A (R8)
    assert events == [CardPlayed(0, 3, 0, king), CardTurnedUp(0, 3, jack)]
    assert game.hands[0] == parse_cards("2C 5D 9H JD AD")  # refilled in the same slot
    assert len(game.draw[0]) == 9
    before = game.fingerprint()
    with pytest.raises(IllegalAction, match="one rank above or below"):
        game.apply(play(0, 1, 0))  # 5 on K
    assert game.fingerprint() == before
    game.apply(play(0, 4, 0))  # A on K (R8)
    assert game.hands[0][4] == queen
    game.apply(play(0, 0, 0))  # 2 on A
    game.apply(play(0, 2, 1))  # 9 on 8: either pile may be used
    assert game.piles[0] == [parse_card("AC"), king, ace_d, parse_card("2C")]
    assert game.hand_count(0) == 5 and len(game.draw[0]) == 6


def test_p3_empty_slot_and_missing_slot_are_refused() -> None:
    game = opened(SpeedConfig(), make_deck(p0="6C", centre="7H 7D"))
    with pytest.raises(IllegalAction, match="no hand slot"):
        game.apply(play(0, 7, 0))
    game.hands[0][1] = None  # as after the draw pile ran out
    with pytest.raises(IllegalAction, match="empty"):
        game.apply(play(0, 1, 0))


# ------------------------------------------------------------------------ P4

# Hands hold only A, 2, 3: they fit K, A, 2, 3, 4 and nothing else.
_STUCK_HANDS = {"p0": "AC AD AH AS 2C", "p1": "3C 3D 3H 3S 2D"}


def test_p4_stalemate_flips_a_card_from_each_side_pile_until_someone_can_play() -> None:
    deck = make_deck(**_STUCK_HANDS, side0="JC 4H", side1="5C 6C", centre="7C 7D")
    game = SpeedGame(SpeedConfig(), deck=deck)
    game.apply(call(0))
    events = game.apply(call(1))
    assert events[-2:] == [Stalemate(False), PhaseChanged("stalemate")]
    assert game.legal_actions(None) == [] and game.legal_actions(SYSTEM) == [FLIP]
    with pytest.raises(IllegalAction, match="stalemate"):
        game.apply(play(1, 0, 0))
    events = game.apply(FLIP)  # J and 5 fit nothing: still stuck, a fresh stalemate
    jack, five, four, six = parse_cards("JC 5C 4H 6C")
    assert events == [Spat(0, 0, jack), Spat(1, 1, five), Stalemate(False)]
    assert game.phase is Phase.STALEMATE
    assert [len(s) for s in game.side] == [9, 9]
    events = game.apply(FLIP)  # 4 fits the 3s
    assert events == [Spat(0, 0, four), Spat(1, 1, six), PhaseChanged("play")]
    assert play(1, 0, 0) in game.legal_actions(1)
    with pytest.raises(IllegalAction, match="only in a stalemate"):
        game.apply(FLIP)


def test_p4_arbiter_flips_after_its_delay_and_again_on_a_fresh_stalemate() -> None:
    deck = make_deck(**_STUCK_HANDS, side0="JC 4H", side1="5C 6C", centre="7C 7D")
    now = [0.0]
    arbiter = Arbiter(
        SpeedGame(SpeedConfig(), deck=deck),
        Timing(flip_delay=1.0, stall_time=10.0),
        clock=lambda: now[0],
    )
    arbiter.submit(call(0), at=0.1)
    arbiter.submit(call(1), at=0.2)
    arbiter.tick(0.5)
    assert arbiter.game.phase is Phase.STALEMATE
    assert arbiter.tick(1.1) == []  # the flip waits flip_delay after the stalemate
    arbiter.tick(1.2)
    assert [a for _, a in arbiter.log].count(FLIP) == 1
    arbiter.tick(2.2)  # the second stalemate restarted the timer at 1.2
    assert [a for _, a in arbiter.log].count(FLIP) == 2
    assert arbiter.game.phase is Phase.PLAY


# ------------------------------------------------------------------------ P5


def test_p5_empty_side_piles_are_rebuilt_from_the_spit_piles_below_their_tops() -> None:
    # Hands: 6 6 6 6 9 and 3 3 3 9 9 (then J): they fit 2 4 5 7 8 10 (and Q for the J).
    # Player 2 plays 3C on 4C; then nothing fits until the 4C comes round again.
    deck = make_deck(
        p0="6C 6D 6H 6S 9H",
        p1="3C 3D 3H 9C 9D JD",
        side0="AC AD AH AS 3S",
        side1="9S JC JH JS KD",
        centre="4C KC",
        long_deal=True,
    )
    game = opened(SpeedConfig(long_deal=True), deck)
    assert game.legal_actions(None) == [play(1, 0, 0), play(1, 1, 0), play(1, 2, 0)]
    events = game.apply(play(1, 0, 0))
    assert Stalemate(False) in events and game.phase is Phase.STALEMATE
    for _ in range(5):
        game.apply(FLIP)
        assert game.phase is Phase.STALEMATE
    assert game.side == [[], []]
    below = sorted(game.piles[0][:-1] + game.piles[1][:-1])
    tops = (game.piles[0][-1], game.piles[1][-1])
    assert len(below) == 11
    events = game.apply(FLIP)
    assert events[0] == SidePilesRebuilt((6, 5))  # the larger half on player 1's side
    assert [type(e) for e in events[1:3]] == [Spat, Spat]
    assert [len(s) for s in game.side] == [5, 4]
    assert (game.piles[0][0], game.piles[1][0]) == tops  # the old tops stay
    assert sorted(game.side[0] + game.side[1] + game.piles[0][1:] + game.piles[1][1:]) == below
    assert sorted(game.all_cards()) == list(range(52))


# ------------------------------------------------------------------------ P6


# Player 1 can play their 15 cards in a row: 2 3 4 ... K A 2 3 on the ace of spades.
_CHAIN = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AD 2D 3D"


def play_out_chain(game: SpeedGame) -> list:
    """Player 1 plays the chain onto pile 1; returns the events of the last play."""
    events: list = []
    for name in _CHAIN.split():
        assert not game.over
        events = game.apply(play(0, slot_of(game, 0, name), 0))
    return events


def test_p6_first_to_play_out_hand_and_draw_pile_wins() -> None:
    game = opened(SpeedConfig(), make_deck(p0=_CHAIN, centre="AS 7H"))
    for i, name in enumerate(_CHAIN.split()[:-1]):
        game.apply(play(0, slot_of(game, 0, name), 0))
        # P3: while the draw pile lasts every slot is full; after that slots empty
        assert game.hand_count(0) == (5 if i < 10 else 14 - i)
    assert game.hands[0].count(None) == 4 and not game.over
    events = game.apply(play(0, slot_of(game, 0, _CHAIN.split()[-1]), 0))
    assert events[-3:] == [GameWon(0, "P6"), GameOver(0, "P6"), PhaseChanged("game_over")]
    assert game.winner == 0 and game.result == "P6" and game.over
    assert game.legal_actions(None) == [] and game.legal_actions(SYSTEM) == []
    assert sorted(game.all_cards()) == list(range(52))


# ------------------------------------------------------------------------ P7


def test_p7_match_winner_scores_the_opponents_draw_pile_and_a_fresh_deal_follows() -> None:
    config = SpeedConfig(target_score=25)
    game = opened(config, make_deck(p0=_CHAIN, centre="AS 7H"))
    events = play_out_chain(game)
    assert GameWon(0, "P6") in events
    assert Scored((10, 0), (10, 0)) in events  # player 2 never played: 10 in their draw pile
    assert game.phase is Phase.OPENING and game.round_no == 2 and not game.over
    assert game.scores == [10, 0] and game.games_won == [1, 0]
    assert game.hand_count(0) == game.hand_count(1) == 5
    assert sorted(game.all_cards()) == list(range(52))


def test_p7_match_ends_when_the_target_score_is_reached() -> None:
    game = opened(SpeedConfig(target_score=10), make_deck(p0=_CHAIN, centre="AS 7H"))
    events = play_out_chain(game)
    assert events[-2:] == [GameOver(0, "score"), PhaseChanged("game_over")]
    assert game.winner == 0 and game.result == "score"


def test_p7_single_game_scores_nothing() -> None:
    game = opened(SpeedConfig(), make_deck(p0=_CHAIN, centre="AS 7H"))
    events = play_out_chain(game)
    assert not any(isinstance(e, Scored) for e in events) and game.scores == [0, 0]


# ------------------------------------------------------------------------ H5

# Player 1 holds 9H (fits 8C) and four 6s, then KC; player 2 four 3s and KD.
# After 9H goes on 8C the hands fit only 2 4 5 7 Q A, and no card in the
# centre or the side piles has one of those ranks: the stalemate is endless.
_ENDLESS = {
    "p0": "9H 3C 3D 3H 3S KC",
    "p1": "6C 6D 6H 6S KD",
    "side0": "8D 8H 8S 9C 9D",
    "side1": "9S 10C 10D 10H 10S",
    "centre": "8C JC",
}


def test_h5_endless_stalemate_is_won_by_the_player_holding_fewer_cards() -> None:
    game = opened(SpeedConfig(long_deal=True), make_deck(**_ENDLESS, long_deal=True))
    game.apply(play(0, 0, 0))
    assert game.phase is Phase.STALEMATE
    for _ in range(5):
        game.apply(FLIP)
    assert game.side == [[], []] and game.phase is Phase.STALEMATE
    events = game.apply(FLIP)
    assert game.card_count(0) == 19 and game.card_count(1) == 20
    assert events[:2] == [GameWon(0, "H5"), GameOver(0, "H5")]
    assert game.winner == 0 and game.result == "H5"
    assert sorted(game.all_cards()) == list(range(52))


def test_h5_endless_stalemate_with_equal_cards_is_a_draw() -> None:
    # Hands of 3s, 6s and 9s fit 2 4 5 7 8 10; the centre holds only 9 J Q K A.
    deck = make_deck(
        p0="3C 3D 3H 3S 6C",
        p1="6D 6H 6S 9C 9D",
        side0="JD JH JS QD QH",
        side1="QS KC KD KH KS",
        centre="JC QC",
        long_deal=True,
    )
    game = opened(SpeedConfig(long_deal=True), deck)
    assert game.phase is Phase.STALEMATE
    for _ in range(5):
        game.apply(FLIP)
    events = game.apply(FLIP)
    assert events[:2] == [GameDrawn("H5"), GameOver(None, "H5")]
    assert game.winner is None and game.result == "H5" and game.over


def test_h5_nothing_to_gather_ends_the_game() -> None:
    deck = make_deck(**_STUCK_HANDS, side0="JC 4H", side1="5C 6C", centre="7C 7D")
    game = opened(SpeedConfig(), deck)
    assert game.phase is Phase.STALEMATE
    # Put every side pile card into player 1's draw pile: nothing left to turn or gather.
    game.draw[0].extend(game.side[0] + game.side[1])
    game.side = [[], []]
    events = game.apply(FLIP)
    assert events[:2] == [GameWon(1, "H5"), GameOver(1, "H5")]
    assert sorted(game.all_cards()) == list(range(52))


def test_h5_a_draw_in_a_match_deals_again() -> None:
    deck = make_deck(
        p0="3C 3D 3H 3S 6C",
        p1="6D 6H 6S 9C 9D",
        side0="JD JH JS QD QH",
        side1="QS KC KD KH KS",
        centre="JC QC",
        long_deal=True,
    )
    game = opened(SpeedConfig(long_deal=True, target_score=5), deck)
    events = []
    for _ in range(6):
        events += game.apply(FLIP)
    assert game.phase is Phase.OPENING and game.round_no == 2 and game.scores == [0, 0]
    assert GameDrawn("H5") in events and not any(isinstance(e, GameOver) for e in events)


# ------------------------------------------------------------------------ V3


def test_v3_alternating_colours_in_speed() -> None:
    deck = make_deck(p0="6H 6S 8D", centre="7D 2C")
    game = opened(SpeedConfig(alternating_colours=True), deck)
    assert RED[parse_card("7D")] and RED[parse_card("6H")] and not RED[parse_card("6S")]
    assert game.legal_actions(0) == [play(0, 1, 0)]  # only the black six
    with pytest.raises(IllegalAction) as refused:
        game.apply(play(0, 0, 0))
    assert str(refused.value) == "6♥ is not of the other colour than 7♦"  # issue 21 defect 6
    with pytest.raises(IllegalAction) as refused:
        game.apply(play(0, 2, 0))
    assert str(refused.value) == "8♦ is not of the other colour than 7♦"
    game.apply(play(0, 1, 0))
    assert game.piles[0][-1] == parse_card("6S")
    plain = opened(SpeedConfig(), deck)
    assert {play(0, 0, 0), play(0, 1, 0)} <= set(plain.legal_actions(0))


# ------------------------------------------------------------------------ H6


def test_h6_stall_in_speed_is_treated_as_a_stalemate() -> None:
    game = opened(SpeedConfig(), make_deck(p0="6C", side0="2C", side1="9C", centre="7H KD"))
    assert game.phase is Phase.PLAY and game.legal_actions(SYSTEM) == [STALL]
    with pytest.raises(IllegalAction, match="only the game"):
        game.apply(STALL._replace(player=0))
    events = game.apply(STALL)
    assert events == [Stalemate(True), PhaseChanged("stalemate")]
    with pytest.raises(IllegalAction, match="during play"):
        game.apply(STALL)
    events = game.apply(FLIP)  # P4 as for any stalemate
    assert events[:2] == [Spat(0, 0, parse_card("2C")), Spat(1, 1, parse_card("9C"))]
    assert game.piles[0][-1] == parse_card("2C")


def test_h6_stall_is_refused_before_the_opening() -> None:
    game = SpeedGame(SpeedConfig(), seed=1)
    with pytest.raises(IllegalAction, match="during play"):
        game.apply(STALL)


# ------------------------------------------------------------------------ H4


def test_h4_every_deal_counts_and_the_match_is_drawn_at_the_round_limit() -> None:
    game = SpeedGame(SpeedConfig(target_score=100_000, round_limit=3), seed=4)
    random_playout(game, random.Random(4))
    assert game.result == "round_limit" and game.winner is None
    assert game.round_no == 3


def test_h4_a_match_won_in_the_last_round_is_a_win() -> None:
    game = opened(SpeedConfig(target_score=5, round_limit=1), make_deck(p0=_CHAIN, centre="AS 7H"))
    play_out_chain(game)
    assert game.result == "score" and game.winner == 0


# ------------------------------------------------------------------- config and saves


@pytest.mark.parametrize(
    "kwargs",
    [
        {"long_deal": 1},
        {"alternating_colours": "yes"},
        {"target_score": -1},
        {"target_score": 1.5},
        {"round_limit": 0},
        {"round_limit": True},
    ],
)
def test_speed_config_refuses_bad_values(kwargs: dict) -> None:
    with pytest.raises(ConfigError):
        SpeedConfig(**kwargs)


def test_speed_config_plain_form_round_trip_and_unknown_keys() -> None:
    config = SpeedConfig(long_deal=True, alternating_colours=True, target_score=30)
    assert SpeedConfig.from_dict(config.to_dict()) == config
    assert config.variants == ("P1b", "V3", "P7")
    with pytest.raises(ConfigError, match="unknown config keys: four_stocks"):
        SpeedConfig.from_dict({"four_stocks": True})
    with pytest.raises(ConfigError):
        SpeedConfig.from_dict([1, 2])
    with pytest.raises(ConfigError):
        SpeedGame(config=object(), seed=1)  # type: ignore[arg-type]


def test_speed_save_round_trip_with_a_given_deck() -> None:
    deck = make_deck(p0="2C 5D 9H KS AD JD QD", centre="AC 8S")
    game = opened(SpeedConfig(alternating_colours=False), deck)
    game.apply(play(0, 3, 0))
    text = dumps(game)
    assert '"mode":"speed"' in text
    same = loads(text)
    assert isinstance(same, SpeedGame)
    assert same.fingerprint() == game.fingerprint() and same.start_deck == game.start_deck


def test_speed_save_with_a_corrupt_deck_is_refused() -> None:
    game = SpeedGame(SpeedConfig(), seed=3)
    data = game.to_json()
    data["cards"] = [0] * 52
    with pytest.raises(ReplayError, match="once each"):
        loads(json.dumps(data))


def test_speed_card_ranks_used_by_the_tests_are_what_they_say() -> None:
    # Guards the hand-built positions above against a typo in a card name.
    assert [RANK[c] for c in parse_cards(_CHAIN)] == [*range(2, 14), 1, 2, 3]
