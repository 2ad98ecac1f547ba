"""Several server nodes as one lobby: a shared bus (Redis) and store (PostgreSQL), and draining."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from tests.support.net import LIMIT
from tests.support.server import Player, quick_settings
from tests.support.services import drop_schema, fresh_prefix, fresh_schema, postgres_url, redis_url

from spit.server.bus import LocalBus, NodeSnapshot, RedisBus
from spit.server.node import ServerNode
from spit.server.postgres_store import PostgresStore


@pytest.fixture(params=["local", "redis"])
async def bus(request: pytest.FixtureRequest) -> AsyncIterator[LocalBus | RedisBus]:
    b: LocalBus | RedisBus = (
        LocalBus() if request.param == "local" else RedisBus(redis_url(), fresh_prefix())
    )
    await b.open()
    yield b
    await b.close()


async def test_a_bus_lists_live_nodes_and_forgets_a_withdrawn_one(bus: LocalBus | RedisBus) -> None:
    one = NodeSnapshot(
        "one",
        "127.0.0.1:1",
        online=("Ann",),
        matches=({"id": "m1", "mode": "spit", "names": ["Ann", "Bob"]},),
    )
    two = NodeSnapshot("two", "127.0.0.1:2", draining=True)
    await bus.publish(one)
    await bus.publish(two)
    seen = {s.node: s for s in await bus.everyone()}
    assert set(seen) == {"one", "two"}
    assert seen["one"].online == ("Ann",) and seen["one"].matches[0]["id"] == "m1"
    assert seen["two"].draining
    await bus.withdraw("two")
    assert [s.node for s in await bus.everyone()] == ["one"]


async def test_a_bus_keeps_each_nodes_tail_of_a_match_apart(bus: LocalBus | RedisBus) -> None:
    """Tail entries (``spit.net.resume``) by match and owner: kept, read back, some
    dropped once a checkpoint holds them, then all; another owner's stay."""
    for seq in range(3):
        await bus.keep_tail("m1", "north-1", seq, {"seq": seq, "n": [seq]})
    await bus.keep_tail("m1", "south-2", 0, {"seq": 0, "other": True})
    assert sorted(e["seq"] for e in await bus.tail("m1", "north-1")) == [0, 1, 2]
    await bus.drop_tail("m1", "north-1", [0, 1])
    assert await bus.tail("m1", "north-1") == [{"seq": 2, "n": [2]}]
    await bus.drop_tail("m1", "north-1")
    assert await bus.tail("m1", "north-1") == []
    assert await bus.tail("m1", "south-2") == [{"seq": 0, "other": True}]
    assert await bus.tail("m2", "north-1") == []


async def test_a_dead_nodes_snapshot_runs_out(monkeypatch: pytest.MonkeyPatch) -> None:
    import spit.server.bus as bus_module

    monkeypatch.setattr(bus_module, "SNAPSHOT_TTL", 0.3)
    bus = RedisBus(redis_url(), fresh_prefix())
    await bus.open()
    try:
        await bus.publish(NodeSnapshot("gone", "127.0.0.1:9"))
        assert [s.node for s in await bus.everyone()] == ["gone"]
        await asyncio.sleep(0.5)  # it never published again (kill -9)
        assert await bus.everyone() == []
    finally:
        await bus.close()


def test_a_snapshot_from_a_shared_bus_is_checked() -> None:
    assert NodeSnapshot.from_json(b"not json") is None
    assert NodeSnapshot.from_json(b'{"node": 1}') is None
    back = NodeSnapshot.from_json(NodeSnapshot("n", "a:1", online=("x",)).to_json())
    assert back is not None and back.online == ("x",)


async def test_two_nodes_share_one_lobby_and_one_set_of_accounts(tmp_path: Path) -> None:
    async def body() -> None:
        schema, prefix = fresh_schema(), fresh_prefix()
        nodes = []
        for name in ("north", "south"):
            settings = quick_settings(
                tmp_path / name, bus_url=redis_url(), bus_prefix=prefix, node_id=name
            )
            store = PostgresStore(postgres_url(), schema=schema)
            node = ServerNode(settings, store=store)
            await node.start()
            nodes.append(node)
        north, south = nodes
        try:
            ann = Player(tmp_path / "ann", "Ann")
            await ann.connect(north)
            await ann.lobby.wait_for(lambda m: m["t"] == "welcome")
            bob, cyd = Player(tmp_path / "bob", "Bob"), Player(tmp_path / "cyd", "Cyd")
            for p in (bob, cyd):
                await p.connect(south)
                await p.lobby.wait_for(lambda m: m["t"] == "welcome")
            # Ann on north sees the players of south
            await ann.lobby.wait_for(
                lambda m: m["t"] == "lobby" and {"Bob", "Cyd"} <= set(m["online"]), timeout=LIMIT
            )
            # an account made on one node is the same account on the other
            again = Player(tmp_path / "ann2", "Ann", key=ann.key)
            await again.connect(south)
            welcome = await again.lobby.wait_for(lambda m: m["t"] == "welcome")
            assert welcome["name"] == "Ann"
            await again.close()
            # a match on south shows in north's lobby; watching it there says where to go
            bob.send("queue", mode="spit")
            cyd.send("queue", mode="spit")
            matched = await bob.lobby.wait_for(lambda m: m["t"] == "matched", timeout=LIMIT)
            live = await ann.lobby.wait_for(
                lambda m: (
                    m["t"] == "lobby" and any(x["id"] == matched["match"] for x in m["matches"])
                ),
                timeout=LIMIT,
            )
            assert live
            # watching it from north sends the watcher to south, with south's key to check
            ann.send("watch", match=matched["match"])
            told = await ann.lobby.wait_for(lambda m: m["t"] == "matched")
            assert told["seat"] is None and "token" not in told
            assert told["address"] == south.address and told["pin"] == south.host_fingerprint
            assert {n["node"] for n in north.status()["nodes"]} == {"north", "south"}
            for p in (ann, bob, cyd):
                await p.close()
        finally:
            for node in nodes:
                await node.shutdown()
            await drop_schema(nodes[0].store)

    await asyncio.wait_for(body(), LIMIT * 2)


async def test_a_draining_node_starts_no_new_match_and_says_so(tmp_path: Path) -> None:
    async def body() -> None:
        node = ServerNode(quick_settings(tmp_path / "server"))
        await node.start()
        try:
            ann, bob = Player(tmp_path / "a", "Ann"), Player(tmp_path / "b", "Bob")
            for p in (ann, bob):
                await p.connect(node)
                await p.lobby.wait_for(lambda m: m["t"] == "welcome")
            node.settings.drain_path.write_text("drain\n")
            for _ in range(60):
                if node.draining:
                    break
                await asyncio.sleep(0.05)
            assert node.draining and node.status()["draining"]
            ann.send("queue", mode="spit")
            refused = await ann.lobby.wait_for(lambda m: m["t"] == "error")
            assert "no new matches" in refused["reason"]
            node.settings.drain_path.unlink()
            for _ in range(60):
                if not node.draining:
                    break
                await asyncio.sleep(0.05)
            ann.send("queue", mode="spit")
            bob.send("queue", mode="spit")
            await ann.lobby.wait_for(lambda m: m["t"] == "matched", timeout=LIMIT)
            for p in (ann, bob):
                await p.close()
        finally:
            await node.shutdown()

    await asyncio.wait_for(body(), LIMIT)
