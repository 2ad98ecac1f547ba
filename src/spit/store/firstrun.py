"""Whether spit is started for the first time: no game recorded, replayed or saved yet.

A quick look at the data folder (nothing is opened or loaded), for the title
menu's "New to Spit? Start here".
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from spit.store.paths import database_path, replay_dir
from spit.store.resume import has_saved_games


def _has_files(folder: Path) -> bool:
    with contextlib.suppress(OSError):
        return any(not p.name.startswith(".") for p in folder.iterdir())
    return False


def first_run() -> bool:
    """True while no finished game is recorded, no replay kept and no game saved."""
    return not (database_path().exists() or _has_files(replay_dir()) or has_saved_games())
