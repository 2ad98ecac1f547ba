"""The Textual app: two players, one keyboard.

The app owns the settings, the key map and the clock. With the real clock
(``time.monotonic``, the same clock Textual stamps key events with) each
key's own timestamp orders it (R11) and the game screen wakes itself for the
next timer. With an injected clock (tests, snapshots) nothing moves unless the
test advances that clock and ticks.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import signal
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from rich.text import Text
from textual.app import App
from textual.binding import Binding

from spit.bots import LEVELS, make_bot
from spit.engine import Game, get_mode
from spit.play.keys import QUIT_KEY, KeyMap, KeyMapError
from spit.play.session import Session
from spit.realtime.arbiter import Agent, Clock, Timing
from spit.store.archive import Archiver
from spit.store.coaching import MATCH_ME, is_match_me, match_me, match_me_name
from spit.store.paths import config_path
from spit.store.replays import MAX_NAME, PlayerInfo, Replay
from spit.store.settings import Settings as UserSettings
from spit.store.settings import save_settings
from spit.tui.confirm import ConfirmScreen
from spit.tui.dialogs import WarningsScreen
from spit.tui.render import Palette, palette_named
from spit.tui.screens import GameScreen, TitleScreen
from spit.tui.tutorial import TutorialScreen
from spit.tui.viewer import ReplayScreen

log = logging.getLogger("spit.tui")


#: The settings file's defaults: the one source of the app's defaults too.
_DEFAULTS = UserSettings()


@dataclass
class GameSettings:
    """What the next game is dealt with: Spit variants, Speed's deal, the seed.

    ``spit_target`` ends a V4 match; ``speed_target`` above 0 plays Speed as a
    P7 match to that score. ``computer_auto_spit`` is H2's countdown in games
    against the computer (None: the players call, as between two people).
    """

    variants: tuple[str, ...] = _DEFAULTS.variants
    long_deal: bool = _DEFAULTS.speed_deal == "long"
    seed: int | None = None
    timing: Timing = field(default_factory=Timing)
    spit_target: int = _DEFAULTS.spit_target
    speed_target: int = _DEFAULTS.speed_target
    #: H2 against the computer: the game calls "spit!" after this many seconds
    computer_auto_spit: float | None = _DEFAULTS.auto_spit
    bot_level: str = _DEFAULTS.bot_level

    def target_score(self, mode: str) -> int:
        """The match target of ``mode``: the field ``<mode>_target`` (0 if it has none)."""
        return int(getattr(self, f"{mode}_target", 0))


def settings_from_user(user: UserSettings, seed: int | None = None) -> GameSettings:
    """The app's game settings from the settings file's."""
    return GameSettings(
        variants=tuple(user.variants),
        long_deal=user.speed_deal == "long",
        seed=seed,
        timing=Timing(auto_spit=None, slap_time=user.slap_time),
        spit_target=user.spit_target,
        speed_target=user.speed_target,
        computer_auto_spit=user.auto_spit,
        bot_level=user.bot_level,
    )


def keymap_from_user(user: UserSettings) -> tuple[KeyMap, str | None]:
    """The key map of the settings file, or the default and why it could not be used."""
    try:
        return KeyMap.from_keys(user.keys, repeat_window=user.repeat_window), None
    except KeyMapError as exc:
        return KeyMap.default(), f"the keys in the settings cannot be used ({exc}); default keys"


def make_game(mode: str, settings: GameSettings, seed: int) -> Game:
    """A new game of ``mode`` (a registered mode's name) with the settings' rules.

    The settings list every mode's variants together; each mode takes those it
    has (Speed's long deal is its P1b) and its own match target.
    """
    info = get_mode(mode)
    chosen = (*settings.variants, *(("P1b",) if settings.long_deal else ()))
    config = info.config(info.known_variants(chosen), target_score=settings.target_score(mode))
    return info.new_game(config, seed)


def player_infos(
    names: tuple[str, str], levels: dict[int, str], agents: dict[int, Agent]
) -> tuple[PlayerInfo, ...]:
    """Who plays each side, for the records: a name, or a computer and its level."""
    out = []
    for p in (0, 1):
        if p in levels:
            out.append(PlayerInfo(names[p], bot=levels[p]))
        elif p in agents:
            out.append(PlayerInfo(names[p], bot="computer"))
        else:
            out.append(PlayerInfo(names[p]))
    return tuple(out)


GameFactory = Callable[[str, GameSettings, int], Game]


def exit_message(lines: list[str]) -> Text | None:
    """What the terminal shows after the app closed (plain text, never markup)."""
    return Text("\n".join(lines)) if lines else None


def computer_name(level: str) -> str:
    """How a computer player is named on the board."""
    return f"Computer ({level})"


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

    def __init__(
        self,
        start: str | None = None,
        settings: GameSettings | None = None,
        keymap: KeyMap | None = None,
        clock: Clock | None = None,
        agents: dict[int, Agent] | None = None,
        names: tuple[str, str] = ("Player 1", "Player 2"),
        game_factory: GameFactory | None = None,
        opponents: dict[int, str] | None = None,
        bot_seed: int | None = None,
        user_settings: UserSettings | None = None,
        warnings: list[str] | None = None,
        replay: Replay | None = None,
        resumed: Replay | None = None,
        record: bool = True,
        ascii_only: bool = False,
    ) -> None:
        """``start``: 'spit' or 'speed' to go straight to a game, None for the title menu.

        ``clock``: inject a clock (tests); key events are then stamped with it
        and timers fire only when the test ticks. ``agents``: computer players
        by player number, passed to the arbiter; ``names``: shown on the board.
        ``game_factory(mode, settings, seed)``: deals the games (default
        ``make_game``; tests and saved games pass their own). ``opponents``:
        computer levels by player number for the game started by ``start``
        (``{1: "hard"}``; both players for watching). ``bot_seed``: seeds the
        bots' own generators (tests); by default they are seeded at random,
        never from the deal. ``user_settings``: the settings file's contents (the settings screen
        edits and saves them); ``warnings``: its problems, shown first.
        ``replay``: open the replay viewer on it; ``resumed``: carry on with
        this saved match. ``record``: save every finished game's replay and
        result, and each match after every round (``spit.store.archive``).
        ``ascii_only``: draw suits as S H D C and boxes in ASCII (``--ascii``).
        """
        super().__init__()
        self.start = start
        self.settings = settings or GameSettings()
        self.keymap = keymap or KeyMap.default()
        self.use_event_time = clock is None
        self.autotick = clock is None
        self.clock: Clock = clock or time.monotonic
        self.agents = dict(agents or {})
        self.names = names
        self.game_factory: GameFactory = game_factory or make_game
        self._seed = self.settings.seed
        for level in (opponents or {}).values():
            if level not in LEVELS and not is_match_me(level):
                choices = ", ".join((*LEVELS, MATCH_ME))
                raise ValueError(f"unknown level {level!r}; choose from {choices}")
        self.opponents = dict(opponents or {})
        self.bot_seed = bot_seed
        self.last_error_log: Path | None = None
        self.user_settings = user_settings or UserSettings()
        self.warnings = list(warnings or [])
        self.replay = replay
        self.resumed = resumed
        self.record = record
        self.ascii_only = ascii_only
        self._signals: list[int] = []

    def on_mount(self) -> None:
        self.use_palette()
        self.catch_signals()
        self.push_screen(TitleScreen())
        if self.warnings:
            self.push_screen(WarningsScreen(self.warnings), lambda _: self.open_start())
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

    def save_games_in_progress(self) -> list[str]:
        """Save every unfinished game the app holds; one line per game for the player."""
        lines: list[str] = []
        for screen in list(self.screen_stack):
            if not isinstance(screen, GameScreen) or not screen.in_progress:
                continue
            problem = screen.save_progress()
            if problem:
                lines.append(f"spit: the game was NOT saved: {problem}")
            else:
                lines.append("spit: your game is saved; 'spit resume' carries on with it.")
        return lines

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

    def open_start(self) -> None:
        """Open what the command asked for: a game, a resumed match or a replay."""
        start_screen = getattr(self, "start_screen", None)  # spit host / spit join
        if start_screen is not None:
            self.push_screen(start_screen)
        elif self.replay is not None:
            self.push_screen(ReplayScreen(self.replay, leave_exits=True))
        elif self.resumed is not None:
            self.push_screen(GameScreen(self.resumed.final.mode, resumed=self.resumed))
        elif self.start == "tutorial":
            self.push_screen(TutorialScreen())
        elif self.start is not None:
            self.push_screen(GameScreen(self.start, self.opponents))

    @property
    def palette(self) -> Palette:
        """The card colours the settings chose."""
        return palette_named(self.user_settings.palette)

    def use_palette(self) -> None:
        """Switch to the palette's theme (dark or light) and redraw."""
        theme = self.palette.theme
        if self.theme != theme:
            self.theme = theme
        self.set_class(self.ascii_only, "-ascii")
        screen = self.screen if self.screen_stack else None
        repaint = getattr(screen, "repaint", None)
        if callable(repaint) and getattr(screen, "session", None) is not None:
            repaint()

    def apply_user_settings(self, user: UserSettings) -> str | None:
        """Use ``user`` for the next games (names, rules, timing, keys, colours).

        Returns a problem to show if its keys cannot be used.
        """
        self.user_settings = user
        self.use_palette()
        self.settings = settings_from_user(user, seed=self.settings.seed)
        self.names = user.names
        self.keymap, problem = keymap_from_user(user)
        return problem

    def save_user_settings(self, user: UserSettings) -> tuple[Path | None, str | None]:
        """Write ``user`` to the settings file and use it from the next game.

        Returns (the file written, None) or (None, why it was not saved); when
        saved but its keys cannot be used, (the file, that problem).
        """
        path = config_path()
        try:
            save_settings(user, path)
        except (OSError, ValueError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            return None, f"cannot write {path} ({reason})"
        return path, self.apply_user_settings(user)

    def next_seed(self) -> None:
        """Move to the next seed for 'play again' (a fixed seed steps by one)."""
        if self._seed is not None:
            self._seed = (self._seed + 1) % 2**64

    def make_session(
        self, mode: str, opponents: dict[int, str] | None = None, resumed: Replay | None = None
    ) -> Session:
        """A new game session with the current settings (or the ``resumed`` match).

        ``opponents`` maps player numbers to computer levels; those players are
        bots, which see only their observation and act through the arbiter. A
        resumed match brings its own players (names and computer levels).
        """
        names = list(self.names)
        if resumed is not None:
            game = resumed.final
            players = resumed.meta.players
            names = [players[0].name, players[1].name]
            opponents = {
                p: info.bot
                for p, info in enumerate(players)
                if info.bot is not None and (info.bot in LEVELS or is_match_me(info.bot))
            }
        else:
            seed = self._seed if self._seed is not None else random.SystemRandom().getrandbits(63)
            game = self.game_factory(mode, self.settings, seed)
        agents: dict[int, Agent] = dict(self.agents)
        timing = self.settings.timing
        levels: dict[int, str] = {}
        if opponents:
            for player, level in opponents.items():
                assert level is not None
                bot_seed = self.bot_seed
                if bot_seed is None:
                    bot_seed = random.SystemRandom().getrandbits(63)
                person = match_me_name(level, self.names[0])
                if person is not None:  # "match me": as fast as that person's saved games
                    like = match_me(person)
                    agents[player] = make_bot(
                        like.strategy,
                        player,
                        seed=bot_seed + player,
                        mode=game.mode,
                        reaction=like.profile.reaction,
                    )
                    names[player] = computer_name(f"like {person}")[:MAX_NAME]
                    level = like.label[:MAX_NAME]
                else:
                    agents[player] = make_bot(level, player, seed=bot_seed + player, mode=game.mode)
                    names[player] = computer_name(level)
                levels[player] = level
            if timing.auto_spit is None:
                timing = replace(timing, auto_spit=self.settings.computer_auto_spit)
        session = Session(
            game,
            keymap=self.keymap,
            timing=timing,
            clock=self.clock,
            agents=agents,
            names=(names[0], names[1]),
        )
        session.levels = levels
        self.archive(session, levels, resumed)
        return session

    def archive(
        self, session: Session, levels: dict[int, str], resumed: Replay | None = None
    ) -> None:
        """Keep ``session``'s game: the match after each round, the replay and result at the end."""
        if not self.record:
            return
        players = player_infos(session.names, levels, session.agents)
        people = len(session.agents) < 2  # two computers playing: nothing to resume
        session.archiver = Archiver(session.arbiter, players, resumed=resumed, keep_progress=people)
        session.listeners.append(session.archiver)

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
