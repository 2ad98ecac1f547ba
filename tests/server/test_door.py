"""The plain-ssh door, driven through a real pty: 80x24, a resize, a clean end on hang-up."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from benchmarks.sshterm import Terminal, sign_in
from tests.support.net import LIMIT
from tests.support.server import quick_settings, start_cluster

from spit.net.defaults import DOOR_TOKEN_VARIABLE
from spit.server import node as node_module
from spit.server.door import game_process, terminal_size
from spit.server.node import ServerNode


async def test_plain_ssh_shows_the_lobby_follows_a_resize_and_ends_cleanly(
    tmp_path: Path,
) -> None:
    async def body() -> None:
        node = ServerNode(quick_settings(tmp_path / "server"))
        port = await node.start()
        try:
            conn = await sign_in(port)
            term = await Terminal.open(conn)
            await term.shows("Quick pair", LIMIT)
            await term.shows("Welcome, guest1", LIMIT)
            assert len(node.doors) == 1
            ((pid, master),) = node.doors.items()
            assert terminal_size(master) == (80, 24)
            assert node.status()["door_mb"], "the status reports each door's memory"
            term.resize(100, 30)
            for _ in range(100):
                if terminal_size(master) == (100, 30):
                    break
                await asyncio.sleep(0.05)
            assert terminal_size(master) == (100, 30)
            term.type("\x1b[B\r")  # down to "Quick pair: Speed", Enter
            await asyncio.sleep(0.5)
            assert len(node.queue) == 1  # the door's player is waiting to be paired
            conn.close()  # hang up
            for _ in range(100):
                if not node.doors and not node.players:
                    break
                await asyncio.sleep(0.05)
            assert not node.doors and node.open_doors == 0
            assert not node.players and not node.queue
            try:
                os.kill(pid, 0)
                alive = True
            except ProcessLookupError:
                alive = False
            assert not alive, "the door's game process ended with the connection"
        finally:
            await node.shutdown()

    await asyncio.wait_for(body(), LIMIT * 2)


async def test_a_server_shutting_down_gives_the_door_its_terminal_back(tmp_path: Path) -> None:
    """The game process ends first and says why, over the connection still open: the
    player's terminal leaves the app's screen, mouse reporting ends, the cursor comes
    back (before, the connection was closed first and the terminal kept all three)."""

    async def body() -> None:
        node = ServerNode(quick_settings(tmp_path / "server"))
        port = await node.start()
        try:
            conn = await sign_in(port)
            term = await Terminal.open(conn)
            await term.shows("Welcome, guest1", LIMIT)
            assert b"\x1b[?1049h" in term.seen  # (the app took the alternate screen)
        finally:
            await node.shutdown()
        await asyncio.wait_for(term.closed.wait(), LIMIT)
        ending = bytes(term.seen[term.seen.rindex(b"Welcome, guest1") :])
        assert b"\x1b[?1049l" in ending, "the terminal left the app's screen"
        assert b"\x1b[?1000l" in ending, "mouse reporting ended"
        assert b"\x1b[?25h" in ending, "the cursor came back"
        assert "the server is shutting down" in term.text()
        assert term.process.exit_status == 0
        conn.close()

    await asyncio.wait_for(body(), LIMIT * 2)


async def test_a_door_closed_for_no_key_gives_the_terminal_back(tmp_path: Path) -> None:
    """The idle limit ends the session from the server's side: the game process is
    hung up on, and what it writes as it ends still reaches the player."""

    async def body() -> None:
        node = ServerNode(quick_settings(tmp_path / "server", idle_timeout=2.0))
        port = await node.start()
        try:
            conn = await sign_in(port)
            term = await Terminal.open(conn)
            await term.shows("Welcome, guest1", LIMIT)
            await asyncio.wait_for(term.closed.wait(), LIMIT)
            ending = bytes(term.seen[term.seen.rindex(b"Welcome, guest1") :])
            assert "Closed after a long time without a key" in term.text()
            assert b"\x1b[?1049l" in ending, "the terminal left the app's screen"
            assert b"\x1b[?1000l" in ending, "mouse reporting ended"
            assert b"\x1b[?25h" in ending, "the cursor came back"
            conn.close()
        finally:
            await node.shutdown()

    await asyncio.wait_for(body(), LIMIT * 2)


async def test_a_door_token_that_looks_like_an_option_still_signs_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One token in 64 starts with "-": on the command line it was taken for an option,
    and that player's session ended with a usage error instead of the lobby."""
    tokens = iter(["-" + "x" * 31, "--help" + "y" * 26])
    monkeypatch.setattr(node_module.secrets, "token_urlsafe", lambda _n: next(tokens))

    async def body() -> None:
        node = ServerNode(quick_settings(tmp_path / "server"))
        port = await node.start()
        try:
            for _ in range(2):
                conn = await sign_in(port)
                term = await Terminal.open(conn)
                await term.shows("Quick pair", LIMIT)
                assert "error" not in term.text()
                conn.close()
        finally:
            await node.shutdown()

    await asyncio.wait_for(body(), LIMIT * 2)


def test_a_door_token_is_kept_off_the_command_line(tmp_path: Path) -> None:
    """Any local user can read a process's command line; only its owner its environment."""
    command, env = game_process(2222, "SHA256:pin", "-secret", str(tmp_path), "xterm")
    assert not any("-secret" in part for part in command)
    assert env[DOOR_TOKEN_VARIABLE] == "-secret"
    assert command[-4:] == ["127.0.0.1:2222", "--door", "--pin", "SHA256:pin"]


async def test_a_session_without_a_terminal_is_told_how_to_play(tmp_path: Path) -> None:
    async def body() -> None:
        node = ServerNode(quick_settings(tmp_path / "server"))
        port = await node.start()
        try:
            async with await sign_in(port) as conn:
                result = await conn.run("ls /", encoding=None)
                assert b"spit online" in (result.stdout or b"")
                assert result.exit_status == 1
        finally:
            await node.shutdown()

    await asyncio.wait_for(body(), LIMIT)


async def test_doors_per_address_are_limited(tmp_path: Path) -> None:
    async def body() -> None:
        node = ServerNode(quick_settings(tmp_path / "server", doors_per_address=1))
        port = await node.start()
        try:
            conns = []
            for _ in range(2):
                conns.append(await sign_in(port))
            first = await Terminal.open(conns[0], term_type="xterm")
            await first.shows("Quick pair", LIMIT)
            second = await Terminal.open(conns[1], term_type="xterm")
            await second.shows("Too many sessions from your address", LIMIT)
            assert len(node.doors) == 1
            for conn in conns:
                conn.close()
        finally:
            await node.shutdown()

    await asyncio.wait_for(body(), LIMIT)


async def test_a_plain_ssh_player_plays_a_match_hosted_on_another_node(tmp_path: Path) -> None:
    """The door's game process on north joins the match on south as a client of south."""
    from tests.support.server import Player
    from tests.support.services import (
        drop_schema,
        fresh_prefix,
        fresh_schema,
    )

    async def body() -> None:
        schema, prefix = fresh_schema(), fresh_prefix()
        nodes = await start_cluster(tmp_path, ("north", "south"), schema, prefix)
        north, south = nodes
        try:
            conn = await sign_in(north.settings.port)
            term = await Terminal.open(conn)
            await term.shows("Welcome, guest1", LIMIT)
            bob = Player(tmp_path / "bob", "Bob")
            await bob.connect(south)
            await bob.lobby.wait_for(lambda m: m["t"] == "welcome")
            await asyncio.sleep(0.5)
            bob.send("delays", ms={"north": 50, "south": 5})
            await asyncio.sleep(0.3)
            term.type("\x1b[B\r")  # "Quick pair: Speed"
            bob.send("queue", mode="speed")
            matched = await bob.lobby.wait_for(lambda m: m["t"] == "matched", timeout=LIMIT)
            assert matched["address"] == south.address
            match = south.matches[matched["match"]]
            door_seat = 1 - matched["seat"]
            for _ in range(200):
                if match.host.match.seat_taken(door_seat):
                    break
                await asyncio.sleep(0.05)
            assert match.host.match.seat_taken(door_seat), "the door's player reached south"
            await bob.close()
            conn.close()
        finally:
            for node in nodes:
                await node.shutdown()
            await drop_schema(north.store)

    await asyncio.wait_for(body(), LIMIT * 3)
