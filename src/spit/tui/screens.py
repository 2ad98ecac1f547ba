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
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from spit.bots import DEFAULT_LEVEL, LEVELS
from spit.engine import Phase
from spit.play.controller import GameController
from spit.play.effects import Effects
from spit.play.keys import (
    AGAIN_KEY,
    COACH_KEY,
    HELP_KEY,
    MENU_KEY,
    MOMENTS_KEY,
    PAUSE_KEY,
    KeyMap,
    key_of_event,
)
from spit.play.session import RoundSummary, Session
from spit.play.texts import SPIT_RULES, keys_text
from spit.tui.coachbox import HIDDEN, CoachBox
from spit.tui.collector import AFTER_FRAME, collect_due, older_pass_near
from spit.tui.confirm import ConfirmScreen
from spit.tui.dealer import Dealer
from spit.tui.widgets.board import Board, LineKey, RegionKey, board_keys

if TYPE_CHECKING:
    # loaded when first needed, not before the first board: replays (and the
    # dialogs' and Markdown's widgets) cost start-up time a game may never use

    from spit.store.replays import Replay

log = logging.getLogger("spit.tui")

MIN_WIDTH = 80
MIN_HEIGHT = 24
#: the pause box's line after the app was suspended (SIGTSTP, a shell's ctrl+z)
SUSPENDED_NOTICE = "Paused while spit was suspended"


class GameScreen(Screen[None]):
    """The board: both players' cards, the spit piles, the phase in words.

    The screen only draws: its ``GameController`` (``spit.play.controller``)
    runs the game's ticks, wake-ups, pauses, saving and coaching; the screen
    turns keys into its inputs and draws what it is told.
    """

    BINDINGS = [  # noqa: RUF012
        Binding(HELP_KEY, "help", "Help"),
        Binding(PAUSE_KEY, "pause", "Pause"),
        Binding(MENU_KEY, "leave", "Leave"),
        Binding(AGAIN_KEY, "again", "Play again", show=False),
        Binding(COACH_KEY, "coach", "Coaching", show=False),
        Binding(MOMENTS_KEY, "moments", "Moments", show=False),
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
        #: runs the game for this screen (None: no game, e.g. it could not be dealt)
        self.controller: GameController | None = None
        self._wake_timer: Timer | None = None
        self._wake_at: float | None = None  # when ``_wake_timer`` fires
        self._collect_timer: Timer | None = None  # the collector's pass after a frame
        #: pauses asked for before there is a controller (kept for the next game)
        self._early_pauses: set[str] = set()
        self.error: str | None = None

    def compose(self) -> ComposeResult:
        self._board = Board(id="board")
        yield self._board
        yield Static(id="too-small")
        yield CoachBox(id="coach")

    @property
    def board(self) -> Board:
        """The board this screen draws on."""
        return self._board

    def on_mount(self) -> None:
        self.new_game()

    # ---------------------------------------------------------------- the game

    def new_game(self) -> None:
        """Deal a fresh game with the app's settings."""
        try:
            resumed, self.resumed = self.resumed, None
            session = self.dealer.deal(
                self.mode, self.opponents, resumed=resumed, on_saved=self._saved
            )
            if resumed is not None:  # play again deals a new game with the same players
                self.opponents = dict(session.levels)
        except Exception as exc:  # a bad setting or a missing mode: say so, keep running
            log.exception("cannot start a game")
            self.session = None
            self.controller = None
            self.error = f"Cannot start the game: {exc}"
            self._board.show({"status": self.error + "  (Esc: menu)"})
            return
        self.start(session)
        if resumed is not None:
            self.show_resumed(any(p.remote for p in resumed.meta.players))

    def start(self, session: Session) -> None:
        """Play ``session`` on this board (a new controller; the screen's pauses carry over)."""
        old = self.controller
        pauses = set(old.pauses if old is not None else self._early_pauses) - {"error"}
        settings = self.dealer.settings
        user = settings.user
        self.session = session
        self.controller = GameController(
            session,
            real_time=self.dealer.real_time,
            effects=Effects(enabled=not (user.reduce_motion or settings.reduce_motion)),
            sound=user.sound,
        )
        self.error = None
        self.query_one("#coach", CoachBox).display = False
        for reason in pauses:
            self.controller.set_paused(reason, True, self.now())
        self.check_size()
        self.run_tick()

    def show_resumed(self, hosted: bool = False) -> None:
        """Say where a resumed game stands; it waits on the pause box until a player goes on.

        ``hosted``: it was a network game; it goes on here, at this keyboard, and the
        box says so before anyone plays (space goes on, Esc leaves).
        """
        controller = self.controller
        if controller is None:
            return
        notice = controller.resumed(hosted)
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
        controller = self.controller
        if controller is None:
            return
        key = key_of_event(event.key, event.character)
        try:
            now = self.now()
            if not controller.press(key, event.time, now):
                return
        except Exception as exc:
            event.stop()
            self.fail(exc)
            return
        event.stop()
        event.prevent_default()
        self.run_tick()

    def run_tick(self) -> None:
        """Advance the game to now, draw what changed, schedule the next wake-up."""
        controller = self.controller
        if controller is None:
            return
        try:
            now = self.now()
            update = controller.tick(now)
            if update.repaint:
                self.repaint(now)
                if self._collect_timer is None and older_pass_near():
                    # (the collector's older pass after the frame, not inside a key)
                    self._collect_timer = self.set_timer(AFTER_FRAME, self._collect)
            self.schedule(now)
            if update.bell:
                self.app.bell()
            if update.summary is not None:
                self.show_round(update.summary)
            if update.coach:  # the last card shows first; the box comes a frame later
                self.call_after_refresh(self._coach_after_frame, self.session)
        except Exception as exc:
            self.fail(exc)

    def _collect(self) -> None:
        """The frame is out: the collector's older pass, if it is due now."""
        self._collect_timer = None
        collect_due()

    def _coach_after_frame(self, session: Session | None) -> None:
        """The box, for the game that ended (not if another was dealt meanwhile)."""
        if session is None or session is not self.session:
            return
        try:
            self.show_coaching()
        except Exception as exc:
            self.fail(exc)

    def show_coaching(self) -> None:
        """At the game's end: the box over the board, the result first (F2: coaching)."""
        box = self.query_one("#coach", CoachBox)
        box.display = self.session is not None and box.show_session(self.session)

    def action_coach(self) -> None:
        """F2 once the game is over: the result, then how fast, then no box (the table)."""
        if self.controller is not None and self.controller.coached:
            box = self.query_one("#coach", CoachBox)
            box.display = box.next_look() != HIDDEN

    def action_moments(self) -> None:
        """F3 once the game is over: the coach's moments; the one chosen opens the replay
        viewer there (Esc in the viewer comes back to this board)."""
        coaching = self.query_one("#coach", CoachBox).coaching
        session = self.session
        coached = self.controller is not None and self.controller.coached
        if not coached or coaching is None or session is None:
            return
        from spit.tui.moments import MomentsScreen

        def watch(index: int | None) -> None:
            if index is None or session is not self.session:
                return
            from spit.tui.coachbox import session_replay
            from spit.tui.messages import ReplayRequested

            moment = coaching.moments[index]
            try:
                replay = session_replay(session)
            except Exception:  # the replay is a bonus: never let it break the board
                log.exception("cannot replay this game")
                return
            self.post_message(ReplayRequested(replay, moment.at, moment.words()))

        self.app.push_screen(MomentsScreen(coaching.moments, session.names), watch)

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
        """Show every region's key; the board draws only those that changed."""
        session, controller = self.session, self.controller
        if session is None or controller is None:
            return
        now = self.now() if now is None else now
        controller.drawn()
        settings = self.dealer.settings
        keys: dict[str, RegionKey] = board_keys(session, now, settings.palette, controller.effects)
        flash = self.flash_note(session)
        if flash is not None:
            keys["flash"] = flash
        self._board.show(keys, settings.ascii_only)

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
        """Wake up when the controller next has something to do (only with the real clock).

        The timer already set stays when the wake-up has not moved (most keys).
        """
        controller = self.controller
        wait = None if controller is None else controller.wait(now)
        wake = None if wait is None else now + wait
        if wake is not None and wake == self._wake_at and self._wake_timer is not None:
            return
        self.stop_timer()
        self._wake_at = wake
        if wait is not None:
            self._wake_timer = self.set_timer(wait, self._wake)

    def stop_timer(self) -> None:
        """No wake-up (the screen is leaving)."""
        if self._wake_timer is not None:
            self._wake_timer.stop()
            self._wake_timer = None

    def _wake(self) -> None:
        """The wake-up timer fired: it is spent; tick (which sets the next one)."""
        self._wake_timer = None
        self._wake_at = None
        self.run_tick()

    def fail(self, exc: BaseException) -> None:
        """Something broke: keep the board, pause, and say so (never a traceback)."""
        log.exception("internal error in the game screen", exc_info=exc)
        self.error = f"Internal error ({type(exc).__name__}: {exc}). Game paused; ctrl+q quits."
        self._set_paused("error", True)
        with contextlib.suppress(Exception):  # the screen itself may be gone
            self._board.show({"flash": LineKey(self.error, "bold red")})

    # ------------------------------------------------------------------ pauses

    def _set_paused(self, reason: str, on: bool) -> None:
        controller = self.controller
        if controller is None:
            if on:
                self._early_pauses.add(reason)
            else:
                self._early_pauses.discard(reason)
            return
        now = self.now()
        controller.set_paused(reason, on, now)
        self.repaint(now)
        self.schedule(now)

    def hold(self, reason: str, on: bool) -> None:
        """Stop (or start again) the game clock for ``reason`` while a box is up."""
        self._set_paused(reason, on)

    @property
    def paused(self) -> bool:
        """True while the game clock is stopped for any reason."""
        controller = self.controller
        return bool(self._early_pauses) if controller is None else controller.paused

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
        controller = self.controller
        if controller is None or self.session is None or self.session.game.over:
            return
        if "user" in controller.pauses:
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
        return self.controller is not None and self.controller.in_progress

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
        return None if self.controller is None else self.controller.save_progress()

    def on_unmount(self) -> None:
        """However the board goes away, an unfinished game is saved."""
        self.save_progress()

    def action_menu(self) -> None:
        """Leave the game for the title menu (the game is saved, if unfinished)."""
        self.stop_timer()
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

    #: what a too-small terminal means for this game (after "Make the window bigger:")
    SMALL_TEXT = "the game is paused and goes on when it fits.\n\nctrl+q saves the game and quits."

    def check_size(self) -> None:
        """Show a message instead of a broken board when the terminal is too small."""
        width, height = self.app.size
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        board = self._board
        note = self.query_one("#too-small", Static)
        board.display = not small
        note.display = small
        self.query_one("#coach", CoachBox).visible = not small
        if small:
            note.update(
                f"The terminal is {width}x{height}; Spit needs at least "
                f"{MIN_WIDTH}x{MIN_HEIGHT}.\nMake the window bigger: {self.SMALL_TEXT}"
            )
        if small != ("size" in self._pauses_now()):
            self._set_paused("size", small)

    def _pauses_now(self) -> set[str]:
        controller = self.controller
        return self._early_pauses if controller is None else controller.pauses


def _markdown(text: str, ascii_only: bool) -> Widget:
    """A Markdown page, in ASCII if ``ascii_only`` (its parser loads with the first
    help or rules page)."""
    from spit.tui.markdown import page

    return page(text, ascii_only)


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
