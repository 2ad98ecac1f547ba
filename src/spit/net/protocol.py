"""The wire protocol: versioned, newline-delimited JSON messages with a checked schema.

Every message is one JSON object on one line, at most ``MAX_LINE`` bytes, with
a ``"t"`` (its type) and the fields ``SCHEMA`` lists for that type. Both ends
check every message they receive with ``decode`` before acting on it; nothing
is ever unpickled or evaluated. Observations and events travel in plain JSON
forms built here; the host builds each seat's own (``observation_json``,
``events_json``), so hidden cards never reach a message.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from typing import Any

from spit.engine import Action, Kind, Phase, SpeedConfig, SpitConfig, action_from_json
from spit.engine import events as ev
from spit.engine.errors import ConfigError, ReplayError
from spit.engine.results import Result
from spit.engine.speed_game import SpeedObservation
from spit.engine.spit_game import PileView, SpitObservation, StockView

#: The protocol version both ends must speak.
VERSION = 1
#: The longest message line a host accepts from a guest (bytes, newline included).
MAX_LINE = 4096
#: The longest line a guest accepts from the host (a replay is the biggest message).
MAX_HOST_LINE = 4 * 1024 * 1024


class ProtocolError(ValueError):
    """A message that breaks the protocol: the reason is safe to show and log."""


# ------------------------------------------------------------------ schema

_Check = Callable[[Any], bool]


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and -(2**63) <= v < 2**63


def _num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _str(limit: int) -> _Check:
    return lambda v: isinstance(v, str) and len(v) <= limit


def _bool(v: Any) -> bool:
    return isinstance(v, bool)


def _obj(v: Any) -> bool:
    return isinstance(v, dict)


def _list(v: Any) -> bool:
    return isinstance(v, list)


def _opt(check: _Check) -> _Check:
    return lambda v: v is None or check(v)


def _seat(v: Any) -> bool:
    return v in (0, 1) and not isinstance(v, bool)


#: The field checks by public name, for protocols built on this one (the server's lobby).
Check = _Check
Schema = dict[str, tuple[dict[str, _Check], dict[str, _Check]]]
is_int, is_number, is_bool, is_object, is_list = _int, _num, _bool, _obj, _list
text_of, optional = _str, _opt

#: message type -> (required fields with checks, optional fields with checks)
SCHEMA: dict[str, tuple[dict[str, _Check], dict[str, _Check]]] = {
    # both ways
    "hello": ({"v": _int, "app": _str(40)}, {"name": _str(40), "role": _str(10)}),
    "ping": ({"t0": _num}, {}),
    "pong": ({"t0": _num, "tc": _num}, {}),
    "error": ({"reason": _str(300)}, {}),
    "bye": ({"reason": _str(300)}, {}),
    # guest -> host
    "action": ({"id": _int, "a": _list, "at": _num}, {}),
    "decide": ({"what": _str(10)}, {}),
    # host -> guest
    "welcome": (
        {"seat": _opt(_seat), "mode": _str(10), "config": _obj, "names": _list, "window": _num},
        {"seats": _list},
    ),
    "verdict": ({"id": _int, "ok": _bool}, {"reason": _str(300)}),
    "events": ({"at": _num, "events": _list}, {"by": _opt(_int), "action": _opt(_list)}),
    "rejected": ({"at": _num, "player": _int, "reason": _str(300)}, {"a": _list}),
    "state": ({"obs": _obj}, {}),
    "paused": ({"why": _str(20)}, {"seat": _opt(_seat), "left": _opt(_num)}),
    "resumed": ({}, {"names": _list}),
    "choose": ({"seat": _seat, "options": _list}, {}),
    "over": ({"winner": _opt(_seat), "result": _str(20), "text": _str(300)}, {}),
    "replay": ({"data": _obj}, {}),
}

HOST_TO_GUEST = frozenset(
    {
        "hello",
        "ping",
        "pong",
        "error",
        "bye",
        "welcome",
        "verdict",
        "events",
        "rejected",
        "state",
        "paused",
        "resumed",
        "choose",
        "over",
        "replay",
    }
)
GUEST_TO_HOST = frozenset({"hello", "ping", "pong", "error", "bye", "action", "decide"})


def encode(kind: str, **fields: Any) -> bytes:
    """One message as a JSON line (compact, newline-terminated)."""
    fields["t"] = kind
    return json.dumps(fields, separators=(",", ":"), allow_nan=False).encode() + b"\n"


def decode(
    line: bytes,
    allowed: frozenset[str],
    limit: int = MAX_LINE,
    schema: Schema | None = None,
) -> dict[str, Any]:
    """Parse and check one received line; raise ProtocolError saying what is wrong.

    ``schema`` is the game's ``SCHEMA`` unless another protocol (the lobby's) gives its own.
    """
    if len(line) > limit:
        raise ProtocolError(f"message too long ({len(line)} bytes, limit {limit})")
    try:
        msg = json.loads(line)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ProtocolError("malformed message: not JSON") from None
    if not isinstance(msg, dict):
        raise ProtocolError("malformed message: not a JSON object")
    kind = msg.get("t")
    if not isinstance(kind, str) or kind not in allowed:
        raise ProtocolError(f"unknown message type {str(kind)[:20]!r}")
    required, optional = (SCHEMA if schema is None else schema)[kind]
    for name, check in required.items():
        if name not in msg:
            raise ProtocolError(f"{kind}: field {name!r} missing")
        if not check(msg[name]):
            raise ProtocolError(f"{kind}: field {name!r} has a wrong value")
    for name, value in msg.items():
        if name == "t" or name in required:
            continue
        allowed_check = optional.get(name)
        if allowed_check is None:
            raise ProtocolError(f"{kind}: unknown field {name[:20]!r}")
        if not allowed_check(value):
            raise ProtocolError(f"{kind}: field {name!r} has a wrong value")
    return msg


def version_problem(v: int) -> str | None:
    """A clear sentence if a peer speaks another protocol version, else None."""
    if v == VERSION:
        return None
    newer = "newer" if v > VERSION else "older"
    return (
        f"the other side speaks spit network protocol {v}, this spit speaks {VERSION}: "
        f"it runs a {newer} spit; both players need the same spit version"
    )


def parse_action(data: list[Any]) -> Action:
    """A player's action from its JSON form; ProtocolError if it is not one."""
    try:
        action = action_from_json(data)
    except ReplayError as exc:
        raise ProtocolError(f"bad action: {exc}") from None
    if action.kind >= Kind.CLOSE:
        raise ProtocolError("only the game itself may send timing actions")
    return action


def any_action(data: list[Any]) -> Action:
    """Any action (a player's or the game's own) from its JSON form, checked."""
    try:
        return action_from_json(data)
    except ReplayError as exc:
        raise ProtocolError(f"bad action: {exc}") from None


# ------------------------------------------------------------------ observations


def config_from_json(mode: str, data: dict[str, Any]) -> SpitConfig | SpeedConfig:
    """The rules config of ``mode`` from its dict form; ProtocolError if invalid."""
    try:
        if mode == "spit":
            return SpitConfig.from_dict(data)
        if mode == "speed":
            return SpeedConfig.from_dict(data)
    except (ConfigError, ValueError, TypeError) as exc:
        raise ProtocolError(f"bad rules config: {exc}") from None
    raise ProtocolError(f"unknown game mode {mode[:10]!r}")


def observation_json(obs: SpitObservation | SpeedObservation) -> dict[str, Any]:
    """A seat's own observation in plain JSON (it holds only what that seat may see)."""
    common: dict[str, Any] = {
        "player": obs.player,
        "phase": obs.phase.value,
        "round_no": obs.round_no,
        "scores": list(obs.scores),
        "games_won": list(obs.games_won),
        "winner": obs.winner,
        "result": obs.result,
        "legal": [a.to_json() for a in obs.legal],
    }
    if isinstance(obs, SpeedObservation):
        common.update(
            mode="speed",
            hand=list(obs.hand),
            opponent_hand_count=obs.opponent_hand_count,
            hand_counts=_hand_counts(obs),
            draw_counts=list(obs.draw_counts),
            side_counts=list(obs.side_counts),
            pile_tops=list(obs.pile_tops),
            pile_sizes=list(obs.pile_sizes),
            ready=list(obs.ready),
        )
        return common
    common.update(
        mode="spit",
        stocks=[[[v.top, v.face_down] for v in side] for side in obs.stocks],
        spit_counts=list(obs.spit_counts),
        piles=[[p.top, p.size, p.in_use] for p in obs.piles],
        called=list(obs.called),
        slaps=[list(s) for s in obs.slaps],
        chooser=obs.chooser,
    )
    return common


def _hand_counts(obs: SpeedObservation) -> list[int]:
    own = sum(1 for c in obs.hand if c is not None)
    counts = [own, obs.opponent_hand_count]
    return counts if obs.player == 0 else counts[::-1]


def _card(v: Any) -> int | None:
    if v is None:
        return None
    if not _int(v) or not 0 <= v < 52:
        raise ProtocolError("observation: a card must be 0..51 or null")
    return int(v)


def _count(v: Any, limit: int = 104) -> int:
    if not _int(v) or not 0 <= v <= limit:
        raise ProtocolError("observation: a count is out of range")
    return int(v)


def _pair(v: Any, item: Callable[[Any], Any]) -> tuple[Any, Any]:
    if not isinstance(v, list) or len(v) != 2:
        raise ProtocolError("observation: expected a pair")
    return item(v[0]), item(v[1])


def _flag(v: Any) -> bool:
    if not isinstance(v, bool):
        raise ProtocolError("observation: expected true or false")
    return v


def observation_from_json(
    data: dict[str, Any], config: SpitConfig | SpeedConfig
) -> SpitObservation | SpeedObservation:
    """Rebuild an observation (as bots use it) from its JSON form, checking every field."""
    try:
        phase = Phase(data["phase"])
        player = data["player"]
        if player not in (0, 1, None) or isinstance(player, bool):
            raise ProtocolError("observation: bad player")
        legal_raw = data["legal"]
        if not isinstance(legal_raw, list) or len(legal_raw) > 64:
            raise ProtocolError("observation: bad legal list")
        legal = tuple(parse_action(a) for a in legal_raw)
        winner = data["winner"]
        if winner not in (0, 1, None) or isinstance(winner, bool):
            raise ProtocolError("observation: bad winner")
        try:
            result = Result(data["result"])
        except (ValueError, TypeError):
            raise ProtocolError("observation: bad result") from None
        scores = _pair(data["scores"], lambda v: _count(v, 10**6))
        games_won = _pair(data["games_won"], lambda v: _count(v, 10**6))
        round_no = _count(data["round_no"], 10**6)
        mode = data["mode"]
        if mode == "speed" and isinstance(config, SpeedConfig):
            hand_raw = data["hand"]
            if not isinstance(hand_raw, list) or len(hand_raw) > 5:
                raise ProtocolError("observation: bad hand")
            return SpeedObservation(
                player=player,
                phase=phase,
                round_no=round_no,
                config=config,
                hand=tuple(_card(c) for c in hand_raw),
                opponent_hand_count=_count(data["opponent_hand_count"], 5),
                draw_counts=_pair(data["draw_counts"], _count),
                side_counts=_pair(data["side_counts"], _count),
                pile_tops=_pair(data["pile_tops"], _card),
                pile_sizes=_pair(data["pile_sizes"], _count),
                ready=_pair(data["ready"], _flag),
                scores=scores,
                games_won=games_won,
                winner=winner,
                result=result,
                legal=legal,
            )
        if mode == "spit" and isinstance(config, SpitConfig):
            sides = data["stocks"]
            if not isinstance(sides, list) or len(sides) != 2:
                raise ProtocolError("observation: bad stocks")
            stocks = []
            for side in sides:
                if not isinstance(side, list) or len(side) > 5:
                    raise ProtocolError("observation: bad stocks")
                views = []
                for v in side:
                    if not isinstance(v, list) or len(v) != 2:
                        raise ProtocolError("observation: bad stock")
                    views.append(StockView(_card(v[0]), _count(v[1])))
                stocks.append(tuple(views))
            piles = []
            for p in data["piles"] if isinstance(data["piles"], list) else []:
                if not isinstance(p, list) or len(p) != 3:
                    raise ProtocolError("observation: bad pile")
                piles.append(PileView(_card(p[0]), _count(p[1]), _flag(p[2])))
            if len(piles) != 2:
                raise ProtocolError("observation: bad piles")
            slaps_raw = data["slaps"]
            if not isinstance(slaps_raw, list) or len(slaps_raw) > 4:
                raise ProtocolError("observation: bad slaps")
            slaps = tuple(_pair(s, _count) for s in slaps_raw)
            chooser = data["chooser"]
            if chooser not in (0, 1, None) or isinstance(chooser, bool):
                raise ProtocolError("observation: bad chooser")
            return SpitObservation(
                player=player,
                phase=phase,
                round_no=round_no,
                config=config,
                stocks=(stocks[0], stocks[1]),
                spit_counts=_pair(data["spit_counts"], _count),
                piles=(piles[0], piles[1]),
                called=_pair(data["called"], _flag),
                slaps=slaps,
                chooser=chooser,
                scores=scores,
                games_won=games_won,
                winner=winner,
                result=result,
                legal=legal,
            )
        raise ProtocolError("observation: wrong game mode")
    except KeyError as exc:
        raise ProtocolError(f"observation: field {exc.args[0]!r} missing") from None
    except (TypeError, ValueError) as exc:
        if isinstance(exc, ProtocolError):
            raise
        raise ProtocolError(f"observation: {exc}") from None


# ------------------------------------------------------------------ events

EVENT_TYPES: dict[str, Any] = {
    cls.__name__: cls
    for cls in (
        ev.PhaseChanged,
        ev.Dealt,
        ev.CardPlayed,
        ev.CardTurnedUp,
        ev.CardMoved,
        ev.SpitCalled,
        ev.Spat,
        ev.Stalemate,
        ev.RoundOver,
        ev.Scored,
        ev.Slapped,
        ev.PileTaken,
        ev.SidePilesRebuilt,
        ev.GameWon,
        ev.GameDrawn,
        ev.GameOver,
    )
}


def event_for(event: ev.Event, mode: str, seat: int | None) -> ev.Event:
    """``event`` as ``seat`` may see it (None: a spectator).

    In Speed the card a player draws into their hand is hidden from everyone
    else: the event keeps its place, the card becomes None. Spit's turned-up
    stock cards are face up for all to see.
    """
    if mode == "speed" and isinstance(event, ev.CardTurnedUp) and event.player != seat:
        return event._replace(card=None)  # hidden: no card
    return event


def events_json(events: Iterable[ev.Event], mode: str, seat: int | None) -> list[list[Any]]:
    """Events in plain JSON as ``seat`` may see them: ``[type, field, ...]``."""
    out: list[list[Any]] = []
    for event in events:
        shown = event_for(event, mode, seat)
        out.append([type(shown).__name__, *(_plain(v) for v in shown)])
    return out


def _plain(v: Any) -> Any:
    return list(v) if isinstance(v, tuple) else v


def _field_ok(v: Any) -> bool:
    if v is None or isinstance(v, bool) or _int(v):
        return True
    if isinstance(v, str):
        return len(v) <= 40
    if isinstance(v, list):
        return len(v) <= 8 and all(_int(x) for x in v)
    return False


def events_from_json(data: list[Any]) -> list[ev.Event]:
    """Events from their JSON form; ProtocolError if any is not a known event."""
    if len(data) > 64:
        raise ProtocolError("too many events in one message")
    out: list[ev.Event] = []
    for item in data:
        if not isinstance(item, list) or not item or not isinstance(item[0], str):
            raise ProtocolError("malformed event")
        cls = EVENT_TYPES.get(item[0])
        if cls is None:
            raise ProtocolError(f"unknown event {item[0][:20]!r}")
        fields = item[1:]
        if len(fields) != len(cls._fields) or not all(_field_ok(v) for v in fields):
            raise ProtocolError(f"malformed {item[0]} event")
        out.append(cls(*(tuple(v) if isinstance(v, list) else v for v in fields)))
    return out
