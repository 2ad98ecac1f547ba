"""The coaching summary box shown over the board when a game ends (``spit coach``'s figures)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.widgets import Static

if TYPE_CHECKING:
    # the coach's statistics load when a game ends, not with the board
    from spit.store.coaching import Coaching

log = logging.getLogger("spit.tui")

#: The last line of the box: the keys that work while it shows.
KEYS_LINE = "Enter: play again   Esc: menu   F2: hide/show this box"


def session_coaching(session: Any) -> Coaching:
    """The coaching summary of a session's (finished) game."""
    from spit.store.coaching import coach_game
    from spit.store.replays import PlayerInfo, times_from_log

    archiver = session.archiver
    game = session.game
    fumblers = [f.action.player for f in getattr(session.arbiter, "fumbles", ())]
    if archiver is not None:
        times = archiver.times()
        players = archiver.meta.players
        h8 = archiver.meta.h8  # the fumbles of earlier sessions too
        if h8 is not None:
            fumblers = [f.action.player for f in h8.fumbles]
    else:
        arbiter = session.arbiter
        times = times_from_log(arbiter.log, arbiter.start_time)
        times = [0.0] * (len(game.actions) - len(times)) + times
        levels = getattr(session, "levels", {})
        players = tuple(PlayerInfo(session.names[p], levels.get(p)) for p in (0, 1))
    return coach_game(game, times, players, fumblers)


def coaching_text(coaching: Coaching) -> Text:
    """The box's text: a title, each player's figures, the keys."""
    text = Text()
    text.append("How fast were you?\n", style="bold")
    for line in coaching.lines():
        text.append(line + "\n", style="bold" if line and not line.startswith(" ") else "")
    text.append("\n" + KEYS_LINE, style="dim")
    return text


class CoachBox(Static):
    """A bordered box with a game's coaching summary; embed it anywhere."""

    DEFAULT_CSS = """
    CoachBox {
        width: 78;
        height: auto;
        border: heavy $accent;
        background: $panel;
        padding: 0 1;
    }
    """

    def show_coaching(self, coaching: Coaching) -> None:
        """Fill the box with ``coaching``."""
        self.update(coaching_text(coaching))

    def show_session(self, session: Any) -> bool:
        """Fill the box from a finished session; False (and a log line) if it could not."""
        try:
            self.show_coaching(session_coaching(session))
        except Exception:  # coaching is a bonus: never let it break the game screen
            log.exception("cannot coach this game")
            return False
        return True
