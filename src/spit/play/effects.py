"""Brief highlights of what just happened on the board: cosmetic, never in the way.

``Effects`` listens to a session's outcomes and keeps a few short-lived marks:
the slot a played card came from and the pile it went to, a pile a slap gave
to a player, a layout dealt again, a move that lost a race, a fumble. The
board reads ``active(now)`` when it draws; the game never waits for an effect
(a key pressed during one acts at once) and, turned off (``--reduce-motion``
or the setting), there are none. It knows no Textual.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

from spit.engine import Kind
from spit.engine.events import CardMoved, CardPlayed, Dealt, PileTaken, Slapped
from spit.realtime.arbiter import Applied, Outcome, Rejected


class EffectKind(enum.Enum):
    """What a mark on the board shows."""

    FROM = "from"  #: the slot a card just left
    TO = "to"  #: the pile (or slot) a card just reached
    TAKEN = "taken"  #: a pile a player just slapped or took (a slap, a choice)
    DEALT = "dealt"  #: a player's layout just dealt again
    LOST_RACE = "lost race"  #: a move that came too late: the other player was first
    FUMBLE = "fumble"  #: a play or move that started a fumble time (rule H8)


#: how long each mark stays, in seconds: long enough to see, short enough never to lag
DURATION: dict[EffectKind, float] = {
    EffectKind.FROM: 0.1,
    EffectKind.TO: 0.1,
    EffectKind.TAKEN: 0.8,
    EffectKind.DEALT: 0.5,
    EffectKind.LOST_RACE: 0.6,
    EffectKind.FUMBLE: 0.6,
}


#: marks end on a grid of this many seconds, so that the marks of keys pressed
#: close together end in one redraw (a mark lasts its duration and up to this more)
GRID = 0.1
#: the screen is woken this long after a mark's end to draw it off, unless it draws
#: anyway before (the next key's tick): keys pressed fast draw their marks off in
#: their own updates, and only a board left alone needs an update of its own
SLACK = 0.1


@dataclass(frozen=True, slots=True)
class Mark:
    """One mark: what, whose, which slot or pile, and until when."""

    kind: EffectKind
    player: int
    until: float
    column: int | None = None  #: a slot of ``player``'s (None: not a slot)
    pile: int | None = None  #: a spit pile (None: not a pile)


class Effects:
    """The marks now showing; ``enabled`` False (reduce motion) keeps none."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self.marks: list[Mark] = []
        self._last_play: dict[int, tuple[int, float]] = {}  # by pile: (player, when)

    def add(
        self,
        kind: EffectKind,
        player: int,
        now: float,
        column: int | None = None,
        pile: int | None = None,
    ) -> None:
        """Show a mark from ``now`` for its kind's ``DURATION`` (nothing when turned off).

        The hook for anything the board should show at a glance: e.g. rule
        H8's fumble is ``add(EffectKind.FUMBLE, player, now, column=...)``.
        """
        if not self.enabled:
            return
        until = math.ceil((now + DURATION[kind]) / GRID - 1e-9) * GRID  # (float noise)
        self.marks = [m for m in self.marks if (m.kind, m.player, m.column, m.pile) != (
            kind, player, column, pile)]  # fmt: skip
        self.marks.append(Mark(kind, player, until, column, pile))

    def fumble(self, player: int, column: int | None, now: float) -> None:
        """A fumbled move (H8) of ``player``'s, from ``column``."""
        self.add(EffectKind.FUMBLE, player, now, column=column)

    def note(self, outcomes: list[Outcome], now: float) -> None:
        """Add the marks the arbiter's ``outcomes`` call for."""
        if not self.enabled:
            return
        for outcome in outcomes:
            if isinstance(outcome, Rejected):
                action = outcome.action
                if outcome.fumble > 0:  # H8: the refusal started a fumble time
                    self.fumble(action.player, action.source, now)
                    continue
                if action.kind is Kind.PLAY and action.target is not None:
                    last = self._last_play.get(action.target)
                    # R11: the other player's card landed there just before
                    if last is not None and last[0] != action.player and now - last[1] <= 1.0:
                        self.add(EffectKind.LOST_RACE, action.player, now, pile=action.target)
                continue
            assert isinstance(outcome, Applied)
            for event in outcome.events:
                if isinstance(event, CardPlayed):
                    self._last_play[event.pile] = (event.player, now)
                self._event(event, now)

    def _event(self, event: object, now: float) -> None:
        if isinstance(event, CardPlayed):
            self.add(EffectKind.FROM, event.player, now, column=event.source)
            self.add(EffectKind.TO, event.player, now, pile=event.pile)
        elif isinstance(event, CardMoved):
            self.add(EffectKind.FROM, event.player, now, column=event.source)
            self.add(EffectKind.TO, event.player, now, column=event.slot)
        elif isinstance(event, (Slapped, PileTaken)) and event.pile is not None:
            self.add(EffectKind.TAKEN, event.player, now, pile=event.pile)
        elif isinstance(event, Dealt):
            self.add(EffectKind.DEALT, event.player, now)

    def expire(self, now: float) -> bool:
        """Drop the marks whose time is up; True if any went."""
        kept = [m for m in self.marks if m.until > now]
        changed = len(kept) != len(self.marks)
        self.marks = kept
        return changed

    def active(self, now: float) -> tuple[Mark, ...]:
        """The marks showing at ``now``."""
        return tuple(m for m in self.marks if m.until > now)

    def next_end(self) -> float | None:
        """When the screen must draw the next mark off, if nothing drew it before: its
        end and ``SLACK`` (None: none showing)."""
        end = min((m.until for m in self.marks), default=None)
        return None if end is None else end + SLACK

    def clear(self) -> None:
        """No marks (a new game, a pause)."""
        self.marks = []
