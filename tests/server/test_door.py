"""The plain-ssh door, driven through a real pty: 80x24, a resize, a clean end on hang-up."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import asyncssh
from tests.support.net import LIMIT
from tests.support.server import quick_settings

from spit.server.door import terminal_size
from spit.server.node import ServerNode

ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b[=>]|\x1b\][^\x07]*\x07")


async def _read_until(
    process: asyncssh.SSHClientProcess[bytes], seen: bytearray, text: bytes, timeout: float
) -> None:
    async def scan() -> None:
        while text not in ANSI.sub(b"", bytes(seen)):
            chunk = await process.stdout.read(65536)
            if not chunk:
                raise AssertionError(f"the door closed before showing {text!r}")
            seen.extend(chunk)

    await asyncio.wait_for(scan(), timeout)


async def test_plain_ssh_shows_the_lobby_follows_a_resize_and_ends_cleanly(
    tmp_path: Path,
) -> None:
    async def body() -> None:
        node = ServerNode(quick_settings(tmp_path / "server"))
        port = await node.start()
        try:
            conn = await asyncssh.connect(
                "127.0.0.1",
                port,
                username="guest",
                known_hosts=None,
                agent_path=None,
                config=None,
                client_keys=None,
            )
            process = await conn.create_process(
                term_type="xterm-256color", term_size=(80, 24), encoding=None
            )
            seen = bytearray()
            await _read_until(process, seen, b"Quick pair", LIMIT)
            await _read_until(process, seen, b"Welcome, guest1", LIMIT)
            assert len(node.doors) == 1
            ((pid, master),) = node.doors.items()
            assert terminal_size(master) == (80, 24)
            assert node.status()["door_mb"], "the status reports each door's memory"
            process.change_terminal_size(100, 30)
            for _ in range(100):
                if terminal_size(master) == (100, 30):
                    break
                await asyncio.sleep(0.05)
            assert terminal_size(master) == (100, 30)
            process.stdin.write(b"\x1b[B\r")  # down to "Quick pair: Speed", Enter
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
                import os

                os.kill(pid, 0)
                alive = True
            except ProcessLookupError:
                alive = False
            assert not alive, "the door's game process ended with the connection"
        finally:
            await node.shutdown()

    await asyncio.wait_for(body(), LIMIT * 2)


async def test_a_session_without_a_terminal_is_told_how_to_play(tmp_path: Path) -> None:
    async def body() -> None:
        node = ServerNode(quick_settings(tmp_path / "server"))
        port = await node.start()
        try:
            async with asyncssh.connect(
                "127.0.0.1",
                port,
                username="guest",
                known_hosts=None,
                agent_path=None,
                config=None,
                client_keys=None,
            ) as conn:
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
                conn = await asyncssh.connect(
                    "127.0.0.1",
                    port,
                    username="guest",
                    known_hosts=None,
                    agent_path=None,
                    config=None,
                    client_keys=None,
                )
                conns.append(conn)
            first = await conns[0].create_process(
                term_type="xterm", term_size=(80, 24), encoding=None
            )
            seen = bytearray()
            await _read_until(first, seen, b"Quick pair", LIMIT)
            second = await conns[1].create_process(
                term_type="xterm", term_size=(80, 24), encoding=None
            )
            out = await asyncio.wait_for(second.stdout.read(), LIMIT)
            assert b"Too many sessions from your address" in out
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
        postgres_url,
        redis_url,
    )

    from spit.server.postgres_store import PostgresStore

    async def body() -> None:
        schema, prefix = fresh_schema(), fresh_prefix()
        nodes = []
        for name in ("north", "south"):
            settings = quick_settings(
                tmp_path / name, bus_url=redis_url(), bus_prefix=prefix, node_id=name
            )
            node = ServerNode(settings, store=PostgresStore(postgres_url(), schema=schema))
            await node.start()
            nodes.append(node)
        north, south = nodes
        try:
            for _ in range(100):
                if all(len(n.cluster) == 2 for n in nodes):
                    break
                await asyncio.sleep(0.05)
            conn = await asyncssh.connect(
                "127.0.0.1",
                north.settings.port,
                username="guest",
                known_hosts=None,
                agent_path=None,
                config=None,
                client_keys=None,
            )
            process = await conn.create_process(
                term_type="xterm-256color", term_size=(80, 24), encoding=None
            )
            seen = bytearray()
            await _read_until(process, seen, b"Welcome, guest1", LIMIT)
            bob = Player(tmp_path / "bob", "Bob")
            await bob.connect(south)
            await bob.lobby.wait_for(lambda m: m["t"] == "welcome")
            await asyncio.sleep(0.5)
            bob.send("delays", ms={"north": 50, "south": 5})
            await asyncio.sleep(0.3)
            process.stdin.write(b"\x1b[B\r")  # "Quick pair: Speed"
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
