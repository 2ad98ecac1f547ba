"""The expert's Speed card memory: what it remembers, what it infers, how it plays on it."""

from __future__ import annotations

import random

import pytest

from spit.bots import REACTIONS, STYLES, Bot, SpeedStrategy
from spit.bots.speed_memory import OpponentModel
from spit.engine import Phase, SpeedConfig, parse_card, parse_cards, play
from spit.engine.cards import DECK_SIZE, adjacency_rows
from spit.engine.speed_game import SpeedObservation

ROWS = adjacency_rows(False)


def speed_obs(
    hand: str,
    tops: str,
    phase: Phase = Phase.PLAY,
    pile_sizes: tuple[int, int] = (1, 1),
    side_counts: tuple[int, int] = (10, 10),
    opponent_hand: int = 5,
    round_no: int = 1,
) -> SpeedObservation:
    """Player 1's observation of a chosen Speed position, with its legal plays."""
    cards = parse_cards(hand)
    top = parse_cards(tops)
    legal = ()
    if phase is Phase.PLAY:
        legal = tuple(play(0, s, t) for s, c in enumerate(cards) for t in (0, 1) if ROWS[top[t]][c])
    return SpeedObservation(
        player=0,
        phase=phase,
        round_no=round_no,
        config=SpeedConfig(),
        hand=tuple(cards),
        opponent_hand_count=opponent_hand,
        draw_counts=(10, 10),
        side_counts=side_counts,
        pile_tops=(top[0], top[1]),
        pile_sizes=pile_sizes,
        ready=(False, False),
        scores=(0, 0),
        games_won=(0, 0),
        winner=None,
        result="",
        legal=legal,
    )


def ranks(*names: str) -> list[int]:
    """Every card of the given ranks."""
    return [parse_card(r + s) for r in names for s in "CDHS"]


HAND = "4C 10C KC 6S 7S"
STUCK = speed_obs(HAND, "3S JS", Phase.STALEMATE, pile_sizes=(4, 4))
# P4: the side piles turn 3H onto pile 1 and 9D onto pile 2.
AFTER_FLIP = speed_obs(HAND, "3H 9D", pile_sizes=(5, 5), side_counts=(9, 9))


def test_chances_sum_to_the_opponents_hand_and_skip_own_cards() -> None:
    model = OpponentModel()
    model.observe(speed_obs(HAND, "3S JS"))
    assert sum(model.chance) == pytest.approx(5)
    for c in parse_cards(HAND + " 3S JS"):
        assert model.chance[c] == 0


def test_card_memory_keeps_a_covered_pile_top_out_of_the_opponents_hand() -> None:
    model = OpponentModel()
    model.observe(speed_obs(HAND, "3S JS"))
    # The opponent covers 3S with 4D; 3S is out of sight but was seen: it is in a spit pile.
    model.observe(speed_obs(HAND, "4D JS", pile_sizes=(2, 1), opponent_hand=5))
    assert model.chance[parse_card("3S")] == 0
    assert model.chance[parse_card("4D")] == 0
    assert sum(model.chance) == pytest.approx(5)


def test_p4_stalemate_rules_out_every_card_that_fits_a_top() -> None:
    model = OpponentModel()
    model.observe(STUCK)
    for c in ranks("2", "4", "10", "Q"):
        assert model.chance[c] == 0, c
    # The rest of the unseen cards share the five cards of the opponent's hand.
    assert sum(model.chance) == pytest.approx(5)
    assert model.chance[parse_card("8H")] > 5 / DECK_SIZE


def test_an_opponent_play_lets_ruled_out_cards_back_in() -> None:
    model = OpponentModel()
    model.observe(STUCK)
    model.observe(AFTER_FLIP)  # the flip itself is no opponent play: still ruled out
    assert model.chance[parse_card("2H")] == 0
    # The opponent plays 8D on 9D: pile 2 grows, the bot's hand is unchanged,
    # so they drew a fresh unseen card, which may be a 2.
    model.observe(speed_obs(HAND, "3H 8D", pile_sizes=(5, 6), side_counts=(9, 9)))
    assert 0 < model.chance[parse_card("2H")] < model.chance[parse_card("5H")]


def test_own_plays_are_not_mistaken_for_the_opponents() -> None:
    model = OpponentModel()
    model.observe(STUCK)
    model.observe(AFTER_FLIP)
    # Player 1 plays 4C on 3H and draws 5D: the 2s stay ruled out.
    model.observe(speed_obs("5D 10C KC 6S 7S", "4C 9D", pile_sizes=(6, 5), side_counts=(9, 9)))
    assert model.chance[parse_card("2H")] == 0


def test_a_new_deal_forgets_the_last_one() -> None:
    model = OpponentModel()
    model.observe(STUCK)
    model.observe(speed_obs(HAND, "5D 9D", Phase.OPENING, round_no=2))
    assert model.chance[parse_card("2H")] > 0
    assert model.chance[parse_card("3S")] > 0  # seen last deal, dealt again since


def test_expert_leaves_the_top_the_opponent_was_seen_unable_to_play_on() -> None:
    # After the stalemate on 3S and JS the opponent holds no 2 or 4, so 3H is
    # dead for them, while 9D is not. Playing 10C covers 9D and leaves 3H;
    # playing 4C would cover the dead top and leave the live one.
    strategy = SpeedStrategy(STYLES["expert"])
    strategy.observe(STUCK)
    assert strategy.choose(AFTER_FLIP, random.Random(0)) == play(0, 1, 1)
    # Without the stalemate in memory the two plays look alike to it, and it
    # has no such reason: over many tie-breaks it makes the other play too.
    fresh = {SpeedStrategy(STYLES["expert"]).choose(AFTER_FLIP, random.Random(s)) for s in range(8)}
    assert play(0, 0, 0) in fresh


def test_watchful_bot_remembers_positions_it_only_glances_at() -> None:
    bot = Bot(0, SpeedStrategy(STYLES["expert"]), REACTIONS["medium"], seed=1)
    bot.keeps(STUCK, play(0, 0, 0))
    memory = bot.strategy.memory
    assert memory is not None
    assert memory.chance[parse_card("2H")] == 0


def test_only_the_expert_style_has_card_memory() -> None:
    assert [name for name, style in STYLES.items() if style.card_memory] == ["expert"]
