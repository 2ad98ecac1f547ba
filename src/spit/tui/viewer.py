"""The replay viewer: a saved game played back on the board at 1x to 16x.

``spit.play.playback.Playback`` moves the game on; this screen draws it with the
same board as a live game, and says what each action did. Keys: space
pauses, + and - (or 1 2 4 8) set the speed, right arrow (or n) steps one
action, ] and [ jump to the next and previous round, e to the end, r
restarts, Esc leaves. A terminal smaller than 80x24 shows a message and
pauses the replay until it fits.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import replace
from typing import TYPE_CHECKING

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Static

from spit.play.keys import KeyMap
from spit.play.playback import Playback
from spit.play.session import Session
from spit.play.texts import clock_text
from spit.realtime.arbiter import Clock, Outcome, Rejected
from spit.tui.dealer import AppSettings
from spit.tui.screens import MIN_HEIGHT, MIN_WIDTH
from spit.tui.widgets.board import Board, RegionKey, TopKey, board_keys

if TYPE_CHECKING:
    from spit.store.replays import Replay

log = logging.getLogger("spit.tui")

VIEWER_KEYS = (
    ("space", "pause"),
    ("+ -", "speed"),
    ("→", "step"),
    ("[ ]", "round"),
    ("e", "end"),
    ("r", "restart"),
    ("Esc", "leave"),
)


class ReplayScreen(Screen[None]):
    """A replay on the board, with its own clock: speed, pause, step, restart."""

    BINDINGS = [  # noqa: RUF012
        Binding("space", "pause", "Pause"),
        Binding("1", "speed(1)", "1x", show=False),
        Binding("2", "speed(2)", "2x", show=False),
        Binding("4", "speed(4)", "4x", show=False),
        Binding("8", "speed(8)", "8x", show=False),
        Binding("plus,equals_sign", "faster", "Faster", show=False),
        Binding("minus", "slower", "Slower", show=False),
        Binding("right_square_bracket,pagedown", "next_round", "Next round", show=False),
        Binding("left_square_bracket,pageup", "previous_round", "Previous round", show=False),
        Binding("e,end", "end", "End", show=False),
        Binding("right", "step", "Step"),
        Binding("n", "step", show=False),
        Binding("r", "restart", "Restart"),
        Binding("escape", "leave", "Leave"),
        Binding("q", "leave", show=False),
    ]

    def __init__(
        self,
        replay: Replay,
        clock: Clock,
        autotick: bool = True,
        leave_exits: bool = False,
        settings: AppSettings | None = None,
        start_at: float | None = None,
        note: str | None = None,
    ) -> None:
        """``clock``: the app's clock; ``autotick``: wake up for the next action (the
        real clock; tests tick by hand); ``leave_exits``: Esc quits the app;
        ``settings``: the app's settings (card colours, ASCII only); ``start_at``:
        open paused at that replay time, with ``note`` on the news line (a coach's
        moment)."""
        super().__init__()
        self.start_at = start_at
        self.note = note
        self.settings = settings or AppSettings()
        self.replay = replay
        self.clock = clock
        self.autotick = autotick
        self.leave_exits = leave_exits
        self.playback = Playback(replay, h8=replay.meta.h8)
        self.session = self._session()
        self._last: float | None = None
        self._wake_timer: Timer | None = None
        self.error: str | None = None
        self._size_paused = False
        self._paused_before = False

    def _session(self) -> Session:
        """A session that only describes and draws the replayed game (its arbiter never runs)."""
        names = (self.replay.meta.players[0].label, self.replay.meta.players[1].label)
        return Session.local(self.playback.game, keymap=KeyMap.default(), names=names)

    def compose(self) -> ComposeResult:
        yield Board(id="board")
        yield Static(id="too-small")

    def on_mount(self) -> None:
        self._last = self.clock()
        if self.start_at is not None:
            self.playback.paused = True
        self.check_size()
        if self.start_at is not None:
            applied = self.playback.seek(self.start_at)
            self.session = self._session()  # the game was dealt again
            where = f"Paused at {clock_text(self.playback.position)}"
            self._jumped(applied, f"{where}: {self.note}" if self.note else where)
            return
        self.run_tick()

    def on_resize(self, event: events.Resize) -> None:
        self.check_size()

    def check_size(self) -> None:
        """Too small for the board: say so and pause; go on when it fits again."""
        width, height = self.app.size
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        self.query_one("#board").display = not small
        note = self.query_one("#too-small", Static)
        note.display = small
        if small:
            note.update(
                f"The terminal is {width}x{height}; the replay needs at least "
                f"{MIN_WIDTH}x{MIN_HEIGHT}.\nMake the window bigger: the replay is paused "
                "and goes on when it fits.\n\nEsc leaves."
            )
        if small and not self._size_paused:
            self.run_tick()
            self._size_paused = True
            self._paused_before = self.playback.paused
            self.playback.paused = True
        elif not small and self._size_paused:
            self._size_paused = False
            self.playback.paused = self._paused_before
            self._last = self.clock()
            self.run_tick()

    # ---------------------------------------------------------------- playing

    def run_tick(self) -> None:
        """Play the actions now due, repaint, and wake up for the next one."""
        try:
            now = self.clock()
            last = now if self._last is None else self._last
            self._last = now
            self._show(self.playback.advance(now - last), now)
            self._schedule(now)
        except Exception as exc:  # a bug must not take the terminal down
            log.exception("replay viewer failed")
            self.error = f"Internal error ({type(exc).__name__}: {exc}); Esc leaves"
            self.playback.paused = True
            with contextlib.suppress(Exception):
                self.repaint(self.clock())

    def _show(self, outcomes: list[Outcome], now: float) -> None:
        speed = self.playback.speed
        for outcome in outcomes:
            if isinstance(outcome, Rejected) and outcome.fumble > 0:
                # a fumble (H8): its hands-off time on the viewer's clock, at this speed
                outcome = replace(outcome, fumble=outcome.fumble / speed)
            self.session.describe(outcome, now)
        self.session.expire(now)
        self.repaint(now)

    def _schedule(self, now: float) -> None:
        if self._wake_timer is not None:
            self._wake_timer.stop()
            self._wake_timer = None
        if not self.autotick:
            return
        waits = [w for w in (self.playback.wait(),) if w is not None]
        waits += [until - now for until in self.session.marks_end()]
        if waits:
            self._wake_timer = self.set_timer(max(0.005, min(waits)), self.run_tick)

    def status_text(self) -> str:
        """Where the replay is, at what speed, and what to press."""
        pb = self.playback
        where = f"{clock_text(pb.position)} / {clock_text(pb.duration)}"
        step = f"action {pb.index}/{len(self.replay.timed)}"
        if pb.done:
            return f"End of the replay ({where}): {self.session.result_text()}"
        state = "PAUSED" if pb.paused else "playing"
        return f"Replay {state} at {pb.speed:g}x   {where}   {step}"

    def repaint(self, now: float) -> None:
        """Draw the board, with the viewer's own status and keys."""
        settings = self.settings
        texts: dict[str, RegionKey | Text] = dict(board_keys(self.session, now, settings.palette))
        game = self.playback.game  # the top bar's clock: the replay's time, not the viewer's
        clock = clock_text(self.playback.position)
        texts["topbar"] = TopKey(game.info.title, game.round_no, game.config.variants, clock)
        texts["status"] = Text(self.status_text(), style="bold yellow", no_wrap=True)
        footer = Text(no_wrap=True, overflow="ellipsis")
        for key, what in VIEWER_KEYS:
            footer.append(f" {key} ", "reverse")
            footer.append(f" {what} ")
        texts["footer"] = footer
        if self.error:
            texts["flash"] = Text(self.error, style="bold red")
        self.query_one(Board).show(texts, settings.ascii_only)

    # ------------------------------------------------------------------- keys

    def action_pause(self) -> None:
        """Pause or go on."""
        self.run_tick()  # play what was due before the key
        self.playback.toggle_pause()
        self.run_tick()

    def action_speed(self, speed: int) -> None:
        """Play at 1x, 2x, 4x or 8x."""
        self.run_tick()
        self.playback.speed = float(speed)
        self.run_tick()

    def action_faster(self) -> None:
        """The next speed up, to 16x."""
        self.run_tick()
        self.playback.faster()
        self.run_tick()

    def action_slower(self) -> None:
        """The next speed down, to 1x."""
        self.run_tick()
        self.playback.slower()
        self.run_tick()

    def _jumped(self, applied: list[Outcome], news: str) -> None:
        now = self.clock()
        self._last = now
        self._show(applied, now)
        self.session.announce(news)
        self.repaint(now)
        self._schedule(now)

    def action_end(self) -> None:
        """Jump to the end of the replay: the final position."""
        self.run_tick()
        self._jumped(self.playback.to_end(), "Jumped to the end")

    def action_next_round(self) -> None:
        """Jump to the start of the next round (or the end)."""
        self.run_tick()
        applied = self.playback.next_round()
        where = "the end" if self.playback.done else f"round {self.playback.game.round_no}"
        self._jumped(applied, f"Jumped to {where}")

    def action_previous_round(self) -> None:
        """Jump back to the start of this round, or of the one before."""
        self.run_tick()
        self.playback.previous_round()
        self.session = self._session()
        self._jumped([], f"Back to round {self.playback.game.round_no}")

    def action_step(self) -> None:
        """Pause and apply just the next action."""
        self.run_tick()
        self.playback.paused = True
        now = self.clock()
        self._last = now
        self._show(self.playback.step(), now)
        self._schedule(now)

    def action_restart(self) -> None:
        """Back to the deal."""
        self.playback.restart()
        self.session = self._session()
        self._last = self.clock()
        self.run_tick()

    def action_leave(self) -> None:
        """Back to the menu (or out, when the command opened the replay)."""
        if self._wake_timer is not None:
            self._wake_timer.stop()
        if self.leave_exits:
            self.app.exit()
        else:
            self.app.pop_screen()
