"""What the play layer and the board read of a game, and ask of its referee.

A local ``Session`` holds an engine ``Game`` and its ``Arbiter``; a network
guest's session (``spit.net.view``) holds a game rebuilt from what the host
sends and a link that forwards presses to the host. Both are read through
these two protocols, so the session's words, the status line and the board
work on either without knowing which.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from spit.engine import Action, Phase
from spit.engine.base import GameConfig
from spit.engine.modes import Mode
from spit.engine.results import Result
from spit.realtime.arbiter import Outcome
from spit.realtime.timers import TimerKind


class GameView(Protocol):
    """A game as a session shows it: the state the board draws and the words read."""

    @property
    def mode(self) -> str:
        """The mode's name ('spit', 'speed')."""

    @property
    def config(self) -> GameConfig:
        """The rules in force."""

    @property
    def phase(self) -> Phase:
        """Where the game is."""

    @property
    def round_no(self) -> int:
        """The round (or deal) being played."""

    @property
    def winner(self) -> int | None:
        """The winner once the game is over (None: a draw, or not over)."""

    @property
    def result(self) -> Result:
        """How the game ended (``Result.NONE`` while it goes on)."""

    @property
    def scores(self) -> Sequence[int]:
        """Each player's points in a match."""

    @property
    def called(self) -> Sequence[bool]:
        """Who has called "spit!" (or "ready") in this opening or stalemate."""

    @property
    def piles(self) -> Sequence[Sequence[int | None]]:
        """The two spit piles, bottom to top (None: a card not seen)."""

    @property
    def over(self) -> bool:
        """True once the game (or match) has ended."""

    @property
    def info(self) -> Mode:
        """The mode's record: its words and table shape."""

    @property
    def is_match(self) -> bool:
        """True for a match scored to a target."""

    def fits(self, card: int, onto: int) -> bool:
        """True if ``card`` may go on a pile showing ``onto``."""

    def action_for(self, player: int, column: int | None, pile: int | None) -> Action | None:
        """The action one of a player's controls means now (``Game.action_for``)."""

    def columns(self, player: int) -> list[tuple[int | None, int]]:
        """Each face-up place of ``player``: its card (None: empty) and cards under it."""

    def reserve_size(self, player: int) -> int:
        """Cards ``player`` holds face down besides the columns."""

    def pile_in_use(self, pile: int) -> bool:
        """False for a pile left out of this round."""

    def side_pile_sizes(self) -> tuple[int, int] | None:
        """Cards in each side pile, or None in a mode without them."""

    def centre_face_down(self) -> bool:
        """True while face-down centre cards wait to be turned up."""


class Referee(Protocol):
    """What a session asks of whoever judges the presses: the local arbiter, or the host."""

    @property
    def paused(self) -> bool:
        """True while the game clock is stopped."""

    def submit(self, action: Action, at: float | None = None) -> object:
        """Queue a press made at ``at``."""

    def tick(self, now: float | None = None) -> list[Outcome]:
        """What was judged up to ``now``."""

    def pause(self, now: float | None = None) -> None:
        """Stop the game clock."""

    def resume(self, now: float | None = None) -> None:
        """Start the game clock again."""

    def timer(self) -> tuple[float, TimerKind] | None:
        """The visible timer's deadline and kind, if one runs."""

    def next_deadline(self) -> float | None:
        """When the referee next has something to do by itself."""
