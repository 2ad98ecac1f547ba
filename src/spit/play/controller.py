"""The game screen's controller: the tick loop, wake-ups, pauses, saving, coaching.

``GameController`` runs one ``Session`` for a screen that only draws: the
screen hands it keys (``press``) and the clock's time (``tick``), and is told
what to draw, what to show (a round's summary, the coaching at the end, the
bell) and when to wake up next. It knows no Textual, so tests drive it with
a fake clock.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from spit.engine.events import GameDrawn, GameWon, Spat, Stalemate
from spit.play.effects import Effects
from spit.play.session import RoundSummary, Session
from spit.realtime.arbiter import Applied, Outcome

log = logging.getLogger("spit.play")

#: the shortest wait before a wake-up: never spin faster than 200 Hz
MIN_WAIT = 0.005
#: the events that ring the bell (with the sound setting on)
BELL_EVENTS = (Stalemate, Spat, GameWon, GameDrawn)


@dataclass(frozen=True, slots=True)
class Update:
    """What a tick asks of the screen."""

    repaint: bool  #: something on the board changed
    summary: RoundSummary | None = None  #: a finished round of a match to show (the game waits)
    coach: bool = False  #: the game just ended: show the coaching box
    bell: bool = False  #: ring the terminal bell


class GameController:
    """One game at the keyboard, for a screen that only draws.

    ``real_time``: key events' own times count and the screen wakes up for
    timers (the real clock); ``effects``: the board's brief highlights (off:
    reduce motion); ``sound``: the bell on a stalemate, a spit and the end.
    """

    def __init__(
        self,
        session: Session,
        real_time: bool = True,
        effects: Effects | None = None,
        sound: bool = False,
    ) -> None:
        self.session = session
        self.real_time = real_time
        self.effects = effects if effects is not None else Effects(enabled=False)
        self.sound = sound
        #: why the game clock is stopped (help, pause, size, round, leave, error…)
        self.pauses: set[str] = set()
        self._painted = -1  #: the session version last drawn
        self.coached = False  #: the coaching was shown for this game
        self._bell = False
        self._now = session.clock()
        session.listeners.append(self._heard)

    def _heard(self, outcomes: list[Outcome]) -> None:
        """The arbiter's outcomes: the effects they call for, and the bell."""
        self.effects.note(outcomes, self._now)
        if self.sound:
            for outcome in outcomes:
                if isinstance(outcome, Applied) and any(
                    isinstance(event, BELL_EVENTS) for event in outcome.events
                ):
                    self._bell = True

    @property
    def paused(self) -> bool:
        """True while the game clock is stopped for any reason."""
        return bool(self.pauses)

    # ------------------------------------------------------------------ input

    def press(self, key: str, stamp: float, now: float) -> bool:
        """A key went down (at ``stamp`` by the key event, read at ``now``); True if it is
        a game key (then the screen passes it on to nothing else). Paused: ignored."""
        session = self.session
        if session.keymap.lookup(key) is None:
            return False
        if self.pauses:
            return True
        self._now = now
        session.press(key, min(stamp, now) if self.real_time else now, now)
        return True

    # ------------------------------------------------------------------- time

    def drawn(self) -> None:
        """The screen has just drawn the session as it is now: the next ``tick``
        asks for a repaint only once the session changes again."""
        self._painted = self.session.version

    def tick(self, now: float) -> Update:
        """Run the game up to ``now``; what the screen should do about it."""
        session = self.session
        self._now = now
        session.tick(now)
        if self.effects.expire(now):
            session.changed()
        summary = None
        if session.summaries and "round" not in self.pauses:
            summary = session.summaries.pop(0)
        coach = session.game.over and not self.coached
        if coach:
            self.coached = True
        repaint = session.version != self._painted
        self._painted = session.version
        bell, self._bell = self._bell, False
        return Update(repaint, summary, coach, bell)

    def wait(self, now: float) -> float | None:
        """Seconds until the screen should tick again (None: only on a key), on the
        real clock only: a timer, a message's end, a countdown's step, an effect's end."""
        if self.pauses or not self.real_time:
            return None
        times = [t for t in (self.session.next_wakeup(now), self.effects.next_end()) if t]
        if not times:
            return None
        return max(MIN_WAIT, min(times) - now)

    # ----------------------------------------------------------------- pauses

    def set_paused(self, reason: str, on: bool, now: float) -> None:
        """Stop (or start again) the game clock for ``reason``; it runs when none is left."""
        was = bool(self.pauses)
        if on:
            self.pauses.add(reason)
        else:
            self.pauses.discard(reason)
        if not was and self.pauses:
            self._now = now
            self.session.pause(now)
            self.effects.clear()
        elif was and not self.pauses:
            self.session.resume(now)

    def resumed(self, hosted: bool = False) -> str:
        """A resumed game: say where it stands (on the news line too), e.g.
        'Resumed: round 3, score 12–20'; for a game that was ``hosted`` over the
        network, also that it goes on here, at one keyboard."""
        session = self.session
        game = session.game
        scores = game.scores
        score = f", score {scores[0]}–{scores[1]}" if game.is_match else ""
        notice = f"Resumed: round {game.round_no}{score}"
        if hosted:
            names = " and ".join(session.names)
            notice += (
                f". It was a network game: it goes on here, {names} both at this keyboard. "
                "To play it over the network again, leave and host a new game."
            )
        session.announce(notice)
        return notice

    # ----------------------------------------------------------------- saving

    @property
    def in_progress(self) -> bool:
        """True while leaving would stop a game that has begun (and is kept to resume)."""
        session = self.session
        if session.game.over:
            return False
        archiver = session.archiver
        return archiver is not None and archiver.keep_progress and archiver.begun

    def save_progress(self) -> str | None:
        """Save the unfinished game now (leaving, quitting, a signal); a problem, or None."""
        archiver = self.session.archiver
        if archiver is None:
            return None
        try:
            return archiver.save_now()
        except Exception as exc:  # never let a save stop the player from leaving
            log.exception("cannot save the game")
            return f"game not saved: {exc}"
