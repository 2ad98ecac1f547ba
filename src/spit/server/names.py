"""Which names a player may claim on a server, and the key that makes them unique.

A name is 3 to 20 characters: letters, digits, ``_`` and ``-``, starting with
a letter. It is shown as it was typed and compared without regard to case, so
"Ann" and "ann" cannot both exist. Names that would mislead (a computer
level, "guest", "admin", …) are reserved. Markup characters can never be part
of a name, so a name is safe to show in any screen or log line.
"""

from __future__ import annotations

import re

MIN_LENGTH = 3
MAX_LENGTH = 20
_PATTERN = re.compile(r"[A-Za-z][A-Za-z0-9_-]*\Z")
#: Names nobody may claim: they would pass for the server, a guest or a computer player.
RESERVED = frozenset(
    {
        "admin",
        "administrator",
        "bot",
        "computer",
        "easy",
        "expert",
        "guest",
        "hard",
        "host",
        "match-me",
        "medium",
        "moderator",
        "nobody",
        "operator",
        "player",
        "root",
        "server",
        "spit",
        "speed",
        "system",
        "watch",
    }
)


def name_key(name: str) -> str:
    """The form two names are compared in: equal keys are the same name."""
    return name.casefold()


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be claimed, in words for the player, or None if it can."""
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH:
        return f"A name has {MIN_LENGTH} to {MAX_LENGTH} characters."
    if not _PATTERN.match(name):
        return "A name starts with a letter and has only letters, digits, _ and -."
    key = name_key(name)
    if key in RESERVED or key.startswith(("player", "guest")):
        return f"“{name}” is kept for the server; choose another name."
    return None
