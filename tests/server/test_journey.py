"""The whole journey of issue 24: a player with only an ssh client and one with spit meet in the
lobby, are paired, play a rated game, see where they stand, and one watches the other's next game.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import asyncssh
from tests.support.net import LIMIT
from tests.support.server import Player, quick_settings

from spit.server.node import ServerNode, fingerprint_of

ANSI = re.compile(rb"\x1b\[[0-9;?$>]*[A-Za-z~]|\x1b[()][A-Z0-9]|\x1b[=>]|\x1b\][^\x07]*\x07")


class Terminal:
    """The far end of a plain ssh session: what it showed, and keys to type."""

    def __init__(self, process: asyncssh.SSHClientProcess[bytes]) -> None:
        self.process = process
        self.seen = bytearray()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        while True:
            chunk = await self.process.stdout.read(65536)
            if not chunk:
                return
            self.seen.extend(chunk)

    def text(self) -> str:
        return ANSI.sub(b"", bytes(self.seen)).decode("utf-8", "replace")

    async def shows(self, words: str, timeout: float = LIMIT) -> None:
        async def wait() -> None:
            while words not in self.text():
                await asyncio.sleep(0.05)

        await asyncio.wait_for(wait(), timeout)

    def type(self, keys: str) -> None:
        self.process.stdin.write(keys.encode())


async def test_an_ssh_player_and_a_spit_player_meet_play_rated_and_watch(tmp_path: Path) -> None:
    async def body() -> None:
        node = ServerNode(quick_settings(tmp_path / "server"))
        port = await node.start()
        key = asyncssh.generate_private_key("ssh-ed25519")
        try:
            conn = await asyncssh.connect(
                "127.0.0.1",
                port,
                username="carol",
                client_keys=[key],
                known_hosts=None,
                agent_path=None,
                config=None,
            )
            term = Terminal(
                await conn.create_process(
                    term_type="xterm-256color", term_size=(80, 24), encoding=None
                )
            )
            await term.shows("Choose your name")
            term.type("Carol\r")
            await term.shows("Welcome, Carol (signed in)")
            account = await node.store.account_for_key(fingerprint_of(key))
            assert account is not None and account.name == "Carol"

            bob = Player(tmp_path / "bob", "Bob")
            await bob.connect(node)
            await bob.lobby.wait_for(lambda m: m["t"] == "welcome")
            bob.send("queue", mode="speed")
            term.type("\x1b[B\r")  # down to Quick pair: Speed, Enter
            matched = await bob.lobby.wait_for(lambda m: m["t"] == "matched", timeout=LIMIT)
            await bob.play_matched(matched)
            await term.shows("SPEED")
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
            await term.shows("Choose what to play", timeout=LIMIT)

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
            await term.shows(f"Spit: {' v '.join(second['names'])}")
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
