"""Helpers for the network tests (tests/net): a quick host on loopback, bot guests,
a recorder of the messages a guest receives, race positions."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from typing import Any

from spit.bots import make_bot
from spit.bots.reaction import Reaction
from spit.bots.sim import new_game
from spit.engine import SYSTEM, Action, Game, Kind, Phase, call
from spit.net.botseat import BotDriver
from spit.net.client import Guest
from spit.net.host import Host, Limits
from spit.realtime.arbiter import Timing

#: A bot that reacts in about 10 ms: a whole game takes a few seconds.
FAST = Reaction(mu=0.01, sigma=0.002, tau=0.002, floor=0.005)
#: Timers short enough for a game in seconds.
QUICK = Timing(auto_spit=0.05, slap_time=0.2, stall_time=1.0, flip_delay=0.05)
#: Every test gives up after this many seconds.
LIMIT = 20.0


def quick_host(game: Game, **kwargs: Any) -> Host:
    """A host on 127.0.0.1, ephemeral port, fast timers, small limits."""
    kwargs.setdefault("timing", QUICK)
    kwargs.setdefault("remote_seats", (0, 1))
    kwargs.setdefault("limits", Limits(stall=0.5))
    return Host(game, port=0, **kwargs)


class Recorder:
    """Keeps every message a guest received, and lets a test wait for one."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.event = asyncio.Event()
        self.forward: Callable[[dict[str, Any]], None] | None = None

    def __call__(self, msg: dict[str, Any]) -> None:
        self.messages.append(msg)
        self.event.set()
        if self.forward is not None:
            self.forward(msg)

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["t"] == kind]

    async def wait_for(
        self, test: Callable[[dict[str, Any]], bool], timeout: float = 5.0, start: int = 0
    ) -> dict[str, Any]:
        """The first message from number ``start`` on (received or yet to come) that
        passes ``test``."""

        async def scan() -> dict[str, Any]:
            seen = start
            while True:
                for msg in self.messages[seen:]:
                    if test(msg):
                        return msg
                seen = len(self.messages)
                self.event.clear()
                await self.event.wait()

        return await asyncio.wait_for(scan(), timeout)


async def join(host: Host, seat: int | None, **kwargs: Any) -> tuple[Guest, Recorder]:
    """A guest (recording its messages) for ``seat`` (None: a spectator)."""
    recorder = Recorder()
    code = host.watch_code if seat is None else host.codes[seat]
    guest = await Guest.connect(
        "127.0.0.1", host.port, code, watch=seat is None, on_message=recorder, **kwargs
    )
    return guest, recorder


async def bot_guest(host: Host, seat: int, mode: str, **kwargs: Any) -> tuple[Guest, Recorder]:
    """A fast bot playing ``seat`` over the network."""
    guest, recorder = await join(host, seat, **kwargs)
    loop = asyncio.get_running_loop()
    bot = make_bot("expert", seat, seed=seat + 1, mode=mode, reaction=FAST)
    driver = BotDriver(bot, lambda a, at: guest.action(a, at), time.monotonic, loop.call_later)
    recorder.forward = driver.handle
    for msg in recorder.messages:
        driver.handle(msg)
    return guest, recorder


class LogLines(logging.Handler):
    """Collects the host's log lines."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())

    def has(self, text: str) -> bool:
        return any(text in line for line in self.lines)


def race_position(mode: str = "speed") -> tuple[Game, Action, Action]:
    """A game in play where each player has a card for the same pile and only
    the first of the two can land: (game, player 1's play, player 2's play)."""
    for seed in range(2000):
        game = new_game(mode, (), seed)
        game.apply(call(0))
        game.apply(call(1))
        if game.phase is not Phase.PLAY:
            continue
        mine = [a for a in game.legal_actions(0) if a.kind is Kind.PLAY]
        theirs = [a for a in game.legal_actions(1) if a.kind is Kind.PLAY]
        for a in mine:
            for b in theirs:
                if a.target != b.target:
                    continue
                first, second = game.copy(), game.copy()
                first.apply(a)
                second.apply(b)
                if not first.is_legal(b) and not second.is_legal(a):
                    return game, a, b
    raise AssertionError("no race position found")


def tail_of_local_play(
    host: Host, seed: int, done: Callable[[], bool], ticks: int = 5000
) -> list[dict[str, Any]]:
    """Random legal moves through ``host``'s own arbiter (no network, nobody to wait
    for), one tick each, until ``done()`` (at most ``ticks`` ticks): the tail entries
    (``Host.tail_since``) of the ticks that applied something, from the host's mark."""
    game, arbiter = host.game, host.match.arbiter
    mark = host.tail_mark()
    rng = random.Random(seed)
    now = arbiter.start_time
    arbiter.resume(now)
    entries: list[dict[str, Any]] = []
    for _ in range(ticks):
        if done() or game.over:
            break
        now += 0.3
        before = len(game.actions)
        legal = [a for a in game.legal_actions() if a.player != SYSTEM]
        if legal:
            arbiter.submit(rng.choice(legal), at=now)
        now += 0.2
        arbiter.tick(now)
        if len(game.actions) > before:
            entry, mark = host.tail_since(mark)
            entries.append(entry)
    return entries
