"""Helpers for the server tests (tests/server): a node on 127.0.0.1 port 0, players with keys."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import asyncssh
from tests.support.net import FAST, QUICK, Recorder

from spit.net.online import KnownServers, OnlineClient, open_match_as_bot
from spit.server.node import ServerNode, ServerSettings


def quick_settings(data_dir: Path, **kwargs: Any) -> ServerSettings:
    """A node's settings for tests: port 0, short waves and timers, fast computers."""
    kwargs.setdefault("wave_seconds", 0.1)
    kwargs.setdefault("timing", QUICK)
    kwargs.setdefault("bot_reaction", FAST)
    kwargs.setdefault("port", 0)
    return ServerSettings(data_dir=data_dir, **kwargs)


class Player:
    """A test player: a key, a known-servers file, a lobby client and what it received."""

    def __init__(self, home: Path, name: str, key: asyncssh.SSHKey | None = None) -> None:
        self.home = home
        self.name = name
        self.key = key if key is not None else asyncssh.generate_private_key("ssh-ed25519")
        self.known = KnownServers(home / "known_servers.json")
        self.lobby = Recorder()
        self.client: OnlineClient | None = None
        self.match = Recorder()

    async def connect(self, node: ServerNode, guest: bool = False, name: str | None = None) -> None:
        self.client = await OnlineClient.connect(
            "127.0.0.1",
            node.settings.port,
            key=None if guest else self.key,
            known=self.known,
            name=self.name if name is None else name,
            on_message=self.lobby,
        )

    def send(self, kind: str, **fields: Any) -> None:
        assert self.client is not None
        self.client.send(kind, **fields)

    async def play_matched(self, matched: dict[str, Any], level: str = "expert") -> Any:
        assert self.client is not None
        return await open_match_as_bot(
            self.client, matched, level, reaction=FAST, on_message=self.match
        )

    async def close(self) -> None:
        if self.client is not None:
            await self.client.close()


async def start_cluster(
    tmp_path: Path, names: Sequence[str], schema: str, prefix: str, **kwargs: Any
) -> list[ServerNode]:
    """Nodes named ``names`` on one PostgreSQL schema and one Redis prefix, started, each
    having seen every other on the bus before it returns."""
    from tests.support.services import postgres_url, redis_url

    from spit.server.postgres_store import PostgresStore

    nodes = []
    for name in names:
        settings = quick_settings(
            tmp_path / name, bus_url=redis_url(), bus_prefix=prefix, node_id=name, **kwargs
        )
        node = ServerNode(settings, store=PostgresStore(postgres_url(), schema=schema))
        await node.start()
        nodes.append(node)
    for _ in range(100):
        if all({c.node for c in n.cluster} == set(names) for n in nodes):
            break
        await asyncio.sleep(0.05)
    return nodes


async def signed_in(node: ServerNode, home: Path, *names: str) -> list[Player]:
    """A new player (a key of their own under ``home``) per name, each in the lobby."""
    players = [Player(home / n, n) for n in names]
    for p in players:
        await p.connect(node)
        await p.lobby.wait_for(lambda m: m["t"] == "welcome")
    return players
