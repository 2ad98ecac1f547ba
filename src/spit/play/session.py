"""One game being played at the keyboard: keys in, arbiter ticks.

The session is the controller: it turns key presses into actions (by the
current phase), debounces held-key repeats, and drives the arbiter. The words
come from ``spit.play.narration`` (news, flash, round story) and
``spit.play.status`` (the phase line); the session hands them to the board.
It knows no Textual, so tests drive it with a fake clock.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from spit.engine import Action, AnyGame, Phase
from spit.play.keys import Binding, KeyMap, Row
from spit.play.narration import (
    PILE_NAMES,
    Flash,
    Held,
    Landed,
    Narrator,
    RoundSummary,
)
from spit.play.status import result_text, status_text
from spit.realtime.arbiter import Agent, Arbiter, Clock, Outcome, Timing
from spit.realtime.timers import TimerKind

if TYPE_CHECKING:
    # types only: the protocols cost start-up time and nothing at run time
    from spit.engine.events import Event
    from spit.play.views import GameView, Referee

__all__ = [
    "COUNTDOWN_FROM",
    "PILE_NAMES",
    "Flash",
    "Held",
    "Landed",
    "Recorder",
    "RoundSummary",
    "Session",
]

COUNTDOWN_FROM = 5.0  #: the H6 stall countdown shows in its last seconds

#: What to say when a key means nothing in a phase (words about keys, not rules).
_HINTS = {
    Phase.STALEMATE: "wait: the side piles are turning over",
    Phase.SLAP: "slap with your top row (left pile) or home row (right pile)",
    Phase.CHOOSE: "choose with your top row (left pile) or home row (right pile)",
    Phase.GAME_OVER: "the game is over: Enter plays again, Escape opens the menu",
}


class Recorder(Protocol):
    """Keeps a game's files as it goes (``spit.store.archive.Archiver``)."""

    #: what the players should be told (a failed save, or "result saved"), else None
    message: str | None
    #: True if an unfinished game is kept to be resumed
    keep_progress: bool

    @property
    def begun(self) -> bool:
        """True once the game has a move (a resumed game has begun already)."""

    def __call__(self, outcomes: list[Outcome]) -> None:
        """Look at the game after a tick; save whatever is due."""

    def save_now(self) -> str | None:
        """Save the unfinished game at once (the players leave or quit); a problem, or None."""


def key_action(game: GameView, binding: Binding) -> Action | str:
    """The action a key means in ``game`` now (the engine's ``action_for``), or a
    hint why it means nothing."""
    p, row, col = binding
    if row is Row.CALL:
        action = game.action_for(p, None, None)
    else:
        action = game.action_for(p, col, None if row is Row.MOVE else int(row))
    if action is not None:
        return action
    phase = game.phase
    if phase is Phase.PLAY:  # only a move key gets here
        return f"{game.info.title} has no moves: top row plays left, home row plays right"
    return _HINTS.get(phase, _HINTS[Phase.GAME_OVER])


class Session:
    """A game and its referee, driven by key presses and ticks.

    Built from parts: ``game`` is the session's view of the game (a
    ``GameView``: the engine's ``Game``, or a network guest's view built from
    its observations) and ``referee`` judges the presses (a ``Referee``: the
    local ``Arbiter``, or the guest's link to the host). ``Session.local``
    builds a game's own arbiter. ``levels``: computer levels by player number
    (for the records); ``archiver``: keeps the game's files (told after every
    tick that changed something; None: nothing is kept); ``opening``: the
    events of the first deal, for the first words.
    """

    #: the app keys the board's footer names: (key, what it does)
    FOOTER_KEYS: tuple[tuple[str, str], ...] = (
        ("F1", "help"),
        ("space", "pause"),
        ("Esc", "leave"),
        ("ctrl+q", "save+quit"),
    )

    @property
    def footer_keys(self) -> tuple[tuple[str, str], ...]:
        """``FOOTER_KEYS`` as they are true now: ctrl+q only quits where nothing is kept
        (two computers playing, or a game that is not recorded)."""
        if self.keeps_progress:
            return self.FOOTER_KEYS
        return tuple((k, "quit" if w == "save+quit" else w) for k, w in self.FOOTER_KEYS)

    @property
    def keeps_progress(self) -> bool:
        """True if an unfinished game is saved on leaving or quitting (to resume it)."""
        return self.archiver is not None and self.archiver.keep_progress

    #: the player drawn at the bottom of the board (a network guest: their own seat)
    bottom_player: int = 0
    #: seconds of play before this session (a resumed game's), for the game clock
    time_offset: float = 0.0
    # the game clock (``game_time``: started in ``__init__``) and the last table (``table``)
    _started: float | None = None
    _paused_for: float = 0.0
    _paused_since: float | None = None
    _ended_at: float | None = None
    _table: GameView | None = None
    _shown_second = 0

    def __init__(
        self,
        game: GameView,
        referee: Referee,
        keymap: KeyMap | None = None,
        clock: Clock | None = None,
        agents: Mapping[int, Agent] | None = None,
        names: tuple[str, str] = ("Player 1", "Player 2"),
        levels: Mapping[int, str] | None = None,
        archiver: Recorder | None = None,
        opening: Sequence[Event] = (),
        time_offset: float = 0.0,
    ) -> None:
        import time

        self.game: GameView = game
        self.keymap = keymap or KeyMap.default()
        self.clock: Clock = clock or time.monotonic
        self.arbiter: Referee = referee
        self.names = names
        self.agents = dict(agents or {})
        #: bumped whenever anything on screen should change
        self.version = 0
        self.narrator = Narrator(game, names)
        #: every key press that reached the session, in order: (time, key, used)
        self.inputs: list[tuple[float, str, bool]] = []
        self._last_press: dict[str, float] = {}
        self._shown_countdown: int | None = None
        self.listeners: list[Callable[[list[Outcome]], None]] = []
        #: computer levels by player number (for the records)
        self.levels: dict[int, str] = dict(levels or {})
        #: keeps the game's files, if the app records games
        self.archiver: Recorder | None = archiver
        if archiver is not None:
            self.listeners.append(archiver)
        self.narrator.opening(list(opening))
        self._started = self.clock()
        self.time_offset = time_offset

    @classmethod
    def local(
        cls,
        game: AnyGame,
        keymap: KeyMap | None = None,
        timing: Timing | None = None,
        clock: Clock | None = None,
        agents: Mapping[int, Agent] | None = None,
        names: tuple[str, str] = ("Player 1", "Player 2"),
        levels: Mapping[int, str] | None = None,
        recorder: Callable[[Arbiter], Recorder] | None = None,
        time_offset: float = 0.0,
    ) -> Session:
        """A game played here: the engine's ``game`` judged by its own ``Arbiter``.

        ``recorder``: given that arbiter, what keeps the game's files;
        ``time_offset``: seconds already played (a resumed game's), for the game clock.
        """
        import time

        clock = clock or time.monotonic
        arbiter = Arbiter(game, timing, clock, agents)
        archiver = recorder(arbiter) if recorder is not None else None
        return cls(
            game,
            arbiter,
            keymap,
            clock,
            agents,
            names,
            levels,
            archiver,
            game.opening_events,
            time_offset,
        )

    # ------------------------------------------------------------------ screens

    def changed(self) -> None:
        """Something on screen should change (the board compares ``version``)."""
        self.version += 1

    def show_flash(self, text: str, now: float, player: int | None = None) -> None:
        """Flash ``text`` for a moment (a refusal or a hint), under ``player``'s cards if given."""
        self._set_flash(text, player, now)

    def announce(self, news: str) -> None:
        """Put ``news`` on the news line (a notice of the app's, not a move's)."""
        self.narrator.news = news
        self.version += 1

    # ------------------------------------------------------------------ input

    def press(self, key: str, at: float, now: float | None = None) -> bool:
        """A key went down at ``at``. Returns True if it was a game key.

        A press of the same key sooner than the key map's ``repeat_window``
        after its previous press is a held-key repeat: ignored, and the window
        restarts from it.
        """
        binding = self.keymap.lookup(key)
        if binding is None:
            return False
        now = at if now is None else now
        last = self._last_press.get(key)
        self._last_press[key] = at
        if last is not None and 0 <= at - last < self.keymap.repeat_window:
            self.inputs.append((at, key, False))
            self.narrator.set_held(key, binding.player, now)  # shown, so no press goes unseen
            self.version += 1
            return True
        self.inputs.append((at, key, True))
        if binding.player in self.agents:
            self._set_flash(f"{self.names[binding.player]} is played by the computer", None, now)
            return True
        action = self.action_for(binding)
        if isinstance(action, str):
            self._set_flash(f"{self.names[binding.player]}: {action}", binding.player, now)
            return True
        self.arbiter.submit(action, at=at)
        return True

    def action_for(self, binding: Binding) -> Action | str:
        """The action a key means now, or a hint why it means nothing (``key_action``)."""
        return key_action(self.game, binding)

    # ------------------------------------------------------------------- time

    def tick(self, now: float | None = None) -> bool:
        """Run the arbiter up to ``now``; True if the screen should change."""
        now = self.clock() if now is None else now
        changed = self._tell(self.arbiter.tick(now), now)
        if self.narrator.expire(now):
            changed = True
        countdown = self.countdown(now)
        shown = None if countdown is None else math.ceil(countdown[0])
        if shown != self._shown_countdown:
            self._shown_countdown = shown
            changed = True
        second = int(self.game_time(now))
        if second != self._shown_second:  # the game clock on the board
            self._shown_second = second
            changed = True
        if changed:
            self.version += 1
        return changed

    def _tell(self, outcomes: list[Outcome], now: float) -> bool:
        """Narrate ``outcomes`` and pass them to the listeners; True if there were any."""
        for outcome in outcomes:
            self.narrator.describe(outcome, now)
        if outcomes and self._ended_at is None and self.game.over:
            self._ended_at = now
        if outcomes:
            for listener in self.listeners:
                listener(outcomes)
        return bool(outcomes)

    def next_wakeup(self, now: float) -> float | None:
        """When ``tick`` next has something to do (timer, flash end, countdown step)."""
        if self.arbiter.paused:
            return None
        times: list[float] = []
        deadline = self.arbiter.next_deadline()
        if deadline is not None:
            times.append(deadline)
        times.extend(self.narrator.wakeups())
        if not self.game.over:  # the game clock's next second
            played = self.game_time(now)
            times.append(now + (math.floor(played) + 1 - played))
        countdown = self.countdown(now)
        if countdown is not None:
            left = countdown[0]
            step = left - math.floor(left) if left > math.floor(left) else 1.0
            times.append(now + step)
        else:
            timer = self.arbiter.timer()
            if timer is not None and timer[1] is TimerKind.STALL:
                times.append(timer[0] - COUNTDOWN_FROM)
        return min(times) if times else None

    def countdown(self, now: float) -> tuple[float, TimerKind] | None:
        """Seconds left on the visible timer and what it is for, or None."""
        if self.arbiter.paused:
            return None
        timer = self.arbiter.timer()
        if timer is None:
            return None
        deadline, what = timer
        left = deadline - now
        if left <= 0:
            return None
        if what is TimerKind.STALL and left > COUNTDOWN_FROM:
            return None
        return left, what

    def pause(self, now: float | None = None) -> None:
        """Stop the game clock (help, pause screen, terminal too small).

        What was due up to ``now`` is settled (and told) first.
        """
        now = self.clock() if now is None else now
        self._tell(self.arbiter.tick(now), now)
        self.arbiter.pause(now)
        if self._paused_since is None:
            self._paused_since = now
        self.version += 1

    def resume(self, now: float | None = None) -> None:
        """Start the game clock again."""
        self.arbiter.resume(now)
        if self._paused_since is not None:
            at = self.clock() if now is None else now
            self._paused_for += max(0.0, at - self._paused_since)
            self._paused_since = None
        self._last_press.clear()
        self.version += 1

    def game_time(self, now: float) -> float:
        """Seconds the game has been played (pauses left out; stopped at its end)."""
        if self._started is None:
            self._started = now
        until = self._ended_at if self._ended_at is not None else now
        if self._paused_since is not None:
            until = min(until, self._paused_since)
        return self.time_offset + max(0.0, until - self._started - self._paused_for)

    @property
    def table(self) -> GameView:
        """The game as the board shows it: once it is over, its last table with every
        card where it was (``spit.play.endtable``), not the cards gathered off it."""
        game = self.game
        if not game.over:
            return game
        if self._table is None:
            from spit.play.endtable import end_table

            self._table = end_table(game) or game
        return self._table

    # ------------------------------------------------------------------ words

    def name(self, player: int) -> str:
        """A player's display name."""
        return self.names[player]

    def key_owner(self, player: int) -> int | None:
        """Whose keys the board shows on ``player``'s cards (None: no keys here)."""
        return player

    def _set_flash(
        self, text: str, player: int | None, now: float, column: int | None = None
    ) -> None:
        self.narrator.set_flash(text, player, now, column)
        self.version += 1

    def describe(self, outcome: Outcome, now: float) -> None:
        """Turn an outcome into news (the replay viewer feeds its actions here)."""
        self.narrator.describe(outcome, now)

    def expire(self, now: float) -> bool:
        """Drop the flash and the marks whose time is up; True if any went (the replay
        viewer's tick: its arbiter never runs)."""
        return self.narrator.expire(now)

    def marks_end(self) -> list[float]:
        """When a flash or a mark (a landed card, a fumble's hands-off time) ends."""
        return self.narrator.wakeups()

    @property
    def archive_message(self) -> str | None:
        """What the archiver has to say (a failed save, or 'result saved'), if anything."""
        return None if self.archiver is None else self.archiver.message

    # The narrator's words, as the board reads them.

    @property
    def news(self) -> str:
        """The last thing that happened, in words."""
        return self.narrator.news

    @property
    def round_news(self) -> str:
        """How the last round ended, in words."""
        return self.narrator.round_news

    @property
    def flash(self) -> Flash | None:
        """The refused move or hint being shown, if any."""
        return self.narrator.flash

    @property
    def held(self) -> Held | None:
        """The last key press taken as a held-key repeat, while it is noted."""
        return self.narrator.held

    @property
    def landed(self) -> dict[int, Landed]:
        """Spit piles a card just landed on, by pile."""
        return self.narrator.landed

    @property
    def fumbled(self) -> dict[int, float]:
        """Players under a fumble, and when their hands-off time ends."""
        return self.narrator.fumbled

    @property
    def stalled(self) -> bool:
        """True when the stalemate came from the stall timer (H6)."""
        return self.narrator.stalled

    @property
    def summaries(self) -> list[RoundSummary]:
        """Finished rounds of a match waiting to be shown, oldest first."""
        return self.narrator.summaries

    def result_text(self) -> str:
        """The game's or match's result in words."""
        return result_text(self.game, self.names)

    def status(self, now: float) -> str:
        """The current phase in plain words, with any countdown."""
        return status_text(
            self.game, self.names, self.countdown(now), self.arbiter.paused, self.stalled
        )
