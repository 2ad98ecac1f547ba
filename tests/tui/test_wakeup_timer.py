"""The board's one wake-up timer: kept while the wake-up stays put, set again once spent."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from tests.support.pilot import running
from textual.timer import Timer
from tui_helpers import playable, screen_of

from spit.tui.app import AppDependencies, AppSettings, GameSettings, Opening, SpitApp
from spit.tui.screens import GameScreen


def real_clock_app() -> SpitApp:
    """On the real clock (no clock injected): only then does the screen set timers."""
    return SpitApp(
        AppSettings(game=GameSettings(seed=7)),
        Opening("spit"),
        AppDependencies(game_factory=lambda *_: playable(), record=False),
    )


async def test_a_wake_up_that_did_not_move_keeps_its_timer_and_a_spent_one_is_set_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = real_clock_app()
    async with running(app) as pilot:
        screen = screen_of(app)
        session = screen.session
        assert session is not None and screen.dealer.real_time
        set_at: list[float] = []
        set_timer = screen.set_timer

        def counting(delay: float, callback: Callable[[], None]) -> Timer:
            set_at.append(delay)
            return set_timer(delay, callback)

        monkeypatch.setattr(screen, "set_timer", counting)
        wake = 1e9  # far off: the timer never fires by itself in this test
        monkeypatch.setattr(session, "next_wakeup", lambda now: wake)
        now = time.monotonic()
        screen.schedule(now)
        screen.schedule(now + 0.1)  # a key that left the wake-up where it was
        screen.schedule(now + 0.2)
        assert len(set_at) == 1
        wake = 2e9  # a key that moved it
        screen.schedule(now + 0.3)
        assert len(set_at) == 2
        # the timer fires (here: by hand): spent, so the same wake-up gets a new one
        GameScreen._wake(screen)
        assert len(set_at) == 3
        await pilot.pause()
