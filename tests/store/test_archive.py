"""The archiver on a real arbiter: game saved as it goes, replay and result at the end."""

import random

import pytest
from tests.support import FakeClock

from spit.engine import SpitConfig, SpitGame
from spit.realtime.arbiter import Arbiter, Timing
from spit.store import paths
from spit.store.records import load_results
from spit.store.replays import PlayerInfo, load_replay
from spit.store.resume import list_saved_games

PLAYERS = (PlayerInfo("Ann"), PlayerInfo("bot", "easy"))
V4 = SpitConfig(scoring=True, target_score=60)


class RandomAgent:
    """Plays a random legal action after a random short delay."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def plan(self, observation, now):
        legal = list(observation.legal)
        if not legal:
            return None
        return (self.rng.uniform(0.05, 0.6), self.rng.choice(legal))


def run(arbiter: Arbiter, clock: FakeClock, listener, stop=lambda game: False) -> None:
    """Drive the arbiter on its fake clock, calling the listener after every tick."""
    while not arbiter.game.over and not stop(arbiter.game):
        deadline = arbiter.next_deadline()
        assert deadline is not None
        clock.now = max(clock.now, deadline)
        outcomes = arbiter.tick(clock.now)
        listener(outcomes)


def new_arbiter(game, clock, seed=1) -> Arbiter:
    agents = {0: RandomAgent(seed), 1: RandomAgent(seed + 1)}
    return Arbiter(game, Timing(auto_spit=0.5), clock, agents)


def test_single_game_saves_replay_and_result():
    from spit.store.archive import Archiver

    clock = FakeClock(1000.0)
    arbiter = new_arbiter(SpitGame(SpitConfig(round_limit=30), seed=6), clock)
    archiver = Archiver(arbiter, PLAYERS)
    run(arbiter, clock, archiver)
    assert archiver.status is not None and archiver.status.saved, archiver.message
    (result,), _ = load_results()
    assert result.players == PLAYERS and result.kind == "game"
    assert result.duration == pytest.approx(arbiter.log[-1][0] - arbiter.start_time)
    replay = load_replay(paths.replay_dir() / result.replay)
    assert replay.final.fingerprint() == arbiter.game.fingerprint()
    expected = [t - arbiter.start_time for t, _ in arbiter.log]
    assert [t for t, _ in replay.timed] == pytest.approx(expected, abs=1e-4)


def test_match_resumed_after_crash_completes_with_same_fingerprint():
    from spit.store.archive import Archiver

    # The whole match, uninterrupted, for reference.
    clock = FakeClock(1000.0)
    ref = new_arbiter(SpitGame(V4, seed=12), clock)
    run(ref, clock, lambda _: None)
    assert ref.game.round_no >= 4
    # Session 1: the same match, archived, "crashes" in round 3.
    clock = FakeClock(1000.0)
    arbiter = new_arbiter(SpitGame(V4, seed=12), clock)
    run(arbiter, clock, Archiver(arbiter, PLAYERS), stop=lambda g: g.round_no == 3)
    (saved,) = list_saved_games()
    # Session 2: resume from the file, replay the reference's remaining actions.
    replay = saved.replay
    assert replay is not None and replay.final.round_no == 3
    game = replay.final
    done = len(game.actions)
    clock2 = FakeClock(50.0)
    arbiter2 = Arbiter(game, Timing(auto_spit=0.5), clock2)
    archiver2 = Archiver(arbiter2, PLAYERS, resumed=replay)
    ref_times = [t for t, _ in ref.log]
    for t, action in ref.log[done:]:
        clock2.now = 50.0 + (t - ref_times[done - 1])
        arbiter2.submit(action, at=clock2.now)
        arbiter2.tick(clock2.now)
        archiver2()
    assert game.fingerprint() == ref.game.fingerprint()
    assert list_saved_games() == []
    assert archiver2.status is not None and archiver2.status.saved
    (result,), _ = load_results()
    full = load_replay(paths.replay_dir() / result.replay)
    assert full.final.fingerprint() == ref.game.fingerprint()
    times = [t for t, _ in full.timed]
    assert times == sorted(times)
    assert times[-1] == pytest.approx(ref_times[-1] - ref.start_time, abs=1e-3)


def test_session_times_read_as_the_log_grows_match_the_whole_log_read_at_once():
    """The archiver reads only the new log entries each tick: the same times as reading it all."""
    from spit.store.archive import Archiver
    from spit.store.replays import times_from_log

    clock = FakeClock(1000.0)
    arbiter = new_arbiter(SpitGame(SpitConfig(round_limit=30), seed=6), clock)
    archiver = Archiver(arbiter, PLAYERS, keep_progress=False)
    seen = 0

    def check(outcomes) -> None:
        nonlocal seen
        archiver(outcomes)
        times = archiver.session_times()
        assert times == times_from_log(arbiter.log, arbiter.start_time)
        assert len(times) == len(arbiter.game.actions)
        times.append(-1.0)  # the caller's copy: the archiver's own list is untouched
        seen += 1

    run(arbiter, clock, check)
    assert seen > 50 and archiver.session_times()[-1] >= 0.0
