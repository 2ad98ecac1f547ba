"""The Textual app: two players, one keyboard.

The app holds the settings in force (``AppSettings``) and its dependencies
(``AppDependencies``: the clock, factories, where results go) and hands
screens what they need when it opens them; screens tell it what to do with
messages (``spit.tui.messages``). With the real clock (``time.monotonic``,
the same clock Textual stamps key events with) each key's own timestamp
orders it (R11) and the game screen wakes itself for the next timer. With
an injected clock (tests, snapshots) nothing moves unless the test advances
that clock and ticks.
"""

from __future__ import annotations

import logging
import tempfile
import traceback
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import App
from textual.binding import Binding

from spit.tui.dealer import (
    AUTO_SPIT_VS_COMPUTER,
    AppDependencies,
    AppSettings,
    Dealer,
    GameFactory,
    GameSettings,
    Opening,
    computer_name,
    keymap_from_user,
    make_game,
    player_infos,
    settings_from_user,
)
from spit.tui.messages import PlayRequested, SettingsChanged
from spit.tui.screens import GameScreen, TitleScreen
from spit.tui.viewer import ReplayScreen

if TYPE_CHECKING:
    from spit.store.replays import Replay

__all__ = [
    "AUTO_SPIT_VS_COMPUTER",
    "AppDependencies",
    "AppSettings",
    "GameFactory",
    "GameSettings",
    "Opening",
    "SpitApp",
    "computer_name",
    "keymap_from_user",
    "make_game",
    "player_infos",
    "settings_from_user",
]

log = logging.getLogger("spit.tui")

#: seconds the app waits at exit for results still being written
EXIT_WRITE_WAIT = 5.0


class SpitApp(App[None]):
    """Spit and Speed for two people at one keyboard."""

    CSS_PATH = "spit.tcss"
    TITLE = "Spit"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True)]  # noqa: RUF012

    def __init__(
        self,
        settings: AppSettings | None = None,
        opening: Opening | None = None,
        deps: AppDependencies | None = None,
    ) -> None:
        """``settings``: the settings in force (default: the defaults); ``opening``:
        what to open first (default: the title menu); ``deps``: the clock,
        factories and files (default: the real ones)."""
        super().__init__()
        self.settings = settings or AppSettings()
        self.opening = opening or Opening()
        self.deps = deps or AppDependencies()
        self.dealer = Dealer(self.settings, self.deps)
        self.last_error_log: Path | None = None

    def on_mount(self) -> None:
        self.push_screen(TitleScreen(self.settings, self.deps.save_settings))
        if self.settings.warnings:
            from spit.tui.dialogs import WarningsScreen

            self.push_screen(WarningsScreen(self.settings.warnings), lambda _: self.open_start())
        else:
            self.open_start()

    def open_start(self) -> None:
        """Open what the command asked for: a game, a resumed match or a replay."""
        opening = self.opening
        if opening.replay is not None:
            self.push_screen(self.replay_screen(opening.replay, leave_exits=True))
        elif opening.resumed is not None:
            self.push_screen(self.game_screen(opening.resumed.final.mode, resumed=opening.resumed))
        elif opening.mode is not None:
            self.push_screen(self.game_screen(opening.mode, opening.opponents))

    def game_screen(
        self,
        mode: str,
        opponents: Mapping[int, str] | None = None,
        resumed: Replay | None = None,
    ) -> GameScreen:
        """A game screen that deals with the app's dealer."""
        return GameScreen(mode, self.dealer, opponents, resumed=resumed)

    def replay_screen(self, replay: Replay, leave_exits: bool = False) -> ReplayScreen:
        """The replay viewer on the app's clock."""
        return ReplayScreen(
            replay, self.dealer.clock, autotick=self.dealer.real_time, leave_exits=leave_exits
        )

    def on_play_requested(self, message: PlayRequested) -> None:
        """A screen asked for a game (or to carry on a saved match)."""
        self.push_screen(self.game_screen(message.mode, message.opponents, message.resumed))

    def on_settings_changed(self, message: SettingsChanged) -> None:
        """The settings file was saved: use it from the next game."""
        self.settings.apply(message.user)

    def finish_writes(self, timeout: float = EXIT_WRITE_WAIT) -> bool:
        """After the app has stopped: wait for the results still being written."""
        done = self.dealer.close(timeout)
        if not done:
            log.warning("stopped with results still being written")
        return done

    def _fatal_error(self) -> None:
        """Textual's last-resort handler: log the traceback to a file, show one line."""
        error = self._exception
        details = "".join(traceback.format_exception(error)) if error else "unknown error"
        try:
            with tempfile.NamedTemporaryFile(
                "w", prefix="spit-error-", suffix=".log", delete=False
            ) as handle:
                handle.write(details)
            self.last_error_log = Path(handle.name)
            where = f" Details: {handle.name}"
        except OSError:
            where = ""
        self._exit_renderables.append(
            Text(f"spit stopped after an internal error: {error}.{where}", style="bold red")
        )
        self._close_messages_no_wait()
