"""Three nodes on loopback as one server: pairing across nodes, the match on the node
both players reach best, a spectator from a third node, one rating update."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.support.net import LIMIT
from tests.support.server import Player, quick_settings, start_cluster
from tests.support.services import drop_schema, fresh_prefix, fresh_schema, postgres_url, redis_url

from spit.bots.reaction import Reaction
from spit.net.online import play_as_bot
from spit.server.node import ServerNode
from spit.server.postgres_store import PostgresStore
from spit.server.sqlite_store import SqliteStore
from spit.server.store import MatchRecord, Side
from spit.store.replays import parse_replay

NAMES = ("north", "south", "east")
#: bots quick enough for a short test, slow enough that a game outlives its node's death
SLOWISH = Reaction(mu=0.12, sigma=0.02, tau=0.02, floor=0.08)


async def start_nodes(tmp_path: Path, schema: str, prefix: str, **kwargs: Any) -> list[ServerNode]:
    return await start_cluster(tmp_path, NAMES, schema, prefix, **kwargs)


async def test_players_on_two_nodes_play_on_the_node_they_reach_best_and_are_rated_once(
    tmp_path: Path,
) -> None:
    async def body() -> None:
        schema, prefix = fresh_schema(), fresh_prefix()
        nodes = await start_nodes(tmp_path, schema, prefix)
        north, south, east = nodes
        try:
            ann, bob, cyd = (Player(tmp_path / n, n.title()) for n in ("ann", "bob", "cyd"))
            for player, node in ((ann, north), (bob, south), (cyd, east)):
                await player.connect(node)
                await player.lobby.wait_for(lambda m: m["t"] == "welcome")
            # each client timed its round trips to the three nodes the lobby listed, by itself
            for player, node in ((ann, north), (bob, south)):
                for _ in range(100):
                    here = [p for p in node.players.values() if p.name == player.name]
                    if here and set(here[0].delays) == set(NAMES):
                        break
                    await asyncio.sleep(0.05)
                assert here and set(here[0].delays) == set(NAMES)
            # then say what far-apart players would measure: south is the fairest for both
            # (worse round trip 20 ms there, 60 ms on north, 90 ms on east)
            ann.send("delays", ms={"north": 10, "south": 20, "east": 90})
            bob.send("delays", ms={"north": 60, "south": 15, "east": 90})
            await asyncio.sleep(0.3)
            ann.send("queue", mode="speed")
            bob.send("queue", mode="speed")
            ma = await ann.lobby.wait_for(lambda m: m["t"] == "matched", timeout=LIMIT)
            mb = await bob.lobby.wait_for(lambda m: m["t"] == "matched", timeout=LIMIT)
            assert ma["match"] == mb["match"] and {ma["seat"], mb["seat"]} == {0, 1}
            assert ma["address"] == mb["address"] == south.address
            assert ma["pin"] == south.host_fingerprint
            assert ma["match"] in south.matches and ma["match"] not in north.matches
            assert not north.queue and not south.queue  # paired once, out of every queue
            # Cyd on east watches: sent to south, public information only
            await cyd.lobby.wait_for(
                lambda m: m["t"] == "lobby" and any(x["id"] == ma["match"] for x in m["matches"]),
                timeout=LIMIT,
            )
            cyd.send("watch", match=ma["match"])
            watch = await cyd.lobby.wait_for(lambda m: m["t"] == "matched", timeout=LIMIT)
            assert watch["seat"] is None and watch["address"] == south.address
            await cyd.play_matched(watch)
            # Ann plays from north on a connection of her own to south; Bob on his own node
            await asyncio.gather(ann.play_matched(ma), bob.play_matched(mb))
            for p in (ann, bob):
                await p.match.wait_for(lambda m: m["t"] == "over", timeout=LIMIT)
                result = await p.lobby.wait_for(lambda m: m["t"] == "result", timeout=LIMIT)
                assert "rating is now" in result["text"]
            assert cyd.match.of("state"), [m["t"] for m in cyd.match.messages]
            for msg in cyd.match.messages:
                if msg["t"] == "state":
                    assert all(card in (-1, None) for card in msg["obs"].get("hand", [])), msg
            # rated once, on the shared store, as a single node rates the same result
            store = south.store
            account_a = await store.account_named("Ann")
            account_b = await store.account_named("Bob")
            assert account_a is not None and account_b is not None
            games = await store.matches_of(account_a.id)
            assert len(games) == 1 and games[0].rated
            ra = await store.rating(account_a.id, "speed")
            rb = await store.rating(account_b.id, "speed")
            assert ra.games == rb.games == 1
            single = SqliteStore(tmp_path / "single.db")
            await single.open()
            try:
                one = await single.create_account("Ann", "SHA256:ann", "2026-12-02T00:00:00")
                two = await single.create_account("Bob", "SHA256:bob", "2026-12-02T00:00:00")
                seat_a = ma["seat"]
                sides = [Side(None, "", None), Side(None, "", None)]
                sides[seat_a] = Side(one.id, "Ann", None)
                sides[1 - seat_a] = Side(two.id, "Bob", None)
                await single.record_match(
                    MatchRecord(
                        mode="speed",
                        sides=(sides[0], sides[1]),
                        winner=games[0].winner,
                        rated=True,
                        started="2026-12-02T00:00:00",
                        ended="2026-12-02T00:01:00",
                        replay="{}",
                    )
                )
                sa = await single.rating(one.id, "speed")
                sb = await single.rating(two.id, "speed")
            finally:
                await single.close()
            assert (ra.rating, rb.rating) == (sa.rating, sb.rating)
            for p in (ann, bob, cyd):
                await p.close()
        finally:
            for node in nodes:
                await node.shutdown()
            await drop_schema(nodes[0].store)

    await asyncio.wait_for(body(), LIMIT * 3)


async def test_nodes_pairing_at_once_never_put_a_player_in_two_matches(tmp_path: Path) -> None:
    """Every node runs its waves at once (no lead): the atomic claim alone keeps it right."""

    async def body() -> None:
        schema, prefix = fresh_schema(), fresh_prefix()
        nodes = await start_nodes(tmp_path, schema, prefix, wave_seconds=3600)

        async def always(node: str, seconds: float) -> bool:
            return True

        for node in nodes:
            node.bus.lead = always  # type: ignore[method-assign]
        players: list[Player] = []
        try:
            for i in range(9):
                p = Player(tmp_path / f"p{i}", f"P{i}", key=None)
                await p.connect(nodes[i % 3], guest=True)
                await p.lobby.wait_for(lambda m: m["t"] == "welcome")
                players.append(p)
            for p in players:
                p.send("queue", mode="spit")
            for _ in range(100):
                if len(await nodes[0].bus.queued()) == 9:
                    break
                await asyncio.sleep(0.05)
            assert len(await nodes[0].bus.queued()) == 9
            await asyncio.gather(*(node.run_wave() for node in nodes))  # three deciders at once
            await asyncio.sleep(0.5)  # the host commands reach the chosen nodes' inboxes
            seen: dict[str, int] = {}
            for node in nodes:
                for match in node.matches.values():
                    for who in match.seats:
                        if who is not None:
                            seen[who] = seen.get(who, 0) + 1
            assert len(seen) == 8  # four pairs; one player waits
            assert set(seen.values()) == {1}
        finally:
            for p in players:
                await p.close()
            for node in nodes:
                await node.shutdown()
            await drop_schema(nodes[0].store)

    await asyncio.wait_for(body(), LIMIT * 2)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_a_match_on_a_node_killed_mid_game_finishes_on_another(tmp_path: Path) -> None:
    """``kill -9`` the node hosting a match just after a move: another node carries it on
    from its checkpoint and the tail on the bus, with every move the players saw; both
    players' clients follow it there by themselves, the result is kept once."""
    schema, prefix = fresh_schema(), fresh_prefix()
    port = _free_port()
    env = dict(os.environ, SPIT_DATA_DIR=str(tmp_path / "south-data"), HOME=str(tmp_path))
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2] / "src")
    south = subprocess.Popen(
        [
            sys.executable, "-m", "spit", "server", "--port", str(port),
            "--data-dir", str(tmp_path / "south"), "--node", "south",
            "--store", f"{postgres_url()}?schema={schema}", "--bus", redis_url(),
            "--bus-prefix", prefix, "--wave", "0.5", "--checkpoint", "600",
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
            ann, bob = Player(tmp_path / "ann", "Ann"), Player(tmp_path / "bob", "Bob")
            await ann.connect(north)
            await bob.connect(east)
            for p in (ann, bob):
                await p.lobby.wait_for(lambda m: m["t"] == "welcome")
            await asyncio.sleep(0.5)  # their own round trips reported first, then these:
            ann.send("delays", ms={"north": 30, "south": 10, "east": 90})
            bob.send("delays", ms={"north": 90, "south": 10, "east": 30})
            await asyncio.sleep(0.3)
            for p in (ann, bob):
                p.send("queue", mode="speed")
            ma = await ann.lobby.wait_for(lambda m: m["t"] == "matched", timeout=LIMIT)
            mb = await bob.lobby.wait_for(lambda m: m["t"] == "matched", timeout=LIMIT)
            assert ma["address"] == mb["address"] == f"127.0.0.1:{port}"  # on south

            def follow(p: Player) -> Any:
                async def next_matched(match_id: str) -> dict[str, Any] | None:
                    return await p.lobby.wait_for(
                        lambda m: (
                            m["t"] == "matched" and m["match"] == match_id and m.get("resumed")
                        ),
                        timeout=LIMIT,
                    )

                return next_matched

            plays = [
                asyncio.create_task(
                    play_as_bot(
                        p.client, m, "medium", reaction=SLOWISH, on_message=p.match,
                        next_matched=follow(p),
                    )
                )
                for p, m in ((ann, ma), (bob, mb))
            ]  # fmt: skip
            # a few moves are applied on south (its one checkpoint is the deal: the rest is
            # in the tail), and it dies the moment Ann is told of the sixth
            await ann.match.wait_for(
                lambda m: m["t"] == "events" and len(ann.match.of("events")) >= 6, timeout=LIMIT
            )
            killed_at = time.monotonic()
            south.send_signal(signal.SIGKILL)
            south.wait(LIMIT)
            await asyncio.sleep(0.1)  # what south wrote before it died has arrived
            seen = [
                [m["action"] for m in p.match.of("events")] for p in (ann, bob)
            ]  # every move either player saw on south
            again = await ann.lobby.wait_for(
                lambda m: m["t"] == "matched" and m.get("resumed"), timeout=LIMIT
            )
            resumed_in = time.monotonic() - killed_at
            assert again["match"] == ma["match"] and again["seat"] == ma["seat"]
            assert again["address"] in (north.address, east.address)
            assert resumed_in < 15, resumed_in  # the goal
            await asyncio.wait_for(asyncio.gather(*plays), LIMIT * 2)
            assert ann.match.of("over") and bob.match.of("over")
            result = await ann.lobby.wait_for(lambda m: m["t"] == "result", timeout=LIMIT)
            assert "rating is now" in result["text"]
            account = await north.store.account_named("Ann")
            assert account is not None
            games = await north.store.matches_of(account.id)
            assert len(games) == 1 and games[0].rated  # kept once, on the node that finished it
            assert (await north.store.rating(account.id, "speed")).games == 1
            assert await north.store.checkpoint_owners() == {}
            # the whole game is in its replay: the moves made on south, then the rest
            raw = await north.store.replay_of(games[0].id, account.id)
            assert raw is not None
            replay = parse_replay(raw)
            assert replay.final.over
            actions = [a.to_json() for a in replay.final.actions]
            assert len(seen[0]) >= 6
            for moves in seen:  # nothing either player saw was lost with south
                assert actions[: len(moves)] == moves
            for p in (ann, bob):
                await p.close()
        finally:
            for node in nodes:
                await node.shutdown()
            await drop_schema(nodes[0].store)

    try:
        await asyncio.wait_for(body(), LIMIT * 4)
    finally:
        if south.poll() is None:
            south.kill()
            south.wait(LIMIT)


async def test_a_client_whose_node_stops_signs_in_on_another_and_follows_its_match(
    tmp_path: Path,
) -> None:
    async def body() -> None:
        schema, prefix = fresh_schema(), fresh_prefix()
        nodes = []
        for name in ("north", "south"):
            settings = quick_settings(
                tmp_path / name, bus_url=redis_url(), bus_prefix=prefix, node_id=name
            )
            node = ServerNode(settings, store=PostgresStore(postgres_url(), schema=schema))
            await node.start()
            nodes.append(node)
        north, south = nodes
        try:
            for _ in range(100):
                if all(len(n.cluster) == 2 for n in nodes):
                    break
                await asyncio.sleep(0.05)
            ann, bob = Player(tmp_path / "ann", "Ann"), Player(tmp_path / "bob", "Bob")
            await ann.connect(south)
            await bob.connect(north)
            for p in (ann, bob):
                await p.lobby.wait_for(lambda m: m["t"] == "lobby" and "nodes" in m)
                assert p.client is not None
                for _ in range(100):
                    if p.client.delays:
                        break
                    await asyncio.sleep(0.05)
                p.send("delays", ms={"north": 40, "south": 5})
            await asyncio.sleep(0.3)
            for p in (ann, bob):
                p.send("queue", mode="speed")
            ma = await ann.lobby.wait_for(lambda m: m["t"] == "matched", timeout=LIMIT)
            mb = await bob.lobby.wait_for(lambda m: m["t"] == "matched", timeout=LIMIT)
            assert ma["address"] == south.address

            def follow(p: Player) -> Any:
                async def next_matched(match_id: str) -> dict[str, Any] | None:
                    return await p.lobby.wait_for(
                        lambda m: m["t"] == "matched" and m.get("resumed") is True,
                        timeout=LIMIT,
                    )

                return next_matched

            plays = [
                asyncio.create_task(
                    play_as_bot(
                        p.client,  # type: ignore[arg-type]
                        m,
                        "medium",
                        reaction=SLOWISH,
                        on_message=p.match,
                        next_matched=follow(p),
                    )
                )
                for p, m in ((ann, ma), (bob, mb))
            ]
            await ann.match.wait_for(lambda m: m["t"] == "events", timeout=LIMIT)
            await south.shutdown()  # Ann's lobby and the match were there
            again = await ann.lobby.wait_for(
                lambda m: m["t"] == "info" and m["text"].startswith("Signed in again"),
                timeout=LIMIT,
            )
            assert again
            assert ann.client is not None and ann.client.server == north.address
            assert ann.client.ended is None
            await asyncio.wait_for(asyncio.gather(*plays), LIMIT * 2)
            assert ann.match.of("over") and bob.match.of("over")
            result = await ann.lobby.wait_for(lambda m: m["t"] == "result", timeout=LIMIT)
            assert "rating is now" in result["text"]
            for p in (ann, bob):
                await p.close()
        finally:
            await north.shutdown()
            await drop_schema(north.store)

    await asyncio.wait_for(body(), LIMIT * 4)


async def test_rooms_and_challenges_reach_players_on_other_nodes(tmp_path: Path) -> None:
    async def body() -> None:
        schema, prefix = fresh_schema(), fresh_prefix()
        nodes = await start_nodes(tmp_path, schema, prefix)
        north, south, east = nodes
        try:
            ann, bob, cyd = (Player(tmp_path / n, n.title()) for n in ("ann", "bob", "cyd"))
            for player, node in ((ann, north), (bob, south), (cyd, east)):
                await player.connect(node)
                await player.lobby.wait_for(lambda m: m["t"] == "welcome")
            for player in (ann, bob, cyd):  # everyone is seen everywhere
                await player.lobby.wait_for(
                    lambda m: m["t"] == "lobby" and {"Ann", "Bob", "Cyd"} <= set(m["online"]),
                    timeout=LIMIT,
                )
            # a challenge from east to Ann on north: declined, then accepted
            cyd.send("challenge", name="ann", mode="speed")
            asked = await ann.lobby.wait_for(lambda m: m["t"] == "challenged", timeout=LIMIT)
            assert asked["by"] == "Cyd" and asked["mode"] == "speed"
            ann.send("answer", id=asked["id"], accept=False)
            told = await cyd.lobby.wait_for(
                lambda m: m["t"] == "info" and "declined" in m["text"], timeout=LIMIT
            )
            assert "Ann declined" in told["text"]
            cyd.send("challenge", name="Ann", mode="speed")
            count = len(ann.lobby.of("challenged"))
            asked = await ann.lobby.wait_for(
                lambda m: m["t"] == "challenged" and len(ann.lobby.of("challenged")) > count,
                timeout=LIMIT,
            )
            ann.send("answer", id=asked["id"], accept=True)
            mc = await cyd.lobby.wait_for(lambda m: m["t"] == "matched", timeout=LIMIT)
            ma = await ann.lobby.wait_for(lambda m: m["t"] == "matched", timeout=LIMIT)
            assert mc["mode"] == "speed" and mc["match"] == ma["match"]
            # a room opened on south, its code typed on north by a player there
            dee = Player(tmp_path / "dee", "Dee")
            await dee.connect(north)
            await dee.lobby.wait_for(lambda m: m["t"] == "welcome")
            bob.send("room", mode="spit")
            code = (await bob.lobby.wait_for(lambda m: m["t"] == "roomcode"))["code"]
            await asyncio.sleep(0.2)
            dee.send("enter", code=code)
            mb = await bob.lobby.wait_for(lambda m: m["t"] == "matched", timeout=LIMIT)
            md = await dee.lobby.wait_for(lambda m: m["t"] == "matched", timeout=LIMIT)
            assert mb["match"] == md["match"] and mb["rated"] is False
            ann.send("enter", code=code)  # taken once
            refused = await ann.lobby.wait_for(lambda m: m["t"] == "error")
            assert "no room has that code" in refused["reason"] or "in a match" in refused["reason"]
            # in a match already: no second one, whoever asks
            cyd.send("challenge", name="Bob", mode="spit")
            asked = await bob.lobby.wait_for(lambda m: m["t"] == "challenged", timeout=LIMIT)
            bob.send("answer", id=asked["id"], accept=True)
            busy = await bob.lobby.wait_for(lambda m: m["t"] == "error", timeout=LIMIT)
            assert "in a match" in busy["reason"]
            await dee.close()
            for p in (ann, bob, cyd):
                await p.close()
        finally:
            for node in nodes:
                await node.shutdown()
            await drop_schema(nodes[0].store)

    await asyncio.wait_for(body(), LIMIT * 3)
