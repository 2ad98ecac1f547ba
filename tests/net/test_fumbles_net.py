"""H8 fumbles over the network: the host judges each seat at its press stamps,
from what the seat could have seen; a far guest's lost race is no fumble."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.net.test_fairness import GUEST_OFFSET, Inbox, guest_stamper
from tests.support import FakeClock
from tests.support.net import LIMIT, join, quick_host, race_position

from spit.bots.sim import new_game
from spit.engine import Action, Kind, call, play
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


def test_H8_the_guests_board_shows_its_fumble_once() -> None:
    """Through a RemoteSession fed by the host's match: the fumble's verdict marks
    the guest's line; the press held back by it adds no second message."""
    from tests.net.test_view import seated

    from spit.play.keys import Row
    from spit.tui.widgets.board import board_texts

    clock = FakeClock()
    game = new_game("spit", (), 5)
    match, v0, _ = seated(game, clock)
    for seat in (0, 1):  # the opening calls
        match.receive_action(
            seat, {"id": 100 + seat, "a": ["call", seat, 0, 0], "at": 0}, clock.now
        )
    clock.now += 0.2
    match.tick(clock.now)
    v0.tick(clock.now)
    legal = game.legal_actions(0)
    blind = next(play(0, s, p) for s in range(5) for p in (0, 1) if play(0, s, p) not in legal)
    v0.press(v0.keymap.key(0, Row(blind.target), blind.source), at=clock.now)
    clock.now += 0.2
    match.tick(clock.now)
    v0.tick(clock.now)
    assert 0 in v0.fumbled
    assert "FUMBLE" in board_texts(v0, clock.now)["p1-info"].plain
    first = v0.flash
    assert first is not None and "fumble" in first.text
    fits = next(a for a in legal if a.kind is Kind.PLAY)
    v0.press(v0.keymap.key(0, Row(fits.target), fits.source), at=clock.now)
    clock.now += 0.1
    match.tick(clock.now)
    v0.tick(clock.now)
    assert v0.flash is not None and v0.flash.text == first.text and v0.flash.count == 1
    assert game.is_legal(fits)  # held back, never tried


def lone_race() -> tuple[Any, Action, Action]:
    """A Spit position in play where seat 2 has one legal action, and seat 1 a play
    that makes it illegal: (game, seat 1's play, seat 2's action)."""
    for seed in range(3000):
        game = new_game("spit", (), seed)
        game.apply(call(0))
        game.apply(call(1))
        theirs = game.legal_actions(1)
        if len(theirs) != 1:
            continue
        for mine in game.legal_actions(0):
            after = game.copy()
            after.apply(mine)
            if not after.is_legal(theirs[0]):
                return game, mine, theirs[0]
    raise AssertionError("no such position")


class Handle:
    def cancel(self) -> None:
        pass


def test_H8_a_computer_on_a_network_seat_never_sends_a_card_that_no_longer_fits() -> None:
    """The bot planned its one play; before its reaction time ran out the opponent's
    card made it illegal: it does not press it blind (it plans again instead)."""
    from spit.bots import make_bot
    from spit.net.botseat import BotDriver

    game, mine, theirs = lone_race()
    timers: list[Any] = []
    sent: list[Action] = []

    def later(delay: float, fire: Any) -> Handle:
        timers.append(fire)
        return Handle()

    bot = make_bot("hard", 1, seed=3, mode="spit")
    assert not bot.watchful  # it keeps its plan while the piles change
    driver = BotDriver(bot, lambda a, at: sent.append(a), lambda: 0.0, later)
    welcome = proto.encode(
        "welcome",
        seat=1,
        mode="spit",
        config=proto.config_json(game.mode, game.config),
        names=["A", "B"],
        window=WINDOW,
        seats=[True, True],
    )
    driver.handle(proto.decode(welcome, proto.HOST_TO_GUEST))
    driver.handle({"t": "state", "obs": proto.observation_json(game, 1)})
    assert len(timers) == 1  # it planned its one play
    game.apply(mine)  # the opponent's card lands first
    driver.handle({"t": "state", "obs": proto.observation_json(game, 1)})
    timers[0]()  # its reaction time runs out
    assert theirs not in sent and sent == []
