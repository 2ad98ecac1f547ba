"""Two paths the fake clock never takes: key events' own times, and Textual's last resort."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from tests.support import FakeClock
from tests.support.pilot import running
from textual import events
from tui_helpers import make_app, playable, screen_of

from spit.tui.app import AppDependencies, AppSettings, GameSettings, Opening, SpitApp
from spit.tui.screens import GameScreen


async def test_a_key_counts_at_its_events_time_not_when_the_handler_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The real clock (no clock injected): the session gets each key's event time.
    app = SpitApp(
        AppSettings(game=GameSettings(seed=7)),
        Opening("spit"),
        AppDependencies(game_factory=lambda *_: playable(), record=False),
    )
    seen: list[tuple[float, float]] = []  # (the event's time, the clock when handled)
    handle = GameScreen.on_key

    def on_key(screen: GameScreen, event: events.Key) -> None:
        time.sleep(0.002)  # the handler runs measurably later than the key was made
        seen.append((event.time, time.monotonic()))
        handle(screen, event)

    monkeypatch.setattr(GameScreen, "on_key", on_key)
    async with running(app) as pilot:
        session = screen_of(app).session
        assert session is not None
        await pilot.press("1", "0")  # both call spit: the opening
        await pilot.pause()
        presses = [(at, key) for at, key, _ in session.inputs]
        assert [key for _, key in presses] == ["1", "0"]
        assert [at for at, _ in presses] == [event_time for event_time, _ in seen]
        assert all(event_time < handled for event_time, handled in seen)
        # the arbiter logged the calls at those same times (R11 orders by them)
        assert [t for t, _ in session.arbiter.log[:2]] == [at for at, _ in presses]


def boom() -> None:
    raise RuntimeError("boom")


async def test_an_uncaught_error_ends_the_app_with_one_line_and_a_log_file(
    capsys: pytest.CaptureFixture[str],
) -> None:
    app = make_app(FakeClock(), playable, record=False)
    with pytest.raises(RuntimeError, match="boom"):
        async with running(app) as pilot:
            capsys.readouterr()  # only what the app prints as it stops
            app.call_later(boom)  # outside every screen's own guard
            await pilot.pause()
    err = capsys.readouterr().err
    assert app.return_code == 1
    assert "Traceback" not in err
    assert app.last_error_log is not None
    # one message (the console folds it at its width, here 80 columns), nothing else
    message = "".join(line.strip() + " " for line in err.splitlines()).strip()
    assert message == f"spit stopped after an internal error: boom. Details: {app.last_error_log}"
    logged = Path(app.last_error_log).read_text()
    assert "Traceback" in logged and "RuntimeError: boom" in logged
    Path(app.last_error_log).unlink()
