"""The message schema, observations and events on the wire, and join codes."""

from __future__ import annotations

import json

import pytest

from spit.bots.sim import new_game
from spit.engine import call, play
from spit.engine.events import CardTurnedUp
from spit.net import protocol as proto
from spit.net.codes import AuthGuard, CodeError, split_code


def line(**fields: object) -> bytes:
    return json.dumps(fields).encode() + b"\n"


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        (b"{not json\n", "not JSON"),
        (b"[1, 2]\n", "not a JSON object"),
        (line(t="nonsense"), "unknown message type"),
        (line(t="action", id=1, a=["play", 0, 0, 0]), "'at' missing"),
        (line(t="action", id="1", a=["play", 0, 0, 0], at=1.0), "'id' has a wrong value"),
        (line(t="action", id=1, a=["play", 0, 0, 0], at=1.0, x=1), "unknown field"),
        (line(t="pong", t0=True, tc=1.0), "'t0' has a wrong value"),
        (b'{"t":"ping","t0":NaN}\n', "'t0' has a wrong value"),
        (line(t="welcome", seat=0, mode="spit", config={}, names=[], window=0), "unknown"),
    ],
)
def test_bad_messages_are_refused_with_a_reason(raw: bytes, why: str) -> None:
    with pytest.raises(proto.ProtocolError, match=why):
        proto.decode(raw, proto.GUEST_TO_HOST)


def test_the_hosts_notice_about_fair_races_is_checked() -> None:
    ok = proto.decode(proto.encode("notice", about="slow", text="too slow"), proto.HOST_TO_GUEST)
    assert ok["about"] == "slow"
    with pytest.raises(proto.ProtocolError, match="'text' missing"):
        proto.decode(line(t="notice", about="slow"), proto.HOST_TO_GUEST)
    with pytest.raises(proto.ProtocolError, match="unknown message type"):
        proto.decode(line(t="notice", about="slow", text="x"), proto.GUEST_TO_HOST)


def test_oversized_message_is_refused() -> None:
    raw = line(t="error", reason="x" * 10) + b" " * proto.MAX_LINE
    with pytest.raises(proto.ProtocolError, match="too long"):
        proto.decode(raw, proto.GUEST_TO_HOST)


def test_good_message_passes() -> None:
    msg = proto.decode(
        proto.encode("action", id=3, a=["play", 1, 2, 0], at=5.5), proto.GUEST_TO_HOST
    )
    assert proto.parse_action(msg["a"]) == play(1, 2, 0)


def test_timing_actions_cannot_come_from_a_guest() -> None:
    with pytest.raises(proto.ProtocolError, match="timing"):
        proto.parse_action(["flip", 2, 0, 0])


def test_other_version_gets_a_clear_sentence() -> None:
    assert proto.version_problem(proto.VERSION) is None
    text = proto.version_problem(proto.VERSION + 1)
    assert text is not None and "newer" in text and "same spit version" in text


@pytest.mark.parametrize("mode", ["spit", "speed"])
def test_observation_round_trip(mode: str) -> None:
    game = new_game(mode, (), 3)
    game.apply(call(0))
    game.apply(call(1))
    for player in (0, 1):
        obs = game.observation(player)
        data = json.loads(json.dumps(proto.observation_json(game, player)))
        assert proto.observation_from_json(data, game.config) == obs


@pytest.mark.parametrize("mode", ["spit", "speed"])
def test_an_observation_of_another_version_is_refused_with_a_reason(mode: str) -> None:
    game = new_game(mode, (), 3)
    data = proto.observation_json(game, 0)
    for other in (data["v"] + 1, True, "1", None):  # True == 1 in Python: still refused
        with pytest.raises(proto.ProtocolError, match="same spit version"):
            proto.observation_from_json({**data, "v": other}, game.config)


@pytest.mark.parametrize("mode", ["spit", "speed"])
def test_a_config_round_trips_and_another_version_is_refused(mode: str) -> None:
    game = new_game(mode, ("V3",), 3)
    data = json.loads(json.dumps(proto.config_json(mode, game.config)))
    assert proto.config_from_json(mode, data) == game.config
    for other in (99, True, None):
        with pytest.raises(proto.ProtocolError, match="version"):
            proto.config_from_json(mode, {**data, "v": other})


def test_observation_with_a_bad_card_is_refused() -> None:
    game = new_game("speed", (), 3)
    data = proto.observation_json(game, 0)
    data["hand"] = [99, None]
    with pytest.raises(proto.ProtocolError, match="card"):
        proto.observation_from_json(data, game.config)


def test_speed_drawn_card_is_hidden_from_the_other_seat_and_spectators() -> None:
    event = CardTurnedUp(0, 2, 17)
    assert proto.event_for(event, "speed", 0).card == 17
    assert proto.event_for(event, "speed", 1).card is None
    assert proto.event_for(event, "speed", None).card is None
    assert proto.event_for(event, "spit", 1).card == 17  # Spit's stock tops are face up


def test_events_round_trip() -> None:
    game = new_game("spit", (), 4)
    events = game.apply(call(0)) + game.apply(call(1))
    data = json.loads(json.dumps(proto.events_json(events, "spit", 0)))
    assert proto.events_from_json(data) == events


def test_unknown_event_is_refused() -> None:
    with pytest.raises(proto.ProtocolError):
        proto.events_from_json([["Teleported", 1]])


def test_code_parts_and_typos() -> None:
    fp, secret = split_code(" ABCDE-FGHJK-MNPQ-RSTV ")
    assert (fp, secret) == ("abcdefghjk", "mnpqrstv")
    with pytest.raises(CodeError):
        split_code("abc")


def test_wrong_codes_are_slowed_more_each_time_then_locked_out() -> None:
    guard = AuthGuard(base_delay=0.5, max_delay=8.0, max_failures=3, lockout=60.0)
    delays = [guard.fail("10.0.0.9", now=1.0) for _ in range(3)]
    assert delays == [0.5, 1.0, 2.0]
    assert guard.locked("10.0.0.9", now=2.0)
    assert not guard.locked("10.0.0.8", now=2.0)
    assert not guard.locked("10.0.0.9", now=62.0)  # the lockout ends
