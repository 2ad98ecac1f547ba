"""The tutorial screen: each lesson on the real board, judged key by key.

The lessons themselves (positions, right and wrong keys, words) live in
``spit.play.tutorial``; this screen only shows them. Nothing runs on a clock:
the position waits for player 1's key. Tab lists the lessons (pick one, play
one again), the arrows skip to the next or back to the one before, Backspace
starts this one again. After the last lesson, Enter opens the setup screen
with a game against the ``easy`` computer chosen first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from spit.play.keys import key_of_event
from spit.play.session import Session
from spit.play.tutorial import FINAL_GAME, LESSONS, Lesson, texts
from spit.tui.widgets.board import Board, RegionKey, board_keys

if TYPE_CHECKING:
    from spit.engine import AnyGame
    from spit.tui.dealer import Dealer

MIN_WIDTH = 80
MIN_HEIGHT = 24


class TutorialScreen(Screen[None]):
    """Lessons one after another; Esc leaves, Enter goes on once a lesson is done."""

    BINDINGS = [  # noqa: RUF012
        Binding("escape", "leave", "Menu"),
        Binding("enter", "next", "Next lesson", show=False),
        Binding("tab", "lessons", "Lessons", show=False),
        Binding("right,pagedown", "skip(1)", "Skip", show=False),
        Binding("left,pageup", "skip(-1)", "Back a lesson", show=False),
        Binding("backspace", "again", "Again", show=False),
    ]

    def __init__(self, dealer: Dealer, first: int = 0) -> None:
        super().__init__()
        #: the app's dealer: its keys, names and clock (and the final game's deal)
        self.dealer = dealer
        self.index = first
        self.session: Session | None = None
        #: the lesson's position; its key presses are applied here directly (no arbiter)
        self.game: AnyGame | None = None
        #: the lesson's right key has been pressed
        self.done = False
        #: what the last key press meant (and whether it was right)
        self.feedback = Text()
        #: the terminal is too small for the board: keys do nothing until it fits
        self.too_small = False
        #: the lessons done (by index), for the lesson list's marks
        self.finished: set[int] = set()

    @property
    def lesson(self) -> Lesson:
        """The lesson on screen."""
        return LESSONS[self.index]

    def compose(self) -> ComposeResult:
        yield Board(id="board")
        yield Static(id="too-small")

    def on_mount(self) -> None:
        self.load()
        self.check_size()

    def load(self) -> None:
        """Set up the current lesson's position."""
        settings = self.dealer.settings
        game = self.game = self.lesson.build()
        self.session = Session.local(
            game, keymap=settings.keymap, clock=self.dealer.clock, names=settings.names
        )
        self.done = False
        self.feedback = Text()
        self.paint()

    def paint(self) -> None:
        """Show the board with the lesson's words in the bottom lines."""
        session = self.session
        if session is None:
            return
        keymap = session.keymap
        lesson = self.lesson
        regions: dict[str, RegionKey | Text] = dict(board_keys(session, self.dealer.clock()))
        top = Text(no_wrap=True, overflow="ellipsis")
        top.append(f" TUTORIAL {self.index + 1}/{len(LESSONS)} ", "bold reverse")
        top.append(f"  {lesson.heading()}", "bold")
        regions["topbar"] = top
        regions["status"] = Text(
            texts(lesson.task, keymap), style="bold yellow", no_wrap=True, overflow="ellipsis"
        )
        regions["news"] = Text(lesson.hint, no_wrap=True, overflow="ellipsis")
        regions["flash"] = self.feedback
        footer = Text(no_wrap=True, overflow="ellipsis")
        keys = [("←/→", "lessons"), ("Tab", "list"), ("Esc", "menu")]
        if self.done:
            last = self.index + 1 == len(LESSONS)
            keys[:0] = [("Enter", "choose a game" if last else "next lesson"), ("Bksp", "again")]
        for key, what in keys:
            footer.append(f" {key} ", "reverse")
            footer.append(f" {what}  ")
        regions["footer"] = footer
        self.query_one(Board).show(regions, self.dealer.settings.ascii_only)

    def on_key(self, event: events.Key) -> None:
        """A game key is judged by the lesson; other keys go to the bindings."""
        session, game = self.session, self.game
        if session is None or game is None:
            return
        key = key_of_event(event.key, event.character)
        if session.keymap.lookup(key) is None:
            return
        event.stop()
        event.prevent_default()
        if self.too_small:  # the board is hidden: a key must not play a card nobody sees
            return
        if self.done:
            self.feedback = Text("Done! Press Enter to go on.", style="bold green", no_wrap=True)
        else:
            verdict = self.lesson.judge(game, key, session.keymap)
            if verdict.ok and verdict.action is not None:
                game.apply(verdict.action)
                for action in self.lesson.then:  # the other player's part (the spit call)
                    game.apply(action)
                self.done = True
                self.finished.add(self.index)
                self.feedback = Text("✓ " + verdict.text, style="bold green", no_wrap=True)
            else:
                self.feedback = Text("✗ " + verdict.text, style="bold bright_red", no_wrap=True)
        self.feedback.overflow = "ellipsis"
        self.paint()

    def action_next(self) -> None:
        """Go on to the next lesson, or after the last one to the setup screen."""
        if not self.done or self.too_small:
            return
        if self.index + 1 < len(LESSONS):
            self.index += 1
            self.load()
            return
        from spit.tui.setup import SetupScreen

        mode, level = FINAL_GAME
        settings = self.dealer.settings
        save = self.dealer.deps.save_settings
        self.app.switch_screen(SetupScreen(settings, save, mode, level))

    def go_to(self, index: int | None) -> None:
        """Play lesson ``index`` (from its start, even if it is this one); None: stay."""
        if index is not None and 0 <= index < len(LESSONS) and not self.too_small:
            self.index = index
            self.load()

    def action_skip(self, step: int) -> None:
        """The next lesson (``step`` 1) or the one before (-1), done or not."""
        self.go_to(min(max(self.index + step, 0), len(LESSONS) - 1))

    def action_again(self) -> None:
        """This lesson again, from its start."""
        self.go_to(self.index)

    def action_lessons(self) -> None:
        """The list of lessons, to pick one."""
        from spit.tui.lessons import LessonsScreen

        ascii_only = self.dealer.settings.ascii_only
        self.app.push_screen(LessonsScreen(self.index, self.finished, ascii_only), self.go_to)

    def action_leave(self) -> None:
        """Back to the title menu."""
        self.app.pop_screen()

    def on_resize(self, event: events.Resize) -> None:
        self.check_size()

    def check_size(self) -> None:
        """Say so instead of showing a broken board when the terminal is too small."""
        width, height = self.app.size
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        self.too_small = small
        self.query_one("#board").display = not small
        note = self.query_one("#too-small", Static)
        note.display = small
        if small:
            note.update(
                f"The terminal is {width}x{height}; the tutorial needs at least "
                f"{MIN_WIDTH}x{MIN_HEIGHT}.\nMake the window bigger. Esc: menu."
            )
