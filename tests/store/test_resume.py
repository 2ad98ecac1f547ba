"""Unfinished games: saved as they go, one file each, resumed after a crash, never half-written."""

import itertools
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
from spit.store.replays import PlayerInfo, new_meta, replay_data
from spit.store.resume import (
    MAX_SAVED,
    PRUNE_AFTER,
    SAVE_AFTER,
    SAVE_EVERY,
    GameKeeper,
    cards_held,
    delete_saved_game,
    find_saved_game,
    list_saved_games,
    new_save_path,
    save_game,
)

META = new_meta((PlayerInfo("Ann"), PlayerInfo("bot", "easy")))
V4 = SpitConfig(scoring=True, target_score=60)


def started(game: SpitGame) -> SpitGame:
    """``game`` after the opening calls and its first card: a game worth keeping."""
    for _ in range(100):  # calls (the opening, stalemates) until a card can be played
        legal = game.legal_actions(0) + game.legal_actions(1)
        cards = [a for a in legal if a.kind.name in ("PLAY", "MOVE")]
        game.apply(cards[0] if cards else legal[0])
        if cards:
            return game
    raise AssertionError("no card was ever playable")


@pytest.fixture
def reference(playout) -> tuple[SpitGame, list[float]]:
    """A whole V4 match played in one sitting."""
    game, times = playout(V4, seed=8)
    assert game.over and game.round_no >= 4
    return game, times


def saved_files() -> list[Path]:
    folder = paths.saved_dir()
    return sorted(folder.glob("*.json")) if folder.exists() else []


def test_nothing_saved():
    assert list_saved_games() == []
    with pytest.raises(LookupError, match="no unfinished games"):
        find_saved_game("1", [])


def test_v4_match_is_saved_every_round_and_every_few_actions_and_cleared_at_the_end(reference):
    ref, times = reference
    game = SpitGame(V4, seed=8)
    keeper = GameKeeper(META)
    saves: list[tuple[int, int]] = []  # (round, actions) of each save
    files = set()
    for i, action in enumerate(ref.actions):
        game.apply(action)
        before, round_before = keeper.saved_actions, keeper.saved_round
        keeper.update(game, times[: i + 1])
        if game.round_no > round_before and not game.over:
            assert keeper.saved_actions == i + 1  # a new round dealt: saved at once
        if keeper.saved_actions != before and not game.over:
            saved = json.loads(keeper.path.read_text())
            saves.append((game.round_no, len(saved["actions"])))
            assert len(saved["actions"]) == i + 1
            files.update(saved_files())
    rounds = [r for r, _ in saves]
    assert sorted(set(rounds)) == list(range(1, ref.round_no + 1))
    # never more than SAVE_EVERY actions apart, and a save at the deal of every round
    gaps = [b - a for (_, a), (_, b) in itertools.pairwise(saves)]
    assert max(gaps) <= SAVE_EVERY
    assert len(files) == 1  # one file for the one match, rewritten
    assert not keeper.path.exists() and saved_files() == []  # the match ended: file removed


def test_resume_mid_round_after_crash_gives_same_fingerprint(reference):
    ref, times = reference
    # Session 1 plays into round 3, saves when it leaves, then "crashes" later on.
    game = SpitGame(V4, seed=8)
    keeper = GameKeeper(META)
    stop = None
    for i, action in enumerate(ref.actions):
        game.apply(action)
        keeper.update(game, times[: i + 1])
        if game.round_no == 3 and stop is None:
            stop = i + 7  # a few actions into the round, between two automatic saves
        if i == stop:
            assert keeper.save(game, times[: i + 1]) is None
            break
    saved_at = len(game.actions)
    del game, keeper  # the crash
    (entry,) = list_saved_games()
    assert entry.ok and entry.problem is None
    replay = entry.replay
    resumed = replay.final
    assert resumed.round_no == 3 and len(resumed.actions) == saved_at
    assert replay.meta == META
    assert resumed.actions == ref.actions[:saved_at]
    keeper = GameKeeper.resuming(replay)
    assert keeper.path == entry.path
    session_start = times[saved_at - 1]
    session_times: list[float] = []
    for i in range(saved_at, len(ref.actions)):
        resumed.apply(ref.actions[i])
        session_times.append(times[i] - session_start)
        keeper.update(resumed, session_times)
    assert resumed.fingerprint() == ref.fingerprint()
    assert keeper.all_times(session_times) == pytest.approx(times)
    assert saved_files() == []


def test_a_single_game_is_kept_too(playout):
    ref, times = playout(SpitConfig(round_limit=30), seed=3)
    game = SpitGame(SpitConfig(round_limit=30), seed=3)
    for action in ref.actions[:5]:
        game.apply(action)
    keeper = GameKeeper(META)
    assert keeper.save(game, times[:5]) is None  # leaving: saved at once
    (entry,) = list_saved_games()
    assert entry.replay.final.fingerprint() == game.fingerprint()
    columns = entry.columns()
    assert columns["mode"] == "Spit" and columns["round"] == "1"
    held = tuple(cards_held(game, p) for p in (0, 1))
    assert columns["score"] == f"{held[0]}-{held[1]} cards"  # a single game: cards held
    assert columns["players"] == "Ann vs Computer (easy)"


def test_a_new_game_never_overwrites_an_unfinished_one():
    first, second = started(SpitGame(SpitConfig(), seed=1)), started(SpitGame(SpitConfig(), seed=2))
    same_start = new_meta(META.players)  # both started in the same second
    keepers = [GameKeeper(same_start), GameKeeper(same_start)]
    assert keepers[0].save(first, [0.5] * len(first.actions)) is None
    assert keepers[1].save(second, [0.7] * len(second.actions)) is None
    assert keepers[0].path != keepers[1].path
    games = list_saved_games()
    assert sorted(g.replay.final.seed for g in games) == [1, 2]
    # pick by number or by id; delete one and the other stays
    assert find_saved_game(games[1].id, games) is games[1]
    assert find_saved_game("2", games) is games[1]
    with pytest.raises(LookupError, match="choose 1 to 2"):
        find_saved_game("3", games)
    with pytest.raises(LookupError, match="no unfinished game has the id"):
        find_saved_game("nope", games)
    delete_saved_game(games[0])
    assert [g.id for g in list_saved_games()] == [games[1].id]


def test_two_games_saving_at_once_get_their_own_files():
    """Two spit processes start a game in the same second: each name is handed out once.

    The second asks for a name before the first has written its file (the
    race between two terminals); it must not be given the same file.
    """
    game = SpitGame(SpitConfig(), seed=1)
    game.apply(game.legal_actions(0)[0])
    same_start = new_meta(META.players)
    first = new_save_path(game, same_start)
    second = new_save_path(game, same_start)
    assert first != second


def test_a_failed_first_save_leaves_no_empty_file(monkeypatch):
    game = started(SpitGame(SpitConfig(), seed=1))
    times = [0.5] * len(game.actions)

    def boom(*_args):
        raise OSError(28, "No space left on device")

    keeper = GameKeeper(META)
    with monkeypatch.context() as patch:
        patch.setattr("spit.store.paths.os.replace", boom)
        assert keeper.save(game, times) == "game not saved: No space left on device"
    assert saved_files() == [] and not keeper.saved
    assert keeper.save(game, times) is None and keeper.saved
    assert [g.ok for g in list_saved_games()] == [True]


def test_failed_save_is_reported_and_old_file_kept(reference, monkeypatch):
    ref, times = reference
    game = SpitGame(V4, seed=8)
    keeper = GameKeeper(META)
    i = 0
    while game.round_no < 2:
        game.apply(ref.actions[i])
        i += 1
    assert keeper.update(game, times[:i]) is None
    before = keeper.path.read_bytes()

    def boom(*_args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("spit.store.paths.os.replace", boom)
    while game.round_no < 3:
        game.apply(ref.actions[i])
        i += 1
    assert keeper.update(game, times[:i]) == "game not saved: No space left on device"
    assert keeper.path.read_bytes() == before
    assert [p.name for p in paths.saved_dir().iterdir()] == [keeper.path.name]


def test_damaged_and_finished_files_are_listed_with_a_reason_and_can_be_deleted(reference):
    ref, times = reference
    folder = paths.saved_dir()
    folder.mkdir(parents=True)
    (folder / "cut.json").write_text(json.dumps(replay_data(ref, times, META))[:-40])
    save_game(ref, times, META, folder / "over.json")
    (folder / "zero.json").write_bytes(b"")
    os.mkfifo(folder / "pipe.json")  # reading it would wait forever
    (folder / "dir.json").mkdir()
    games = {g.id: g for g in list_saved_games()}
    assert set(games) == {"cut", "over", "zero", "pipe", "dir"}
    assert not any(g.ok for g in games.values())
    assert "not valid JSON" in games["cut"].problem
    assert games["over"].problem == "this game is already over"
    assert "unreadable" in games["zero"].describe()
    assert games["pipe"].problem == games["dir"].problem == "not a regular file"
    (folder / "dir.json").rmdir()
    del games["dir"]
    for game in games.values():
        delete_saved_game(game)
    assert list_saved_games() == []


def test_the_old_single_match_file_is_listed(reference):
    ref, times = reference
    game = SpitGame(V4, seed=8)
    for action in ref.actions[:30]:
        game.apply(action)
    save_game(game, times[:30], META, paths.match_path())
    (entry,) = list_saved_games()
    assert entry.id == "match-in-progress" and entry.ok
    assert GameKeeper.resuming(entry.replay).path == paths.match_path()


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


def test_p7_speed_match_and_v4_are_matches_and_single_games_are_not():
    from spit.engine import SpeedConfig, SpeedGame

    assert SpeedGame(SpeedConfig(target_score=20), seed=1).is_match
    assert not SpeedGame(SpeedConfig(), seed=1).is_match
    assert SpitGame(V4, seed=1).is_match and not SpitGame(SpitConfig(), seed=1).is_match


def test_a_game_is_saved_after_its_first_action_and_then_every_few_seconds():
    """A crash (kill -9) loses at most SAVE_AFTER seconds of play, however few actions."""
    game = SpitGame(SpitConfig(), seed=4)
    keeper = GameKeeper(META)
    times: list[float] = []

    def act(at: float) -> int:
        game.apply(game.legal_actions(0)[0] if game.legal_actions(0) else game.legal_actions(1)[0])
        times.append(at)
        assert keeper.update(game, times) is None
        entries = list_saved_games()
        return len(entries[0].replay.timed) if entries else 0

    assert act(0.2) == 0 and act(0.3) == 0  # the opening calls alone are not kept
    assert act(0.4) == 3  # the first card played is saved at once
    assert act(0.9) == 3  # half a second later: not yet
    assert act(0.4 + SAVE_AFTER - 0.1) == 3
    assert act(0.4 + SAVE_AFTER + 0.1) == 6  # SAVE_AFTER seconds went by: saved


def test_a_game_left_after_only_the_opening_calls_is_not_kept():
    """Issue 21 defect 13: every abandoned game became a save, even with no card played."""
    game = SpitGame(SpitConfig(), seed=1)
    keeper = GameKeeper(META)
    for p in (0, 1):
        game.apply(game.legal_actions(p)[0])
        assert keeper.save(game, [0.5] * len(game.actions)) is None
    assert list_saved_games() == [] and not keeper.saved
    started(game)
    assert keeper.save(game, [0.5] * len(game.actions)) is None and keeper.saved


def test_only_the_newest_few_unfinished_games_are_kept():
    """Issue 21 defect 13: one evening left 14 entries in "Resume a game"."""
    broken = paths.saved_dir() / "broken.json"
    broken.parent.mkdir(parents=True, exist_ok=True)
    broken.write_text("{nope")  # unreadable: kept, to be looked at or deleted
    os.utime(broken, (1e9, 1e9))
    ids = []
    long_ago = time.time() - 10 * PRUNE_AFTER
    for seed in range(MAX_SAVED + 3):
        game = started(SpitGame(SpitConfig(), seed=seed))
        keeper = GameKeeper(META)
        assert keeper.save(game, [float(seed)] * len(game.actions)) is None
        os.utime(keeper.path, (long_ago + seed, long_ago + seed))  # each newer than the last
        ids.append(keeper.path.name.removesuffix(".json"))
    kept = list_saved_games()
    assert [g.id for g in kept if g.ok] == ids[::-1][:MAX_SAVED]
    assert [g.id for g in kept if not g.ok] == ["broken"]


def test_a_game_saved_a_moment_ago_elsewhere_is_never_removed():
    """A game being played in another terminal (or by a server) saves every few seconds:
    however many there are, a new game's first save leaves them alone."""
    paths_of = []
    for seed in range(MAX_SAVED + 2):
        keeper = GameKeeper(META)
        game = started(SpitGame(SpitConfig(), seed=seed))
        assert keeper.save(game, [float(seed)] * len(game.actions)) is None
        paths_of.append(keeper.path)
    assert all(path.exists() for path in paths_of)
    assert len(list_saved_games()) == MAX_SAVED + 2


def test_a_saved_game_is_described_by_players_mode_cards_and_time():
    game = started(SpitGame(SpitConfig(four_stocks=True), seed=2))
    keeper = GameKeeper(META)
    assert keeper.save(game, [0.5 * i for i in range(len(game.actions))]) is None
    (saved,) = list_saved_games()
    held = f"{cards_held(game, 0)}-{cards_held(game, 1)} cards"
    words = saved.describe()
    assert words.startswith("Spit (four stocks): Ann vs Computer (easy), round 1, ")
    assert held in words and " played, saved " in words
