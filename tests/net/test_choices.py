"""After a dropped player's time runs out: only a player may choose, a computer guest
chooses too, and a choice nobody makes ends by itself (issue 19, defects 1 and 2)."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.support.clock import FakeClock
from tests.support.net import FAST, LIMIT, LogLines, bot_guest, join, quick_host

from spit.bots.sim import new_game
from spit.net import protocol as proto
from spit.net.match import Match
from spit.net.runner import join_as_bot
from spit.net.stamping import Stamper


async def drop(guest: Any) -> None:
    """Cut the connection without a goodbye (``kill -9``)."""
    assert guest.conn is not None
    guest.conn.abort()
    await guest.close()


async def test_a_spectator_cannot_end_the_match(host_log: LogLines) -> None:
    async def body() -> None:
        game = new_game("speed", (), 21)
        host = quick_host(game, rejoin_timeout=0.3, bot_reaction=FAST)
        await host.start()
        try:
            (g0, r0), (g1, _) = await asyncio.gather(
                bot_guest(host, 0, "speed"), bot_guest(host, 1, "speed")
            )
            watcher, rw = await join(host, None)
            run = asyncio.create_task(host.run())
            await r0.wait_for(lambda m: m["t"] == "events")
            await drop(g1)
            await rw.wait_for(lambda m: m["t"] == "choose")
            watcher.decide("save")
            refusal = await rw.wait_for(lambda m: m["t"] == "error")
            assert "spectators cannot decide" in refusal["reason"]
            assert host_log.has("a spectator tried to decide (save): refused")
            assert not host.match.finished and host.match.closed_reason is None
            assert not r0.of("bye")
            g0.decide("bot")  # the player still can
            await asyncio.wait_for(run, LIMIT)
            assert game.over and "(computer)" in host.match.names[1]
            await g0.close()
            await watcher.close()
        finally:
            await host.close()

    await asyncio.wait_for(body(), LIMIT + 10)


async def test_a_computer_guest_answers_the_choice() -> None:
    async def body() -> None:
        game = new_game("speed", (), 22)
        host = quick_host(game, rejoin_timeout=0.3, bot_reaction=FAST)
        await host.start()
        said: list[str] = []
        try:
            seat0 = asyncio.create_task(
                join_as_bot("127.0.0.1", host.port, host.codes[0], "easy", say=said.append)
            )
            g1, _ = await bot_guest(host, 1, "speed")
            run = asyncio.create_task(host.run())
            for _ in range(200):
                if host.match.started:
                    break
                await asyncio.sleep(0.02)
            await drop(g1)
            for _ in range(300):
                if host.match.seats[1].computer:
                    break
                await asyncio.sleep(0.02)
            assert host.match.seats[1].computer and not host.match.finished
            assert any("a computer takes their seat" in line for line in said)
            run.cancel()
            await host.close()
            await asyncio.wait_for(seat0, 5)
        finally:
            await host.close()

    await asyncio.wait_for(body(), LIMIT + 10)


class Inbox:
    """A seat's link that keeps the decoded messages."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    def send(self, data: bytes) -> None:
        self.messages.append(proto.decode(data, proto.HOST_TO_GUEST, proto.MAX_HOST_LINE))

    def kinds(self) -> list[str]:
        return [m["t"] for m in self.messages]


def test_an_unanswered_choice_saves_the_match_after_its_time_out() -> None:
    clock = FakeClock()
    match = Match(
        new_game("spit", (), 3),
        clock=clock,
        window=0,
        rejoin_timeout=5,
        on_save=lambda: "kept for spit resume",
    )
    match.choose_timeout = 30
    present, gone = Inbox(), Inbox()
    match.attach(0, present, Stamper.local(), clock())
    match.attach(1, gone, Stamper.local(), clock())
    assert match.started
    match.drop(1, clock())
    clock.advance(5)
    match.tick(clock())
    assert "choose" in present.kinds()
    asked = clock()
    assert match.wake_at() == asked + 30  # the host loop wakes for the time-out
    clock.advance(29.9)
    match.tick(clock())
    assert not match.finished
    clock.advance(0.1)
    match.tick(clock())
    assert match.finished and match.closed_reason == "kept for spit resume"
    assert present.messages[-1] == {"t": "bye", "reason": "kept for spit resume"}
