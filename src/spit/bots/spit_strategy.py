"""How a bot plays Spit, given only its observation.

Every candidate action (a play onto a spit pile or an R10 move) gets a score
from the skills its ``Style`` switches on; the best one is played, ties broken
by the bot's own random generator. The bot never knows a face-down card: a
card it will turn up is "unknown" (``UNKNOWN``) until it is seen.
"""

from __future__ import annotations

import random

from spit.bots.common import StyledStrategy, pick_best
from spit.engine.actions import Action, Kind
from spit.engine.base import Phase
from spit.engine.cards import adjacency_rows
from spit.engine.spit_game import SpitObservation

#: A stock whose top card is face down until the engine turns it up (R9).
UNKNOWN = -1

PLAY_VALUE = 10.0  # a card out of the layout
UNCOVER_VALUE = 6.0  # a face-down card turned up (R9, R10)
OPEN_SLOT_VALUE = 3.0  # an emptied stock that lets an R10 move uncover a card
OPTION_VALUE = 2.0  # each own card that fits a pile top afterwards
MAX_OPTIONS = 3
FEED_PENALTY = 3.0  # each (opponent card, pile) pair that fits afterwards
LOOKAHEAD_DISCOUNT = 0.5

Rows = tuple[tuple[bool, ...], ...]


class SpitStrategy(StyledStrategy):
    """Chooses Spit actions in the manner of a ``Style``."""

    def follow_up(self, obs: SpitObservation, action: Action) -> Action | None:
        """The best own play or move after ``action``, in the position it would leave."""
        if obs.phase is not Phase.PLAY or action.kind not in (Kind.PLAY, Kind.MOVE):
            return None
        rows = adjacency_rows(obs.config.alternating_colours)
        tops, down, piles, opponent = _visible(obs)
        _after(action, tops, down, piles)
        best: Action | None = None
        best_score = float("-inf")
        for nxt in _own_actions(action.player, tops, down, piles, rows):
            score = self._score(nxt, tops, down, piles, opponent, rows, 0)
            if score > best_score:
                best, best_score = nxt, score
        return best

    # ------------------------------------------------------------------ play

    def _best_play(
        self, obs: SpitObservation, legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        rows = adjacency_rows(obs.config.alternating_colours)
        tops, down, piles, opponent = _visible(obs)
        depth = self.style.lookahead
        return pick_best(
            ((self._score(a, tops, down, piles, opponent, rows, depth), a) for a in legal), rng
        )

    def _score(
        self,
        action: Action,
        tops: list[int | None],
        down: list[int],
        piles: list[int | None],
        opponent: list[int],
        rows: Rows,
        depth: int,
    ) -> float:
        """The value of ``action`` from the position (tops, down, piles)."""
        style = self.style
        s = action.source
        tops = list(tops)
        down = list(down)
        card = tops[s]
        assert card is not None and card != UNKNOWN
        if action.kind is Kind.PLAY:
            piles = list(piles)
            piles[action.target] = card
            score = PLAY_VALUE
            if down[s]:
                tops[s] = UNKNOWN
                down[s] -= 1
                if style.uncover:
                    score += UNCOVER_VALUE
            else:
                tops[s] = None
                # At a leaf, value the R10 move this slot allows; deeper, the
                # lookahead finds that move itself.
                if style.uncover and depth == 0 and any(d for j, d in enumerate(down) if j != s):
                    score += OPEN_SLOT_VALUE
        else:  # an R10 move: the card goes to the leftmost empty slot
            slot = tops.index(None)
            tops[slot] = card
            down[slot] = 0
            tops[s] = UNKNOWN
            down[s] -= 1
            score = UNCOVER_VALUE if style.uncover else 0.0
        live = [rows[p] for p in piles if p is not None]
        if style.keep_options:
            fitting = sum(1 for c in tops if c is not None and c >= 0 and any(r[c] for r in live))
            score += OPTION_VALUE * min(fitting, MAX_OPTIONS)
        if style.avoid_feeding:
            fed = sum(1 for c in opponent for r in live if r[c])
            score -= FEED_PENALTY * fed
        if depth > 0:
            follow = [
                self._score(nxt, tops, down, piles, opponent, rows, depth - 1)
                for nxt in _own_actions(action.player, tops, down, piles, rows)
            ]
            if follow:
                score += LOOKAHEAD_DISCOUNT * max(follow)
        return score


def _visible(
    obs: SpitObservation,
) -> tuple[list[int | None], list[int], list[int | None], list[int]]:
    """Own stock tops and face-down counts, pile tops (None if unused), opponent's tops."""
    me = obs.player
    tops: list[int | None] = [v.top for v in obs.stocks[me]]
    down = [v.face_down for v in obs.stocks[me]]
    opponent = [v.top for v in obs.stocks[1 - me] if v.top is not None]
    piles = [p.top if p.in_use else None for p in obs.piles]
    return tops, down, piles, opponent


def _after(
    action: Action, tops: list[int | None], down: list[int], piles: list[int | None]
) -> None:
    """Change the imagined position in place as ``action`` would (turned-up cards unknown)."""
    s = action.source
    card = tops[s]
    if action.kind is Kind.PLAY:
        piles[action.target] = card
        if down[s]:
            tops[s] = UNKNOWN
            down[s] -= 1
        else:
            tops[s] = None
    else:
        slot = tops.index(None)
        tops[slot] = card
        down[slot] = 0
        tops[s] = UNKNOWN
        down[s] -= 1


def _own_actions(
    player: int, tops: list[int | None], down: list[int], piles: list[int | None], rows: Rows
) -> list[Action]:
    """The plays and moves open to the player in an imagined position (known cards only)."""
    out: list[Action] = []
    for s, c in enumerate(tops):
        if c is None or c < 0:
            continue
        for t, p in enumerate(piles):
            if p is not None and rows[p][c]:
                out.append(Action(Kind.PLAY, player, s, t))
    if None in tops:
        out.extend(
            Action(Kind.MOVE, player, s, 0)
            for s, c in enumerate(tops)
            if c is not None and c >= 0 and down[s]
        )
    return out
