"""The title menu: the first screen, with every way into the game.

In a module of its own: the menu leads to the network screens, which are game
screens (``spit.tui.screens``), so neither module imports the other in a circle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
from spit.tui.confirm import ConfirmScreen
from spit.tui.dealer import AppSettings, SaveSettings
from spit.tui.messages import TUTORIAL, HostRequested, JoinRequested, PlayRequested
from spit.tui.screens import WATCH_HEADINGS, WATCH_NOTE, DocScreen, LevelScreen

if TYPE_CHECKING:
    import argparse

    from spit.store.replays import Replay


#: The title menu, in groups (a line between groups). To add an entry, put
#: ``(id, label)`` in a group and a ``choose_<id>`` method (dashes as
#: underscores) on ``TitleScreen``; the list scrolls, so 14 and more fit 80x24.
#: A game mode's id starts that game; ``vs-<mode>`` asks the computer's level first.
MENU: tuple[tuple[tuple[str, str], ...], ...] = (
    (
        *((mode.name, f"Play {mode.title} (two players)") for mode in all_modes()),
        *(
            (f"vs-{mode.name}", f"Play {mode.title} against the computer")
            for mode in all_modes()
            if mode.name in BOT_MODES
        ),
        *(
            (f"watch-{mode.name}", f"Watch two computers play {mode.title}")
            for mode in all_modes()
            if mode.name in BOT_MODES
        ),
    ),
    (
        ("host", "Host a game over the network"),
        ("join", "Join a game over the network"),
    ),
    (
        ("tutorial", "Tutorial"),
        ("stats", "Statistics"),
        ("replays", "Saved replays"),
        ("rules", "Rules"),
        ("keys", "Keys"),
        ("settings", "Settings"),
        ("quit", "Quit"),
    ),
)
#: shown first in the menu while an unfinished game is saved
RESUME_ENTRY = ("resume", "Resume a game")

TITLE_ART = """\
[b]▄▀▀▀ █▀▀▄ █ ▀█▀[/b]
[b] ▀▀▄ █▄▄▀ █  █ [/b]
[b]▄▄▄▀ █    █  █ [/b]
[red]♥ ♦[/] ♠ ♣

The real-time card game for two people at one keyboard."""


ASCII_TITLE_ART = """\
[b]S P I T[/b]
S H D C

The real-time card game for two people at one keyboard."""


class TitleScreen(Screen[None]):
    """The title menu: shows the ``settings`` in force; a game chosen is a ``PlayRequested``."""

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
            yield OptionList(*self.menu_options(), id="menu")
            yield Static("", id="title-settings")
            yield Static("", id="title-note")
            yield Static("arrows + Enter: choose   F1: keys   ctrl+q: quit", classes="hint")

    def on_mount(self) -> None:
        self.query_one("#menu", OptionList).focus()

    @staticmethod
    def menu_options() -> list[Option | None]:
        """The menu entries (None: a line between groups), "Resume a game" first
        while an unfinished game is saved."""
        groups = [list(group) for group in MENU]
        if has_saved_games():
            groups[0].insert(0, RESUME_ENTRY)
        options: list[Option | None] = []
        for group in groups:
            if options:
                options.append(None)
            options.extend(Option(label, id=key) for key, label in group)
        return options

    def on_screen_resume(self) -> None:
        settings = self.settings.game
        variants = " ".join(settings.variants) or "none"
        deal = "long" if settings.long_deal else "standard"
        self.query_one("#title-settings", Static).update(
            f"Spit variants: {variants}    Speed deal: {deal}"
        )
        menu = self.query_one("#menu", OptionList)
        options = [o for o in self.menu_options() if o is not None]
        if [o.id for o in options] != [
            menu.get_option_at_index(i).id for i in range(menu.option_count)
        ]:
            menu.clear_options()
            menu.add_options(self.menu_options())
            menu.highlighted = 0

    def resume_game(self) -> None:
        """Pick an unfinished game to carry on with (or delete one)."""
        from spit.tui.saved import SavedGamesScreen

        self.query_one("#title-note", Static).display = False
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
            self.post_message(PlayRequested(choice))
        elif choice.startswith("watch-"):
            self.choose_watch(choice.removeprefix("watch-"))
        elif choice.startswith("vs-"):
            mode = choice.removeprefix("vs-")
            level = self.settings.game.bot_level
            self.app.push_screen(LevelScreen(level), lambda level: self._start_vs(mode, level))
        else:
            handler = getattr(self, f"choose_{choice.replace('-', '_')}", None)
            if handler is not None:
                handler()

    def choose_resume(self) -> None:
        """Pick an unfinished game to carry on with."""
        self.resume_game()

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

    def _start_vs(self, mode: str, level: str | None) -> None:
        """Start a game against the computer at ``level`` (None: the choice was cancelled)."""
        if level is not None:
            self.post_message(PlayRequested(mode, {1: level}))

    def _start_watch(self, mode: str, first: str, second: str | None) -> None:
        if second is not None:
            self.post_message(PlayRequested(mode, {0: first, 1: second}))

    def _start_host(self, options: argparse.Namespace | None) -> None:
        """Host the game chosen in the host screen (None: cancelled)."""
        if options is not None:
            self.post_message(HostRequested(options))

    def key_f1(self) -> None:
        self.app.push_screen(DocScreen(keys_text(self.settings.keymap), self.settings.ascii_only))
