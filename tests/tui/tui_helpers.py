"""Building apps for tests: a known deal, a fake clock, straight to the board."""

from __future__ import annotations

from collections.abc import Callable

from tests.support import FakeClock, deal, to_slap  # noqa: F401 (re-exported)

from spit.engine import Game, SpitGame
from spit.realtime.arbiter import Timing
from spit.tui.app import GameSettings, SpitApp
from spit.tui.screens import GameScreen

#: P1's 6D fits the left pile (5C); P2's QD fits the right pile (KD); 6H fits 5C too.
PLAYABLE = (("6D 8C 9C 10C JC", "6H QD 9D 10D JD"), ("5C", "KD"))
#: no stock top is next to a 5: stalemate right after the opening spit
STUCK = (("8C 9C 10C JC QC", "8D 9D 10D JD QD"), ("5C 5H", "5D 5S"))


def make_app(
    clock: FakeClock,
    game: Callable[[], Game] | None = None,
    start: str | None = "spit",
    timing: Timing | None = None,
    seed: int = 7,
    **kwargs,
) -> SpitApp:
    """An app on the fake clock; ``game`` deals every game (default: from the seed)."""
    settings = GameSettings(seed=seed, timing=timing or Timing())
    factory = None
    if game is not None:
        factory = lambda mode, settings, seed: game()  # noqa: E731
    return SpitApp(start=start, settings=settings, clock=clock, game_factory=factory, **kwargs)


def playable() -> SpitGame:
    return deal(*PLAYABLE)


def stuck() -> SpitGame:
    return deal(*STUCK)


def screen_of(app: SpitApp) -> GameScreen:
    screen = app.screen
    assert isinstance(screen, GameScreen), type(screen).__name__
    return screen


def region(app: SpitApp, name: str) -> str:
    """The plain text a board region shows."""
    return screen_of(app).query_one(f"#{name}").text.plain
