"""H8 fumbles over the network: the host judges each seat at its press stamps,
from what the seat could have seen; a far guest's lost race is no fumble."""

from __future__ import annotations

import asyncio

from tests.net.test_fairness import GUEST_OFFSET, Inbox, guest_stamper
from tests.support import FakeClock
from tests.support.net import LIMIT, join, quick_host, race_position

from spit.bots.sim import new_game
from spit.engine import Action, Kind, play
from spit.net import protocol as proto
from spit.net.match import Match
from spit.net.stamping import Stamper
from spit.realtime.arbiter import FUMBLING, Timing

WINDOW = 0.08


def far_guest_match(one_way: float) -> tuple[Match, Inbox, Inbox, FakeClock, Action, Action]:
    game, host_play, guest_play = race_position("spit")
    clock = FakeClock()
    match = Match(game, Timing(), clock=clock, window=WINDOW)
    host_box, guest_box = Inbox(), Inbox()
    match.attach(0, host_box, Stamper.local(0.15), clock.now)
    match.attach(1, guest_box, guest_stamper(clock, one_way), clock.now)
    clock.now += 1.0
    match.tick(clock.now)
    return match, host_box, guest_box, clock, host_play, guest_play


def deliver(
    match: Match,
    clock: FakeClock,
    seat: int,
    msg_id: int,
    action: Action,
    at: float,
    arrival: float,
) -> None:
    clock.now = arrival
    match.tick(clock.now)
    match.receive_action(seat, {"id": msg_id, "a": action.to_json(), "at": at}, arrival)
    match.tick(clock.now)


def test_H8_a_far_guests_lost_race_is_not_a_fumble() -> None:
    """The host's card lands; the guest, 150 ms away, presses 300 ms later (its
    screen showed the host's card only 230 ms after it landed): a lost race."""
    one_way = 0.15
    match, host_box, guest_box, clock, host_play, guest_play = far_guest_match(one_way)
    t = clock.now
    deliver(match, clock, 0, 1, host_play, t, t)
    press = t + 0.3
    deliver(match, clock, 1, 1, guest_play, press + GUEST_OFFSET, press + one_way)
    clock.now += WINDOW + 0.2
    match.tick(clock.now)
    assert host_box.verdicts()[1]["ok"]
    verdict = guest_box.verdicts()[1]
    assert not verdict["ok"] and "fumble" not in verdict
    assert match.arbiter.fumbles == []


def test_H8_the_same_late_press_at_the_hosts_keyboard_is_a_fumble() -> None:
    """The same seat rule for the host's own keyboard (no trip): pressed 300 ms after
    the card landed, beyond the margin and the hold window, it is a fumble."""
    game, host_play, guest_play = race_position("spit")
    clock = FakeClock()
    match = Match(game, Timing(), clock=clock, window=WINDOW)
    boxes = Inbox(), Inbox()
    match.attach(0, boxes[0], Stamper.local(0.15), clock.now)
    match.attach(1, boxes[1], Stamper.local(0.15), clock.now)
    clock.now += 1.0
    match.tick(clock.now)
    t = clock.now
    deliver(match, clock, 0, 1, host_play, t, t)
    deliver(match, clock, 1, 1, guest_play, t + 0.4, t + 0.4)
    clock.now += WINDOW + 0.2
    match.tick(clock.now)
    verdict = boxes[1].verdicts()[1]
    assert not verdict["ok"] and verdict["fumble"] == 0.5
    assert len(match.arbiter.fumbles) == 1


def blind_and_fitting(obs: dict[str, object], seat: int) -> tuple[Action, Action]:
    legal = [proto.parse_action(a) for a in obs["legal"]]  # type: ignore[attr-defined]
    plays = [a for a in legal if a.kind is Kind.PLAY]
    blind = next(
        play(seat, s, p) for s in range(5) for p in (0, 1) if play(seat, s, p) not in legal
    )
    return blind, plays[0]


async def test_H8_over_loopback_a_guests_fumble_holds_back_its_next_press() -> None:
    async def body() -> None:
        game = new_game("spit", (), 5)
        timing = Timing(auto_spit=0.05, slap_time=0.2, stall_time=10.0, fumble_time=1.0)
        host = quick_host(game, timing=timing)
        await host.start()
        run = asyncio.create_task(host.run())
        try:
            (guest, seen), (other, _) = await asyncio.gather(join(host, 0), join(host, 1))
            state = await seen.wait_for(
                lambda m: (
                    m["t"] == "state"
                    and m["obs"]["phase"] == "play"
                    and any(a[0] == "play" for a in m["obs"]["legal"])
                )
            )
            blind, fits = blind_and_fitting(state["obs"], 0)
            first = guest.action(blind)
            verdict = await seen.wait_for(lambda m: m["t"] == "verdict" and m["id"] == first)
            assert not verdict["ok"] and verdict["fumble"] == 1.0
            second = guest.action(fits)  # fits, but comes inside the fumble time
            held = await seen.wait_for(lambda m: m["t"] == "verdict" and m["id"] == second)
            assert not held["ok"] and held["reason"] == FUMBLING and "fumble" not in held
            assert len(host.match.arbiter.fumbles) == 1
            assert game.is_legal(fits)  # it was never tried
        finally:
            await host.close("the host closed the game")
            run.cancel()
        for g in (guest, other):
            await asyncio.wait_for(g.done.wait(), 5)
            await g.close()

    await asyncio.wait_for(body(), LIMIT)
