"""The replay viewer (issue 9): jump to the end and between rounds, speeds to
16x, and the too-small message with the replay paused."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.support import FakeClock
from tests.support.pilot import SIZE, running

from spit.engine import SYSTEM, SpitConfig, SpitGame
from spit.play.playback import Playback
from spit.store.replays import PlayerInfo, Replay, load_replay, new_meta, save_replay
from spit.tui.app import AppDependencies, Opening, SpitApp
from spit.tui.viewer import ReplayScreen
from spit.tui.widgets.board import Board


def rounds_replay(tmp_path: Path) -> Replay:
    """A game of several rounds, actions 0.25 s apart (first legal action each time)."""
    game = SpitGame(SpitConfig(round_limit=4), seed=5)
    times: list[float] = []
    while not game.over:
        legal = game.legal_actions(0) + game.legal_actions(1) + game.legal_actions(SYSTEM)
        game.apply(legal[-1])
        times.append(0.25 * len(times))
    assert game.round_no >= 3
    path = save_replay(game, times, new_meta((PlayerInfo("A"), PlayerInfo("B"))), tmp_path)
    return load_replay(path)


@pytest.fixture
def replay(tmp_path: Path) -> Replay:
    return rounds_replay(tmp_path)


def test_playback_rounds_end_and_speeds(replay: Replay) -> None:
    pb = Playback(replay)
    starts = pb.round_starts
    assert len(starts) == replay.final.round_no - 1
    pb.next_round()
    assert pb.index == starts[0] and pb.game.round_no == 2
    pb.next_round()
    assert pb.index == starts[1] and pb.game.round_no == 3
    pb.previous_round()  # at a round's start: back one round
    assert pb.index == starts[0] and pb.game.round_no == 2
    pb.advance(0.5)
    pb.previous_round()  # inside a round: back to its start
    assert pb.index == starts[0]
    pb.to_end()
    assert pb.done and pb.game.fingerprint() == replay.final.fingerprint()
    assert pb.position == replay.timed[-1][0]
    for want in (2.0, 4.0, 8.0, 16.0, 16.0):
        assert pb.faster() == want
    assert pb.slower() == 8.0


async def test_viewer_keys_jump_and_speed_up(replay: Replay) -> None:
    clock = FakeClock()
    app = SpitApp(opening=Opening(replay=replay), deps=AppDependencies(clock=clock))
    async with running(app) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        footer = screen.query_one(Board).text("footer").plain
        assert "[ ]  round" in footer and "e  end" in footer and "+ -  speed" in footer
        assert footer.rstrip().endswith("Esc  leave") and len(footer.rstrip()) <= SIZE[0]
        await pilot.press("right_square_bracket")
        assert screen.playback.index == screen.playback.round_starts[0]
        assert "round 2" in screen.query_one(Board).text("news").plain
        assert screen.query_one(Board).text("topbar").plain.split()[2] == "2"
        await pilot.press("left_square_bracket")
        assert screen.session.game is screen.playback.game and screen.playback.game.round_no == 1
        for _ in range(5):
            await pilot.press("plus")
        assert "at 16x" in screen.query_one(Board).text("status").plain
        await pilot.press("e")
        assert screen.playback.done
        assert "End of the replay" in screen.query_one(Board).text("status").plain


async def test_viewer_too_small_says_so_and_pauses(replay: Replay) -> None:
    clock = FakeClock()
    app = SpitApp(opening=Opening(replay=replay), deps=AppDependencies(clock=clock))
    async with running(app, size=(60, 20)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        note = screen.query_one("#too-small")
        assert note.display and "needs at least 80x24" in str(note.render())
        assert not screen.query_one("#board").display
        before = screen.playback.index  # (the action at 0.0 s is due at once)
        clock.advance(5.0)
        screen.run_tick()
        assert screen.playback.index == before  # paused while too small
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        assert not note.display and screen.query_one("#board").display
        clock.advance(1.0)
        screen.run_tick()
        assert screen.playback.index > before  # going on


@pytest.mark.parametrize("name", ["[afk] bob", "Bob [/b]"])
async def test_viewer_shows_names_as_typed(tmp_path: Path, name: str) -> None:
    game = SpitGame(SpitConfig(round_limit=4), seed=5)
    path = save_replay(game, [], new_meta((PlayerInfo(name), PlayerInfo("Cy"))), tmp_path)
    app = SpitApp(
        opening=Opening(replay=load_replay(path)), deps=AppDependencies(clock=FakeClock())
    )
    async with running(app) as pilot:
        await pilot.pause()
        assert app.screen.query_one(Board).text("p1-info").plain.startswith(f" {name} ")
