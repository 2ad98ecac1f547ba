"""The saved replays, newest first, each with its date, players and result.

The results database knows who played and who won each recorded game; a
replay it does not know (``spit sim --save-replays`` into this folder, or a
copied file) is still listed, by its file's date.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from spit.engine import mode_names
from spit.store.paths import replay_dir
from spit.store.records import GameResult, RecordsError, load_results


@dataclass(frozen=True, slots=True)
class SavedReplay:
    """One replay file as the lists show it."""

    path: Path
    date: str  #: "2025-01-31 18:05"
    mode: str  #: "spit", "speed", or "" when unknown
    players: str  #: "Ann vs Computer (hard)", or "" when unknown
    result: str  #: "Ann won", "draw", or "result not recorded"


def result_words(result: GameResult) -> str:
    """Who won a recorded game, in words (with the score of a match)."""
    score = f" {result.scores[0]}-{result.scores[1]}" if result.scores is not None else ""
    if result.winner is None:
        return f"draw{score}"
    return f"{result.players[result.winner].label} won{score}"


def saved_replays(folder: Path | None = None) -> list[SavedReplay]:
    """Every ``*.json`` replay in ``folder`` (default: the replay folder), newest first."""
    folder = folder if folder is not None else replay_dir()
    try:
        files = [p for p in folder.glob("*.json") if p.is_file()]
    except OSError:
        return []
    try:
        results, _ = load_results()
    except RecordsError:
        results = []
    known = {r.replay: r for r in results if r.replay}
    out: list[tuple[str, SavedReplay]] = []
    for path in files:
        result = known.get(path.name)
        if result is not None:
            when = result.finished_at
            date = _local(when)
            entry = SavedReplay(
                path,
                date,
                result.mode,
                " vs ".join(p.label for p in result.players),
                result_words(result),
            )
        else:
            try:
                stamp = datetime.fromtimestamp(path.stat().st_mtime).astimezone()
            except (OSError, ValueError, OverflowError):
                continue
            when = stamp.isoformat()
            parts = path.stem.split("-")
            mode = next((m for m in mode_names() if m in parts), "")
            date = stamp.strftime("%Y-%m-%d %H:%M")
            entry = SavedReplay(path, date, mode, "", "result not recorded")
        out.append((_sort_key(when), entry))
    out.sort(key=lambda pair: (pair[0], pair[1].path.name), reverse=True)
    return [entry for _, entry in out]


def _local(iso: str) -> str:
    try:
        return datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return iso[:16].replace("T", " ")


def _sort_key(iso: str) -> str:
    try:
        return datetime.fromisoformat(iso).astimezone().isoformat()
    except ValueError:
        return iso


def find_replay(given: Path, entries: list[SavedReplay] | None = None) -> Path:
    """The replay a person named: a path to a file, a name as ``spit replay`` lists it
    (with or without ``.json``), or its number in that list (1 is the newest).

    A name that is none of these comes back as it was, so that opening it gives
    the usual "no such file" message.
    """
    if given.is_file():
        return given
    text = str(given)
    if given.parent != Path("."):  # a path somewhere else: only that file is meant
        return given
    listed = entries if entries is not None else saved_replays()
    if text.isdigit() and 1 <= int(text) <= len(listed):
        return listed[int(text) - 1].path
    for entry in listed:
        if text in (entry.path.name, entry.path.stem):
            return entry.path
    return given
