"""The board's regions are drawn from keys: a box whose key did not change is left alone.

``board_keys`` gives each region a key holding everything its text is drawn
from; ``Board.show`` draws a region's text only when its key changed. These tests
check that skipping is safe (after every key and timer of a played game each
box shows exactly what ``board_texts`` draws now) and that it does skip.
"""

from __future__ import annotations

import random

from rich.text import Text
from tests.support import FakeClock
from tests.support.pilot import running
from textual.app import App, ComposeResult
from tui_helpers import make_app, screen_of

from spit.engine import Kind, Phase
from spit.play.keys import Row
from spit.tui.render import SMALL, Scale
from spit.tui.widgets.board import REGION_NAMES, Board, LineKey, board_texts


class Counted(LineKey):
    """A line key that counts how often it is drawn."""

    drawn = 0

    def text(self, scale: Scale = SMALL) -> Text:
        Counted.drawn += 1
        return super().text(scale)


class OneBoard(App[None]):
    def compose(self) -> ComposeResult:
        yield Board(id="board")


async def test_an_equal_key_is_not_drawn_again_and_a_text_set_in_between_is_replaced() -> None:
    app = OneBoard()
    async with running(app):
        board = app.query_one(Board)
        Counted.drawn = 0
        assert board.show({"news": Counted("ready")})
        assert not board.show({"news": Counted("ready")})  # equal: not drawn, not compared
        assert Counted.drawn == 1
        assert board.show({"news": Counted("ready")}, ascii_only=True) is False  # same text
        assert Counted.drawn == 2
        board.show({"news": "something else"}, ascii_only=True)
        assert board.show({"news": Counted("ready")}, ascii_only=True)
        assert board.text("news").plain == "ready" and Counted.drawn == 3
        # a key of another kind with equal fields is another key
        assert board.show({"news": LineKey("ready")}, ascii_only=True) is False
        assert Counted.drawn == 3 and board.text("news").plain == "ready"


def legal_keys(app_session: object) -> list[str]:
    """Keys that do something for either player now."""
    from spit.play.session import Session

    assert isinstance(app_session, Session)
    game = app_session.game
    keymap = app_session.keymap
    keys: list[str] = []
    for player in (0, 1):
        for action in game.legal_actions(player):
            if game.phase in (Phase.OPENING, Phase.STALEMATE):
                keys.append(keymap.calls[player])
            elif action.kind is Kind.PLAY:
                keys.append(keymap.rows[player][action.target][action.source])
            elif action.kind is Kind.MOVE:
                keys.append(keymap.rows[player][Row.MOVE][action.source])
    return keys


async def test_after_every_key_and_timer_each_box_shows_what_board_texts_draws() -> None:
    clock = FakeClock()
    app = make_app(clock, seed=11)
    rng = random.Random(11)
    all_keys = "qwertasdfgzxcvbyuiophjkl;nm,./10"
    async with running(app) as pilot:
        screen = screen_of(app)
        for step in range(160):
            session = screen.session
            assert session is not None
            if session.game.phase is Phase.GAME_OVER:
                break
            legal = legal_keys(session)
            # mostly legal keys; now and then any key (refusals, held keys, flashes)
            key = rng.choice(legal) if legal and rng.random() < 0.8 else rng.choice(all_keys)
            clock.advance(rng.choice((0.05, 0.3, 0.7, 2.5)))  # flashes and marks fade
            await pilot.press(key)
            screen.run_tick()
            await pilot.pause()
            now = clock()
            drawn = board_texts(session, now, app.dealer.settings.palette)
            for region in REGION_NAMES:
                shown = screen.board.text(region)
                if region == "flash" and screen.flash_note(session) is not None:
                    continue  # the archiver's note stands in for the flash
                assert shown == drawn[region], (step, key, region)
                assert shown.style == drawn[region].style, (step, key, region)
