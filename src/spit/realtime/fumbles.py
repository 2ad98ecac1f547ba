"""H8 fumbles: a play or move pressed blindly holds the player's cards back a moment.

The engine knows no time, so the arbiter judges fumbles: it keeps the
positions of the last few seconds (which plays and moves each player could
make in each, from when to when it stood). A refused play or move is a
*fumble* when it was refused in every position that stood from a race margin
before the position the player acted on (``seen``: the press itself at a
keyboard, the position a computer planned from, or what a network guest could
have seen) up to the moment it was judged. If it would have fitted in any of
them, the player lost a race (R11) and nothing happens. A fumble starts the
fumble time: until it ends, that player's plays and moves are refused without
being tried, and those refusals start nothing. Calls, slaps and V2 choices are
never fumbles. docs/realtime.md has the contract.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from spit.engine import Action, AnyGame, Kind

#: The kinds of action that can be fumbles (a call, slap or choice never is).
FUMBLE_KINDS = frozenset({Kind.PLAY, Kind.MOVE})
#: Seconds of positions kept to judge late presses; older ones get the benefit of the doubt.
HISTORY = 10.0
#: The reason given for a play or move pressed while its player's fumble time runs.
FUMBLING = "hands off for a moment after a fumble"


@dataclass(frozen=True, slots=True)
class Fumble:
    """One fumble: ``action`` refused at ``time``, its player held back until ``until``.

    ``index`` is the number of actions applied when it was judged (the
    position that refused it); ``first`` the action count of the earliest
    position in its window (every position from ``first`` to ``index``
    refused it). ``stamped`` is when a late press was made (None: at ``time``).
    """

    time: float
    action: Action
    until: float
    index: int
    first: int
    stamped: float | None = None

    @property
    def player(self) -> int:
        """Who fumbled."""
        return self.action.player


class FumbleJudge:
    """The positions of the last seconds, each player's time-out, and the fumbles so far."""

    def __init__(self, game: AnyGame, fumble_time: float, margin: float, start: float) -> None:
        self.fumble_time = fumble_time
        self.margin = margin
        #: False when the fumble time is 0: nothing is judged or kept
        self.on = fumble_time > 0
        #: every fumble so far, in order (the replay records them)
        self.fumbles: list[Fumble] = []
        self._until = [float("-inf"), float("-inf")]
        #: (since when, action count, each player's legal actions) per position, oldest first
        self._history: deque[tuple[float, int, tuple[Action, ...], tuple[Action, ...]]] = deque()
        #: True once the oldest kept position is not the game's first (or the
        #: game was under way before this arbiter: a resumed game)
        self._pruned = bool(game.actions)
        if self.on:
            self.saw(game, start)

    def until(self, player: int) -> float:
        """When ``player``'s fumble time ends (in the past if none runs)."""
        return self._until[player]

    def shift(self, gap: float) -> None:
        """A pause of ``gap`` seconds: a running fumble time stops with the game clock."""
        self._until = [u + gap for u in self._until]

    def saw(self, game: AnyGame, at: float) -> None:
        """The position changed at ``at`` (an action was applied): keep what each could do."""
        if not self.on:
            return
        history = self._history
        history.append(
            (at, len(game.actions), tuple(game.legal_actions(0)), tuple(game.legal_actions(1)))
        )
        cutoff = at - HISTORY - self.margin
        while len(history) > 1 and history[1][0] <= cutoff:
            history.popleft()
            self._pruned = True

    def held_back(self, action: Action, at: float) -> bool:
        """True if ``action`` at ``at`` falls in its player's fumble time (refuse it untried)."""
        return self.on and action.kind in FUMBLE_KINDS and at < self._until[action.player]

    def judge(
        self, action: Action, at: float, seen: float, n_actions: int, stamped: float | None
    ) -> Fumble | None:
        """The engine refused ``action`` at ``at``: a fumble (now recorded), or None.

        ``seen`` is when the position the player acted on stood (the press
        stamp, or earlier); the window runs from a race margin before it.
        """
        if not self.on or action.kind not in FUMBLE_KINDS or action.player not in (0, 1):
            return None
        start = min(seen, at) - self.margin
        first = self._first_in_window(action, start)
        if first is None:
            return None
        fumble = Fumble(at, action, at + self.fumble_time, n_actions, first, stamped)
        self._until[action.player] = fumble.until
        self.fumbles.append(fumble)
        return fumble

    def _first_in_window(self, action: Action, start: float) -> int | None:
        """The action count of the earliest position standing from ``start`` on, if
        ``action`` was refused in every one of them; None if it fitted in one (or
        the window reaches back before the kept positions: the benefit of the doubt).
        A position replaced at the very instant ``start`` stood then too: a computer
        that planned on the position of that instant never fumbles."""
        first_player = action.player == 0
        for entry in reversed(self._history):
            if action in (entry[2] if first_player else entry[3]):
                return None  # it fitted a moment ago: a lost race, not a fumble
            if entry[0] < start:
                return entry[1]
        if self._pruned:
            return None
        return self._history[0][1] if self._history else None


__all__ = ["FUMBLE_KINDS", "FUMBLING", "HISTORY", "Fumble", "FumbleJudge"]
