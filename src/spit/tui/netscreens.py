"""The network screens: the board of a hosted or joined game, hosting, joining.

``NetGameScreen`` is the game board fed by a ``RemoteSession`` (what the host
sends); ``HostScreen`` runs the host in this app and seats this keyboard;
``JoinScreen`` asks for the address and code, then connects.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import socket
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from rich.markup import escape
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Checkbox, Input, OptionList, Static
from textual.widgets.option_list import Option

from spit.engine import all_modes
from spit.net.client import Guest, JoinError
from spit.net.defaults import DEFAULT_CAP, DEFAULT_PORT, DEFAULT_WINDOW
from spit.net.host import Host, split_address
from spit.net.runner import host_game, host_timing, keep_replay, public_address
from spit.net.view import RemoteSession
from spit.tui.checkbox import StateCheckbox
from spit.tui.confirm import ConfirmScreen
from spit.tui.screens import GameScreen
from spit.tui.widgets.board import LineKey

if TYPE_CHECKING:
    from spit.play.session import Session
    from spit.tui.dealer import Dealer

log = logging.getLogger("spit.tui")


class NetGameScreen(GameScreen):
    """The board of a network game: this screen's seat, the host's verdicts."""

    def __init__(
        self,
        session: RemoteSession,
        dealer: Dealer,
        leave: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        super().__init__(session.game.mode, dealer)
        self.remote = session
        self.session = session
        self._leave = leave
        self._gone = False
        #: sends the answer to "choose" (bot or save) to the host; None: cannot
        self.decider: Callable[[str], str | None] | None = None
        #: the bot-or-save box is up
        self._asking = False
        #: what happened to the replay the host sent (guests keep a copy)
        self.keep_replays = True

    def set_leave(self, leave: Callable[[], Awaitable[None]]) -> None:
        """What leaving the board does from now on (a match picked up on a new connection)."""
        self._leave = leave

    def new_game(self) -> None:
        """The game is the host's: show it."""
        self.start(self.remote)

    def deliver(self, msg: dict[str, Any]) -> None:
        """A message from the host: update the view and repaint."""
        try:
            self.remote.receive(msg)
            if msg["t"] == "replay" and self.keep_replays:
                self.remote.note_replay(keep_replay(msg["data"]))
        except Exception as exc:  # a bad message must not end the app
            self.fail(exc)
            return
        if self.showing:
            self.run_tick()
            if self.remote.choice is not None:
                self.ask_choice()

    def on_unmount(self) -> None:
        """The board is gone (left, or the app closed): messages no longer paint it."""
        self._gone = True
        super().on_unmount()

    @property
    def showing(self) -> bool:
        """True while this board is on screen (not yet left)."""
        return self.is_mounted and not self._gone

    def ended(self, reason: str, *, replace: bool = False) -> None:
        """The connection is over (the host quit, the network failed, the game ended);
        ``replace``: this reason replaces an earlier one."""
        self.remote.lost(reason, replace=replace)
        if self.showing:
            self.run_tick()

    def ask_choice(self) -> None:
        """The host asks what to do about a player who did not come back.

        A box answered with Enter or Esc, never a game key, so a player still
        hammering their keys cannot choose by accident.
        """
        seat = self.remote.choice
        if seat is None or self._asking:
            return
        self._asking = True

        def answer(computer: bool | None) -> None:
            self._asking = False
            self.decide("bot" if computer else "save")

        self.app.push_screen(
            ConfirmScreen(
                f"{self.remote.names[seat]} did not come back",
                "The computer can play their seat from here on, or the match is "
                "saved on the host to carry on later with 'spit resume'.",
                "the computer plays",
                "save the match",
            ),
            answer,
        )

    def decide(self, what: str) -> None:
        """Send the choice (bot or save); the host answers with what follows."""
        sender = self.decider
        if sender is not None:
            problem = sender(what)
            if problem:
                self.remote.show_flash(problem, self.now())
        self.remote.chosen()
        self.run_tick()

    def action_pause(self) -> None:
        """A network game runs on at the host: it cannot be paused from here."""
        self.remote.show_flash("a network game cannot be paused", self.now())
        self.run_tick()

    def suspend(self) -> None:
        """A network game runs on at the host while this process is stopped."""

    def action_again(self) -> None:
        """After the game: back to the menu (the host deals any new game)."""
        if self.remote.game.over or self.remote.ended:
            self.action_menu()

    @property
    def in_progress(self) -> bool:
        """Nothing to save here: the host keeps the game (and saves it if it stops)."""
        return False

    #: a network game runs on at its host while this terminal is too small
    SMALL_TEXT = (
        "the game goes on at the host meanwhile, and shows again when it fits.\n\n"
        "ctrl+q leaves (the host keeps your seat for a while)."
    )
    #: what leaving a running game means, asked before Esc leaves it
    LEAVE_TEXT = "The host keeps the game for a while: join again with the same line to carry on."
    #: what leaving means for a spectator, asked before Esc stops watching
    WATCH_AGAIN_TEXT = "The game goes on: watch again with the same line."
    #: said on the terminal when the app quits (ctrl+q, a signal) during a live game
    QUIT_TEXT = (
        "spit: you left the network game; the host keeps your seat for a while: "
        "join again with the same command to carry on."
    )

    @property
    def quit_note(self) -> str | None:
        """The line for the terminal if the app quits now, or None if nothing is left behind."""
        if not self.live:
            return None
        if self.remote.watching:  # a spectator (a host's keys are wired before it starts)
            return "spit: you stopped watching the network game."
        return self.QUIT_TEXT

    @property
    def live(self) -> bool:
        """True once the game has begun, until it ends (leaving would stop it for both)."""
        remote = self.remote
        return remote.started and remote.ended is None and not remote.game.over

    def action_leave(self) -> None:
        """Esc: leave, after asking while the game is live (see docs/network.md)."""
        if not self.live:
            self.action_menu()
            return
        if self.remote.watching:  # a spectator leaves nothing behind but the view
            box = ConfirmScreen(
                "Stop watching?", self.WATCH_AGAIN_TEXT, "stop watching", "keep watching"
            )
        else:
            box = ConfirmScreen(
                "Leave this network game?", self.LEAVE_TEXT, "leave", "keep playing"
            )
        self.app.push_screen(box, lambda yes: self.action_menu() if yes else None)

    def action_menu(self) -> None:
        """Leave the game (and close the connection or stop hosting)."""
        self._gone = True
        self.stop_timer()
        if self._leave is not None:
            leave, self._leave = self._leave, None
            self.run_worker(leave(), exclusive=False)
        self.app.pop_screen()

    def flash_note(self, session: Session) -> LineKey | None:
        """The game screen's notes, and the replay note once the game is over."""
        note = super().flash_note(session)
        replay_note = self.remote.replay_note
        if replay_note and self.remote.game.over and self.remote.flash is None:
            return LineKey(replay_note)
        return note


class HostScreen(NetGameScreen):
    """Hosts a game from this app: the join line first, then this keyboard plays seat 1."""

    LEAVE_TEXT = (
        "You host it: leaving ends the game for the other player too. "
        "It is saved here for 'spit resume'."
    )
    QUIT_TEXT = (
        "spit: you stopped hosting; the game ended for the other player too. "
        "It is saved here: 'spit resume' carries on with it."
    )
    SMALL_TEXT = (
        "the game goes on for the other player meanwhile, and shows again when it fits.\n\n"
        "ctrl+q stops hosting (the game is saved here)."
    )

    def __init__(self, options: argparse.Namespace, dealer: Dealer) -> None:
        remote = RemoteSession(None, keymap=dealer.settings.keymap)
        super().__init__(remote, dealer, leave=self._stop)
        self.options = options
        self.host: Host | None = None
        self.keep_replays = False  # the host keeps its own records
        self.join_line = ""

    def on_mount(self) -> None:
        self.remote.wait_for("Starting the host...")
        super().on_mount()
        self.run_worker(self._serve(), exclusive=True)

    async def _serve(self) -> None:
        opts = self.options
        try:
            game = host_game(opts.mode, tuple(opts.variant or ()), opts.seed, opts.target)
            names = (opts.name or self.dealer.settings.names[0], "Guest")
            self.host = Host(
                game,
                timing=host_timing(),
                window=opts.window,
                cap=opts.cap,
                bind=opts.bind,
                port=opts.port,
                remote_seats=(1,),
                names=names,
                rejoin_timeout=opts.rejoin,
                allowed_keys=getattr(opts, "allowed_keys", None),
                record=True,
            )
            await self.host.start()
        except (OSError, ValueError) as exc:
            reason = getattr(exc, "strerror", None) or str(exc)
            self.remote.lost(f"cannot host on {opts.bind}:{opts.port}: {reason}")
            self.run_tick()
            return
        host = self.host
        local = host.local_seat(0, self.deliver)
        self.remote.connect(local.press)
        self.decider = local.decide
        self.join_line = host.join_line(1, public_address(host.bind))
        self.remote.wait_for(f"Give the other player: {self.join_line}")
        self.remote.announce(f"Spectators: {host.watch_line(public_address(host.bind))}")
        if self.showing:
            self.run_tick()
        try:
            await host.run()
            await asyncio.sleep(0.2)  # the last messages (result, replay) go out
        finally:  # also when the app closes (ctrl+q, a signal) in the middle of the game
            over = host.game.over
            await host.close(
                "the game is over; the host has closed" if over else "the host left the game"
            )

    async def _stop(self) -> None:
        if self.host is not None:
            await self.host.close("the host left the game")


def host_options(
    mode: str, bind: str = "127.0.0.1", port: int = DEFAULT_PORT
) -> argparse.Namespace:
    """Hosting options as ``spit host`` would give them (for the menu)."""
    return argparse.Namespace(
        mode=mode,
        variant=None,
        seed=None,
        target=None,
        window=DEFAULT_WINDOW,
        cap=DEFAULT_CAP,
        bind=bind,
        port=port,
        rejoin=60.0,
        name="",
    )


def _host_choices() -> dict[str, tuple[str, str, str]]:
    """Each way to host: every mode the network can play (it has an observer), on
    this machine only or open to the network: id -> (words, mode, bind address)."""
    choices = {}
    for mode in all_modes():
        if not mode.observer_class:
            continue
        choices[f"{mode.name}-local"] = (
            f"{mode.title}, this machine only (127.0.0.1)",
            mode.name,
            "127.0.0.1",
        )
        choices[f"{mode.name}-lan"] = (
            f"{mode.title}, open to my network (0.0.0.0)",
            mode.name,
            "0.0.0.0",
        )
    return choices


HOST_CHOICES = _host_choices()


def check_port(text: str, bind: str) -> int | str:
    """The port typed in the host screen, or what is wrong with it, in words.

    1024-65535, or 0 for any free port; a port something else listens on is refused.
    """
    text = text.strip()
    if not text.isdigit() or len(text) > 5:
        return "not a port number: use 1024-65535, or 0 (any free)"
    port = int(text)
    if port != 0 and not 1024 <= port <= 65535:
        return f"port {port} is out of range: use 1024-65535, or 0"
    if port:
        probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            probe.bind((bind, port))
        except OSError as exc:
            reason = exc.strerror or str(exc)
            return f"port {port}: {reason.lower()}; try another, or 0"
        finally:
            probe.close()
    return port


class HostSetupScreen(ModalScreen[argparse.Namespace | None]):
    """Host a game: which game, who may reach it, and the port."""

    BINDINGS = [Binding("escape", "cancel", "Back")]  # noqa: RUF012

    def compose(self) -> ComposeResult:
        with Vertical(id="level-box"):
            yield Static(
                "[b]Host a game[/b]: the other player joins with spit join", classes="hint"
            )
            yield OptionList(
                *[Option(text, id=key) for key, (text, _, _) in HOST_CHOICES.items()],
                id="host-choices",
            )
            yield Static("TCP port (1024-65535, 0: any free port; Tab to change):", classes="hint")
            yield Input(str(DEFAULT_PORT), id="host-port", max_length=5)
            yield Static("Enter: host   Tab: port   Esc: back", id="host-note", classes="hint")

    def on_mount(self) -> None:
        self.query_one("#host-choices", OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.host(event.option.id)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        choices = self.query_one("#host-choices", OptionList)
        highlighted = choices.highlighted
        option = choices.get_option_at_index(highlighted or 0)
        self.host(option.id)

    def host(self, choice: str | None) -> None:
        """Host ``choice`` on the typed port, or say what is wrong with the port."""
        if choice not in HOST_CHOICES:
            return
        _, mode, bind = HOST_CHOICES[choice]
        port = check_port(self.query_one("#host-port", Input).value, bind)
        if isinstance(port, str):
            self.query_one("#host-note", Static).update(f"[b]{escape(port)}[/b]")
            self.query_one("#host-port", Input).focus()
            return
        self.dismiss(host_options(mode, bind, port))

    def action_cancel(self) -> None:
        self.dismiss(None)


class JoinScreen(Screen[None]):
    """Join a game: the host's address and the join code it gave."""

    BINDINGS = [Binding("escape", "back", "Back")]  # noqa: RUF012

    def __init__(
        self,
        dealer: Dealer,
        address: str = "",
        code: str = "",
        watch: bool = False,
        auto: bool = False,
        name: str = "",
        client_key: Any = None,
    ) -> None:
        """``name`` (``spit join --name``) wins over the settings' name; ``client_key``:
        an SSH private key the host allows (``--key``), instead of the code's secret."""
        super().__init__()
        #: the app's dealer: its settings (keys, names) and clock for the board
        self.dealer = dealer
        self.address = address
        self.code = code
        self.watch_only = watch
        self.auto = auto
        self.player_name = name
        self.client_key = client_key
        self.guest: Guest | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="join-box"):
            yield Static("[b]Join a game[/b]: type the line the host gave you", classes="hint")
            yield Input(
                self.address, placeholder="host address, e.g. 192.168.1.5:7788", id="join-address"
            )
            yield Input(
                self.code, placeholder="join code, e.g. abcde-fghjk-mnpq-rstv", id="join-code"
            )
            yield StateCheckbox("only watch", self.watch_only, id="join-watch")
            yield Static("", id="join-note")
            yield Static("Enter: join   Esc: back", classes="hint")

    def on_mount(self) -> None:
        self.query_one("#join-address", Input).focus()
        if self.auto:
            self.join()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "join-address":
            self.query_one("#join-code", Input).focus()
        else:
            self.join()

    def note(self, text: str) -> None:
        """Say something under the form."""
        self.query_one("#join-note", Static).update(text)

    def join(self) -> None:
        """Connect with what the form says."""
        address = self.query_one("#join-address", Input).value
        code = self.query_one("#join-code", Input).value
        watch = self.query_one("#join-watch", Checkbox).value
        try:
            host, port = split_address(address)
        except ValueError as exc:
            self.note(f"[b red]{escape(str(exc))}[/]")
            return
        self.note(f"Connecting to {escape(host)}:{port}...")
        self.run_worker(self._connect(host, port, code, watch), exclusive=True)

    async def _connect(self, host: str, port: int, code: str, watch: bool) -> None:
        settings = self.dealer.settings
        session = RemoteSession(None, keymap=settings.keymap)
        screen = NetGameScreen(session, self.dealer, leave=self._leave)
        try:
            # the default "Player 1" would clash with the host's: send only a chosen name
            first = settings.names[0]
            name = self.player_name or ("" if first in ("Player 1", "Player 2") else first)
            guest = await Guest.connect(
                host,
                port,
                code,
                watch=watch,
                name=name,
                on_message=screen.deliver,
                client_key=self.client_key,
            )
        except JoinError as exc:
            self.note(f"[b red]Cannot join: {escape(str(exc))}[/]")
            return
        self.guest = guest
        if not watch:
            session.connect(guest.action)
            screen.decider = guest.decide
        self.note("")
        self.app.push_screen(screen)

        async def watch_end() -> None:
            await guest.done.wait()
            screen.ended(guest.ended or "the connection ended")

        self.run_worker(watch_end(), exclusive=False)

    def on_unmount(self) -> None:
        """The app is closing (ctrl+q, a signal): tell the host we left, so it keeps the seat."""
        if self.guest is not None:
            self.guest.close_now()

    async def _leave(self) -> None:
        if self.guest is not None:
            with contextlib.suppress(Exception):
                await self.guest.close()

    def action_back(self) -> None:
        self.app.pop_screen()
