"""A spit server on loopback: sign-up by key, quick-pair, a rated game, watching."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from tests.support.net import LIMIT
from tests.support.server import Player, quick_settings, signed_in

from spit.server.node import ServerNode


@pytest.fixture
async def node(tmp_path: Path) -> AsyncIterator[ServerNode]:
    server = ServerNode(quick_settings(tmp_path / "server"))
    await server.start()
    yield server
    await server.shutdown()


async def test_a_new_key_claims_its_name_and_comes_back_as_the_same_account(
    node: ServerNode, tmp_path: Path
) -> None:
    async def body() -> None:
        ann = Player(tmp_path / "ann", "Ann")
        await ann.connect(node)
        welcome = await ann.lobby.wait_for(lambda m: m["t"] == "welcome")
        assert welcome["name"] == "Ann" and welcome["guest"] is False
        assert welcome["ratings"] == {"spit": "1500?", "speed": "1500?"}
        await ann.close()
        again = Player(tmp_path / "ann", "Someone-else", key=ann.key)
        await again.connect(node)
        welcome = await again.lobby.wait_for(lambda m: m["t"] == "welcome")
        assert welcome["name"] == "Ann"  # the key is the account, whatever name it asks for
        await again.close()

    await asyncio.wait_for(body(), LIMIT)


async def test_a_taken_or_bad_name_asks_again(node: ServerNode, tmp_path: Path) -> None:
    async def body() -> None:
        ann = Player(tmp_path / "ann", "Ann")
        await ann.connect(node)
        await ann.lobby.wait_for(lambda m: m["t"] == "welcome")
        other = Player(tmp_path / "other", "ANN")
        await other.connect(node)
        ask = await other.lobby.wait_for(lambda m: m["t"] == "needname")
        assert "taken" in ask["problem"]
        other.send("claim", name="[b]x")
        after = other.lobby.messages.index(ask) + 1
        ask = await other.lobby.wait_for(lambda m: m["t"] == "needname", start=after)
        assert "letter" in ask["problem"] or "characters" in ask["problem"]
        other.send("queue", mode="spit")  # nothing before a name
        err = await other.lobby.wait_for(lambda m: m["t"] == "error")
        assert "name" in err["reason"]
        other.send("claim", name="Annette")
        welcome = await other.lobby.wait_for(lambda m: m["t"] == "welcome")
        assert welcome["name"] == "Annette"
        await ann.close()
        await other.close()

    await asyncio.wait_for(body(), LIMIT)


async def test_a_guest_plays_without_a_key_and_is_not_rated(
    node: ServerNode, tmp_path: Path
) -> None:
    async def body() -> None:
        guest = Player(tmp_path / "g", "")
        await guest.connect(node, guest=True)
        welcome = await guest.lobby.wait_for(lambda m: m["t"] == "welcome")
        assert welcome["guest"] is True and welcome["name"].startswith("guest")
        guest.send("daily", mode="spit", play=True)
        err = await guest.lobby.wait_for(lambda m: m["t"] == "error")
        assert "account" in err["reason"]
        await guest.close()

    await asyncio.wait_for(body(), LIMIT)


async def test_two_players_are_paired_play_a_rated_game_and_a_third_watches(
    node: ServerNode, tmp_path: Path
) -> None:
    async def body() -> None:
        ann, bob, cyd = (Player(tmp_path / n, n) for n in ("Ann", "Bob", "Cyd"))
        for p in (ann, bob, cyd):
            await p.connect(node)
            await p.lobby.wait_for(lambda m: m["t"] == "welcome")
        ann.send("queue", mode="speed")
        bob.send("queue", mode="speed")
        matched_a = await ann.lobby.wait_for(lambda m: m["t"] == "matched")
        matched_b = await bob.lobby.wait_for(lambda m: m["t"] == "matched")
        assert matched_a["match"] == matched_b["match"]
        assert {matched_a["seat"], matched_b["seat"]} == {0, 1}
        assert matched_a["rated"] is True
        # Cyd watches from the start: the match waits for its players, and a game of
        # two quick computers can end before the lobby's next listing
        match_id = matched_a["match"]
        live = await cyd.lobby.wait_for(
            lambda m: m["t"] == "lobby" and any(x["id"] == match_id for x in m["matches"]),
            timeout=LIMIT,
        )
        assert live["matches"][0]["names"] in (["Ann", "Bob"], ["Bob", "Ann"])
        cyd.send("watch", match=matched_a["match"])
        watch = await cyd.lobby.wait_for(lambda m: m["t"] == "matched", timeout=LIMIT)
        assert watch["seat"] is None
        await cyd.play_matched(watch)
        await asyncio.gather(ann.play_matched(matched_a), bob.play_matched(matched_b))
        for p in (ann, bob):
            await p.match.wait_for(lambda m: m["t"] == "over", timeout=LIMIT)
            result = await p.lobby.wait_for(lambda m: m["t"] == "result", timeout=LIMIT)
            assert "rating is now" in result["text"]
        over = ann.match.of("over")[0]
        winner_name = (
            ["Ann", "Bob"][[matched_a["seat"], matched_b["seat"]].index(over["winner"])]
            if over["winner"] is not None
            else None
        )
        account_a = await node.store.account_named("Ann")
        account_b = await node.store.account_named("Bob")
        assert account_a is not None and account_b is not None
        ra = await node.store.rating(account_a.id, "speed")
        rb = await node.store.rating(account_b.id, "speed")
        assert ra.games == rb.games == 1
        if winner_name == "Ann":
            assert ra.rating.rating > 1500 > rb.rating.rating
        elif winner_name == "Bob":
            assert rb.rating.rating > 1500 > ra.rating.rating
        games = await node.store.matches_of(account_a.id)
        assert len(games) == 1 and games[0].rated
        ann.send("board", mode="speed")  # one game: not ranked yet, and told so
        board = await ann.lobby.wait_for(lambda m: m["t"] == "standings")
        assert board["rows"] == []
        assert board["me"].startswith("You: ") and "9 more to be ranked" in board["me"]
        # the spectator saw no hidden card: no message to it held a hand
        for msg in cyd.match.messages:
            if msg["t"] == "state":  # a hand is only its size: every card hidden (-1) or gone
                assert all(card in (-1, None) for card in msg["obs"].get("hand", [])), msg
        for p in (ann, bob, cyd):
            await p.close()

    await asyncio.wait_for(body(), LIMIT * 2)


async def test_a_player_who_asks_to_watch_their_own_match_is_sent_to_their_seat(
    node: ServerNode, tmp_path: Path
) -> None:
    async def body() -> None:
        ann, bob = await signed_in(node, tmp_path, "Ann", "Bob")
        ann.send("queue", mode="speed")
        bob.send("queue", mode="speed")
        matched = await ann.lobby.wait_for(lambda m: m["t"] == "matched")
        ann.send("watch", match=matched["match"])  # e.g. picked from the live list
        again = await ann.lobby.wait_for(
            lambda m: m["t"] == "matched", start=ann.lobby.messages.index(matched) + 1
        )
        assert again["match"] == matched["match"]
        assert again["seat"] == matched["seat"] and again["token"] == matched["token"]
        for p in (ann, bob):
            await p.close()

    await asyncio.wait_for(body(), LIMIT)


async def test_an_operators_board_thresholds_put_a_first_rated_game_on_the_board(
    tmp_path: Path,
) -> None:
    """``spit server --board-rd 350 --board-games 1``: one rated game is enough."""
    from spit.cli.server import board_rules

    rules = board_rules(350, 1, 7)

    async def body() -> None:
        node = ServerNode(quick_settings(tmp_path / "server", rating=rules))
        await node.start()
        try:
            ann, bob = await signed_in(node, tmp_path, "Ann", "Bob")
            for p in (ann, bob):
                p.send("queue", mode="speed")
            matched = [await p.lobby.wait_for(lambda m: m["t"] == "matched") for p in (ann, bob)]
            await asyncio.gather(
                *(p.play_matched(m) for p, m in zip((ann, bob), matched, strict=True))
            )
            for p in (ann, bob):
                await p.lobby.wait_for(lambda m: m["t"] == "result", timeout=LIMIT)
            ann.send("board", mode="speed")
            board = await ann.lobby.wait_for(lambda m: m["t"] == "standings")
            assert sorted(row[0] for row in board["rows"]) == ["Ann", "Bob"]
            assert board["me"].startswith("You are number ")
            for p in (ann, bob):
                await p.close()
        finally:
            await node.shutdown()

    await asyncio.wait_for(body(), LIMIT * 2)


def test_board_thresholds_out_of_range_are_refused_in_words() -> None:
    from spit.cli.server import board_rules

    for rd, games, days, words in (
        (10, 1, 7, "--board-rd"),
        (75, 0, 7, "--board-games"),
        (75, 10, 0, "--board-days"),
    ):
        with pytest.raises(ValueError, match=words):
            board_rules(rd, games, days)


def test_a_player_is_told_where_they_stand_or_what_they_lack() -> None:
    from spit.server.node import _standing_words
    from spit.server.store import PlayerRating, RatingRules
    from spit.store.glicko import Rating

    rules = RatingRules(board_rd=75, board_min_games=10)
    settled = PlayerRating(Rating(1620, 60), 30, "2026-12-01")
    assert _standing_words(settled, rules, 2) == "You are number 3, at 1620."
    assert "play a rated game this week" in _standing_words(settled, rules, None)
    new = PlayerRating(Rating(1580, 200), 3, "2026-12-01")
    assert _standing_words(new, rules, None) == "You: 1580?, 3 rated games; 7 more to be ranked."
    unsettled = PlayerRating(Rating(1580, 90), 12, "2026-12-01")
    assert "settle" in _standing_words(unsettled, rules, None)


async def test_a_node_on_postgresql_keeps_accounts_and_rates_a_match(tmp_path: Path) -> None:
    from tests.support.services import drop_schema, fresh_schema, postgres_url

    from spit.server.postgres_store import PostgresStore

    async def body() -> None:
        store = PostgresStore(postgres_url(), schema=fresh_schema())
        node = ServerNode(quick_settings(tmp_path / "server"), store=store)
        await node.start()
        try:
            ann, bob = Player(tmp_path / "a", "Ann"), Player(tmp_path / "b", "Bob")
            for p in (ann, bob):
                await p.connect(node)
                await p.lobby.wait_for(lambda m: m["t"] == "welcome")
                p.send("queue", mode="speed")
            ma = await ann.lobby.wait_for(lambda m: m["t"] == "matched")
            mb = await bob.lobby.wait_for(lambda m: m["t"] == "matched")
            await asyncio.gather(ann.play_matched(ma), bob.play_matched(mb))
            await ann.lobby.wait_for(lambda m: m["t"] == "result", timeout=LIMIT)
            account = await store.account_named("Ann")
            assert account is not None
            assert (await store.rating(account.id, "speed")).games == 1
            for p in (ann, bob):
                await p.close()
        finally:
            await node.shutdown()
            await drop_schema(store)

    await asyncio.wait_for(body(), LIMIT * 2)


async def test_a_queue_request_reads_no_rating_until_one_changed_on_another_node(
    node: ServerNode, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ratings read at sign-in serve the queue (a store read there waited behind a
    burst of sign-ins and missed a wave); a result from another node reads them again."""

    async def body() -> None:
        ann = Player(tmp_path / "ann", "Ann")
        await ann.connect(node)
        await ann.lobby.wait_for(lambda m: m["t"] == "welcome")
        reads: list[tuple[int, str]] = []
        read = node.store.rating

        async def counted(account: int, mode: str) -> Any:
            reads.append((account, mode))
            return await read(account, mode)

        monkeypatch.setattr(node.store, "rating", counted)

        async def queue_once() -> None:
            ann.send("queue", mode="speed")
            while not node.queue:
                await asyncio.sleep(0.01)
            assert (node.queue[next(iter(node.queue))].rating, len(node.queue)) == (1500.0, 1)
            ann.send("unqueue")
            while node.queue:
                await asyncio.sleep(0.01)

        await queue_once()
        assert reads == []
        player_id = next(iter(node.players))
        result = {"t": "result", "text": "Ann won elsewhere."}
        await node.bus.post(node.node_id, {"t": "deliver", "player": player_id, "msg": result})
        await ann.lobby.wait_for(lambda m: m["t"] == "result")
        await queue_once()
        assert [mode for _, mode in reads] == ["speed"]
        await ann.close()

    await asyncio.wait_for(body(), LIMIT)
