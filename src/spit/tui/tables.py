"""The statistics as Rich tables, for ``spit stats`` and the statistics screen.

Only Rich here (no Textual), so the command line can print them quickly.
Every name is shown as typed, never read as markup.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from spit.store.records import Stats, Tally


def duration_text(seconds: float | None) -> str:
    """``95.0`` -> ``'1:35'``; None -> ``'-'``."""
    if seconds is None:
        return "-"
    minutes, secs = divmod(round(seconds), 60)
    return f"{minutes}:{secs:02d}"


def tally_table(title: str, first: str, tallies: list[Tally]) -> Table:
    """One table of records: a row per player (or per computer level)."""
    table = Table(title=title, title_justify="left")
    table.add_column(first)
    for name in ("Played", "Won", "Lost", "Drawn", "Streak", "Best streak"):
        table.add_column(name, justify="right")
    table.add_column("Fastest win", justify="right")
    for t in tallies:
        table.add_row(
            Text(t.label),  # what someone typed: never markup
            str(t.played),
            str(t.wins),
            str(t.losses),
            str(t.draws),
            str(t.current_streak),
            str(t.longest_streak),
            duration_text(t.fastest_win),
        )
    return table


def fastest_text(stats: Stats) -> str | None:
    """The line about the fastest win (plain text, names as typed), or None."""
    f = stats.fastest_win
    if not f:
        return None
    return (
        f"Fastest win: {f['winner']} beat {f['loser']} in {duration_text(f['seconds'])} "
        f"({f['mode']} {f['kind']}, {f['finished_at'][:10]})"
    )


def stats_renderable(stats: Stats, empty_hint: str) -> RenderableType:
    """Everything ``spit stats`` shows, as one renderable."""
    parts: list[RenderableType] = []
    if not stats.results:
        parts.append(Text(f"No finished games yet. {empty_hint}"))
    if stats.players:
        parts.append(tally_table("Players", "Name", stats.players))
    if stats.bots:
        parts.append(tally_table("Computer opponents", "Bot level", stats.bots))
    fastest = fastest_text(stats)
    if fastest:
        parts.append(Text(fastest))
    return Group(*parts)
