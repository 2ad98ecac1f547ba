"""Fair races over emulated internet paths: how small a press lead wins, and what a liar gains.

A host (real SSH over 127.0.0.1, default settings: W follows the measured
delays up to 200 ms) and two scripted guests in this process. The *near*
guest (seat 1) connects directly; the *far* guest (seat 2) connects through a
delaying TCP proxy of this file's own on 127.0.0.1: every chunk is held for a
one-way delay ``d`` plus a uniform jitter of ±``--jitter`` ms, each way, in
order (TCP never reorders), and 1% of chunks wait a retransmission time-out
(200 ms) more, which is how a lost segment shows on TCP. Segments read within
1 ms of the one before are one burst and travel with it (SSH sends each
message as two segments: see ``BURST``). The guests' clocks
are offset from the host's (+1000 s and -500 s), so the host must estimate
them.

A *race* is one press by each guest for the same pile, the leader pressing
``lead`` ms before the other (either guest leads, in turn). The presses are
plays the engine refuses (the game waits in its opening, before the first
spit, with the timers set long), so the position never changes and many
races fit in one game; the host judges the two presses in the order it would
let them land (R11), and that order is read from its race audit
(``Match.presses``). A race is won if the press that was really made first
is judged first. A press is stamped when it is sent, as a bot stamps its
press (``--stamp scheduled``: when it was scheduled, as a terminal stamps a
key event, so the event loop's lateness counts as delay); a race whose lead
came out more than 1 ms off what was staged is not counted, nor one whose
far press waited behind a lost chunk (the proxy says which: no wait the host
can afford puts a press held up 200 ms in order; they are printed as "held up
by a lost packet").

For each ``d`` the benchmark scans leads upward and prints the smallest lead
at which the earlier press wins at least 95% of the races in both
directions. Then the far guest lies: it claims each press ``lie`` ms earlier
than it was made (5, 10, 20 and 1000 ms) while the near guest keeps pressing
too, and the gain is how much earlier than it was really made the host
judged it (median, 95th percentile and largest over its 40 presses; the
first ones, before the host has caught it, are included). Then a *picky*
liar claims a second early on one press in five only (the races that matter)
and presses honestly otherwise: its gain is taken over its lying presses.
Then a *careful* liar does the same with a lie of 10 ms, small enough that
its claims look like slow honest presses: no statistic over the presses sees
it, so what it gains is the per-press bound (the reach over the delay each
lying press took); the reach over the median delay, the median gain of a lie
on a press the host cannot tell from an honest one, is printed for each d.
It also times the far guest's press -> its own screen's pending card (the
``RemoteSession`` view the board draws; Textual's paint is measured by
``bench_keypath``).

Run: ``PYTHONPATH=src python benchmarks/bench_fairness.py [--races 40] [--d 0,20,80,150]
[--jitter 10] [--loss 0.01] [--lies 5,10,20,1000] [--liar-presses 40]``. The last lines
are ``press_to_screen_p99_ms: N`` (the largest p99 at any d), ``reach_over_median_ms: N``
(the largest at any d), ``careful_liar_gain_ms: N`` (its largest median gain at any d),
``steady_liar_gain_ms: N`` (the largest median gain of any steady lie at any d),
``picky_liar_gain_ms: N`` (the largest median gain of the picky liar at any d),
``picky_liar_gain_p95_ms: N``, ``liar_gain_p95_ms: N`` (the largest 95th percentile of
any lie's gain, steady or picky, at any d), then ``fair_lead_ms: N`` (the largest of the
per-d leads) and ``liar_gain_ms: N`` (the worse of the steady and the picky liar's
largest *median* gains: the figure the goal of at most 5 ms is read from).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from spit.bots.sim import new_game  # noqa: E402
from spit.engine import play  # noqa: E402
from spit.net.client import Guest  # noqa: E402
from spit.net.host import Host  # noqa: E402
from spit.net.view import RemoteSession  # noqa: E402
from spit.realtime.arbiter import Timing  # noqa: E402

#: nothing runs by itself: the game waits in its opening for an hour
STILL = Timing(auto_spit=None, slap_time=3600, stall_time=3600, flip_delay=3600)
#: the retransmission time-out a lost segment waits on Linux (its minimum)
RTO = 0.2
#: leads tried, in ms, smallest first
LEADS = (1, 2, 3, 4, 5, 7, 10, 15, 20, 30, 50, 80, 120, 200)
#: the guests' clocks read this much more than the host's
NEAR_OFFSET, FAR_OFFSET = -500.0, 1000.0
#: seconds between two races (more than any lead tried plus the jitter)
GAP = 0.05
#: the picky liar lies on one press in this many (the races that matter), honest otherwise
PICKY = 5
#: the careful liar's lie (seconds): about what a slow honest press claims more
CAREFUL = 0.010


# ---------------------------------------------------------------- the proxy

#: Segments read within this many seconds of the one before are one burst: they are
#: delivered with it (a real path's jitter is queueing, which back-to-back packets
#: share). SSH sends every message as two segments (an empty ignore packet, then the
#: data); drawing each its own delay would delay the second by the larger of two draws
#: whenever the proxy happens to read them apart, and it does so more often for some
#: messages (a pong) than for others (a press).
BURST = 0.001


class Proxy:
    """A TCP proxy on 127.0.0.1 that delays each direction by ``d`` ± ``jitter``."""

    def __init__(self, target: int, delay: float, jitter: float, loss: float, seed: int) -> None:
        self.target = target
        self.delay, self.jitter, self.loss = delay, jitter, loss
        self.rng = random.Random(seed)
        self.server: asyncio.Server | None = None
        self.port = 0
        self.tasks: set[asyncio.Task[None]] = set()
        self.chunks = 0
        self.lost = 0
        #: called with (when, until) for each chunk towards the target held as lost:
        #: whatever was read from ``when`` on waits behind it until ``until``
        self.on_hold: Callable[[float, float], None] | None = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self.port

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        for src, dst, up in ((reader, up_writer, True), (up_reader, writer, False)):
            task = asyncio.create_task(self._pump(src, dst, up))
            self.tasks.add(task)

    def _due(self, last: float, up: bool) -> float:
        now = time.monotonic()
        wait = max(0.0, self.delay + self.rng.uniform(-self.jitter, self.jitter))
        self.chunks += 1
        lost = self.rng.random() < self.loss
        if lost:
            wait += RTO
            self.lost += 1
        due = max(last, now + wait)  # in order, as TCP delivers
        if lost and up and self.on_hold is not None:
            self.on_hold(now, due)
        return due

    async def _pump(self, src: asyncio.StreamReader, dst: asyncio.StreamWriter, up: bool) -> None:
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()
        sender = asyncio.create_task(self._send(queue, dst))
        last = 0.0
        came = -1.0
        try:
            while True:
                data = await src.read(65536)
                if not data:
                    break
                now = time.monotonic()
                if now - came >= BURST:  # a burst's later segments travel with its first
                    last = self._due(last, up)
                came = now
                queue.put_nowait((last, data))
        except (ConnectionError, OSError):
            pass
        finally:
            queue.put_nowait((last, b""))
            await sender

    async def _send(
        self, queue: asyncio.Queue[tuple[float, bytes]], dst: asyncio.StreamWriter
    ) -> None:
        try:
            while True:
                due, data = await queue.get()
                wait = due - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                if not data:
                    break
                dst.write(data)
                await dst.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            dst.close()

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        for task in self.tasks:
            task.cancel()


class ProxyProcess:
    """A ``Proxy`` in a process of its own (``--serve-proxy``), so the host's and the
    guests' work in this process cannot hold its chunks back: the link stays the
    ``d`` ± ``jitter`` it is set to, however busy the host gets."""

    def __init__(self, target: int, delay: float, jitter: float, loss: float, seed: int) -> None:
        self.spec = f"{target},{delay},{jitter},{loss},{seed}"
        self.process: asyncio.subprocess.Process | None = None
        self.port = 0
        self.chunks = 0
        self.lost = 0
        #: (when, until) of each chunk towards the host held as lost (as they happen)
        self.holds: list[tuple[float, float]] = []
        self._reader: asyncio.Task[None] | None = None

    def held(self, sent: float) -> bool:
        """True if a message sent at ``sent`` (monotonic) waited behind a lost chunk."""
        return any(when - 0.001 <= sent < until for when, until in self.holds)

    async def _read_holds(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        while line := await self.process.stdout.readline():
            words = line.split()
            if words[:1] == [b"hold"]:
                self.holds.append((float(words[1]), float(words[2])))
            elif len(words) == 2:  # the last line: chunks delayed, chunks lost
                self.chunks, self.lost = (int(x) for x in words)

    async def start(self) -> int:
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            "--serve-proxy",
            self.spec,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        assert self.process.stdout is not None
        line = await asyncio.wait_for(self.process.stdout.readline(), 30)
        self.port = int(line)
        self._reader = asyncio.create_task(self._read_holds())
        return self.port

    async def close(self) -> None:
        if self.process is None:
            return
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.close()  # the proxy's cue to stop and count
        try:
            if self._reader is not None:
                await asyncio.wait_for(self._reader, 10)
        except (TimeoutError, ValueError):
            self.process.kill()
        await self.process.wait()


async def serve_proxy(spec: str) -> None:
    """Run one proxy (``target,delay,jitter,loss,seed``) until standard input closes,
    then print how many chunks it delayed and how many as lost."""
    target, delay, jitter, loss, seed = spec.split(",")
    proxy = Proxy(int(target), float(delay), float(jitter), float(loss), int(seed))
    proxy.on_hold = lambda when, until: print(f"hold {when:.6f} {until:.6f}", flush=True)
    print(await proxy.start(), flush=True)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.buffer.read)
    await proxy.close()
    print(proxy.chunks, proxy.lost, flush=True)


# ---------------------------------------------------------------- a path


@dataclass
class Route:
    """One host, its two guests and the far guest's proxy, for one delay ``d``."""

    host: Host
    proxy: ProxyProcess
    near: Guest
    far: Guest
    view: RemoteSession
    run: asyncio.Task[None]
    scheduled: bool = False
    sent: dict[int, list[float]] = field(default_factory=lambda: {0: [], 1: []})
    screen: list[float] = field(default_factory=list)

    def clock(self, seat: int) -> float:
        return time.monotonic() + (NEAR_OFFSET if seat == 0 else FAR_OFFSET)

    def press(self, seat: int, made: float | None, lie: float = 0.0) -> None:
        """Seat ``seat`` presses and sends, stamped ``lie`` seconds earlier than it was
        made. ``made`` None: made now (as a bot stamps its press); else when it was
        scheduled (host clock: as a terminal stamps a key event that then waits for
        its handler, the event loop's lateness counts as delay)."""
        if made is None:
            made = time.monotonic()
        at = made + (NEAR_OFFSET if seat == 0 else FAR_OFFSET) - lie
        if seat == 0:
            self.near.action(play(0, 0, 0), at=at)
        else:
            t0 = time.perf_counter()
            self.view.link.submit(play(1, 0, 0), at=at)  # the far guest's own screen shows it
            shown = self.view.pending_words() != ""
            if shown:
                self.screen.append(time.perf_counter() - t0)
        self.sent[seat].append(made)

    def judged(self, seat: int, k: int) -> Any:
        """The host's record of seat ``seat``'s ``k``-th press (None if not yet judged)."""
        mine = [p for p in self.host.match.presses if p.seat == seat]
        if k >= len(mine) or mine[k].order is None:
            return None
        return mine[k]

    async def close(self) -> None:
        self.run.cancel()
        for g in (self.near, self.far):
            await g.close()
        await self.host.close()
        await self.proxy.close()


async def open_path(d: float, jitter: float, loss: float, seed: int) -> Route:
    game = new_game("spit", (), seed)
    host = Host(game, timing=STILL, port=0, remote_seats=(0, 1))
    await host.start()
    proxy = ProxyProcess(host.port, d, jitter, loss, seed)
    await proxy.start()
    near = await Guest.connect(
        "127.0.0.1", host.port, host.codes[0], clock=lambda: time.monotonic() + NEAR_OFFSET
    )
    view = RemoteSession(None, clock=lambda: time.monotonic() + FAR_OFFSET)
    far = await Guest.connect(
        "127.0.0.1",
        proxy.port,
        host.codes[1],
        clock=lambda: time.monotonic() + FAR_OFFSET,
        on_message=view.receive,
        timeout=30,
    )
    view.connect(far.action)
    run = asyncio.create_task(host.run())
    await asyncio.sleep(5.0)  # both joined, the clock estimates settle
    return Route(host, proxy, near, far, view, run)


# ---------------------------------------------------------------- races


async def race_batch(path: Route, lead: float, n: int) -> tuple[list[int], list[int], list[int]]:
    """``n`` races with the far guest leading by ``lead`` s and ``n`` with the near
    guest leading: (races counted, races won by the leader, races held up by a lost
    packet), each [near leads, far leads]."""
    loop = asyncio.get_running_loop()
    plan: list[tuple[int, int, int]] = []  # (leader, k of seat 0, k of seat 1)
    start = loop.time() + 0.05
    for i in range(2 * n):
        leader = i % 2  # 1: the far guest leads
        t = start + i * (GAP + lead)
        k0, k1 = len(path.sent[0]) + i, len(path.sent[1]) + i
        plan.append((leader, k0, k1))
        first, second = (1, 0) if leader else (0, 1)
        loop.call_at(t, path.press, first, t if path.scheduled else None)
        loop.call_at(t + lead, path.press, second, t + lead if path.scheduled else None)
    await asyncio.sleep(2 * n * (GAP + lead) + 0.05 + 0.5)
    counted, won, lost = [0, 0], [0, 0], [0, 0]
    start_time = path.host.match.arbiter.start_time
    deadline = time.monotonic() + 5.0
    for leader, k0, k1 in plan:
        while True:
            a, b = path.judged(0, k0), path.judged(1, k1)
            if (a is not None and b is not None) or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.05)
        if a is None or b is None:
            continue
        true0, true1 = path.sent[0][k0], path.sent[1][k1]
        actual = (true0 - true1) if leader else (true1 - true0)
        if abs(actual - lead) > 0.001:
            continue  # the event loop ran a press late: not the race that was staged
        first = 1 if b.order < a.order else 0
        # A press held up behind a lost packet (a retransmission time-out) cannot be
        # put in order by any wait the host can afford: counted apart. The proxy says
        # which presses waited behind one (sent while a lost chunk was held).
        allowance = max(a.window, b.window)
        if path.proxy.held(true1) or any(
            p.arrival - (sent - start_time) > allowance + RTO / 2
            for p, sent in ((a, true0), (b, true1))
        ):
            lost[leader] += 1
            continue
        counted[leader] += 1
        won[leader] += first == leader
    return counted, won, lost


async def fair_lead(path: Route, n: int, say: Callable[[str], None]) -> float | None:
    """The smallest lead (s) at which the earlier press wins >= 95% both ways."""
    for lead_ms in LEADS:
        lead = lead_ms / 1000
        counted, won, lost = [0, 0], [0, 0], [0, 0]
        for _ in range(3):  # more races while the event loop spoilt too many
            c, w, lo = await race_batch(path, lead, n)
            for i in (0, 1):
                counted[i] += c[i]
                won[i] += w[i]
                lost[i] += lo[i]
            if min(counted) >= n // 2:
                break
        near_rate, far_rate = (w / max(1, c) for w, c in zip(won, counted, strict=True))
        say(
            f"    lead {lead_ms:3d} ms: far leader won {won[1]}/{counted[1]} ({far_rate:.0%}), "
            f"near leader won {won[0]}/{counted[0]} ({near_rate:.0%}); held up by a lost "
            f"packet: {lost[1]} + {lost[0]}; W now {path.host.match.window * 1000:.0f} ms"
        )
        if min(counted) >= n // 2 and far_rate >= 0.95 and near_rate >= 0.95:
            return lead
    return None


async def liar_gain(
    path: Route, lie: float, presses: int, every: int = 1
) -> tuple[float, float, float, bool]:
    """The far guest claims every ``every``-th press ``lie`` s early (the others
    honestly): (median, p95, max gain in s over the lying presses, told)."""
    loop = asyncio.get_running_loop()
    start_k = len(path.sent[1])
    seat = path.host.match.seats[1]
    seat.stamper.forget_presses()  # a fresh liar
    seat.told = False
    t0 = loop.time() + 0.05
    for i in range(presses):
        t = t0 + i * GAP
        told_lie = lie if i % every == every - 1 else 0.0
        loop.call_at(t, path.press, 1, t if path.scheduled else None, told_lie)
        # the near guest presses too, 10 ms later: the host is as busy as in the races
        loop.call_at(t + 0.01, path.press, 0, t + 0.01 if path.scheduled else None)
    await asyncio.sleep(presses * GAP + 0.5)
    start = path.host.match.arbiter.start_time
    gains: list[float] = []
    for k in range(start_k, start_k + presses):
        if (k - start_k) % every != every - 1:
            continue
        record = path.judged(1, k)
        if record is None:
            continue
        true_press = path.sent[1][k] - start
        gains.append(true_press - record.press)
    gains.sort()
    told = seat.told
    if not gains:
        return 0.0, 0.0, 0.0, told
    return (
        statistics.median(gains),
        gains[min(len(gains) - 1, int(0.95 * len(gains)))],
        gains[-1],
        told,
    )


async def lateness(samples: list[float]) -> None:
    """How late the event loop the host runs on wakes from a 10 ms sleep (seconds),
    until cancelled: on a busy machine this is delay every message of the host's
    also waits, over what the proxy adds."""
    while True:
        t = time.perf_counter()
        await asyncio.sleep(0.01)
        samples.append(time.perf_counter() - t - 0.01)


async def one_d(d: float, args: argparse.Namespace, say: Callable[[str], None]) -> dict[str, Any]:
    late: list[float] = []
    watch = asyncio.create_task(lateness(late))
    try:
        return await measure_d(d, args, say)
    finally:
        watch.cancel()
        late.sort()
        if late:
            say(
                f"    the host's event loop woke late by {statistics.median(late) * 1000:.1f} ms "
                f"(median), {_q(late, 0.95) * 1000:.1f} ms (p95), {late[-1] * 1000:.0f} ms "
                f"(max); machine load {os.getloadavg()[0]:.1f}"
            )


def _q(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def measure_d(
    d: float, args: argparse.Namespace, say: Callable[[str], None]
) -> dict[str, Any]:
    path = await open_path(d, args.jitter / 1000, args.loss, seed=int(d * 1000) + 7)
    path.scheduled = args.stamp == "scheduled"
    try:
        stamper = path.host.match.seats[1].stamper
        say(
            f"d = {d * 1000:.0f} ± {args.jitter:.0f} ms: measured one-way delay "
            f"{(stamper.delay or 0) * 1000:.1f} ms, jitter {stamper.jitter * 1000:.1f} ms, "
            f"W {path.host.match.window * 1000:.0f} ms"
        )
        lead = await fair_lead(path, args.races, say)
        near = path.host.match.seats[0].stamper
        errors = [
            abs((stamper.offset or 0.0) - FAR_OFFSET) * 1000,
            abs((near.offset or 0.0) - NEAR_OFFSET) * 1000,
        ]
        say(
            f"    clock estimates off by {errors[0]:.2f} ms (far guest) and {errors[1]:.2f} ms "
            f"(near guest) after the races"
        )
        gains = {}
        for lie_ms in args.lies:
            gains[lie_ms] = await liar_gain(path, lie_ms / 1000, args.liar_presses)
            med, p95, top, told = gains[lie_ms]
            say(
                f"    liar claiming {lie_ms} ms early: gain median {med * 1000:.1f} ms, "
                f"p95 {p95 * 1000:.1f} ms, max {top * 1000:.1f} ms"
                f"{'; told and the host warned' if told else ''}"
            )
        picky = await liar_gain(path, 1.0, args.liar_presses * PICKY, PICKY)
        med, p95, top, told = picky
        say(
            f"    picky liar claiming 1000 ms early on one press in {PICKY}: gain median "
            f"{med * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, max {top * 1000:.1f} ms"
            f"{'; told and the host warned' if told else ''}"
        )
        careful = await liar_gain(path, CAREFUL, args.liar_presses * PICKY, PICKY)
        med, p95, top, told = careful
        reach = (stamper.allowance or 0.0) - (stamper.delay or 0.0)
        say(
            f"    careful liar claiming {CAREFUL * 1000:.0f} ms early on one press in {PICKY}: "
            f"gain median {med * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, max {top * 1000:.1f} ms"
            f"{'; told and the host warned' if told else ''}; the reach is "
            f"{reach * 1000:.1f} ms over the median delay"
        )
        screen = path.screen
        p99 = sorted(screen)[min(len(screen) - 1, int(0.99 * len(screen)))] if screen else 0.0
        say(
            f"    press -> own screen (pending card): median "
            f"{statistics.median(screen) * 1000 if screen else 0:.3f} ms, p99 {p99 * 1000:.3f} ms "
            f"({len(screen)} presses)"
        )
        return {
            "lead": lead,
            "gains": gains,
            "picky": picky,
            "careful": careful,
            "reach": reach,
            "screen_p99": p99,
        }
    finally:
        await path.close()
        say(f"    proxy delayed {path.proxy.chunks} chunks, {path.proxy.lost} as lost")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--races", type=int, default=40, help="races per lead and direction")
    parser.add_argument("--d", default="0,20,80,150", help="one-way delays in ms")
    parser.add_argument("--jitter", type=float, default=10.0, help="± ms each way")
    parser.add_argument("--loss", type=float, default=0.01, help="share of chunks 'lost'")
    parser.add_argument("--lies", default="5,10,20,1000", help="the liar's lies in ms")
    parser.add_argument("--liar-presses", type=int, default=40)
    parser.add_argument(
        "--stamp",
        choices=("sent", "scheduled"),
        default="sent",
        help="a press is stamped when it is sent (as a bot does; default) or when it was "
        "scheduled (as a terminal stamps a key event; the loop's lateness is delay)",
    )
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per delay at most")
    parser.add_argument("--serve-proxy", help=argparse.SUPPRESS)  # the proxy's own process
    args = parser.parse_args()
    if args.serve_proxy:
        asyncio.run(serve_proxy(args.serve_proxy))
        return
    args.lies = [int(x) for x in args.lies.split(",") if x]
    os.environ.setdefault("SPIT_DATA_DIR", tempfile.mkdtemp(prefix="bench-fair-"))
    logging.getLogger("spit.net").setLevel(logging.ERROR)
    logging.getLogger("asyncssh").setLevel(logging.ERROR)

    def say(text: str) -> None:
        print(text, flush=True)

    say(f"machine load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    leads: list[float | None] = []
    gains: list[tuple[float, float, float, bool]] = []
    picky: list[tuple[float, float, float, bool]] = []
    careful: list[tuple[float, float, float, bool]] = []
    reaches: list[float] = []
    screens: list[float] = []
    wall = time.perf_counter()
    for d_ms in (float(x) for x in args.d.split(",") if x):
        result = asyncio.run(asyncio.wait_for(one_d(d_ms / 1000, args, say), args.timeout))
        lead = result["lead"]
        leads.append(lead)
        gains.extend(result["gains"].values())
        picky.append(result["picky"])
        careful.append(result["careful"])
        reaches.append(result["reach"])
        screens.append(result["screen_p99"])
        say(
            f"  d = {d_ms:.0f} ms: smallest lead winning >= 95% of races: "
            f"{'over ' + str(LEADS[-1]) if lead is None else f'{lead * 1000:.0f}'} ms"
        )
    say(
        f"{time.perf_counter() - wall:.0f} s in all; machine load {os.getloadavg()[0]:.1f} "
        f"on {os.cpu_count()} cores"
    )
    worst = max((LEADS[-1] * 2 if x is None else x * 1000) for x in leads)
    say(f"press_to_screen_p99_ms: {max(screens, default=0.0) * 1000:.1f}")
    say(f"reach_over_median_ms: {max(reaches, default=0.0) * 1000:.1f}")
    say(f"careful_liar_gain_ms: {max((g[0] for g in careful), default=0.0) * 1000:.0f} (median)")
    steady = max((g[0] for g in gains), default=0.0)
    say(f"steady_liar_gain_ms: {steady * 1000:.0f} (median)")
    chosen = max((g[0] for g in picky), default=0.0)
    say(f"picky_liar_gain_ms: {chosen * 1000:.0f} (median)")
    say(f"picky_liar_gain_p95_ms: {max((g[1] for g in picky), default=0.0) * 1000:.0f}")
    say(f"liar_gain_p95_ms: {max((g[1] for g in [*gains, *picky]), default=0.0) * 1000:.0f}")
    say(f"fair_lead_ms: {worst:.0f}")
    say(f"liar_gain_ms: {max(steady, chosen) * 1000:.0f}")


if __name__ == "__main__":
    main()
