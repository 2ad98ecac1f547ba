"""The tail of a hosted match (``Host.tail_since``, ``Host.hold_output``,
``spit.net.resume.extend_checkpoint``): what a server node keeps on the bus
after each tick, so that a match resumed on another node goes on from the last
thing its players saw. Nothing a guest was sent may be missing from it."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
from tests.net.test_host_resume import node_dies, resumed_host, until
from tests.support.net import LIMIT, bot_guest, quick_host, tail_of_local_play

from spit.bots.sim import new_game
from spit.net.host import Host
from spit.net.resume import CheckpointError, TailMark, extend_checkpoint, read_checkpoint
from spit.store.replays import parse_replay, verify_file

#: how long the pretend bus takes to keep an entry (a real one on loopback: ~0.2 ms)
BUS_DELAY = 0.03


class PretendBus:
    """Keeps each tail entry ``BUS_DELAY`` seconds after it is given (as a slow
    bus would), and nothing once the node is dead."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.kept: list[dict[str, Any]] = []
        self.mark = host.tail_mark()
        self.dead = False
        self._handles: list[asyncio.TimerHandle] = []

    def applied(self) -> None:
        entry, self.mark = self.host.tail_since(self.mark)
        loop = asyncio.get_running_loop()
        write: asyncio.Future[None] = loop.create_future()

        def kept() -> None:
            if not self.dead:
                self.kept.append(json.loads(json.dumps(entry)))
                write.set_result(None)

        self._handles.append(loop.call_later(BUS_DELAY, kept))
        self.host.hold_output(write, timeout=LIMIT)

    def die(self) -> None:
        self.dead = True
        for handle in self._handles:
            handle.cancel()


def seen_actions(messages: list[dict[str, Any]]) -> list[Any]:
    """Every applied action a guest was told of, in order."""
    return [m["action"] for m in messages if m["t"] == "events"]


@pytest.mark.parametrize(("mode", "seed"), [("speed", 5), ("spit", 9)])
async def test_a_checkpoint_and_its_tail_hold_everything_the_guests_saw(
    mode: str, seed: int, tmp_path: Path
) -> None:
    """The node dies just after a guest was told of a move: the first checkpoint
    and the entries kept by then hold that move and every one before it, and the
    match carries on from there on another host to a whole, verified replay."""

    async def body() -> None:
        game = new_game(mode, (), seed, round_limit=2 if mode == "spit" else None)
        first = quick_host(game, names=("Ann", "Bob"))
        checkpoint = first.replay_data()  # written before play, as a node does
        bus = PretendBus(first)
        first.on_applied = bus.applied
        await first.start()
        run = asyncio.create_task(first.run())
        (g0, r0), (g1, r1) = await asyncio.gather(
            bot_guest(first, 0, mode), bot_guest(first, 1, mode)
        )
        await r0.wait_for(lambda m: m["t"] == "events" and len(r0.of("events")) >= 20, LIMIT)
        assert not game.over
        bus.die()  # kill -9: what was not kept by now never will be
        await node_dies(first, run, [g0, g1])
        seen = max(seen_actions(r0.messages), seen_actions(r1.messages), key=len)
        assert len(seen) >= 20

        whole = extend_checkpoint(checkpoint, bus.kept)
        assert whole["actions"][: len(seen)] == seen  # nothing a guest saw is lost
        assert len(whole["times"]) == len(whole["actions"])
        earlier = read_checkpoint(whole)  # the fingerprint is that of the longer game
        assert len(earlier.game.actions) >= len(seen)

        second = resumed_host(whole)
        await second.start()
        try:
            (h0, _), (h1, _) = await asyncio.gather(
                bot_guest(second, 0, mode), bot_guest(second, 1, mode)
            )
            await asyncio.wait_for(second.run(), LIMIT)
            final = second.replay_data()
            assert final["actions"][: len(seen)] == seen
            path = tmp_path / "whole.json"
            path.write_text(json.dumps(final))
            ok, line = verify_file(path)
            assert ok, line
            await h0.close()
            await h1.close()
        finally:
            await second.close()

    await asyncio.wait_for(body(), 3 * LIMIT)


async def test_messages_wait_for_the_tail_and_go_when_it_is_kept() -> None:
    """While an entry is being kept, the guests are told nothing of its tick; once
    it is kept, they are; a write that never ends holds them only ``timeout``."""

    async def body() -> None:
        game = new_game("speed", (), 3)
        host = quick_host(game)
        loop = asyncio.get_running_loop()
        writes: list[asyncio.Future[None]] = []

        def applied() -> None:
            write: asyncio.Future[None] = loop.create_future()
            writes.append(write)
            host.hold_output(write, timeout=0.5)

        host.on_applied = applied
        await host.start()
        run = asyncio.create_task(host.run())
        (g0, r0), (g1, r1) = await asyncio.gather(
            bot_guest(host, 0, "speed"), bot_guest(host, 1, "speed")
        )
        try:
            await until(lambda: bool(writes), LIMIT)
            await asyncio.sleep(0.1)
            assert host.held_output is not None
            assert not r0.of("events") and not r1.of("events")  # held back
            writes[0].set_result(None)
            await r0.wait_for(lambda m: m["t"] == "events", LIMIT)
            # a write that never finishes: the messages go anyway after the time-out
            await until(lambda: len(writes) >= 2 and not writes[-1].done(), LIMIT)
            count = len(r0.of("events"))
            await r0.wait_for(lambda m: m["t"] == "events" and len(r0.of("events")) > count, 2)
        finally:
            await node_dies(host, run, [g0, g1])

    await asyncio.wait_for(body(), 2 * LIMIT)


def _played_checkpoint(actions: int) -> tuple[dict[str, Any], list[dict[str, Any]], Any]:
    """A checkpoint of a game's start, and tail entries of its next ``actions``
    moves one tick at a time (through the host's own arbiter, no network)."""
    game = new_game("spit", (), 11)
    host = quick_host(game)
    checkpoint = host.replay_data()
    entries = tail_of_local_play(host, 4, lambda: len(game.actions) >= actions)
    assert len(game.actions) >= actions
    return checkpoint, entries, game


def test_tail_entries_in_any_order_and_again_give_the_same_game() -> None:
    checkpoint, entries, game = _played_checkpoint(30)
    want = extend_checkpoint(checkpoint, entries)
    assert want["actions"] == [a.to_json() for a in game.actions]
    assert read_checkpoint(want).game.fingerprint() == game.fingerprint()
    shuffled = entries * 2
    random.Random(1).shuffle(shuffled)
    assert extend_checkpoint(checkpoint, shuffled) == want
    assert extend_checkpoint(checkpoint, []) == checkpoint


def test_a_tail_with_a_gap_stops_at_the_gap_and_a_foreign_entry_is_skipped() -> None:
    checkpoint, entries, game = _played_checkpoint(12)
    cut = extend_checkpoint(checkpoint, entries[:5] + entries[6:] + [{"seq": 99, "actions": 1}])
    first, items = entries[4]["actions"]
    assert entries[6]["actions"][0] > first + len(items) - 1  # entry 5 held something
    assert cut["actions"] == [a.to_json() for a in game.actions[: first + len(items)]]
    read_checkpoint(cut)  # still a sound checkpoint: where the fifth entry left it


def test_a_tail_that_does_not_replay_is_refused() -> None:
    checkpoint, entries, _ = _played_checkpoint(4)
    bad = json.loads(json.dumps(entries[0]))
    bad["actions"][1] = [["X", 0, 0, 0, 0]]
    with pytest.raises(CheckpointError):
        extend_checkpoint(checkpoint, [bad])


def test_a_fresh_mark_starts_at_nothing() -> None:
    assert TailMark() == TailMark(seq=0, actions=0, presses=0, fumbles=0)
    game = new_game("speed", (), 2)
    assert quick_host(game).tail_mark() == TailMark()
    assert parse_replay(json.dumps(quick_host(game).replay_data())).final.actions == []
