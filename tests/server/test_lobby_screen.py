"""The lobby screen through Textual's Pilot, with a real server on loopback."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncssh
import pytest
from tests.support.net import LIMIT
from tests.support.pilot import running, until
from tests.support.server import Player, quick_settings, start_cluster
from textual.widgets import Input, OptionList, Static

from spit.net.online import KnownServers
from spit.server.node import ServerNode
from spit.tui.app import AppDependencies, Opening, SpitApp
from spit.tui.confirm import ConfirmScreen
from spit.tui.dealer import Dealer
from spit.tui.netscreens import NetGameScreen
from spit.tui.online import LobbyScreen

#: how long the lobby may take to show what a test waits for (a real server, signing in)
LOBBY_WAIT = 8.0


@pytest.fixture
async def node(tmp_path: Path) -> AsyncIterator[ServerNode]:
    """A started server node on 127.0.0.1 (shut down after the test)."""
    server = ServerNode(quick_settings(tmp_path / "server"))
    await server.start()
    yield server
    await server.shutdown()


def lobby_app(node: ServerNode, home: Path, name: str = "") -> SpitApp:
    key = asyncssh.generate_private_key("ssh-ed25519")

    def screen(dealer: Dealer) -> LobbyScreen:
        return LobbyScreen(
            dealer,
            "127.0.0.1",
            node.settings.port,
            key=key,
            known=KnownServers(home / "known.json"),
            name=name,
            bot_after=None,
        )

    return SpitApp(opening=Opening(screen=screen), deps=AppDependencies(record=False))


def note(app: SpitApp) -> str:
    return str(app.screen.query_one("#lobby-note", Static).render())


async def welcomed(pilot: Any, app: SpitApp, name: str) -> LobbyScreen:
    """The lobby, once it has welcomed ``name`` (signed in)."""
    await until(
        pilot,
        lambda: isinstance(app.screen, LobbyScreen) and f"Welcome, {name}" in note(app),
        LOBBY_WAIT,
    )
    assert isinstance(app.screen, LobbyScreen)
    return app.screen


async def test_a_new_player_claims_a_name_is_paired_and_plays_on_the_board(
    tmp_path: Path,
) -> None:
    async def body() -> None:
        node = ServerNode(quick_settings(tmp_path / "server"))
        await node.start()
        try:
            app = lobby_app(node, tmp_path / "me")
            async with running(app) as pilot:
                await until(pilot, lambda: bool(app.screen.query("#ask-input")), LOBBY_WAIT)
                field = app.screen.query_one("#ask-input", Input)
                field.value = "guest"  # reserved: asked again, with the reason
                await pilot.press("enter")
                await until(
                    pilot,
                    lambda: (
                        "kept for the server"
                        in str(app.screen.query_one("#ask-note", Static).render())
                        if app.screen.query("#ask-note")
                        else False
                    ),
                    LOBBY_WAIT,
                )
                app.screen.query_one("#ask-input", Input).value = "Zed"
                await pilot.press("enter")
                await welcomed(pilot, app, "Zed")
                other = Player(tmp_path / "bob", "Bob")
                await other.connect(node)
                await other.lobby.wait_for(lambda m: m["t"] == "welcome")
                other.send("queue", mode="spit")
                await pilot.press("enter")  # Quick pair: Spit
                matched = await other.lobby.wait_for(lambda m: m["t"] == "matched")
                await other.play_matched(matched)
                await until(pilot, lambda: isinstance(app.screen, NetGameScreen), LOBBY_WAIT)
                mine = 1 - matched["seat"]
                await pilot.press("1")  # call "spit!" with this player's key
                await other.match.wait_for(
                    lambda m: m["t"] == "events" and m.get("by") == mine, timeout=LIMIT
                )
                await pilot.press("escape")  # leave the board: asked first, in the server's words
                await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), LOBBY_WAIT)
                shot = app.export_screenshot().replace("&#160;", " ")
                assert "The server keeps your seat" in shot and "same line" not in shot
                await pilot.press("enter")
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen), LOBBY_WAIT)
                assert "Back in the lobby" in note(app)  # no longer "Playing Zed v Bob..."
                await other.close()
        finally:
            await node.shutdown()

    await asyncio.wait_for(body(), LIMIT * 2)


async def test_a_board_watching_its_players_own_match_takes_their_seat(
    node: ServerNode, tmp_path: Path
) -> None:
    """A watcher's notice for the player's own match came first (an older server, or a
    pick from the live list as the match was dealt): the seat's notice makes the board
    play the seat, and a second notice for a board's match opens no second board."""

    async def body() -> None:
        app = lobby_app(node, tmp_path / "me", name="Zed")
        async with running(app) as pilot:
            lobby = await welcomed(pilot, app, "Zed")
            held: list[dict[str, Any]] = []
            handle = lobby._on_matched
            lobby._on_matched = held.append  # type: ignore[method-assign]
            other = Player(tmp_path / "bob", "Bob")
            await other.connect(node)
            await other.lobby.wait_for(lambda m: m["t"] == "welcome")
            other.send("queue", mode="spit")
            lobby.send("queue", mode="spit")
            matched = await other.lobby.wait_for(lambda m: m["t"] == "matched")
            await other.play_matched(matched)
            await until(pilot, lambda: bool(held), LOBBY_WAIT)
            lobby._on_matched = handle  # type: ignore[method-assign]
            seat_notice = held[0]
            watch_notice = node.watch_notice(matched["match"])
            assert watch_notice is not None and watch_notice["seat"] is None
            handle(dict(watch_notice))
            await until(pilot, lambda: isinstance(app.screen, NetGameScreen), LOBBY_WAIT)
            board = app.screen
            assert isinstance(board, NetGameScreen)
            await until(pilot, lambda: board.remote.version > 0, LOBBY_WAIT)  # welcomed
            assert board.remote.watching and board.remote.seat is None
            assert not board.remote.started  # the match waits for this seat
            handle(seat_notice)
            handle(dict(watch_notice))  # late: the board plays the match already
            mine = 1 - matched["seat"]
            await until(pilot, lambda: board.remote.seat == mine, LOBBY_WAIT)
            await until(pilot, lambda: not board.remote.link.paused, LOBBY_WAIT)
            assert not board.remote.watching and app.screen is board
            assert "Playing" in str(lobby.query_one("#lobby-note", Static).render())
            await pilot.press("1")  # the seat's key reaches the host now
            await other.match.wait_for(
                lambda m: m["t"] == "events" and m.get("by") == mine, timeout=LIMIT
            )
            assert len(app.screen_stack) == 3  # the default screen, the lobby and one board
            await other.close()

    await asyncio.wait_for(body(), LIMIT * 2)


async def test_esc_in_a_lobby_opened_by_spit_online_asks_before_leaving(
    node: ServerNode, tmp_path: Path
) -> None:
    """``spit online`` (or the server's plain-ssh door) opened the lobby: Esc would end
    spit, so it asks; Esc keeps the lobby, Enter leaves the server."""

    async def body() -> None:
        app = lobby_app(node, tmp_path / "me", name="Zed")
        async with running(app) as pilot:
            lobby = await welcomed(pilot, app, "Zed")
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), LOBBY_WAIT)
            assert "Leave the server?" in app.export_screenshot().replace("&#160;", " ")
            await pilot.press("escape")  # stay
            await until(pilot, lambda: app.screen is lobby, LOBBY_WAIT)
            assert lobby.client is not None and lobby.client.ended is None
            assert "Zed" in [p.name for p in node.players.values()]
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), LOBBY_WAIT)
            await pilot.press("enter")  # leave
            await until(pilot, lambda: not node.players, LOBBY_WAIT)
            await until(pilot, lambda: not app.is_running, LOBBY_WAIT)

    await asyncio.wait_for(body(), LIMIT * 2)


def test_a_challenge_names_a_player_and_maybe_a_game() -> None:
    from spit.tui.online import challenge_request

    assert challenge_request("Ann") == ("Ann", "spit")
    assert challenge_request("Ann speed") == ("Ann", "speed")
    assert challenge_request("Ann Speed") == ("Ann", "speed")
    assert challenge_request("  Bob_2  ") == ("Bob_2", "spit")


async def test_the_board_follows_its_match_to_the_node_that_carries_it_on(tmp_path: Path) -> None:
    """The node running the match stops (others are up): the board picks the match up
    again on the node that resumed it, by itself, and the game goes on there."""
    from tests.support.services import (
        drop_schema,
        fresh_prefix,
        fresh_schema,
    )

    from spit.net.online import play_as_bot

    async def body() -> None:
        schema, prefix = fresh_schema(), fresh_prefix()
        nodes = await start_cluster(tmp_path, ("north", "south"), schema, prefix)
        north, south = nodes
        try:
            app = lobby_app(north, tmp_path / "me", name="Zed")
            async with running(app) as pilot:
                lobby = await welcomed(pilot, app, "Zed")
                assert lobby.client is not None
                await until(pilot, lambda: bool(lobby.client and lobby.client.delays), 10)
                lobby.client.send("delays", ms={"north": 50, "south": 5})
                other = Player(tmp_path / "bob", "Bob")
                await other.connect(north)
                await other.lobby.wait_for(lambda m: m["t"] == "welcome")
                await asyncio.sleep(0.5)
                other.send("delays", ms={"north": 50, "south": 5})
                await pilot.pause(0.3)
                other.send("queue", mode="spit")
                await pilot.press("enter")  # Quick pair: Spit
                matched = await other.lobby.wait_for(lambda m: m["t"] == "matched")
                assert matched["address"] == south.address

                async def next_matched(match_id: str) -> dict[str, object] | None:
                    return await other.lobby.wait_for(
                        lambda m: m["t"] == "matched" and m.get("resumed") is True, LIMIT
                    )

                bob = asyncio.create_task(
                    play_as_bot(
                        other.client,  # type: ignore[arg-type]
                        matched,
                        "medium",
                        on_message=other.match,
                        next_matched=next_matched,
                    )
                )
                await until(pilot, lambda: isinstance(app.screen, NetGameScreen), LOBBY_WAIT)
                board = app.screen
                assert isinstance(board, NetGameScreen)
                await other.match.wait_for(lambda m: m["t"] == "events", timeout=LIMIT)
                await south.shutdown()  # north is up: the match is handed over, not saved
                await until(pilot, lambda: matched["match"] in north.matches, LIMIT)
                # the board came back by itself: the game is going on, on north
                await until(
                    pilot,
                    lambda: not board.remote.link.paused and board.remote.ended is None,
                    LIMIT,
                )
                mine = 1 - matched["seat"]
                moves = len(other.match.messages)

                def mine_moved() -> bool:
                    return any(
                        m["t"] == "events" and m.get("by") == mine
                        for m in other.match.messages[moves:]
                    )

                # this player's keys reach the match on north: some play of theirs is applied
                for key in "qwertasdfgzxcvb1" * 4:
                    if mine_moved() or board.remote.game.over:
                        break
                    await pilot.press(key)
                    await pilot.pause(0.05)
                assert mine_moved() or board.remote.game.over
                bob.cancel()
                await other.close()
        finally:
            await north.shutdown()  # south was shut down above
            await drop_schema(nodes[0].store)

    await asyncio.wait_for(body(), LIMIT * 3)


async def test_a_watchers_board_finds_its_match_again_on_the_node_that_carries_it_on(
    tmp_path: Path,
) -> None:
    """The node running a watched match stops: the watcher's board is told to wait, asks
    the lobby where the match went once it is listed again, and watches it there."""
    from tests.server.test_three_nodes import SLOWISH
    from tests.support.services import drop_schema, fresh_prefix, fresh_schema

    from spit.net.online import play_as_bot

    async def body() -> None:
        schema, prefix = fresh_schema(), fresh_prefix()
        nodes = await start_cluster(tmp_path, ("north", "south"), schema, prefix)
        north, south = nodes
        try:
            app = lobby_app(north, tmp_path / "me", name="Zed")
            async with running(app) as pilot:
                lobby = await welcomed(pilot, app, "Zed")
                ann, bob = Player(tmp_path / "ann", "Ann"), Player(tmp_path / "bob", "Bob")
                for p in (ann, bob):
                    await p.connect(north)
                    await p.lobby.wait_for(lambda m: m["t"] == "welcome")
                await asyncio.sleep(0.5)
                for p in (ann, bob):
                    p.send("delays", ms={"north": 50, "south": 5})
                await pilot.pause(0.3)
                for p in (ann, bob):
                    p.send("queue", mode="spit")
                matched = [
                    await p.lobby.wait_for(lambda m: m["t"] == "matched") for p in (ann, bob)
                ]
                assert matched[0]["address"] == south.address
                match_id = matched[0]["match"]

                def follower(p: Player) -> Any:
                    async def next_matched(match_id: str) -> dict[str, Any] | None:
                        return await p.lobby.wait_for(
                            lambda m: m["t"] == "matched" and m.get("resumed") is True, LIMIT
                        )

                    return next_matched

                plays = [
                    asyncio.create_task(
                        play_as_bot(
                            p.client,  # type: ignore[arg-type]
                            m,
                            "easy",
                            reaction=SLOWISH,
                            on_message=p.match,
                            next_matched=follower(p),
                        )
                    )
                    for p, m in zip((ann, bob), matched, strict=True)
                ]
                await ann.match.wait_for(lambda m: m["t"] == "events", timeout=LIMIT)
                # the lobby lists the match (from south's snapshot on the bus): watch it
                await until(
                    pilot,
                    lambda: "Live matches: 1" in str(lobby.query_one("#lobby-online").render()),
                    LOBBY_WAIT,
                )
                lobby.send("watch", match=match_id)
                await until(pilot, lambda: isinstance(app.screen, NetGameScreen), LOBBY_WAIT)
                board = app.screen
                assert isinstance(board, NetGameScreen) and board.remote.seat is None
                await until(pilot, lambda: board.remote.started, LOBBY_WAIT)
                await south.shutdown()  # north is up: the match is handed over, not saved
                await until(pilot, lambda: board.remote.ended is not None, LIMIT)
                # the host says so as it stops, or (if its words were lost) the lobby does
                assert "another node" in str(board.remote.ended)
                await until(pilot, lambda: match_id in north.matches, LIMIT)
                # the board came back by itself and shows the match going on, on north
                await until(pilot, lambda: board.remote.ended is None, LIMIT)
                host = north.matches[match_id].host
                await until(pilot, lambda: not board.remote.link.paused, LIMIT)
                seen = board.remote.version
                await until(
                    pilot,
                    lambda: board.remote.version > seen or host.game.over,
                    LIMIT,
                )
                assert app.screen is board
                for task in plays:
                    task.cancel()
                for p in (ann, bob):
                    await p.close()
        finally:
            await north.shutdown()  # south was shut down above
            await drop_schema(nodes[0].store)

    await asyncio.wait_for(body(), LIMIT * 3)


async def test_the_title_menu_opens_a_servers_lobby_and_esc_comes_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Play online from the title: a bad address is said and nothing opens; the server's
    address opens its lobby, signed in with a key spit made (0600), and Esc goes back
    to the title menu, not out of spit."""
    from spit.tui.online import AskScreen
    from spit.tui.title import TitleScreen

    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # no ~/.ssh key: spit makes one
    monkeypatch.setenv("SPIT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("SPIT_CONFIG", str(tmp_path / "config.toml"))

    async def body() -> None:
        node = ServerNode(quick_settings(tmp_path / "server"))
        await node.start()
        try:
            app = SpitApp(deps=AppDependencies(record=False))
            async with running(app) as pilot:
                await until(pilot, lambda: isinstance(app.screen, TitleScreen), LOBBY_WAIT)
                menu = app.screen.query_one("#menu", OptionList)
                ids = [menu.get_option_at_index(i).id for i in range(menu.option_count)]
                menu.highlighted = ids.index("online")
                await pilot.press("enter")
                await until(pilot, lambda: isinstance(app.screen, AskScreen), LOBBY_WAIT)
                app.screen.query_one("#ask-input", Input).value = "127.0.0.1:99999"
                await pilot.press("enter")
                await pilot.pause()
                # refused: asked again, saying why, and nothing opened
                assert isinstance(app.screen, AskScreen)
                assert "bad port" in str(app.screen.query_one("#ask-note", Static).render())
                app.screen.query_one("#ask-input", Input).value = f"127.0.0.1:{node.settings.port}"
                await pilot.press("enter")
                await until(pilot, lambda: isinstance(app.screen, AskScreen), LOBBY_WAIT)
                assert "Choose your name" in str(app.screen.query_one(".hint", Static).render())
                app.screen.query_one("#ask-input", Input).value = "Quinn"
                await pilot.press("enter")
                await welcomed(pilot, app, "Quinn")
                key_file = next((tmp_path / "data").glob("*key*"))
                assert key_file.stat().st_mode & 0o777 == 0o600
                await pilot.press("escape")
                await until(pilot, lambda: isinstance(app.screen, TitleScreen), LOBBY_WAIT)
                assert app.is_running
                assert await node.store.account_named("Quinn") is not None
        finally:
            await node.shutdown()

    await asyncio.wait_for(body(), LIMIT * 2)


async def test_in_a_small_terminal_the_menu_scrolls_and_the_note_stays_in_sight(
    tmp_path: Path,
) -> None:
    async def body() -> None:
        node = ServerNode(quick_settings(tmp_path / "server"))
        await node.start()
        try:
            app = lobby_app(node, tmp_path / "me", name="Zed")
            async with running(app, size=(50, 15)) as pilot:
                await welcomed(pilot, app, "Zed")
                await pilot.pause(0.2)
                menu = app.screen.query_one("#lobby-menu", OptionList)
                assert menu.max_scroll_y > 0  # it scrolls
                for part in ("#lobby-note", ".hint"):
                    assert app.screen.query_one(part).region.bottom <= 15
                shot = app.export_screenshot().replace("&#160;", " ")
                assert "Welcome, Zed" in shot and "Esc: stop waiting" in shot
        finally:
            await node.shutdown()

    await asyncio.wait_for(body(), LIMIT * 2)
