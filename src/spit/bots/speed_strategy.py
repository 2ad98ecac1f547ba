"""How a bot plays Speed, given only its observation.

The bot knows its own hand and the two pile tops, and counts of everything
hidden. After a play it draws an unknown card into the same slot (P3). Each
candidate play gets a score from the skills its ``Style`` switches on:

- ``uncover`` (in Speed: keep a run going): value a card left in hand that fits
  the card just played;
- ``keep_options``: value every hand card that fits a pile top afterwards;
- ``avoid_feeding``: the opponent's hand is hidden, so estimate how many cards
  they could play from the ranks not visible to the bot;
- ``lookahead``: look further along own runs;
- ``card_memory`` (expert): remember the cards seen and read the opponent's
  stalemates (``OpponentModel``), and score a play only by how few opponent
  cards are expected to fit the pile tops it leaves. Measured at equal
  reaction times against the easy strategy, this scoring wins clearly more
  often than the run/options/feeding scoring (docs/bots.md), which does no
  better than a random choice in Speed.
"""

from __future__ import annotations

import random

from spit.bots.common import StyledStrategy, pick_best
from spit.bots.speed_memory import OpponentModel
from spit.bots.style import Style
from spit.engine.actions import Action, Kind
from spit.engine.base import Phase
from spit.engine.cards import DECK_SIZE, adjacency_rows
from spit.engine.speed_game import SpeedObservation

PLAY_VALUE = 10.0
RUN_VALUE = 4.0  # some held card fits the card just played
OPTION_VALUE = 2.0  # each held card that fits a pile top afterwards
MAX_OPTIONS = 3
FEED_PENALTY = 4.0  # per expected opponent card that fits a pile top afterwards
LOOKAHEAD_DISCOUNT = 0.5
READ_PENALTY = 4.0  # card memory: per expected opponent card that fits a pile top afterwards

Rows = tuple[tuple[bool, ...], ...]


class SpeedStrategy(StyledStrategy):
    """Chooses Speed actions in the manner of a ``Style``.

    A strategy with ``card_memory`` holds an ``OpponentModel`` for one game:
    make a new strategy (``make_bot`` does) for every game; a new deal within
    a P7 match resets the model by itself.
    """

    def __init__(self, style: Style) -> None:
        super().__init__(style)
        self.memory: OpponentModel | None = OpponentModel() if style.card_memory else None
        self.forgetful = self.memory is None

    def observe(self, obs: SpeedObservation) -> None:
        """Remember what ``obs`` shows (with ``card_memory``)."""
        if self.memory is not None:
            self.memory.observe(obs)

    def follow_up(self, obs: SpeedObservation, action: Action) -> Action | None:
        """The best own play after ``action``, if the piles stay as they would be."""
        if obs.phase is not Phase.PLAY or action.kind is not Kind.PLAY:
            return None
        rows = adjacency_rows(obs.config.alternating_colours)
        hand = list(obs.hand)
        tops = list(obs.pile_tops)
        tops[action.target] = hand[action.source]
        hand[action.source] = None
        best: Action | None = None
        best_score = float("-inf")
        for i, c in enumerate(hand):
            for j, p in enumerate(tops):
                if c is not None and p is not None and rows[p][c]:
                    nxt = Action(Kind.PLAY, action.player, i, j)
                    score = self._score(nxt, hand, tops, rows, None, 0)
                    if score > best_score:
                        best, best_score = nxt, score
        return best

    def _best_play(
        self, obs: SpeedObservation, legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        rows = adjacency_rows(obs.config.alternating_colours)
        hand = list(obs.hand)
        tops = list(obs.pile_tops)
        # Card memory scores without the feed estimate: do not work it out.
        feed = _FeedRates(obs, rows) if self.style.avoid_feeding and self.memory is None else None
        depth = self.style.lookahead
        return pick_best(((self._score(a, hand, tops, rows, feed, depth), a) for a in legal), rng)

    def _score(
        self,
        action: Action,
        hand: list[int | None],
        tops: list[int | None],
        rows: Rows,
        feed: _FeedRates | None,
        depth: int,
    ) -> float:
        if self.memory is not None:
            return _read_score(action, hand, tops, rows, self.memory)
        style = self.style
        s, t = action.source, action.target
        card = hand[s]
        assert card is not None
        hand = list(hand)
        hand[s] = None  # the card drawn into this slot is unknown
        tops = list(tops)
        tops[t] = card
        score = PLAY_VALUE
        held = [c for c in hand if c is not None]
        if style.uncover and any(rows[card][c] for c in held):
            score += RUN_VALUE
        live = [rows[p] for p in tops if p is not None]
        if style.keep_options:
            fitting = sum(1 for c in held if any(r[c] for r in live))
            score += OPTION_VALUE * min(fitting, MAX_OPTIONS)
        if feed is not None:
            score -= FEED_PENALTY * sum(feed[p] for p in tops if p is not None)

        if depth > 0:
            follow = [
                self._score(
                    Action(Kind.PLAY, action.player, i, j), hand, tops, rows, feed, depth - 1
                )
                for i, c in enumerate(hand)
                if c is not None
                for j, p in enumerate(tops)
                if p is not None and rows[p][c]
            ]
            if follow:
                score += LOOKAHEAD_DISCOUNT * max(follow)
        return score


def _read_score(
    action: Action,
    hand: list[int | None],
    tops: list[int | None],
    rows: Rows,
    memory: OpponentModel,
) -> float:
    """Card memory's score: a play, less the opponent cards expected to fit the tops it leaves."""
    after = list(tops)
    after[action.target] = hand[action.source]
    return PLAY_VALUE - READ_PENALTY * memory.fits(after, rows)


class _FeedRates:
    """For a pile top, the expected number of opponent cards that fit it.

    The opponent's cards are some of the cards the bot cannot see; each unseen
    card is in their hand with the same chance. Worked out for a top when it is
    first asked for (a play's scoring needs only a few of the 52).
    """

    __slots__ = ("_rates", "rows", "share", "unseen")

    def __init__(self, obs: SpeedObservation, rows: Rows) -> None:
        seen = obs.visible_cards()
        self.unseen = [c for c in range(DECK_SIZE) if c not in seen]
        self.share = obs.opponent_hand_count / len(self.unseen) if self.unseen else 0.0
        self.rows = rows
        self._rates: dict[int, float] = {}

    def __getitem__(self, top: int) -> float:
        rate = self._rates.get(top)
        if rate is None:
            row = self.rows[top]
            rate = self._rates[top] = self.share * sum(1 for c in self.unseen if row[c])
        return rate
