"""Whole games through a real host on loopback: two bot guests, a spectator, records."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from tests.support.net import LIMIT, bot_guest, join, quick_host

from spit.bots.sim import new_game
from spit.engine.observers import HIDDEN

#: What a seat's Speed observation may hold: its own hand and counts, never the other's.
SPEED_KEYS = {
    "player",
    "phase",
    "round_no",
    "scores",
    "games_won",
    "winner",
    "result",
    "legal",
    "mode",
    "v",
    "hand",
    "opponent_hand_count",
    "draw_counts",
    "side_counts",
    "pile_tops",
    "pile_sizes",
    "ready",
    "timer",
}
SPIT_KEYS = {
    "player",
    "phase",
    "round_no",
    "scores",
    "games_won",
    "winner",
    "result",
    "legal",
    "mode",
    "v",
    "stocks",
    "spit_counts",
    "piles",
    "called",
    "slaps",
    "chooser",
    "timer",
}


#: Where each event type keeps its card (index in the JSON form).
CARD_AT = {"CardPlayed": 4, "CardTurnedUp": 3, "CardMoved": 4, "Spat": 3}


def cards_seen(messages: list[dict[str, Any]]) -> set[int]:
    """Every card a guest was shown: its hand, the pile tops, the cards in events."""
    seen: set[int] = set()
    for msg in messages:
        if msg["t"] == "state":
            obs = msg["obs"]
            seen.update(c for c in obs.get("hand", []) + obs.get("pile_tops", []) if c is not None)
        elif msg["t"] == "events":
            for event in msg["events"]:
                at = CARD_AT.get(event[0])
                if at is not None and event[at] is not None:
                    seen.add(event[at])
    return seen


def check_secrets(messages: list[dict[str, Any]], seat: int | None, mode: str) -> None:
    """No message shows a card this seat may not see."""
    for msg in messages:
        if msg["t"] == "state":
            obs = msg["obs"]
            assert set(obs) <= (SPEED_KEYS if mode == "speed" else SPIT_KEYS), set(obs)
            if mode == "speed":
                assert obs["player"] == seat
                assert len(obs["hand"]) <= 5
                if seat is None:  # a spectator: player 1's cards held, face down
                    assert all(c in (None, HIDDEN) for c in obs["hand"])
            else:
                for side in obs["stocks"]:  # only tops and counts of face-down cards
                    assert all(len(view) == 2 for view in side)
        elif msg["t"] == "events" and mode == "speed":
            for event in msg["events"]:
                if event[0] == "CardTurnedUp" and event[1] != seat:
                    assert event[3] is None, f"seat {seat} saw the other's drawn card"
                assert event[0] != "Dealt" or all(isinstance(v, (int, list)) for v in event[1:])


async def play_through(mode: str, tmp: Path) -> None:
    game = new_game(mode, (), 7, round_limit=2 if mode == "spit" else None)
    host = quick_host(game, record=True)
    await host.start()
    try:
        (g1, r1), (g2, r2) = await asyncio.gather(
            bot_guest(host, 0, mode), bot_guest(host, 1, mode)
        )
        watcher, rw = await join(host, None)
        await asyncio.wait_for(host.run(), LIMIT)
        assert game.over
        for recorder in (r1, r2, rw):
            over = await recorder.wait_for(lambda m: m["t"] == "over")
            assert over["winner"] == game.winner
            replay = await recorder.wait_for(lambda m: m["t"] == "replay")
            assert replay["data"]["fingerprint"] == game.fingerprint()
        check_secrets(r1.messages, 0, mode)
        check_secrets(r2.messages, 1, mode)
        check_secrets(rw.messages, None, mode)
        if mode == "speed":
            # cards never shown to anyone but their holder: still in a hand or a draw pile
            for seat, recorder in ((0, r2), (1, r1), (0, rw), (1, rw)):
                hidden = {c for c in game.hands[seat] if c is not None} | set(game.draw[seat])
                assert not cards_seen(recorder.messages) & hidden
        assert r1.of("verdict") and all(m["t"] != "error" for m in r1.messages)
    finally:
        await host.close("the host closed the game")
    for guest in (g1, g2, watcher):
        await asyncio.wait_for(guest.done.wait(), 5)
        await guest.close()
    # the host keeps the record and the replay
    replays = list((tmp / "data" / "replays").glob("*.json"))
    assert len(replays) == 1
    assert json.loads(replays[0].read_text())["fingerprint"] == game.fingerprint()


@pytest.mark.parametrize("mode", ["speed", "spit"])
async def test_two_bot_guests_play_a_whole_game(mode: str, isolated_dirs: Path) -> None:
    await asyncio.wait_for(play_through(mode, isolated_dirs), LIMIT + 10)


async def test_host_quitting_tells_the_guest(isolated_dirs: Path) -> None:
    async def body() -> None:
        host = quick_host(new_game("speed", (), 1))
        await host.start()
        guest, recorder = await join(host, 0)
        await recorder.wait_for(lambda m: m["t"] == "welcome")
        await host.close("the host quit the game")
        await asyncio.wait_for(guest.done.wait(), 5)
        assert guest.ended == "the host quit the game"
        await guest.close()

    await asyncio.wait_for(body(), LIMIT)


async def test_spectator_sees_public_information_only(isolated_dirs: Path) -> None:
    async def body() -> None:
        host = quick_host(new_game("speed", (), 2))
        await host.start()
        watcher, recorder = await join(host, None)
        welcome = await recorder.wait_for(lambda m: m["t"] == "welcome")
        assert welcome["seat"] is None
        state = await recorder.wait_for(lambda m: m["t"] == "state")
        assert state["obs"]["hand"] == [HIDDEN] * 5 and state["obs"]["legal"] == []
        assert state["obs"]["opponent_hand_count"] == 5
        from spit.engine import call

        watcher.action(call(0))
        verdict = await recorder.wait_for(lambda m: m["t"] == "verdict")
        assert not verdict["ok"] and "spectators" in verdict["reason"]
        await host.close()
        await watcher.close()

    await asyncio.wait_for(body(), LIMIT)


async def test_host_quitting_mid_game_keeps_the_game_to_resume() -> None:
    from spit.store.resume import list_saved_games

    async def body() -> None:
        game = new_game("spit", (), 3)
        host = quick_host(game, record=True)
        await host.start()
        (g1, r1), (g2, _) = await asyncio.gather(
            bot_guest(host, 0, "spit"), bot_guest(host, 1, "spit")
        )
        run = asyncio.create_task(host.run())
        # a card played: a game left after only the opening calls is not kept (issue 21)
        await r1.wait_for(lambda m: m["t"] == "events" and (m.get("action") or [""])[0] == "play")
        await host.close("the host quit the game")
        run.cancel()
        saved = list_saved_games()
        assert len(saved) == 1 and saved[0].replay is not None
        assert saved[0].replay.final.fingerprint() == game.fingerprint()
        # both seats played from elsewhere: a resume says it goes on at one keyboard
        assert [p.remote for p in saved[0].replay.meta.players] == [True, True]
        assert "over the network" in saved[0].describe()
        assert saved[0].columns()["players"].count("(remote)") == 2
        for guest in (g1, g2):
            await asyncio.wait_for(guest.done.wait(), 5)
            assert guest.ended == "the host quit the game"
            await guest.close()

    await asyncio.wait_for(body(), LIMIT)


async def test_the_headless_hosts_last_line_is_the_result_in_words() -> None:
    import re

    from spit.net.runner import host_headless
    from spit.play.status import result_text

    async def body() -> None:
        game = new_game("speed", (), 11)
        host = quick_host(game)
        await host.start()
        lines: list[str] = []
        serving = asyncio.create_task(host_headless(host, lines.append))
        guests = await asyncio.gather(
            bot_guest(host, 0, "speed", name="Ann"), bot_guest(host, 1, "speed", name="Bob")
        )
        ended = await asyncio.wait_for(serving, LIMIT)
        assert game.over
        assert ended == result_text(game, ("Ann", "Bob"))  # the words of a local game
        assert not re.search(r"\b[RHPV]\d", ended), ended  # no rule id for a player
        for guest, _ in guests:
            await guest.close()

    await asyncio.wait_for(body(), LIMIT + 10)
