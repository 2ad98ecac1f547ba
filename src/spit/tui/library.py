"""Screens for what was kept: the statistics (with charts) and the saved replays (title menu)."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from spit.engine import get_mode, mode_names
from spit.store.paths import data_dir_problem, replay_dir
from spit.store.records import RecordsError, compute_stats, load_results
from spit.store.replay_list import SavedReplay, saved_replays
from spit.store.replays import ReplayFileError, load_replay
from spit.tui import MENUS_CSS_PATH
from spit.tui.charts import ChartData, load_chart_data
from spit.tui.messages import ReplayRequested
from spit.tui.tables import stats_renderable
from spit.tui.widgets.charts import SpeedCharts


class StatsScreen(Screen[None]):
    """What ``spit stats`` shows (wins, losses, streaks, fastest wins), then one
    person's charts: rating over time and reaction times, for Spit or Speed."""

    CSS_PATH = MENUS_CSS_PATH
    BINDINGS = [  # noqa: RUF012
        Binding("escape", "back", "Back"),
        Binding("q", "back", show=False),
        Binding("tab", "switch_mode", "Spit/Speed", priority=True),
        Binding("p", "next_person", "next player"),
    ]

    DEFAULT_CSS = """
    StatsScreen SpeedCharts { height: 30; }
    StatsScreen SpeedCharts PlotextPlot { height: 15; }
    """

    def __init__(self, player: str = "Player 1", data: ChartData | None = None) -> None:
        """The statistics; charts of ``player`` (the settings' player 1) first, or
        the given ``data`` (tests)."""
        super().__init__()
        self.player = player
        self.data = data
        self.mode = data.mode if data is not None else "spit"
        #: the people whose charts ``p`` steps through (player 1's name first)
        self.people: list[str] = [data.name] if data is not None else []
        self.person = 0

    def compose(self) -> ComposeResult:
        yield Static(
            "[b]Statistics[/b]   tab: Spit/Speed   p: next player   Esc: back   arrows: scroll",
            classes="hint",
        )
        with VerticalScroll(id="stats-box"):
            yield Static(self.body(), id="stats")
            yield Static("", id="charts-title")
            yield SpeedCharts(id="stats-charts")

    def on_mount(self) -> None:
        if not self.people:
            first = self.player
            self.people = [first, *(n for n in self.names_in_records() if n != first)]
        self.query_one("#stats-box").focus()
        self.redraw()

    @staticmethod
    def names_in_records() -> list[str]:
        """The people (not computer levels) in the results, most games first."""
        try:
            results, skipped = load_results()
        except RecordsError:
            return []
        return [t.label for t in compute_stats(results, skipped).players]

    def redraw(self) -> None:
        """Load (unless given) and draw the charts of the chosen person and game."""
        name = self.people[self.person]
        data = self.data
        if data is None or data.mode != self.mode or data.name != name:
            data = load_chart_data(name, self.mode)
            self.data = data
        title = get_mode(self.mode).title
        more = (
            f"   (player {self.person + 1} of {len(self.people)})" if len(self.people) > 1 else ""
        )
        self.query_one("#charts-title", Static).update(
            Text.assemble("\n", (data.name, "bold"), f": {title}, rating and reaction times{more}")
        )
        self.query_one("#stats-charts", SpeedCharts).show(data)

    def action_switch_mode(self) -> None:
        """Show the next game's charts (every registered mode in turn)."""
        names = mode_names()
        at = names.index(self.mode) if self.mode in names else -1
        self.mode = names[(at + 1) % len(names)]
        self.redraw()

    def action_next_person(self) -> None:
        """Show the next person's charts."""
        self.person = (self.person + 1) % len(self.people)
        self.redraw()

    @staticmethod
    def body() -> RenderableType:
        """The tables, or why there are none."""
        try:
            results, skipped = load_results()
        except RecordsError as exc:
            return Text(f"Cannot read the results: {exc}", style="bold red")
        stats = compute_stats(results, skipped)
        notes = []
        if stats.skipped:
            notes.append(f"{stats.skipped} damaged result(s) could not be read and were skipped.")
        if stats.computer_only:
            notes.append(
                f"{stats.computer_only} game(s) between two computer players are not counted."
            )
        return Group(
            stats_renderable(stats, "Play one from the menu."),
            *(Text(note, style="yellow") for note in notes),
        )

    def action_back(self) -> None:
        """Back to the menu."""
        self.app.pop_screen()


def replay_line(entry: SavedReplay) -> Text:
    """One saved replay in the list: date, game, players, result (names as typed)."""
    who = f"{entry.players}: " if entry.players else ""
    return Text(f"{entry.date}  {entry.mode or '?':5}  {who}{entry.result}", no_wrap=True)


class ReplaysScreen(Screen[None]):
    """The saved replays, newest first; Enter watches one (a ``ReplayRequested``)."""

    CSS_PATH = MENUS_CSS_PATH
    BINDINGS = [Binding("escape", "back", "Back")]  # noqa: RUF012

    def __init__(self) -> None:
        super().__init__()
        self.entries: list[SavedReplay] = []

    def compose(self) -> ComposeResult:
        yield Static("[b]Saved replays[/b] (newest first)", classes="hint")
        yield OptionList(id="replays")
        yield Static("", id="replays-note")
        yield Static("arrows + Enter: watch   Esc: back", classes="hint")

    def on_mount(self) -> None:
        note = self.query_one("#replays-note", Static)
        problem = data_dir_problem()
        self.entries = [] if problem else saved_replays()
        replays = self.query_one("#replays", OptionList)
        replays.add_options([Option(replay_line(e), id=str(i)) for i, e in enumerate(self.entries)])
        if problem:
            note.update(Text(f"Cannot list the replays: {problem}", style="bold red"))
        elif not self.entries:
            note.update(Text(f"No saved replays yet. Finished games are saved in {replay_dir()}"))
        else:
            note.update(Text(f"{len(self.entries)} replay(s) in {replay_dir()}"))
            replays.highlighted = 0
        replays.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        entry = self.entries[int(event.option.id or 0)]
        try:
            replay = load_replay(entry.path)
        except ReplayFileError as exc:
            note = self.query_one("#replays-note", Static)
            note.update(Text(f"Cannot open it: {exc}", style="bold red"))
            return
        self.post_message(ReplayRequested(replay))

    def action_back(self) -> None:
        """Back to the menu."""
        self.app.pop_screen()
