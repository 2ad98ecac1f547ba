"""The tutorial screen: each lesson on the real board, judged key by key.

The lessons themselves (positions, right and wrong keys, words) live in
``spit.play.tutorial``; this screen only shows them. Nothing runs on a clock:
the position waits for player 1's key. After the last lesson, Enter starts a
game against the ``easy`` computer.
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
from spit.tui.screens import REGIONS
from spit.tui.widgets.board import Board, TextBox, ascii_text, board_texts

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

    @property
    def lesson(self) -> Lesson:
        """The lesson on screen."""
        return LESSONS[self.index]

    def compose(self) -> ComposeResult:
        with Board(id="board"):
            for region in REGIONS:
                yield TextBox(id=region)
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
        regions = board_texts(session, self.dealer.clock())
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
        keys = [("Esc", "menu")]
        if self.done:
            keys.insert(0, ("Enter", "next lesson" if self.index + 1 < len(LESSONS) else "play"))
        for key, what in keys:
            footer.append(f" {key} ", "reverse")
            footer.append(f" {what}  ")
        regions["footer"] = footer
        ascii_only = self.dealer.settings.ascii_only
        for region, text in regions.items():
            self.query_one(f"#{region}", TextBox).set(ascii_text(text) if ascii_only else text)

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
                self.done = True
                self.feedback = Text("✓ " + verdict.text, style="bold green", no_wrap=True)
            else:
                self.feedback = Text("✗ " + verdict.text, style="bold bright_red", no_wrap=True)
        self.feedback.overflow = "ellipsis"
        self.paint()

    def action_next(self) -> None:
        """Go on to the next lesson, or after the last one to a game against easy."""
        if not self.done or self.too_small:
            return
        if self.index + 1 < len(LESSONS):
            self.index += 1
            self.load()
            return
        from spit.tui.screens import GameScreen

        mode, level = FINAL_GAME
        self.app.switch_screen(GameScreen(mode, self.dealer, {1: level}))

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
