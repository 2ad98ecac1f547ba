"""A node dies after a match's last move but before it kept the result: the node
that takes the match over finds the end in the tail on the bus and keeps the
result, rated once, with the whole game in its replay (nothing applied is lost)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from tests.support.net import LIMIT, quick_host, tail_of_local_play
from tests.support.server import quick_settings
from tests.support.services import drop_schema, fresh_prefix, fresh_schema, postgres_url, redis_url

from spit.bots.sim import new_game
from spit.server.node import ServerNode
from spit.server.postgres_store import PostgresStore
from spit.store.replays import parse_replay


def played_to_the_end(seed: int) -> tuple[dict[str, Any], list[dict[str, Any]], Any]:
    """A Speed game's checkpoint at the deal and its tail to the last move (random
    legal moves through a host's own arbiter, one tick each)."""
    game = new_game("speed", (), seed)
    host = quick_host(game, names=("Ann", "Bob"))
    checkpoint = host.replay_data()
    entries = tail_of_local_play(host, seed, lambda: game.over)
    assert game.over
    return checkpoint, entries, game


async def test_the_end_of_a_match_in_the_tail_of_a_dead_node_is_kept_once(
    tmp_path: Path,
) -> None:
    schema, prefix = fresh_schema(), fresh_prefix()
    settings = quick_settings(tmp_path / "east", bus_url=redis_url(), bus_prefix=prefix)
    node = ServerNode(settings, store=PostgresStore(postgres_url(), schema=schema))

    async def body() -> None:
        await node.start()
        store = node.store
        ann = await store.create_account("Ann", "SHA256:ann", "2026-12-01T00:00:00+00:00")
        bob = await store.create_account("Bob", "SHA256:bob", "2026-12-01T00:00:00+00:00")
        checkpoint, entries, game = played_to_the_end(8)
        server = {
            "match": "m-over",
            "mode": "speed",
            "seats": ["p-ann", "p-bob"],
            "names": ["Ann", "Bob"],
            "accounts": [ann.id, bob.id],
            "bots": [None, None],
            "homes": [None, None],
            "tokens": ["t-ann", "t-bob"],
            "rated": True,
            "daily": None,
            "started": "2026-12-01T00:00:00+00:00",
            "held": [],
        }
        text = json.dumps({"replay": checkpoint, "server": server})
        assert await store.keep_checkpoint("m-over", "gone-1", text, "2026-12-01T00:00:01")
        for entry in entries:
            await node.bus.keep_tail("m-over", "gone-1", int(entry["seq"]), entry)

        assert await node.resume("m-over", "gone-1") is not None
        games = await store.matches_of(ann.id)
        assert len(games) == 1 and games[0].rated
        assert (await store.rating(bob.id, "speed")).games == 1
        assert await store.checkpoint_owners() == {}
        assert await node.bus.tail("m-over", "gone-1") == []
        raw = await store.replay_of(games[0].id, ann.id)
        assert raw is not None
        replay = parse_replay(raw)
        assert replay.final.over and replay.final.winner == game.winner
        assert [a.to_json() for a in replay.final.actions] == [a.to_json() for a in game.actions]
        assert await node.resume("m-over", "gone-1") is None  # taken: never kept twice

    try:
        await asyncio.wait_for(body(), LIMIT * 2)
    finally:
        await node.shutdown()
        await drop_schema(node.store)
