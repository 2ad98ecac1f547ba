"""Building apps for tests: a known deal, a fake clock, straight to the board."""

from __future__ import annotations

import html
import re
from collections import defaultdict
from collections.abc import Callable

from rich.text import Text
from tests.support import FakeClock, deal, to_slap  # noqa: F401 (re-exported)
from textual.pilot import Pilot

from spit.engine import AnyGame, SpitGame
from spit.realtime.arbiter import Agent, Timing
from spit.store.replays import Replay
from spit.tui.app import AppDependencies, AppSettings, GameSettings, Opening, SpitApp
from spit.tui.screens import GameScreen
from spit.tui.widgets.board import Board

#: P1's 6D fits the left pile (5C); P2's QD fits the right pile (KD); 6H fits 5C too.
PLAYABLE = (("6D 8C 9C 10C JC", "6H QD 9D 10D JD"), ("5C", "KD"))
#: no stock top is next to a 5: stalemate right after the opening spit
STUCK = (("8C 9C 10C JC QC", "8D 9D 10D JD QD"), ("5C 5H", "5D 5S"))


def make_app(
    clock: FakeClock,
    game: Callable[[], AnyGame] | None = None,
    start: str | None = "spit",
    timing: Timing | None = None,
    seed: int = 7,
    opponents: dict[int, str] | None = None,
    names: tuple[str, str] = ("Player 1", "Player 2"),
    agents: dict[int, Agent] | None = None,
    bot_seed: int | None = None,
    record: bool = True,
    resumed: Replay | None = None,
    ascii_only: bool = False,
    effects: bool = False,
) -> SpitApp:
    """An app on the fake clock; ``game`` deals every game (default: from the seed).

    ``effects``: the board's brief highlights on (off by default here: on the fake
    clock they would last until the next key, and most tests look at the rest).
    """
    settings = AppSettings(
        game=GameSettings(seed=seed, timing=timing or Timing()),
        names=names,
        ascii_only=ascii_only,
        reduce_motion=not effects,
    )
    deps = AppDependencies(clock=clock, agents=agents or {}, bot_seed=bot_seed, record=record)
    if game is not None:
        deps.game_factory = lambda mode, settings, seed: game()
    return SpitApp(settings, Opening(start, opponents or {}, resumed=resumed), deps)


async def written(app: SpitApp, pilot: Pilot[None]) -> None:
    """Wait for the app's background writes, then let the screen show what they say."""
    assert app.dealer.writer().flush(timeout=30.0)
    await pilot.pause()


async def play_from_menu(
    pilot: Pilot[None], mode: str = "spit", opponent: str | None = None
) -> None:
    """From the title menu: the game's entry, then Start on the setup screen (with
    ``opponent`` chosen there first, if given)."""
    from textual.widgets import OptionList, Select

    from spit.tui.setup import SetupScreen

    app = pilot.app
    menu = app.screen.query_one("#menu", OptionList)
    ids = [menu.get_option_at_index(i).id for i in range(menu.option_count)]
    menu.highlighted = ids.index(mode)
    await pilot.press("enter")
    await pilot.pause()
    setup = app.screen
    assert isinstance(setup, SetupScreen), type(setup).__name__
    if opponent is not None:
        setup.query_one("#setup-opponent", Select).value = opponent
        await pilot.pause()
    setup.query_one("#setup-start").focus()
    await pilot.press("enter")
    await pilot.pause()


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
    return board_text(app, name).plain


def board_text(app: SpitApp, name: str) -> Text:
    """The text a board region shows, on whatever screen has a board."""
    return app.screen.query_one(Board).text(name)


_TEXT = re.compile(
    r'<text[^>]*?x="([0-9.]+)"[^>]*?clip-path="url\(#[^)]*-line-([0-9]+)\)"[^>]*>([^<]*)</text>'
)


def screen_text(app: SpitApp) -> str:
    """What the terminal shows, line by line, read back from Textual's screenshot."""
    svg = app.export_screenshot()
    lines: dict[int, dict[int, str]] = defaultdict(dict)
    for x, line, chunk in _TEXT.findall(svg):
        text = html.unescape(chunk).replace("\xa0", " ").replace("\n", "")
        lines[int(line)][round(float(x) / 12.2)] = text
    out = []
    for number in sorted(lines):
        row = ""
        for column, chunk in sorted(lines[number].items()):
            row = row.ljust(column) + chunk
        out.append(row)
    return "\n".join(out)
