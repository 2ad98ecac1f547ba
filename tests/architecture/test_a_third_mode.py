"""A third game mode, registered by a test, plays everywhere with no change to ``src/``.

``tests/support/duel.py`` is the whole mode (rules, config, observer, Mode
record), with a private hand. It is played locally at the keyboard through a
``Session``, against a computer through the arbiter, over a loopback host
with two computer guests, a guest's board view and a spectator (neither the
spectator nor the other guest ever receives a card of a hand that is not
theirs: every message is checked), then saved and replayed.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.support import FakeClock
from tests.support.duel import DUEL, HAND, DuelGame
from tests.support.net import LIMIT, join, quick_host

from spit.engine import (
    Action,
    Kind,
    Phase,
    card_name,
    dumps,
    get_mode,
    loads,
    mode_names,
    register_mode,
)
from spit.engine.modes import unregister_mode
from spit.engine.observers import HIDDEN
from spit.net import protocol as proto
from spit.net.botseat import BotDriver
from spit.net.view import RemoteSession
from spit.play.keys import Row
from spit.play.session import Session
from spit.realtime.arbiter import Arbiter, Timing
from spit.store.replays import load_replay, verify_file
from spit.tui.widgets.board import board_texts

#: the fields a Duel observation may hold: nothing else can carry a card
DUEL_KEYS = {
    *("mode", "v", "player", "phase", "round_no", "scores", "games_won", "winner", "result"),
    *("legal", "hand", "other_hand", "draw_counts", "pile_tops", "pile_sizes", "called"),
    "timer",
}
#: where each event type keeps its card (index in the JSON form)
CARD_AT = {"CardPlayed": 4, "CardTurnedUp": 3, "CardMoved": 4, "Spat": 3}


@pytest.fixture(autouse=True)
def duel() -> Iterator[None]:
    register_mode(DUEL)
    yield
    unregister_mode("duel")


class FirstFit:
    """A computer player for Duel: the first legal action, after a short while."""

    watchful = False
    skips_when_stuck = True

    def __init__(self, delay: float = 0.01) -> None:
        self.delay = delay

    def plan(self, observation: Any, now: float) -> tuple[float, Action] | None:
        legal = observation.legal
        return (self.delay, legal[0]) if legal else None

    def keeps(self, observation: Any, action: Action) -> bool:
        return action in observation.legal


def test_the_registry_knows_the_mode_only_while_the_test_registers_it() -> None:
    assert mode_names()[-1] == "duel" and get_mode("duel").observer().hides_events
    unregister_mode("duel")
    assert "duel" not in mode_names()
    register_mode(DUEL)


def test_two_people_play_duel_at_one_keyboard_and_the_board_draws_it() -> None:
    clock = FakeClock()
    game = DuelGame(None, 11)
    session = Session.local(game, clock=clock)
    keys = session.keymap
    for player in (0, 1):
        session.press(keys.calls[player], at=clock.now)
    clock.now += 0.01
    session.tick(clock.now)
    assert game.phase is Phase.PLAY
    for _ in range(200):
        if game.over:
            break
        action = game.legal_actions(0)[:1] or game.legal_actions(1)[:1]
        assert action, "a game in play has a legal action, or it is over"
        p, s, t = action[0].player, action[0].source, action[0].target
        assert session.press(keys.key(p, Row(t), s), at=clock.now)
        clock.now += keys.repeat_window + 0.1  # not a held key's repeat
        session.tick(clock.now)
        text = "".join(str(region) for region in board_texts(session, clock.now).values())
        for c in game.hands[0] + game.hands[1]:  # two people at one keyboard: both shown
            assert c is None or card_name(c) in text
    assert game.over and len(game.actions) > 10
    assert session.result_text()


def test_duel_against_a_computer_through_the_arbiter_saves_and_replays() -> None:
    clock = FakeClock()
    game = DuelGame(None, 5)
    arbiter = Arbiter(game, Timing(auto_spit=0.1), clock, {0: FirstFit(), 1: FirstFit(0.02)})
    for _ in range(2000):
        if game.over:
            break
        clock.now += 0.05
        arbiter.tick(clock.now)
    assert game.over
    again = loads(dumps(game))
    assert isinstance(again, DuelGame) and again.fingerprint() == game.fingerprint()


def _cards_seen(msg: dict[str, Any]) -> set[int]:
    """Every card id a message shows (its observation's hand and tops, its events' cards)."""
    seen: set[int] = set()
    if msg["t"] == "state":
        obs = msg["obs"]
        assert set(obs) <= DUEL_KEYS, set(obs)
        seen.update(c for c in obs["hand"] + obs["pile_tops"] if c is not None and c != HIDDEN)
    elif msg["t"] == "events":
        for event in msg["events"]:
            at = CARD_AT.get(event[0])
            if at is not None and event[at] is not None:
                seen.add(event[at])
    return seen


def _check_private(messages: list[dict[str, Any]], seat: int | None, game: DuelGame) -> None:
    """No message before the game's replay shows a card of a hand that is not ``seat``'s
    before it reaches a pile; the replay (the whole game, after the end) comes last."""
    played: set[int] = {game.piles[0][0], game.piles[1][0]}  # the first tops are public
    kinds = [m["t"] for m in messages]
    end = kinds.index("replay")
    assert set(kinds[end + 1 :]) <= {"bye", "over"}
    for msg in messages[:end]:
        if msg["t"] == "events":
            for event in msg["events"]:
                if event[0] in ("CardPlayed", "Spat"):  # onto a pile: public from now on
                    played.add(event[CARD_AT[event[0]]])
                if event[0] == "CardTurnedUp" and event[1] != seat:
                    assert event[3] is None, f"seat {seat} saw another's drawn card"
        if msg["t"] == "state":
            # a pile's top is public: one played before this seat (a late spectator)
            # came in shows here without the event that played it
            played.update(c for c in msg["obs"]["pile_tops"] if c is not None)
            hand = msg["obs"]["hand"]
            if seat is None:
                assert all(c in (None, HIDDEN) for c in hand)
        seen = _cards_seen(msg)
        secret = seen - played
        if seat is not None and msg["t"] == "state":
            secret -= {c for c in msg["obs"]["hand"] if c is not None}
        if seat is not None and msg["t"] == "events":
            secret -= {e[3] for e in msg["events"] if e[0] == "CardTurnedUp" and e[1] == seat}
        assert not secret, f"seat {seat} was shown {secret} from another's hand"


async def _over_loopback(tmp: Path) -> None:
    game = DuelGame(None, 7)
    host = quick_host(game, record=True)
    await host.start()
    loop = asyncio.get_running_loop()
    guests = []
    try:
        view = RemoteSession(None)  # a guest's board, fed seat 2's messages
        for seat in (0, 1):
            guest, recorder = await join(host, seat)
            driver = BotDriver(FirstFit(), guest.action, time.monotonic, loop.call_later)

            def forward(msg: dict[str, Any], driver: BotDriver = driver, seat: int = seat) -> None:
                driver.handle(msg)
                if seat == 1:
                    view.receive(msg)

            recorder.forward = forward
            for msg in recorder.messages:
                forward(msg)
            guests.append((guest, recorder))
        watcher, spectator = await join(host, None)
        guests.append((watcher, spectator))
        await asyncio.wait_for(host.run(), LIMIT)
        assert game.over and len(game.actions) > 10
        for _, recorder in guests:
            await recorder.wait_for(lambda m: m["t"] == "replay")
        for seat, (_, recorder) in zip((0, 1, None), guests, strict=True):
            _check_private(recorder.messages, seat, game)
        # the guest's board drew Duel from its observations: its own hand, the other's face down
        assert view.game.mode == "duel" and view.game.over
        assert view.game.reserve_size(0) == len(game.draw[0])
        text = board_texts(view, time.monotonic())
        assert text
        # the other guest's and the spectator's views of seat 1's hand: face down only
        states = [m for m in guests[1][1].messages if m["t"] == "state"]
        assert all(len(m["obs"]["hand"]) == HAND for m in states)
    finally:
        await host.close("the host closed the game")
    for guest, _ in guests:
        await asyncio.wait_for(guest.done.wait(), 5)
        await guest.close()
    replays = list((tmp / "data" / "replays").glob("*.json"))
    assert len(replays) == 1
    assert json.loads(replays[0].read_text())["fingerprint"] == game.fingerprint()
    ok, line = verify_file(replays[0])
    assert ok and "duel" in line
    replay = load_replay(replays[0])
    assert replay.final.fingerprint() == game.fingerprint()
    assert [a for _, a in replay.timed] == game.actions


async def test_duel_over_loopback_hides_each_hand_and_is_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SPIT_CONFIG", str(tmp_path / "config" / "config.toml"))
    monkeypatch.setenv("SPIT_DATA_DIR", str(tmp_path / "data"))
    await asyncio.wait_for(_over_loopback(tmp_path), LIMIT + 10)


def test_a_duel_observation_round_trips_and_a_spectator_sees_no_hand() -> None:
    game = DuelGame(None, 3)
    for seat in (0, 1):
        data = json.loads(json.dumps(proto.observation_json(game, seat)))
        assert proto.observation_from_json(data, game.config) == game.observation(seat)
    public = proto.observation_json(game, None)
    assert public["hand"] == [HIDDEN] * HAND and public["legal"] == []
    assert not set(public["hand"]) & set(game.hands[0] + game.hands[1])
    assert Kind.PLAY in DuelGame.PLAYER_KINDS[Phase.PLAY]
