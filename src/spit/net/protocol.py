"""The wire protocol: versioned, newline-delimited JSON messages with a checked schema.

Every message is one JSON object on one line, at most ``MAX_LINE`` bytes, with
a ``"t"`` (its type) and the fields ``SCHEMA`` lists for that type. Both ends
check every message they receive with ``decode`` before acting on it; nothing
is ever unpickled or evaluated. Observations, configs and events travel in the
plain JSON forms of the mode's own observer (``spit.engine.observers``): the
host builds each seat's own (``observation_json``, ``events_json``), so hidden
cards never reach a message, and this module never asks which mode it is.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from typing import Any

from spit.engine import Action, AnyGame, Kind, Mode, action_from_json, get_mode
from spit.engine import events as ev
from spit.engine.errors import ConfigError, EngineError, ReplayError
from spit.engine.observers import Table

#: The protocol version both ends must speak (2: observations and configs carry
#: their mode's own version, ``spit.engine.observers``; the host's ``notice``;
#: 3: the host's game clock, ``played``; a computer guest's level, ``bot``).
VERSION = 3
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
    """A finite number that converts to a float (an int beyond 2**63 does not, safely)."""
    if isinstance(v, float):
        return math.isfinite(v)
    return _int(v)


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
    "hello": (
        {"v": _int, "app": _str(40)},
        {"name": _str(40), "role": _str(10), "bot": _str(20)},
    ),
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
        {"seats": _list, "played": _num},
    ),
    "verdict": ({"id": _int, "ok": _bool}, {"reason": _str(300), "fumble": _num}),
    "events": ({"at": _num, "events": _list}, {"by": _opt(_int), "action": _opt(_list)}),
    "rejected": ({"at": _num, "player": _int, "reason": _str(300)}, {"a": _list}),
    "state": ({"obs": _obj}, {}),
    "paused": ({"why": _str(20)}, {"seat": _opt(_seat), "left": _opt(_num), "played": _num}),
    "resumed": ({}, {"names": _list, "played": _num}),
    "choose": ({"seat": _seat, "options": _list}, {}),
    "notice": ({"about": _str(10), "text": _str(300)}, {}),
    "over": ({"winner": _opt(_seat), "result": _str(20), "text": _str(300)}, {"played": _num}),
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
        "notice",
        "over",
        "replay",
    }
)
GUEST_TO_HOST = frozenset({"hello", "ping", "pong", "error", "bye", "action", "decide"})


#: one encoder for every message (``json.dumps`` with options builds a new one per call)
_ENCODER = json.JSONEncoder(separators=(",", ":"), allow_nan=False)


def encode(kind: str, **fields: Any) -> bytes:
    """One message as a JSON line (compact, newline-terminated)."""
    fields["t"] = kind
    return _ENCODER.encode(fields).encode() + b"\n"


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


def _mode(name: object) -> Mode:
    if not isinstance(name, str):
        raise ProtocolError("unknown game mode")
    try:
        return get_mode(name)
    except ConfigError:
        raise ProtocolError(f"unknown game mode {name[:10]!r}") from None


def config_json(mode: str, config: Any) -> dict[str, Any]:
    """The rules config of ``mode`` in its versioned JSON form (``Mode.config_json``)."""
    return get_mode(mode).config_json(config)


def config_from_json(mode: str, data: dict[str, Any]) -> Any:
    """The rules config of ``mode`` from its JSON form; ProtocolError if invalid."""
    info = _mode(mode)
    try:
        return info.config_from_json(data)
    except ConfigError as exc:
        raise ProtocolError(f"bad rules config: {exc}") from None


def observation_json(game: AnyGame, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) may see of ``game``, in plain JSON: the
    mode's observer decides (``Observer.observe``)."""
    return game.info.observer().observe(game, seat)


def observation_from_json(data: dict[str, Any], config: Any) -> Any:
    """Rebuild an observation (as bots use it) from its JSON form, checking every field."""
    info = _mode(data.get("mode"))
    if not isinstance(config, info.config_class):
        raise ProtocolError("observation: wrong game mode")
    try:
        return info.observer().from_json(data, config)
    except EngineError as exc:
        raise ProtocolError(str(exc)) from None
    except (TypeError, ValueError) as exc:
        raise ProtocolError(f"observation: {exc}") from None


def table_of(mode: str, obs: Any) -> Table:
    """What a board draws of ``obs`` (an observation of ``mode``)."""
    return get_mode(mode).observer().table(obs)


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
    """``event`` as ``seat`` may see it (None: a spectator): the mode's observer
    decides (``Observer.event_for``; e.g. Speed hides a drawn card from the others)."""
    return get_mode(mode).observer().event_for(event, seat)


def events_json(events: Iterable[ev.Event], mode: str, seat: int | None) -> list[list[Any]]:
    """Events in plain JSON as ``seat`` may see them: ``[type, field, ...]``."""
    out: list[list[Any]] = []
    for shown in get_mode(mode).observer().events_for(events, seat):
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
