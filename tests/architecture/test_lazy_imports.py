"""Start-up loads only what the first screen needs: no SQLite, bots, replays or simulator."""

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


def test_the_command_line_and_the_app_load_none_of_the_later_modules() -> None:
    code = (
        "import sys\n"
        "import spit.cli, spit.tui.launch, spit.tui.app\n"
        "print(' '.join(sorted(m for m in sys.modules if m in set(sys.argv[1:]))))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, *LATER],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        env={"PYTHONPATH": str(SRC), "PATH": ""},
    )
    assert out.stdout.split() == []


def test_the_bots_modes_are_the_strategies_modes() -> None:
    from spit.bots import MODES, strategies

    assert tuple(strategies()) == MODES
