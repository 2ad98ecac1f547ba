"""A hosted match carried on from a checkpoint on another host (``Host.resumed``):
the game in the position it stopped in, both seats waiting as after a drop, and
one replay of the whole game; checkpoint data that cannot be trusted refused."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tests.support import FakeClock
from tests.support.net import FAST, LIMIT, QUICK, Recorder, bot_guest, quick_host

from spit.bots.sim import new_game
from spit.engine import SYSTEM, Action, AnyGame, Kind, Phase, play
from spit.net import protocol as proto
from spit.net.host import Host, Limits
from spit.net.resume import CheckpointError, read_checkpoint
from spit.realtime.arbiter import FUMBLING, Arbiter, Timing
from spit.store.replays import PlayerInfo, new_meta, parse_replay, replay_data, verify_file
from spit.store.resume import list_saved_games


def resumed_host(data: Any, **kwargs: Any) -> Host:
    """A host carrying on ``data`` on 127.0.0.1, ephemeral port, fast timers."""
    kwargs.setdefault("timing", QUICK)
    kwargs.setdefault("limits", Limits(stall=0.5))
    return Host.resumed(data, port=0, **kwargs)


async def until(test: Callable[[], bool], timeout: float = 10.0) -> None:
    """Wait (polling) until ``test()`` holds."""

    async def poll() -> None:
        while not test():
            await asyncio.sleep(0.01)

    await asyncio.wait_for(poll(), timeout)


async def node_dies(host: Host, run: asyncio.Task[None], guests: list[Any]) -> None:
    """The host stops at once (``kill -9``): nothing more is judged, every
    connection is cut without a goodbye, the port is closed."""
    run.cancel()
    for guest in guests:
        guest.conn.abort()
    for guest in guests:
        await guest.close()
    await host.close("gone")


def check_whole(final: dict[str, Any], checkpoint: dict[str, Any]) -> None:
    """``final`` holds every action of ``checkpoint`` first, in order, then more;
    its times never decrease, the earlier ones unchanged."""
    n = len(checkpoint["actions"])
    assert final["actions"][:n] == checkpoint["actions"]
    assert len(final["actions"]) > n
    assert final["times"][:n] == checkpoint["times"]
    assert len(final["times"]) == len(final["actions"])
    assert all(a <= b for a, b in zip(final["times"], final["times"][1:], strict=False))
    assert final["meta"]["date"] == checkpoint["meta"]["date"]
    assert [p["name"] for p in final["meta"]["players"]] == [
        p["name"] for p in checkpoint["meta"]["players"]
    ]
    earlier = checkpoint["presses"]
    assert final["presses"][: len(earlier)] == earlier
    orders = [p["order"] for p in final["presses"] if p["order"] is not None]
    assert len(orders) == len(set(orders))
    for press in final["presses"][len(earlier) :]:  # judged after the earlier part
        assert press["press"] >= final["times"][n - 1]
        assert press["index"] is None or press["index"] >= n


@pytest.mark.parametrize("mode", ["speed", "spit"])
async def test_a_match_checkpointed_on_one_host_finishes_on_another(
    mode: str, tmp_path: Path
) -> None:
    async def body() -> None:
        game = new_game(mode, (), 7, round_limit=2 if mode == "spit" else None)
        first = quick_host(game, names=("Ann", "Bob"))
        kept: list[dict[str, Any]] = []  # checkpoints, as a server node keeps them
        first.on_applied = lambda: kept.append(first.replay_data())
        await first.start()
        run = asyncio.create_task(first.run())
        (g0, _), (g1, _) = await asyncio.gather(
            bot_guest(first, 0, mode), bot_guest(first, 1, mode)
        )
        await until(lambda: len(game.actions) >= 25 or game.over)
        assert not game.over
        checkpoint = kept[-1]  # the last checkpoint before the node died
        assert checkpoint["actions"] == [a.to_json() for a in game.actions]  # none lost
        at_checkpoint = game.copy()
        await node_dies(first, run, [g0, g1])

        second = resumed_host(checkpoint)
        assert second.match.names == ("Ann", "Bob")
        assert second.game.fingerprint() == at_checkpoint.fingerprint()
        await second.start()
        try:
            (h0, r0), (h1, r1) = await asyncio.gather(
                bot_guest(second, 0, mode), bot_guest(second, 1, mode)
            )
            welcome = await r0.wait_for(lambda m: m["t"] == "welcome")
            assert welcome["names"] == ["Ann", "Bob"]
            state = await r0.wait_for(lambda m: m["t"] == "state")
            obs = {k: v for k, v in state["obs"].items() if k != "timer"}
            assert obs == proto.observation_json(at_checkpoint, 0)
            await asyncio.wait_for(second.run(), LIMIT)
            assert second.game.over
            final = second.replay_data()
            check_whole(final, checkpoint)
            sent = await r1.wait_for(lambda m: m["t"] == "replay")
            assert sent["data"]["actions"] == final["actions"]
            path = tmp_path / "whole.json"
            path.write_text(json.dumps(final))
            ok, line = verify_file(path)
            assert ok, line
            replay = parse_replay(json.dumps(final))
            assert replay.final.over and replay.final.winner == second.game.winner
            await h0.close()
            await h1.close()
        finally:
            await second.close()

    await asyncio.wait_for(body(), 2 * LIMIT)


async def test_a_resumed_recording_host_keeps_the_whole_game(tmp_path: Path) -> None:
    """With ``record``, the archiver's replay (and the replay the guests get) is the
    whole game too."""

    async def body() -> None:
        game = new_game("speed", (), 21)
        first = quick_host(game)
        await first.start()
        run = asyncio.create_task(first.run())
        (g0, _), (g1, _) = await asyncio.gather(
            bot_guest(first, 0, "speed"), bot_guest(first, 1, "speed")
        )
        await until(lambda: len(game.actions) >= 15)
        checkpoint = first.replay_data()
        await node_dies(first, run, [g0, g1])
        # as a server node stores it: JSON text, with a key of its own
        second = resumed_host(json.dumps({**checkpoint, "server": {"match": "m1"}}), record=True)
        await second.start()
        try:
            (h0, r0), (h1, _) = await asyncio.gather(
                bot_guest(second, 0, "speed"), bot_guest(second, 1, "speed")
            )
            await asyncio.wait_for(second.run(), LIMIT)
            sent = await r0.wait_for(lambda m: m["t"] == "replay")
            check_whole(sent["data"], checkpoint)
            assert sent["data"] == second.replay_data()
            await h0.close()
            await h1.close()
        finally:
            await second.close()

    await asyncio.wait_for(body(), 2 * LIMIT)


async def test_a_match_resumed_twice_is_still_one_game() -> None:
    """Two nodes die one after the other: the third host's replay is the whole game."""

    async def body() -> None:
        game = new_game("speed", (), 31)
        host = quick_host(game)
        checkpoints: list[dict[str, Any]] = []
        for part in range(3):
            await host.start()
            run = asyncio.create_task(host.run())
            playing = host.game
            (g0, _), (g1, _) = await asyncio.gather(
                bot_guest(host, 0, "speed"), bot_guest(host, 1, "speed")
            )
            if part == 2:
                await asyncio.wait_for(run, LIMIT)
                break
            await until(lambda g=playing, n=part: len(g.actions) >= 12 * (n + 1))
            checkpoints.append(host.replay_data())
            await node_dies(host, run, [g0, g1])
            host = resumed_host(checkpoints[-1])
        try:
            assert host.game.over
            final = host.replay_data()
            check_whole(final, checkpoints[0])
            check_whole(final, checkpoints[1])
            parse_replay(json.dumps(final))
            await g0.close()
            await g1.close()
        finally:
            await host.close()

    await asyncio.wait_for(body(), 3 * LIMIT)


# ------------------------------------------------------------------ positions


def every_legal(game: AnyGame) -> list[Action]:
    """Both players' legal actions and the timers' (stall, flip, close)."""
    return game.legal_actions(None) + game.legal_actions(SYSTEM)


def reach(mode: str, variants: tuple[str, ...], wanted: Callable[[AnyGame], bool]) -> AnyGame:
    """A game played at random (calls and stalls included) until ``wanted`` holds."""
    for seed in range(200):
        game = new_game(mode, variants, seed)
        rng = random.Random(seed)
        for _ in range(3000):
            if game.over:
                break
            if wanted(game) and game.actions:
                return game
            legal = every_legal(game)
            plays = [a for a in legal if a.kind in (Kind.PLAY, Kind.MOVE)]
            game.apply(rng.choice(plays if plays and rng.random() < 0.9 else legal))
    raise AssertionError("no such position found")


def checkpoint_of(game: AnyGame) -> dict[str, Any]:
    players = [PlayerInfo("Ann", remote=True), PlayerInfo("Bob", remote=True)]
    times = [0.1 * (i + 1) for i in range(len(game.actions))]
    return replay_data(game, times, new_meta(players))


POSITIONS = {
    "spit-play": ("spit", (), lambda g: g.phase is Phase.PLAY and len(g.actions) > 10),
    "spit-stalemate": ("spit", (), lambda g: g.phase is Phase.STALEMATE),
    "spit-slap": ("spit", (), lambda g: g.phase is Phase.SLAP),
    "spit-choose": ("spit", ("V2",), lambda g: g.phase is Phase.CHOOSE),
    "spit-second-round": ("spit", (), lambda g: g.round_no == 2 and g.phase is Phase.OPENING),
    "speed-stalemate": ("speed", (), lambda g: g.phase is Phase.STALEMATE),
    "speed-one-ready": ("speed", (), lambda g: g.phase is Phase.OPENING),
}


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_the_resumed_game_stands_where_the_checkpoint_left_it(name: str) -> None:
    """Each seat's observation (the engine's and the one sent), the phase, the round
    and the running timer are those of the game at the checkpoint."""
    mode, variants, wanted = POSITIONS[name]
    game = reach(mode, variants, wanted)
    clock = FakeClock()
    host = Host.resumed(checkpoint_of(game), port=0, clock=clock, timing=QUICK)
    resumed = host.game
    assert resumed is not game
    assert (resumed.phase, resumed.round_no) == (game.phase, game.round_no)
    assert resumed.fingerprint() == game.fingerprint()
    assert resumed.actions == game.actions
    boxes = [Recorder(), Recorder()]
    for seat in (0, 1):
        assert resumed.observation(seat) == game.observation(seat)
        host.local_seat(seat, boxes[seat])
    for seat in (0, 1):
        sent = boxes[seat].of("state")[0]["obs"]
        assert {k: v for k, v in sent.items() if k != "timer"} == proto.observation_json(game, seat)
    fresh = Arbiter(game.copy(), QUICK, clock)
    mine, theirs = host.match.arbiter.timer(), fresh.timer()
    assert (mine and mine[1]) == (theirs and theirs[1])
    assert not host.match.arbiter.paused  # both seats came: it runs on


# ------------------------------------------------------------------ H8


def test_H8_a_fumble_just_before_the_checkpoint_is_served_and_the_rule_kept() -> None:
    """Checkpointed inside a fumble time: the resumed host keeps the fumble rule and
    the earlier fumble, the new part starts after that fumble time (the game stood
    still meanwhile), so the fumbler may play at once and the whole replay checks."""
    timing = Timing(auto_spit=0.05, slap_time=0.2, stall_time=30.0, fumble_time=1.0)
    game = new_game("spit", (), 5)
    clock = FakeClock()
    first = quick_host(game, timing=timing, clock=clock, window=0.0)
    boxes = [Recorder(), Recorder()]
    seats = [first.local_seat(s, boxes[s]) for s in (0, 1)]
    for _ in range(50):  # the opening calls (H2's wait, then the computer calls)
        if game.phase is Phase.PLAY:
            break
        clock.now += 0.1
        first.match.tick(clock.now)
    assert game.phase is Phase.PLAY
    legal = game.legal_actions(0)
    blind = next(play(0, s, p) for s in range(5) for p in (0, 1) if play(0, s, p) not in legal)
    clock.now += 0.5
    seats[0].press(blind, clock.now)
    clock.now += 0.01
    first.match.tick(clock.now)
    assert len(first.match.arbiter.fumbles) == 1
    checkpoint = first.replay_data()
    assert len(checkpoint["h8"]["fumbles"]) == 1

    later = FakeClock(500.0)
    plain = Timing(auto_spit=0.05, slap_time=0.2, stall_time=30.0)  # no fumble time asked
    second = Host.resumed(checkpoint, port=0, clock=later, timing=plain, window=0.0)
    assert second.match.arbiter.timing.fumble_time == 1.0
    assert second.match.arbiter.timing.race_margin == timing.race_margin
    again = [Recorder(), Recorder()]
    seats2 = [second.local_seat(s, again[s]) for s in (0, 1)]
    fits = next(a for a in second.game.legal_actions(0) if a.kind is Kind.PLAY)
    later.now += 0.01
    seats2[0].press(fits, later.now)
    later.now += 0.01
    second.match.tick(later.now)
    verdict = again[0].of("verdict")[-1]
    assert verdict["ok"], verdict
    assert verdict.get("reason") != FUMBLING
    final = second.replay_data()
    assert final["actions"][-1] == fits.to_json()
    assert final["h8"]["fumbles"] == checkpoint["h8"]["fumbles"]
    # the new part's times start after the fumble time: the fumble check passes
    fumble_end = checkpoint["h8"]["fumbles"][0][2] + 1.0
    assert final["times"][-1] >= fumble_end
    parse_replay(json.dumps(final))


def test_H8_a_game_played_without_fumbles_goes_on_without() -> None:
    game = reach("spit", (), lambda g: g.phase is Phase.PLAY and len(g.actions) > 5)
    host = Host.resumed(
        checkpoint_of(game), port=0, clock=FakeClock(), timing=Timing(fumble_time=0.5)
    )
    assert host.match.arbiter.timing.fumble_time == 0.0
    assert "h8" not in host.replay_data()


# ------------------------------------------------------------------ seats


async def test_a_seat_that_never_comes_back_gets_the_usual_choice() -> None:
    """The resumed match waits for both seats as after a drop: past the rejoin window
    the player who came chooses (a computer plays on for the other)."""

    async def body() -> None:
        game = reach("speed", (), lambda g: g.phase is Phase.PLAY and len(g.actions) > 8)
        second = resumed_host(checkpoint_of(game), rejoin_timeout=0.3, bot_reaction=FAST)
        await second.start()
        run = asyncio.create_task(second.run())
        try:
            g0, r0 = await bot_guest(second, 0, "speed")
            welcome = await r0.wait_for(lambda m: m["t"] == "welcome")
            assert welcome["seats"] == [True, False]
            choose = await r0.wait_for(lambda m: m["t"] == "choose")
            assert choose["seat"] == 1
            assert second.game.actions == game.actions  # nothing ran while it waited
            g0.decide("bot")
            await asyncio.wait_for(run, LIMIT)
            assert second.game.over
            assert second.match.names[1] == "Bob (computer)"
            final = second.replay_data()
            assert final["actions"][: len(game.actions)] == [a.to_json() for a in game.actions]
            parse_replay(json.dumps(final))
            await g0.close()
        finally:
            await second.close()

    await asyncio.wait_for(body(), 2 * LIMIT)


async def test_when_neither_seat_comes_back_the_match_is_saved(isolated_dirs: Path) -> None:
    async def body() -> None:
        game = reach("spit", (), lambda g: g.phase is Phase.PLAY and len(g.actions) > 8)
        second = resumed_host(checkpoint_of(game), rejoin_timeout=0.2)
        await second.start()
        try:
            await asyncio.wait_for(second.run(), LIMIT)
            assert second.match.closed_reason is not None
            assert "saved" in second.match.closed_reason
        finally:
            await second.close()
        saved = list_saved_games()
        assert len(saved) == 1 and saved[0].replay is not None
        assert saved[0].replay.final.fingerprint() == game.fingerprint()
        assert [p.name for p in saved[0].replay.meta.players] == ["Ann", "Bob"]

    await asyncio.wait_for(body(), LIMIT)


# ------------------------------------------------------------------ refused


def _edited(change: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    game = reach("spit", (), lambda g: g.phase is Phase.PLAY and len(g.actions) > 5)
    data = checkpoint_of(game)
    change(data)
    return data


def _over() -> dict[str, Any]:
    game = new_game("speed", (), 3)
    rng = random.Random(3)
    while not game.over:
        game.apply(rng.choice(every_legal(game)))
    return checkpoint_of(game)


def _nested() -> str:
    return "[" * 100_000 + "]" * 100_000


BAD: dict[str, Callable[[], Any]] = {
    "not json": lambda: '{"format": "spit-save", "actions": [',
    "empty": lambda: "",
    "not text": lambda: b"\xff\xfe\x00\x01garbage",
    "a list": lambda: [1, 2, 3],
    "a number": lambda: 42,
    "nested too deep": _nested,
    "not plain data": lambda: {"format": object()},
    "not a number": lambda: _edited(lambda d: d["times"].__setitem__(0, float("nan"))),
    "an edited action": lambda: _edited(lambda d: d["actions"].__setitem__(-1, ["stall"])),
    "an edited fingerprint": lambda: _edited(lambda d: d.__setitem__("fingerprint", "0" * 32)),
    "times running back": lambda: _edited(lambda d: d["times"].__setitem__(-1, 0.0)),
    "a hostile mode": lambda: _edited(lambda d: d.__setitem__("mode", "__import__('os')")),
    "a bad seed": lambda: _edited(lambda d: d.__setitem__("seed", -1)),
    "a damaged audit": lambda: _edited(lambda d: d.__setitem__("presses", [{"seat": 7}])),
    "a finished game": _over,
}


@pytest.mark.parametrize("what", sorted(BAD))
def test_checkpoint_data_that_cannot_be_trusted_is_refused(what: str) -> None:
    data = BAD[what]()
    with pytest.raises(CheckpointError) as caught:
        Host.resumed(data, port=0)
    message = str(caught.value)
    assert message.startswith("checkpoint refused: ")
    assert "\n" not in message and len(message) < 300
    with pytest.raises(CheckpointError):
        read_checkpoint(data)
