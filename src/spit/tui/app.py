"""The Textual app: two players, one keyboard.

The app owns the settings, the key map and the clock. With the real clock
(``time.monotonic``, the same clock Textual stamps key events with) each
key's own timestamp orders it (R11) and the game screen wakes itself for the
next timer. With an injected clock (tests, snapshots) nothing moves unless the
test advances that clock and ticks.
"""

from __future__ import annotations

import logging
import random
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from rich.text import Text
from textual.app import App
from textual.binding import Binding

from spit.arbiter import Agent, Clock, Timing
from spit.bots import LEVELS, make_bot
from spit.engine import Game, SpitConfig, SpitGame
from spit.tui.keymap import KeyMap
from spit.tui.screens import GameScreen, TitleScreen
from spit.tui.session import Session

log = logging.getLogger("spit.tui")


@dataclass
class Settings:
    """What the next game is dealt with: Spit variants, Speed's deal, the seed."""

    variants: tuple[str, ...] = ()
    long_deal: bool = False
    seed: int | None = None
    timing: Timing = field(default_factory=Timing)


def make_game(mode: str, settings: Settings, seed: int) -> Game:
    """A new game of ``mode`` ('spit' or 'speed') with the settings' rules."""
    if mode == "spit":
        return SpitGame(SpitConfig.from_variants(settings.variants), seed)
    if mode == "speed":
        try:
            from spit.engine import SpeedConfig, SpeedGame  # type: ignore[attr-defined]
        except ImportError as exc:
            raise RuntimeError("Speed is not available in this version") from exc
        config = SpeedConfig(
            long_deal=settings.long_deal,
            alternating_colours="V3" in settings.variants,
        )
        return SpeedGame(config, seed)
    raise ValueError(f"unknown game mode {mode!r}")


GameFactory = Callable[[str, Settings, int], Game]

#: H2: against the computer the spit is automatic after this countdown (seconds),
#: unless the settings already choose a countdown.
AUTO_SPIT_VS_COMPUTER = 1.5


def computer_name(level: str) -> str:
    """How a computer player is named on the board."""
    return f"Computer ({level})"


class SpitApp(App[None]):
    """Spit and Speed for two people at one keyboard."""

    CSS_PATH = "spit.tcss"
    TITLE = "Spit"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True)]  # noqa: RUF012

    def __init__(
        self,
        start: str | None = None,
        settings: Settings | None = None,
        keymap: KeyMap | None = None,
        clock: Clock | None = None,
        agents: dict[int, Agent] | None = None,
        names: tuple[str, str] = ("Player 1", "Player 2"),
        game_factory: GameFactory | None = None,
        opponents: dict[int, str] | None = None,
        bot_seed: int | None = None,
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
        never from the deal.
        """
        super().__init__()
        self.start = start
        self.settings = settings or Settings()
        self.keymap = keymap or KeyMap.default()
        self.use_event_time = clock is None
        self.autotick = clock is None
        self.clock: Clock = clock or time.monotonic
        self.agents = dict(agents or {})
        self.names = names
        self.game_factory: GameFactory = game_factory or make_game
        self._seed = self.settings.seed
        for level in (opponents or {}).values():
            if level not in LEVELS:
                raise ValueError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}")
        self.opponents = dict(opponents or {})
        self.bot_seed = bot_seed
        self.last_error_log: Path | None = None

    def on_mount(self) -> None:
        self.push_screen(TitleScreen())
        if self.start is not None:
            self.push_screen(GameScreen(self.start, self.opponents))

    def next_seed(self) -> None:
        """Move to the next seed for 'play again' (a fixed seed steps by one)."""
        if self._seed is not None:
            self._seed = (self._seed + 1) % 2**64

    def make_session(self, mode: str, opponents: dict[int, str] | None = None) -> Session:
        """A new game session with the current settings.

        ``opponents`` maps player numbers to computer levels; those players are
        bots, which see only their observation and act through the arbiter.
        """
        seed = self._seed if self._seed is not None else random.SystemRandom().getrandbits(63)
        game = self.game_factory(mode, self.settings, seed)
        agents: dict[int, Agent] = dict(self.agents)
        names = list(self.names)
        timing = self.settings.timing
        if opponents:
            for player, level in opponents.items():
                bot_seed = self.bot_seed
                if bot_seed is None:
                    bot_seed = random.SystemRandom().getrandbits(63)
                agents[player] = make_bot(level, player, seed=bot_seed + player, mode=mode)
                names[player] = computer_name(level)
            if timing.auto_spit is None:
                timing = replace(timing, auto_spit=AUTO_SPIT_VS_COMPUTER)
        return Session(
            game,
            keymap=self.keymap,
            timing=timing,
            clock=self.clock,
            agents=agents,
            names=(names[0], names[1]),
        )

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
