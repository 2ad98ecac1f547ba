"""The Spit bots' ``Search`` gives the scores its definition says, on any position.

``Search`` is written for speed (card bit masks, a position changed in place
and put back). ``plain_score`` below is the definition written plainly, card
by card on copies; both must agree exactly, at every depth and in every style,
and the search must leave the position as it found it.
"""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from spit.bots.common import pick_best
from spit.bots.spit_strategy import (
    FEED_PENALTY,
    LOOKAHEAD_DISCOUNT,
    MAX_OPTIONS,
    OPEN_SLOT_VALUE,
    OPTION_VALUE,
    PLAY_VALUE,
    UNCOVER_VALUE,
    UNKNOWN,
    Search,
)
from spit.bots.style import STYLES, Style
from spit.engine import Kind, move, play
from spit.engine.cards import adjacency_rows

Position = tuple[list[int | None], list[int], list[int | None], list[int]]


def fits(rows: tuple[tuple[bool, ...], ...], card: int, pile: int | None) -> bool:
    return pile is not None and rows[pile][card]


def own_actions(
    rows: tuple[tuple[bool, ...], ...],
    tops: list[int | None],
    down: list[int],
    piles: list[int | None],
) -> list[tuple[Kind, int, int]]:
    """Plays of known cards (stock order, pile 1 first), then R10 moves (stock order)."""
    out = [
        (Kind.PLAY, s, t)
        for s, c in enumerate(tops)
        if c is not None and c != UNKNOWN
        for t in (0, 1)
        if fits(rows, c, piles[t])
    ]
    if None in tops:
        out += [
            (Kind.MOVE, s, 0)
            for s, c in enumerate(tops)
            if c is not None and c != UNKNOWN and down[s] > 0
        ]
    return out


def plain_score(
    style: Style,
    rows: tuple[tuple[bool, ...], ...],
    position: Position,
    action: tuple[Kind, int, int],
    depth: int,
) -> float:
    """An action's score by the definition, on copies of the position."""
    tops, down, piles, opponent = (list(x) for x in position)
    kind, s, t = action
    card = tops[s]
    assert card is not None and card != UNKNOWN
    if kind is Kind.PLAY:
        piles[t] = card
        score = PLAY_VALUE
        if down[s] > 0:
            tops[s] = UNKNOWN
            down[s] -= 1
            if style.uncover:
                score += UNCOVER_VALUE
        else:
            tops[s] = None
            if style.uncover and depth == 0 and any(d > 0 for d in down):
                score += OPEN_SLOT_VALUE
    else:
        slot = tops.index(None)
        tops[slot] = card
        tops[s] = UNKNOWN
        down[s] -= 1
        score = UNCOVER_VALUE if style.uncover else 0.0
    if style.keep_options:
        known = [c for c in tops if c is not None and c != UNKNOWN]
        fitting = sum(1 for c in known if fits(rows, c, piles[0]) or fits(rows, c, piles[1]))
        score += OPTION_VALUE * min(fitting, MAX_OPTIONS)
    if style.avoid_feeding:
        fed = sum(1 for c in opponent for p in piles if fits(rows, c, p))
        score -= FEED_PENALTY * fed
    if depth > 0:
        after = (tops, down, piles, opponent)
        values = [
            plain_score(style, rows, after, a, depth - 1)
            for a in own_actions(rows, tops, down, piles)
        ]
        if values:
            score += LOOKAHEAD_DISCOUNT * max(values)
    return score


@st.composite
def positions(draw: st.DrawFn) -> tuple[Position, bool]:
    """A player's stocks (some empty), both pile tops (one maybe unused), the opponent's tops."""
    n = draw(st.sampled_from([4, 5]))
    cards = draw(st.permutations(range(52)))
    own, rest = cards[:n], cards[n:]
    tops: list[int | None] = []
    down: list[int] = []
    for s in range(n):
        if draw(st.integers(0, 3)) == 0:
            tops.append(None)
            down.append(0)
        else:
            tops.append(own[s])
            down.append(draw(st.integers(0, 4)))
    piles: list[int | None] = [rest[0], rest[1]]
    if draw(st.booleans()) and draw(st.booleans()):
        piles[draw(st.integers(0, 1))] = None  # a one-pile round (R18)
    opponent = list(rest[2 : 2 + draw(st.integers(0, 5))])
    return (tops, down, piles, opponent), draw(st.booleans())


styles = st.sampled_from(list(STYLES.values())).flatmap(
    lambda base: st.builds(
        lambda u, k, f, d: replace(base, uncover=u, keep_options=k, avoid_feeding=f, lookahead=d),
        st.booleans(),
        st.booleans(),
        st.booleans(),
        st.integers(0, 3),
    )
)


@settings(max_examples=300, deadline=None)
@given(drawn=positions(), style=styles)
def test_search_scores_are_the_definitions(drawn: tuple[Position, bool], style: Style) -> None:
    position, alternating = drawn
    rows = adjacency_rows(alternating)
    tops, down, piles, opponent = position
    before = (list(tops), list(down), list(piles))
    search = Search(style, alternating, tops, down, piles, list(opponent))
    for action in own_actions(rows, tops, down, piles):
        for depth in range(style.lookahead + 1):
            expected = plain_score(style, rows, position, action, depth)
            assert search.score(*action, depth) == expected
            assert (tops, down, piles) == before  # put back as it was


@settings(max_examples=300, deadline=None)
@given(drawn=positions(), style=styles)
def test_the_follow_up_is_the_first_best_action_after(
    drawn: tuple[Position, bool], style: Style
) -> None:
    position, alternating = drawn
    rows = adjacency_rows(alternating)
    tops, down, piles, opponent = position
    before = (list(tops), list(down), list(piles))
    search = Search(style, alternating, tops, down, piles, list(opponent))
    for action in own_actions(rows, tops, down, piles):
        # the position after ``action``, a turned-up card unknown
        kind, s, t = action
        after_tops, after_down, after_piles = list(tops), list(down), list(piles)
        card = after_tops[s]
        if kind is Kind.PLAY:
            after_piles[t] = card
            after_tops[s] = UNKNOWN if after_down[s] else None
            after_down[s] = max(0, after_down[s] - 1)
        else:
            after_tops[after_tops.index(None)] = card
            after_tops[s] = UNKNOWN
            after_down[s] -= 1
        after = (after_tops, after_down, after_piles, opponent)
        expected = None
        best = float("-inf")
        for follow in own_actions(rows, after_tops, after_down, after_piles):
            value = plain_score(style, rows, after, follow, 0)
            if value > best:
                expected, best = follow, value
        found = search.best_after(play(1, s, t) if kind is Kind.PLAY else move(1, s))
        assert found is None or found.player == 1
        assert (None if found is None else (found.kind, found.source, found.target)) == expected
        assert (tops, down, piles) == before


@settings(max_examples=300, deadline=None)
@given(drawn=positions(), style=styles, seed=st.integers(0, 2**32))
def test_the_candidates_give_the_same_choice_as_every_score(
    drawn: tuple[Position, bool], style: Style, seed: int
) -> None:
    """``candidates`` leaves out actions its lookahead shows cannot be picked:
    the ones it keeps have their exact scores, the ones it leaves out score
    below the best, and ``pick_best`` picks the same (same generator draws)."""
    position, alternating = drawn
    rows = adjacency_rows(alternating)
    tops, down, piles, opponent = position
    legal = [
        play(0, s, t) if kind is Kind.PLAY else move(0, s)
        for kind, s, t in own_actions(rows, tops, down, piles)
    ]
    if not legal:
        return
    depth = style.lookahead
    scores = [
        plain_score(style, rows, position, (a.kind, a.source, a.target), depth) for a in legal
    ]
    search = Search(style, alternating, tops, down, piles, list(opponent))
    kept = search.candidates(legal, depth)
    best = max(scores)
    for score, action in kept:
        assert score == scores[legal.index(action)]
    left_out = set(legal) - {a for _, a in kept}
    assert all(scores[legal.index(a)] < best - 1e-9 for a in left_out)
    assert [a for _, a in kept] == [a for a in legal if a not in left_out]  # in their order
    everything = list(zip(scores, legal, strict=True))
    assert pick_best(kept, random.Random(seed)) == pick_best(everything, random.Random(seed))
