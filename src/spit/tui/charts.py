"""Charts of a person's rating over time and reaction-time spread, drawn with plotext.

No Textual here: the drawing functions take a plotext-like ``plt`` (the
``plotext`` module for ``spit stats``, a ``PlotextPlot``'s ``plt`` in the app),
so both show the same chart. One series each, with plain markers and labels,
so the charts read without colour and fit 80 columns.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

#: Width and height of a chart printed by ``spit stats`` (fits 80x24 twice over).
TEXT_SIZE = (78, 11)
#: Reaction times above this (seconds) are left out of the histogram.
MAX_SHOWN_REACTION = 5.0


@dataclass(frozen=True, slots=True)
class ChartData:
    """What the two charts show for one person."""

    name: str
    mode: str
    ratings: list[float]
    reactions: list[float]


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)) and math.isfinite(value):
        return float(value)
    return None


def rating_values(history: Any) -> list[float]:
    """The ratings, oldest first, from whatever ``rating_history`` gives.

    Each entry may be a number, an object with a ``rating`` attribute or key,
    or a tuple whose last number... is not guessed: a tuple's second item
    (``(when, rating, ...)``) is the rating. Entries without one are skipped.
    """
    out: list[float] = []
    for entry in history or ():
        value: Any = entry
        if isinstance(entry, dict):
            value = entry.get("rating")
        elif hasattr(entry, "rating"):
            value = entry.rating
        elif isinstance(entry, (tuple, list)):
            value = entry[1] if len(entry) > 1 else None
        number = _number(value)
        if number is not None:
            out.append(number)
    return out


def load_ratings(name: str, mode: str) -> list[float]:
    """The person's rating after each rated game (empty until ratings are kept)."""
    from spit.store.standings import rating_history

    try:
        return rating_values(rating_history(name, mode))
    except Exception:  # a damaged database must not stop the stats: no chart then
        return []


def load_chart_data(name: str, mode: str = "spit") -> ChartData:
    """Ratings from the records and reaction times from the saved replays."""
    from spit.store.coaching import player_reactions

    return ChartData(name, mode, load_ratings(name, mode), player_reactions(name, mode=mode))


def draw_rating(plt: Any, data: ChartData) -> None:
    """The rating after each game, as a line of dots."""
    plt.title(f"Rating of {data.name} ({data.mode}), game by game")
    if len(data.ratings) < 2:
        _empty(plt, "not enough rated games yet")
        return
    games = list(range(1, len(data.ratings) + 1))
    plt.plot(games, data.ratings, marker="dot")
    plt.xlabel("game")
    step = max(1, len(games) // 6)
    plt.xticks(games[::step])
    low, high = min(data.ratings), max(data.ratings)
    plt.yticks(_ticks(low, high, 4), [f"{t:.0f}" for t in _ticks(low, high, 4)])


def draw_reactions(plt: Any, data: ChartData) -> None:
    """How many plays took how long: a histogram of reaction times."""
    shown = [t for t in data.reactions if 0 <= t <= MAX_SHOWN_REACTION]
    plt.title(f"Reaction times of {data.name}: {len(shown)} plays")
    if len(shown) < 2:
        _empty(plt, "no plays measured yet")
        return
    bins = min(30, max(5, len(shown) // 10))
    plt.hist(shown, bins=bins)
    plt.xlabel("seconds from chance to key press")
    # The time axis starts at 0 s (plotext would pad it below the fastest
    # play, even to negative seconds), with a few round marks.
    high = max(shown) * 1.05
    plt.xlim(0, high)
    marks = time_marks(high)
    plt.xticks(marks, [f"{m:g}" for m in marks])
    tallest = max(bin_counts(shown, bins))
    ticks = sorted({round(tallest * i / 4) for i in range(5)})
    plt.yticks(ticks, [str(t) for t in ticks])


def time_marks(high: float) -> list[float]:
    """Round marks from 0 to ``high`` seconds: the finest step giving at most 7 of them."""
    step = next((s for s in (0.1, 0.2, 0.25, 0.5, 1.0, 2.0, 5.0) if high / s <= 6), 10.0)
    return [round(i * step, 2) for i in range(int(high / step + 1e-9) + 1)]


def bin_counts(values: Sequence[float], bins: int) -> list[int]:
    """How many ``values`` fall in each of ``bins`` equal bins from their min to max."""
    low, high = min(values), max(values)
    width = (high - low) / bins or 1.0
    counts = [0] * bins
    for v in values:
        counts[min(bins - 1, int((v - low) / width))] += 1
    return counts


def _empty(plt: Any, words: str) -> None:
    plt.text(words, x=0.5, y=0.5, alignment="center")
    plt.xlim(0, 1)
    plt.ylim(0, 1)
    plt.xticks([])
    plt.yticks([])


def _ticks(low: float, high: float, n: int) -> list[float]:
    if high <= low:
        return [low]
    step = (high - low) / (n - 1)
    return [low + i * step for i in range(n)]


Draw = Callable[[Any, ChartData], None]


def chart_text(draw: Draw, data: ChartData, size: tuple[int, int] = TEXT_SIZE) -> str:
    """One chart as plain text (no colour codes), for printing."""
    import plotext as plt

    plt.clear_figure()
    plt.theme("clear")
    plt.plotsize(*size)
    draw(plt, data)
    text = str(plt.uncolorize(plt.build()))
    plt.clear_figure()
    return "\n".join(line.rstrip() for line in text.splitlines())


#: the chart's own characters in plain ASCII (bars as #, frame lines as + - |)
_CHART_ASCII = str.maketrans(
    {
        **dict.fromkeys("█▉▊▋▌▍▎▏▇▆▅▄▃▂▁▀▐▔", "#"),
        **dict.fromkeys("┌┐└┘├┤┬┴┼╭╮╰╯", "+"),
        "─": "-",
        "│": "|",
        "•": "*",
    }
)


def charts_text(
    data: ChartData, size: tuple[int, int] = TEXT_SIZE, ascii_only: bool = False
) -> str:
    """Both charts, one under the other; ``ascii_only``: drawn in plain ASCII
    (``--ascii``, or an output that cannot show the block characters)."""
    text = chart_text(draw_rating, data, size) + "\n\n" + chart_text(draw_reactions, data, size)
    if ascii_only:
        from spit.play.texts import to_ascii

        text = to_ascii(text.translate(_CHART_ASCII))
    return text
