"""A spit server on loopback: drops, rooms, challenges, the daily challenge, admins, shutdown."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from datetime import date
from pathlib import Path
from typing import Any

import asyncssh
import pytest
from tests.support.net import LIMIT
from tests.support.server import Player, quick_settings, signed_in

from spit.server.daily import challenge_for
from spit.server.node import ServerNode, fingerprint_of


@pytest.fixture
async def node(tmp_path: Path) -> AsyncIterator[ServerNode]:
    server = ServerNode(quick_settings(tmp_path / "server", grace=0.3, rejoin=30.0))
    await server.start()
    yield server
    await server.shutdown()


async def test_a_dropped_seat_is_held_by_a_computer_and_handed_back(
    node: ServerNode, tmp_path: Path
) -> None:
    async def body() -> None:
        ann, bob = await signed_in(node, tmp_path, "Ann", "Bob")
        # Speed: a game that ends soon (a long Spit game of two computers once ran out
        # of the test's time on a busy machine)
        ann.send("queue", mode="speed")
        bob.send("queue", mode="speed")
        ma = await ann.lobby.wait_for(lambda m: m["t"] == "matched")
        mb = await bob.lobby.wait_for(lambda m: m["t"] == "matched")
        match = node.matches[ma["match"]]
        # both play; then Bob's connection dies without a word
        await asyncio.gather(ann.play_matched(ma), bob.play_matched(mb))
        await ann.match.wait_for(lambda m: m["t"] == "events")
        assert bob.client is not None and bob.client.conn is not None
        bob.client.conn.abort()
        seat = mb["seat"]
        for _ in range(100):
            if match.host.bot_holds(seat):
                break
            await asyncio.sleep(0.05)
        assert match.host.bot_holds(seat), "a computer holds the dropped seat after the grace"
        assert match.held and match.held[0][0] == seat and match.held[0][2] is None
        # Bob comes back with his key: told of his match, he takes his seat again
        back = Player(tmp_path / "Bob", "Bob", key=bob.key)
        await back.connect(node)
        again = await back.lobby.wait_for(lambda m: m["t"] == "matched")
        assert again["match"] == ma["match"] and again["seat"] == seat
        await back.play_matched(again)
        await back.match.wait_for(lambda m: m["t"] == "welcome")
        assert not match.host.bot_holds(seat)
        assert match.held[0][2] is not None
        await ann.match.wait_for(lambda m: m["t"] == "over", timeout=LIMIT)
        await ann.lobby.wait_for(lambda m: m["t"] == "result", timeout=LIMIT)
        account = await node.store.account_named("Bob")
        assert account is not None
        games = await node.store.matches_of(account.id)
        raw = await node.store.replay_of(games[0].id, account.id)
        assert raw is not None
        held = json.loads(raw)["server"]["held"]
        assert held[0][0] == seat and held[0][1] <= held[0][2]
        await ann.close()
        await back.close()

    await asyncio.wait_for(body(), LIMIT * 2)


async def test_a_room_code_pairs_two_friends(node: ServerNode, tmp_path: Path) -> None:
    async def body() -> None:
        ann, bob = await signed_in(node, tmp_path, "Ann", "Bob")
        ann.send("room", mode="spit")
        code = (await ann.lobby.wait_for(lambda m: m["t"] == "roomcode"))["code"]
        bob.send("enter", code="WRONG1")
        err = await bob.lobby.wait_for(lambda m: m["t"] == "error")
        assert "no room" in err["reason"]
        ann.send("enter", code=code)
        own = await ann.lobby.wait_for(lambda m: m["t"] == "error")
        assert "your own room" in own["reason"]
        bob.send("enter", code=code.lower())
        ma = await ann.lobby.wait_for(lambda m: m["t"] == "matched")
        mb = await bob.lobby.wait_for(lambda m: m["t"] == "matched")
        assert ma["match"] == mb["match"] and ma["rated"] is False
        for p in (ann, bob):
            await p.close()

    await asyncio.wait_for(body(), LIMIT)


async def test_a_challenge_by_name_is_accepted_or_declined(
    node: ServerNode, tmp_path: Path
) -> None:
    async def body() -> None:
        ann, bob = await signed_in(node, tmp_path, "Ann", "Bob")
        ann.send("challenge", name="nobody-here", mode="spit")
        assert "nobody" in (await ann.lobby.wait_for(lambda m: m["t"] == "error"))["reason"]
        ann.send("challenge", name="bob", mode="speed")
        first = await bob.lobby.wait_for(lambda m: m["t"] == "challenged")
        assert first["by"] == "Ann" and first["mode"] == "speed"
        bob.send("answer", id=first["id"], accept=False)
        declined = await ann.lobby.wait_for(lambda m: m["t"] == "info" and "declined" in m["text"])
        assert "Bob" in declined["text"]
        ann.send("challenge", name="Bob", mode="speed")
        after = bob.lobby.messages.index(first) + 1
        second = await bob.lobby.wait_for(lambda m: m["t"] == "challenged", start=after)
        bob.send("answer", id=second["id"], accept=True)
        ma = await ann.lobby.wait_for(lambda m: m["t"] == "matched")
        assert ma["mode"] == "speed" and ma["rated"] is True
        for p in (ann, bob):
            await p.close()

    await asyncio.wait_for(body(), LIMIT)


async def test_a_player_who_waited_gets_a_computer_of_their_strength(
    node: ServerNode, tmp_path: Path
) -> None:
    async def body() -> None:
        (ann,) = await signed_in(node, tmp_path, "Ann")
        ann.send("queue", mode="speed", bot_after=0.2)
        matched = await ann.lobby.wait_for(lambda m: m["t"] == "matched")
        assert "Computer (medium)" in matched["names"]  # 1500 is nearest medium's anchor
        await ann.play_matched(matched)
        await ann.lobby.wait_for(lambda m: m["t"] == "result", timeout=LIMIT)
        account = await node.store.account_named("Ann")
        assert account is not None
        assert (await node.store.rating(account.id, "speed")).games == 1  # rated v the anchor
        await ann.close()

    await asyncio.wait_for(body(), LIMIT * 2)


async def test_the_daily_challenge_is_one_attempt_a_day_and_ranks_it(
    node: ServerNode, tmp_path: Path
) -> None:
    async def body() -> None:
        node.today = lambda: date(2026, 12, 1)
        (ann,) = await signed_in(node, tmp_path, "Ann")
        ann.send("daily", mode="speed", play=True)
        info = await ann.lobby.wait_for(lambda m: m["t"] == "dailyinfo")
        assert info["played"] is True and info["day"] == "2026-12-01"
        matched = await ann.lobby.wait_for(lambda m: m["t"] == "matched")
        assert matched["daily"] is True
        dealt = node.matches[matched["match"]].host.game
        assert dealt.seed == challenge_for(date(2026, 12, 1), "speed").seed  # everyone's deal
        await ann.play_matched(matched)
        result = await ann.lobby.wait_for(lambda m: m["t"] == "result", timeout=LIMIT)
        assert result["share"].startswith("spit daily Speed 2026-12-01: ")
        assert any(line.startswith("Ann: ") for line in result["coaching"])
        ann.send("daily", mode="speed", play=True)
        refused = await ann.lobby.wait_for(lambda m: m["t"] == "error")
        assert "tomorrow" in refused["reason"]
        ann.send("daily", mode="speed")
        after = ann.lobby.messages.index(info) + 1
        board = await ann.lobby.wait_for(lambda m: m["t"] == "dailyinfo", start=after)
        assert [row[0] for row in board["rows"]] == ["Ann"] and board["streak"] == 1
        await ann.close()

    await asyncio.wait_for(body(), LIMIT * 2)


async def test_admins_list_kick_and_ban_and_others_may_not(
    tmp_path: Path,
) -> None:
    async def body() -> None:
        admin_key = asyncssh.generate_private_key("ssh-ed25519")
        data = tmp_path / "server"
        data.mkdir()
        (data / "admins").write_text(
            "# the admins\n" + admin_key.export_public_key().decode() + "not a key\n"
        )
        node = ServerNode(quick_settings(data))
        await node.start()
        try:
            boss = Player(tmp_path / "boss", "Boss", key=admin_key)
            await boss.connect(node)
            await boss.lobby.wait_for(lambda m: m["t"] == "welcome")
            (eve,) = await signed_in(node, tmp_path, "Eve")
            eve.send("admin", cmd="list")
            assert "admins" in (await eve.lobby.wait_for(lambda m: m["t"] == "error"))["reason"]
            boss.send("admin", cmd="list")
            out = await boss.lobby.wait_for(lambda m: m["t"] == "adminout")
            assert any(line.startswith("Eve") for line in out["lines"])
            boss.send("admin", cmd="ban", arg="name Eve flooding the lobby")
            await eve.lobby.wait_for(lambda m: m["t"] == "bye" and "banned" in m["reason"])
            assert eve.key is not None
            assert await node.store.banned("key", fingerprint_of(eve.key)) == "flooding the lobby"
            again = Player(tmp_path / "Eve", "Eve", key=eve.key)
            await again.connect(node)
            bye = await again.lobby.wait_for(lambda m: m["t"] == "bye")
            assert "banned" in bye["reason"]
            boss.send("admin", cmd="unban", arg=f"key {fingerprint_of(eve.key)}")
            await boss.lobby.wait_for(
                lambda m: m["t"] == "adminout" and "unbanned" in m["lines"][0]
            )
            await boss.close()
        finally:
            await node.shutdown()

    await asyncio.wait_for(body(), LIMIT)


async def test_shutdown_saves_running_matches_and_a_restart_keeps_accounts(
    tmp_path: Path,
) -> None:
    async def body() -> None:
        data = tmp_path / "server"
        node = ServerNode(quick_settings(data))
        await node.start()
        ann, bob = await signed_in(node, tmp_path, "Ann", "Bob")
        ann.send("queue", mode="spit")
        bob.send("queue", mode="spit")
        ma = await ann.lobby.wait_for(lambda m: m["t"] == "matched")
        mb = await bob.lobby.wait_for(lambda m: m["t"] == "matched")
        await asyncio.gather(ann.play_matched(ma), bob.play_matched(mb))
        await ann.match.wait_for(lambda m: m["t"] == "events")
        saved = await node.shutdown()
        assert saved == 1
        told = await ann.lobby.wait_for(lambda m: m["t"] == "info" and "saved" in m["text"])
        assert told
        status = json.loads((data / "status.json").read_text())
        assert status["stopped"] is True
        again = ServerNode(quick_settings(data))
        await again.start()
        try:
            account = await again.store.account_named("Ann")
            assert account is not None
            games = await again.store.matches_of(account.id)
            assert len(games) == 1 and games[0].winner is None and not games[0].rated
            raw = await again.store.replay_of(games[0].id, account.id)
            assert raw is not None and json.loads(raw)["server"]["unfinished"] is True
            back = Player(tmp_path / "Ann", "Ann", key=ann.key)
            await back.connect(again)
            welcome = await back.lobby.wait_for(lambda m: m["t"] == "welcome")
            assert welcome["name"] == "Ann"
            await back.close()
        finally:
            await again.shutdown()

    await asyncio.wait_for(body(), LIMIT * 2)


async def test_spectators_may_be_shown_the_match_late(tmp_path: Path) -> None:
    async def body() -> None:
        node = ServerNode(quick_settings(tmp_path / "server", spectator_delay=0.6))
        await node.start()
        try:
            ann, bob, cyd = await signed_in(node, tmp_path, "Ann", "Bob", "Cyd")
            ann.send("queue", mode="speed")
            bob.send("queue", mode="speed")
            ma = await ann.lobby.wait_for(lambda m: m["t"] == "matched")
            mb = await bob.lobby.wait_for(lambda m: m["t"] == "matched")
            cyd.send("watch", match=ma["match"])
            watch = await cyd.lobby.wait_for(lambda m: m["t"] == "matched")
            await cyd.play_matched(watch)
            await cyd.match.wait_for(lambda m: m["t"] == "welcome")
            await asyncio.gather(ann.play_matched(ma), bob.play_matched(mb))
            first = await ann.match.wait_for(lambda m: m["t"] == "events")
            seen_at = asyncio.get_running_loop().time()
            same = await cyd.match.wait_for(
                lambda m: m["t"] == "events" and m["at"] == first["at"], timeout=LIMIT
            )
            assert same["action"] == first["action"]
            assert asyncio.get_running_loop().time() - seen_at >= 0.5
            for p in (ann, bob, cyd):
                await p.close()
        finally:
            await node.shutdown()

    await asyncio.wait_for(body(), LIMIT)


async def test_the_servers_variants_are_dealt_in_every_match(tmp_path: Path) -> None:
    from spit.engine import get_mode

    async def body() -> None:
        node = ServerNode(quick_settings(tmp_path / "server", variants={"spit": ("V3",)}))
        await node.start()
        try:
            ann, bob = await signed_in(node, tmp_path, "Ann", "Bob")
            ann.send("queue", mode="spit")
            bob.send("queue", mode="spit")
            matched = await ann.lobby.wait_for(lambda m: m["t"] == "matched")
            config = node.matches[matched["match"]].host.game.config
            assert getattr(config, get_mode("spit").variants["V3"]) is True
            for p in (ann, bob):
                await p.close()
        finally:
            await node.shutdown()

    await asyncio.wait_for(body(), LIMIT)


async def test_a_waves_matches_are_kept_in_batched_writes_before_anyone_is_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wave deals its matches in batches: each batch's first checkpoints are one
    store write (one each waited behind the checkpoint rounds), and each player is
    told of a match only once its checkpoint is kept."""
    import time

    from spit.server import node as node_module
    from spit.server.bus import QueueEntry

    async def body() -> None:
        node = ServerNode(quick_settings(tmp_path / "server", wave_seconds=3600.0))
        await node.start()
        try:
            monkeypatch.setattr(node_module, "DEAL_BATCH", 2)
            writes: list[list[str]] = []
            put = node.store.put_checkpoints

            async def counted(owner: str, rows: Any, at: str) -> list[str]:
                writes.append([match_id for match_id, _ in rows])
                return await put(owner, rows, at)

            monkeypatch.setattr(node.store, "put_checkpoints", counted)
            told: list[tuple[str, bool]] = []
            tell = node.tell

            async def telling(where: str | None, player: str, message: dict[str, Any]) -> None:
                if message["t"] == "matched":
                    kept = await node.store.checkpoint_owners()
                    told.append((player, message["match"] in kept))
                await tell(where, player, message)

            monkeypatch.setattr(node, "tell", telling)
            now = time.time()
            for i in range(6):
                entry = QueueEntry(f"g{i}", node.node_id, "speed", 1500.0, 350.0, now - i)
                await node.bus.enqueue(entry)
            await node.run_wave()
            assert len(node.matches) == 3
            assert [len(w) for w in writes] == [2, 1]
            assert sorted(m for w in writes for m in w) == sorted(node.matches)
            assert sorted(p for p, _ in told) == [f"g{i}" for i in range(6)]
            assert all(kept for _, kept in told)
            assert "g5" in {p for p, _ in told[:2]}  # the longest waiter first
            assert len(node.load.pairing.counts) and node.load.pairing.total == 6
        finally:
            await node.shutdown()

    await asyncio.wait_for(body(), LIMIT)


async def test_a_checkpoint_round_writes_its_matches_a_chunk_a_transaction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A round brings each changed match's checkpoint up to date, ``CHECKPOINT_CHUNK``
    matches a transaction (a wave's new matches wait for one chunk, not the round)."""
    from spit.server import node as node_module
    from spit.server.node import Seated

    async def body() -> None:
        node = ServerNode(
            quick_settings(tmp_path / "server", wave_seconds=3600.0, checkpoint_seconds=0.05)
        )
        await node.start()
        try:
            monkeypatch.setattr(node_module, "CHECKPOINT_CHUNK", 2)
            matches = []
            for i in range(3):
                sides = (
                    Seated(f"g{2 * i}", f"P{2 * i}", None, node.node_id),
                    Seated(f"g{2 * i + 1}", f"P{2 * i + 1}", None, node.node_id),
                )
                matches.append(await node.start_match("speed", sides))
            assert all(m.host.limits.ping_every == node_module.SERVER_PING_EVERY for m in matches)
            rounds: list[list[str]] = []
            keep = node.store.keep_checkpoints

            async def counted(owner: str, rows: Any, at: str) -> list[str]:
                rounds.append([match_id for match_id, _ in rows])
                return await keep(owner, rows, at)

            monkeypatch.setattr(node.store, "keep_checkpoints", counted)
            for match in matches:
                match.dirty = True
            while sum(len(r) for r in rounds) < 3:
                await asyncio.sleep(0.02)
            assert [len(r) for r in rounds] == [2, 1]
            assert sorted(m for r in rounds for m in r) == sorted(m.id for m in matches)
            assert not any(m.dirty for m in matches)
        finally:
            await node.shutdown()

    await asyncio.wait_for(body(), LIMIT)
