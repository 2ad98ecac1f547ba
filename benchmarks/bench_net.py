"""Network play over loopback: press-to-verdict latency and matches per host process.

1. Latency. A host and two guests in this process (real SSH over 127.0.0.1).
   The guests take turns pressing a legal card (or "ready"), one press at a
   time; for each press we time press -> the presser's verdict, and press ->
   the opponent's events message (its screen can show the card). Run with the
   hold window W = 0 and with the default W: what the network adds over a
   local game is the W = 0 figure (the window is a deliberate wait of W).
2. Capacity. This process hosts N matches at once (one SSH server each) while
   a child process plays both seats of every match with medium bots over
   loopback. For each N we measure the p99 lateness of the hosts' timers (how
   late the tick loop woke after a deadline) and the host process's CPU share.
   N grows until p99 lateness passes 20 ms (or the largest N tried).

Run: ``PYTHONPATH=src python benchmarks/bench_net.py [--presses 300] [--max 400]``.
The last line is ``concurrent_matches: N``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from spit.bots.sim import new_game  # noqa: E402
from spit.engine import Action, Kind, Phase, call  # noqa: E402
from spit.net.client import Guest  # noqa: E402
from spit.net.defaults import DEFAULT_WINDOW  # noqa: E402
from spit.net.host import Host, Limits  # noqa: E402
from spit.realtime.arbiter import Timing  # noqa: E402

FAST_TIMING = Timing(auto_spit=None, slap_time=0.5, stall_time=2.0, flip_delay=0.05)


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


# ---------------------------------------------------------------- latency


class Seat:
    def __init__(self) -> None:
        self.obs: dict[str, Any] | None = None
        self.verdicts: dict[int, float] = {}
        self.events: list[tuple[float, list[Any]]] = []
        self.over = False
        self.changed = asyncio.Event()

    def __call__(self, msg: dict[str, Any]) -> None:
        now = time.perf_counter()
        kind = msg["t"]
        if kind == "state":
            self.obs = msg["obs"]
        elif kind == "verdict":
            self.verdicts[msg["id"]] = now
        elif kind == "events":
            self.events.append((now, msg.get("action") or []))
        elif kind == "over":
            self.over = True
        self.changed.set()


def next_press(obs: dict[str, Any]) -> Action | None:
    from spit.net.protocol import parse_action

    legal = [parse_action(a) for a in obs["legal"]]
    plays = [a for a in legal if a.kind is Kind.PLAY]
    if plays:
        return plays[0]
    if obs["phase"] == Phase.OPENING.value and call(obs["player"]) in legal:
        return call(obs["player"])
    return None


async def one_game(
    seed: int, window: float, own: list[float], other: list[float], want: int
) -> None:
    game = new_game("speed", (), seed)
    host = Host(
        game,
        timing=FAST_TIMING,
        window=window,
        port=0,
        remote_seats=(0, 1),
        limits=Limits(rate=1000, burst=1000),
    )
    await host.start()
    run = asyncio.create_task(host.run())
    seats = [Seat(), Seat()]
    guests = [
        await Guest.connect("127.0.0.1", host.port, host.codes[p], on_message=seats[p])
        for p in (0, 1)
    ]
    await asyncio.sleep(0.5)  # the clock estimates settle
    try:
        turn = 0
        idle = 0
        while not game.over and len(own) < want and idle < 200:
            p = turn % 2
            turn += 1
            obs = seats[p].obs
            action = next_press(obs) if obs else None
            if action is None:
                idle += 1
                await asyncio.sleep(0.01)
                continue
            idle = 0
            seen = len(seats[1 - p].events)
            pressed = time.perf_counter()
            msg_id = guests[p].action(action)
            deadline = pressed + 2.0
            while msg_id not in seats[p].verdicts and time.perf_counter() < deadline:
                seats[p].changed.clear()
                await asyncio.wait_for(seats[p].changed.wait(), 2.0)
            if msg_id not in seats[p].verdicts:
                continue
            own.append(seats[p].verdicts[msg_id] - pressed)
            target = action.to_json()
            while time.perf_counter() < deadline:
                hits = [t for t, a in seats[1 - p].events[seen:] if a == target]
                if hits:
                    other.append(hits[0] - pressed)
                    break
                seats[1 - p].changed.clear()
                try:
                    await asyncio.wait_for(seats[1 - p].changed.wait(), 0.5)
                except TimeoutError:
                    break
            await asyncio.sleep(0.02)  # the next press after the screens settled
    finally:
        run.cancel()
        for g in guests:
            await g.close()
        await host.close()


async def latency(window: float, presses: int) -> tuple[list[float], list[float]]:
    own: list[float] = []
    other: list[float] = []
    seed = 1
    while len(own) < presses:
        await one_game(seed, window, own, other, presses)
        seed += 1
    return own, other


def report_latency(label: str, own: list[float], other: list[float]) -> float:
    ms = 1000.0
    print(
        f"{label}: press->own verdict median {statistics.median(own) * ms:.2f} ms, "
        f"p99 {pct(own, 0.99) * ms:.2f} ms ({len(own)} presses); "
        f"press->opponent's screen median {statistics.median(other) * ms:.2f} ms, "
        f"p99 {pct(other, 0.99) * ms:.2f} ms"
    )
    return statistics.median(own)


# ---------------------------------------------------------------- capacity


async def bots_main(spec_path: str) -> None:
    """Child process: play both seats of every match listed in the spec file."""
    import random

    from spit.bots import make_bot
    from spit.net.botseat import BotDriver

    spec = json.loads(Path(spec_path).read_text())
    loop = asyncio.get_running_loop()
    guests: list[Guest] = []

    async def seat(port: int, code: str, number: int, mode: str) -> None:
        box: list[BotDriver] = []
        g = await Guest.connect(
            "127.0.0.1", port, code, on_message=lambda m: box[0].handle(m) if box else None
        )
        bot = make_bot("medium", number, seed=random.randrange(2**32), mode=mode)
        box.append(BotDriver(bot, lambda a, at: g.action(a, at), time.monotonic, loop.call_later))
        guests.append(g)

    for match in spec:
        for number in (0, 1):
            await seat(match["port"], match["codes"][number], number, match["mode"])
    print("ready", flush=True)
    await asyncio.sleep(float(spec[0]["seconds"]) + 5 if spec else 0)


async def capacity_round(n: int, seconds: float, key_dir: Path) -> tuple[float, float, int, float]:
    """Host ``n`` matches for ``seconds``: (p99 timer lateness, host CPU share,
    finished games, p99 lateness of a bare sleep in the same loop)."""
    hosts = []
    for i in range(n):
        mode = "speed" if i % 2 else "spit"
        game = new_game(mode, (), 1000 + i)
        host = Host(game, port=0, remote_seats=(0, 1), key_path=key_dir / "host_key")
        await host.start()
        hosts.append(host)
    spec = [
        {"port": h.port, "codes": [h.codes[0], h.codes[1]], "mode": h.game.mode, "seconds": seconds}
        for h in hosts
    ]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(spec, f)
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    child = subprocess.Popen(
        [sys.executable, __file__, "--bots", f.name], stdout=subprocess.PIPE, env=env
    )
    runs = [asyncio.create_task(h.run()) for h in hosts]
    loop = asyncio.get_running_loop()
    assert child.stdout is not None
    line = await loop.run_in_executor(None, child.stdout.readline)
    if b"ready" not in line:
        raise RuntimeError("the bot process did not start")
    for h in hosts:
        h.stats.lateness.clear()
    cpu0, wall0 = time.process_time(), time.perf_counter()
    probe = asyncio.create_task(sleep_probe(seconds))
    await asyncio.sleep(seconds)
    floor = await probe
    cpu = time.process_time() - cpu0
    wall = time.perf_counter() - wall0
    late = [x for h in hosts for x in h.stats.lateness]
    finished = sum(1 for h in hosts if h.game.over)
    for r in runs:
        r.cancel()
    for h in hosts:
        await h.close()
    child.kill()
    child.wait()
    os.unlink(f.name)
    return (pct(late, 0.99) if late else 0.0), cpu / wall, finished, floor


async def sleep_probe(seconds: float) -> float:
    """The p99 lateness of a bare 10 ms sleep in this loop: the machine's noise floor."""
    late: list[float] = []
    end = time.perf_counter() + seconds - 0.1
    while time.perf_counter() < end:
        due = time.perf_counter() + 0.01
        await asyncio.sleep(0.01)
        late.append(time.perf_counter() - due)
    return pct(late, 0.99) if late else 0.0


async def capacity(max_n: int, seconds: float) -> int:
    best = 0
    with tempfile.TemporaryDirectory() as tmp:
        key_dir = Path(tmp)
        n = 1
        while n <= max_n:
            p99, share, finished, floor = await capacity_round(n, seconds, key_dir)
            per_core = n / share if share > 0 else float("inf")
            print(
                f"{n} matches: timer lateness p99 {p99 * 1000:.1f} ms (a bare 10 ms sleep "
                f"in the same loop: {floor * 1000:.1f} ms), host CPU {share * 100:.0f}% of a "
                f"core (~{per_core:.0f} matches per core), {finished} games finished; "
                f"machine load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores",
                flush=True,
            )
            if p99 > 0.020:
                break
            best = n
            n = 25 if n == 1 else n * 2
    return best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--presses", type=int, default=300)
    parser.add_argument("--max", type=int, default=400)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--bots", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.bots:
        asyncio.run(bots_main(args.bots))
        return
    os.environ.setdefault("SPIT_DATA_DIR", tempfile.mkdtemp(prefix="bench-net-"))
    import logging

    logging.getLogger("spit.net").setLevel(logging.ERROR)
    for window in (0.0, DEFAULT_WINDOW):
        cpu0, wall0 = time.process_time(), time.perf_counter()
        own, other = asyncio.run(latency(window, args.presses))
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        label = "W=0 ms" if not window else f"W measured (at most {window * 1000:.0f} ms)"
        report_latency(label, own, other)
        print(f"  this process (host and both guests) used {cpu / wall * 100:.0f}% of a core")
    best = asyncio.run(capacity(args.max, args.seconds))
    print(f"concurrent_matches: {best}")


if __name__ == "__main__":
    main()
