"""The app's screens: title menu, game board, help, pause, settings, rules, keys."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.geometry import Region
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.strip import Strip
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from spit.bots import DEFAULT_LEVEL, LEVELS
from spit.bots import MODES as BOT_MODES
from spit.engine import Phase, all_modes, mode_names
from spit.engine.modes import get_mode
from spit.play.keys import AGAIN_KEY, COACH_KEY, HELP_KEY, MENU_KEY, PAUSE_KEY, KeyMap, key_of_event
from spit.play.session import RoundSummary, Session
from spit.play.texts import SPIT_RULES, keys_text
from spit.store.resume import has_saved_games
from spit.tui.coachbox import CoachBox
from spit.tui.confirm import ConfirmScreen
from spit.tui.dealer import AppSettings, Dealer, SaveSettings
from spit.tui.messages import TUTORIAL, HostRequested, JoinRequested, PlayRequested
from spit.tui.widgets.board import Board, LineKey, TextBox, board_keys

if TYPE_CHECKING:
    # loaded when first needed, not before the first board: replays (and the
    # dialogs' and Markdown's widgets) cost start-up time a game may never use
    import argparse

    from spit.store.replays import Replay

log = logging.getLogger("spit.tui")

MIN_WIDTH = 80
MIN_HEIGHT = 24
#: the pause box's line after the app was suspended (SIGTSTP, a shell's ctrl+z)
SUSPENDED_NOTICE = "Paused while spit was suspended"
REGIONS = (
    "topbar",
    "p2-info",
    "p2-cards",
    "centre",
    "p1-cards",
    "p1-info",
    "status",
    "news",
    "flash",
    "footer",
)


class GameScreen(Screen[None]):
    """The board: both players' cards, the spit piles, the phase in words.

    The compositor asks the screen for all its lines (under the board) on
    every update; it hands back those it gave last until Textual marks it
    dirty or its size, background or the app's filters change. (Keeping
    them until a refresh only, as tried once, let the screen under it show
    through around the board, e.g. the join form at 100x30.)
    """

    BINDINGS = [  # noqa: RUF012
        Binding(HELP_KEY, "help", "Help"),
        Binding(PAUSE_KEY, "pause", "Pause"),
        Binding(MENU_KEY, "leave", "Leave"),
        Binding(AGAIN_KEY, "again", "Play again", show=False),
        Binding(COACH_KEY, "coach", "Coaching", show=False),
    ]

    class Saved(Message):
        """The background writer finished a save of this screen's game (posted from its thread)."""

    def __init__(
        self,
        mode: str,
        dealer: Dealer,
        opponents: Mapping[int, str] | None = None,
        resumed: Replay | None = None,
    ) -> None:
        super().__init__()
        self.mode = mode
        #: deals the sessions, with the app's settings and clock
        self.dealer = dealer
        #: computer levels by player number (empty: two people at the keyboard)
        self.opponents = dict(opponents or {})
        #: a saved match to carry on with (used by the first deal only)
        self.resumed = resumed
        self.session: Session | None = None
        self._timer: Timer | None = None
        self._pauses: set[str] = set()
        self.error: str | None = None
        self._painted = -1  # the session version last painted
        self._coached = False  # the summary box has been filled for this game
        self._wake_at: float | None = None  # when ``_timer`` fires
        #: the board's boxes by region (looked up once, not on every key)
        self._boxes: dict[str, TextBox] = {}
        #: the screen's own lines last handed to the compositor, and what they were for
        self._handed: tuple[tuple[object, ...], list[Strip]] | None = None

    def render_lines(self, crop: Region) -> list[Strip]:
        """The screen's own lines in ``crop``: those handed last if nothing changed since."""
        key = (crop, self.outer_size, self.background_colors, tuple(self.get_line_filters()))
        handed = self._handed
        if handed is not None and handed[0] == key:
            return handed[1]
        lines = super().render_lines(crop)
        self._handed = (key, lines)
        return lines

    def _set_dirty(self, *regions: Region) -> None:
        """Textual's own: its styles cache paints the marked lines again, and so must we."""
        self._handed = None
        super()._set_dirty(*regions)

    def compose(self) -> ComposeResult:
        with Board(id="board") as self._board:
            for region in REGIONS:
                box = self._boxes[region] = TextBox(id=region)
                yield box
        yield Static(id="too-small")
        yield CoachBox(id="coach")

    def on_mount(self) -> None:
        self.new_game()

    # ---------------------------------------------------------------- the game

    def new_game(self) -> None:
        """Deal a fresh game with the app's settings."""
        try:
            resumed, self.resumed = self.resumed, None
            self.session = self.dealer.deal(
                self.mode, self.opponents, resumed=resumed, on_saved=self._saved
            )
            if resumed is not None:  # play again deals a new game with the same players
                self.opponents = dict(self.session.levels)
        except Exception as exc:  # a bad setting or a missing mode: say so, keep running
            log.exception("cannot start a game")
            self.session = None
            self.error = f"Cannot start the game: {exc}"
            self.query_one("#status", TextBox).set(self.error + "  (Esc: menu)")
            return
        self.error = None
        self._painted = -1
        self._coached = False
        self.query_one("#coach", CoachBox).display = False
        self._pauses.discard("error")
        self.check_size()
        self.run_tick()
        if resumed is not None:
            self.show_resumed(any(p.remote for p in resumed.meta.players))

    def show_resumed(self, hosted: bool = False) -> None:
        """Say where a resumed game stands; it waits on the pause box until a player goes on.

        ``hosted``: it was a network game; it goes on here, at this keyboard, and the
        box says so before anyone plays (space goes on, Esc leaves).
        """
        session = self.session
        if session is None:
            return
        notice = resumed_notice(session, hosted)
        session.announce(notice)
        self._set_paused("user", True)
        self.app.push_screen(PauseScreen(notice), self._after_pause)

    def now(self) -> float:
        """The game clock's time."""
        return self.dealer.clock()

    def _saved(self) -> None:
        """Called on the writer's thread: repaint on the event loop."""
        self.post_message(self.Saved())

    def on_game_screen_saved(self, message: Saved) -> None:
        """A save finished: show what the archiver says (the flash line)."""
        if self.session is not None:
            self.session.changed()
            self.run_tick()

    def on_key(self, event: events.Key) -> None:
        """Game keys become timestamped inputs; everything else goes to bindings."""
        session = self.session
        if session is None:
            return
        key = key_of_event(event.key, event.character)
        if session.keymap.lookup(key) is None:
            return
        event.stop()
        event.prevent_default()
        if self._pauses:
            return
        try:
            now = self.now()
            stamp = event.time if self.dealer.real_time else now
            session.press(key, min(stamp, now), now)
        except Exception as exc:
            self.fail(exc)
            return
        self.run_tick()

    def run_tick(self) -> None:
        """Advance the game to now, repaint what changed, schedule the next wake-up."""
        session = self.session
        if session is None:
            return
        try:
            now = self.now()
            session.tick(now)
            if session.version != self._painted:
                self.repaint(now)
            self.schedule(now)
            if session.summaries and "round" not in self._pauses:
                self.show_round(session.summaries.pop(0))
            if session.game.over and not self._coached:
                self.show_coaching()
        except Exception as exc:
            self.fail(exc)

    def show_coaching(self) -> None:
        """At the game's end: the summary box (reactions, misses, closest level) over the board."""
        self._coached = True
        box = self.query_one("#coach", CoachBox)
        box.display = self.session is not None and box.show_session(self.session)

    def action_coach(self) -> None:
        """Hide or show the summary box once the game is over."""
        if self._coached:
            box = self.query_one("#coach", CoachBox)
            box.display = not box.display

    def show_round(self, summary: RoundSummary) -> None:
        """Between the rounds of a match: the round's story and the score; the game waits."""
        from spit.tui.dialogs import RoundScreen

        session = self.session
        if session is None:
            return
        game = session.game
        rule = game.info.match_rule.format(target=game.config.target_score)
        self._set_paused("round", True)
        self.app.push_screen(
            RoundScreen(summary, session.names, rule), lambda _: self._after_round()
        )

    def _after_round(self) -> None:
        self._set_paused("round", False)
        self.run_tick()

    def repaint(self, now: float | None = None) -> None:
        """Update every region whose text changed.

        Each region's key (``board_keys``) holds all its text is drawn from;
        a box whose key is the one it shows is neither drawn nor compared.
        """
        session = self.session
        if session is None:
            return
        now = self.now() if now is None else now
        self._painted = session.version
        settings = self.dealer.settings
        keys = board_keys(session, now, settings.palette)
        flash = self.flash_note(session)
        if flash is not None:
            keys["flash"] = flash
        boxes = self._boxes
        ascii_only = settings.ascii_only
        with self._board.marking():  # one refresh of the board for all the regions
            for region, key in keys.items():
                boxes[region].show(key, ascii_only)

    def flash_note(self, session: Session) -> LineKey | None:
        """What the flash line shows instead of the session's flash, if anything:
        an internal error, or what the archiver says of the finished game's save."""
        if self.error:
            return LineKey(self.error, "bold red")
        note = session.archive_message
        if note and session.flash is None and (session.game.over or "not saved" in note):
            failed = "not saved" in note
            return LineKey(
                f"{'✗' if failed else '✓'} {note[:1].upper()}{note[1:]}",
                "bold bright_red" if failed else "green",
            )
        return None

    def schedule(self, now: float) -> None:
        """Wake up when the session next has something to do (only with the real clock).

        The timer already set stays when the wake-up has not moved (most keys).
        """
        session = self.session
        wake = None
        if session is not None and not self._pauses and self.dealer.real_time:
            wake = session.next_wakeup(now)
        if wake is not None and wake == self._wake_at and self._timer is not None:
            return
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self._wake_at = wake
        if wake is None:
            return
        # A deadline already due is handled now; never spin faster than 200 Hz.
        self._timer = self.set_timer(max(0.005, wake - now), self._wake)

    def _wake(self) -> None:
        """The wake-up timer fired: it is spent; tick (which sets the next one)."""
        self._timer = None
        self._wake_at = None
        self.run_tick()

    def fail(self, exc: BaseException) -> None:
        """Something broke: keep the board, pause, and say so (never a traceback)."""
        log.exception("internal error in the game screen", exc_info=exc)
        self.error = f"Internal error ({type(exc).__name__}: {exc}). Game paused; ctrl+q quits."
        self._set_paused("error", True)
        with contextlib.suppress(Exception):  # the screen itself may be gone
            self.query_one("#flash", TextBox).set(self.error)

    # ------------------------------------------------------------------ pauses

    def _set_paused(self, reason: str, on: bool) -> None:
        session = self.session
        was = bool(self._pauses)
        if on:
            self._pauses.add(reason)
        else:
            self._pauses.discard(reason)
        if session is None:
            return
        now = self.now()
        if not was and self._pauses:
            session.pause(now)
        elif was and not self._pauses:
            session.resume(now)
        self.repaint(now)
        self.schedule(now)

    def hold(self, reason: str, on: bool) -> None:
        """Stop (or start again) the game clock for ``reason`` while a box is up."""
        self._set_paused(reason, on)

    @property
    def paused(self) -> bool:
        """True while the game clock is stopped for any reason."""
        return bool(self._pauses)

    def action_help(self) -> None:
        """Show keys and short rules; the game waits."""
        self._set_paused("help", True)
        settings = self.dealer.settings
        self.app.push_screen(
            HelpScreen(settings.keymap, settings.ascii_only),
            lambda _: self._set_paused("help", False),
        )

    def action_pause(self) -> None:
        """Pause until space is pressed again."""
        if self.session is None or self.session.game.over:
            return
        self._set_paused("user", True)
        self.app.push_screen(PauseScreen(), self._after_pause)

    def suspend(self) -> None:
        """The app is about to be suspended (SIGTSTP): pause, so that no timer runs
        out and no computer plays while the process is stopped."""
        if self.session is None or self.session.game.over or "user" in self._pauses:
            return
        self._set_paused("user", True)
        self.app.push_screen(PauseScreen(SUSPENDED_NOTICE), self._after_pause)

    def _after_pause(self, result: str | None) -> None:
        self._set_paused("user", False)
        if result == "leave":
            self.action_leave()

    @property
    def quit_note(self) -> str | None:
        """A line for the terminal if the app quits now, besides the saved-game line."""
        session = self.session
        if session is None or session.game.over or session.keeps_progress:
            return None
        if len(session.agents) == 2:
            return "spit: a game between two computer players is not kept to resume."
        return None

    @property
    def in_progress(self) -> bool:
        """True while leaving would stop a game that has begun (and is kept to resume)."""
        session = self.session
        if session is None or session.game.over:
            return False
        archiver = session.archiver
        return archiver is not None and archiver.keep_progress and archiver.begun

    def action_leave(self) -> None:
        """Esc: back to the title menu; a game in progress asks first (and is saved)."""
        if not self.in_progress:
            self.action_menu()
            return
        self._set_paused("leave", True)
        self.app.push_screen(
            ConfirmScreen(
                "Leave this game?",
                "It is saved: resume it later from the title menu (Resume a game) "
                "or with 'spit resume'.",
                yes="save and leave",
                no="keep playing",
            ),
            self._after_leave,
        )

    def _after_leave(self, leave: bool | None) -> None:
        if not leave:
            self._set_paused("leave", False)
            return
        problem = self.save_progress()
        if problem is None:
            self.action_menu()
            return
        self.app.push_screen(
            ConfirmScreen(
                "The game could not be saved",
                f"{problem[:1].upper()}{problem[1:]}. If you leave now it is lost.",
                yes="leave without saving",
                no="keep playing",
            ),
            lambda yes: self.action_menu() if yes else self._set_paused("leave", False),
        )

    def save_progress(self) -> str | None:
        """Save the unfinished game now (leaving, quitting, a signal); a problem, or None."""
        session = self.session
        if session is None or session.archiver is None:
            return None
        try:
            problem: str | None = session.archiver.save_now()
        except Exception as exc:  # never let a save stop the player from leaving
            log.exception("cannot save the game")
            return f"game not saved: {exc}"
        return problem

    def on_unmount(self) -> None:
        """However the board goes away, an unfinished game is saved."""
        self.save_progress()

    def action_menu(self) -> None:
        """Leave the game for the title menu (the game is saved, if unfinished)."""
        if self._timer is not None:
            self._timer.stop()
        self.save_progress()
        self.app.pop_screen()

    def action_again(self) -> None:
        """Play again once the game is over."""
        if self.session is None or self.session.game.phase is Phase.GAME_OVER:
            self.dealer.next_seed()
            self.new_game()

    # ------------------------------------------------------------------- sizes

    def on_resize(self, event: events.Resize) -> None:
        self.check_size()

    def check_size(self) -> None:
        """Show a message instead of a broken board when the terminal is too small."""
        width, height = self.app.size
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        board = self.query_one("#board")
        note = self.query_one("#too-small", Static)
        board.display = not small
        note.display = small
        self.query_one("#coach", CoachBox).visible = not small
        if small:
            note.update(
                f"The terminal is {width}x{height}; Spit needs at least "
                f"{MIN_WIDTH}x{MIN_HEIGHT}.\nMake the window bigger: the game is paused "
                "and goes on when it fits.\n\nctrl+q saves the game and quits."
            )
        if small != ("size" in self._pauses):
            self._set_paused("size", small)


def _markdown(text: str, ascii_only: bool) -> Widget:
    """A Markdown page, in ASCII if ``ascii_only`` (its parser loads with the first
    help or rules page)."""
    from spit.tui.markdown import page

    return page(text, ascii_only)


def resumed_notice(session: Session, hosted: bool = False) -> str:
    """'Resumed: round 3, score 12-20' for a game picked up again; for a game that
    was ``hosted`` over the network, also that it goes on here, at one keyboard."""
    game = session.game
    scores = game.scores
    score = f", score {scores[0]}–{scores[1]}" if game.is_match else ""
    notice = f"Resumed: round {game.round_no}{score}"
    if hosted:
        names = " and ".join(session.names)
        notice += (
            f". It was a network game: it goes on here, {names} both at this keyboard. "
            "To play it over the network again, leave and host a new game."
        )
    return notice


class PauseScreen(ModalScreen[str]):
    """The game is paused. Only app keys work here, never a player's game key."""

    BINDINGS = [  # noqa: RUF012
        Binding(PAUSE_KEY, "resume", "Resume"),
        Binding(AGAIN_KEY, "resume", show=False),
        Binding(HELP_KEY, "resume", show=False),
        Binding(MENU_KEY, "leave", "Leave"),
    ]

    def __init__(self, notice: str | None = None) -> None:
        """``notice``: a line above the keys (where a resumed game stands)."""
        super().__init__()
        self.notice = notice

    def compose(self) -> ComposeResult:
        text = Text.from_markup("[b]Paused[/b]\n\n")
        if self.notice:
            text = Text(f"{self.notice}\n\n", style="bold")
        text.append("space: play on   Esc: leave…\nctrl+q: save and quit")
        yield Static(text, id="pause-box")

    def action_resume(self) -> None:
        """Back to the game."""
        self.dismiss("resume")

    def action_leave(self) -> None:
        """Leave the game (the board asks first)."""
        self.dismiss("leave")


class HelpScreen(ModalScreen[None]):
    """Keys and short rules."""

    BINDINGS = [  # noqa: RUF012
        Binding(HELP_KEY, "close", "Close"),
        Binding(MENU_KEY, "close", "Close"),
        Binding(PAUSE_KEY, "close", show=False),
    ]

    def __init__(self, keymap: KeyMap, ascii_only: bool = False) -> None:
        super().__init__()
        self.keymap = keymap
        self.ascii_only = ascii_only

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box"):
            with VerticalScroll(id="help-text"):
                text = keys_text(self.keymap) + "\n\n" + SPIT_RULES
                yield _markdown(text, self.ascii_only)
            yield Static("Esc or F1: back to the game (arrows scroll)", classes="hint")

    def on_mount(self) -> None:
        self.query_one("#help-text").focus()

    def action_close(self) -> None:
        """Back to where we were."""
        self.dismiss(None)


class DocScreen(Screen[None]):
    """A page of text (rules or keys) from the title menu."""

    BINDINGS = [Binding("escape", "back", "Back"), Binding("q", "back", show=False)]  # noqa: RUF012

    def __init__(self, markdown: str, ascii_only: bool = False) -> None:
        super().__init__()
        self.markdown = markdown
        self.ascii_only = ascii_only

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="doc"):
            yield _markdown(self.markdown, self.ascii_only)
        yield Static("Esc: back   arrows: scroll", classes="hint")

    def action_back(self) -> None:
        """Back to the menu."""
        self.app.pop_screen()


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


LEVEL_TEXTS = {
    "easy": "easy     slow, plays any card it sees",
    "medium": "medium   quicker, turns up hidden cards first",
    "hard": "hard     quick, keeps piles open, never feeds you",
    "expert": "expert   fastest, thinks a move ahead",
    "match-me": "match me as fast as you, from your saved games",
}


WATCH_HEADINGS = (
    "[b]Watch[/b]: choose player 1's level (bottom)",
    "[b]Watch[/b]: choose player 2's level (top)",
)
WATCH_NOTE = "Two computer players play {game}.   Enter: choose   Esc: back"


class LevelScreen(ModalScreen[str | None]):
    """Choose the computer's level; dismisses with the level, or None."""

    BINDINGS = [Binding("escape", "cancel", "Back")]  # noqa: RUF012

    def __init__(
        self,
        default: str = DEFAULT_LEVEL,
        heading: str = "[b]Against the computer[/b]: choose its level",
        note: str = "You are Player 1 (bottom).   Enter: start   Esc: back",
        with_match_me: bool = True,
    ) -> None:
        """``with_match_me``: offer "match me" (a computer as fast as player 1)."""
        super().__init__()
        #: the level highlighted first (the settings' computer level)
        self.default = default
        self.heading = heading
        self.note = note
        from spit.store.coaching import MATCH_ME

        self.levels = (*LEVELS, MATCH_ME) if with_match_me else LEVELS

    def compose(self) -> ComposeResult:
        with Vertical(id="level-box"):
            yield Static(self.heading, classes="hint")
            yield OptionList(
                *[Option(LEVEL_TEXTS[level], id=level) for level in self.levels],
                id="levels",
            )
            yield Static(self.note, classes="hint")

    def on_mount(self) -> None:
        levels = self.query_one("#levels", OptionList)
        default = self.default
        levels.highlighted = LEVELS.index(default if default in LEVELS else DEFAULT_LEVEL)
        levels.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
