"""The charts widget: rating over time and the reaction-time histogram.

``SpeedCharts`` is embedded in the Statistics screen (``spit.tui.library``).
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual_plotext import PlotextPlot

from spit.tui.charts import ChartData, Draw, draw_rating, draw_reactions


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
