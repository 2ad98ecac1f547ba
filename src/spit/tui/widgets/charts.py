"""The charts widget and screen: rating over time and the reaction-time histogram.

``SpeedCharts`` can be embedded in any screen (a stats screen); ``ChartsScreen``
shows it on its own for player 1 (the title menu's "Your speed and rating").
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static
from textual_plotext import PlotextPlot

from spit.tui.charts import ChartData, Draw, draw_rating, draw_reactions, load_chart_data


class SpeedCharts(Vertical):
    """Two charts, one above the other: the rating line and the reaction histogram."""

    DEFAULT_CSS = """
    SpeedCharts { height: 1fr; }
    SpeedCharts PlotextPlot { height: 1fr; }
    """

    def compose(self) -> ComposeResult:
        yield PlotextPlot(id="rating-chart")
        yield PlotextPlot(id="reaction-chart")

    def show(self, data: ChartData) -> None:
        """Draw ``data`` into both charts."""
        for plot_id, draw in (("#rating-chart", draw_rating), ("#reaction-chart", draw_reactions)):
            self._draw(self.query_one(plot_id, PlotextPlot), draw, data)

    @staticmethod
    def _draw(plot: PlotextPlot, draw: Draw, data: ChartData) -> None:
        plot.plt.clear_figure()
        draw(plot.plt, data)
        plot.refresh()


class ChartsScreen(Screen[None]):
    """A person's charts; ``tab`` switches between Spit and Speed, Esc goes back."""

    BINDINGS = [  # noqa: RUF012
        Binding("escape", "back", "Back"),
        Binding("tab", "switch", "Spit/Speed", priority=True),
    ]

    def __init__(self, name: str | None = None, data: ChartData | None = None) -> None:
        """Charts of ``name`` (default: player 1), or of the given ``data`` (tests)."""
        super().__init__()
        self.person = name
        self.data = data
        self.mode = data.mode if data is not None else "spit"

    def compose(self) -> ComposeResult:
        yield Static("", id="charts-title")
        yield SpeedCharts(id="charts")
        yield Static("tab: Spit/Speed   Esc: back", classes="hint")

    def on_mount(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        """Load (unless given) and draw the charts for the current mode."""
        data = self.data
        if data is None or data.mode != self.mode:
            name = self.person or self.app.names[0]  # type: ignore[attr-defined]
            data = load_chart_data(name, self.mode)
            self.data = data
        title = "Spit" if self.mode == "spit" else "Speed"
        self.query_one("#charts-title", Static).update(
            Text.assemble((data.name, "bold"), f": {title}, rating and reaction times")
        )
        self.query_one("#charts", SpeedCharts).show(data)

    def action_switch(self) -> None:
        """Show the other game's charts."""
        self.mode = "speed" if self.mode == "spit" else "spit"
        self.redraw()

    def action_back(self) -> None:
        """Back to where the screen was opened from."""
        self.app.pop_screen()
