"""What the board says besides the cards: the game clock and a match's target (issue 21)."""

from __future__ import annotations

from tests.support import FakeClock
from tui_helpers import make_app, playable, region, screen_of

from spit.engine import SpeedConfig, SpeedGame, SpitConfig, SpitGame

SIZE = (80, 24)


async def test_a_match_shows_its_target_beside_each_score(clock: FakeClock) -> None:
    """A V4 match to 50 reads "score 0 / 50" on both players' lines; a Speed match
    to 5 "score 0 / 5"; a single game shows no score at all."""
    games = (
        (lambda: SpitGame(SpitConfig.from_variants(["V4"], target_score=50), 3), "score 0 / 50"),
        (lambda: SpeedGame(SpeedConfig(target_score=5), 3), "score 0 / 5"),
    )
    for factory, words in games:
        app = make_app(clock, factory)
        async with app.run_test(size=SIZE):
            assert words in region(app, "p1-info") and words in region(app, "p2-info")
    app = make_app(clock, playable)
    async with app.run_test(size=SIZE):
        assert "score" not in region(app, "p1-info")


async def test_the_game_clock_counts_play_leaves_out_pauses_and_stops_at_the_end(
    clock: FakeClock,
) -> None:
    app = make_app(clock, playable)
    async with app.run_test(size=SIZE) as pilot:
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
