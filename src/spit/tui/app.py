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

import asyncio
import contextlib
import gc
import io
import logging
import re
import signal
import sys
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.segment import Segments
from rich.text import Text
from textual.app import App
from textual.await_complete import AwaitComplete
from textual.binding import Binding
from textual.screen import Screen

from spit.play.keys import QUIT_KEY
from spit.tui.confirm import ConfirmScreen
from spit.tui.dealer import (
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
from spit.tui.messages import (
    TUTORIAL,
    HostRequested,
    JoinRequested,
    OnlineRequested,
    PlayRequested,
    ReplayRequested,
    SettingsChanged,
    exit_message,
)
from spit.tui.screens import GameScreen

if TYPE_CHECKING:
    from spit.store.replays import Replay
    from spit.tui.title import TitleScreen
    from spit.tui.viewer import ReplayScreen

__all__ = [
    "AppDependencies",
    "AppSettings",
    "GameFactory",
    "GameSettings",
    "Opening",
    "SpitApp",
    "computer_name",
    "exit_message",
    "keymap_from_user",
    "make_game",
    "player_infos",
    "settings_from_user",
]

log = logging.getLogger("spit.tui")

#: seconds the app waits at exit for results still being written
EXIT_WRITE_WAIT = 5.0


class ErrorConsole(Console):
    """The app's error console: a traceback goes to a file, the terminal gets one line.

    Textual prints an uncaught error's traceback here as the app stops; a
    player sees "spit stopped after an internal error: … Details: FILE"
    instead of a screen of code, and the file keeps the whole traceback.
    """

    def __init__(self, app: SpitApp) -> None:
        super().__init__(markup=False, highlight=False, stderr=True)
        self.spit_app = app

    def print(self, *objects: Any, **kwargs: Any) -> None:
        """A traceback: to a file, and one line here; anything else as it is."""
        traces = [text for text in map(_traceback_text, objects) if text is not None]
        if not traces:
            super().print(*objects, **kwargs)
            return
        lines = [line.strip(" │╰─╯") for line in traces[0].splitlines()]
        last = next((line for line in reversed(lines) if line), "")
        error = last.partition(": ")[2] or last or "unknown error"
        try:
            with tempfile.NamedTemporaryFile(
                "w", prefix="spit-error-", suffix=".log", delete=False
            ) as handle:
                handle.write(traces[0])
            self.spit_app.last_error_log = Path(handle.name)
            where = f" Details: {handle.name}"
        except OSError:
            where = ""
        super().print(
            Text(f"spit stopped after an internal error: {error}.{where}", style="bold red")
        )


def _traceback_text(shown: object) -> str | None:
    """The text of a traceback Textual prints as the app stops (None: not one).

    ``rich.traceback`` (with Pygments, some 20 ms) is not imported for this:
    Textual imports it to build the traceback, so a traceback can be one only
    once it is loaded.
    """
    tracebacks = sys.modules.get("rich.traceback")
    if tracebacks is not None and isinstance(shown, tracebacks.Traceback):
        console = Console(width=120, color_system=None, file=io.StringIO())
        console.print(shown)
        text = console.file.getvalue() if isinstance(console.file, io.StringIO) else ""
    elif isinstance(shown, Segments):  # Textual hands it over drawn already
        text = "".join(segment.text for segment in shown.segments)
    else:
        return None
    return text if "Traceback" in text else None


class SpitApp(App[None]):
    """Spit and Speed for two people at one keyboard."""

    CSS_PATH = "spit.tcss"
    TITLE = "Spit"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding(QUIT_KEY, "save_and_quit", "Quit", priority=True)]  # noqa: RUF012
    #: signals that save the game in progress and close the app cleanly (SIGINT too:
    #: ``kill -INT`` would otherwise end the app with no word about the saved game)
    SAVE_SIGNALS = tuple(
        getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGINT") if hasattr(signal, name)
    )
    #: the signal that suspends the app (a shell's ctrl+z, ``kill -TSTP``): the game pauses
    SUSPEND_SIGNAL: int | None = getattr(signal, "SIGTSTP", None)

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
        # Textual prints what stopped the app (a traceback) to its error console: this
        # one writes a traceback to a file and prints one line saying where it is
        self.error_console = ErrorConsole(self)
        self._signals: list[int] = []
        #: whether the title menu has been built (``spit play`` builds it only on leaving)
        self._menu_built = False

    #: freeze what start-up built out of the cyclic collector when the first frame is
    #: shown, and turn the collector (off until then) on (``launch.run`` sets it, for the
    #: program's one app; tests' apps leave it off)
    freeze_when_ready = False

    def on_ready(self) -> None:
        """The first frame is on the screen: what it took (some 30,000 objects: the
        screens, their styles, the board) lives as long as the app, so the collector
        leaves it out of its full collections, each of which took 40-80 ms of a key's
        way to the screen when it had to go over all of it. The collector runs from
        here on."""
        if self.freeze_when_ready:
            gc.freeze()
            gc.enable()

    def on_mount(self) -> None:
        self.use_theme()
        self.catch_signals()
        if self.opening.is_menu:
            self.push_screen(self.title_screen())
        if self.settings.warnings:
            from spit.tui.dialogs import WarningsScreen

            self.push_screen(WarningsScreen(self.settings.warnings), lambda _: self.open_start())
        else:
            self.open_start()

    # ----------------------------------------------------- leaving, quitting

    def catch_signals(self) -> None:
        """SIGTERM, SIGHUP and SIGINT save the game in progress and close the app cleanly.

        The app then leaves the alternate screen, shows the cursor and turns
        mouse reporting off as on a normal quit. Where the event loop cannot
        take signals (not the main thread, Windows) nothing changes.
        """
        try:
            loop = asyncio.get_running_loop()
            for signum in self.SAVE_SIGNALS:
                loop.add_signal_handler(signum, self.on_signal, signum)
                self._signals.append(signum)
            suspend = self.SUSPEND_SIGNAL
            stop = None if suspend is None else signal.getsignal(suspend)
            if suspend is not None and callable(stop):  # the terminal driver suspends the app
                loop.add_signal_handler(suspend, self.on_suspend, stop)
                self._signals.append(suspend)
        except (NotImplementedError, RuntimeError, ValueError):
            log.info("signals are not caught here")

    def on_unmount(self) -> None:
        with contextlib.suppress(Exception):
            loop = asyncio.get_running_loop()
            for signum in self._signals:
                loop.remove_signal_handler(signum)
        self._signals.clear()

    def on_signal(self, signum: int) -> None:
        """A signal asked the app to stop: save, then close as a quit would."""
        name = signal.Signals(signum).name
        log.info("%s: saving and quitting", name)
        lines = self.save_games_in_progress()
        self.exit(
            return_code=128 + signum, message=exit_message([*lines, f"spit: stopped by {name}."])
        )

    def on_suspend(self, stop: Callable[[int, FrameType | None], object]) -> None:
        """SIGTSTP: pause the game in progress first (its clock must not run while the
        process is stopped: the timers would fire, and the computer play, the moment
        it went on), then let the terminal driver's ``stop`` suspend the app as usual.
        The game comes back on the pause box."""
        screen = self.screen if self.screen_stack else None
        if isinstance(screen, GameScreen):
            screen.suspend()
        assert self.SUSPEND_SIGNAL is not None
        stop(self.SUSPEND_SIGNAL, None)

    def save_games_in_progress(self) -> list[str]:
        """Save every unfinished game the app holds; one line per game for the player."""
        lines: list[str] = []
        for screen in list(self.screen_stack):
            if not isinstance(screen, GameScreen):
                continue
            note = screen.quit_note
            if note:  # a network game: the host keeps it, say what happens to it
                lines.append(note)
            if not screen.in_progress:
                continue
            problem = screen.save_progress()
            if problem:  # "game not saved: <reason>": say it once
                reason = re.sub(r"^game not saved(?: yet)?: ", "", problem)
                lines.append(f"spit: the game was NOT saved: {reason}")
            else:
                lines.append("spit: your game is saved; 'spit resume' carries on with it.")
        return lines

    def action_help_quit(self) -> None:
        """ctrl+c (Textual's copy key): say how to quit, as Textual would for its own quit key."""
        self.notify(f"Press [b]{QUIT_KEY}[/b] to save and quit", title="Do you want to quit?")

    def action_save_and_quit(self) -> None:
        """ctrl+q: quit at once; a game in progress is saved first (nothing is lost).

        If a game cannot be saved, ask before quitting: it would be lost.
        """
        if isinstance(self.screen, ConfirmScreen) and self.screen.id == "quit-unsaved":
            self.exit(message=exit_message(self.save_games_in_progress()))  # asked: quit
            return
        lines = self.save_games_in_progress()
        unsaved = [line for line in lines if "NOT saved" in line]
        if not unsaved:
            self.exit(message=exit_message(lines))
            return
        games = [s for s in self.screen_stack if isinstance(s, GameScreen)]
        for game in games:
            game.hold("quit", True)

        def answer(yes: bool | None) -> None:
            if yes:
                self.exit(message=exit_message(lines))
                return
            for game in games:
                game.hold("quit", False)

        box = ConfirmScreen(
            "The game could not be saved",
            f"{unsaved[0].removeprefix('spit: ')}. If you quit now it is lost.",
            yes="quit without saving",
            no="keep playing",
            id="quit-unsaved",
        )
        self.push_screen(box, answer)

    def title_screen(self) -> TitleScreen:
        """The title menu, showing the settings in force (imported when first built:
        ``spit play`` shows its board without it)."""
        from spit.tui.title import TitleScreen

        self._menu_built = True
        return TitleScreen(self.settings, self.deps.save_settings)

    def open_start(self) -> None:
        """Open what the command asked for: a game, a resumed match, a replay, a network screen.

        The title menu is built only when that screen goes (``pop_screen``), so
        ``spit play`` shows its board without building the menu first.
        """
        opening = self.opening
        screen: Screen[Any]
        if opening.screen is not None:  # spit host / spit join
            made = opening.screen(self.dealer)
            assert isinstance(made, Screen)
            screen = made
        elif opening.replay is not None:
            screen = self.replay_screen(
                opening.replay, True, opening.replay_at, opening.replay_note
            )
        elif opening.resumed is not None:
            screen = self.game_screen(opening.resumed.final.mode, resumed=opening.resumed)
        elif opening.mode == TUTORIAL:
            from spit.tui.tutorial import TutorialScreen

            screen = TutorialScreen(self.dealer)
        elif opening.mode is not None:
            screen = self.game_screen(opening.mode, opening.opponents)
        else:
            return
        self.push_screen(screen)

    def pop_screen(self) -> AwaitComplete:
        """Close the current screen; the screen the command opened (or one it switched
        to, as the tutorial's last lesson does) gives way to the title menu, built
        now (as if it had been under it all along), never to the blank screen."""
        if not self._menu_built and len(self.screen_stack) <= 2:
            return self.switch_screen(self.title_screen())
        return super().pop_screen()

    def game_screen(
        self,
        mode: str,
        opponents: Mapping[int, str] | None = None,
        resumed: Replay | None = None,
    ) -> GameScreen:
        """A game screen that deals with the app's dealer."""
        return GameScreen(mode, self.dealer, opponents, resumed=resumed)

    def replay_screen(
        self,
        replay: Replay,
        leave_exits: bool = False,
        at: float | None = None,
        note: str | None = None,
    ) -> ReplayScreen:
        """The replay viewer on the app's clock (``at``: opened paused there, ``note`` said)."""
        from spit.tui.viewer import ReplayScreen

        return ReplayScreen(
            replay,
            self.dealer.clock,
            autotick=self.dealer.real_time,
            leave_exits=leave_exits,
            settings=self.settings,
            start_at=at,
            note=note,
        )

    def use_theme(self) -> None:
        """Switch to the settings' palette's theme (dark or light), ASCII or not."""
        theme = self.settings.palette.theme
        if self.theme != theme:
            self.theme = theme
        self.set_class(self.settings.ascii_only, "-ascii")

    def use_palette(self) -> None:
        """Switch to the settings' palette's theme, ASCII or not, and redraw the board."""
        self.use_theme()
        screen = self.screen if self.screen_stack else None
        if isinstance(screen, GameScreen):
            if screen.session is not None:
                screen.repaint()
            return
        from spit.tui.viewer import ReplayScreen

        if isinstance(screen, ReplayScreen):
            screen.repaint(screen.clock())

    def on_play_requested(self, message: PlayRequested) -> None:
        """A screen asked for a game (or to carry on a saved match, or the tutorial)."""
        if message.mode == TUTORIAL:
            from spit.tui.tutorial import TutorialScreen

            self.push_screen(TutorialScreen(self.dealer))
            return
        screen = self.game_screen(message.mode, message.opponents, message.resumed)
        if message.replace:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def on_host_requested(self, message: HostRequested) -> None:
        """The title menu asked to host a network game."""
        from spit.tui.netscreens import HostScreen

        self.push_screen(HostScreen(message.options, self.dealer))

    def on_join_requested(self, message: JoinRequested) -> None:
        """The title menu asked to join a network game."""
        from spit.tui.netscreens import JoinScreen

        self.push_screen(JoinScreen(self.dealer))

    def on_online_requested(self, message: OnlineRequested) -> None:
        """The title menu asked for a server's lobby: signed in with the player's key."""
        import asyncssh

        from spit.net.defaults import DEFAULT_BOT_AFTER
        from spit.net.online import KNOWN_SERVERS, KnownServers, player_key
        from spit.store.paths import data_dir
        from spit.tui.online import LobbyScreen

        try:
            key = player_key(data_dir())
        except (OSError, ValueError, asyncssh.KeyImportError) as exc:
            self.notify(f"Cannot read or make your key: {exc}", severity="error", markup=False)
            return
        lobby = LobbyScreen(
            self.dealer,
            message.host,
            message.port,
            key=key,
            known=KnownServers(data_dir() / KNOWN_SERVERS),
            name="",
            bot_after=DEFAULT_BOT_AFTER,
            from_menu=True,
        )
        self.push_screen(lobby)

    def on_settings_changed(self, message: SettingsChanged) -> None:
        """The settings file was saved: use it from the next game."""
        self.settings.apply(message.user)
        self.use_palette()

    def on_replay_requested(self, message: ReplayRequested) -> None:
        """A list of replays (or the coach's moments) asked to watch one."""
        self.push_screen(self.replay_screen(message.replay, at=message.at, note=message.note))

    def finish_writes(self, timeout: float = EXIT_WRITE_WAIT) -> bool:
        """After the app has stopped: wait for the results still being written."""
        done = self.dealer.close(timeout)
        if not done:
            log.warning("stopped with results still being written")
        return done
