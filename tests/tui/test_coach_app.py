"""The coaching summary box at a game's end (issue 13)."""

from __future__ import annotations

from tests.support import FakeClock
from tui_helpers import make_app, screen_of

from spit.engine import SpitGame, card
from spit.tui.coachbox import CoachBox


def one_card() -> SpitGame:
    """P1 holds one card (6D) and no spit cards: playing it on 5C wins by R20."""
    six, five = card("6", "D"), card("5", "C")
    rest = [c for c in range(52) if c not in (six, five)]
    return SpitGame(seed=3, packets=[[six], [*rest[:15], five, *rest[15:]]])


async def test_the_summary_box_shows_at_the_end_and_keeps_the_keys(clock: FakeClock) -> None:
    app = make_app(clock, one_card)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = screen_of(app)
        box = screen.query_one("#coach", CoachBox)
        assert not box.display
        await pilot.press("0")  # P2 calls: the opening spit (5C)
        clock.advance(1.5)
        await pilot.press("a")  # P1 plays 6D on 5C after 1.5 s and wins
        await pilot.pause()
        assert screen.session is not None and screen.session.game.over
        assert box.display
        text = str(box.render())
        assert "Player 1: 1 card," in text and "median 1.50s" in text
        assert "Player 2: 0 cards" in text and "Enter: play again" in text
        await pilot.press("f2")
        assert not box.display
        await pilot.press("f2")
        assert box.display
        await pilot.press("enter")  # play again: a new game, the box goes
        await pilot.pause()
        assert screen_of(app) is screen and not screen.session.game.over
        assert not box.display


async def test_a_too_small_terminal_hides_the_summary_box_too(clock: FakeClock) -> None:
    app = make_app(clock, one_card)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = screen_of(app)
        await pilot.press("0")
        await pilot.press("a")
        await pilot.pause()
        box = screen.query_one("#coach", CoachBox)
        assert box.display and box.visible
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        assert not box.visible and screen.query_one("#too-small").display
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert box.visible and box.display
