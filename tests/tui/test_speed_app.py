"""Speed at the keyboard: ready (P2), plays from the hand (P3), the side piles turn (P4)."""

from __future__ import annotations

from tests.support import FakeClock
from tests.support.pilot import running
from tui_helpers import make_app, region, screen_of

from spit.engine import Phase, SpeedConfig, SpeedGame, parse_cards
from spit.realtime.arbiter import Timing


def stuck_speed() -> SpeedGame:
    """Nothing fits the centre 5s; the first side cards (7C, 4D) make 8S and 3H playable."""
    p1 = parse_cards("8S 9S 10S JS QS")
    p2 = parse_cards("3H 9H 10H JH QH")
    side1, side2 = parse_cards("7C"), parse_cards("4D")
    centre = parse_cards("5C 5D")
    fixed = set(p1 + p2 + side1 + side2 + centre)
    rest = [c for c in range(52) if c not in fixed]
    deck = p1 + rest[0:10] + p2 + rest[10:20] + side1 + rest[20:29] + side2 + rest[29:38] + centre
    return SpeedGame(SpeedConfig(), seed=1, deck=deck)


async def test_p2_p3_ready_then_play_from_the_hand(clock: FakeClock) -> None:
    app = make_app(clock, lambda: SpeedGame(SpeedConfig(), seed=5), start="speed")
    async with running(app) as pilot:
        game = screen_of(app).session.game
        assert "Get ready" in region(app, "status")
        await pilot.press("g", "0")  # any key of player 1, then player 2's call key
        assert game.phase is Phase.PLAY
        queen = game.hands[1][2]
        await pilot.press("i")  # P2 hand slot 3 (Q♠) onto the left pile (J♠)
        await pilot.pause()
        assert game.piles[0][-1] == queen
        assert game.hands[1][2] is not None  # drawn back up to five (P3)
        assert "draw pile 9" in region(app, "p2-info")
        await pilot.press("z")  # the bottom row means nothing in Speed
        assert "Speed has no moves" in region(app, "flash")


async def test_p4_side_piles_turn_after_the_flip_delay(clock: FakeClock) -> None:
    app = make_app(clock, stuck_speed, start="speed", timing=Timing(flip_delay=1.0))
    async with running(app) as pilot:
        game = screen_of(app).session.game
        await pilot.press("1", "0")
        await pilot.pause()
        assert game.phase is Phase.STALEMATE
        assert "the side piles turn over" in region(app, "status")
        await pilot.press("q")  # nothing to do but wait
        assert "side piles are turning" in region(app, "flash")
        clock.advance(1.0)
        screen_of(app).run_tick()
        await pilot.pause()
        assert game.phase is Phase.PLAY
        assert [len(p) for p in game.piles] == [2, 2]
        assert "side piles turned" in region(app, "news")
        await pilot.press("q")  # 8S onto the 7C that just turned up
        assert game.piles[0][-1] == parse_cards("8S")[0]


async def test_p4_cards_the_side_piles_turned_are_marked_as_nobodys_play(
    clock: FakeClock,
) -> None:
    """Issue 21, defect 9: the who-played-here mark is for a player's card only."""
    app = make_app(clock, stuck_speed, start="speed", timing=Timing(flip_delay=1.0))
    async with running(app) as pilot:
        session = screen_of(app).session
        await pilot.press("1", "0")
        await pilot.pause()
        assert session.landed == {}  # the centre cards turned up: nobody played them
        clock.advance(1.0)
        screen_of(app).run_tick()
        await pilot.pause()
        assert session.game.phase is Phase.PLAY
        assert session.landed == {}
        assert "◀" not in region(app, "centre")
        await pilot.press("q")  # player 1's 8S onto the 7C: that one is marked
        await pilot.pause()
        assert session.landed[0].player == 0
