"""Start-up loads only what the first screen needs: no SQLite, bots, replays or simulator.

``spit play`` goes straight to a board; everything else is loaded when it is
first needed (docs/architecture.md, "Start-up"). Each module named here was
once loaded at start-up: a test fails if it comes back.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"

#: modules a game needs only later: when it ends (records), when a bot plays,
#: when a replay or saved game is read or written, when ``spit sim`` runs
LATER = (
    "sqlite3",
    "spit.store.records",
    "spit.store.replays",
    "spit.bots.bot",
    "spit.bots.spit_strategy",
    "spit.bots.speed_strategy",
    "spit.bots.sim",
    "rich.progress",
    "spit.tui.dialogs",
    "markdown_it",
)

#: what the first board does not need: the later modules, except the replay
#: format (the archiver keeps the game in progress from its deal on), and the
#: network (the SSH library alone took longer to import than the rest of
#: start-up), coaching and match-me, tomlkit (reading the settings takes
#: ``tomllib``; tomlkit only writes them), the tutorial and the replay viewer,
#: hashlib (a game's fingerprint is taken when it is saved)
NOT_FOR_THE_FIRST_BOARD = (
    *(name for name in LATER if name != "spit.store.replays"),
    "tomlkit",
    "tomllib",  # no settings file here: nothing to read
    "asyncssh",
    "cryptography",
    "spit.net.host",
    "spit.net.client",
    "spit.net.runner",
    "spit.net.protocol",
    "spit.net.match",
    "spit.tui.netscreens",
    "spit.store.coaching",
    "spit.play.coach",
    "spit.tui.tutorial",
    "spit.play.tutorial",
    "spit.tui.viewer",
    "hashlib",
    "spit.play.views",  # Protocols for the type checker only
    # the title menu's first-start check, the setup screen, the tutorial's lesson list,
    # the last table of a finished game and the coach's moments
    "spit.store.firstrun",
    "spit.tui.setup",
    "spit.tui.lessons",
    "spit.play.endtable",
    "spit.tui.moments",
    # the title menu (built when ``spit play``'s board goes), and the pretty traceback
    # with Pygments (Textual imports them for an uncaught error): some 20 ms of start-up
    "spit.tui.title",
    "rich.traceback",
    "pygments",
)


def _loaded(code: str, names: tuple[str, ...], tmp: Path) -> list[str]:
    """Which of ``names`` are in ``sys.modules`` after ``code`` ran in a fresh interpreter."""
    code += "\nprint(' '.join(sorted(m for m in sys.modules if m in set(sys.argv[1:]))))\n"
    out = subprocess.run(
        [sys.executable, "-c", code, *names],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        env={
            "PYTHONPATH": str(SRC),
            "PATH": "",
            "SPIT_DATA_DIR": str(tmp / "data"),
            "SPIT_CONFIG": str(tmp / "config.toml"),
        },
    )
    return out.stdout.split()


def test_the_command_line_and_the_app_load_none_of_the_later_modules(tmp_path: Path) -> None:
    code = "import sys\nimport spit.cli, spit.tui.launch, spit.tui.app\n"
    assert _loaded(code, LATER, tmp_path) == []


#: ``spit play --seed 7`` up to its first board, with the app run headless
#: (Textual's ``run_test``) in place of the terminal
FIRST_BOARD = """
import asyncio, sys
from pathlib import Path
import spit.tui.launch as launch
from spit.tui import MENUS_CSS_PATH
from spit.cli import main

async def headless(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert type(app.screen).__name__ == "GameScreen", app.screen
        assert app.screen.session is not None
        # the menus' styles are read when the first menu screen opens, not for the board
        here = Path(launch.__file__).parent
        assert app.stylesheet.has_source(str(here / "spit.tcss"))
        assert not app.stylesheet.has_source(str(here / MENUS_CSS_PATH))

def run(app):
    asyncio.run(headless(app))
    return 0

launch.run = run
assert main(["play", "--seed", "7"]) == 0
"""


def test_spit_play_reaches_its_first_board_without_the_later_modules(tmp_path: Path) -> None:
    assert _loaded(FIRST_BOARD, NOT_FOR_THE_FIRST_BOARD, tmp_path) == []


def test_the_bots_modes_are_the_strategies_modes() -> None:
    from spit.bots import MODES, strategies

    assert tuple(strategies()) == MODES
