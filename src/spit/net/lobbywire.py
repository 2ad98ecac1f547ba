"""The server lobby's messages: the same JSON lines as a match, with a schema of their own.

A ``spit online`` client opens the ``spit-lobby`` subsystem on its SSH
connection to a ``spit server`` and exchanges these messages; a match it is
paired into runs on a second channel of the same connection (subsystem
``spit:<match id>``) with the match protocol of ``spit.net.protocol``.
"""

from __future__ import annotations

from typing import Any

from spit.net import protocol as proto
from spit.net.protocol import is_bool, is_int, is_list, is_number, is_object, optional, text_of

LOBBY_SUBSYSTEM = "spit-lobby"
MATCH_SUBSYSTEM_PREFIX = "spit:"
#: The lobby protocol's version (both ends must speak it).
LOBBY_VERSION = 1
#: The longest lobby line a server accepts from a client.
MAX_CLIENT_LINE = 2048

_mode = text_of(10)
_name = text_of(40)

SCHEMA: proto.Schema = {
    # both ways
    "hello": ({"v": is_int, "app": text_of(40)}, {"name": _name}),
    "ping": ({"t0": is_number}, {}),
    "pong": ({"t0": is_number, "tc": is_number}, {}),
    "error": ({"reason": text_of(300)}, {}),
    "bye": ({"reason": text_of(300)}, {"again": is_bool}),
    # client -> server
    "claim": ({"name": _name}, {}),
    "newlink": ({}, {}),
    "link": ({"code": text_of(20)}, {}),
    "queue": ({"mode": _mode}, {"bot_after": optional(is_number)}),
    "unqueue": ({}, {}),
    "challenge": ({"name": _name, "mode": _mode}, {}),
    "answer": ({"id": is_int, "accept": is_bool}, {}),
    "room": ({"mode": _mode}, {}),
    "enter": ({"code": text_of(20)}, {}),
    "watch": ({"match": text_of(20)}, {}),
    "delays": ({"ms": is_object}, {}),
    "board": ({"mode": _mode}, {}),
    "daily": ({"mode": _mode}, {"play": is_bool}),
    "games": ({}, {}),
    "fetch": ({"id": is_int}, {}),
    "admin": ({"cmd": text_of(10)}, {"arg": text_of(200)}),
    # server -> client
    "welcome": ({"guest": is_bool, "name": optional(_name)}, {"ratings": is_object}),
    "needname": ({}, {"problem": text_of(300)}),
    "linkcode": ({"code": text_of(20), "minutes": is_int}, {}),
    "lobby": ({"online": is_list, "matches": is_list, "queue": is_object}, {"nodes": is_list}),
    "queued": ({"mode": _mode}, {"wave": is_number}),
    "unqueued": ({}, {}),
    "matched": (
        {"match": text_of(20), "seat": optional(is_int), "mode": _mode, "names": is_list},
        {
            "rated": is_bool,
            "daily": is_bool,
            "address": text_of(300),
            "pin": text_of(100),
            "token": text_of(40),
            "resumed": is_bool,
        },
    ),
    "challenged": ({"id": is_int, "by": _name, "mode": _mode}, {}),
    "roomcode": ({"code": text_of(20), "mode": _mode}, {}),
    "standings": ({"mode": _mode, "rows": is_list}, {"me": text_of(200)}),
    "dailyinfo": (
        {"mode": _mode, "day": text_of(10), "level": text_of(10)},
        {"played": is_bool, "rows": is_list, "streak": is_int, "share": text_of(200)},
    ),
    "gamelist": ({"rows": is_list}, {}),
    "replayfile": ({"id": is_int, "data": is_object}, {}),
    "result": (
        {"text": text_of(300)},
        {"ratings": is_object, "share": text_of(200), "coaching": is_list},
    ),
    "info": ({"text": text_of(300)}, {}),
    "adminout": ({"lines": is_list}, {}),
}

CLIENT_TO_SERVER = frozenset(
    {
        "newlink",
        "link",
        "hello",
        "ping",
        "pong",
        "error",
        "bye",
        "claim",
        "queue",
        "unqueue",
        "challenge",
        "answer",
        "room",
        "enter",
        "watch",
        "delays",
        "board",
        "daily",
        "games",
        "fetch",
        "admin",
    }
)
SERVER_TO_CLIENT = frozenset(
    {
        "linkcode",
        "hello",
        "ping",
        "pong",
        "error",
        "bye",
        "welcome",
        "needname",
        "lobby",
        "queued",
        "unqueued",
        "matched",
        "challenged",
        "roomcode",
        "standings",
        "dailyinfo",
        "gamelist",
        "replayfile",
        "result",
        "info",
        "adminout",
    }
)


def encode(kind: str, **fields: Any) -> bytes:
    """One lobby message as a JSON line."""
    return proto.encode(kind, **fields)


def decode_from_client(line: bytes) -> dict[str, Any]:
    """A checked message from a client (ProtocolError says what is wrong)."""
    return proto.decode(line, CLIENT_TO_SERVER, MAX_CLIENT_LINE, SCHEMA)


def decode_from_server(line: bytes) -> dict[str, Any]:
    """A checked message from the server."""
    return proto.decode(line, SERVER_TO_CLIENT, proto.MAX_HOST_LINE, SCHEMA)
