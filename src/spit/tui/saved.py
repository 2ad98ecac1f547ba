"""The title menu's "Resume a game": every unfinished game, to pick one or delete one."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from spit.store.paths import saved_dir
from spit.store.replays import Replay
from spit.store.resume import SavedGame, delete_saved_game, list_saved_games
from spit.tui import MENUS_CSS_PATH
from spit.tui.confirm import ConfirmScreen

HINT = "Enter: resume   Del or d: delete   Esc: back"


class SavedGamesScreen(Screen[Replay | None]):
    """The unfinished games, most recent first; dismisses with the one to resume, or None.

    A file that cannot be read is listed with the reason and can be deleted.
    """

    CSS_PATH = MENUS_CSS_PATH
    BINDINGS = [  # noqa: RUF012
        Binding("escape", "back", "Back"),
        Binding("delete", "delete", "Delete"),
        Binding("d", "delete", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.games: list[SavedGame] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="saved-box"):
            yield Static("[b]Unfinished games[/b] (most recent first)", classes="box-title")
            yield OptionList(id="saved-list")
            yield Static("", id="saved-note")
            yield Static(HINT, classes="hint", id="saved-hint")

    def on_mount(self) -> None:
        self.reload()
        self.query_one("#saved-list", OptionList).focus()

    def reload(self, keep: int = 0) -> None:
        """Read the saved-games folder again and show what is there."""
        self.games = list_saved_games()
        listing = self.query_one("#saved-list", OptionList)
        listing.clear_options()
        for n, game in enumerate(self.games, start=1):
            style = "" if game.ok else "red"
            listing.add_option(Option(Text(f"{n}. {game.describe()}", style=style), id=game.id))
        if self.games:
            listing.highlighted = min(keep, len(self.games) - 1)
            self.say(f"Kept in {saved_dir()}")
        else:
            self.say("There are no unfinished games.")

    def say(self, text: str, error: bool = False) -> None:
        """One line under the list."""
        self.query_one("#saved-note", Static).update(Text(text, style="bold red" if error else ""))

    def current(self) -> SavedGame | None:
        """The highlighted game."""
        index = self.query_one("#saved-list", OptionList).highlighted
        if index is None or not 0 <= index < len(self.games):
            return None
        return self.games[index]

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        game = self.current()
        if game is None:
            return
        if game.replay is None:
            self.say(f"Cannot resume {game.id}: {game.problem}. d deletes it.", error=True)
            return
        self.dismiss(game.replay)

    def action_delete(self) -> None:
        """Delete the highlighted game, after asking."""
        game = self.current()
        if game is None:
            return
        what = game.describe()
        self.app.push_screen(
            ConfirmScreen("Delete this saved game?", what, "delete it", "keep it"),
            lambda yes: self._delete(game, bool(yes)),
        )

    def _delete(self, game: SavedGame, yes: bool) -> None:
        if not yes:
            return
        index = self.games.index(game) if game in self.games else 0
        try:
            delete_saved_game(game)
        except OSError as exc:
            self.say(f"Not deleted: {game.path}: {exc.strerror or exc}", error=True)
            return
        self.reload(keep=index)
        self.say(f"Deleted {game.id}.")

    def action_back(self) -> None:
        """Back to the title menu."""
        self.dismiss(None)
