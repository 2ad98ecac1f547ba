"""The app plays a third mode it has never heard of (tests/support/duel.py) from the registry."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.support import FakeClock
from tests.support.duel import DUEL, DuelGame
from tests.support.pilot import running
from tui_helpers import make_app, region, screen_of, written

from spit.engine import card_name, register_mode
from spit.engine.modes import unregister_mode
from spit.play.keys import Row
from spit.store.replays import load_replay


@pytest.fixture(autouse=True)
def duel() -> Iterator[None]:
    register_mode(DUEL)
    yield
    unregister_mode("duel")


async def test_two_people_play_duel_in_the_app_and_it_is_kept(
    clock: FakeClock, isolated_dirs: Path
) -> None:
    app = make_app(clock, lambda: DuelGame(None, 11), start="duel")
    async with running(app) as pilot:
        session = screen_of(app).session
        game = session.game
        assert isinstance(game, DuelGame)
        keys = session.keymap
        await pilot.press(keys.calls[0], keys.calls[1])
        for _ in range(200):
            if game.over:
                break
            action = (game.legal_actions(0) + game.legal_actions(1))[0]
            shown = game.columns(action.player)[action.source][0]
            cards = region(app, f"p{action.player + 1}-cards")
            assert shown is not None and card_name(shown) in cards
            await pilot.press(keys.key(action.player, Row(action.target), action.source))
            clock.now += keys.repeat_window + 0.1  # not a held key's repeat
            await pilot.pause()
        assert game.over and len(game.actions) > 10
        assert "draw pile" in region(app, "p1-info")
        await written(app, pilot)
    replays = list((isolated_dirs / "data" / "replays").glob("*.json"))
    assert len(replays) == 1
    assert load_replay(replays[0]).final.fingerprint() == game.fingerprint()
