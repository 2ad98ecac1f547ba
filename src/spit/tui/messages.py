"""What screens tell the app (Textual's "attributes down, messages up").

Screens get the data they need in their constructor and never read or write
the app's attributes; when they need the app to act, they post one of these,
and it bubbles up to ``SpitApp``.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import TYPE_CHECKING

from rich.text import Text
from textual.message import Message

if TYPE_CHECKING:
    from spit.store.replays import Replay
    from spit.store.settings import Settings as UserSettings


def exit_message(lines: list[str]) -> Text | None:
    """What the terminal shows after the app closed (plain text, never markup): the
    ``message`` of ``App.exit``, for the app and for a screen that ends it."""
    return Text("\n".join(lines)) if lines else None


#: What ``PlayRequested`` and ``Opening`` name instead of a game mode to open the tutorial.
TUTORIAL = "tutorial"


class PlayRequested(Message):
    """Open a game of ``mode`` (with computer ``opponents``), or carry on a ``resumed`` match;
    ``replace``: in place of the screen that asked (the setup screen), not over it."""

    def __init__(
        self,
        mode: str,
        opponents: Mapping[int, str] | None = None,
        resumed: Replay | None = None,
        replace: bool = False,
    ) -> None:
        super().__init__()
        self.mode = mode
        self.opponents = dict(opponents or {})
        self.resumed = resumed
        self.replace = replace


class SettingsChanged(Message):
    """The settings file was saved with ``user``: use it from the next game."""

    def __init__(self, user: UserSettings) -> None:
        super().__init__()
        self.user = user


class HostRequested(Message):
    """Host a network game with these ``options`` (``spit host``'s)."""

    def __init__(self, options: argparse.Namespace) -> None:
        super().__init__()
        self.options = options


class JoinRequested(Message):
    """Open the screen that joins a network game."""


class OnlineRequested(Message):
    """Open the lobby of the server at ``host``:``port`` (``spit online``'s)."""

    def __init__(self, host: str, port: int) -> None:
        super().__init__()
        self.host = host
        self.port = port


class ReplayRequested(Message):
    """Watch ``replay`` in the replay viewer (``at``: paused at that time, ``note`` said)."""

    def __init__(self, replay: Replay, at: float | None = None, note: str | None = None) -> None:
        super().__init__()
        self.replay = replay
        self.at = at
        self.note = note
