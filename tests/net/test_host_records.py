"""What the host keeps of a network game: the players' own names, files only they can read
(issue 19, defects 7 and 8)."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import stat
from pathlib import Path

import pytest
from tests.support.net import LIMIT, bot_guest, quick_host

from spit.bots.sim import new_game
from spit.cli import main
from spit.store.records import load_results


async def play_named_game(names: tuple[str, str]) -> None:
    game = new_game("speed", (), 7)
    host = quick_host(game, record=True)
    await host.start()
    try:
        (g0, _), (g1, _) = await asyncio.gather(
            bot_guest(host, 0, "speed", name=names[0]), bot_guest(host, 1, "speed", name=names[1])
        )
        await asyncio.wait_for(host.run(), LIMIT)
        assert game.over
    finally:
        await host.close("the game is over; the host has closed")
    for guest in (g0, g1):
        await guest.close()


async def test_the_host_keeps_the_names_given_at_join(
    isolated_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    await asyncio.wait_for(play_named_game(("Guesty", "easy computer")), LIMIT + 10)
    replays = list((isolated_dirs / "data" / "replays").glob("*.json"))
    assert len(replays) == 1
    players = json.loads(replays[0].read_text())["meta"]["players"]
    assert [p["name"] for p in players] == ["Guesty", "easy computer"]
    results, _skipped = load_results()
    assert [p.name for p in results[0].players] == ["Guesty", "easy computer"]
    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    assert "Guesty" in out and "easy computer" in out
    assert "Player 1" not in out and "Player 2" not in out


async def test_record_writes_never_hold_up_the_host_loop(
    isolated_dirs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another program holds the results database locked: the game ends, the host's
    loop goes on answering at once, and the result is saved once the lock is gone."""
    from spit.store import records
    from spit.store.paths import database_path

    monkeypatch.setattr(records, "LOCK_TIMEOUT", 4.0)
    path = database_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    gaps: list[float] = []

    async def heartbeat() -> None:
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(0.01)
            gaps.append(loop.time() - before)

    async def body() -> None:
        game = new_game("speed", (), 8)
        host = quick_host(game, record=True)
        await host.start()
        beat = asyncio.create_task(heartbeat())
        try:
            guests = await asyncio.gather(bot_guest(host, 0, "speed"), bot_guest(host, 1, "speed"))
            await asyncio.wait_for(host.run(), LIMIT)
            assert game.over
            await asyncio.sleep(0.5)  # the result waits for the lock, on the writer's thread
            assert max(gaps) < 1.0, f"the loop stalled {max(gaps):.1f} s"
            holder.rollback()
            await host.close("the game is over")  # waits for the writes, off the loop
            results, _ = load_results()
            assert len(results) == 1
            for guest, _ in guests:
                await guest.close()
        finally:
            beat.cancel()
            holder.close()
            await host.close()

    await asyncio.wait_for(body(), LIMIT + 10)


async def test_the_hosts_save_of_a_running_game_and_a_kept_replay_are_private(
    isolated_dirs: Path,
) -> None:
    from spit.net.runner import keep_replay
    from spit.store.replays import PlayerInfo, new_meta, replay_data
    from spit.store.resume import list_saved_games

    old = os.umask(0o022)
    try:
        game = new_game("spit", (), 3)
        host = quick_host(game, record=True)
        await host.start()
        (g0, r0), (g1, _) = await asyncio.gather(
            bot_guest(host, 0, "spit"), bot_guest(host, 1, "spit")
        )
        run = asyncio.create_task(host.run())
        # a game is kept once a card was played or moved (not for the opening calls)
        await r0.wait_for(
            lambda m: m["t"] == "events" and (m.get("action") or [""])[0] in ("play", "move")
        )
        await host.close("the host quit the game")
        run.cancel()
        (saved,) = list_saved_games()
        assert stat.S_IMODE(saved.path.stat().st_mode) == 0o600
        assert stat.S_IMODE(saved.path.parent.stat().st_mode) == 0o700
        assert stat.S_IMODE((isolated_dirs / "data").stat().st_mode) == 0o700
        for guest in (g0, g1):
            await guest.close()
        meta = new_meta([PlayerInfo("Ann"), PlayerInfo("Bob")])
        note = keep_replay(replay_data(game, [0.0] * len(game.actions), meta))
        kept = Path(note.removeprefix("replay saved: "))
        assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    finally:
        os.umask(old)


async def test_a_computer_guest_is_recorded_as_a_computer_and_never_rated_as_a_person(
    isolated_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A guest that plays with a computer (``spit join --bot expert``) is kept as that
    level, as a computer at this keyboard is: not a person's name and rating."""
    from spit.net.runner import join_as_bot
    from spit.store.standings import load_standings

    game = new_game("speed", (), 7)
    host = quick_host(game, record=True)
    await host.start()
    try:
        g0, _ = await bot_guest(host, 0, "speed", name="Guesty")
        computer = asyncio.create_task(
            join_as_bot("127.0.0.1", host.port, host.codes[1], "expert", say=lambda _: None)
        )
        await asyncio.wait_for(host.run(), LIMIT)
        assert game.over
    finally:
        await host.close("the game is over; the host has closed")
    await g0.close()
    await asyncio.wait_for(computer, LIMIT)
    # the host's replay (and the copy the computer's end kept: one folder here)
    replays = list((isolated_dirs / "data" / "replays").glob("*.json"))
    assert replays
    for replay in replays:
        players = json.loads(replay.read_text())["meta"]["players"]
        assert [p["bot"] for p in players] == [None, "expert"]
    results, _skipped = load_results()
    assert [p.bot for p in results[0].players] == [None, "expert"]
    assert results[0].players[1].label == "Computer (expert)"
    rated = {r.name for r in load_standings().ratings}
    assert "Guesty" in rated and "expert computer" not in rated
    assert main(["stats", "--no-charts"]) == 0
    out = capsys.readouterr().out
    assert "Computer (expert)" in out and "expert computer" not in out


async def test_spit_join_bot_tells_the_host_its_level_and_a_made_up_level_is_a_person() -> None:
    from spit.net.client import Guest
    from spit.net.runner import join_as_bot

    host = quick_host(new_game("spit", (), 3), remote_seats=(0, 1))
    await host.start()
    try:
        said: list[str] = []
        task = asyncio.create_task(
            join_as_bot("127.0.0.1", host.port, host.codes[1], "hard", say=said.append)
        )
        for _ in range(200):
            if 1 in host.guest_levels:
                break
            await asyncio.sleep(0.02)
        assert host.guest_levels == {1: "hard"}
        other = await Guest.connect("127.0.0.1", host.port, host.codes[0], bot="nonsense")
        for _ in range(200):
            if host.match.seat_taken(0):
                break
            await asyncio.sleep(0.02)
        assert host.guest_levels == {1: "hard"}  # no such level: a person
        await other.close()
    finally:
        await host.close("done")
    await asyncio.wait_for(task, LIMIT)
