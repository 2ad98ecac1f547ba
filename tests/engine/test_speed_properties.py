"""Speed under random legal play: invariants at every step, hidden cards, saves.

A hypothesis state machine drives both players and the SYSTEM timer actions
(STALL, FLIP) and also tries every kind of illegal action; a seeded loop plays
a few hundred whole games to the end.
"""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from spit.engine import (
    CLOSE,
    FLIP,
    STALL,
    SYSTEM,
    Action,
    IllegalAction,
    Phase,
    SpeedConfig,
    SpeedGame,
    call,
    choose,
    dumps,
    loads,
    move,
    play,
    slap,
)
from spit.engine.events import CardMoved, CardPlayed, PhaseChanged, Spat, Stalemate

#: Every action the engine knows, for every player: most are illegal at any moment.
EVERY_ACTION: tuple[Action, ...] = (
    *(play(p, s, t) for p in (0, 1) for s in range(5) for t in (0, 1)),
    *(move(p, s) for p in (0, 1) for s in range(5)),
    *(call(p) for p in (0, 1)),
    *(slap(p, t) for p in (0, 1) for t in (0, 1)),
    *(choose(p, t) for p in (0, 1) for t in (0, 1)),
    CLOSE,
    STALL,
    FLIP,
    play(SYSTEM, 0, 0),
    call(SYSTEM),
)

configs = st.builds(
    SpeedConfig,
    long_deal=st.booleans(),
    alternating_colours=st.booleans(),
    target_score=st.sampled_from([0, 5, 20]),
    round_limit=st.sampled_from([1, 2, 5]),
)


def check_cards(game: SpeedGame) -> None:
    """52 cards once each; five hand slots, full while the draw pile lasts (P1, P3)."""
    assert sorted(game.all_cards()) == list(range(52))
    for p in (0, 1):
        hand = game.hands[p]
        assert len(hand) == 5
        if game.draw[p]:
            assert None not in hand, "a hand slot was not refilled from the draw pile"
    if game.phase is Phase.OPENING:
        assert len(game.centre) == 2 and game.piles == [[], []]
    else:
        assert not game.centre and game.piles[0] and game.piles[1]
    if game.phase is Phase.PLAY:
        assert game.can_anyone_play()
    if game.phase is Phase.STALEMATE:
        assert not game.can_anyone_play() or game.actions[-1] is STALL  # H6


def check_legal_lists(game: SpeedGame) -> None:
    """``legal_actions`` lists exactly the actions ``check`` accepts, sorted."""
    for who in (0, 1, SYSTEM):
        listed = game.legal_actions(who)
        assert listed == sorted(listed)
        accepted = [a for a in EVERY_ACTION if a.player == who and game.is_legal(a)]
        assert sorted(accepted) == listed
    assert game.legal_actions(None) == sorted(game.legal_actions(0) + game.legal_actions(1))


def scramble_hidden(game: SpeedGame, player: int, rng: random.Random) -> SpeedGame:
    """A copy in which every card ``player`` cannot see is shuffled, and the seed changed."""
    other = game.copy()
    other.rng.state = rng.getrandbits(64)
    opponent = other.hands[1 - player]
    places: list[tuple[list, int]] = [
        (opponent, i) for i, c in enumerate(opponent) if c is not None
    ]
    for pile in (*other.draw, *other.side, other.centre):
        places.extend((pile, i) for i in range(len(pile)))
    cards = [pile[i] for pile, i in places]
    rng.shuffle(cards)
    for (pile, i), c in zip(places, cards, strict=True):
        pile[i] = c
    return other


def check_observations(game: SpeedGame, rng: random.Random) -> None:
    """An observation shows the own hand and the pile tops, and depends on nothing hidden."""
    tops = {pile[-1] for pile in game.piles if pile}
    for p in (0, 1):
        obs = game.observation(p)
        own = {c for c in game.hands[p] if c is not None}
        assert obs.visible_cards() == own | tops
        assert obs.opponent_hand_count == game.hand_count(1 - p)
        assert not hasattr(obs, "seed")
        assert scramble_hidden(game, p, rng).observation(p) == obs


class SpeedMachine(RuleBasedStateMachine):
    """Random legal play by both players and the SYSTEM, with illegal attempts mixed in."""

    game: SpeedGame

    @initialize(config=configs, seed=st.integers(0, 2**64 - 1))
    def start(self, config: SpeedConfig, seed: int) -> None:
        self.game = SpeedGame(config, seed)
        self.rng = random.Random(seed)

    @precondition(lambda self: not self.game.over)
    @rule(data=st.data())
    def legal_action(self, data: st.DataObject) -> None:
        game = self.game
        actions = game.legal_actions(None) + game.legal_actions(SYSTEM)
        assert actions, "a game that is not over must let someone act"
        action = data.draw(st.sampled_from(actions))
        before = game.fingerprint()
        counts = (game.phase_count, game.progress_count)
        events = game.apply(action)
        assert events and game.fingerprint() != before  # every action changes the state
        # The timers' counters move exactly with the events that restart a wait.
        restarts = any(isinstance(e, (PhaseChanged, Stalemate)) for e in events)
        progress = any(isinstance(e, (CardPlayed, CardMoved, Spat)) for e in events)
        assert (game.phase_count != counts[0]) == restarts
        assert (game.progress_count != counts[1]) == progress

    @rule(action=st.sampled_from(EVERY_ACTION))
    def any_action(self, action: Action) -> None:
        """Apply the action if it is legal; otherwise it must be refused, changing nothing."""
        game = self.game
        before = game.fingerprint()
        n_actions = len(game.actions)
        if game.is_legal(action):
            game.apply(action)
            assert game.fingerprint() != before
            return
        try:
            game.apply(action)
        except IllegalAction as exc:
            assert str(exc)
        else:
            raise AssertionError(f"{action} was applied although is_legal said no")
        assert game.fingerprint() == before and len(game.actions) == n_actions

    @invariant()
    def cards_and_hands(self) -> None:
        check_cards(self.game)

    @invariant()
    def legal_lists(self) -> None:
        check_legal_lists(self.game)

    @invariant()
    def observations_leak_nothing(self) -> None:
        check_observations(self.game, self.rng)

    @invariant()
    def save_round_trip(self) -> None:
        game = self.game
        assert loads(dumps(game)).fingerprint() == game.fingerprint()
        assert game.copy().fingerprint() == game.fingerprint()


TestSpeedMachine = SpeedMachine.TestCase
# Enough steps for a whole game (about 80 random actions) to happen now and then.
TestSpeedMachine.settings = settings(stateful_step_count=100)


def play_to_the_end(game: SpeedGame, rng: random.Random, check: bool) -> int:
    """Random legal play (players and SYSTEM) to game over; returns the number of actions."""
    steps = 0
    while not game.over:
        actions = game.legal_actions(None) + game.legal_actions(SYSTEM)
        action = rng.choice(actions)
        before = game.fingerprint() if action is FLIP else None
        game.apply(action)
        steps += 1
        assert steps < 100_000, "the game did not end"
        if before is not None:
            assert game.fingerprint() != before  # the arbiter relies on every flip changing it
        if check:
            check_cards(game)
    return steps


def test_random_playouts_always_reach_game_over() -> None:
    # Single games and short matches (a match to 10 points is cut by H4 after 3 deals).
    variants = itertools.cycle(itertools.product((False, True), (False, True), (0, 10)))
    results: set[str] = set()
    for seed, (long_deal, v3, target) in zip(range(300), variants, strict=False):
        game = SpeedGame(SpeedConfig(long_deal, v3, target, round_limit=3), seed)
        rng = random.Random(seed)
        play_to_the_end(game, rng, check=True)
        assert game.phase is Phase.GAME_OVER and game.result
        if seed % 30 == 0:
            check_legal_lists(game)
            check_observations(game, rng)
        results.add(game.result)
    # Long enough to see the usual ways to end; H5 is rare in random play (its tests
    # build the positions).
    assert {"P6", "score", "round_limit"} <= results


@given(seed=st.integers(0, 2**64 - 1), config=configs)
def test_any_seed_plays_from_deal_to_the_end(seed: int, config: SpeedConfig) -> None:
    game = SpeedGame(config, seed)
    play_to_the_end(game, random.Random(seed ^ 0x5EED), check=False)
    assert game.over
    assert game.winner in (0, 1, None)
