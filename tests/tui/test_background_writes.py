"""Saves run off the event loop: a locked results database never holds up a key press."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest
from tests.support import FakeClock
from tests.support.pilot import running
from tui_helpers import make_app, region, screen_of, written

from spit.engine import Phase, SpitGame, card
from spit.store import records
from spit.store.paths import database_path
from spit.store.records import load_results


def one_card() -> SpitGame:
    """P1 holds one card (6D) and no spit cards: after P2's call, 'a' plays it and wins (R20)."""
    six, five = card("6", "D"), card("5", "C")
    rest = [c for c in range(52) if c not in (six, five)]
    return SpitGame(seed=3, packets=[[six], [*rest[:15], five, *rest[15:]]])


@pytest.fixture
def locked_database() -> Iterator[sqlite3.Connection]:
    """Another program holds the results database: an open exclusive transaction."""
    path = database_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    yield holder
    holder.close()


async def test_keys_are_answered_while_the_database_is_locked_and_the_result_saved_after(
    clock: FakeClock, locked_database: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the save waits for the lock (as long as it takes) instead of giving up after 1 s
    monkeypatch.setattr(records, "LOCK_TIMEOUT", 60.0)
    app = make_app(clock, one_card)
    async with running(app) as pilot:
        await pilot.press("0", "a")  # P2 calls, P1 plays its last card: game over
        await pilot.pause()
        first = screen_of(app).session
        assert first.game.phase is Phase.GAME_OVER
        # the result is waiting for the lock on the writer's thread ...
        assert first.archiver is not None and first.archiver.message is None
        # ... and the keys go on working: play again, and a whole second game
        await pilot.press("enter")
        await pilot.pause()
        second = screen_of(app).session
        assert second is not first and second.game.phase is Phase.OPENING
        await pilot.press("0", "a")
        await pilot.pause()
        assert [used for _, _, used in second.inputs] == [True, True]
        assert len(second.game.actions) == 2 and second.game.phase is Phase.GAME_OVER
        assert first.archiver.message is None  # still waiting: both presses came first
        locked_database.rollback()  # the other program lets go
        await written(app, pilot)
        assert first.archiver.message == "result saved"
        assert "Result saved" in region(app, "flash")  # the second game's, shown on its board
    results, skipped = load_results()
    assert len(results) == 2 and skipped == 0


async def test_a_lock_that_outlasts_the_wait_is_reported_not_saved(
    clock: FakeClock, locked_database: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(records, "LOCK_TIMEOUT", 0.05)
    app = make_app(clock, one_card)
    async with running(app) as pilot:
        await pilot.press("0", "a")
        await written(app, pilot)
        flash = region(app, "flash")
        assert flash.startswith("✗ Result not saved: the results database is in use")
        await pilot.press("enter")  # and play goes on
        await pilot.pause()
        assert screen_of(app).session.game.phase is Phase.OPENING
