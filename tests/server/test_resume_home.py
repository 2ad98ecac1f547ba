"""``kill -9`` of the node holding both a player's lobby and their match: the client signs
in on another node by itself, and the match, resumed from its checkpoint by another node,
finds the player there (its notice, their own seat again, then the result)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.server.test_three_nodes import NAMES, SLOWISH, _free_port
from tests.support.net import LIMIT
from tests.support.server import Player, quick_settings
from tests.support.services import drop_schema, fresh_prefix, fresh_schema, postgres_url, redis_url

from spit.net.online import OnlineClient, play_as_bot
from spit.server.node import ServerNode
from spit.server.postgres_store import PostgresStore


async def test_a_player_whose_node_died_is_told_of_the_resumed_match_where_they_are_now(
    tmp_path: Path,
) -> None:
    schema, prefix = fresh_schema(), fresh_prefix()
    port = _free_port()
    env = dict(os.environ, SPIT_DATA_DIR=str(tmp_path / "south-data"), HOME=str(tmp_path))
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2] / "src")
    south = subprocess.Popen(
        [
            sys.executable, "-m", "spit", "server", "--port", str(port),
            "--data-dir", str(tmp_path / "south"), "--node", "south",
            "--store", f"{postgres_url()}?schema={schema}", "--bus", redis_url(),
            "--bus-prefix", prefix, "--wave", "0.5",
        ],
        stderr=subprocess.DEVNULL,
        env=env,
    )  # fmt: skip

    async def body() -> None:
        nodes = []
        for name in ("north", "east"):
            settings = quick_settings(
                tmp_path / name, bus_url=redis_url(), bus_prefix=prefix, node_id=name
            )
            node = ServerNode(settings, store=PostgresStore(postgres_url(), schema=schema))
            await node.start()
            nodes.append(node)
        north, east = nodes
        try:
            for _ in range(200):
                if all({c.node for c in n.cluster} == set(NAMES) for n in nodes):
                    break
                await asyncio.sleep(0.1)
            assert {c.node for c in north.cluster} == set(NAMES), "south never came up"
            # Ann's lobby is on south, which hosts the match; Bob's is on east
            ann, bob = Player(tmp_path / "ann", "Ann"), Player(tmp_path / "bob", "Bob")
            assert ann.client is None
            ann.client = await OnlineClient.connect(
                "127.0.0.1", port, key=ann.key, known=ann.known, name="Ann", on_message=ann.lobby
            )
            await bob.connect(east)
            for p in (ann, bob):
                await p.lobby.wait_for(lambda m: m["t"] == "welcome")
            await asyncio.sleep(0.5)
            ann.send("delays", ms={"north": 30, "south": 10, "east": 90})
            bob.send("delays", ms={"north": 90, "south": 10, "east": 30})
            await asyncio.sleep(0.3)
            for p in (ann, bob):
                p.send("queue", mode="speed")
            ma = await ann.lobby.wait_for(lambda m: m["t"] == "matched", timeout=LIMIT)
            mb = await bob.lobby.wait_for(lambda m: m["t"] == "matched", timeout=LIMIT)
            assert ma["address"] == mb["address"] == f"127.0.0.1:{port}"  # on south

            async def ann_follows(match_id: str) -> dict[str, Any] | None:
                # her lobby went with south: her client signs in on another node by itself
                return await ann.lobby.wait_for(
                    lambda m: m["t"] == "matched" and m["match"] == match_id and m.get("resumed"),
                    timeout=LIMIT,
                )

            async def bob_follows(match_id: str) -> dict[str, Any] | None:
                return await bob.lobby.wait_for(
                    lambda m: m["t"] == "matched" and m["match"] == match_id and m.get("resumed"),
                    timeout=LIMIT,
                )

            plays = [
                asyncio.create_task(
                    play_as_bot(
                        p.client, m, "medium", reaction=SLOWISH, on_message=p.match,
                        next_matched=follow,
                    )
                )
                for p, m, follow in ((ann, ma, ann_follows), (bob, mb, bob_follows))
            ]  # fmt: skip
            await ann.match.wait_for(
                lambda m: m["t"] == "events" and len(ann.match.of("events")) >= 6, timeout=LIMIT
            )
            await asyncio.sleep(0.6)  # the last move's checkpoint is written
            killed_at = time.monotonic()
            south.send_signal(signal.SIGKILL)
            south.wait(LIMIT)
            await asyncio.wait_for(asyncio.gather(*plays), LIMIT * 3)
            assert time.monotonic() - killed_at < LIMIT * 3
            assert ann.client is not None and ann.client.server != f"127.0.0.1:{port}"
            # both played it to the end: Ann's seat was hers again, not a computer's
            assert ann.match.of("over") and bob.match.of("over")
            # the result came to her lobby on north (then it is in the store, once)
            result = await ann.lobby.wait_for(lambda m: m["t"] == "result", timeout=LIMIT)
            assert "rating is now" in result["text"]
            account = await north.store.account_named("Ann")
            assert account is not None
            games = await north.store.matches_of(account.id)
            assert len(games) == 1 and games[0].rated
            raw = await north.store.replay_of(games[0].id, account.id)
            assert raw is not None
            assert json.loads(raw)["server"]["held"] == []  # no computer held a seat
            for p in (ann, bob):
                await p.close()
        finally:
            for node in nodes:
                await node.shutdown()
            await drop_schema(nodes[0].store)

    try:
        await asyncio.wait_for(body(), LIMIT * 6)
    finally:
        if south.poll() is None:
            south.kill()
            south.wait(LIMIT)
