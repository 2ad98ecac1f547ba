"""The rating and reaction-time charts: plain text for ``spit stats``, a screen in the app."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from tests.support import FakeClock
from tests.support.pilot import running
from textual.widgets import OptionList
from textual_plotext import PlotextPlot
from tui_helpers import make_app

from spit.store import records, standings
from spit.tui.charts import (
    ChartData,
    bin_counts,
    chart_text,
    charts_text,
    draw_rating,
    draw_reactions,
    load_ratings,
    rating_values,
    time_marks,
)
from spit.tui.library import StatsScreen

ANSI = re.compile(r"\x1b\[")
DATA = ChartData(
    "Ann", "spit", [1500.0, 1512.5, 1530.0, 1521.0, 1544.0], [0.5] * 10 + [1.0] * 3 + [1.5] * 2
)


def test_rating_history_entries_of_any_plain_shape_become_ratings() -> None:
    history = [1500, {"rating": 1510.5}, SimpleNamespace(rating=1490.0), ("2025-01-01", 1520)]
    history += [("only a date",), {"rd": 30}, float("nan"), True]
    assert rating_values(history) == [1500.0, 1510.5, 1490.0, 1520.0]
    assert rating_values(None) == []


def test_ratings_come_from_the_records_when_it_keeps_them(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, str]] = []

    def history(name: str, mode: str) -> list[tuple[str, float]]:
        calls.append((name, mode))
        return [("a", 1500.0), ("b", 1520.0)]

    monkeypatch.setattr(standings, "rating_history", history)
    assert load_ratings("Ann", "speed") == [1500.0, 1520.0]
    assert calls == [("Ann", "speed")]

    def broken(name: str, mode: str) -> list[float]:
        raise records.RecordsError("database is damaged")

    monkeypatch.setattr(standings, "rating_history", broken)
    assert load_ratings("Ann", "spit") == []


def test_charts_are_plain_text_within_80_columns() -> None:
    text = charts_text(DATA)
    assert not ANSI.search(text)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "Rating of Ann (spit)" in text and "game" in text
    assert "Reaction times of Ann: 15 plays" in text and "seconds" in text
    assert len(text.splitlines()) <= 24


def test_charts_in_ascii_keep_their_bars_and_frames() -> None:
    """Where the output cannot show block characters (LC_ALL=C, --ascii) the charts
    are drawn in ASCII, not as rows of '?'."""
    text = charts_text(DATA, ascii_only=True)
    assert text.isascii() and "?" not in text
    assert "#" in text and "+" in text and "|" in text
    assert "Reaction times of Ann: 15 plays" in text


def test_the_histogram_counts_each_bin() -> None:
    assert bin_counts([0.5] * 10 + [1.0] * 3 + [1.5] * 2, 5) == [10, 0, 3, 0, 2]
    text = chart_text(draw_reactions, DATA)
    labels = [line.split("┤")[0].strip() for line in text.splitlines() if "┤" in line]
    assert labels[0] == "10" and labels[-1] == "0"  # whole numbers, the tallest bar on top


def test_empty_charts_say_so() -> None:
    empty = ChartData("Bob", "spit", [1500.0], [])
    assert "not enough rated games yet" in chart_text(draw_rating, empty)
    assert "no plays measured yet" in chart_text(draw_reactions, empty)


async def test_the_statistics_screen_shows_the_charts(clock: FakeClock) -> None:
    app = make_app(clock, start=None)
    async with running(app) as pilot:
        menu = app.screen.query_one("#menu", OptionList)
        ids = [menu.get_option_at_index(i).id for i in range(menu.option_count)]
        assert "charts" not in ids  # no separate entry: the charts are in Statistics
        menu.highlighted = ids.index("stats")
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        assert screen.data is not None and screen.data.name == "Player 1"
        assert len(screen.query(PlotextPlot)) == 2
        assert "Player 1: Spit" in str(screen.query_one("#charts-title").render())
        await pilot.press("tab")
        assert screen.mode == "speed" and screen.data.mode == "speed"
        assert "Player 1: Speed" in str(screen.query_one("#charts-title").render())
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, StatsScreen)


async def test_the_statistics_charts_step_through_the_people(
    clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(StatsScreen, "names_in_records", staticmethod(lambda: ["Ann", "Player 1"]))
    app = make_app(clock, start=None)
    async with running(app) as pilot:
        app.push_screen(StatsScreen())
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        assert screen.people == ["Player 1", "Ann"]
        await pilot.press("p")
        assert screen.data is not None and screen.data.name == "Ann"
        assert "Ann: Spit" in str(screen.query_one("#charts-title").render())


def test_the_time_axis_starts_at_zero_with_round_marks() -> None:
    """plotext pads a histogram's axis below its lowest value (it showed -0.2 s):
    the reaction axis runs from 0 s and is marked at round times only."""
    assert time_marks(0.5) == [0.0, 0.1, 0.2, 0.3, 0.4, 0.5]
    assert time_marks(0.74) == [0.0, 0.2, 0.4, 0.6]
    assert time_marks(2.6) == [0.0, 0.5, 1.0, 1.5, 2.0, 2.5]
    data = ChartData("Ann", "spit", [], [0.3 + i * 0.01 for i in range(40)])
    text = chart_text(draw_reactions, data)
    axis = next(line for line in text.splitlines() if line.strip().startswith("0 "))
    marks = [float(m) for m in axis.split()]
    assert marks[0] == 0 and all(m >= 0 for m in marks)
    assert marks == sorted(marks) and len(marks) >= 3
