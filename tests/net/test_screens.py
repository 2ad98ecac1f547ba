"""The host and join screens through Textual's Pilot, with a real host on loopback."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from tests.support.net import LIMIT, bot_guest, quick_host
from tests.support.pilot import running, until
from textual.widgets import Input

from spit.bots.sim import new_game
from spit.engine import AnyGame, Phase
from spit.net.codes import split_code
from spit.net.host import Host
from spit.tui.app import AppDependencies, Opening, SpitApp
from spit.tui.dealer import Dealer
from spit.tui.netscreens import HostScreen, JoinScreen, NetGameScreen, host_options
from spit.tui.widgets.board import Board


def text(app: SpitApp, name: str) -> str:
    return app.screen.query_one(Board).text(name).plain


def hosting_app(mode: str) -> tuple[SpitApp, list[HostScreen]]:
    """An app that opens on the host screen for ``mode`` (any free port); the screen
    is in the list once the app has made it."""
    screens: list[HostScreen] = []

    def host_screen(dealer: Dealer) -> HostScreen:
        screens.append(HostScreen(host_options(mode, port=0), dealer))
        return screens[0]

    return SpitApp(opening=Opening(screen=host_screen), deps=AppDependencies(record=False)), screens


@contextlib.asynccontextmanager
async def hosted(game: AnyGame) -> AsyncIterator[Host]:
    """A host on loopback for ``game`` (any free port), a computer guest in seat 1;
    seat 2 is the test's to join. Everything is closed on the way out."""
    host = quick_host(game, remote_seats=(0, 1))
    await host.start()
    run = asyncio.create_task(host.run())
    try:
        bot, _ = await bot_guest(host, 0, game.mode)
        try:
            yield host
        finally:
            await bot.close()
    finally:
        run.cancel()
        await host.close()


def joining_app(host: Host, name: str | None = None) -> SpitApp:
    """An app that opens on the join screen, filled in for seat 2 of ``host``, and joins."""
    address = f"127.0.0.1:{host.port}"

    def join_screen(dealer: Dealer) -> JoinScreen:
        return JoinScreen(dealer, address, host.codes[1], auto=True, name=name)

    return SpitApp(opening=Opening(screen=join_screen), deps=AppDependencies(record=False))


async def test_host_screen_shows_the_join_line_then_plays_a_guest() -> None:
    async def body() -> None:
        app, screens = hosting_app("speed")
        async with running(app) as pilot:
            (screen,) = screens
            await until(pilot, lambda: screen.host is not None and bool(screen.join_line))
            host = screen.host
            assert host is not None
            await pilot.pause(0.05)
            status = text(app, "status")
            assert status.startswith("Give the other player: spit join 127.0.0.1:")
            assert host.codes[1] in status
            assert host.watch_code in text(app, "news") and "--watch" in text(app, "news")
            # our own hand face up, the guest's seat face down
            assert "░" in text(app, "p2-cards") and "░" not in text(app, "p1-cards")
            guest, _ = await bot_guest(host, 1, "speed")
            await until(pilot, lambda: "Give the other player" not in text(app, "status"))
            await pilot.press("1")  # ready
            await until(pilot, lambda: host.game.phase is not Phase.OPENING)
            await until(pilot, lambda: "Play!" in text(app, "status") or host.game.over)
            # a signal (SIGHUP, SIGTERM) saves local games: a network board has none to
            # save here, the host keeps it; the player is told so
            (line,) = app.save_games_in_progress()
            assert "stopped hosting" in line and "'spit resume'" in line
            await pilot.press("escape")  # asks first: it would end the guest's game too
            await pilot.pause(0.05)
            assert guest.ended is None and screen.host is not None
            assert "ends the game for the other player" in str(
                app.screen.query_one("#confirm-text").render()
            )
            await pilot.press("escape")  # keep playing
            await pilot.pause(0.05)
            assert app.screen is screen and guest.ended is None
            await pilot.press("escape", "enter")  # stop hosting
            await asyncio.wait_for(guest.done.wait(), 5)
            assert guest.ended == "the host left the game"
            await guest.close()

    await asyncio.wait_for(body(), LIMIT)


async def test_quitting_the_host_mid_game_does_not_say_the_game_is_over() -> None:
    """ctrl+q (or a signal) closes the hosting app: the guest hears the host left."""

    async def body() -> None:
        app, screens = hosting_app("spit")
        async with running(app) as pilot:
            (screen,) = screens
            await until(pilot, lambda: screen.host is not None and bool(screen.join_line))
            host = screen.host
            assert host is not None
            guest, _ = await bot_guest(host, 1, "spit")
            await until(pilot, lambda: "Give the other player" not in text(app, "status"))
            await pilot.press("ctrl+q")
            await asyncio.wait_for(guest.done.wait(), 5)
            assert not host.game.over
            assert guest.ended == "the host left the game"  # once, not also "has closed"
            await guest.close()

    await asyncio.wait_for(body(), LIMIT)


async def test_join_screen_connects_and_shows_the_board() -> None:
    async def body() -> None:
        game = new_game("speed", (), 21)
        async with hosted(game) as host:
            app = SpitApp(opening=Opening(screen=JoinScreen), deps=AppDependencies(record=False))
            async with running(app) as pilot:
                # a wrong code first: a clear message, the form stays
                fp, _secret = split_code(host.codes[1])
                await pilot.press(*f"127.0.0.1:{host.port}", "enter")
                await pilot.press(*f"{fp}zzzzzzzz", "enter")
                note = app.screen.query_one("#join-note")
                await until(pilot, lambda: "Cannot join" in str(note.render()))
                assert isinstance(app.screen, JoinScreen)
                code_input = app.screen.query_one("#join-code", Input)
                code_input.value = host.codes[1]
                code_input.focus()
                await pilot.press("enter")
                await until(pilot, lambda: isinstance(app.screen, NetGameScreen))
                # our own hand (seat 2) at the bottom, the opponent's face down on top
                await until(pilot, lambda: "░" in text(app, "p2-cards"))
                assert "░" not in text(app, "p1-cards")
                assert "call key 1" in text(app, "p1-info")  # the keys we use, shown
                await pilot.press("1")  # our call key: ready
                await until(pilot, lambda: game.phase is not Phase.OPENING)
                await pilot.press("escape")  # the game is running: asks first
                await pilot.pause(0.1)
                assert "join again" in str(app.screen.query_one("#confirm-text").render())
                await pilot.press("enter")
                await pilot.pause(0.1)
                assert isinstance(app.screen, JoinScreen)

    await asyncio.wait_for(body(), LIMIT)


async def test_spit_join_name_reaches_the_host() -> None:
    """``spit join --name Jo`` opens a JoinScreen with the name: the host seats Jo."""

    async def body() -> None:
        async with hosted(new_game("spit", (), 4)) as host:
            app = joining_app(host, name="Jo")
            async with running(app) as pilot:
                await until(pilot, lambda: isinstance(app.screen, NetGameScreen))
                await until(pilot, lambda: host.match.names[1] == "Jo")
                board = app.screen
                assert isinstance(board, NetGameScreen)
                await until(pilot, lambda: board.remote.names[1] == "Jo")

    await asyncio.wait_for(body(), LIMIT)


async def test_a_guest_cannot_take_the_other_players_name_in_another_case() -> None:
    """Issue 21 defect 2: two players of one name make every message ambiguous."""

    async def body() -> None:
        async with hosted(new_game("spit", (), 4)) as host:
            taken, before = host.match.names
            app = joining_app(host, name=f"  {taken.upper()} ")
            async with running(app) as pilot:
                await until(pilot, lambda: isinstance(app.screen, NetGameScreen))
                await pilot.pause(0.2)
                assert host.match.names == (taken, before)

    await asyncio.wait_for(body(), LIMIT)


async def test_title_menu_opens_host_and_join() -> None:
    async def body() -> None:
        from textual.widgets import OptionList

        from spit.tui.netscreens import HostSetupScreen
        from spit.tui.title import TitleScreen

        app = SpitApp(deps=AppDependencies(record=False))
        async with running(app) as pilot:
            assert isinstance(app.screen, TitleScreen)
            menu = app.screen.query_one("#menu", OptionList)
            ids = [menu.get_option_at_index(i).id for i in range(menu.option_count)]
            menu.highlighted = ids.index("join")
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, JoinScreen)
            await pilot.press("escape")
            await pilot.pause()
            menu = app.screen.query_one("#menu", OptionList)
            menu.highlighted = ids.index("host")
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, HostSetupScreen)
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, TitleScreen)

    await asyncio.wait_for(body(), LIMIT)


def test_check_port_accepts_a_free_port_or_zero_and_explains_a_bad_one() -> None:
    import socket

    from spit.tui.netscreens import check_port

    assert check_port("0", "127.0.0.1") == 0
    assert "number" in str(check_port("77x", "127.0.0.1"))
    assert "out of range" in str(check_port("80", "127.0.0.1"))
    assert "out of range" in str(check_port("70000", "127.0.0.1"))
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert "in use" in str(check_port(str(port), "127.0.0.1"))
    assert check_port(f" {port} ", "127.0.0.1") == port  # free again


async def test_host_setup_asks_the_port_and_refuses_a_bad_one() -> None:
    async def body() -> None:
        import socket

        from textual.widgets import Input, Static

        from spit.tui.netscreens import HostSetupScreen
        from spit.tui.title import TitleScreen

        app = SpitApp(deps=AppDependencies(record=False))
        async with running(app) as pilot:
            assert isinstance(app.screen, TitleScreen)
            app.screen.choose_host()
            await pilot.pause()
            setup = app.screen
            assert isinstance(setup, HostSetupScreen)
            port_input = setup.query_one("#host-port", Input)
            note = setup.query_one("#host-note", Static)
            assert port_input.value == "7788"
            await pilot.press("tab")
            assert port_input.has_focus
            port_input.value = "99"
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is setup and "out of range" in str(note.render())
            with socket.socket() as busy:
                busy.bind(("127.0.0.1", 0))
                busy.listen()
                port_input.value = str(busy.getsockname()[1])
                await pilot.press("enter")
                await pilot.pause()
                assert app.screen is setup and "in use" in str(note.render())
            port_input.value = "0"
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, HostScreen))
            screen = app.screen
            assert isinstance(screen, HostScreen) and screen.options.port == 0
            await until(pilot, lambda: screen.host is not None and bool(screen.join_line))
            assert screen.host is not None and screen.host.port != 7788
            await pilot.press("escape")
            await pilot.pause(0.1)

    await asyncio.wait_for(body(), LIMIT)


async def test_the_bot_or_save_choice_is_a_box_that_no_game_key_answers() -> None:
    """After a drop times out, only Enter (computer plays) or Esc (save) decide."""
    from tests.support import FakeClock

    from spit.net import protocol as proto
    from spit.net.match import Match
    from spit.net.stamping import Stamper
    from spit.net.view import RemoteSession
    from spit.tui.confirm import ConfirmScreen

    decided: list[str] = []
    screens: list[NetGameScreen] = []

    def board(dealer: Dealer) -> NetGameScreen:
        screen = NetGameScreen(RemoteSession(lambda action, at: 1), dealer)
        screen.decider = lambda what: decided.append(what) or None
        screens.append(screen)
        return screen

    class ScreenLink:
        def send(self, data: bytes) -> None:
            screens[0].deliver(proto.decode(data, proto.HOST_TO_GUEST, proto.MAX_HOST_LINE))

    class Gone:
        def send(self, data: bytes) -> None:
            pass

    async def body() -> None:
        app = SpitApp(opening=Opening(screen=board), deps=AppDependencies(record=False))
        async with running(app) as pilot:
            await until(pilot, lambda: bool(screens) and screens[0].is_mounted)
            clock = FakeClock()
            match = Match(new_game("spit", (), 8), clock=clock, window=0.05, rejoin_timeout=60)
            match.attach(0, ScreenLink(), Stamper.local(), clock.now)
            match.attach(1, Gone(), Stamper.local(), clock.now)
            match.drop(1, clock.now)
            clock.now += 61
            match.tick(clock.now)
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await pilot.press("b", "s", "q", "a", "1", "space")  # game keys and the rest
            await pilot.pause(0.05)
            assert isinstance(app.screen, ConfirmScreen) and decided == []
            await pilot.press("enter")
            await until(pilot, lambda: decided == ["bot"])
            assert app.screen is screens[0]

    await asyncio.wait_for(body(), LIMIT)


async def test_quitting_a_joined_game_says_the_host_keeps_the_seat() -> None:
    """ctrl+q on a guest's board: the terminal is told how to get back in (it was silent)."""

    async def body() -> None:
        async with hosted(new_game("spit", (), 5)) as host:
            app = joining_app(host)
            async with running(app) as pilot:
                await until(pilot, lambda: isinstance(app.screen, NetGameScreen))
                board = app.screen
                assert isinstance(board, NetGameScreen)
                await until(pilot, lambda: board.live)
                (line,) = app.save_games_in_progress()
                assert "you left the network game" in line and "join again" in line
                await pilot.press("ctrl+q")
            while host.match.seats[1].dropped_at is None:  # the host keeps the seat
                await asyncio.sleep(0.02)
            assert not host.game.over

    await asyncio.wait_for(body(), LIMIT)


async def test_quitting_while_hosting_says_the_game_is_saved_here() -> None:
    async def body() -> None:
        app, screens = hosting_app("spit")
        async with running(app) as pilot:
            (screen,) = screens
            await until(pilot, lambda: screen.host is not None and bool(screen.join_line))
            assert app.save_games_in_progress() == []  # nobody joined: nothing is left behind
            host = screen.host
            assert host is not None
            guest, _ = await bot_guest(host, 1, "spit")
            await until(pilot, lambda: screen.live)
            (line,) = app.save_games_in_progress()
            assert "stopped hosting" in line and "spit resume" in line
            await guest.close()

    await asyncio.wait_for(body(), LIMIT)


async def test_the_join_form_never_shows_around_a_large_board() -> None:
    """At 100x30 the board is centred: the space around it is the board screen's own
    (the join form under it showed through there once, when that screen kept its lines)."""

    async def body() -> None:
        async with hosted(new_game("spit", (), 5)) as host:
            app = joining_app(host)
            async with running(app, size=(100, 30)) as pilot:
                await until(pilot, lambda: isinstance(app.screen, NetGameScreen))
                board = app.screen
                assert isinstance(board, NetGameScreen)
                await until(pilot, lambda: board.live)
                await pilot.press("1")
                await pilot.pause(0.3)
                shot = app.export_screenshot().replace("&#160;", " ")
                assert "left pile" in shot
                assert "Enter: join" not in shot and "Join a game" not in shot

    await asyncio.wait_for(body(), LIMIT)


async def test_a_too_small_terminal_in_a_network_game_says_the_game_goes_on() -> None:
    """The host runs the game: a guest's small terminal cannot pause it, and the note
    says so (it said "the game is paused" and "ctrl+q saves the game")."""

    async def body() -> None:
        async with hosted(new_game("spit", (), 5)) as host:
            app = joining_app(host)
            async with running(app) as pilot:
                await until(pilot, lambda: isinstance(app.screen, NetGameScreen))
                board = app.screen
                assert isinstance(board, NetGameScreen)
                await until(pilot, lambda: board.live)
                await pilot.resize_terminal(60, 20)
                await pilot.pause()
                note = str(board.query_one("#too-small").render())
                assert "needs at least 80x24" in note
                assert "goes on at the host" in note and "paused" not in note
                assert "saves the game" not in note
                assert not host.match.arbiter.paused
                await pilot.resize_terminal(80, 24)
                await pilot.pause()
                assert not board.query_one("#too-small").display

    await asyncio.wait_for(body(), LIMIT)


async def test_esc_on_a_watchers_board_asks_in_a_watchers_words() -> None:
    """A spectator's stray Esc asks before it stops watching, and says the game goes
    on (not that the host keeps a seat it never had)."""

    async def body() -> None:
        game = new_game("spit", (), 5)
        async with hosted(game) as host:
            other, _ = await bot_guest(host, 1, game.mode)
            try:
                address = f"127.0.0.1:{host.port}"

                def watch_screen(dealer: Dealer) -> JoinScreen:
                    return JoinScreen(dealer, address, host.watch_code, watch=True, auto=True)

                app = SpitApp(
                    opening=Opening(screen=watch_screen), deps=AppDependencies(record=False)
                )
                async with running(app) as pilot:
                    await until(pilot, lambda: isinstance(app.screen, NetGameScreen))
                    board = app.screen
                    assert isinstance(board, NetGameScreen)
                    await until(pilot, lambda: board.live, LIMIT)
                    assert board.remote.watching
                    await pilot.press("escape")
                    await pilot.pause(0.1)
                    words = str(app.screen.query_one("#confirm-text").render())
                    assert "watch again" in words and "keeps" not in words
                    await pilot.press("escape")  # keep watching
                    await pilot.pause(0.1)
                    assert app.screen is board
            finally:
                await other.close()

    await asyncio.wait_for(body(), LIMIT)
