"""The whole journey of issue 24: a player with only an ssh client and one with spit meet in the
lobby, are paired, play a rated game, see where they stand, and one watches the other's next game.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncssh
from benchmarks.sshterm import Terminal, sign_in
from tests.support.net import LIMIT
from tests.support.server import Player, quick_settings

from spit.server.node import ServerNode, fingerprint_of


async def test_an_ssh_player_and_a_spit_player_meet_play_rated_and_watch(tmp_path: Path) -> None:
    async def body() -> None:
        node = ServerNode(quick_settings(tmp_path / "server"))
        port = await node.start()
        key = asyncssh.generate_private_key("ssh-ed25519")
        try:
            conn = await sign_in(port, "carol", key)
            term = await Terminal.open(conn)
            await term.shows("Choose your name", LIMIT)
            term.type("Carol\r")
            await term.shows("Welcome, Carol (signed in)", LIMIT)
            account = await node.store.account_for_key(fingerprint_of(key))
            assert account is not None and account.name == "Carol"

            bob = Player(tmp_path / "bob", "Bob")
            await bob.connect(node)
            await bob.lobby.wait_for(lambda m: m["t"] == "welcome")
            bob.send("queue", mode="speed")
            term.type("\x1b[B\r")  # down to Quick pair: Speed, Enter
            matched = await bob.lobby.wait_for(lambda m: m["t"] == "matched", timeout=LIMIT)
            await bob.play_matched(matched)
            await term.shows("SPEED", LIMIT)
            match = node.matches[matched["match"]]
            for _ in range(400):  # Carol presses her keys now and then; Bob's computer is fast
                if match.host.game.over:
                    break
                term.type("1qwert")
                await asyncio.sleep(0.05)
            result = await bob.lobby.wait_for(lambda m: m["t"] == "result", timeout=LIMIT)
            assert "rating is now" in result["text"]
            rating = await node.store.rating(account.id, "speed")
            assert rating.games == 1  # the plain-ssh player's game is rated
            term.type("\x1b")  # leave the finished board: back in the lobby
            await term.shows("Choose what to play", LIMIT)

            # Bob's next game, against Dan; Carol watches it from the lobby
            dan = Player(tmp_path / "dan", "Dan")
            await dan.connect(node)
            await dan.lobby.wait_for(lambda m: m["t"] == "welcome")
            start = len(bob.lobby.messages)
            bob.send("queue", mode="spit")
            dan.send("queue", mode="spit")
            second = await bob.lobby.wait_for(lambda m: m["t"] == "matched", start=start)
            third = await dan.lobby.wait_for(lambda m: m["t"] == "matched")
            bob.match = type(bob.match)()
            await asyncio.gather(bob.play_matched(second), dan.play_matched(third))
            await asyncio.sleep(1.0)  # the lobby's list of live matches reaches Carol
            term.type("\x1b[B" * 6 + "\r")  # from Quick pair: Speed down to Watch a live match
            await term.shows(f"Spit: {' v '.join(second['names'])}", LIMIT)
            term.type("\r")
            watched = node.matches.get(second["match"])
            for _ in range(100):
                if watched is None or watched.host.match.watchers:
                    break
                await asyncio.sleep(0.05)
            assert watched is not None and watched.host.match.watchers, term.text()[-3000:]
            conn.close()
            for p in (bob, dan):
                await p.close()
        finally:
            await node.shutdown()

    await asyncio.wait_for(body(), LIMIT * 4)
