"""How a bot plays Spit, given only its observation.

Every candidate action (a play onto a spit pile or an R10 move) gets a score
from the skills its ``Style`` switches on; the best one is played, ties broken
by the bot's own random generator. The bot never knows a face-down card: a
card it will turn up is "unknown" (``UNKNOWN``) until it is seen.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from spit.bots.common import TIE, StyledStrategy, pick_best
from spit.bots.style import Style
from spit.engine.actions import Action, Kind, move, play
from spit.engine.base import Game, Phase
from spit.engine.cards import (
    CARD_BITS,
    DECK_SIZE,
    NO_CARD_FITS,
    adjacency_masks,
    adjacency_rows,
)
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

#: No floor: every score is wanted exactly.
_NO_FLOOR = float("-inf")

_PLAY = Kind.PLAY
_MOVE = Kind.MOVE
_BITS = CARD_BITS
#: _OPTION_VALUES[n]: the value of n own cards that fit a pile top afterwards
_OPTION_VALUES = tuple(OPTION_VALUE * min(n, MAX_OPTIONS) for n in range(DECK_SIZE + 1))
_NO_OPTION_VALUES = (0.0,) * (DECK_SIZE + 1)
#: The engine's interned actions: ``_PLAYS[player][stock][pile]``, ``_MOVES[player][stock]``.
_PLAYS = tuple(tuple(tuple(play(p, s, t) for t in (0, 1)) for s in range(5)) for p in (0, 1))
_MOVES = tuple(tuple(move(p, s) for s in range(5)) for p in (0, 1))


class SpitStrategy(StyledStrategy):
    """Chooses Spit actions in the manner of a ``Style``.

    The choice in play is made on a ``Search`` of the position
    (``choose_in_play``, ``follow_up_in``): built here from each observation,
    or, in the simulator's scheduler (``schedule``), once per game on the
    game's own visible state, which the engine keeps up to date; both call the
    same code.
    """

    def __init__(self, style: Style) -> None:
        super().__init__(style)
        #: the observation last chosen from and its search (reused by ``follow_up``)
        self._last: tuple[SpitObservation, Search] | None = None

    def search_for(
        self,
        alternating_colours: bool,
        tops: list[int | None],
        down: list[int],
        piles: list[int | None],
        opponent: list[int],
    ) -> Search:
        """A search of the position given by these lists (see ``Search``), in this style."""
        return Search(self.style, alternating_colours, tops, down, piles, opponent)

    def _search(self, obs: SpitObservation) -> Search:
        return self.search_for(obs.config.alternating_colours, *_visible(obs))

    def follow_up(self, obs: SpitObservation, action: Action) -> Action | None:
        """The best own play or move after ``action``, in the position it would leave."""
        if obs.phase is not Phase.PLAY or action.kind not in (Kind.PLAY, Kind.MOVE):
            return None
        last, self._last = self._last, None
        search = last[1] if last is not None and last[0] is obs else self._search(obs)
        return self.follow_up_in(search, action)

    def follow_up_in(self, search: Search, action: Action) -> Action | None:
        """``follow_up`` in the position of ``search`` (a play or move of ``action.player``)."""
        return search.best_after(action)

    # ------------------------------------------------------------------ play

    def _best_play(
        self, obs: SpitObservation, legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        search = self._search(obs)
        self._last = (obs, search)
        return self.choose_in_play(search, legal, rng)

    def choose_in_play(self, search: Search, legal: Sequence[Action], rng: random.Random) -> Action:
        """The play (or R10 move) to make from the position of ``search``.

        ``legal`` is the player's legal actions in the engine's order (not empty).
        """
        if self.style.random_play:
            return rng.choice(legal)
        if len(legal) == 1:
            return legal[0]
        return pick_best(search.candidates(legal, self.style.lookahead), rng)


def _mask(cards: list[int | None]) -> int:
    """The known cards among ``cards`` (not None, not UNKNOWN) as bits."""
    out = 0
    for c in cards:
        if c is not None and c >= 0:
            out |= 1 << c
    return out


class Search:
    """Scores actions in one imagined position, changing it in place and back.

    The position is the bot's own stock tops (``UNKNOWN`` for a card still to
    turn up, None for an empty slot), its face-down counts and the pile tops
    (None for a pile not in use); the opponent's visible stock tops stay fixed.
    The score of an action is its own value plus, with ``depth`` left, half
    the best score of the own actions that follow it.

    The lists are the caller's, who may change them between calls (the
    simulator's scheduler hands it the game's own, which the engine keeps up
    to date as the game goes on) and then says so with ``update``; each
    public method leaves them as it found them.
    Counting is done on bit masks of cards (the known own tops, the
    opponent's tops, the cards each pile top takes), which gives the same
    counts as going card by card.
    """

    __slots__ = (
        "avoid_feeding",
        "bounds",
        "down",
        "feed_penalty",
        "keep_options",
        "known",
        "looks_after",
        "masks",
        "move_value",
        "opponent_mask",
        "option_values",
        "piles",
        "play_opens",
        "play_turns_up",
        "rows",
        "style",
        "tops",
        "uncover",
    )

    def __init__(
        self,
        style: Style,
        alternating_colours: bool,
        tops: list[int | None],
        down: list[int],
        piles: list[int | None],
        opponent: list[int],
    ) -> None:
        self.style = style
        self.uncover = style.uncover
        self.keep_options = style.keep_options
        self.avoid_feeding = style.avoid_feeding
        #: the value looks at the position an action leaves
        self.looks_after = style.keep_options or style.avoid_feeding
        # The value's parts that depend on the style alone, worked out once.
        #: a play that turns up a card / that empties a slot with a card
        #: face down elsewhere, at a leaf (see ``_value``) / a move
        self.play_turns_up = PLAY_VALUE + UNCOVER_VALUE if self.uncover else PLAY_VALUE
        self.play_opens = PLAY_VALUE + OPEN_SLOT_VALUE if self.uncover else PLAY_VALUE
        self.move_value = UNCOVER_VALUE if self.uncover else 0.0
        self.option_values = _OPTION_VALUES if self.keep_options else _NO_OPTION_VALUES
        self.feed_penalty = FEED_PENALTY if self.avoid_feeding else 0.0
        self.rows = adjacency_rows(alternating_colours)
        self.masks = adjacency_masks(alternating_colours)
        self.tops = tops
        self.down = down
        self.piles = piles
        #: the opponent's visible stock tops, as bits
        self.opponent_mask = _mask(list(opponent))
        #: the known own tops of the position being scored, as bits
        self.known = _mask(tops)
        #: bounds[d]: no action scores more than this at depth d (the value's
        #: parts at their most, no penalty; each level of lookahead adds half)
        most = PLAY_VALUE
        if self.uncover:
            most += max(UNCOVER_VALUE, OPEN_SLOT_VALUE)
        if self.keep_options:
            most += OPTION_VALUE * MAX_OPTIONS
        bounds = [most]
        for _ in range(style.lookahead):
            bounds.append(most + LOOKAHEAD_DISCOUNT * bounds[-1])
        self.bounds = bounds

    def update(self, known: int, opponent: int) -> None:
        """The caller changed the position's lists in place: its known own tops are
        now ``known`` and the opponent's visible tops ``opponent`` (bits of cards)."""
        self.known = known
        self.opponent_mask = opponent

    def score(self, kind: Kind, s: int, t: int, depth: int) -> float:
        """The value of the action (``kind``, stock ``s``, pile ``t``) from the position."""
        score = self._score(kind, s, t, depth)
        assert score is not None  # (no floor: always worked out)
        return score

    def candidates(self, legal: Sequence[Action], depth: int) -> list[tuple[float, Action]]:
        """``(score, action)`` for the ``legal`` actions that may score best, in their order.

        An action whose score cannot come within ``pick_best``'s tolerance of
        the best (its own value plus the most its lookahead could add is lower)
        is left out without being searched: ``pick_best`` would never pick it,
        so the choice is the same as from every action's score.
        """
        value = self._value
        if depth == 0:
            out = []
            for a in legal:
                out.append((value(a[0], a[2], a[3], 0), a))
            return out
        owns = []
        for kind, _, s, t in legal:
            owns.append(value(kind, s, t, depth))
        reach = LOOKAHEAD_DISCOUNT * self.bounds[depth - 1]
        scores: list[float | None] = [None] * len(legal)
        best = float("-inf")
        for i in sorted(range(len(legal)), key=owns.__getitem__, reverse=True):
            own = owns[i]
            floor = best - TIE  # below this an action cannot be picked
            if own + reach < floor:
                continue  # cannot reach the best
            a = legal[i]
            score = self._score(a[0], a[2], a[3], depth, own, floor)
            if score is None:
                continue  # its lookahead showed it cannot reach the best
            scores[i] = score
            if score > best:
                best = score
        out = []
        for score, a in zip(scores, legal, strict=True):
            if score is not None:
                out.append((score, a))
        return out

    def _value(self, kind: Kind, s: int, t: int, depth: int) -> float:
        """The action's own value, the one formula of the score: what it plays, turns
        up or opens, and the position it leaves (own options, the opponent fed).

        Reads the position without changing it (``known`` must be up to date).
        A move's value does not depend on its stock: the card stays known and
        the piles stay as they are.
        """
        if kind is _PLAY:
            down = self.down
            if down[s]:
                score = self.play_turns_up
            # At a leaf, value the R10 move the emptied slot allows; deeper, the
            # lookahead finds that move itself.
            elif depth == 0 and any(down):
                score = self.play_opens
            else:
                score = PLAY_VALUE
            if not self.looks_after:
                return score
            card = self.tops[s]
            assert card is not None  # (and known: only known cards are scored)
            known = self.known ^ _BITS[card]  # the card leaves the layout
            masks = self.masks
            other = self.piles[1 - t]
            m0 = masks[card]  # the pile played on, then the other one
            m1 = 0 if other is None else masks[other]
        else:  # an R10 move: the card goes to an empty slot and stays known
            score = self.move_value
            if not self.looks_after:
                return score
            known = self.known
            masks = self.masks
            p0, p1 = self.piles
            m0 = 0 if p0 is None else masks[p0]
            m1 = 0 if p1 is None else masks[p1]
        # own known tops that fit a pile top afterwards (all worth 0 without
        # ``keep_options``), then (opponent top, pile) pairs that fit afterwards
        # (a penalty of 0 without ``avoid_feeding``)
        score += self.option_values[(known & (m0 | m1)).bit_count()]
        opponent = self.opponent_mask
        return score - self.feed_penalty * (
            (opponent & m0).bit_count() + (opponent & m1).bit_count()
        )

    def _score(
        self,
        kind: Kind,
        s: int,
        t: int,
        depth: int,
        own: float | None = None,
        floor: float = _NO_FLOOR,
    ) -> float | None:
        """``_value`` (``own``, if already known) plus, with ``depth`` left, half
        the best score of the own actions that follow.

        None if the score is below ``floor`` (then not worked out exactly: the
        caller has no use for a score below it); otherwise the exact score.
        """
        score = self._value(kind, s, t, depth) if own is None else own
        if depth == 0:
            return score
        tops = self.tops
        down = self.down
        card = tops[s]
        known = self.known
        need = (floor - score) / LOOKAHEAD_DISCOUNT  # what follows must score this much
        # The position after the action, a turned-up card unknown (as in
        # ``best_after``); what follows is scored there, then all is put back.
        if kind is _PLAY:
            assert card is not None
            piles = self.piles
            old_top = piles[t]
            piles[t] = card
            self.known = known ^ _BITS[card]
            under = down[s]
            if under:
                tops[s] = UNKNOWN
                down[s] = under - 1
            else:
                tops[s] = None
            best = self._best_next(depth - 1, need)
            down[s] = under
            piles[t] = old_top
            self.known = known
        else:  # an R10 move: where the engine puts it (the leftmost empty slot)
            slot = _landing(tops)
            tops[slot] = card
            tops[s] = UNKNOWN
            down[s] -= 1
            best = self._best_next(depth - 1, need)
            down[s] += 1
            tops[slot] = None
        tops[s] = card
        if best is None:
            return score
        return None if best < need else score + LOOKAHEAD_DISCOUNT * best

    def _best_next(self, depth: int, need: float = _NO_FLOOR) -> float | None:
        """The best score at ``depth`` of the own actions open in the position
        (plays of known cards, R10 moves), or None if there is none; if none
        scores ``need``, some score below ``need`` (the best is then not worked
        out exactly).

        Only the best score counts, so an action whose own value plus the most
        its lookahead could add cannot beat the best so far, or reach ``need``,
        is not searched.
        """
        tops = self.tops
        down = self.down
        p0, p1 = self.piles
        rows = self.rows
        r0 = NO_CARD_FITS if p0 is None else rows[p0]
        r1 = NO_CARD_FITS if p1 is None else rows[p1]
        value = self._value
        if depth == 0:  # only values: the best is all that is needed
            top: float | None = None
            empty = False
            for ns, c in enumerate(tops):
                if c is None:
                    empty = True
                elif c >= 0:
                    if r0[c]:
                        v = value(_PLAY, ns, 0, 0)
                        if top is None or v > top:
                            top = v
                    if r1[c]:
                        v = value(_PLAY, ns, 1, 0)
                        if top is None or v > top:
                            top = v
            if empty and any(down):
                for ns, c in enumerate(tops):
                    if c is not None and c >= 0 and down[ns]:
                        v = value(_MOVE, ns, 0, 0)  # (every move has this value)
                        if top is None or v > top:
                            top = v
                        break
            return top
        nexts: list[tuple[float, Kind, int, int]] = []
        empty = False
        for ns, c in enumerate(tops):
            if c is None:
                empty = True
            elif c >= 0:
                if r0[c]:
                    nexts.append((value(_PLAY, ns, 0, depth), _PLAY, ns, 0))
                if r1[c]:
                    nexts.append((value(_PLAY, ns, 1, depth), _PLAY, ns, 1))
        if empty and any(down):
            moved: float | None = None  # (every move has the same value)
            for ns, c in enumerate(tops):
                if c is not None and c >= 0 and down[ns]:
                    if moved is None:
                        moved = value(_MOVE, ns, 0, depth)
                    nexts.append((moved, _MOVE, ns, 0))
        if not nexts:
            return None
        reach = LOOKAHEAD_DISCOUNT * self.bounds[depth - 1]
        nexts.sort(reverse=True)
        found: float | None = None
        for own, kind, s, t in nexts:
            most = own + reach
            if most < need or (found is not None and most <= found):
                break  # sorted: no later action can matter either
            floor = need if found is None or found < need else found
            score = self._score(kind, s, t, depth, own, floor)
            if score is not None and (found is None or score > found):
                found = score
        # (None here: every action was found below ``need``.)
        return _NO_FLOOR if found is None else found

    def best_after(self, action: Action) -> Action | None:
        """The best own play or move (of the same player) after ``action``, scored at
        depth 0 (the first of equal scores), or None if none would be open.

        The position is changed for the look and put back as it was.
        """
        kind, player, s, t = action
        tops = self.tops
        down = self.down
        card = tops[s]
        assert card is not None and card != UNKNOWN
        known = self.known
        # What the position after the action (as in ``_score``) offers: its
        # pile tops, its known own tops and whether it has an empty slot.
        p0, p1 = self.piles
        if kind is _PLAY:
            after = known ^ _BITS[card]
            if t == 0:
                p0 = card
            else:
                p1 = card
            empty = not down[s] or None in tops
        else:
            after = known
            empty = tops.count(None) > 1  # the move fills the leftmost one
        masks = self.masks
        fit0 = 0 if p0 is None else after & masks[p0]
        fit1 = 0 if p1 is None else after & masks[p1]
        fits = fit0 | fit1
        plays = _PLAYS[player]
        if not empty and fits.bit_count() < 2 and not (fit0 and fit1):
            # No R10 move and at most one play: that play is the best, whatever it is worth.
            if not fits:
                return None
            only = fits.bit_length() - 1  # the one card that fits
            ns = _landing(tops) if kind is _MOVE and only == card else tops.index(only)
            return plays[ns][0 if fit0 else 1]
        # The first best of the own actions that follow: plays of known cards in
        # stock order (pile 1 before pile 2), then R10 moves in stock order; worked
        # out in the position after the action.
        piles = self.piles
        slot = -1
        old_top: int | None = None
        if kind is _PLAY:
            old_top = piles[t]
            piles[t] = card
            self.known = after
            if down[s]:
                tops[s] = UNKNOWN
                down[s] -= 1
            else:
                tops[s] = None
        else:
            slot = _landing(tops)
            tops[slot] = card
            tops[s] = UNKNOWN
            down[s] -= 1
        best: Action | None = None
        best_score = float("-inf")
        value_of = self._value
        if fits.bit_count() == 1:  # one card to play (on one pile or both)
            ns = tops.index(fits.bit_length() - 1)
            if fit0:
                best, best_score = plays[ns][0], value_of(_PLAY, ns, 0, 0)
            if fit1:
                value = value_of(_PLAY, ns, 1, 0)
                if value > best_score:
                    best, best_score = plays[ns][1], value
        elif fits:
            rows = self.rows
            r0 = NO_CARD_FITS if p0 is None else rows[p0]
            r1 = NO_CARD_FITS if p1 is None else rows[p1]
            for ns, c in enumerate(tops):
                if c is not None and c >= 0:
                    if r0[c]:
                        value = value_of(_PLAY, ns, 0, 0)
                        if value > best_score:
                            best, best_score = plays[ns][0], value
                    if r1[c]:
                        value = value_of(_PLAY, ns, 1, 0)
                        if value > best_score:
                            best, best_score = plays[ns][1], value
        # Every move has the same value (``_value`` does not read a move's stock):
        # the first one, if any, is the best only if that value beats the plays.
        if empty and any(down) and value_of(_MOVE, 0, 0, 0) > best_score:
            for ns, c in enumerate(tops):
                if c is not None and c >= 0 and down[ns]:
                    best = _MOVES[player][ns]
                    break
        # back as it was
        self.known = known
        if kind is _PLAY:
            if tops[s] is not None:
                down[s] += 1
            piles[t] = old_top
        else:
            down[s] += 1
            tops[slot] = None
        tops[s] = card
        return best


def _landing(tops: list[int | None]) -> int:
    """Where a card moved in the imagined position lands: the engine's R10 slot."""
    slot = Game.move_slot(tops)
    assert slot is not None  # (a move is only imagined where there is an empty slot)
    return slot


def _visible(
    obs: SpitObservation,
) -> tuple[list[int | None], list[int], list[int | None], list[int]]:
    """Own stock tops and face-down counts, pile tops (None if unused), opponent's tops."""
    me = obs.player
    own = obs.stocks[me]
    tops: list[int | None] = [v.top for v in own]
    down = [v.face_down for v in own]
    opponent = [v.top for v in obs.stocks[1 - me] if v.top is not None]
    piles = [p.top if p.in_use else None for p in obs.piles]
    return tops, down, piles, opponent
