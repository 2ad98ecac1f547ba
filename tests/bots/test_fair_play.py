"""Bots play fair: they see only their player's observation, never the game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from tests.support import FakeClock

from spit.bots import LEVELS, make_bot
from spit.engine import Game, SpeedGame, SpeedObservation, SpitGame, SpitObservation, call
from spit.realtime.arbiter import Arbiter, Timing

PacketsFn = Callable[..., list[list[int]]]


class Spy:
    """Wraps a bot and records every argument the arbiter hands it."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.seen: list[Any] = []

    def plan(self, observation: Any, now: float) -> Any:
        self.seen.append(observation)
        return self.bot.plan(observation, now)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("mode", ["spit", "speed"])
def test_bot_is_handed_only_its_own_observations(level: str, mode: str) -> None:
    game: Game = SpitGame(seed=21) if mode == "spit" else SpeedGame(seed=21)
    kind = SpitObservation if mode == "spit" else SpeedObservation
    spies = {p: Spy(make_bot(level, p, seed=p, mode=mode)) for p in (0, 1)}
    clock = FakeClock(0.0)
    arbiter = Arbiter(game, Timing(), clock, spies)
    while not game.over and game.round_no < 3:
        clock.now = arbiter.next_deadline()
        arbiter.tick(clock.now)
    for p, spy in spies.items():
        assert len(spy.seen) > 10
        for seen in spy.seen:
            assert isinstance(seen, kind)
            assert not isinstance(seen, Game)
            assert seen.player == p


def test_bot_refuses_the_other_players_observation() -> None:
    game = SpitGame(seed=2)
    bot = make_bot("hard", 0, seed=1)
    with pytest.raises(ValueError, match="own player"):
        bot.plan(game.observation(1), 0.0)


@pytest.mark.parametrize("level", LEVELS)
def test_decisions_depend_only_on_what_is_visible(level: str, packets: PacketsFn) -> None:
    # Two deals that differ only in face-down cards (under the stock tops and in
    # the spit cards after the first) look the same to both players, so a bot
    # with the same seed must decide the same, delay and all.
    tops = ("4C 10C 10D 10H 7S", "6C QC QD QH 2S")
    spit = ("5H", "8D")
    one = SpitGame(packets=packets(tops, spit, ("AS 3S", "")))
    two = SpitGame(packets=packets(tops, spit, ("3S AS", "")))
    assert one.fingerprint() != two.fingerprint()
    for game in (one, two):
        game.apply(call(0))
        game.apply(call(1))
    for p in (0, 1):
        assert one.observation(p) == two.observation(p)
        plans = []
        for game in (one, two):
            bot = make_bot(level, p, seed=99)
            plans.append([bot.plan(game.observation(p), 0.0) for _ in range(5)])
        assert plans[0] == plans[1]
        assert all(plan is not None for plan in plans[0])


def test_speed_decisions_ignore_the_hidden_cards() -> None:
    # Two Speed deals that differ only in the draw piles' order show player 1
    # the same observation; the bot must plan the same.
    deck = list(range(52))
    other = list(deck)
    other[5], other[6] = other[6], other[5]  # two cards deep in player 1's draw pile
    games = [SpeedGame(seed=0, deck=d) for d in (deck, other)]
    for game in games:
        game.apply(call(0))
        game.apply(call(1))
    assert games[0].fingerprint() != games[1].fingerprint()
    assert games[0].observation(0) == games[1].observation(0)
    for level in LEVELS:
        plans = [
            make_bot(level, 0, seed=5, mode="speed").plan(g.observation(0), 0.0) for g in games
        ]
        assert plans[0] == plans[1]


def test_bot_randomness_never_touches_the_games_generator() -> None:
    game = SpitGame(seed=8)
    game.apply(call(0))
    game.apply(call(1))
    before = game.fingerprint()
    bot = make_bot("easy", 0, seed=3)
    for _ in range(20):
        bot.plan(game.observation(0), 0.0)
    assert game.fingerprint() == before
