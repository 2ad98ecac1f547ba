"""What the board says besides the cards: the game clock and a match's target (issue 21)."""

from __future__ import annotations

from tests.support import FakeClock
from tests.support.pilot import running
from tui_helpers import make_app, playable, region, screen_of

from spit.engine import SpeedConfig, SpeedGame, SpitConfig, SpitGame
from spit.tui.widgets.board import Board


async def test_a_match_shows_its_target_beside_each_score(clock: FakeClock) -> None:
    """A V4 match to 50 reads "score 0 / 50" on both players' lines; a Speed match
    to 5 "score 0 / 5"; a single game shows no score at all."""
    games = (
        (lambda: SpitGame(SpitConfig.from_variants(["V4"], target_score=50), 3), "score 0 / 50"),
        (lambda: SpeedGame(SpeedConfig(target_score=5), 3), "score 0 / 5"),
    )
    for factory, words in games:
        app = make_app(clock, factory)
        async with running(app):
            assert words in region(app, "p1-info") and words in region(app, "p2-info")
    app = make_app(clock, playable)
    async with running(app):
        assert "score" not in region(app, "p1-info")


async def test_the_game_clock_counts_play_leaves_out_pauses_and_stops_at_the_end(
    clock: FakeClock,
) -> None:
    app = make_app(clock, playable)
    async with running(app) as pilot:
        screen = screen_of(app)
        assert "time 0:00" in region(app, "topbar")
        session = screen.session
        assert session is not None
        now = clock()
        wake = session.next_wakeup(now)
        assert wake is not None and wake <= now + 1.0  # the clock's next second
        clock.advance(61.0)
        screen.run_tick()
        assert "time 1:01" in region(app, "topbar")
        await pilot.press("space")  # paused: the clock stops
        await pilot.pause()
        clock.advance(100.0)
        await pilot.press("space")
        await pilot.pause()
        screen.run_tick()
        assert "time 1:01" in region(app, "topbar")
        clock.advance(2.0)
        screen.run_tick()
        assert "time 1:03" in region(app, "topbar")


async def test_a_replay_opened_at_a_time_shows_that_time_and_waits_there(
    clock: FakeClock,
) -> None:
    """``spit replay FILE --at 0:02`` (and a coach's moment): the viewer opens paused at
    2 s, every action up to then played, and its top bar's clock says the replay's time."""
    import json

    from spit.engine import SYSTEM
    from spit.store.replays import PlayerInfo, new_meta, parse_replay, replay_data
    from spit.tui.app import AppDependencies, AppSettings, SpitApp
    from spit.tui.dealer import Opening
    from spit.tui.viewer import ReplayScreen

    game = SpitGame(SpitConfig(round_limit=2), 4)
    times: list[float] = []
    while not game.over:
        legal = game.legal_actions(0) + game.legal_actions(1) + game.legal_actions(SYSTEM)
        game.apply(legal[0])
        times.append(0.5 * len(times))
    meta = new_meta((PlayerInfo("A"), PlayerInfo("B")))
    replay = parse_replay(json.dumps(replay_data(game, times, meta)))
    opening = Opening(replay=replay, replay_at=2.0, replay_note="look here")
    app = SpitApp(AppSettings(), opening, AppDependencies(clock=clock, record=False))
    async with running(app) as pilot:
        await pilot.pause()
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen)
        assert viewer.playback.paused and viewer.playback.index == 5  # 0.0 ... 2.0
        assert "time 0:02" in viewer.query_one(Board).text("topbar").plain
        assert viewer.query_one(Board).text("news").plain == "Paused at 0:02: look here"
        clock.advance(30.0)
        viewer.run_tick()
        assert viewer.playback.index == 5  # it waits there


async def test_a_resumed_game_s_clock_goes_on_from_the_time_already_played(
    clock: FakeClock,
) -> None:
    import json

    from spit.store.replays import PlayerInfo, new_meta, parse_replay, replay_data
    from spit.tui.screens import GameScreen

    game = playable()
    for p in (0, 1):
        game.apply(game.legal_actions(p)[0])  # both call: the opening spit
    meta = new_meta((PlayerInfo("Ann"), PlayerInfo("Bob")))
    saved = parse_replay(json.dumps(replay_data(game, [1.0, 75.0], meta)))
    app = make_app(clock, start=None, resumed=saved)
    async with running(app) as pilot:
        await pilot.pause()
        board = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        assert "time 1:15" in board.query_one(Board).text("topbar").plain
