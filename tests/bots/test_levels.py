"""Each level's strategy: legal actions only, and the skills it claims."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from tests.support import FakeClock

from spit.bots import LEVELS, REACTIONS, STYLES, Reaction, make_bot, make_strategy
from spit.engine import (
    Kind,
    Phase,
    SpeedConfig,
    SpeedGame,
    SpitConfig,
    SpitGame,
    call,
    move,
    play,
    slap,
)
from spit.engine.spit_game import PileView
from spit.realtime.arbiter import Arbiter, Timing

PacketsFn = Callable[..., list[list[int]]]


class LegalityCheck:
    """Wraps a bot; fails if it ever plans an action that is not legal at plan time."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.planned = 0

    def plan(self, observation: Any, now: float) -> Any:
        result = self.bot.plan(observation, now)
        if result is not None:
            delay, action = result
            assert delay > 0
            assert action in observation.legal, (action, observation.phase)
            self.planned += 1
        elif observation.phase is not Phase.PLAY:
            # Outside play a bot always acts when it may (calls, slaps at once).
            assert not observation.legal
        return result


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("variants", [(), ("V1",), ("V2",), ("V3",), ("V4",), ("V1", "V3")])
def test_levels_plan_only_legal_actions(level: str, variants: tuple[str, ...]) -> None:
    config = SpitConfig.from_variants(list(variants), round_limit=6)
    game = SpitGame(config, seed=len(variants) * 7 + LEVELS.index(level))
    agents = {p: LegalityCheck(make_bot(level, p, seed=p + 10)) for p in (0, 1)}
    clock = FakeClock(0.0)
    arbiter = Arbiter(game, Timing(), clock, agents)
    while not game.over:
        clock.now = arbiter.next_deadline()
        arbiter.tick(clock.now)
    assert all(agent.planned > 10 for agent in agents.values())
    # The bots played the game themselves: most calls were theirs, not H2's timer.
    assert sum(1 for _, a in arbiter.log if a.kind is Kind.PLAY) > 20


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(
    "config", [SpeedConfig(), SpeedConfig(alternating_colours=True), SpeedConfig(long_deal=True)]
)
def test_levels_plan_only_legal_actions_in_speed(level: str, config: SpeedConfig) -> None:
    game = SpeedGame(config, seed=LEVELS.index(level) + 3)
    agents = {p: LegalityCheck(make_bot(level, p, seed=p + 1, mode="speed")) for p in (0, 1)}
    clock = FakeClock(0.0)
    arbiter = Arbiter(game, Timing(), clock, agents)
    while not game.over:
        clock.now = arbiter.next_deadline()
        arbiter.tick(clock.now)
    assert all(agent.planned > 5 for agent in agents.values())
    assert game.result in ("P6", "H5")


def test_anticipation_a_planned_run_is_played_faster(packets: PacketsFn) -> None:
    # Player 1 holds a single 4 and a 3 on a tall stock; the pile shows a 5.
    # The expert plans 4 then 3: the 3 comes after a shorter delay.
    game = _play_obs(packets, ("4C 3D KC KD KH", "10C 10D 10H 10S JC"), ("5H", "8D"))
    fixed = Reaction(mu=1.0, sigma=0.0, tau=0.0)
    bot = make_bot("expert", 0, reaction=fixed)
    first = bot.plan(game.observation(0), 0.0)
    assert first == (1.0, play(0, 0, 0))
    game.apply(first[1])
    second = bot.plan(game.observation(0), 1.0)
    assert second is not None and second[1] == play(0, 1, 0)
    assert second[0] == pytest.approx(STYLES["expert"].anticipation)
    # The easy strategy plans nothing ahead: same reaction, no shortcut.
    easy = make_bot("easy", 0, reaction=fixed)
    assert all(easy.plan(game.observation(0), 2.0)[0] == 1.0 for _ in range(5))


def test_make_bot_separates_strategy_and_reaction() -> None:
    bot = make_bot("expert", 1, seed=4, reaction="easy")
    assert bot.strategy.name == "expert"
    assert bot.reaction == REACTIONS["easy"]
    custom = Reaction(mu=0.2, sigma=0.0, tau=0.0, floor=0.2)
    assert make_bot("easy", 0, reaction=custom).reaction is custom


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"level": "wizard"}, "unknown level"),
        ({"mode": "poker"}, "unknown mode"),
        ({"reaction": "slow"}, "unknown reaction"),
        ({"player": 2}, "player 0 or 1"),
    ],
)
def test_make_bot_rejects_bad_arguments(kwargs: dict[str, Any], message: str) -> None:
    args: dict[str, Any] = {"level": "easy", "player": 0, **kwargs}
    with pytest.raises(ValueError, match=message):
        make_bot(**args)


def test_slower_levels_react_more_slowly_on_average() -> None:
    rng = random.Random(1)
    means = [
        sum(REACTIONS[level].delay(Kind.PLAY, rng) for _ in range(2000)) / 2000 for level in LEVELS
    ]
    assert means == sorted(means, reverse=True)


def _play_obs(packets: PacketsFn, tops: tuple[str, str], spit: tuple[str, str], **kw: Any) -> Any:
    game = SpitGame(packets=packets(tops, spit, **kw))
    game.apply(call(0))
    game.apply(call(1))
    assert game.phase is Phase.PLAY
    return game


@pytest.mark.parametrize("level", ["medium", "hard", "expert"])
def test_r9_prefers_the_play_that_turns_up_a_face_down_card(level: str, packets: PacketsFn) -> None:
    # Stock 1 holds a single 4; stock 2's 6 has a card below it. Both fit the 5.
    game = _play_obs(packets, ("4C 6D KC KD KH", "10C 10D 10H 10S JC"), ("5H", "8D"))
    strategy = make_strategy(level)
    for seed in range(10):
        assert strategy.choose(game.observation(0), random.Random(seed)) in (
            play(0, 1, 0),
            play(0, 1, 1),
        )


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_avoids_feeding_the_opponent_when_there_is_a_choice(level: str, packets: PacketsFn) -> None:
    # Player 1 may put the 4 or the 6 on the 5 (both uncover a card). The
    # opponent shows a 3 and a 2: after the 4 they could play the 3, after the 6
    # they have nothing.
    game = _play_obs(packets, ("KC 4D 6D KH KS", "3C 2D 10H 10S JC"), ("5H", "8C"))
    strategy = make_strategy(level)
    for seed in range(10):
        assert strategy.choose(game.observation(0), random.Random(seed)) == play(0, 2, 0)


@pytest.mark.parametrize("level", ["medium", "hard", "expert"])
def test_r10_moves_a_card_into_an_empty_slot_to_uncover_one(level: str, packets: PacketsFn) -> None:
    # After playing its single 4 onto the 5, player 1 has an empty slot and
    # no play: the move of a tall stock's top card turns up a new card.
    game = _play_obs(packets, ("4C KC KD KH QS", "10C 10D 10H 10S JC"), ("5H", "8D"))
    game.apply(play(0, 0, 0))
    assert game.phase is Phase.PLAY
    obs = game.observation(0)
    assert all(a.kind is Kind.MOVE for a in obs.legal)
    choice = make_strategy(level).choose(obs, random.Random(0))
    assert choice in (move(0, s) for s in range(1, 5))


def _slap_obs(sizes: tuple[int, int], player: int) -> Any:
    game = SpitGame(seed=1)
    obs = game.observation(player)
    piles = tuple(PileView(0, n, True) for n in sizes)
    legal = (slap(player, 0), slap(player, 1))
    return obs._replace(phase=Phase.SLAP, piles=piles, legal=legal)


@pytest.mark.parametrize("level", ["medium", "hard", "expert"])
def test_r16_good_levels_slap_the_smaller_pile(level: str) -> None:
    strategy = make_strategy(level)
    rng = random.Random(5)
    picks = [strategy.choose(_slap_obs((9, 4), 0), rng) for _ in range(200)]
    smaller = picks.count(slap(0, 1)) / len(picks)
    assert smaller >= 1 - STYLES[level].wrong_slap - 0.06
    if level != "medium":
        assert smaller == 1.0


def test_r16_easy_sometimes_slaps_the_larger_pile() -> None:
    strategy = make_strategy("easy")
    rng = random.Random(5)
    picks = [strategy.choose(_slap_obs((3, 12), 1), rng) for _ in range(400)]
    larger = picks.count(slap(1, 1)) / len(picks)
    assert 0.2 < larger < 0.5


@pytest.mark.parametrize("level", LEVELS)
def test_r13_calls_spit_at_once_in_a_stalemate(level: str) -> None:
    game = SpitGame(seed=3)  # the opening (R5) works the same way
    obs = game.observation(1)
    assert obs.phase is Phase.OPENING
    bot = make_bot(level, 1, seed=0)
    plan = bot.plan(obs, 0.0)
    assert plan is not None and plan[1] == call(1)
