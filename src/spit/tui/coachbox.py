"""The box shown over the board when a game ends: the result first, then, on a key,
how fast each player was (``spit coach``'s figures) and the moments to watch again.

F2 goes round three looks: the result (who won, the score, the time), the
result with "How fast were you?" under it, and no box (the last table alone).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.widgets import Static

if TYPE_CHECKING:
    # the coach's statistics load when a game ends, not with the board
    from spit.store.coaching import Coaching
    from spit.store.replays import Replay

log = logging.getLogger("spit.tui")

#: The box's looks, in the order F2 goes round them.
RESULT, COACHING, HIDDEN = "result", "coaching", "hidden"
LOOKS = (RESULT, COACHING, HIDDEN)
#: The last line of the box in each look: the keys that work while it shows.
KEYS_LINES = {
    RESULT: "Enter: play again   Esc: menu   F2: how fast were you?   F3: moments",
    COACHING: "Enter: play again   Esc: menu   F2: hide this box   F3: moments",
}
KEYS_LINE = KEYS_LINES[COACHING]


def _timed_players(session: Any) -> tuple[list[float], Any, list[int]]:
    """A session's action times (seconds since the game began), its players, and who
    made each of its fumbles (H8)."""
    from spit.store.replays import PlayerInfo, times_from_log

    archiver = session.archiver
    game = session.game
    fumblers = [f.action.player for f in getattr(session.arbiter, "fumbles", ())]
    if archiver is not None:
        h8 = archiver.meta.h8  # the fumbles of earlier sessions too
        if h8 is not None:
            fumblers = [f.action.player for f in h8.fumbles]
        return archiver.times(), archiver.meta.players, fumblers
    arbiter = session.arbiter
    times = times_from_log(arbiter.log, arbiter.start_time)
    times = [0.0] * (len(game.actions) - len(times)) + times
    levels = getattr(session, "levels", {})
    players = tuple(PlayerInfo(session.names[p], levels.get(p)) for p in (0, 1))
    return times, players, fumblers


def session_coaching(session: Any) -> Coaching:
    """The coaching summary of a session's (finished) game."""
    from spit.store.coaching import coach_game

    times, players, fumblers = _timed_players(session)
    return coach_game(session.game, times, players, fumblers)


def session_replay(session: Any) -> Replay:
    """A session's (finished) game as a replay, for the viewer (nothing is written)."""
    import json

    from spit.store.replays import new_meta, parse_replay, replay_data

    times, players, _ = _timed_players(session)
    meta = getattr(session.archiver, "meta", None) or new_meta(players)
    return parse_replay(json.dumps(replay_data(session.game, times, meta)))


def coaching_text(coaching: Coaching) -> Text:
    """The "How fast were you?" text: each player's figures."""
    text = Text()
    text.append("How fast were you?\n", style="bold")
    for line in coaching.lines():
        text.append(line + "\n", style="bold" if line and not line.startswith(" ") else "")
    return text


def result_text(lines: list[str]) -> Text:
    """The result: the first line in large type's stead (bold, reversed), then the rest."""
    text = Text()
    for i, line in enumerate(lines):
        text.append(f" {line} " if i == 0 else line, style="bold reverse" if i == 0 else "bold")
        text.append("\n")
    return text


class CoachBox(Static):
    """A bordered box with a finished game's result and coaching; embed it anywhere."""

    DEFAULT_CSS = """
    CoachBox {
        width: 78;
        height: auto;
        border: heavy $accent;
        background: $panel;
        padding: 0 1;
    }
    """

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        #: which of ``LOOKS`` the box shows
        self.look = RESULT
        self.result: list[str] = []
        self.coaching: Coaching | None = None

    def show_coaching(self, coaching: Coaching) -> None:
        """Fill the box with ``coaching`` (and no result), as it looks with the figures."""
        self.coaching = coaching
        self.look = COACHING
        self.paint()

    def show_session(self, session: Any) -> bool:
        """Fill the box from a finished session: the result, and its coaching (a log
        line and no figures if that could not be worked out). False if nothing could."""
        from spit.play.endtable import result_lines
        from spit.play.texts import clock_text

        try:
            clock = clock_text(session.game_time(session.clock()))
            self.result = result_lines(session.table, session.names, clock)
        except Exception:  # the box is a bonus: never let it break the game screen
            log.exception("cannot sum up this game")
            return False
        try:
            self.coaching = session_coaching(session)
        except Exception:
            log.exception("cannot coach this game")
            self.coaching = None
        self.look = RESULT
        self.paint()
        return True

    def next_look(self) -> str:
        """F2: the next look (result, with coaching, hidden); returns it."""
        self.look = LOOKS[(LOOKS.index(self.look) + 1) % len(LOOKS)]
        if self.look != HIDDEN:
            self.paint()
        return self.look

    def paint(self) -> None:
        """Draw the box's text for its look."""
        text = result_text(self.result) if self.result else Text()
        if self.look == COACHING:
            if self.result:
                text.append("\n")
            if self.coaching is not None:
                text.append_text(coaching_text(self.coaching))
            else:
                text.append("No figures for this game.\n", style="dim")
        text.append("\n" + KEYS_LINES.get(self.look, KEYS_LINE), style="dim")
        self.set_class(self.look == RESULT, "-result")
        self.update(text)
