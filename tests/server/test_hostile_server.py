"""Hostile clients of a spit server: each is refused with a log line, and nobody else notices."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncssh
import pytest
from benchmarks.sshterm import sign_in
from tests.support.net import LIMIT, LogLines
from tests.support.server import Player, quick_settings

from spit.net.lobbywire import LOBBY_SUBSYSTEM
from spit.net.online import ServerKeyChanged
from spit.server.node import ServerNode


@pytest.fixture
async def node(tmp_path: Path) -> AsyncIterator[ServerNode]:
    server = ServerNode(
        quick_settings(tmp_path / "server", max_preauth_per_address=4, login_timeout=2.0)
    )
    await server.start()
    yield server
    await server.shutdown()


@pytest.fixture
def lines() -> Iterator[LogLines]:
    handler = LogLines()
    logger = logging.getLogger("spit.server")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    yield handler
    logger.removeHandler(handler)


async def _raw_lobby(
    node: ServerNode,
) -> tuple[asyncssh.SSHClientConnection, asyncssh.SSHClientProcess[bytes]]:
    key = asyncssh.generate_private_key("ssh-ed25519")
    conn = await sign_in(node.settings.port, "x", key)
    process = await conn.create_process(subsystem=LOBBY_SUBSYSTEM, encoding=None)
    return conn, process


async def _read_all(process: asyncssh.SSHClientProcess[bytes]) -> bytes:
    out = b""
    while True:
        chunk = await asyncio.wait_for(process.stdout.read(65536), LIMIT)
        if not chunk:
            return out
        out += chunk


@pytest.mark.parametrize(
    ("payload", "why"),
    [
        (b"not json\n", "not JSON"),
        (b'{"t":"claim","name":"Ann"}\n', "say hello first"),
        (b'{"t":"hello","v":1,"app":"x","extra":1}\n', "unknown field"),
        (b'{"t":"hello","v":99,"app":"x"}\n', "lobby protocol"),
        (
            b'{"t":"hello","v":1,"app":"x"}\n{"t":"queue","mode":' + b'"x' * 3000 + b'"}\n',
            "too long",
        ),
        (b'{"t":"hello","v":1,"app":"x"}\n' + b'{"t":"ping","t0":1}\n' * 200, "too many"),
        (b'{"t":"hello","v":1' + b"1" * 400 + b',"app":"x"}\n', "wrong value"),
    ],
)
async def test_a_malformed_or_flooding_lobby_client_is_closed_with_a_reason(
    node: ServerNode, tmp_path: Path, lines: LogLines, payload: bytes, why: str
) -> None:
    async def body() -> None:
        honest = Player(tmp_path / "ann", "Ann")
        await honest.connect(node)
        await honest.lobby.wait_for(lambda m: m["t"] == "welcome")
        conn, process = await _raw_lobby(node)
        process.stdin.write(payload)
        out = await _read_all(process)
        assert b'"t":"bye"' in out
        assert why.encode() in out or why in " ".join(lines.lines)
        assert lines.has("lobby_protocol") or lines.has("lobby_closed")
        conn.close()
        honest.send("board", mode="spit")  # the honest player's lobby still answers
        await honest.lobby.wait_for(lambda m: m["t"] == "standings")
        await honest.close()

    await asyncio.wait_for(body(), LIMIT)


async def test_idle_connections_before_sign_in_are_limited_per_address(
    node: ServerNode, tmp_path: Path, lines: LogLines
) -> None:
    async def body() -> None:
        idle = [await asyncio.open_connection("127.0.0.1", node.settings.port) for _ in range(6)]
        await asyncio.sleep(0.3)
        assert lines.has("too many sign-ins at once from this address")
        # after the login time-out the idle ones are gone and a real player gets in
        await asyncio.sleep(node.settings.login_timeout + 0.5)
        player = Player(tmp_path / "ann", "Ann")
        await player.connect(node)
        await player.lobby.wait_for(lambda m: m["t"] == "welcome")
        await player.close()
        for _reader, writer in idle:
            writer.close()

    await asyncio.wait_for(body(), LIMIT)


async def test_a_player_cannot_play_another_players_seat_or_a_spectator_decide(
    node: ServerNode, tmp_path: Path
) -> None:
    async def body() -> None:
        ann, bob, eve = (Player(tmp_path / n, n) for n in ("Ann", "Bob", "Eve"))
        for p in (ann, bob, eve):
            await p.connect(node)
            await p.lobby.wait_for(lambda m: m["t"] == "welcome")
        ann.send("queue", mode="spit")
        bob.send("queue", mode="spit")
        ma = await ann.lobby.wait_for(lambda m: m["t"] == "matched")
        mb = await bob.lobby.wait_for(lambda m: m["t"] == "matched")
        await asyncio.gather(ann.play_matched(ma), bob.play_matched(mb))
        # Eve opens Ann's match channel: she is only a spectator there
        assert eve.client is not None
        from tests.support.net import Recorder

        seen = Recorder()
        guest = await eve.client.open_match(ma["match"], on_message=seen)
        welcome = await seen.wait_for(lambda m: m["t"] == "welcome")
        assert welcome["seat"] is None
        from spit.engine import Action, Kind

        guest.action(Action(Kind.CALL, ma["seat"]))
        verdict = await seen.wait_for(lambda m: m["t"] == "verdict")
        assert verdict["ok"] is False and "spectator" in verdict["reason"]
        guest.decide("save")
        await asyncio.sleep(0.2)
        assert ma["match"] in node.matches  # the match goes on
        for msg in seen.messages:  # and Eve never saw a hand
            if msg["t"] == "state":
                assert msg["obs"]["player"] is None
        for p in (ann, bob, eve):
            await p.close()

    await asyncio.wait_for(body(), LIMIT)


async def test_a_key_links_to_an_account_with_a_one_time_code(
    node: ServerNode, tmp_path: Path
) -> None:
    async def body() -> None:
        laptop = Player(tmp_path / "laptop", "Ann")
        await laptop.connect(node)
        await laptop.lobby.wait_for(lambda m: m["t"] == "welcome")
        laptop.send("newlink")
        code = (await laptop.lobby.wait_for(lambda m: m["t"] == "linkcode"))["code"]
        desktop = Player(tmp_path / "desktop", "")
        await desktop.connect(node)
        await desktop.lobby.wait_for(lambda m: m["t"] == "needname")
        desktop.send("link", code="WRONGCODE")
        ask = await desktop.lobby.wait_for(lambda m: m["t"] == "needname" and "problem" in m)
        assert "wrong" in ask["problem"]
        desktop.send("link", code=code)
        welcome = await desktop.lobby.wait_for(lambda m: m["t"] == "welcome")
        assert welcome["name"] == "Ann"
        account = await node.store.account_named("Ann")
        assert account is not None and len(await node.store.keys_of(account.id)) == 2
        third = Player(tmp_path / "third", "")
        await third.connect(node)
        await third.lobby.wait_for(lambda m: m["t"] == "needname")
        third.send("link", code=code)  # a code works once
        ask = await third.lobby.wait_for(lambda m: m["t"] == "needname" and "problem" in m)
        assert "wrong" in ask["problem"]
        for p in (laptop, desktop, third):
            await p.close()

    await asyncio.wait_for(body(), LIMIT)


async def test_a_changed_server_key_is_refused_with_how_to_accept_it(tmp_path: Path) -> None:
    async def body() -> None:
        first = ServerNode(quick_settings(tmp_path / "one"))
        await first.start()
        port = first.settings.port
        ann = Player(tmp_path / "ann", "Ann")
        await ann.connect(first)
        await ann.lobby.wait_for(lambda m: m["t"] == "welcome")
        await ann.close()
        await first.shutdown()
        impostor = ServerNode(quick_settings(tmp_path / "two", port=port))  # another host key
        await impostor.start()
        try:
            with pytest.raises(ServerKeyChanged, match="--forget-key"):
                await ann.connect(impostor)
            assert ann.known.forget(f"127.0.0.1:{port}")
            await ann.connect(impostor)  # accepted on purpose
            await ann.lobby.wait_for(lambda m: m["t"] == "needname" or m["t"] == "welcome")
            await ann.close()
        finally:
            await impostor.shutdown()

    await asyncio.wait_for(body(), LIMIT)


async def test_nobody_signs_in_with_a_made_up_door_token(node: ServerNode) -> None:
    async def body() -> None:
        with pytest.raises(asyncssh.PermissionDenied):
            await asyncssh.connect(
                "127.0.0.1",
                node.settings.port,
                username="door",
                password="made-up",
                known_hosts=None,
                agent_path=None,
                config=None,
                client_keys=None,
                preferred_auth="password",
            )

    await asyncio.wait_for(body(), LIMIT)


def test_every_message_type_has_a_schema_and_a_direction() -> None:
    from spit.net.lobbywire import CLIENT_TO_SERVER, SCHEMA, SERVER_TO_CLIENT

    assert set(SCHEMA) == CLIENT_TO_SERVER | SERVER_TO_CLIENT
