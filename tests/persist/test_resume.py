"""The match in progress: saved every round, resumed after a crash, never half-written."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from spit.engine import SpitConfig, SpitGame
from spit.store import paths
from spit.store.replays import PlayerInfo, ReplayFileError, new_meta
from spit.store.resume import (
    MatchKeeper,
    clear_match_in_progress,
    load_match_in_progress,
    match_in_progress_exists,
    save_match_in_progress,
)

META = new_meta((PlayerInfo("Ann"), PlayerInfo("bot", "easy")))
V4 = SpitConfig(scoring=True, target_score=60)


@pytest.fixture
def reference(playout) -> tuple[SpitGame, list[float]]:
    """A whole V4 match played in one sitting."""
    game, times = playout(V4, seed=8)
    assert game.over and game.round_no >= 4
    return game, times


def test_no_match_saved():
    assert load_match_in_progress() is None
    assert not match_in_progress_exists()
    clear_match_in_progress()  # nothing to clear is fine


def test_v4_match_is_saved_after_every_round_and_cleared_at_the_end(reference):
    ref, times = reference
    game = SpitGame(V4, seed=8)
    keeper = MatchKeeper(META)
    saved_rounds = []
    for i, action in enumerate(ref.actions):
        game.apply(action)
        keeper.update(game, times[: i + 1])
        if match_in_progress_exists() and not game.over:
            saved = json.loads(paths.match_path().read_text())
            if not saved_rounds or saved_rounds[-1][0] != game.round_no:
                saved_rounds.append((game.round_no, len(saved["actions"])))
    # one save per new round (2, 3, ...), each at the action that dealt that round
    assert [r for r, _ in saved_rounds] == list(range(2, ref.round_no + 1))
    assert not match_in_progress_exists()  # the match ended: file removed


def test_resume_after_crash_gives_same_fingerprint(reference):
    ref, times = reference
    # Session 1 plays into round 3, then "crashes" half-way through it.
    game = SpitGame(V4, seed=8)
    keeper = MatchKeeper(META)
    crash_at = None
    for i, action in enumerate(ref.actions):
        game.apply(action)
        keeper.update(game, times[: i + 1])
        if game.round_no == 3 and crash_at is None:
            crash_at = i + 20
        if crash_at is not None and i == crash_at:
            break
    del game, keeper  # the crash
    # Session 2 rebuilds from the file: it starts at the start of round 3.
    replay = load_match_in_progress()
    assert replay is not None
    resumed = replay.final
    assert resumed.round_no == 3 and resumed.phase == "opening"
    assert replay.meta == META
    done = len(resumed.actions)
    assert resumed.actions == ref.actions[:done]
    keeper = MatchKeeper.resuming(replay)
    session_start = times[done - 1]
    session_times: list[float] = []
    for i in range(done, len(ref.actions)):
        resumed.apply(ref.actions[i])
        session_times.append(times[i] - session_start)
        keeper.update(resumed, session_times)
    assert resumed.fingerprint() == ref.fingerprint()
    assert keeper.all_times(session_times) == pytest.approx(times)
    assert not match_in_progress_exists()


def test_a_single_game_is_not_kept(playout):
    game, times = playout(SpitConfig(round_limit=30), seed=3)
    keeper = MatchKeeper(META)
    assert keeper.update(game, times) is None
    assert not match_in_progress_exists()


def test_failed_save_is_reported_and_old_file_kept(reference, monkeypatch):
    ref, times = reference
    game = SpitGame(V4, seed=8)
    keeper = MatchKeeper(META)
    i = 0
    while game.round_no < 2:
        game.apply(ref.actions[i])
        i += 1
    assert keeper.update(game, times[:i]) is None
    before = paths.match_path().read_bytes()

    def boom(*_args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("spit.store.paths.os.replace", boom)
    while game.round_no < 3:
        game.apply(ref.actions[i])
        i += 1
    assert keeper.update(game, times[:i]) == "match not saved: No space left on device"
    assert paths.match_path().read_bytes() == before
    assert sorted(p.name for p in paths.data_dir().iterdir()) == ["match-in-progress.json"]


def test_damaged_match_file_is_reported_not_deleted(reference):
    ref, times = reference
    path = save_match_in_progress(ref, times, META)
    path.write_text(path.read_text()[:-40])
    with pytest.raises(ReplayFileError) as info:
        load_match_in_progress()
    assert str(path) in str(info.value)
    assert path.exists()


def test_finished_match_file_is_not_offered(reference):
    ref, times = reference
    save_match_in_progress(ref, times, META)
    with pytest.raises(ReplayFileError, match="already over"):
        load_match_in_progress()


def test_killed_writer_leaves_a_whole_file(tmp_path: Path):
    """SIGKILL a process that keeps rewriting a file: what is left is old or new, never half."""
    target = tmp_path / "file.json"
    script = textwrap.dedent(
        f"""
        import json, sys
        sys.path.insert(0, {str(Path(__file__).parents[2] / "src")!r})
        from spit.store.paths import atomic_write
        target = {str(target)!r}
        atomic_write(target, json.dumps({{"n": 0, "pad": "x" * 2_000_000}}))
        print("ready", flush=True)
        n = 0
        while True:
            n += 1
            atomic_write(target, json.dumps({{"n": n, "pad": "x" * 2_000_000}}))
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == b"ready"
    time.sleep(0.3)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    data = json.loads(target.read_text())
    assert len(data["pad"]) == 2_000_000
    assert data["n"] >= 0


def test_p7_speed_match_is_kept_and_a_single_speed_game_is_not():
    from spit.engine import SpeedConfig, SpeedGame

    assert SpeedGame(SpeedConfig(target_score=20), seed=1).is_match
    assert not SpeedGame(SpeedConfig(), seed=1).is_match
    assert SpitGame(V4, seed=1).is_match and not SpitGame(SpitConfig(), seed=1).is_match
