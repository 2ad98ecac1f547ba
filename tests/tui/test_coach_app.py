"""The coaching summary box at a game's end (issue 13)."""

from __future__ import annotations

from tests.support import FakeClock
from tests.support.pilot import running
from tui_helpers import make_app, region, screen_of

from spit.engine import SpitGame, card, card_name
from spit.play.endtable import cards_left
from spit.tui.coachbox import CoachBox
from spit.tui.widgets.board import Board


def one_card() -> SpitGame:
    """P1 holds one card (6D) and no spit cards: playing it on 5C wins by R20."""
    six, five = card("6", "D"), card("5", "C")
    rest = [c for c in range(52) if c not in (six, five)]
    return SpitGame(seed=3, packets=[[six], [*rest[:15], five, *rest[15:]]])


async def test_the_box_leads_with_the_result_and_f2_goes_round_its_looks(
    clock: FakeClock,
) -> None:
    """The end of a game shows who won and the score first; F2 adds "How fast were
    you?", F2 again hides the box (the last table alone), F2 brings the result back."""
    app = make_app(clock, one_card)
    async with running(app) as pilot:
        screen = screen_of(app)
        box = screen.query_one("#coach", CoachBox)
        assert not box.display
        await pilot.press("0")  # P2 calls: the opening spit (5C)
        clock.advance(1.5)
        await pilot.press("a")  # P1 plays 6D on 5C after 1.5 s and wins
        await pilot.pause()
        assert screen.session is not None and screen.session.game.over
        assert box.display
        lines = str(box.render()).splitlines()
        assert lines[0].strip() == "Player 1 has no cards left and wins the game!"
        assert lines[1] == "Left on the table: Player 1 0 cards, Player 2 50"
        assert "How fast were you?" not in str(box.render())
        assert "F2: how fast were you?" in lines[-1] and "Enter: play again" in lines[-1]
        await pilot.press("f2")
        text = str(box.render())
        assert box.display and text.index("wins the game") < text.index("How fast were you?")
        assert "Player 1: 1 card," in text and "median 1.50s" in text
        assert "Player 2: 0 cards" in text and "F2: hide this box" in text
        await pilot.press("f2")
        assert not box.display
        await pilot.press("f2")
        assert box.display and "How fast were you?" not in str(box.render())
        await pilot.press("enter")  # play again: a new game, the box goes
        await pilot.pause()
        assert screen_of(app) is screen and not screen.session.game.over
        assert not box.display


async def test_the_last_table_shows_all_52_cards(clock: FakeClock) -> None:
    """The winning play gathers every card off the table in the engine (R19, R20);
    the board still shows the table as it stood, with the last card on its pile."""
    app = make_app(clock, one_card)
    async with running(app) as pilot:
        screen = screen_of(app)
        await pilot.press("0")
        await pilot.press("a")
        await pilot.pause()
        await pilot.press("f2", "f2")  # no box: the board alone
        session = screen.session
        assert session is not None and session.game.over
        table = session.table
        held = sum(cards_left(table, p) for p in (0, 1))
        on_piles = sum(len(pile) for pile in table.piles)
        assert held + on_piles == 52
        assert (cards_left(table, 0), cards_left(table, 1), on_piles) == (0, 50, 2)
        assert "spit cards 35" in region(app, "p2-info")
        centre = region(app, "centre")
        assert "6♦" in centre and "×2" in centre and "GAME OVER" in centre
        shown = region(app, "p2-cards")
        for top, _ in table.columns(1):
            assert top is not None and card_name(top) in shown


async def test_a_too_small_terminal_hides_the_summary_box_too(clock: FakeClock) -> None:
    app = make_app(clock, one_card)
    async with running(app) as pilot:
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


async def test_f3_lists_the_moments_and_opens_the_replay_at_the_one_chosen(
    clock: FakeClock,
) -> None:
    """Player 1 took 1.5 s to play the winning 6♦: a slow play, a moment to watch
    again. F3 lists it, Enter opens the replay paused where 6♦ became playable, with
    the moment's words on the news line; Esc comes back to the finished board."""
    from textual.widgets import OptionList

    from spit.tui.moments import MomentsScreen
    from spit.tui.viewer import ReplayScreen

    app = make_app(clock, one_card)
    async with running(app) as pilot:
        screen = screen_of(app)
        await pilot.press("0")  # the opening spit turns up 5C at 0.0
        clock.advance(1.5)
        await pilot.press("a")
        await pilot.pause()
        assert "F3: moments" in str(screen.query_one("#coach", CoachBox).render())
        await pilot.press("f3")
        await pilot.pause()
        listing = app.screen
        assert isinstance(listing, MomentsScreen)
        options = listing.query_one("#moments", OptionList)
        assert options.option_count == 1
        words = "at 0:00 you took 1.5 s to play 6♦ on 5♣"
        assert str(options.get_option_at_index(0).prompt) == f"1. Player 1: {words}"
        await pilot.press("enter")
        await pilot.pause()
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen)
        assert viewer.playback.paused and viewer.playback.index == 1  # after the spit only
        assert viewer.session.game is viewer.playback.game
        assert viewer.session.game.piles[1][-1] == card("5", "C")  # P2 spat it
        assert "5♣" in viewer.query_one(Board).text("centre").plain
        assert viewer.query_one(Board).text("news").plain == f"Paused at 0:00: {words}"
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and screen.session is not None and screen.session.game.over
