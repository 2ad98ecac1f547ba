"""``spit online``: the lobby of a spit server, and its matches on the usual network board.

``LobbyScreen`` signs in (claiming a name on first use), shows who is online,
the live matches and the player's ratings, and offers quick-pair, the daily
challenge, challenges by name, private rooms, watching, leaderboards and the
player's recent games. A match it is paired into opens the network board
(``NetGameScreen``) on a second channel of the same connection; leaving the
board comes back here.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import TYPE_CHECKING, Any

from rich.markup import escape
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from spit.engine import get_mode, mode_names
from spit.net.client import Guest, JoinError
from spit.net.defaults import DEFAULT_BOT_AFTER
from spit.net.online import KnownServers, OnlineClient
from spit.net.view import RemoteSession
from spit.tui import MENUS_CSS_PATH
from spit.tui.confirm import ConfirmScreen
from spit.tui.messages import exit_message
from spit.tui.netscreens import NetGameScreen

if TYPE_CHECKING:
    import asyncssh

    from spit.tui.dealer import Dealer

#: how long a watcher whose match's node died looks for the match on another node
REFIND_SECONDS = 60.0
#: how often it asks the lobby where the match is now
REFIND_EVERY = 2.0
#: the door's last words repeat the server's news of the last this many seconds
#: (a shutdown says "your match was saved" just before it closes the lobby)
INFO_WITH_END = 5.0


class AskScreen(ModalScreen[str | None]):
    """One line of text: a name, a room code, a player to challenge."""

    CSS_PATH = MENUS_CSS_PATH

    BINDINGS = [Binding("escape", "cancel", "Cancel")]  # noqa: RUF012

    def __init__(self, question: str, placeholder: str = "", note: str = "") -> None:
        super().__init__()
        self.question = question
        self.placeholder = placeholder
        self.note = note

    def compose(self) -> ComposeResult:
        with Vertical(id="ask-box", classes="dialog"):
            yield Static(self.question, classes="hint")
            yield Input(placeholder=self.placeholder, id="ask-input")
            yield Static(self.note, id="ask-note")
            yield Static("Enter: OK   Esc: cancel", classes="hint")

    def on_mount(self) -> None:
        self.query_one("#ask-input", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        value = event.value.strip()
        if value:
            self.dismiss(value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ListScreen(ModalScreen[str | None]):
    """A list to read (a leaderboard, recent games) or to pick from (a match to watch)."""

    CSS_PATH = MENUS_CSS_PATH

    BINDINGS = [Binding("escape", "cancel", "Back")]  # noqa: RUF012

    def __init__(self, title: str, rows: list[tuple[str, str]], empty: str) -> None:
        super().__init__()
        self.title_text = title
        self.rows = rows
        self.empty = empty

    def compose(self) -> ComposeResult:
        with Vertical(id="list-box", classes="dialog"):
            yield Static(f"[b]{escape(self.title_text)}[/b]", classes="hint")
            if self.rows:
                yield OptionList(
                    *(Option(escape(text), id=key or None) for key, text in self.rows),
                    id="list-rows",
                )
            else:
                yield Static(escape(self.empty))
            yield Static("Enter: choose   Esc: back", classes="hint")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


def challenge_request(answer: str) -> tuple[str, str]:
    """ "Ann" or "Ann speed" -> (name, mode): the game named last, else the first mode."""
    words = answer.split()
    modes = {get_mode(m).title.lower(): m for m in mode_names()} | {m: m for m in mode_names()}
    if len(words) >= 2 and words[-1].lower() in modes:
        return " ".join(words[:-1]), modes[words[-1].lower()]
    return answer.strip(), mode_names()[0]


#: The lobby's menu: option id -> words.
def _menu() -> list[tuple[str, str]]:
    items: list[tuple[str, str]] = []
    for mode in mode_names():
        title = get_mode(mode).title
        items.append((f"queue:{mode}", f"Quick pair: {title}"))
    for mode in mode_names():
        items.append((f"daily:{mode}", f"Daily challenge: {get_mode(mode).title}"))
    items += [
        ("challenge", "Challenge a player by name"),
        ("room", "Make a private room (a code for a friend)"),
        ("enter", "Join a private room with a code"),
        ("watch", "Watch a live match"),
    ]
    for mode in mode_names():
        items.append((f"board:{mode}", f"Leaderboard: {get_mode(mode).title}"))
    items += [
        ("games", "My recent games"),
        ("newlink", "Link another key to this account"),
        ("leave", "Leave the server"),
    ]
    return items


class ServerMatchScreen(NetGameScreen):
    """A server match's board (the lobby opens it): the server's words for leaving."""

    LEAVE_TEXT = (
        "The server keeps your seat for a while (a computer plays it for you "
        "meanwhile): come back to the lobby soon to carry on."
    )
    WATCH_AGAIN_TEXT = "The match goes on: watch it again from the lobby."
    QUIT_TEXT = (
        "spit: you left the server match; the server keeps your seat for a while "
        "(a computer plays it meanwhile): sign in again soon to carry on."
    )


class LobbyScreen(Screen[None]):
    """The server's lobby."""

    CSS_PATH = MENUS_CSS_PATH

    BINDINGS = [  # noqa: RUF012
        Binding("escape", "back", "Stop waiting / leave"),
    ]

    def __init__(
        self,
        dealer: Dealer,
        address: str,
        port: int,
        *,
        key: asyncssh.SSHKey | None,
        known: KnownServers | None,
        name: str = "",
        pin: str | None = None,
        door_token: str | None = None,
        bot_after: float | None = DEFAULT_BOT_AFTER,
        from_menu: bool = False,
    ) -> None:
        super().__init__()
        self.dealer = dealer
        #: opened from the title menu: leaving goes back there (else it ends spit)
        self.from_menu = from_menu
        self.address = address
        self.port = port
        self.key = key
        self.known = known
        self.player_name = name
        self.pin = pin
        self.door_token = door_token
        self.bot_after = bot_after
        self.client: OnlineClient | None = None
        self.me = ""
        self.ratings: dict[str, str] = {}
        self.waiting: tuple[str, float] | None = None
        self.board: NetGameScreen | None = None
        #: the match id the board shows, and its connection
        self._board_match: str | None = None
        self._board_guest: Guest | None = None
        #: the server's last word of news, and when it came (``time.monotonic``)
        self._last_info: tuple[float, str] | None = None
        #: the board only watches (it has no seat)
        self._board_watches = False
        #: one "matched" notice is handled at a time (a second one sees the first's board)
        self._matching = asyncio.Lock()
        #: a watched match whose node died: (its id, look until, last asked)
        self._refind: tuple[str, float, float] | None = None
        self._last_lobby: dict[str, Any] = {}
        self._lists: dict[str, Any] = {}
        #: what the note says now, and what it said when the last board opened
        self._note = ""
        self._board_note: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="lobby-box"):
            yield Static("", id="lobby-title")
            yield Static("", id="lobby-online")
            yield OptionList(*(Option(text, id=key) for key, text in _menu()), id="lobby-menu")
            yield Static("", id="lobby-note")
            yield Static("Enter: choose   Esc: stop waiting, or leave", classes="hint")

    def on_mount(self) -> None:
        self.note(f"Connecting to {escape(self.address)}:{self.port}...")
        self.query_one("#lobby-menu", OptionList).focus()
        self.run_worker(self._connect(), exclusive=True)
        self.set_interval(1.0, self._each_second)

    def note(self, text: str) -> None:
        """Say something under the menu (markup)."""
        self._note = text
        self.query_one("#lobby-note", Static).update(text)
        self.call_after_refresh(self.fit_menu)

    def on_resize(self, event: events.Resize) -> None:
        self.fit_menu()

    def fit_menu(self) -> None:
        """Cap the menu to the lines the title, the note and the hint leave (it scrolls
        then), so what the lobby says stays in sight in a small terminal."""
        if not self.is_mounted:
            return
        others = sum(
            w.outer_size.height
            for w in self.query_one("#lobby-box").children
            if w.id != "lobby-menu"
        )
        menu = self.query_one("#lobby-menu", OptionList)
        menu.styles.max_height = max(3, self.app.size.height - others)

    def on_screen_resume(self) -> None:
        """Back from a match's board: the note no longer says a match is on (a result
        or anything said since stays)."""
        if self._note == self._board_note and self.board is not None and not self.board.showing:
            self.note("Back in the lobby. Choose what to play.")

    # ------------------------------------------------------------ connection

    async def _connect(self) -> None:
        try:
            self.client = await OnlineClient.connect(
                self.address,
                self.port,
                key=self.key,
                known=self.known,
                name=self.player_name,
                pin=self.pin,
                door_token=self.door_token,
                on_message=self.deliver,
            )
        except JoinError as exc:
            self.note(f"[b red]Cannot connect: {escape(str(exc))}[/]  Esc: back")
            return
        client = self.client
        await client.done.wait()
        why = client.ended or "disconnected"
        if self.door_token is not None and not client.left:
            # the plain-ssh door: nothing is left to do here (its process cannot sign in
            # again), so end at once and say why, while the player's connection is
            # still open to give their terminal back as it was
            lines = [f"spit: the server closed the connection: {why}."]
            if self._last_info and time.monotonic() - self._last_info[0] < INFO_WITH_END:
                lines.append(f"spit: {self._last_info[1]}")  # such as: your match was saved
            self.app.exit(message=exit_message(lines))
            return
        if self.is_mounted:
            self.note(f"[b red]{escape(why)}[/]  Esc: leave")

    def send(self, kind: str, **fields: Any) -> None:
        """One lobby request."""
        if self.client is not None:
            self.client.send(kind, **fields)

    def deliver(self, msg: dict[str, Any]) -> None:
        """A message from the server."""
        kind = msg["t"]
        handler = getattr(self, f"_on_{kind}", None)
        if handler is not None:
            handler(msg)

    def _on_welcome(self, msg: dict[str, Any]) -> None:
        self.me = msg["name"] or ""
        self.ratings = dict(msg.get("ratings") or {})
        self._show_title()
        what = "an unrated guest" if msg["guest"] else "signed in"
        self.note(f"Welcome, {escape(self.me)} ({what}). Choose what to play.")

    def _show_title(self) -> None:
        ratings = ", ".join(f"{get_mode(m).title} {r}" for m, r in sorted(self.ratings.items()))
        shown = f"   {ratings}" if ratings else ""
        self.query_one("#lobby-title", Static).update(
            f"[b]spit online[/b] at {escape(self.address)}   "
            f"[b]{escape(self.me)}[/b]{escape(shown)}"
            + ("   (? = provisional)" if "?" in ratings else "")
        )

    def _on_needname(self, msg: dict[str, Any]) -> None:
        problem = msg.get("problem") or ""
        note = f"[red]{escape(problem)}[/red]\n" if problem else ""
        note += (
            "3 to 20 letters, digits, _ or -.\nHave an account already? Type link CODE, "
            "with the code from 'Link another key' on your other machine."
        )

        def claimed(name: str | None) -> None:
            if name is None:
                self.action_leave()
            elif name.lower().startswith("link "):
                self.send("link", code=name[5:].strip())
            else:
                self.send("claim", name=name)

        self.app.push_screen(
            AskScreen(
                "[b]Choose your name on this server[/b] (it stays with your key)", "a name", note
            ),
            claimed,
        )

    def _on_lobby(self, msg: dict[str, Any]) -> None:
        self._last_lobby = msg
        online = msg["online"]
        queued = sum(int(v) for v in msg["queue"].values() if isinstance(v, int))
        shown = ", ".join(str(n) for n in online[:12]) + (" ..." if len(online) > 12 else "")
        self.query_one("#lobby-online", Static).update(
            f"Online ({len(online)}): {escape(shown)}\n"
            f"Live matches: {len(msg['matches'])}   Waiting to be paired: {queued}"
        )

    def _on_linkcode(self, msg: dict[str, Any]) -> None:
        self.note(
            f"Link code: [b]{escape(msg['code'])}[/b] (good for {msg['minutes']} minutes). On the "
            "other machine run spit online here, and type link and this code instead of a name."
        )

    def _on_queued(self, msg: dict[str, Any]) -> None:
        self.waiting = (msg["mode"], time.monotonic())
        self._tick_waiting()

    def _each_second(self) -> None:
        self._tick_waiting()
        self._look_for_watched_match()

    def _tick_waiting(self) -> None:
        if self.waiting is None or not self.is_mounted:
            return
        mode, since = self.waiting
        waited = time.monotonic() - since
        computer = ""
        if self.bot_after is not None:
            left = self.bot_after - waited
            computer = f"; a computer of your strength in {left:.0f} s" if left > 0 else ""
        self.note(
            f"Waiting for a {get_mode(mode).title} opponent ({waited:.0f} s{computer})..."
            "   Esc: stop waiting"
        )

    def _on_unqueued(self, msg: dict[str, Any]) -> None:
        self.waiting = None
        self.note("You left the queue.")

    def _on_error(self, msg: dict[str, Any]) -> None:
        self.note(f"[b red]{escape(msg['reason'])}[/]")

    def _on_info(self, msg: dict[str, Any]) -> None:
        self._last_info = (time.monotonic(), str(msg["text"]))
        self.note(escape(msg["text"]))

    def _on_bye(self, msg: dict[str, Any]) -> None:
        self.note(f"[b red]The server closed the connection: {escape(msg['reason'])}[/]")

    def _on_roomcode(self, msg: dict[str, Any]) -> None:
        self.note(
            f"Your room's code: [b]{escape(msg['code'])}[/b] ({get_mode(msg['mode']).title}). "
            "Give it to a friend: they choose 'Join a private room' and type it."
        )

    def _on_challenged(self, msg: dict[str, Any]) -> None:
        number = msg["id"]

        def answered(yes: bool | None) -> None:
            self.send("answer", id=number, accept=bool(yes))

        self.app.push_screen(
            ConfirmScreen(
                "A challenge",
                f"{msg['by']} challenges you to {get_mode(msg['mode']).title}.",
                "play",
                "decline",
            ),
            answered,
        )

    def _on_result(self, msg: dict[str, Any]) -> None:
        self.ratings = dict(msg.get("ratings") or self.ratings)
        self._show_title()
        self.note(escape(msg["text"]))
        share = msg.get("share")
        if share:
            lines = [str(line) for line in msg.get("coaching") or []]
            rows = [("", line) for line in [msg["text"], "", "Share it:", share, "", *lines]]
            self.app.push_screen(ListScreen("Your daily challenge", rows, ""))

    def _on_standings(self, msg: dict[str, Any]) -> None:
        rows = [
            ("", f"{i + 1:>3}. {row[0]:<20} {row[1]:>5} ±{2 * row[2]:<4} {row[3]} games")
            for i, row in enumerate(msg["rows"])
        ]
        if msg.get("me"):
            rows = [*rows, ("", ""), ("", str(msg["me"]))]
        self.app.push_screen(
            ListScreen(
                f"Leaderboard: {get_mode(msg['mode']).title}",
                rows,
                "Nobody is on the board yet: it shows settled ratings of players who "
                "played this week.",
            )
        )

    def _on_dailyinfo(self, msg: dict[str, Any]) -> None:
        rows = [
            ("", f"{i + 1:>3}. {row[0]:<20} {'won' if row[1] else 'lost':<5} {row[2]:.1f} s")
            for i, row in enumerate(msg["rows"])
        ]
        title = (
            f"Daily challenge {msg['day']}: {get_mode(msg['mode']).title} against the "
            f"{msg['level']} computer"
        )
        if msg.get("streak"):
            title += f"   your streak: {msg['streak']} days"
        if msg.get("played"):
            self.note(f"{escape(title)}: starting your attempt...")
            return
        self.app.push_screen(ListScreen(title, rows, "Nobody has finished today's challenge yet."))

    def _on_gamelist(self, msg: dict[str, Any]) -> None:
        rows = []
        for row in msg["rows"]:
            number, mode, p1, p2, winner, rated, ended = row
            result = "no result" if winner is None else f"{[p1, p2][winner - 1]} won"
            mark = "rated" if rated else "unrated"
            rows.append(("", f"#{number} {ended[:16]} {mode}: {p1} v {p2}, {result} ({mark})"))
        self.app.push_screen(
            ListScreen(
                "My recent games (spit online --replays --fetch N keeps one)", rows, "No games yet."
            )
        )

    def _on_matched(self, msg: dict[str, Any]) -> None:
        self.waiting = None
        self.run_worker(self._matched(msg), exclusive=False)

    async def _matched(self, msg: dict[str, Any]) -> None:
        """Open the board of a "matched" notice, or carry the open board on with it."""
        async with self._matching:
            board = self.board
            if board is None or not board.showing or self._board_match != msg["match"]:
                await self._open_match(msg)
                return
            guest = self._board_guest
            if self._board_watches and msg["seat"] is not None:
                # the player's own match, which the board watched: play its seat instead
                if guest is not None:
                    self._board_guest = None  # its end is not the board's end
                    await guest.close()
                await self._follow_match(board, msg)
                return
            if guest is not None and not guest.done.is_set():
                return  # the board has it already (the lobby signed in again elsewhere)
            # the node that ran this match died and another carries it on: follow it
            await self._follow_match(board, msg)

    # ------------------------------------------------------------ the match

    async def _open_match(self, msg: dict[str, Any]) -> None:
        client = self.client
        if client is None:
            return
        settings = self.dealer.settings
        session = RemoteSession(None, keymap=settings.keymap)

        async def leave() -> None:
            with contextlib.suppress(Exception):
                await guest.close()

        screen = ServerMatchScreen(session, self.dealer, leave=leave)
        screen.keep_replays = False  # the server keeps every match: spit online --replays
        watch = msg["seat"] is None
        try:
            guest = await client.open_matched(msg, on_message=screen.deliver)
        except JoinError as exc:
            self.note(f"[b red]Cannot open the match: {escape(str(exc))}[/]")
            return
        if not watch:
            session.connect(guest.action)
            screen.decider = guest.decide
        self.board = screen
        self._board_match = msg["match"]
        self._board_guest = guest
        self._board_watches = watch
        self._refind = None
        names = " v ".join(str(n) for n in msg["names"])
        self._board_note = (
            f"Playing {escape(names)}..." if not watch else f"Watching {escape(names)}..."
        )
        self.note(self._board_note)
        await self.app.push_screen(screen)
        self._watch_end(screen, guest)

    def _watch_end(self, screen: NetGameScreen, guest: Guest) -> None:
        """When the match's connection ends, the board says why (or that it may come back)."""
        client = self.client

        async def watch_end() -> None:
            await guest.done.wait()
            if self._board_guest is not guest:
                return  # the board follows a newer connection already
            reason = guest.ended or "the match ended"
            if client is not None and client.nodes and not screen.remote.game.over:
                reason += " (wait: another node may carry it on)"
                if self._board_watches:
                    # a player is told where the match went; a watcher asks
                    now = time.monotonic()
                    self._refind = (str(self._board_match), now + REFIND_SECONDS, now)
            screen.ended(reason)

        self.run_worker(watch_end(), exclusive=False)

    async def _follow_match(self, screen: NetGameScreen, msg: dict[str, Any]) -> None:
        """Carry on with the board's match on the node that resumed it."""
        client = self.client
        if client is None:
            return
        try:
            guest = await client.open_matched(msg, on_message=screen.deliver)
        except JoinError as exc:
            if self._refind is not None:
                return  # a watcher asks again (the lobby may still list the dead node)
            screen.ended(f"the match could not be picked up again: {exc}", replace=True)
            return
        self._board_guest = guest
        self._refind = None
        if self._board_watches and msg["seat"] is not None:
            screen.remote.carry_on("This is your own match: taking your seat")
        else:
            screen.remote.carry_on()
        if msg["seat"] is not None:
            screen.remote.connect(guest.action)
            screen.decider = guest.decide
            if self._board_watches:
                self._board_watches = False
                names = " v ".join(str(n) for n in msg["names"])
                self._board_note = f"Playing {escape(names)}..."
                self.note(self._board_note)

        async def leave() -> None:
            with contextlib.suppress(Exception):
                await guest.close()

        screen.set_leave(leave)
        self._watch_end(screen, guest)

    def _look_for_watched_match(self) -> None:
        """A watcher's match lost its node: ask where it is once the lobby lists it
        again (the answer is a "matched" notice, which the board follows)."""
        if self._refind is None:
            return
        match_id, until, asked = self._refind
        board = self.board
        now = time.monotonic()
        if board is None or not board.showing or board.remote.game.over:
            self._refind = None
        elif now > until:
            self._refind = None
            board.ended("the match did not come back", replace=True)
        elif now - asked >= REFIND_EVERY and any(
            m.get("id") == match_id for m in self._last_lobby.get("matches", [])
        ):
            self._refind = (match_id, until, now)
            self.send("watch", match=match_id)

    # ------------------------------------------------------------ the menu

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id != "lobby-menu":
            return
        choice = event.option.id or ""
        what, _, mode = choice.partition(":")
        if what == "queue":
            self.send("queue", mode=mode, bot_after=self.bot_after)
        elif what == "daily":
            self.send("daily", mode=mode, play=True)
        elif what == "board":
            self.send("board", mode=mode)
        elif what == "games":
            self.send("games")
        elif what == "newlink":
            self.send("newlink")
        elif what == "room":
            self.send("room", mode=mode_names()[0])
        elif what == "enter":

            def entered(code: str | None) -> None:
                if code is not None:
                    self.send("enter", code=code)

            self.app.push_screen(AskScreen("Type the room's code", "e.g. K7QWXM"), entered)
        elif what == "challenge":

            def chosen(answer: str | None) -> None:
                if answer is not None:
                    name, mode = challenge_request(answer)
                    self.send("challenge", name=name, mode=mode)

            games = " or ".join(get_mode(m).title.lower() for m in mode_names())
            self.app.push_screen(
                AskScreen(
                    "Challenge whom? (a player who is online)",
                    "a name",
                    f"A name, then the game if not {get_mode(mode_names()[0]).title}: "
                    f"Ann {games.split(' or ')[-1]}. Games: {games}.",
                ),
                chosen,
            )
        elif what == "watch":
            matches = self._last_lobby.get("matches", [])
            rows = [
                (str(m["id"]), f"{get_mode(m['mode']).title}: {' v '.join(m['names'])}")
                for m in matches
            ]

            def picked(match_id: str | None) -> None:
                if match_id:
                    self.send("watch", match=match_id)

            self.app.push_screen(
                ListScreen("Live matches", rows, "No match is being played."), picked
            )
        elif what == "leave":
            self.action_leave()

    def action_back(self) -> None:
        """Esc: stop waiting if in the queue, else back to the title menu, or (when
        ``spit online`` or the server's door opened the lobby) leave, after asking:
        a stray Esc does not end the session."""
        if self.waiting is not None:
            self.send("unqueue")
            return
        if self.from_menu:
            self.action_leave()
            return
        self.app.push_screen(
            ConfirmScreen("Leave the server?", "You can come back at any time.", "leave", "stay"),
            lambda yes: self.action_leave() if yes else None,
        )

    def action_leave(self) -> None:
        """Leave the server (and this screen: back to the title menu, or out of spit
        when ``spit online`` opened it)."""
        if self.client is not None:
            self.client.close_now()
        if self.from_menu:
            self.app.pop_screen()
        else:
            self.app.exit()

    def on_unmount(self) -> None:
        """The app is closing (ctrl+q, a signal): say goodbye to the server."""
        if self.client is not None:
            self.client.close_now()
