"""Replay playback: real time scaled by the speed, pause, step and restart."""

import pytest

from spit.engine import SpitConfig
from spit.play.playback import Playback
from spit.store.replays import PlayerInfo, load_replay, new_meta, save_replay


@pytest.fixture
def replay(playout):
    game, times = playout(SpitConfig(round_limit=30), seed=13)  # actions 0.25 s apart
    path = save_replay(game, times, new_meta((PlayerInfo("A"), PlayerInfo("B"))))
    return load_replay(path)


def test_actions_come_at_their_times_scaled_by_speed(replay):
    pb = Playback(replay)
    assert len(pb.advance(0.0)) == 1  # the action at 0.0 s
    assert len(pb.advance(1.0)) == 4  # 0.25, 0.5, 0.75, 1.0
    pb.cycle_speed()
    assert pb.speed == 2.0
    assert len(pb.advance(1.0)) == 8  # two seconds of replay time
    assert pb.cycle_speed() == 4.0 and pb.cycle_speed() == 8.0
    assert pb.cycle_speed() == 16.0 and pb.cycle_speed() == 1.0


def test_pause_stops_time_and_step_applies_one_action(replay):
    pb = Playback(replay)
    pb.advance(0.5)
    assert pb.toggle_pause()
    assert pb.advance(10.0) == [] and pb.wait() is None
    index = pb.index
    (applied,) = pb.step()
    assert applied.action == replay.timed[index][1] and pb.index == index + 1
    assert pb.position == replay.timed[index][0]


def test_playing_to_the_end_reaches_the_final_fingerprint_and_restart(replay):
    pb = Playback(replay, speed=4.0)
    pb.advance(replay.duration)
    assert pb.done and pb.wait() is None
    assert pb.game.fingerprint() == replay.final.fingerprint()
    pb.restart()
    assert pb.index == 0 and pb.game.actions == []
    assert pb.wait() == 0.0


def test_seek_applies_every_action_up_to_a_time_forwards_or_back(replay):
    pb = Playback(replay)
    applied = pb.seek(1.1)  # actions at 0.0, 0.25 ... 1.0
    assert len(applied) == 5 and pb.index == 5 and pb.position == 1.1
    pb.advance(3.0)
    pb.seek(0.5)  # back: dealt again, then 0.0, 0.25, 0.5
    assert pb.index == 3 and pb.position == 0.5
    fresh = replay.fresh_start()
    for _, action in replay.timed[:3]:
        fresh.apply(action)
    assert pb.game.fingerprint() == fresh.fingerprint()
    pb.seek(replay.duration + 60.0)  # past the end: the end
    assert pb.done and pb.position == replay.duration
    assert pb.game.fingerprint() == replay.final.fingerprint()
