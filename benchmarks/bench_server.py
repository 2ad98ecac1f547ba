"""A spit server under load: bot players sign in, queue, are paired, play to the end.

The server runs in a child process of its own (one asyncio process: one core)
on 127.0.0.1. This process runs N bot players through the ``spit online``
door (real SSH, their own keys): each signs in, claims a name, queues for
quick-pair and plays its match to the end with a computer of ``--level``.
Meanwhile the server's status file is sampled for the matches held at once.

The figures are the server's own, read from its status file once every player
is done: the timer lateness is over every deadline of every match of the run
(how long after it came due the tick that handled it ran, by its timer or by
an input's tick: how late a player's verdict or a timer's end was), the
sign-in ramp, the waves and the ends of matches included; the time to pair is
from the server receiving a player's queue request to their match being dealt
and their lobby told, by the wave that paired them (one wave is ``--wave``
seconds, 3 as ``spit server``'s default: a player who queued just after a wave
waits for the next, so the goal p95 <= 1 wave needs waves on time and each
wave dealt quickly). (What each player saw, from sending ``queue`` to reading ``matched``,
is printed too: it adds this process's own delays.) Then a few plain-ssh
sessions are opened (guests with a pty) and the resident memory of each
door's game process is read.

The players run at niceness ``--client-nice`` (10; set once the server has
started, which keeps 0): they are the load, not the system under test, and
on a real server they run on other machines; here they would otherwise take
turns with the server for the two cores, and its timers would wait for them.

``--profile FILE`` samples the server with cProfile and writes its stats to
FILE (it slows the server: its figures are not the benchmark's).

Run: ``python benchmarks/bench_server.py [--clients 40] [--timeout 240] [--doors 3]``.
Bounded: at most ``--clients`` players (400 at most) and ``--timeout`` seconds.
The last line is ``server: pair_p50_s=… pair_p95_s=… matches_held=… lateness_p99_ms=…
cpu_s_per_match=… door_mb=…``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import asyncssh  # noqa: E402

from spit.net.client import JoinError  # noqa: E402
from spit.net.online import OnlineClient, open_match_as_bot  # noqa: E402
from spit.server.loadstats import quantile_of  # noqa: E402
from sshterm import Terminal, sign_in  # noqa: E402  (this folder, on the path as the script's)

#: the first few reasons a player could not play (printed with the figures)
FAILURES: list[str] = []


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(
    port: int, data_dir: str, wave: float, profile: str = "", ping_every: float = 0.0
) -> None:
    """The child: a server node until SIGTERM (under cProfile with ``profile``)."""
    from spit.server.node import ServerNode, ServerSettings
    from spit.server.tuning import freeze_startup

    async def main() -> None:
        # every bench player comes from 127.0.0.1: lift the per-address limits
        settings = ServerSettings(
            data_dir=Path(data_dir),
            port=port,
            wave_seconds=wave,
            max_sessions_per_address=10_000,
            max_preauth_per_address=10_000,
            max_connections=10_000,
        )
        if ping_every > 0:
            settings.ping_every = ping_every
        node = ServerNode(settings)
        await node.start()
        freeze_startup()  # as `spit server` does
        stop = asyncio.Event()
        node.install_signal_handlers(stop)
        await stop.wait()
        await node.shutdown()

    if not profile:
        asyncio.run(main())
        return
    import cProfile

    profiler = cProfile.Profile()
    profiler.enable()
    try:
        asyncio.run(main())
    finally:
        profiler.disable()
        profiler.dump_stats(profile)


def _status(data_dir: Path) -> dict[str, Any]:
    try:
        data = json.loads((data_dir / "status.json").read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


async def final_status(data_dir: Path, after: float, timeout: float = 10.0) -> dict[str, Any]:
    """The first status the server wrote after ``after`` (wall clock) with no match running."""
    deadline = time.monotonic() + timeout
    status: dict[str, Any] = {}
    while time.monotonic() < deadline:
        status = _status(data_dir)
        if float(status.get("updated", 0.0)) > after and not status.get("matches"):
            break
        await asyncio.sleep(0.5)
    return status


def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


async def player(
    index: int, port: int, level: str, mode: str, results: dict[str, list[float]]
) -> None:
    """One bot player: sign in, queue, play to the end."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    try:
        client = await OnlineClient.connect(
            "127.0.0.1",
            port,
            key=key,
            known=None,
            name=f"bench{index}",
            on_message=inbox.put_nowait,
        )
    except JoinError as exc:  # e.g. the sign-in took longer than the server allows
        results["failed"].append(1.0)
        if len(FAILURES) < 3:
            FAILURES.append(f"sign-in: {exc}")
        return
    try:
        queued_at = 0.0
        guest = None
        while True:
            msg = await inbox.get()
            if msg["t"] == "welcome":
                queued_at = time.monotonic()
                client.send("queue", mode=mode)
            elif msg["t"] == "matched" and guest is None:
                results["pair"].append(time.monotonic() - queued_at)
                over = asyncio.Event()

                def seen(m: dict[str, Any], over: asyncio.Event = over) -> None:
                    if m["t"] in ("over", "bye"):
                        over.set()

                guest = await open_match_as_bot(client, msg, level, on_message=seen)
                await over.wait()
                results["done"].append(1.0)
                return
            elif msg["t"] in ("bye", "needname"):
                results["failed"].append(1.0)
                if len(FAILURES) < 3:
                    FAILURES.append(str(msg.get("reason") or msg.get("problem")))
                return
    finally:
        await client.close()


async def door_memory(port: int, count: int, data_dir: Path) -> list[float]:
    """Open ``count`` plain-ssh sessions; the resident MB of each door's game process."""
    conns = []
    terminals = []  # each reads its session's output as it comes: the doors never wait on us
    for _ in range(count):
        conn = await sign_in(port)
        conns.append(conn)
        terminals.append(await Terminal.open(conn))
    sizes: list[float] = []
    listed = 0  # the doors the server's last status listed
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        await asyncio.sleep(2.5)
        try:
            status = json.loads((data_dir / "status.json").read_text())
        except (OSError, ValueError):
            continue
        listed = len(status.get("door_mb", []))
        if listed >= count:
            sizes = list(status["door_mb"])
            break
    if len(sizes) < count:  # say what the sessions showed instead of a bare "nan"
        FAILURES.append(f"the server's status listed {listed} of {count} plain-ssh sessions")
        for terminal in terminals:
            shown = terminal.text().strip().splitlines()
            last = shown[-1][:120] if shown else "nothing"
            FAILURES.append(f"a plain-ssh session showed {last!r}")
    for terminal in terminals:
        await terminal.stop()
    for conn in conns:
        conn.close()
    return sizes


async def run(args: argparse.Namespace) -> None:
    port = _free_port()
    data_dir = Path(tempfile.mkdtemp(prefix="spit-bench-server-"))
    child = subprocess.Popen(
        [
            sys.executable,
            __file__,
            "--serve",
            str(port),
            str(data_dir),
            str(args.wave),
            args.profile,
            str(args.ping_every),
        ],
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            if (data_dir / "status.json").exists():
                break
            await asyncio.sleep(0.1)
        cpu_before = _cpu_seconds(child.pid)
        if args.client_nice:
            # the players are the load, not the system under test: on a real server
            # they run elsewhere, so here they yield the cores to it when both want one
            os.nice(args.client_nice)
        results: dict[str, list[float]] = {"pair": [], "done": [], "failed": []}
        held = 0

        async def sample() -> None:
            nonlocal held
            while True:
                await asyncio.sleep(1.0)
                held = max(held, int(_status(data_dir).get("matches", 0)))

        sampler = asyncio.create_task(sample())
        started = time.monotonic()
        tasks = []
        for i in range(args.clients):
            tasks.append(asyncio.create_task(player(i, port, args.level, args.mode, results)))
            await asyncio.sleep(args.ramp / max(1, args.clients))
        _done, pending = await asyncio.wait(tasks, timeout=args.timeout)
        for task in pending:
            task.cancel()
        sampler.cancel()
        elapsed = time.monotonic() - started
        cpu = _cpu_seconds(child.pid) - cpu_before
        matches = len(results["done"]) / 2
        final = await final_status(data_dir, time.time())
        late_hist = final.get("lateness_hist", {})
        lateness = quantile_of(late_hist, 0.99) * 1000
        late_999 = quantile_of(late_hist, 0.999) * 1000
        pair_hist = final.get("pair_hist", {})
        p50 = quantile_of(pair_hist, 0.5) if pair_hist else float("nan")
        p95 = quantile_of(pair_hist, 0.95) if pair_hist else float("nan")
        doors = await door_memory(port, args.doors, data_dir) if args.doors else []
        pairs = sorted(results["pair"])
        seen50 = statistics.median(pairs) if pairs else float("nan")
        seen95 = pairs[max(0, -(-len(pairs) * 95 // 100) - 1)] if pairs else float("nan")
        load = os.getloadavg()[0]
        print(
            f"clients {args.clients}, finished {len(results['done'])}, failed "
            f"{len(results['failed'])}, unfinished {len(pending)}, in {elapsed:.0f} s"
        )
        print(
            f"time to pair (the server's, queue request to paired): p50 {p50:.2f} s, "
            f"p95 {p95:.2f} s (wave {args.wave} s); as the players saw it: p50 {seen50:.2f} s, "
            f"p95 {seen95:.2f} s"
        )
        print(
            f"matches held at once: {held}; timer lateness over all "
            f"{final.get('lateness_wakes', 0)} deadlines of the run: p99 {lateness:.1f} ms, "
            f"p99.9 {late_999:.1f} ms"
        )
        print(f"machine load (1 min) at the end: {load:.2f}")
        per_match = cpu / matches if matches else float("nan")
        print(f"server CPU {cpu:.1f} s for {matches:.0f} matches: {per_match:.2f} s each")
        if FAILURES:
            print("failures, e.g.: " + "; ".join(FAILURES))
        door_mb = statistics.mean(doors) if doors else float("nan")
        print(f"plain-ssh sessions: {len(doors)} measured, {door_mb:.1f} MB each")
        print(
            f"server: pair_p50_s={p50:.2f} pair_p95_s={p95:.2f} matches_held={held} "
            f"lateness_p99_ms={lateness:.1f} cpu_s_per_match={per_match:.2f} "
            f"door_mb={door_mb:.1f}"
        )
    finally:
        child.terminate()
        try:
            child.wait(timeout=20)
        except subprocess.TimeoutExpired:
            child.kill()


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--serve":
        serve(int(sys.argv[2]), sys.argv[3], float(sys.argv[4]), sys.argv[5], float(sys.argv[6]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=40, help="bot players (at most 400)")
    parser.add_argument("--timeout", type=float, default=240.0, help="seconds at most")
    parser.add_argument("--level", default="medium", help="the bots' level")
    parser.add_argument("--mode", default="speed", help="the game")
    parser.add_argument("--wave", type=float, default=3.0, help="seconds between waves")
    parser.add_argument("--ramp", type=float, default=10.0, help="seconds to bring all in")
    parser.add_argument("--doors", type=int, default=3, help="plain-ssh sessions to measure")
    parser.add_argument("--profile", default="", help="write the server's cProfile stats here")
    parser.add_argument(
        "--client-nice",
        type=int,
        default=10,
        help="the players' niceness (this process, after starting the server; 0: as the server)",
    )
    parser.add_argument(
        "--ping-every", type=float, default=0.0, help="the matches' ping interval (0: the default)"
    )
    args = parser.parse_args()
    args.clients = max(2, min(args.clients, 400))
    args.timeout = max(10.0, min(args.timeout, 1800.0))
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
