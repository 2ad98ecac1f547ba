"""H8 in replay playback: a recorded fumble is shown as the live board shows it,
at its time, in words (never a rule id), and its hands-off mark ends."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tests.support import FakeClock, deal
from tests.support.pilot import running

from spit.engine import Phase, call, play
from spit.play.playback import Playback
from spit.realtime.arbiter import Applied, Arbiter, Rejected, Timing
from spit.store.replays import (
    PlayerInfo,
    Replay,
    ReplayMeta,
    h8_record,
    load_replay,
    new_meta,
    save_replay,
)
from spit.tui.app import AppDependencies, Opening, SpitApp
from spit.tui.viewer import ReplayScreen
from spit.tui.widgets.board import Board

# Left pile 5C, right pile KD. Player 1's stock 1 is a 6 (fits the left pile),
# stock 2 a jack (fits neither pile).
TOPS = ("6D JC JS QC QS", "6H JD JH QD QH")
RULE_ID = re.compile(r"\b[RVHP]\d+[a-z]?\b")


def fumbled_replay(tmp_path: Path) -> tuple[Replay, float]:
    """Both players flip; 1.0 s later player 1 puts the jack on 5C (a fumble),
    at 2.0 s the six on 5C. Returns the replay and the fumble's replay time."""
    clock = FakeClock()
    game = deal(TOPS, ("5C 5H", "KD KC"))
    arbiter = Arbiter(game, Timing(fumble_time=0.5), clock)
    start = clock.now
    for player in (0, 1):
        arbiter.submit(call(player), at=start)  # "spit!": the first spit cards turn up
    arbiter.tick(start)
    assert game.phase is Phase.PLAY
    arbiter.submit(play(0, 1, 0), at=start + 1.0)  # the jack onto 5C
    arbiter.tick(start + 1.0)
    arbiter.submit(play(0, 0, 0), at=start + 2.0)  # the six onto 5C
    arbiter.tick(start + 2.0)
    assert len(arbiter.fumbles) == 1
    times = [t - arbiter.start_time for t, _ in arbiter.log]
    meta = new_meta((PlayerInfo("Ann"), PlayerInfo("Bob")))
    h8 = h8_record(arbiter.timing, arbiter.fumbles, arbiter.start_time)
    path = save_replay(game, times, ReplayMeta(meta.players, meta.date, h8), tmp_path)
    replay = load_replay(path)
    assert replay.meta.h8 is not None
    return replay, replay.meta.h8.fumbles[0].time


@pytest.fixture
def recorded(tmp_path: Path) -> tuple[Replay, float]:
    return fumbled_replay(tmp_path)


def test_H8_playback_gives_a_recorded_fumble_at_its_time_refused_as_the_game_refused_it(
    recorded: tuple[Replay, float],
) -> None:
    replay, at = recorded
    pb = Playback(replay, h8=replay.meta.h8)
    before = pb.advance(at - 0.01)
    assert all(isinstance(o, Applied) for o in before)
    (fumble,) = [o for o in pb.advance(0.02) if isinstance(o, Rejected)]
    assert fumble.action == play(0, 1, 0) and fumble.fumble == 0.5
    assert fumble.reason and not RULE_ID.search(fumble.reason)
    rest = pb.advance(replay.duration)
    assert not any(isinstance(o, Rejected) for o in rest)  # shown once
    pb.restart()  # and again after a restart, also when stepping
    stepped = [o for _ in range(len(replay.timed)) for o in pb.step()]
    assert [o.action for o in stepped if isinstance(o, Rejected)] == [play(0, 1, 0)]
    pb.seek(replay.duration)  # a jump past it shows none
    assert pb.advance(1.0) == []


def test_H8_a_replay_without_its_fumble_record_plays_no_fumbles(
    recorded: tuple[Replay, float],
) -> None:
    replay, _ = recorded
    pb = Playback(replay)
    assert all(isinstance(o, Applied) for o in pb.advance(replay.duration))


async def test_H8_the_replay_viewer_shows_a_fumble_as_the_live_board_does(
    recorded: tuple[Replay, float],
) -> None:
    replay, at = recorded
    clock = FakeClock()
    app = SpitApp(opening=Opening(replay=replay), deps=AppDependencies(clock=clock))
    async with running(app) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        board = screen.query_one(Board)
        clock.advance(at - 0.05)
        screen.run_tick()
        await pilot.pause()
        assert "FUMBLE" not in board.text("p1-info").plain
        clock.advance(0.1)
        screen.run_tick()
        await pilot.pause()
        flash = board.text("flash").plain
        assert "Ann: fumble!" in flash and "hands off" in flash
        assert not RULE_ID.search(flash)
        assert "FUMBLE: hands off" in board.text("p1-info").plain
        assert "FUMBLE" not in board.text("p2-info").plain
        clock.advance(0.5)  # the fumble time (0.5 s at 1x) is over
        screen.run_tick()
        await pilot.pause()
        assert "FUMBLE" not in board.text("p1-info").plain
