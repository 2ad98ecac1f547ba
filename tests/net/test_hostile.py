"""Bad peers: each is refused or closed with a log line, and the honest game goes on.

Two fast bots play a whole Speed game through the host while hostile
connections (spectators and a second player connection) misbehave.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator

import pytest
from tests.support.net import LIMIT, LogLines, bot_guest, join, quick_host

from spit.bots.sim import new_game
from spit.engine import call, play
from spit.net import protocol as proto
from spit.net.client import Guest, JoinError
from spit.net.codes import AuthGuard, make_code


@pytest.fixture
def host_log() -> Iterator[LogLines]:
    handler = LogLines()
    logger = logging.getLogger("spit.net")
    logger.addHandler(handler)
    old = logger.level
    logger.setLevel(logging.INFO)
    yield handler
    logger.removeHandler(handler)
    logger.setLevel(old)


async def hostile(host, raw: bytes | None, hello: bool = True) -> Guest:
    """A spectator connection that sends ``raw`` (after a proper hello if ``hello``)."""
    guest, _ = await join(host, None, say_hello=hello, answer_pings=False)
    if raw is not None:
        guest.send_raw(raw)
    return guest


async def closed(guest: Guest) -> str:
    await asyncio.wait_for(guest.done.wait(), 5)
    reason = guest.ended or ""
    await guest.close()
    return reason


async def test_every_bad_peer_is_closed_and_the_game_goes_on(host_log: LogLines) -> None:
    async def body() -> None:
        game = new_game("speed", (), 9)
        host = quick_host(game)
        await host.start()
        try:
            bots = await asyncio.gather(bot_guest(host, 0, "speed"), bot_guest(host, 1, "speed"))
            run = asyncio.create_task(host.run())
            cases = {
                "malformed": hostile(host, b"{this is not json\n"),
                "oversized": hostile(host, b'{"t":"error","reason":"' + b"x" * 5000 + b'"}\n'),
                "endless": hostile(host, b"x" * 5000),
                "stall": hostile(host, b'{"t":"pi'),
                "no hello": hostile(host, None, hello=False),
                "version": hostile(
                    host, proto.encode("hello", v=proto.VERSION + 1, app="9"), hello=False
                ),
                "flood": hostile(host, proto.encode("ping", t0=1.0) * 400),
            }
            guests = dict(zip(cases, await asyncio.gather(*cases.values()), strict=True))
            reasons = {name: await closed(g) for name, g in guests.items()}
            await asyncio.wait_for(run, LIMIT)
            assert game.over  # the honest players finished their game
            assert "not JSON" in reasons["malformed"]
            assert "too long" in reasons["oversized"] and "too long" in reasons["endless"]
            assert reasons["stall"] == "stalled" and reasons["no hello"] == "stalled"
            assert "protocol" in reasons["version"] and "same spit version" in reasons["version"]
            assert reasons["flood"] == "too many messages"
            for line in (
                "broke the protocol (malformed message: not JSON)",
                "message over 4096 bytes",
                "stalled in the middle of a message",
                "stalled before saying hello",
                f"speaks protocol {proto.VERSION + 1}: refused",
                "too many messages (flood)",
            ):
                assert host_log.has(line), line
            for guest, _ in bots:
                await guest.close()
        finally:
            await host.close()

    await asyncio.wait_for(body(), LIMIT + 10)


async def test_action_for_the_other_seat_is_refused(host_log: LogLines) -> None:
    async def body() -> None:
        host = quick_host(new_game("speed", (), 4))
        await host.start()
        try:
            g0, r0 = await join(host, 0)
            g1, r1 = await join(host, 1)
            run = asyncio.create_task(host.run())
            await r0.wait_for(lambda m: m["t"] == "resumed")
            g0.action(call(1))  # seat 1 pretends to be seat 2
            verdict = await r0.wait_for(lambda m: m["t"] == "verdict")
            assert not verdict["ok"] and verdict["reason"] == "that action is for the other seat"
            assert host_log.has("seat 1 sent an action for the other seat")
            # the connection stays and its own actions still count
            g0.action(call(0))
            ok = await r0.wait_for(lambda m: m["t"] == "verdict" and m["ok"])
            assert ok["id"] == 2
            g1.action(play(1, 9, 0))  # a slot that does not exist: refused, not a crash
            bad = await r1.wait_for(lambda m: m["t"] == "verdict")
            assert not bad["ok"]
            run.cancel()
            await g0.close()
            await g1.close()
        finally:
            await host.close()

    await asyncio.wait_for(body(), LIMIT)


async def test_wrong_codes_are_refused_slowed_and_locked_out(host_log: LogLines) -> None:
    async def body() -> None:
        guard = AuthGuard(base_delay=0.02, max_delay=0.2, max_failures=3, lockout=60)
        host = quick_host(new_game("spit", (), 1), guard=guard)
        await host.start()
        try:
            fp = host.codes[0][:11]
            wrong = fp + "zzzz-zzzz"
            for _ in range(3):
                with pytest.raises(JoinError, match="refused the join code"):
                    await Guest.connect("127.0.0.1", host.port, wrong)
            assert host_log.has("wrong join code from 127.0.0.1 (3 of 3 allowed)")
            # locked out: now even the right code is refused from this address
            with pytest.raises(JoinError, match="refused"):
                await Guest.connect("127.0.0.1", host.port, host.codes[0])
            assert host_log.has("join refused from 127.0.0.1: too many wrong codes")
        finally:
            await host.close()

    await asyncio.wait_for(body(), LIMIT)


async def test_a_host_with_another_key_is_refused_before_the_code_is_sent() -> None:
    async def body() -> None:
        host = quick_host(new_game("spit", (), 1))
        await host.start()
        try:
            import asyncssh

            other = asyncssh.generate_private_key("ssh-ed25519")
            secret = host.codes[0][11:]
            impostor = make_code(other)[:11] + secret  # right secret, someone else's key
            with pytest.raises(JoinError, match="does not match the join code"):
                await Guest.connect("127.0.0.1", host.port, impostor)
            assert host.guard.failures("127.0.0.1") == 0  # the code never reached the host
        finally:
            await host.close()

    await asyncio.wait_for(body(), LIMIT)


async def test_a_taken_seat_cannot_be_joined_twice(host_log: LogLines) -> None:
    async def body() -> None:
        host = quick_host(new_game("spit", (), 1))
        await host.start()
        try:
            g0, r0 = await join(host, 0)
            await r0.wait_for(lambda m: m["t"] == "welcome")
            again, _ = await join(host, 0)
            assert "seat is taken" in await closed(again)
            assert host_log.has("which is taken: refused")
            await g0.close()
        finally:
            await host.close()

    await asyncio.wait_for(body(), LIMIT)


async def test_a_typo_in_the_code_is_explained() -> None:
    with pytest.raises(JoinError, match="join code has 18 letters"):
        await Guest.connect("127.0.0.1", 1, "abc-def")


async def test_an_allowed_ssh_key_joins_without_the_secret() -> None:
    import asyncssh

    async def body() -> None:
        allowed = asyncssh.generate_private_key("ssh-ed25519")
        stranger = asyncssh.generate_private_key("ssh-ed25519")
        host = quick_host(
            new_game("spit", (), 1),
            allowed_keys=[allowed.convert_to_public()],
            guard=AuthGuard(base_delay=0.01),
        )
        await host.start()
        try:
            no_secret = host.codes[0][:11] + "zzzz-zzzz"  # the host's fingerprint, no secret
            guest, recorder = await join_with(host, no_secret, allowed)
            welcome = await recorder.wait_for(lambda m: m["t"] == "welcome")
            assert welcome["seat"] in (0, 1)
            with pytest.raises(JoinError, match="refused"):
                await join_with(host, no_secret, stranger)
            await guest.close()
        finally:
            await host.close()

    await asyncio.wait_for(body(), LIMIT)


async def join_with(host, code: str, key) -> tuple[Guest, object]:
    from tests.support.net import Recorder

    recorder = Recorder()
    guest = await Guest.connect("127.0.0.1", host.port, code, client_key=key, on_message=recorder)
    return guest, recorder


async def test_too_many_connections_at_once_are_refused(host_log: LogLines) -> None:
    from spit.net.host import Limits

    async def body() -> None:
        game = new_game("speed", (), 5)
        host = quick_host(game, limits=Limits(stall=0.5, max_connections=4))
        await host.start()
        streams = []
        try:
            for _ in range(4):  # strangers who connect and say nothing
                streams.append(await asyncio.open_connection("127.0.0.1", host.port))
            await asyncio.sleep(0.1)
            with pytest.raises(JoinError):
                await Guest.connect("127.0.0.1", host.port, host.codes[0], timeout=3)
            assert host_log.has("too many connections at once, refused")
            for _, writer in streams:
                writer.close()
            await asyncio.sleep(0.2)
            guest, recorder = await join(host, 0)  # room again
            await recorder.wait_for(lambda m: m["t"] == "welcome")
            await guest.close()
        finally:
            await host.close()

    await asyncio.wait_for(body(), LIMIT)


async def test_a_message_dripping_in_byte_by_byte_is_still_a_stall(host_log: LogLines) -> None:
    async def body() -> None:
        host = quick_host(new_game("spit", (), 2))  # stall limit 0.5 s
        await host.start()
        try:
            guest, _ = await join(host, None, answer_pings=False)
            guest.send_raw(b'{"t":"er')
            for _ in range(30):  # a byte every 0.1 s for 3 s: each read comes in time
                if guest.ended:
                    break
                await asyncio.sleep(0.1)
                guest.send_raw(b"r")
            assert guest.ended == "stalled"  # closed while still dripping
            await closed(guest)
            assert host_log.has("stalled in the middle of a message")
        finally:
            await host.close()

    await asyncio.wait_for(body(), LIMIT)
