"""Spit: play, moves, races and stalemates (R6-R13, V3, H6)."""

from __future__ import annotations

import pytest

from spit.engine import (
    CLOSE,
    STALL,
    SYSTEM,
    Action,
    IllegalAction,
    Kind,
    Phase,
    SpitConfig,
    call,
    move,
    parse_card,
    parse_cards,
    play,
)
from spit.engine.events import CardMoved, CardPlayed, CardTurnedUp, RoundOver, Spat, Stalemate

from .helpers import frozen_game, frozen_spit_cards, make_game, opened, tops

#: Stock tops that fit on neither a 7 nor a king (pile tops 7C and KD below).
DEAD = ["2D", "3D", "4D", "5D", "10D"]


def test_r6_play_is_simultaneous_not_in_turns() -> None:
    # Pile 0: 7C, pile 1: KD. Player 0 has 8H and 9H ready, player 1 has QS.
    game = opened(make_game(["8H", "9H", "2C", "3C", "4C"], ["QS", *DEAD[1:]], "7C", "KD"))
    assert game.legal_actions(0) and game.legal_actions(1)
    # Player 0 plays twice in a row; player 1 was not made to wait or to move in between.
    game.apply(play(0, 0, 0))
    game.apply(play(0, 1, 0))
    game.apply(play(1, 0, 1))
    assert [game.piles[0][-1], game.piles[1][-1]] == parse_cards("9H QS")


def test_r7_play_a_top_card_one_rank_up_or_down_onto_either_pile() -> None:
    # Pile 0: 7C, pile 1: KD. 8H and 6D fit on the 7, QS on the king; 7D and 9S fit nowhere.
    game = opened(make_game(["8H", "QS", "6D", "7D", "9S"], DEAD, "7C", "KD"))
    assert game.legal_actions(0) == [play(0, 0, 0), play(0, 1, 1), play(0, 2, 0)]
    events = game.apply(play(0, 1, 1))
    assert events[0] == CardPlayed(0, 1, 1, parse_card("QS"))
    assert game.piles[1] == parse_cards("KD QS")


@pytest.mark.parametrize(("stock", "pile"), [(3, 0), (4, 0), (0, 1), (2, 1)])
def test_r7_a_card_not_one_rank_away_is_refused(stock: int, pile: int) -> None:
    # 7D on 7C (same rank), 9S on 7C (two apart), 8H and 6D on KD.
    game = opened(make_game(["8H", "QS", "6D", "7D", "9S"], DEAD, "7C", "KD"))
    before = game.fingerprint()
    with pytest.raises(IllegalAction, match="not one rank above or below"):
        game.apply(play(0, stock, pile))
    assert game.fingerprint() == before


def test_r8_ace_turns_the_corner() -> None:
    # Pile 0: AH, pile 1: 2S. On the ace: K and 2; on the 2: A and 3; a queen fits neither.
    game = opened(
        make_game(["KC", "2D", "QC", "3C", "AD"], ["5D", "6D", "7D", "8D", "9D"], "AH", "2S")
    )
    assert game.legal_actions(0) == [play(0, 0, 0), play(0, 1, 0), play(0, 3, 1), play(0, 4, 1)]
    game.apply(play(0, 0, 0))  # K on A
    assert game.piles[0][-1] == parse_card("KC")


def test_r8_king_takes_a_queen_or_an_ace() -> None:
    game = opened(
        make_game(["QC", "AC", "2C", "JC", "KC"], ["3D", "4D", "5D", "9D", "10D"], "KH", "7S")
    )
    assert game.legal_actions(0) == [play(0, 0, 0), play(0, 1, 0)]
    game.apply(play(0, 1, 0))  # A on K
    assert game.piles[0][-1] == parse_card("AC")


def test_r9_the_card_below_is_turned_up_at_once() -> None:
    game = opened(make_game(["8H", "JC 9H", "2C", "3C", "4C"], DEAD, "7C", "KD"))
    game.apply(play(0, 0, 0))
    events = game.apply(play(0, 1, 0))  # 9H on 8H uncovers JC
    assert CardTurnedUp(0, 1, parse_card("JC")) in events
    obs = game.observation(1)
    assert obs.stocks[0][1].top == parse_card("JC") and obs.stocks[0][1].face_down == 0


def test_r10_move_a_top_card_into_an_empty_slot() -> None:
    # Pile 0: 7C, pile 1: KD. Stock 2 holds QH over 4S.
    game = opened(make_game(["8H", "4S QH", "2C", "3C", "4C"], DEAD, "7C", "KD"))
    # No empty slot yet: no move.
    with pytest.raises(IllegalAction, match="no empty slot"):
        game.apply(move(0, 1))
    game.apply(play(0, 0, 0))  # stock 1 is now empty
    assert move(0, 1) in game.legal_actions(0)
    events = game.apply(move(0, 1))
    qh, s4 = parse_cards("QH 4S")
    assert CardMoved(0, 1, 0, qh) in events and CardTurnedUp(0, 1, s4) in events  # R9
    assert tops(game, 0)[:2] == [qh, s4]
    game.apply(play(0, 0, 1))  # QH on KD empties stock 1 again
    # Stock 2 now holds one card: moving it would change nothing.
    before = game.fingerprint()
    assert move(0, 1) not in game.legal_actions(0)
    with pytest.raises(IllegalAction, match="only one card"):
        game.apply(move(0, 1))
    assert game.fingerprint() == before
    # An empty stock cannot be moved either; a stock of three can, into the leftmost gap.
    with pytest.raises(IllegalAction, match="empty"):
        game.apply(move(0, 0))
    game.apply(move(0, 2))
    assert [len(s) for s in game.stocks[0]] == [1, 1, 2, 4, 5]


def test_r10_never_more_than_five_stocks() -> None:
    game = opened(make_game(["8H", "4S QH", "2C", "3C", "4C"], DEAD, "7C", "KD"))
    game.apply(play(0, 0, 0))
    game.apply(move(0, 4))
    assert [len(s) for s in game.stocks[0]] == [1, 2, 3, 4, 4]
    with pytest.raises(IllegalAction):
        game.apply(move(0, 5))
    assert len(game.stocks[0]) == 5 and len(game.observation(0).stocks[0]) == 5


def test_r10_leftmost_empty_slot_is_filled() -> None:
    # Empty stocks 1 and 2 (8H, then 9H and 10H), then move from stock 5.
    game = opened(make_game(["8H", "10H 9H", "2C", "3C", "4C"], DEAD, "7C", "KD"))
    for stock in (0, 1, 1):
        game.apply(play(0, stock, 0))
    assert [len(s) for s in game.stocks[0]] == [0, 0, 3, 4, 5]
    game.apply(move(0, 4))  # two empty slots: the card goes to the first
    assert [len(s) for s in game.stocks[0]] == [1, 0, 3, 4, 4]


def test_r11_a_race_is_won_by_the_first_card_and_the_other_is_refused() -> None:
    # Both players can play onto the 7C: player 0 an 8H, player 1 a 6S.
    game = opened(make_game(["8H", "2C", "3C", "4C", "5C"], ["6S", *DEAD[1:]], "7C", "KD"))
    assert play(1, 0, 0) in game.legal_actions(1)
    game.apply(play(0, 0, 0))  # player 0's card lands first
    before = game.fingerprint()
    with pytest.raises(IllegalAction, match="6♠ is not one rank above or below 8♥"):
        game.apply(play(1, 0, 0))
    assert game.fingerprint() == before
    assert tops(game, 1)[0] == parse_card("6S")  # the card stays on its stock
    assert game.piles[0] == parse_cards("7C 8H")
    assert game.actions == [call(0), call(1), play(0, 0, 0)]


def test_r11_the_later_card_is_judged_against_the_new_top() -> None:
    # Player 1's 9S does not fit on the 7C, but once player 0's 8H has landed, it does.
    game = opened(make_game(["8H", "2C", "3C", "4C", "5C"], ["9S", *DEAD[1:]], "7C", "KD"))
    with pytest.raises(IllegalAction):
        game.apply(play(1, 0, 0))
    game.apply(play(0, 0, 0))
    game.apply(play(1, 0, 0))
    assert game.piles[0] == parse_cards("7C 8H 9S")


def test_r11_a_card_arriving_after_the_round_ended_is_refused() -> None:
    game = opened(frozen_game(1))
    while game.phase is Phase.STALEMATE:
        game.apply(call(1))
    assert game.phase is Phase.SLAP
    before = game.fingerprint()
    with pytest.raises(IllegalAction, match="round is over"):
        game.apply(play(0, 0, 0))
    assert game.fingerprint() == before


def test_r12_no_play_and_no_move_is_a_stalemate_found_by_the_game() -> None:
    game = frozen_game(11)
    events = game.apply(call(0)) + game.apply(call(1))
    assert Stalemate(False) in events
    assert game.phase is Phase.STALEMATE
    assert not game.can_anyone_move()


def test_r12_a_possible_move_is_not_a_stalemate() -> None:
    # After 8H is played nothing fits on 8H or KD, but player 0 has an empty slot and
    # tall stocks, so they can still turn up a card by R10.
    game = opened(make_game(["8H", "2C", "3C", "4C", "5C"], DEAD, "7C", "KD"))
    events = game.apply(play(0, 0, 0))
    assert not [e for e in events if isinstance(e, Stalemate)]
    assert game.phase is Phase.PLAY
    assert game.legal_actions(0) == [move(0, s) for s in (1, 2, 3, 4)]
    assert game.legal_actions(1) == []


def test_r12_stalemate_after_the_last_possible_play() -> None:
    # One-pile round: player 1 has five single-card stocks (R18), player 0 starts pile 0
    # with 7C. After player 1's 8H lands, nothing fits on it and player 1 has an empty
    # slot but no stock of two cards to move from; player 0 has no empty slot.
    game = make_game(DEAD, ["8H", "2C", "3C", "4C", "5C"], "7C", pad=(True, False))
    opened(game)
    assert game.phase is Phase.PLAY
    events = game.apply(play(1, 0, 0))
    assert Stalemate(False) in events
    assert game.phase is Phase.STALEMATE


def test_r13_in_a_stalemate_only_calls_and_each_spits_onto_their_own_pile() -> None:
    game = opened(frozen_game(11))
    assert game.phase is Phase.STALEMATE
    assert game.legal_actions(0) == [call(0)] and game.legal_actions(1) == [call(1)]
    assert game.legal_actions(SYSTEM) == []
    before = game.fingerprint()
    with pytest.raises(IllegalAction, match="stalemate"):
        game.apply(play(0, 0, 0))
    with pytest.raises(IllegalAction):
        game.apply(STALL)
    assert game.fingerprint() == before
    game.apply(call(0))
    assert game.phase is Phase.STALEMATE  # still waiting for player 1
    events = game.apply(call(1))
    spit0, spit1 = frozen_spit_cards(11)
    assert [e for e in events if isinstance(e, Spat)] == [
        Spat(0, 0, spit0[1]),
        Spat(1, 1, spit1[1]),
    ]
    assert game.piles == [spit0[:2], spit1[:2]]


def test_r13_still_a_stalemate_means_spit_again_with_fresh_calls() -> None:
    game = opened(frozen_game(11))
    game.apply(call(0))
    game.apply(call(1))
    # Nothing fits after the spit either: a new stalemate, and both must call again.
    assert game.phase is Phase.STALEMATE
    assert game.observation(0).called == (False, False)
    assert game.legal_actions(0) == [call(0)]
    game.apply(call(0))
    with pytest.raises(IllegalAction, match="already called"):
        game.apply(call(0))


def test_v3_alternating_colours() -> None:
    # Pile 0: 7C (black), pile 1: KD (red).
    stocks = ["8H", "8S", "6D", "QC", "QH"]
    plain = opened(make_game(stocks, DEAD, "7C", "KD"))
    on_seven = [play(0, 0, 0), play(0, 1, 0), play(0, 2, 0)]
    assert plain.legal_actions(0) == [*on_seven, play(0, 3, 1), play(0, 4, 1)]
    v3 = opened(make_game(stocks, DEAD, "7C", "KD", config=SpitConfig(alternating_colours=True)))
    # Red on black, black on red only: 8H and 6D on the 7C, QC on the KD.
    assert v3.legal_actions(0) == [play(0, 0, 0), play(0, 2, 0), play(0, 3, 1)]
    before = v3.fingerprint()
    with pytest.raises(IllegalAction, match="other colour"):
        v3.apply(play(0, 1, 0))
    with pytest.raises(IllegalAction, match="other colour"):
        v3.apply(play(0, 4, 1))
    assert v3.fingerprint() == before
    v3.apply(play(0, 0, 0))
    assert v3.piles[0][-1] == parse_card("8H")


def test_v3_still_needs_one_rank_apart() -> None:
    # 9H is red on a black 7 but two ranks away.
    game = opened(
        make_game(
            ["9H", "2C", "3C", "4C", "5C"],
            DEAD,
            "7C",
            "KD",
            config=SpitConfig(alternating_colours=True),
        )
    )
    assert play(0, 0, 0) not in game.legal_actions(0)


def test_v3_refusal_names_only_the_failed_condition() -> None:
    """Issue 21 defect 6: 8♦ on 9♦ is one rank from it; only the colour is wrong."""
    game = opened(
        make_game(
            ["8D", "8C", "AD", "4C", "5C"],
            DEAD,
            "9D",
            "KD",
            config=SpitConfig(alternating_colours=True),
        )
    )
    with pytest.raises(IllegalAction) as refused:
        game.apply(play(0, 0, 0))
    assert str(refused.value) == "8♦ is not of the other colour than 9♦"
    with pytest.raises(IllegalAction) as refused:
        game.apply(play(0, 2, 0))
    assert str(refused.value) == "A♦ is not one rank above or below 9♦"


def test_h6_stall_is_treated_as_a_stalemate() -> None:
    # Player 0 could still play 8H, but the stall time ran out: R13 applies.
    game = opened(make_game(["8H", "2C", "3C", "4C", "5C"], DEAD, "7C 9C", "KD QD"))
    assert game.legal_actions(SYSTEM) == [STALL]
    events = game.apply(STALL)
    assert Stalemate(True) in events
    assert game.phase is Phase.STALEMATE
    assert game.legal_actions(0) == [call(0)] and game.legal_actions(1) == [call(1)]
    game.apply(call(0))
    game.apply(call(1))
    assert game.phase is Phase.PLAY  # 8H fits on the new 9C
    assert game.piles == [parse_cards("7C 9C"), parse_cards("KD QD")]


def test_h6_stall_with_no_spit_cards_ends_the_round_by_r15b() -> None:
    game = opened(make_game(["8H", "2C", "3C", "4C", "5C"], DEAD, "7C", "KD", spit_count0=1))
    # Set-up: player 1's other spit cards go under their pile, as if spat in earlier
    # stalemates, so nobody holds spit cards while 8H could still be played.
    game.piles[1][:0] = game.spit[1]
    game.spit[1] = []
    assert game.phase is Phase.PLAY and game.spit == [[], []]
    events = game.apply(STALL)
    assert Stalemate(True) in events
    assert RoundOver(1, "no_spit_cards", None) in events
    assert game.phase is Phase.SLAP


@pytest.mark.parametrize("phase_setup", ["opening", "stalemate", "slap"])
def test_h6_stall_only_during_play(phase_setup: str) -> None:
    game = frozen_game(1)
    if phase_setup != "opening":
        opened(game)
    if phase_setup == "slap":
        while game.phase is Phase.STALEMATE:
            game.apply(call(1))
    assert game.phase is {"opening": Phase.OPENING, "stalemate": Phase.STALEMATE}.get(
        phase_setup, Phase.SLAP
    )
    before = game.fingerprint()
    with pytest.raises(IllegalAction, match="during play"):
        game.apply(STALL)
    assert game.fingerprint() == before


def test_h6_only_the_game_itself_may_stall_or_close() -> None:
    game = opened(make_game(["8H", "2C", "3C", "4C", "5C"], DEAD, "7C", "KD"))
    before = game.fingerprint()
    for kind in (Kind.STALL, Kind.CLOSE):
        with pytest.raises(IllegalAction, match="only the game"):
            game.apply(Action(kind, 0))
    with pytest.raises(IllegalAction):
        game.apply(CLOSE)  # no slap window is open
    assert game.fingerprint() == before
