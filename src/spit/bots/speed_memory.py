"""What a Speed bot remembers, and what it works out about the opponent's hidden hand.

A person playing Speed remembers the cards that have gone by and notices when
the opponent is stuck. ``OpponentModel`` does the same from the bot's own
observations, one after another, and nothing else:

- *card memory*: every card the bot has seen (in its hand or on a pile top)
  can never be in the opponent's hand again (played cards only go to the spit
  piles, and from there to the side piles, P5), so only the cards it has never
  seen are candidates;
- *stalemate reading*: at a stalemate (P4) nobody can play, so the opponent
  holds no card that fits either pile top; those cards are ruled out of their
  hand until they draw again;
- *counting draws*: each opponent play brings a fresh card into their hand
  (P3), one of the unseen cards, which lets the ruled-out cards back in a
  little.

The result is ``chance[c]``: the probability that card ``c`` is in the
opponent's hand, summing to their hand count. The model is reset at every new
deal (a new ``round_no``).
"""

from __future__ import annotations

from spit.engine.base import Phase
from spit.engine.cards import DECK_SIZE, adjacency_rows
from spit.engine.speed_game import SpeedObservation

Row = tuple[bool, ...]


class OpponentModel:
    """A per-game estimate of the opponent's hand, built from one player's observations."""

    def __init__(self) -> None:
        self.round_no: int | None = None
        #: card ids the bot has seen this deal (never in the opponent's hand)
        self.seen: set[int] = set()
        #: ``chance[c]``: probability that card ``c`` is in the opponent's hand
        self.chance: list[float] = [0.0] * DECK_SIZE
        self._pile_sizes: tuple[int, int] = (0, 0)
        self._side_total = 0
        self._hand: set[int] = set()
        self._phase: Phase | None = None

    def observe(self, obs: SpeedObservation) -> None:
        """Take in one observation (seeing the same one twice changes nothing)."""
        if obs.round_no != self.round_no:
            self._start(obs)
        elif obs.phase is Phase.PLAY or obs.phase is Phase.STALEMATE:
            self._update(obs)
        if obs.phase is Phase.STALEMATE:
            self._rule_out_fits(obs)
        self._normalise(obs.opponent_hand_count)
        self._remember(obs)

    def fits(self, tops: list[int | None], rows: tuple[Row, ...]) -> float:
        """The expected number of opponent cards that fit at least one of ``tops``."""
        live = [rows[t] for t in tops if t is not None]
        chance = self.chance
        if len(live) == 2:
            r0, r1 = live
            return sum([p for p, a, b in zip(chance, r0, r1, strict=True) if p and (a or b)])
        if len(live) == 1:
            return sum([p for p, a in zip(chance, live[0], strict=True) if p and a])
        return 0

    # ---------------------------------------------------------------- updating

    def _start(self, obs: SpeedObservation) -> None:
        """A new deal: forget everything, every unseen card equally likely."""
        self.round_no = obs.round_no
        self.seen = set()
        self._see(obs)
        unseen = DECK_SIZE - len(self.seen)
        share = obs.opponent_hand_count / unseen if unseen else 0.0
        self.chance = [0.0 if c in self.seen else share for c in range(DECK_SIZE)]

    def _see(self, obs: SpeedObservation) -> None:
        for c in (*obs.hand, *obs.pile_tops):
            if c is not None and c not in self.seen:
                self.seen.add(c)
                self.chance[c] = 0.0

    def _update(self, obs: SpeedObservation) -> None:
        """Count the opponent's plays since the last observation, and see new cards."""
        mine = len(self._hand - {c for c in obs.hand if c is not None})
        side_total = sum(obs.side_counts)
        added = sum(obs.pile_sizes) - sum(self._pile_sizes)
        flipped = self._side_total - side_total
        opponent_plays = 0
        was_playing = self._phase is Phase.PLAY or self._phase is Phase.STALEMATE
        if was_playing and flipped >= 0 and added >= 0:  # not the opening, nor a P5 rebuild
            opponent_plays = max(0, added - mine - flipped)
        self._see(obs)
        unseen = [c for c in range(DECK_SIZE) if c not in self.seen]
        if opponent_plays and unseen:
            fresh = opponent_plays / len(unseen)  # each play draws one unseen card
            for c in unseen:
                self.chance[c] += fresh

    def _rule_out_fits(self, obs: SpeedObservation) -> None:
        """P4: in a stalemate the opponent holds nothing that fits a pile top."""
        rows = adjacency_rows(obs.config.alternating_colours)
        for top in obs.pile_tops:
            if top is not None:
                row = rows[top]
                for c in range(DECK_SIZE):
                    if row[c]:
                        self.chance[c] = 0.0

    def _normalise(self, hand_count: int) -> None:
        """Scale the chances to sum to the opponent's hand count, none above 1."""
        chance = self.chance
        for _ in range(3):
            total = sum(chance)
            if total <= 0:
                return
            factor = hand_count / total
            # (x if x < 1.0 else 1.0) is min(1.0, x), a little faster
            self.chance = chance = [x if (x := p * factor) < 1.0 else 1.0 for p in chance]

    def _remember(self, obs: SpeedObservation) -> None:
        self._pile_sizes = obs.pile_sizes
        self._side_total = sum(obs.side_counts)
        self._hand = {c for c in obs.hand if c is not None}
        self._phase = obs.phase
