"""The simulator's scheduler plays exactly the game the arbiter plays.

Every game here is played twice from the same seeds: through the reference
path (the engine + ``Arbiter`` + ``Bot`` agents on a manual clock, as the app
plays) and by ``Scheduler``. The result, the whole timed action log and the
engine's final state must be identical. Both use the one engine and the one
input queue and timers (``realtime.order``, ``realtime.timers``); the
scheduler has its own loop and shows Spit bots the game's visible state
instead of an observation, and these tests are what keeps those honest.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spit.bots import LEVELS, Reaction, make_bot
from spit.bots.schedule import Scheduler, Stuck
from spit.bots.sim import (
    GameResult,
    Seat,
    SimulationError,
    derive_seed,
    new_game,
    play_game,
    play_with,
)
from spit.engine import Kind, SpitGame
from spit.realtime.arbiter import Timing

PAIRS = [(a, b) for a in LEVELS for b in LEVELS]
VARIANT_SETS: list[tuple[str, ...]] = [
    (),
    ("V1",),
    ("V2",),
    ("V3",),
    ("V4",),
    ("V1", "V3"),
    ("V2", "V4"),
    ("V1", "V2", "V3", "V4"),
]


@dataclass
class Played:
    """One game's result, its timed log and the engine's fingerprint of the final state."""

    result: GameResult
    log: list[tuple[float, Any]] = field(default_factory=list)
    fingerprint: str = ""


def played(
    seats: tuple[str, str],
    seed: int,
    index: int = 0,
    variants: tuple[str, ...] = (),
    round_limit: int | None = None,
    timing: Timing | None = None,
    reference: bool = False,
    mode: str = "spit",
) -> Played:
    kept: dict[str, Any] = {}

    def hook(game: Any, run: Any, _: int) -> None:
        kept["log"] = [(t, a) for t, a in run.log]
        kept["fingerprint"] = game.fingerprint()
        assert run.start_time == 0.0

    parsed = (Seat.parse(seats[0]), Seat.parse(seats[1]))
    result = play_game(
        parsed, mode, variants, seed, index, timing, round_limit, hook, reference=reference
    )
    return Played(result, kept["log"], kept["fingerprint"])


def assert_same_game(reference: Played, scheduled: Played) -> None:
    assert scheduled.result == reference.result
    assert len(scheduled.log) == len(reference.log)
    for i, (mine, theirs) in enumerate(zip(scheduled.log, reference.log, strict=True)):
        assert mine == theirs, f"action {i} differs"
    assert scheduled.fingerprint == reference.fingerprint


def assert_paths_match(seats: tuple[str, str], seed: int, index: int = 0, **kw: Any) -> None:
    """The arbiter and the scheduler play the same game."""
    reference = played(seats, seed, index, reference=True, **kw)
    scheduled = played(seats, seed, index, **kw)
    assert_same_game(reference, scheduled)


@pytest.mark.parametrize(("p1", "p2"), PAIRS)
@pytest.mark.parametrize("variants", VARIANT_SETS, ids="-".join)
def test_every_level_pair_and_variant_plays_the_same_game(
    p1: str, p2: str, variants: tuple[str, ...]
) -> None:
    for index in range(2):
        assert_paths_match((p1, p2), seed=31, index=index, variants=variants)


@pytest.mark.parametrize(
    "seats",
    [
        ("expert:easy", "easy:expert"),
        ("hard:expert", "medium"),
        ("easy:hard", "expert:medium"),
        ("medium:expert", "hard:easy"),
    ],
)
def test_mixed_strategy_and_reaction_seats_play_the_same_game(seats: tuple[str, str]) -> None:
    for index in range(3):
        assert_paths_match(seats, seed=5, index=index)
        assert_paths_match(seats, seed=5, index=index, variants=("V1", "V2", "V3"))


@pytest.mark.parametrize("round_limit", [1, 2, 3])
@pytest.mark.parametrize("variants", [(), ("V4",), ("V1", "V2")], ids="-".join)
def test_h4_round_limits_end_the_same_way(round_limit: int, variants: tuple[str, ...]) -> None:
    for index in range(3):
        assert_paths_match(
            ("hard", "medium"), seed=8, index=index, variants=variants, round_limit=round_limit
        )


@pytest.mark.parametrize(
    "timing",
    [
        Timing(auto_spit=0.3),  # H2: the game calls before the bots do
        Timing(stall_time=0.6, slap_time=0.2),  # H6 stalls and H3 closes before bots act
        Timing(auto_spit=0.0, stall_time=1.5, slap_time=0.5),
    ],
)
def test_other_timings_give_the_same_game(timing: Timing) -> None:
    for seats in [("easy", "easy"), ("expert", "medium"), ("hard:easy", "expert")]:
        for variants in [(), ("V2",), ("V4",)]:
            assert_paths_match(seats, seed=2, index=1, variants=variants, timing=timing)


def test_v2_choices_that_run_out_of_time_take_the_same_pile() -> None:
    """H3 closes the V2 choice before the chooser acts: the smaller pile, the
    chooser's own on equal piles (both happen in these games)."""
    timing = Timing(slap_time=0.05)
    for index in range(24):
        assert_paths_match(
            ("easy", "medium"), seed=12, index=index, variants=("V2",), timing=timing
        )


def test_a_game_whose_timers_act_differs_from_the_default_timings_game() -> None:
    """The timing cases above are not the default game under another name."""
    seats = ("expert", "medium")
    slow = played(seats, 2, 1, timing=Timing(stall_time=0.6, slap_time=0.2))
    normal = played(seats, 2, 1)
    assert slow.log != normal.log
    kinds = {a.kind for _, a in slow.log}
    assert Kind.STALL in kinds and Kind.CLOSE in kinds


class LogKeeper:
    """An ``on_finish`` hook that keeps each game's timed log."""

    def __init__(self, logs: list[list[Any]]) -> None:
        self.logs = logs

    def __call__(self, game: Any, run: Any, index: int) -> None:
        self.logs.append(list(run.log))


def fixed_bots(levels: tuple[str, str], seed: int, delay: float = 0.5) -> dict[int, Any]:
    """Bots whose reaction time never varies: both players' actions meet at the
    very same instant again and again, so exact ties (R11) decide the game."""
    steady = Reaction(mu=delay, sigma=0.0, tau=0.0, floor=min(0.15, delay))
    return {p: make_bot(levels[p], p, seed=seed + p, reaction=steady) for p in (0, 1)}


@pytest.mark.parametrize(("p1", "p2"), [("easy", "easy"), ("hard", "expert"), ("expert", "medium")])
@pytest.mark.parametrize("variants", [(), ("V2",), ("V1", "V3")], ids="-".join)
def test_exact_ties_are_decided_the_same_way(p1: str, p2: str, variants: tuple[str, ...]) -> None:
    for seed in range(3):
        logs: list[list[Any]] = []
        results = [
            play_with(
                new_game("spit", variants, derive_seed(seed, 0, "game")),
                fixed_bots((p1, p2), seed),
                on_finish=LogKeeper(logs),
                reference=reference,
            )
            for reference in (True, False)
        ]
        assert results[1] == results[0]
        assert logs[1] == logs[0]
        # and ties did happen: two actions of different players at one instant
        times = [(t, a.player) for t, a in logs[0] if a.player in (0, 1)]
        assert any(t == u and p != q for (t, p), (u, q) in itertools.pairwise(times))


@pytest.mark.parametrize("variants", [(), ("V2", "V4")], ids="-".join)
def test_ties_within_one_instant_take_turns(variants: tuple[str, ...]) -> None:
    """Bots that act at once: the whole game happens at time 0, a run of ties
    within one instant, which the players take in turns (realtime/order.py)."""
    for seed in range(3):
        logs: list[list[Any]] = []
        results = [
            play_with(
                new_game("spit", variants, derive_seed(seed, 0, "game")),
                fixed_bots(("hard", "medium"), seed, delay=0.0),
                on_finish=LogKeeper(logs),
                reference=reference,
            )
            for reference in (True, False)
        ]
        assert results[1] == results[0]
        assert logs[1] == logs[0]
        assert results[0].seconds == 0.0


def test_inputs_go_before_timers_at_the_same_instant() -> None:
    """With steady bots and waits equal to their delays (a call takes 0.5 * 0.8 s,
    a slap 0.5 * 0.6 s, a play 0.5 s), timers run out at the very instant a
    bot acts: the bot's input goes first (Arbiter._settle), on both paths."""
    timing = Timing(auto_spit=0.4, slap_time=0.3, stall_time=0.5)
    for seed in range(4):
        logs: list[list[Any]] = []
        results = [
            play_with(
                new_game("spit", ("V2",) if seed % 2 else (), derive_seed(seed, 0, "game")),
                fixed_bots(("medium", "easy"), seed),
                timing=timing,
                on_finish=LogKeeper(logs),
                reference=reference,
            )
            for reference in (True, False)
        ]
        assert results[1] == results[0]
        assert logs[1] == logs[0]


seat_names = st.sampled_from(LEVELS)
seats_drawn = st.builds(lambda s, r: s if s == r else f"{s}:{r}", seat_names, seat_names)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**40),
    index=st.integers(0, 1000),
    p1=seats_drawn,
    p2=seats_drawn,
    variants=st.sets(st.sampled_from(["V1", "V2", "V3", "V4"])).map(lambda v: tuple(sorted(v))),
    round_limit=st.one_of(st.none(), st.integers(1, 6)),
)
def test_drawn_games_are_the_same_through_the_scheduler(
    seed: int,
    index: int,
    p1: str,
    p2: str,
    variants: tuple[str, ...],
    round_limit: int | None,
) -> None:
    assert_paths_match((p1, p2), seed, index, variants=variants, round_limit=round_limit)


@pytest.mark.parametrize("variants", [(), ("P1b",), ("V3",)], ids="-".join)
def test_speed_games_are_the_same_through_the_scheduler(variants: tuple[str, ...]) -> None:
    """Speed's bots see observations in both (they hide the hand): the same games."""
    for seats in [("easy", "medium"), ("hard", "expert"), ("expert:easy", "medium:hard")]:
        for index in range(3):
            assert_paths_match(seats, seed=9, index=index, variants=variants, mode="speed")


def test_a_stuck_game_is_a_simulation_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def never(self: Scheduler, max_steps: int = 0) -> None:
        raise Stuck("the game is stuck in phase play")

    monkeypatch.setattr(Scheduler, "run", never)
    with pytest.raises(SimulationError, match="game 3"):
        play_game((Seat.parse("easy"), Seat.parse("easy")), index=3)


def test_a_game_that_does_not_end_within_its_steps_is_stuck() -> None:
    bots = (make_bot("hard", 0), make_bot("hard", 1))
    with pytest.raises(Stuck, match="within 10 steps"):
        Scheduler(SpitGame(seed=1), bots).run(max_steps=10)


def test_the_scheduler_plays_on_from_a_game_under_way() -> None:
    """A game with actions already applied: the scheduler's log is the rest of it."""
    game = new_game("spit", (), derive_seed(6, 0, "game"))
    game.apply(game.legal_actions(0)[0])
    bots = (make_bot("medium", 0, seed=1), make_bot("medium", 1, seed=2))
    scheduler = Scheduler(game, bots)
    scheduler.run()
    assert game.over
    assert [a for _, a in scheduler.log] == game.actions[1:]
    assert scheduler.moves == sum(1 for a in game.actions[1:] if a.kind in (Kind.PLAY, Kind.MOVE))


def test_the_scheduler_needs_a_bot_for_each_player_in_order() -> None:
    bots = (make_bot("hard", 0), make_bot("hard", 1))
    with pytest.raises(ValueError, match="player 0"):
        Scheduler(SpitGame(seed=1), (bots[1], bots[0]))
    with pytest.raises(ValueError, match="player 0"):
        Scheduler(SpitGame(seed=1), bots[:1])
