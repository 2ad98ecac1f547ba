"""CPU time per key on the game screen, measured inside the app (less noisy than a pty).

Runs ``spit play --seed 7``'s app headless (Textual's Pilot, 80x24, the real
clock) and presses legal keys of both players, one at a time, letting the
screen update after each. It reports the event loop thread's CPU time per key
(``time.thread_time``), split into:

* handler: ``GameScreen.on_key`` (the session's tick, the board's new texts,
  setting the boxes);
* compositor: Textual's screen update (``Screen._on_timer_update``: the
  compositor asks the widgets for their changed lines);
* the rest: Textual's own dispatch of the key, timers.

Headless Textual composes each update but writes nothing; here each update
is also turned into the terminal's bytes (``render_segments``, as the real
driver does before writing them), timed as "output" and part of the compositor.
``--profile N`` prints the N most expensive functions (cProfile, cumulative).

Run: ``PYTHONPATH=src python benchmarks/bench_keypath.py [--keys 400]``.
The last line is ``cpu_per_key_ms: X`` (the whole thread, per key).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
SCRATCH = Path(tempfile.mkdtemp(prefix="spit-bench-keypath-"))
os.environ["SPIT_DATA_DIR"] = str(SCRATCH / "data")
os.environ["SPIT_CONFIG"] = str(SCRATCH / "config.toml")
os.environ.setdefault("TEXTUAL_FPS", "1000")

from textual import events  # noqa: E402
from textual.keys import _character_to_key  # noqa: E402
from textual.screen import Screen  # noqa: E402

from spit.engine import Kind, Phase  # noqa: E402
from spit.play.keys import Row  # noqa: E402
from spit.tui.app import Opening  # noqa: E402
from spit.tui.launch import configured_app  # noqa: E402
from spit.tui.screens import GameScreen  # noqa: E402

#: ``--reduce-motion``: the board's effects off
NO_EFFECTS = False
REPEAT_GAP = 0.6  # never the same key twice within the app's repeat window


def render_output(meter: Meter) -> None:
    """Headless apps skip making the terminal's bytes: make them, as a terminal app does."""
    from textual._compositor import CompositorUpdate
    from textual.app import App as TextualApp

    display = TextualApp._display

    def _display(self: TextualApp[Any], screen: Screen[Any], renderable: Any) -> None:
        if isinstance(renderable, CompositorUpdate) and not self._batch_count:
            t0 = time.thread_time()
            data = renderable.render_segments(self.console)
            meter.spent["  output"] = meter.spent.get("  output", 0.0) + time.thread_time() - t0
            meter.bytes += len(data.encode())
        display(self, screen, renderable)

    setattr(TextualApp, "_display", _display)  # noqa: B010 (patched for the measurement)


class Meter:
    """Thread CPU time spent inside wrapped methods, by name."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = {}
        self.inside: set[str] = set()  # labels being timed (a recursive call is not again)
        self.bytes = 0  # written to the terminal

    def wrap(self, owner: object, name: str, label: str) -> None:
        original: Callable[..., Any] | None = getattr(owner, name, None)
        if original is None:  # not in this version of the app
            return
        meter = self

        def timed(*args: Any, **kwargs: Any) -> Any:
            if label in meter.inside:
                return original(*args, **kwargs)
            meter.inside.add(label)
            t0 = time.thread_time()
            try:
                return original(*args, **kwargs)
            finally:
                meter.inside.discard(label)
                meter.spent[label] = meter.spent.get(label, 0.0) + time.thread_time() - t0

        timed.__name__ = original.__name__
        setattr(owner, name, timed)


def legal_key(screen: GameScreen, rng: random.Random, last: dict[str, float]) -> str | None:
    """A key of either player that does something legal now (not sent just before)."""
    session = screen.session
    assert session is not None
    game = session.game
    keys = session.keymap
    now = time.monotonic()
    options: list[str] = []
    for player in (0, 1):
        phase = game.phase
        actions = game.legal_actions(player)
        if phase in (Phase.OPENING, Phase.STALEMATE) and actions:
            options.append(keys.calls[player])
        elif phase is Phase.SLAP and actions:
            options.append(keys.rows[player][player][0])
        elif phase is Phase.PLAY:
            for action in actions:
                if action.kind is Kind.PLAY:
                    options.append(keys.rows[player][action.target][action.source])
                elif action.kind is Kind.MOVE:
                    options.append(keys.rows[player][Row.MOVE][action.source])
    fresh = [k for k in options if now - last.get(k, -9.0) >= REPEAT_GAP]
    return rng.choice(fresh) if fresh else None


async def drive_minimal(n_keys: int) -> tuple[int, float, Meter]:
    """The same for ``benchmarks/minimal_app.py`` (any letter shows at once)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from minimal_app import KeyEcho

    meter = Meter()
    render_output(meter)
    meter.wrap(KeyEcho, "on_key", "handler")
    meter.wrap(Screen, "_on_timer_update", "compositor")
    app = KeyEcho()
    cpu = 0.0
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.3)
        meter.spent.clear()
        meter.bytes = 0
        driver = app._driver
        assert driver is not None
        for i in range(n_keys):
            key = "abcdefghijklmnopqrstuvwxyz"[i % 26]
            t0 = time.thread_time()
            event = events.Key(key, key)
            event.set_sender(app)
            driver.send_message(event)
            await asyncio.sleep(0.015)
            cpu += time.thread_time() - t0
    return n_keys, cpu, meter


async def drive(
    n_keys: int, profile: cProfile.Profile | None, detail: bool = False
) -> tuple[int, float, Meter]:
    """Play ``n_keys`` keys; the keys pressed, the thread's CPU seconds, the split."""
    meter = Meter()
    render_output(meter)
    meter.wrap(GameScreen, "on_key", "handler")
    meter.wrap(Screen, "_on_timer_update", "compositor")
    if detail:
        from spit.play.session import Session
        from spit.tui import screens
        from spit.tui.widgets import board

        meter.wrap(Session, "press", "  press")
        meter.wrap(Session, "tick", "  tick")
        meter.wrap(screens, "board_keys", "  board_keys")
        meter.wrap(board.Board, "show", "  Board.show")
        meter.wrap(board.Area, "show", "   Area.show (drawing)")
        meter.wrap(board.Board, "_changed_rows", "   Board._changed_rows (lines, compare)")
        meter.wrap(board.Board, "refresh", "    refresh")
        meter.wrap(GameScreen, "schedule", "  schedule")
        meter.wrap(board, "draw_slots", "    draw_slots")
        meter.wrap(board, "draw_centre", "    draw_centre")
        meter.wrap(board.Board, "render_line", "  Board.render_line")
    app = configured_app(Opening("spit"), seed=7, reduce_motion=NO_EFFECTS)
    rng = random.Random(7)
    last: dict[str, float] = {}
    pressed = 0
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.3)
        meter.spent.clear()
        meter.bytes = 0
        driver = app._driver
        assert driver is not None
        cpu = 0.0
        while pressed < n_keys:
            screen = app.screen
            if not isinstance(screen, GameScreen) or screen.session is None:
                await pilot.pause(0.05)
                continue
            if screen.session.game.phase is Phase.GAME_OVER:
                await pilot.press("enter")  # the next game
                await pilot.pause(0.1)
                continue
            key = legal_key(screen, rng, last)
            if key is None:
                await pilot.pause(0.02)
                continue
            last[key] = time.monotonic()
            t0 = time.thread_time()
            if profile is not None:
                profile.enable()
            # as the terminal driver sends it (Pilot's press waits for idle, costing CPU)
            event = events.Key(_character_to_key(key), key)
            event.set_sender(app)
            driver.send_message(event)
            await asyncio.sleep(0.015)  # the screen update (at most 120 a second) happens
            if profile is not None:
                profile.disable()
            cpu += time.thread_time() - t0
            pressed += 1
    return pressed, cpu, meter


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=400, help="keys to press")
    parser.add_argument("--profile", type=int, default=0, help="show the N costliest functions")
    parser.add_argument("--detail", action="store_true", help="time the handler's parts too")
    parser.add_argument("--minimal", action="store_true", help="measure the minimal app instead")
    parser.add_argument(
        "--reduce-motion", action="store_true", help="the board's effects off (on by default)"
    )
    args = parser.parse_args()
    global NO_EFFECTS
    NO_EFFECTS = args.reduce_motion
    profile = cProfile.Profile() if args.profile else None
    if args.minimal:
        pressed, cpu, meter = asyncio.run(drive_minimal(args.keys))
    else:
        pressed, cpu, meter = asyncio.run(drive(args.keys, profile, args.detail))
    per = 1000 / pressed
    for label, spent in meter.spent.items():
        print(f"{label}_ms_per_key: {spent * per:.3f}")
    print(f"bytes_per_key: {meter.bytes / pressed:.0f}")
    rest = cpu - meter.spent.get("handler", 0.0) - meter.spent.get("compositor", 0.0)
    print(f"rest_ms_per_key (Textual's dispatch, timers): {rest * per:.3f}")
    if profile is not None:
        order = os.environ.get("PSORT", "cumulative")  # or tottime
        pstats.Stats(profile).sort_stats(order).print_stats(args.profile)
    print(f"cpu_per_key_ms: {cpu * per:.3f}")


if __name__ == "__main__":
    main()
