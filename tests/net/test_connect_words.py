"""What a player reads when an SSH connection fails, for ``spit join`` and ``spit online``.

Both ends use one mapping (``client.connect_failure``); these tests pin its
words, then check that a refused port and a silent one read so through both
``Guest.connect`` and ``OnlineClient.connect``.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator

import asyncssh
import pytest
from tests.support.net import LIMIT

from spit.net.client import Guest, JoinError, connect_failure
from spit.net.online import OnlineClient, ServerKeyChanged


def _words(
    exc: BaseException,
    peer: str = "host",
    refused: str = "the host refused the join code (wrong or already used)",
) -> str:
    return str(
        connect_failure(exc, peer=peer, where="example.org:2222", timeout=15.0, refused=refused)
    )


def test_a_time_out_says_how_long_it_waited() -> None:
    assert _words(TimeoutError()) == "no answer from example.org:2222 within 15 s"


def test_a_refused_sign_in_gets_the_callers_words() -> None:
    assert _words(asyncssh.PermissionDenied("no")) == (
        "the host refused the join code (wrong or already used)"
    )
    assert (
        _words(asyncssh.PermissionDenied("no"), "server", "the server refused the sign-in")
        == "the server refused the sign-in"
    )


def test_a_changed_host_key_gives_the_callers_error_of_its_own_kind() -> None:
    changed = ServerKeyChanged("the server's key changed")
    error = connect_failure(
        asyncssh.HostKeyNotVerifiable("bad key"),
        peer="server",
        where="example.org:2222",
        timeout=15.0,
        refused="x",
        key_mismatch=changed,
    )
    assert error is changed


def test_a_failed_key_exchange_with_the_right_key_says_so() -> None:
    assert _words(asyncssh.KeyExchangeFailed("no common cipher")) == (
        "secure connection failed: no common cipher"
    )


def test_a_closed_connection_gives_the_peers_words_without_the_error_number() -> None:
    full = asyncssh.DisconnectError(11, "the host is full (error 11)")
    assert _words(full) == "the host closed the connection: the host is full"
    assert _words(full, "server") == "the server closed the connection: the host is full"


def test_an_unreachable_address_says_why() -> None:
    refused = ConnectionRefusedError(111, "Connection refused")
    assert _words(refused) == "cannot reach example.org:2222: Connection refused"
    assert _words(OSError("no route")) == "cannot reach example.org:2222: no route"


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


@pytest.fixture
async def silent_port() -> AsyncIterator[int]:
    """A port that accepts connections and never says a word."""
    held: list[asyncio.StreamWriter] = []

    async def hold(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        held.append(writer)

    server = await asyncio.start_server(hold, "127.0.0.1", 0)
    yield server.sockets[0].getsockname()[1]
    for writer in held:
        writer.close()
    server.close()
    await server.wait_closed()


async def test_a_refused_port_reads_the_same_for_join_and_online() -> None:
    port = _closed_port()
    with pytest.raises(JoinError) as joined:
        await asyncio.wait_for(
            Guest.connect("127.0.0.1", port, "abcde-fghjk-mnpq-rstv", timeout=5), LIMIT
        )
    with pytest.raises(JoinError) as online:
        await asyncio.wait_for(
            OnlineClient.connect("127.0.0.1", port, key=None, known=None, timeout=5), LIMIT
        )
    assert str(joined.value).startswith(f"cannot reach 127.0.0.1:{port}: ")
    assert str(online.value) == str(joined.value)


async def test_a_silent_port_times_out_in_the_same_words_for_join_and_online(
    silent_port: int,
) -> None:
    with pytest.raises(JoinError) as joined:
        await asyncio.wait_for(
            Guest.connect("127.0.0.1", silent_port, "abcde-fghjk-mnpq-rstv", timeout=1), LIMIT
        )
    with pytest.raises(JoinError) as online:
        await asyncio.wait_for(
            OnlineClient.connect("127.0.0.1", silent_port, key=None, known=None, timeout=1),
            LIMIT,
        )
    assert str(joined.value) == f"no answer from 127.0.0.1:{silent_port} within 1 s"
    assert str(online.value) == str(joined.value)
