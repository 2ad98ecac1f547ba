"""The title menu: the first screen, with every way into the game.

In a module of its own: the menu leads to the network screens, which are game
screens (``spit.tui.screens``), so neither module imports the other in a circle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from spit.bots import MODES as BOT_MODES
from spit.engine import all_modes, mode_names
from spit.engine.modes import get_mode
from spit.play.texts import SPIT_RULES, keys_text
from spit.store.resume import has_saved_games
from spit.tui import MENUS_CSS_PATH
from spit.tui.confirm import ConfirmScreen
from spit.tui.dealer import AppSettings, SaveSettings
from spit.tui.messages import (
    TUTORIAL,
    HostRequested,
    JoinRequested,
    OnlineRequested,
    PlayRequested,
)
from spit.tui.screens import (
    MIN_HEIGHT,
    MIN_WIDTH,
    WATCH_HEADINGS,
    WATCH_NOTE,
    DocScreen,
    LevelScreen,
)

if TYPE_CHECKING:
    import argparse

    from spit.store.replays import Replay


#: The title menu, in groups (a line between groups), in the same order whether or
#: not games are saved. To add an entry, put ``(id, label)`` in a group and a
#: ``choose_<id>`` method (dashes as underscores) on ``TitleScreen``; at 80x24 every
#: entry shows, and a longer list scrolls with a hint saying so. A game mode's id
#: opens the setup screen for that game (opponent, rules, names).
MENU: tuple[tuple[tuple[str, str], ...], ...] = (
    (
        *((mode.name, f"Play {mode.title}: a person or the computer") for mode in all_modes()),
        *(
            (f"watch-{mode.name}", f"Watch two computers play {mode.title}")
            for mode in all_modes()
            if mode.name in BOT_MODES
        ),
    ),
    (
        ("online", "Play online: meet other players on a server"),
        ("host", "Host a game over the network"),
        ("join", "Join a game over the network"),
    ),
    (
        ("tutorial", "Tutorial: the rules in short lessons on the board"),
        ("stats", "Statistics"),
        ("replays", "Saved replays"),
        ("rules", "Rules"),
        ("keys", "Keys"),
        ("settings", "Settings"),
        ("quit", "Quit"),
    ),
)
#: first in the menu; greyed out while no unfinished game is saved
RESUME_ENTRY = ("resume", "Resume a game")
RESUME_NONE = "Resume a game (none saved)"
#: first of all on the first start (no game played or saved yet)
START_HERE = ("start-here", "New to Spit? Start here: learn it, then choose a game")
#: the title's last line, and what it says when the menu scrolls
TITLE_HINT = "arrows + Enter: choose   F1: keys   Esc: quit"
MORE_BELOW = "↓ more below   " + TITLE_HINT
MORE_ABOVE = "↑ more above   " + TITLE_HINT

#: the title: the letters (each line as wide, so that they line up centred) and a line
TITLE_ART = "\n".join(
    (
        "[b]▄▀▀▀ █▀▀▄ █ ▀█▀[/b]  [red]♥ ♦[/]",
        "[b] ▀▀▄ █▄▄▀ █  █ [/b]  ♠ ♣",
        "[b]▄▄▄▀ █    █  █ [/b]" + " " * 5,
        "The real-time card game for two people at one keyboard.",
    )
)


ASCII_TITLE_ART = """\
[b]S P I T[/b]
S H D C

The real-time card game for two people at one keyboard."""


class TitleScreen(Screen[None]):
    """The title menu: shows the ``settings`` in force; a game chosen is a ``PlayRequested``."""

    CSS_PATH = MENUS_CSS_PATH
    BINDINGS = [Binding("escape", "ask_quit", "Quit")]  # noqa: RUF012

    def __init__(self, settings: AppSettings, save_settings: SaveSettings) -> None:
        super().__init__()
        #: the app's settings in force (read, never written, here)
        self.settings = settings
        #: writes the settings file (for the settings screens)
        self.save_settings = save_settings

    def compose(self) -> ComposeResult:
        with Vertical(id="title-box"):
            art = ASCII_TITLE_ART if self.settings.ascii_only else TITLE_ART
            yield Static(art, id="title-art")
            yield Static(id="title-small")
            yield OptionList(*self.menu_options(), id="menu")
            yield Static(TITLE_HINT, id="title-hint", classes="hint")

    def on_mount(self) -> None:
        self.query_one("#menu", OptionList).focus()
        self.check_size()

    @staticmethod
    def menu_options() -> list[Option | None]:
        """The menu entries (None: a line between groups): "Resume a game" first (greyed
        out while no unfinished game is saved), or "Start here" in its place on the first
        start (when nothing can be saved yet)."""
        from spit.store.firstrun import first_run

        saved = has_saved_games()
        groups = [list(group) for group in MENU]
        options: list[Option | None] = []
        if not saved and first_run():
            options.append(Option(START_HERE[1], id=START_HERE[0]))
        else:
            key, label = RESUME_ENTRY
            options.append(Option(label if saved else RESUME_NONE, id=key, disabled=not saved))
        for i, group in enumerate(groups):
            if i:
                options.append(None)
            options.extend(Option(label, id=key) for key, label in group)
        return options

    def on_screen_resume(self) -> None:
        menu = self.query_one("#menu", OptionList)
        options = [o for o in self.menu_options() if o is not None]
        shown = [menu.get_option_at_index(i) for i in range(menu.option_count)]
        if [(o.id, o.disabled) for o in options] != [(o.id, o.disabled) for o in shown]:
            menu.clear_options()
            menu.add_options(self.menu_options())
            menu.action_first()
        self.call_after_refresh(self.show_hint)

    def on_resize(self, event: events.Resize) -> None:
        self.check_size()

    def check_size(self) -> None:
        """Below 80x24, say so where the title was (the menu still works, scrolling)."""
        width, height = self.app.size
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        self.query_one("#title-art").display = not small
        note = self.query_one("#title-small", Static)
        note.display = small
        if small:
            note.update(
                f"The terminal is {width}x{height}; spit needs at least "
                f"{MIN_WIDTH}x{MIN_HEIGHT}: make the window bigger."
            )
        above = 2 if small else TITLE_ART.count("\n") + 1  # the note or the art, and the hint
        self.query_one("#menu", OptionList).styles.max_height = max(3, height - above - 1)
        self.call_after_refresh(self.show_hint)

    def show_hint(self) -> None:
        """The last line: the keys, and whether more of the menu is above or below."""
        menu = self.query_one("#menu", OptionList)
        hint = TITLE_HINT
        if menu.scroll_y < menu.max_scroll_y:
            hint = MORE_BELOW
        elif menu.scroll_y > 0:
            hint = MORE_ABOVE
        self.query_one("#title-hint", Static).update(hint)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.call_after_refresh(self.show_hint)

    def resume_game(self) -> None:
        """Pick an unfinished game to carry on with (or delete one)."""
        from spit.tui.saved import SavedGamesScreen

        self.app.push_screen(SavedGamesScreen(), self._resume_chosen)

    def _resume_chosen(self, replay: Replay | None) -> None:
        if replay is not None:
            self.post_message(PlayRequested(replay.final.mode, resumed=replay))

    def action_ask_quit(self) -> None:
        """Esc on the title: quit, after asking."""
        self.app.push_screen(
            ConfirmScreen("Quit spit?", "Your unfinished games stay saved.", "quit", "stay"),
            lambda yes: self.app.exit() if yes else None,
        )

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        choice = event.option.id or ""
        if choice in mode_names():
            self.choose_setup(choice)
        elif choice.startswith("watch-"):
            self.choose_watch(choice.removeprefix("watch-"))
        else:
            handler = getattr(self, f"choose_{choice.replace('-', '_')}", None)
            if handler is not None:
                handler()

    def choose_resume(self) -> None:
        """Pick an unfinished game to carry on with."""
        self.resume_game()

    def choose_setup(self, mode: str | None = None) -> None:
        """The setup screen: the game (``mode`` first), opponent, rules and names."""
        from spit.tui.setup import SetupScreen

        self.app.push_screen(SetupScreen(self.settings, self.save_settings, mode))

    def choose_start_here(self) -> None:
        """The first start: the tutorial, which ends on the setup screen."""
        self.post_message(PlayRequested(TUTORIAL))

    def choose_watch(self, mode: str = "spit") -> None:
        """Two computer players of ``mode``: choose player 1's level, then player 2's."""
        note = WATCH_NOTE.format(game=get_mode(mode).title)
        level = self.settings.game.bot_level

        def second(first: str | None) -> None:
            if first is None:
                return
            self.app.push_screen(
                LevelScreen(level, WATCH_HEADINGS[1], note, with_match_me=False),
                lambda level: self._start_watch(mode, first, level),
            )

        self.app.push_screen(
            LevelScreen(level, WATCH_HEADINGS[0], note, with_match_me=False), second
        )

    def choose_host(self) -> None:
        """Host a game over the network (the host screen asks which game)."""
        from spit.tui.netscreens import HostSetupScreen

        self.app.push_screen(HostSetupScreen(), self._start_host)

    def choose_join(self) -> None:
        """Join a game hosted elsewhere (the join screen asks for the line)."""
        self.post_message(JoinRequested())

    def choose_online(self, problem: str = "") -> None:
        """A server's lobby (``spit online``): ask which server, then open it; a bad
        address asks again, saying what was wrong (``problem``)."""
        from rich.markup import escape

        from spit.net.defaults import DEFAULT_SERVER_PORT
        from spit.tui.online import AskScreen

        def chosen(answer: str | None) -> None:
            if answer is None:
                return
            from spit.net.host import split_address

            try:
                host, port = split_address(answer, DEFAULT_SERVER_PORT)
            except ValueError as exc:
                self.choose_online(f"{exc}: type the server's name, or name:port.")
                return
            self.post_message(OnlineRequested(host, port))

        note = (
            "Your SSH key is your account there (spit makes one for you if you have "
            "none). Anyone can run a server: spit server."
        )
        self.app.push_screen(
            AskScreen(
                "[b]Play online[/b]: which server?",
                f"a name or address, with :port if not {DEFAULT_SERVER_PORT}",
                f"[red]{escape(problem)}[/red]\n{note}" if problem else note,
            ),
            chosen,
        )

    def choose_stats(self) -> None:
        """The statistics, as ``spit stats`` shows them, with a person's charts."""
        from spit.tui.library import StatsScreen

        self.app.push_screen(StatsScreen(self.settings.names[0]))

    def choose_replays(self) -> None:
        """The saved replays, to pick one to watch (a ``ReplayRequested``)."""
        from spit.tui.library import ReplaysScreen

        self.app.push_screen(ReplaysScreen())

    def choose_tutorial(self) -> None:
        """Short interactive lessons on the rules."""
        self.post_message(PlayRequested(TUTORIAL))

    def choose_rules(self) -> None:
        """The rules."""
        self.app.push_screen(DocScreen(SPIT_RULES, self.settings.ascii_only))

    def choose_keys(self) -> None:
        """Both players' keys."""
        self.app.push_screen(DocScreen(keys_text(self.settings.keymap), self.settings.ascii_only))

    def choose_settings(self) -> None:
        """The settings editor."""
        from spit.tui.dialogs import SettingsScreen

        self.app.push_screen(SettingsScreen(self.settings, self.save_settings))

    def choose_quit(self) -> None:
        """Leave spit."""
        self.app.exit()

    def _start_watch(self, mode: str, first: str, second: str | None) -> None:
        if second is not None:
            self.post_message(PlayRequested(mode, {0: first, 1: second}))

    def _start_host(self, options: argparse.Namespace | None) -> None:
        """Host the game chosen in the host screen (None: cancelled)."""
        if options is not None:
            self.post_message(HostRequested(options))

    def key_f1(self) -> None:
        self.app.push_screen(DocScreen(keys_text(self.settings.keymap), self.settings.ascii_only))
