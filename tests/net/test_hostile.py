"""Bad peers: each is refused or closed with a log line, and the honest game goes on.

Two fast bots play a whole Speed game through the host while hostile
connections (spectators and a second player connection) misbehave.
"""

from __future__ import annotations

import asyncio

import pytest
from tests.support.net import LIMIT, LogLines, bot_guest, join, quick_host

from spit.bots.sim import new_game
from spit.engine import call, play
from spit.net import protocol as proto
from spit.net.client import Guest, JoinError
from spit.net.codes import AuthGuard, make_code


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
                "overflow": hostile(host, b'{"t":"ping","t0":1' + b"0" * 320 + b"}\n"),
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
            assert reasons["overflow"] == "ping: field 't0' has a wrong value"
            for line in (
                "broke the protocol (malformed message: not JSON)",
                "message over 4096 bytes",
                "stalled in the middle of a message",
                "stalled before saying hello",
                f"speaks protocol {proto.VERSION + 1}: refused",
                "too many messages (flood)",
                "broke the protocol (ping: field 't0' has a wrong value)",
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


async def test_wrong_codes_are_slowed_and_locked_but_a_right_code_gets_in(
    host_log: LogLines,
) -> None:
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
            # locked out: a wrong code is refused after the longest wait...
            started = asyncio.get_running_loop().time()
            with pytest.raises(JoinError, match="refused"):
                await Guest.connect("127.0.0.1", host.port, wrong)
            assert asyncio.get_running_loop().time() - started >= guard.max_delay
            assert host_log.has("join refused from 127.0.0.1: too many wrong codes")
            # ...but the real guest, behind the same address (an SSH tunnel), still
            # gets in with the right code after that wait
            guest, recorder = await join(host, 0)
            assert (await recorder.wait_for(lambda m: m["t"] == "welcome"))["seat"] == 0
            assert host_log.has("right code from 127.0.0.1 after its wrong codes: let in")
            await guest.close()
        finally:
            await host.close()

    await asyncio.wait_for(body(), LIMIT)


async def test_a_locked_address_is_answered_within_the_login_time_out() -> None:
    """The longest back-off (8 s by default) may not outlast the login time-out:
    the right code must be answered before the connection is cut."""
    from spit.net.host import Limits

    async def body() -> None:
        guard = AuthGuard(base_delay=0.01, max_delay=30.0, max_failures=2, lockout=60)
        limits = Limits(stall=0.5, login=1.5)
        host = quick_host(new_game("spit", (), 1), guard=guard, limits=limits)
        await host.start()
        try:
            wrong = host.codes[0][:11] + "zzzz-zzzz"
            for _ in range(2):
                with pytest.raises(JoinError, match="refused"):
                    await Guest.connect("127.0.0.1", host.port, wrong)
            assert guard.locked("127.0.0.1")
            guest, recorder = await join(host, 0, timeout=5)
            assert (await recorder.wait_for(lambda m: m["t"] == "welcome"))["seat"] == 0
            await guest.close()
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


async def test_an_allowed_key_takes_one_seat_only(host_log: LogLines) -> None:
    """One key holder connecting twice cannot take both seats of a headless host."""
    import asyncssh

    async def body() -> None:
        allowed = asyncssh.generate_private_key("ssh-ed25519")
        host = quick_host(new_game("spit", (), 1), allowed_keys=[allowed.convert_to_public()])
        await host.start()
        try:
            no_secret = host.codes[0][:11] + "zzzz-zzzz"
            first, r1 = await join_with(host, no_secret, allowed)
            seat = (await r1.wait_for(lambda m: m["t"] == "welcome"))["seat"]
            again, r2 = await join_with(host, no_secret, allowed)
            reason = await closed(again)
            assert "seat is taken" in reason and not r2.of("welcome")
            # the real guest of the other seat joins with its own code
            other, r3 = await join(host, 1 - seat)
            assert (await r3.wait_for(lambda m: m["t"] == "welcome"))["seat"] == 1 - seat
            await first.close()
            await other.close()
        finally:
            await host.close()

    await asyncio.wait_for(body(), LIMIT)


async def join_with(host, code: str, key) -> tuple[Guest, object]:
    from tests.support.net import Recorder

    recorder = Recorder()
    guest = await Guest.connect("127.0.0.1", host.port, code, client_key=key, on_message=recorder)
    return guest, recorder


async def test_idle_strangers_cannot_keep_a_guest_out(host_log: LogLines) -> None:
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
            guest, recorder = await join(host, 0)  # the oldest stranger makes room
            await recorder.wait_for(lambda m: m["t"] == "welcome")
            assert host_log.has("the oldest connection still logging in closed")
            await guest.close()
        finally:
            for _, writer in streams:
                writer.close()
            await host.close()

    await asyncio.wait_for(body(), LIMIT)


async def test_a_full_host_says_why_it_refuses(host_log: LogLines) -> None:
    from spit.net.host import Limits

    async def body() -> None:
        host = quick_host(
            new_game("speed", (), 5), limits=Limits(stall=0.5, max_connections=3, max_watchers=1)
        )
        await host.start()
        try:
            g0, r0 = await join(host, 0)
            w1, rw = await join(host, None)
            await r0.wait_for(lambda m: m["t"] == "welcome")
            await rw.wait_for(lambda m: m["t"] == "welcome")
            # a second spectator: logged in, but no room to watch
            w2, _ = await join(host, None)
            assert "no room for more spectators" in await closed(w2)
            assert host_log.has("no room for more spectators, refused")
            g1, r1 = await join(host, 1)
            await r1.wait_for(lambda m: m["t"] == "welcome")
            # every connection has logged in: a newcomer is refused, and told why
            with pytest.raises(JoinError) as refused:
                await Guest.connect("127.0.0.1", host.port, host.watch_code, watch=True)
            assert str(refused.value) == (
                "the host closed the connection: "
                "the host is full (too many connections at once): try again soon"
            )
            assert host_log.has("too many connections at once, refused")
            for guest in (g0, g1, w1):
                await guest.close()
        finally:
            await host.close()

    await asyncio.wait_for(body(), LIMIT)


async def test_a_dropped_player_rejoins_past_sixteen_idle_connections(
    host_log: LogLines,
) -> None:
    """Pre-auth slots: strangers' idle TCP connections cannot fill the host while a
    player is away; and they are closed after the (short) login time-out."""
    from spit.net.host import Limits

    async def body() -> None:
        game = new_game("speed", (), 6)
        host = quick_host(game, limits=Limits(stall=0.5, login=1.0), rejoin_timeout=30)
        await host.start()
        streams = []
        try:
            g0, r0 = await join(host, 0)
            g1, _ = await join(host, 1)
            await r0.wait_for(lambda m: m["t"] == "resumed")
            assert g1.conn is not None
            g1.conn.abort()  # seat 2 drops
            await g1.close()
            await r0.wait_for(lambda m: m["t"] == "paused")
            for _ in range(host.limits.max_connections):
                streams.append(await asyncio.open_connection("127.0.0.1", host.port))
            await asyncio.sleep(0.1)
            again, ra = await join(host, 1, timeout=5)
            welcome = await ra.wait_for(lambda m: m["t"] == "welcome")
            assert welcome["seat"] == 1
            await r0.wait_for(lambda m: m["t"] == "resumed", start=len(r0.messages) - 1)
            # a stranger still idle is closed once the login time-out has passed
            reader = streams[-1][0]
            ended = await asyncio.wait_for(reader.read(), 4)  # the host's version line, then EOF
            assert reader.at_eof() and ended.startswith(b"SSH-")
            for guest in (g0, again):
                await guest.close()
        finally:
            for _, writer in streams:
                writer.close()
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


async def test_a_silent_guest_is_told_why_it_was_dropped(host_log: LogLines) -> None:
    from spit.net.host import Limits

    async def body() -> None:
        limits = Limits(stall=0.5, dead_after=0.4, ping_every=0.1)
        host = quick_host(new_game("spit", (), 2), limits=limits)
        await host.start()
        try:
            guest, _ = await join(host, None, answer_pings=False)  # says hello, then nothing
            reason = await closed(guest)
            assert reason == "the host heard nothing from you for 0.4 s and closed the connection"
            assert host_log.has("silent for")
        finally:
            await host.close()

    await asyncio.wait_for(body(), LIMIT)
