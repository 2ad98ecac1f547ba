"""R11 across a network: presses are judged by when they were made, not when they arrived.

The host's match runs on a fake clock here; messages are delivered by hand
with the delays of a slow link, so each race is exact and repeatable.
"""

from __future__ import annotations

import random
from typing import Any

from tests.support import FakeClock
from tests.support.net import race_position

from spit.engine import Action
from spit.net import protocol as proto
from spit.net.match import Match
from spit.net.stamping import Stamper


class Inbox:
    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    def send(self, data: bytes) -> None:
        self.messages.append(proto.decode(data, proto.HOST_TO_GUEST, proto.MAX_HOST_LINE))

    def verdicts(self) -> dict[int, dict[str, Any]]:
        return {m["id"]: m for m in self.messages if m["t"] == "verdict"}


GUEST_OFFSET = 1000.0  # the guest's clock reads 1000 s more than the host's


def guest_stamper(clock: FakeClock, one_way: float, rng: random.Random | None = None) -> Stamper:
    """The host's estimate of a guest behind a link of ``one_way`` seconds each way."""
    stamper = Stamper(cap=0.15)
    for _ in range(8):
        sent = clock.now
        out = one_way + (rng.uniform(0, 0.004) if rng else 0.0)
        back = one_way + (rng.uniform(0, 0.004) if rng else 0.0)
        stamper.add_sample(sent, sent + out + GUEST_OFFSET, sent + out + back)
    return stamper


def race(
    window: float, guest_lead: float, guest_one_way: float = 0.05, rng: random.Random | None = None
) -> str:
    """Host (seat 1, local keyboard) and guest (seat 2) race for one pile.

    The guest presses ``guest_lead`` seconds before the host. Returns who won.
    """
    game, host_play, guest_play = race_position()
    clock = FakeClock()
    match = Match(game, clock=clock, window=window)
    host_box, guest_box = Inbox(), Inbox()
    match.attach(0, host_box, Stamper.local(0.15), clock.now)
    match.attach(1, guest_box, guest_stamper(clock, guest_one_way, rng), clock.now)
    clock.now += 1.0
    match.tick(clock.now)
    press = clock.now
    jitter = rng.uniform(-0.001, 0.001) if rng else 0.0
    guest_press, host_press = press + jitter, press + guest_lead
    guest_arrival = guest_press + guest_one_way + (rng.uniform(0, 0.004) if rng else 0.0)
    deliveries: list[tuple[float, int, Action, float]] = sorted(
        [
            (host_press, 0, host_play, host_press),
            (guest_arrival, 1, guest_play, guest_press + GUEST_OFFSET),
        ],
        key=lambda d: d[0],
    )
    for arrival, seat, action, at in deliveries:
        clock.now = arrival
        match.tick(clock.now)  # the host ticks whenever something arrives
        match.receive_action(seat, {"id": 1, "a": action.to_json(), "at": at}, arrival)
        match.tick(clock.now)
    clock.now += window + 0.2
    match.tick(clock.now)
    host_ok = host_box.verdicts()[1]["ok"]
    guest_ok = guest_box.verdicts()[1]["ok"]
    assert host_ok != guest_ok, "exactly one of the two cards lands"
    return "guest" if guest_ok else "host"


def test_guest_who_pressed_30ms_first_wins_despite_100ms_round_trip() -> None:
    assert race(window=0.08, guest_lead=0.03) == "guest"


def test_without_the_hold_window_arrival_order_decides() -> None:
    # W = 0 is plain arrival order: the host's press arrives first and wins.
    assert race(window=0.0, guest_lead=0.03) == "host"


def test_host_who_pressed_first_wins() -> None:
    assert race(window=0.08, guest_lead=-0.03) == "host"


def test_simultaneous_presses_split_about_evenly() -> None:
    rng = random.Random(11)
    wins = [race(window=0.08, guest_lead=0.0, rng=rng) for _ in range(120)]
    guest = wins.count("guest")
    assert 40 <= guest <= 80, f"guest won {guest} of 120"


def test_lying_guest_gains_at_most_the_cap() -> None:
    clock = FakeClock()
    stamper = guest_stamper(clock, 0.05)
    arrival = 200.0
    # claims to have pressed 10 s before it did: clamped to arrival - cap
    assert stamper.stamp(arrival - 10 + GUEST_OFFSET, arrival) == arrival - 0.15
    # claims a press after the arrival: clamped to the arrival
    assert stamper.stamp(arrival + 5 + GUEST_OFFSET, arrival) == arrival
    honest = stamper.stamp(arrival - 0.05 + GUEST_OFFSET, arrival)
    assert abs(honest - (arrival - 0.05)) < 1e-9


def test_stamper_without_pings_uses_arrival() -> None:
    assert Stamper().stamp(12345.0, 7.0) == 7.0


def test_local_keyboard_goes_through_the_same_rule() -> None:
    local = Stamper.local(0.15)
    assert local.stamp(9.99, 10.0) == 9.99
    assert local.stamp(5.0, 10.0) == 9.85  # the host's own player gains no more than a guest


async def test_over_loopback_a_slow_guest_who_pressed_first_wins() -> None:
    """The same race through a real host: guest 100 ms round trip (and a clock
    1000 s off), the host's own keyboard on a zero-delay link."""
    import asyncio
    import time

    from tests.support.net import LIMIT, Recorder, join, quick_host

    async def body() -> str:
        game, host_play, guest_play = race_position()
        host = quick_host(game, remote_seats=(1,), window=0.12)
        await host.start()
        try:
            mine = Recorder()
            local = host.local_seat(0, mine)
            guest, theirs = await join(
                host, 1, latency=0.1, clock=lambda: time.monotonic() + GUEST_OFFSET
            )
            run = asyncio.create_task(host.run())
            await asyncio.sleep(0.8)  # pings settle the clock estimate
            assert host.match.seats[1].stamper.rtt is not None
            assert host.match.seats[1].stamper.rtt >= 0.1
            press = time.monotonic()
            guest.action(guest_play, at=press + GUEST_OFFSET)
            await asyncio.sleep(max(0.0, press + 0.03 - time.monotonic()))
            local.press(host_play, at=press + 0.03)
            host_verdict = await mine.wait_for(lambda m: m["t"] == "verdict")
            guest_verdict = await theirs.wait_for(lambda m: m["t"] == "verdict")
            assert host_verdict["ok"] != guest_verdict["ok"]
            run.cancel()
            await guest.close()
            return "guest" if guest_verdict["ok"] else "host"
        finally:
            await host.close()

    assert await asyncio.wait_for(body(), LIMIT) == "guest"
