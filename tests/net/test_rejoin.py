"""A dropped player: the game pauses with a countdown, a rejoin resumes it, and after
the timeout the other player lets a computer take the seat or saves the match."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.support.net import FAST, LIMIT, bot_guest, quick_host

from spit.bots.sim import new_game
from spit.store.resume import list_saved_games


async def drop(guest) -> None:
    """Cut the connection without a goodbye, as a failed network would."""
    assert guest.conn is not None
    guest.conn.abort()
    await guest.close()


async def test_rejoin_within_the_timeout_resumes_and_the_game_ends() -> None:
    async def body() -> None:
        game = new_game("speed", (), 12)
        host = quick_host(game, rejoin_timeout=30)
        await host.start()
        try:
            (g0, r0), (g1, _) = await asyncio.gather(
                bot_guest(host, 0, "speed"), bot_guest(host, 1, "speed")
            )
            run = asyncio.create_task(host.run())
            await r0.wait_for(lambda m: m["t"] == "events" and m["by"] == 1)
            await drop(g1)
            paused = await r0.wait_for(lambda m: m["t"] == "paused")
            assert paused["seat"] == 1 and paused["left"] == 30 and paused["why"] == "dropped"
            assert host.match.arbiter.paused
            moves = len(game.actions)
            g1b, r1b = await bot_guest(host, 1, "speed")  # the same code again
            await r1b.wait_for(lambda m: m["t"] == "state")
            after = r0.messages.index(paused)
            await r0.wait_for(lambda m: m["t"] == "resumed", start=after)
            await asyncio.wait_for(run, LIMIT)
            assert game.over and len(game.actions) > moves
            await g0.close()
            await g1b.close()
        finally:
            await host.close()

    await asyncio.wait_for(body(), LIMIT + 10)


async def test_after_the_timeout_a_computer_may_take_the_seat() -> None:
    async def body() -> None:
        game = new_game("speed", (), 13)
        host = quick_host(game, rejoin_timeout=0.3, bot_reaction=FAST)
        await host.start()
        try:
            (g0, r0), (g1, _) = await asyncio.gather(
                bot_guest(host, 0, "speed"), bot_guest(host, 1, "speed")
            )
            run = asyncio.create_task(host.run())
            await r0.wait_for(lambda m: m["t"] == "events")
            await drop(g1)
            choose = await r0.wait_for(lambda m: m["t"] == "choose")
            assert choose == {"t": "choose", "seat": 1, "options": ["bot", "save"]}
            g0.decide("bot")
            await asyncio.wait_for(run, LIMIT)
            assert game.over
            assert "(computer)" in host.match.names[1]
            await g0.close()
        finally:
            await host.close()

    await asyncio.wait_for(body(), LIMIT + 10)


async def test_after_the_timeout_the_match_may_be_saved(isolated_dirs: Path) -> None:
    async def body() -> None:
        game = new_game("spit", ("V4",), 14)
        host = quick_host(game, rejoin_timeout=0.3)
        await host.start()
        try:
            (g0, r0), (g1, _) = await asyncio.gather(
                bot_guest(host, 0, "spit"), bot_guest(host, 1, "spit")
            )
            run = asyncio.create_task(host.run())
            await r0.wait_for(lambda m: m["t"] == "events")
            await drop(g1)
            await r0.wait_for(lambda m: m["t"] == "choose")
            g0.decide("save")
            bye = await r0.wait_for(lambda m: m["t"] == "bye")
            assert "saved on the host" in bye["reason"] and "spit resume" in bye["reason"]
            await asyncio.wait_for(run, LIMIT)
            saved = list_saved_games()
            assert len(saved) == 1 and saved[0].problem is None
            await g0.close()
        finally:
            await host.close()

    await asyncio.wait_for(body(), LIMIT + 10)
