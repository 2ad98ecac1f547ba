"""Three spit server nodes as one, under load, and one of them killed mid-run.

Three ``spit server`` nodes run as child processes on 127.0.0.1, sharing a
PostgreSQL store (a schema of this run's own) and a Redis bus (a key prefix
of this run's own), both removed at the end. N bot players sign in through
the ``spit online`` door, spread over the three nodes (player i on node
i mod 3), each from a loopback address of its own (127.0.x.y: the nodes'
per-address limits then apply to each player as to a real one); each queues
for quick-pair and plays its match to the end with a computer of
``--level``, wherever the cluster hosts it.

Measured:

- time to pair (queue -> matched) for players paired with a player of
  another node, and for all players; and first, unless ``--no-single``, the
  same for the same number of players on one node alone (``spit server``
  with its defaults), for comparison;
- matches held at once (the sum over the nodes' status files);
- store writes per second: checkpoints (the nodes' ``checkpoint_writes``)
  and result rows, over the run;
- once everyone is paired, the node with the most matches is killed
  (SIGKILL): the time from the kill to each of its matches being resumed
  on another node (the first "matched ... resumed" notice one of its
  players receives; and the resuming node's log line); the client of a
  player whose lobby was on the killed node signs in on another by itself;
- results: every match paired must end with exactly one row in the store's
  ``matches`` table (lost: none; duplicated: more than one);
- moves lost: for the killed node's matches, the moves their players had been
  told of there that the finished replay does not hold in that place.

Run: ``python benchmarks/bench_cluster.py [--clients 200] [--timeout 420]``.
Bounded: at most ``--clients`` players (400 at most), ``--timeout`` seconds
for the cluster run. Needs PostgreSQL and Redis (``--postgres``, ``--redis``;
the environment's ``SPIT_TEST_POSTGRES`` / ``SPIT_TEST_REDIS`` by default).
The last line is ``cluster: pair_p50_s=… pair_p95_s=… matches_held=…
store_writes_per_s=… resume_max_s=… lost_results=… duplicate_results=…
lost_moves=…``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import asyncssh  # noqa: E402
import psycopg  # noqa: E402
import redis.asyncio as aioredis  # noqa: E402

from bench_server import _cpu_seconds, _free_port  # noqa: E402
from spit.net.client import JoinError  # noqa: E402
from spit.net.online import OnlineClient, play_as_bot  # noqa: E402

NAMES = ("n1", "n2", "n3")
#: the loopback address the current bot player connects from
SOURCE: ContextVar[str | None] = ContextVar("SOURCE", default=None)
_connect = asyncssh.connect


def _connect_from_source(*args: Any, **kwargs: Any) -> Any:
    """``asyncssh.connect`` from the current player's own loopback address."""
    source = SOURCE.get()
    if source is not None:
        kwargs.setdefault("local_addr", (source, 0))
    return _connect(*args, **kwargs)


asyncssh.connect = _connect_from_source  # the sign-ins of spit.net.online call it


def _source(index: int) -> str:
    return f"127.0.{1 + index // 250}.{1 + index % 250}"


def _quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, int(len(ordered) * q + 0.5) - 1))]


@dataclass
class Bot:
    """One bot player and what it saw."""

    index: int
    name: str
    node: int  #: the node its lobby is on first
    key: asyncssh.SSHKey
    queued_at: float | None = None
    pair_s: float | None = None
    match: str | None = None
    partner: str | None = None
    address: str | None = None  #: where its match was first hosted
    resumed_at: float | None = None
    resumed_address: str | None = None
    stale_notices: int = 0  #: "matched" for its match, not resumed, after losing it
    relogged: bool = False  #: its client signed in on another node (its own died)
    over: bool = False
    #: every move its match's node told it of (the "events" messages), in order
    moves: list[Any] = field(default_factory=list)
    #: the moves it had been told of when it learnt its match resumed elsewhere
    moves_before: list[Any] | None = None
    failure: str | None = None
    done: bool = False


@dataclass
class Run:
    """One run's players and nodes."""

    ports: list[int]
    level: str
    mode: str
    resume_wait: float
    bots: list[Bot] = field(default_factory=list)
    dead: set[int] = field(default_factory=set)


async def _wait_message(
    client: OnlineClient, inbox: asyncio.Queue[dict[str, Any]], seconds: float
) -> dict[str, Any] | None:
    """The next lobby message within ``seconds``; None on time-out or a lost lobby."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if inbox.empty() and client.ended is not None:
            return None
        with contextlib.suppress(TimeoutError):
            return await asyncio.wait_for(inbox.get(), min(0.5, deadline - time.monotonic()))
    return None


async def player(bot: Bot, run: Run) -> None:
    """Sign in, queue, play the match to the end, following it to another node if need be.

    A client whose lobby node dies signs in on another node by itself
    (``OnlineClient``); the lobby's messages come on from there.
    """
    SOURCE.set(_source(bot.index))
    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    try:
        client = await OnlineClient.connect(
            "127.0.0.1",
            run.ports[bot.node],
            key=bot.key,
            known=None,
            name=bot.name,
            on_message=inbox.put_nowait,
        )
    except JoinError as exc:
        bot.failure = f"sign-in: {exc}"
        return
    home = client.server

    async def follow(match_id: str) -> dict[str, Any] | None:
        """The lobby's "matched … resumed" for ``match_id``, from whichever node it is on."""
        deadline = time.monotonic() + run.resume_wait
        while time.monotonic() < deadline:
            msg = await _wait_message(client, inbox, deadline - time.monotonic())
            bot.relogged = client.server != home
            if msg is None and client.ended is not None:
                return None  # it could sign in on no other node
            if msg is None or msg.get("t") != "matched" or msg.get("match") != match_id:
                continue
            if msg.get("resumed"):
                bot.moves_before = list(bot.moves)
                bot.resumed_at = time.monotonic()
                bot.resumed_address = str(msg.get("address"))
                return msg
            bot.stale_notices += 1
        return None

    def seen(msg: dict[str, Any]) -> None:
        if msg.get("t") == "over":
            bot.over = True
        elif msg.get("t") == "events" and bot.moves_before is None:
            bot.moves.append(msg.get("action"))

    try:
        while True:
            msg = await _wait_message(client, inbox, 3600)
            if msg is None:
                bot.failure = f"lobby: {client.ended}"
                return
            if msg["t"] == "welcome" and bot.queued_at is None:
                bot.queued_at = time.monotonic()
                client.send("queue", mode=run.mode)
            elif msg["t"] == "matched" and msg.get("seat") is not None:
                bot.pair_s = time.monotonic() - (bot.queued_at or time.monotonic())
                bot.match = str(msg["match"])
                bot.address = str(msg.get("address"))
                bot.partner = next((n for n in msg["names"] if n != bot.name), None)
                try:
                    await play_as_bot(client, msg, run.level, on_message=seen, next_matched=follow)
                except (JoinError, OSError, asyncssh.Error, TimeoutError) as exc:
                    bot.failure = f"match: {type(exc).__name__}: {exc}"
                    return
                bot.done = True
                return
            elif msg["t"] in ("bye", "needname"):
                bot.failure = str(msg.get("reason") or msg.get("problem") or msg["t"])
                return
    finally:
        await client.close()


# ---------------------------------------------------------------- nodes


def _node_env(data_dir: Path) -> dict[str, str]:
    env = dict(os.environ, SPIT_DATA_DIR=str(data_dir), HOME=str(data_dir))
    env["PYTHONPATH"] = str(ROOT / "src")
    return env


def start_node(
    root: Path, name: str, port: int, wave: float, extra: list[str]
) -> subprocess.Popen[bytes]:
    """``spit server`` as a child process, its log in ``root/name/node.log``."""
    data_dir = root / name
    data_dir.mkdir(parents=True, exist_ok=True)
    log = open(data_dir / "node.log", "wb")  # noqa: SIM115 (the child keeps it)
    cmd = [sys.executable, "-m", "spit", "server", "--port", str(port)]
    cmd += ["--data-dir", str(data_dir), "--wave", str(wave), *extra]
    return subprocess.Popen(cmd, stderr=log, stdout=log, env=_node_env(data_dir))


def read_status(root: Path, name: str) -> dict[str, Any]:
    with contextlib.suppress(OSError, ValueError):
        data = json.loads((root / name / "status.json").read_text())
        if isinstance(data, dict):
            return data
    return {}


async def wait_up(root: Path, names: tuple[str, ...], cluster: bool, seconds: float = 60) -> None:
    """Until every node wrote its status (and, in a cluster, sees the other nodes)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        statuses = [read_status(root, n) for n in names]
        if all(statuses) and (
            not cluster or all(len(s.get("nodes", [])) == len(names) for s in statuses)
        ):
            return
        await asyncio.sleep(0.2)
    raise SystemExit(f"the nodes did not come up within {seconds:.0f} s: see {root}/*/node.log")


def stop(children: list[subprocess.Popen[bytes]]) -> None:
    for child in children:
        if child.poll() is None:
            child.terminate()
    for child in children:
        try:
            child.wait(timeout=30)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def resumed_in_logs(root: Path, dead: str, killed_wall: float) -> dict[str, float]:
    """Each match the other nodes' logs say they resumed from ``dead``: seconds after the kill."""
    line = re.compile(
        r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) event=match_resumed match=(\S+) .*was="
        + re.escape(dead)
        + "/"
    )
    out: dict[str, float] = {}
    for name in NAMES:
        if name == dead:
            continue
        with contextlib.suppress(OSError):
            for text in (root / name / "node.log").read_text(errors="replace").splitlines():
                found = line.match(text)
                if found:
                    at = datetime.strptime(found[1], "%Y-%m-%d %H:%M:%S,%f").timestamp()
                    out[found[2]] = at - killed_wall
    return out


def log_problems(root: Path) -> list[str]:
    """Tracebacks and error lines in the nodes' logs (the first few)."""
    found: list[str] = []
    for name in (*NAMES, "single"):
        with contextlib.suppress(OSError):
            for text in (root / name / "node.log").read_text(errors="replace").splitlines():
                if (
                    "Traceback" in text
                    or "event=result_not_kept" in text
                    or (" ERROR " in text or "Error" in text.split(" ", 2)[-1][:40])
                ):
                    found.append(f"{name}: {text[:200]}")
    return found


# ---------------------------------------------------------------- the store


def store_rows(pg: str, schema: str) -> tuple[dict[str, int], dict[str, int], dict[str, str]]:
    """Result rows per match id (finished, unfinished saves) and checkpoints' owners."""
    finished: dict[str, int] = {}
    unfinished: dict[str, int] = {}
    with psycopg.connect(pg, autocommit=True) as conn:
        rows = conn.execute(
            f"SELECT replay::json->'server'->>'match', "
            f"coalesce(replay::json->'server'->>'unfinished', 'false') FROM \"{schema}\".matches"
        ).fetchall()
        owners = dict(
            conn.execute(f'SELECT match_id, owner FROM "{schema}".checkpoints').fetchall()
        )
    for match_id, left in rows:
        into = unfinished if left == "true" else finished
        into[str(match_id)] = into.get(str(match_id), 0) + 1
    return finished, unfinished, {str(k): str(v) for k, v in owners.items()}


def replayed_moves(pg: str, schema: str, matches: set[str]) -> dict[str, list[Any]]:
    """The moves of each of ``matches`` as its result row's replay keeps them."""
    if not matches:
        return {}
    with psycopg.connect(pg, autocommit=True) as conn:
        rows = conn.execute(
            f"SELECT replay::json->'server'->>'match', replay::json->'actions'"
            f' FROM "{schema}".matches'
        ).fetchall()
    return {str(m): list(actions or []) for m, actions in rows if str(m) in matches}


def lost_moves(bots: list[Bot], replays: dict[str, list[Any]]) -> tuple[int, int]:
    """Moves a player of a resumed match was told of on the killed node that its
    replay does not hold at that place (summed over the matches: the most any one
    of its players lost), and how many such moves the players had been told of."""
    lost: dict[str, int] = {}
    told = 0
    for b in bots:
        if b.match is None or b.moves_before is None or b.match not in replays:
            continue
        kept = replays[b.match]
        before = b.moves_before
        same = next(
            (i for i, (x, y) in enumerate(zip(before, kept, strict=False)) if x != y),
            min(len(before), len(kept)),
        )
        lost[b.match] = max(lost.get(b.match, 0), len(before) - same)
        told += len(before)
    return sum(lost.values()), told


def drop_schema(pg: str, schema: str) -> None:
    with psycopg.connect(pg, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


async def drop_keys(url: str, prefix: str) -> int:
    client = aioredis.from_url(url)
    try:
        keys = [k async for k in client.scan_iter(match=prefix + "*", count=1000)]
        if keys:
            await client.delete(*keys)
        return len(keys)
    finally:
        await client.aclose()


# ---------------------------------------------------------------- the runs


async def _cancel_all(keep: asyncio.Task[None] | None = None) -> None:
    """Stop every player still playing, and every task its match left waiting."""
    rest = [t for t in asyncio.all_tasks() if t is not asyncio.current_task() and t is not keep]
    for task in rest:
        task.cancel()
    await asyncio.gather(*rest, return_exceptions=True)


async def spread(bots: list[Bot], run: Run, ramp: float) -> list[asyncio.Task[None]]:
    """Start every player, evenly over ``ramp`` seconds."""
    tasks = []
    for bot in bots:
        tasks.append(asyncio.create_task(player(bot, run)))
        await asyncio.sleep(ramp / max(1, len(bots)))
    return tasks


def make_bots(count: int, nodes: int, tag: str) -> list[Bot]:
    return [
        Bot(i, f"{tag}{i}", i % nodes, asyncssh.generate_private_key("ssh-ed25519"))
        for i in range(count)
    ]


async def until(check: Callable[[], bool], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not check():
        await asyncio.sleep(0.2)


async def single_node(args: argparse.Namespace, root: Path) -> list[float]:
    """Pair times of the same players on one node alone (they are stopped once paired)."""
    port = _free_port()
    child = start_node(root, "single", port, args.wave, [])
    try:
        await wait_up(root, ("single",), cluster=False)
        run = Run([port], args.level, args.mode, 0.0)
        run.bots = make_bots(args.clients, 1, "solo")
        tasks = await spread(run.bots, run, args.ramp)
        await until(
            lambda: all(b.pair_s is not None or b.failure or b.done for b in run.bots),
            args.ramp + 60,
        )
        await _cancel_all()
        assert all(task.done() for task in tasks)
        failed = [b.failure for b in run.bots if b.failure]
        if failed:
            print(f"single node: {len(failed)} players failed, e.g. {failed[0]}")
        return [b.pair_s for b in run.bots if b.pair_s is not None]
    finally:
        stop([child])


async def cluster(args: argparse.Namespace, root: Path, pg: str, schema: str, prefix: str) -> None:
    ports = [_free_port() for _ in NAMES]
    store = f"{pg}?schema={schema}"
    children = [
        start_node(
            root,
            name,
            port,
            args.wave,
            ["--node", name, "--store", store, "--bus", args.redis, "--bus-prefix", prefix],
        )
        for name, port in zip(NAMES, ports, strict=True)
    ]
    try:
        await wait_up(root, NAMES, cluster=True)
        run = Run(ports, args.level, args.mode, args.resume_wait)
        run.bots = make_bots(args.clients, len(NAMES), "bot")
        node_of = {b.name: b.node for b in run.bots}
        held = 0
        writes_seen = dict.fromkeys(NAMES, 0)
        victim: int | None = None

        async def sample() -> None:
            nonlocal held
            while True:
                await asyncio.sleep(1.0)
                total = 0
                for n, name in enumerate(NAMES):
                    if n in run.dead:
                        continue
                    status = read_status(root, name)
                    total += int(status.get("matches", 0))
                    writes_seen[name] = max(
                        writes_seen[name], int(status.get("checkpoint_writes", 0))
                    )
                held = max(held, total)

        sampler = asyncio.create_task(sample())
        started = time.monotonic()
        cpu_at_start = time.process_time()
        tasks = await spread(run.bots, run, args.ramp)
        everyone = asyncio.gather(*tasks, return_exceptions=True)
        await until(
            lambda: all(b.pair_s is not None or b.failure for b in run.bots), 60 + args.ramp
        )
        paired_at = time.monotonic() - started
        await asyncio.sleep(args.kill_after)
        # the node with the most matches running now dies
        counts = [int(read_status(root, n).get("matches", 0)) for n in NAMES]
        victim = max(range(len(NAMES)), key=lambda n: counts[n])
        _, _, owners_before = await asyncio.to_thread(store_rows, pg, schema)
        cpu = [_cpu_seconds(c.pid) for c in children]
        killed_wall = time.time()
        killed_at = time.monotonic()
        children[victim].send_signal(signal.SIGKILL)
        children[victim].wait()
        run.dead.add(victim)
        dead_matches = {
            m for m, owner in owners_before.items() if owner.startswith(NAMES[victim] + "/")
        }
        # the checkpoints right after the kill are the dead node's running matches
        _, _, owners_after = await asyncio.to_thread(store_rows, pg, schema)
        dead_matches = {
            m for m in dead_matches if owners_after.get(m, "").startswith(NAMES[victim] + "/")
        }
        remaining = args.timeout - (time.monotonic() - started)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(everyone), max(1.0, remaining))
        await _cancel_all(keep=sampler)
        # the matches whose players left (a computer holds their seats) finish by themselves
        pending = {b.match for b in run.bots if b.match}

        def settled() -> bool:
            finished, _, owners = store_rows(pg, schema)
            return not owners and all(m in finished for m in pending)

        deadline = time.monotonic() + max(5.0, args.timeout - (time.monotonic() - started))
        while time.monotonic() < deadline and not await asyncio.to_thread(settled):
            await asyncio.sleep(1.0)
        elapsed = time.monotonic() - started
        sampler.cancel()
        for n, child in enumerate(children):
            if n != victim:
                cpu[n] = _cpu_seconds(child.pid)
        stop([c for n, c in enumerate(children) if n != victim])
        writes = 0
        for name in NAMES:
            writes += max(
                writes_seen[name], int(read_status(root, name).get("checkpoint_writes", 0))
            )
        finished, unfinished, owners_left = await asyncio.to_thread(store_rows, pg, schema)

        # ---------------------------------------------------------------- figures
        bots = run.bots
        pairs = [b.pair_s for b in bots if b.pair_s is not None]
        cross = [
            b.pair_s
            for b in bots
            if b.pair_s is not None and b.partner in node_of and node_of[b.partner] != b.node
        ]
        matches = {b.match for b in bots if b.match}
        over = {b.match for b in bots if b.match and b.over}
        lost = sorted(m for m in matches if finished.get(m, 0) == 0)
        dupes = sorted(m for m in matches if finished.get(m, 0) > 1)
        failed = [b for b in bots if b.failure]
        print(
            f"clients {len(bots)} on {len(NAMES)} nodes, paired {len(pairs)} "
            f"(all by {paired_at:.1f} s), failed {len(failed)}, in {elapsed:.0f} s"
        )
        kinds = Counter(re.sub(r"127\.0\.0\.1:\d+", "NODE", b.failure or "")[:70] for b in failed)
        for kind, count in kinds.most_common(4):
            print(f"  {count} failed: {kind}")
        print(
            f"CPU seconds: this process (the players) {time.process_time() - cpu_at_start:.0f},"
            " nodes "
            + ", ".join(f"{NAMES[n]} {cpu[n]:.0f}" for n in range(len(NAMES)))
            + f" (load average {os.getloadavg()[0]:.1f})"
        )
        print(
            f"time to pair, cross-node ({len(cross)} players): p50 {_quantile(cross, 0.5):.2f} s,"
            f" p95 {_quantile(cross, 0.95):.2f} s; all: p50 {_quantile(pairs, 0.5):.2f} s,"
            f" p95 {_quantile(pairs, 0.95):.2f} s (wave {args.wave} s)"
        )
        if args.single_pairs:
            sp = args.single_pairs
            print(
                f"time to pair, one node alone ({len(sp)} players): p50 {_quantile(sp, 0.5):.2f}"
                f" s, p95 {_quantile(sp, 0.95):.2f} s"
            )
        lateness = [float(read_status(root, n).get("lateness_p99_ms", 0.0)) for n in NAMES]
        print(
            f"matches held at once (sum over nodes): {held}; timer lateness p99 per node (ms): "
            + ", ".join(f"{NAMES[n]} {lateness[n]:.1f}" for n in range(len(NAMES)))
        )
        results = sum(finished.values()) + sum(unfinished.values())
        per_s = (writes + results) / elapsed
        print(
            f"store writes: {writes} checkpoints + {results} results in {elapsed:.0f} s:"
            f" {per_s:.1f}/s (the killed node's checkpoints as last sampled)"
        )
        dead_name = NAMES[victim]
        logged = resumed_in_logs(root, dead_name, killed_wall)
        dead_bots = [b for b in bots if b.match in dead_matches]
        first_notice: dict[str, float] = {}
        for b in dead_bots:
            if b.resumed_at is not None and b.match is not None:
                gap = b.resumed_at - killed_at
                first_notice[b.match] = min(first_notice.get(b.match, gap), gap)
        followed = [b for b in dead_bots if b.resumed_at is not None]
        orphaned = [b for b in dead_bots if b.node == victim]
        print(
            f"killed {dead_name} (SIGKILL) with {counts[victim]} matches by its status,"
            f" {len(dead_matches)} checkpointed: resumed on the others (their logs)"
            f" {len(set(logged) & dead_matches)}, finished with a result"
            f" {sum(1 for m in dead_matches if finished.get(m))}"
        )
        notice = list(first_notice.values())
        served = list(logged[m] for m in dead_matches if m in logged)
        print(
            f"  kill -> first player told where it resumed: p50 {_quantile(notice, 0.5):.2f} s,"
            f" max {max(notice, default=float('nan')):.2f} s ({len(notice)} matches);"
            f" kill -> resumed (node log): p50 {_quantile(served, 0.5):.2f} s,"
            f" max {max(served, default=float('nan')):.2f} s"
        )
        print(
            f"  their players: {len(dead_bots)}, followed to the resumed match {len(followed)};"
            f" lobby on the killed node {len(orphaned)} (signed in again"
            f" {sum(b.relogged for b in orphaned)}, told of the resumed match"
            f" {sum(b.resumed_at is not None for b in orphaned)}, sent the stale match"
            f" {sum(b.stale_notices > 0 for b in orphaned)})"
        )
        print(
            f"results: {len(matches)} matches paired, {len(over)} seen to the end by a player,"
            f" {sum(1 for m in matches if finished.get(m))} with a result row;"
            f" lost {len(lost)}, duplicated {len(dupes)}; unfinished saves"
            f" {sum(unfinished.values())}, checkpoints left {len(owners_left)}"
        )
        if lost:
            print("  lost, e.g.: " + ", ".join(lost[:5]))
        if dupes:
            print("  duplicated, e.g.: " + ", ".join(dupes[:5]))
        problems = log_problems(root)
        if problems:
            print(f"node log problems ({len(problems)}), e.g.:")
            for line in problems[:5]:
                print("  " + line)
        replays = await asyncio.to_thread(replayed_moves, pg, schema, dead_matches)
        moves_lost, moves_told = lost_moves(dead_bots, replays)
        print(
            f"  moves the players of resumed matches were told of on the killed node:"
            f" {moves_told}; missing from their replays: {moves_lost}"
        )
        resume_max = max(notice, default=float("nan"))
        print(
            f"cluster: pair_p50_s={_quantile(cross, 0.5):.2f}"
            f" pair_p95_s={_quantile(cross, 0.95):.2f}"
            f" matches_held={held} store_writes_per_s={per_s:.1f} resume_max_s={resume_max:.2f}"
            f" lost_results={len(lost)} duplicate_results={len(dupes)}"
            f" lost_moves={moves_lost}"
        )
    finally:
        stop(children)


async def run(args: argparse.Namespace) -> None:
    root = Path(tempfile.mkdtemp(prefix="spit-bench-cluster-"))
    schema = f"bench_cluster_{secrets.token_hex(4)}"
    prefix = f"spit-bench-cluster-{secrets.token_hex(4)}:"
    pg = args.postgres
    try:
        args.single_pairs = await single_node(args, root) if args.single else []
        await cluster(args, root, pg, schema, prefix)
    finally:
        with contextlib.suppress(psycopg.Error):
            drop_schema(pg, schema)
        with contextlib.suppress(Exception):
            await drop_keys(args.redis, prefix)
        if args.keep:
            print(f"node logs kept in {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=200, help="bot players (at most 400)")
    parser.add_argument("--timeout", type=float, default=420.0, help="seconds at most")
    parser.add_argument("--level", default="medium", help="the bots' level")
    parser.add_argument("--mode", default="speed", help="the game")
    parser.add_argument("--wave", type=float, default=3.0, help="seconds between waves")
    parser.add_argument("--ramp", type=float, default=10.0, help="seconds to bring all in")
    parser.add_argument("--kill-after", type=float, default=5.0, help="seconds after pairing")
    parser.add_argument("--resume-wait", type=float, default=45.0, help="seconds to follow")
    parser.add_argument("--no-single", dest="single", action="store_false")
    parser.add_argument("--keep", action="store_true", help="keep the nodes' logs")
    parser.add_argument(
        "--postgres",
        default=os.environ.get("SPIT_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test"),
    )
    parser.add_argument(
        "--redis", default=os.environ.get("SPIT_TEST_REDIS", "redis://127.0.0.1:6379/0")
    )
    args = parser.parse_args()
    args.clients = max(6, min(args.clients, 400))
    args.timeout = max(30.0, min(args.timeout, 1800.0))
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
