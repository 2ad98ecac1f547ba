"""Screens for what was kept: the statistics and the saved replays (title menu)."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from spit.store.paths import data_dir_problem, replay_dir
from spit.store.records import RecordsError, compute_stats, load_results
from spit.store.replay_list import SavedReplay, saved_replays
from spit.store.replays import ReplayFileError, load_replay
from spit.tui.tables import stats_renderable


class StatsScreen(Screen[None]):
    """What ``spit stats`` shows: wins, losses, streaks and fastest wins."""

    BINDINGS = [Binding("escape", "back", "Back"), Binding("q", "back", show=False)]  # noqa: RUF012

    def compose(self) -> ComposeResult:
        yield Static("[b]Statistics[/b]   Esc: back   arrows: scroll", classes="hint")
        with VerticalScroll(id="stats-box"):
            yield Static(self.body(), id="stats")

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
    """The saved replays, newest first; Enter watches one."""

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
        from spit.tui.viewer import ReplayScreen

        entry = self.entries[int(event.option.id or 0)]
        try:
            replay = load_replay(entry.path)
        except ReplayFileError as exc:
            note = self.query_one("#replays-note", Static)
            note.update(Text(f"Cannot open it: {exc}", style="bold red"))
            return
        self.app.push_screen(ReplayScreen(replay))

    def action_back(self) -> None:
        """Back to the menu."""
        self.app.pop_screen()
