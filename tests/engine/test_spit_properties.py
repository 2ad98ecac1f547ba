"""Property tests: deals, relayouts and a state machine over every legal (and illegal) action."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from spit.engine import IllegalAction, Phase, SpitConfig, SpitGame, dumps, loads
from spit.engine.cards import adjacency_masks
from spit.engine.events import CardMoved, CardPlayed, Event, PhaseChanged, Spat, Stalemate
from spit.engine.spit_game import deal_layout

from .helpers import (
    ALL_ACTIONS,
    R3_ORDER,
    all_legal,
    check_cards,
    check_collect,
    check_observation,
    check_round_start,
    short_sizes,
)

configs = st.builds(
    SpitConfig,
    four_stocks=st.booleans(),
    choose_pile=st.booleans(),
    alternating_colours=st.booleans(),
    scoring=st.booleans(),
    target_score=st.integers(20, 100),
    round_limit=st.integers(1, 6),
)
seeds = st.integers(0, 2**64 - 1)


def check_deal(cards: list[int], n_stocks: int) -> None:
    """R3, R4, R18 and V1 for one dealt packet."""
    size = n_stocks * (n_stocks + 1) // 2
    stocks, spit = deal_layout(cards, n_stocks)
    laid = min(len(cards), size)
    assert [len(s) for s in stocks] == short_sizes(laid, n_stocks)
    # Each stock holds, bottom to top, the cards the R3 order put on it; its top
    # (the face-up card) is the last of them.
    for i, stock in enumerate(stocks):
        assert stock == [cards[k] for k in range(laid) if R3_ORDER[n_stocks][k] == i]
    # Spit cards only beyond a full layout; cards[size] is the first turned up.
    assert len(spit) == max(0, len(cards) - size)
    if spit:
        assert spit[-1] == cards[size] and spit[::-1] == cards[size:]
    dealt = [c for s in stocks for c in s] + spit
    assert sorted(dealt) == sorted(cards)


@pytest.mark.parametrize("n_stocks", [4, 5])
def test_r3_r18_v1_deal_invariants_for_every_card_count(n_stocks: int) -> None:
    rng = random.Random(n_stocks)
    for count in range(1, 53):
        cards = rng.sample(range(52), count)
        check_deal(cards, n_stocks)


@given(cards=st.permutations(range(52)), count=st.integers(1, 52), n_stocks=st.sampled_from([4, 5]))
def test_r3_r18_v1_deal_invariants_for_any_cards(
    cards: list[int], count: int, n_stocks: int
) -> None:
    check_deal(cards[:count], n_stocks)


@given(config=configs, seed=seeds)
def test_r2_r3_r4_first_deal_invariants_for_any_seed(config: SpitConfig, seed: int) -> None:
    game = SpitGame(config, seed)
    check_cards(game)
    check_round_start(game)
    for p in (0, 1):
        assert game.card_count(p) == 26  # R2
        assert len(game.spit[p]) == 26 - config.layout_size  # R4: 11, or 16 under V1
    check_observation(game)


def random_step(game: SpitGame, rng: random.Random) -> list:
    """Apply one random legal action (the game's own STALL and CLOSE only now and then)."""
    players = game.legal_actions(0) + game.legal_actions(1)
    system = game.legal_actions(2)
    if system and (not players or rng.random() < 0.05):
        return game.apply(rng.choice(system))
    return game.apply(rng.choice(players))


@given(config=configs, seed=seeds, split=st.integers(1, 51), play_seed=st.integers(0, 1000))
def test_r17_r18_relayout_invariants(
    config: SpitConfig, seed: int, split: int, play_seed: int
) -> None:
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    game = SpitGame(config, seed, packets=[deck[:split], deck[split:]])
    check_round_start(game)
    rng = random.Random(play_seed)
    rounds_seen = 0
    while not game.over and rounds_seen < 3:
        before = game.copy()
        events = random_step(game, rng)
        check_collect(before, events, game)
        if game.round_no != before.round_no:
            rounds_seen += 1
            check_cards(game)
            check_round_start(game)
    check_cards(game)


class SpitMachine(RuleBasedStateMachine):
    """Random legal actions by both players and by the game (STALL, CLOSE), checked each step."""

    def __init__(self) -> None:
        super().__init__()
        self.game: SpitGame

    @initialize(
        config=configs,
        seed=seeds,
        split=st.one_of(st.none(), st.integers(1, 51)),
    )
    def start(self, config: SpitConfig, seed: int, split: int | None) -> None:
        if split is None:
            self.game = SpitGame(config, seed)
        else:  # uneven packets reach one-pile rounds and short layouts at once
            deck = list(range(52))
            random.Random(seed).shuffle(deck)
            self.game = SpitGame(config, seed, packets=[deck[:split], deck[split:]])
        # The replay: the same start rebuilt from its saved form, fed the same actions.
        game = self.game
        self.replay = SpitGame.from_start(game.config, game.seed, game.start_cards_json())
        # The quiet twin: the same actions through ``step``, which builds no events.
        self.quiet = game.copy()

    @precondition(lambda self: not self.game.over)
    @rule(data=st.data())
    def legal_action(self, data: st.DataObject) -> None:
        game = self.game
        legal = all_legal(game)
        assert legal, "a game that is not over always has a legal action"
        action = data.draw(st.sampled_from(legal))
        before = game.copy()
        events = game.apply(action)
        assert game.actions[-1] == action
        self.replay.apply(action)
        assert self.quiet.step(action)
        check_counters(before, events, game)
        check_collect(before, events, game)
        if game.round_no != before.round_no:
            check_round_start(game)

    @rule(data=st.data())
    def illegal_action(self, data: st.DataObject) -> None:
        game = self.game
        legal = set(all_legal(game))
        illegal = [a for a in ALL_ACTIONS if a not in legal]
        action = data.draw(st.sampled_from(illegal))
        before = game.fingerprint()
        n_actions = len(game.actions)
        try:
            game.apply(action)
        except IllegalAction as exc:
            assert str(exc)
        else:
            raise AssertionError(f"{action} is not listed as legal but was applied")
        assert game.fingerprint() == before
        assert len(game.actions) == n_actions
        assert not self.quiet.step(action)
        assert self.quiet.fingerprint() == before

    @invariant()
    def cards_and_stocks(self) -> None:
        check_cards(self.game)

    @invariant()
    def observations_hide_what_is_face_down(self) -> None:
        check_observation(self.game)

    @invariant()
    def phase_matches_the_actions_on_offer(self) -> None:
        game = self.game
        if game.phase is Phase.PLAY:
            assert game.can_anyone_move()  # a stalemate is never left in PLAY (R12)
        if game.over:
            assert all_legal(game) == []

    @invariant()
    def visible_state_is_what_the_cards_show(self) -> None:
        check_visible_state(self.game)
        check_visible_state(self.quiet)

    @invariant()
    def step_without_events_gives_the_same_game(self) -> None:
        game, quiet = self.game, self.quiet
        assert quiet.fingerprint() == game.fingerprint()
        assert (quiet.phase_count, quiet.progress_count) == (game.phase_count, game.progress_count)
        assert quiet.actions == game.actions

    @invariant()
    def save_and_replay_give_the_same_state(self) -> None:
        game = self.game
        assert self.replay.fingerprint() == game.fingerprint()
        assert loads(dumps(game)).fingerprint() == game.fingerprint()


def check_visible_state(game: SpitGame) -> None:
    """``tops``, ``down``, ``known``, ``_movable`` and ``pile_tops`` are what the cards show now."""
    masks = adjacency_masks(game.config.alternating_colours)
    for p in (0, 1):
        stocks = game.stocks[p]
        assert game.tops[p] == [s[-1] if s else None for s in stocks]
        assert game.down[p] == [max(0, len(s) - 1) for s in stocks]
        assert game.known[p] == sum(1 << s[-1] for s in stocks if s)
        assert game._tall[p] == sum(1 << i for i, s in enumerate(stocks) if len(s) > 1)
        # R10: a stock with a card under its top may move while a slot is empty
        movable = game._tall[p] if not all(stocks) else 0
        assert game._movable[p] == movable
    assert game.pile_tops == [pile[-1] if pile else None for pile in game.piles]
    assert game._pile_masks == [masks[pile[-1]] if pile else 0 for pile in game.piles]


def check_counters(before: SpitGame, events: list[Event], after: SpitGame) -> None:
    """The timers' counters move exactly with the events that restart a wait."""
    restarts = any(isinstance(e, (PhaseChanged, Stalemate)) for e in events)
    progress = any(isinstance(e, (CardPlayed, CardMoved, Spat)) for e in events)
    assert (after.phase_count != before.phase_count) == restarts
    assert (after.progress_count != before.progress_count) == progress


SpitMachine.TestCase.settings = settings(stateful_step_count=50)
test_spit_state_machine = SpitMachine.TestCase
