"""The engine against an independent model of Spit written from RULES.md alone.

The model reads a position (stocks, spit cards, piles, phase, calls, slaps),
lists what each player may do there and predicts what every action, legal or
not, leads to: the next position exactly within a round, and at a round's end
who takes which pile, each player's cards, the new layout's shape (R3, R18),
the scores (V4) and the winner (R20, H4). Random playouts, with random
illegal attempts mixed in, compare the engine with it at every step.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

import pytest

from spit.engine import CLOSE, STALL, SYSTEM, Phase, SpitConfig, SpitGame
from spit.engine.actions import Action, Kind, call, choose, move, play, slap
from spit.engine.errors import IllegalAction

RANKS = 13


def rank(card: int) -> int:
    return card % RANKS + 1


def red(card: int) -> bool:
    return card // RANKS in (1, 2)  # diamonds, hearts


def fits(card: int, top: int, alternating: bool) -> bool:
    """R7, R8 (and V3): one rank up or down, turning the corner."""
    apart = abs(rank(card) - rank(top))
    return apart in (1, RANKS - 1) and (not alternating or red(card) != red(top))


@dataclass
class Position:
    """A copy of what the rules talk about, read off the engine."""

    stocks: list[list[list[int]]]
    spit: list[list[int]]
    piles: list[list[int]]
    used: list[bool]
    phase: Phase
    called: list[bool]
    slaps: list[tuple[int, int]]
    chooser: int | None
    scores: list[int]
    round_no: int
    config: SpitConfig = field(repr=False)

    @classmethod
    def of(cls, game: SpitGame) -> Position:
        return cls(
            stocks=[[list(s) for s in game.stocks[p]] for p in (0, 1)],
            spit=[list(game.spit[p]) for p in (0, 1)],
            piles=[list(game.piles[p]) for p in (0, 1)],
            used=[game.pile_in_use(0), game.pile_in_use(1)],
            phase=game.phase,
            called=list(game.called),
            slaps=list(game.slaps),
            chooser=game.chooser,
            scores=list(game.scores),
            round_no=game.round_no,
            config=game.config,
        )

    # ------------------------------------------------------------ what is legal

    def plays(self, p: int) -> set[Action]:
        out: set[Action] = set()
        for s, stock in enumerate(self.stocks[p]):
            for t in (0, 1):
                if stock and self.used[t] and fits(stock[-1], self.piles[t][-1], self.alt):
                    out.add(play(p, s, t))
        return out

    def moves(self, p: int) -> set[Action]:
        """R10: into an empty slot, from a stock of more than one card."""
        if all(self.stocks[p]):
            return set()
        return {move(p, s) for s, stock in enumerate(self.stocks[p]) if len(stock) > 1}

    def legal(self, p: int) -> set[Action]:
        if p == SYSTEM:
            if self.phase is Phase.PLAY:
                return {STALL}  # H6
            if self.phase in (Phase.SLAP, Phase.CHOOSE):
                return {CLOSE}  # H3
            return set()
        if self.phase is Phase.PLAY:
            return self.plays(p) | self.moves(p)
        if self.phase in (Phase.OPENING, Phase.STALEMATE):
            # R5, R13, H2: a player holding spit cards calls, once
            return {call(p)} if self.spit[p] and not self.called[p] else set()
        if self.phase is Phase.SLAP:
            return set() if any(q == p for q, _ in self.slaps) else {slap(p, 0), slap(p, 1)}
        if self.phase is Phase.CHOOSE and p == self.chooser:
            return {choose(p, 0), choose(p, 1)}  # V2
        return set()

    @property
    def alt(self) -> bool:
        return self.config.alternating_colours

    def stuck(self) -> bool:
        """R12: nobody can play onto a pile nor turn up a card by R10."""
        return not any(self.plays(p) or self.moves(p) for p in (0, 1))

    # -------------------------------------------------------------- predicting

    def step(self, action: Action) -> Outcome:
        """What ``action`` (legal here) leads to."""
        kind, p, s, t = action
        if kind is Kind.PLAY:
            card = self.stocks[p][s].pop()
            self.piles[t].append(card)
            if not any(self.stocks[p]):
                return self.round_over(emptied_by=p)  # R15(a)
            return self.after_progress()
        if kind is Kind.MOVE:
            slot = next(i for i, stock in enumerate(self.stocks[p]) if not stock)
            self.stocks[p][slot].append(self.stocks[p][s].pop())
            return self.after_progress()
        if kind is Kind.STALL:
            return self.stalemate()  # H6 counts as a stalemate
        if kind is Kind.CALL:
            self.called[p] = True
            if all(self.called[q] or not self.spit[q] for q in (0, 1)):
                for q in (0, 1):  # R5, R13, R14: each spits onto their own pile
                    if self.spit[q]:
                        self.piles[q].append(self.spit[q].pop())
                self.called = [False, False]
                self.phase = Phase.PLAY
                return self.after_progress()
            return Outcome(self)
        if kind is Kind.SLAP:
            self.slaps.append((p, t))
            if len(self.slaps) == 2:
                return self.take(self.slap_takes())
            return Outcome(self)
        if kind is Kind.CHOOSE:
            return self.take(self.chosen(t))
        assert kind is Kind.CLOSE
        if self.phase is Phase.SLAP:
            return self.take(self.slap_takes())
        return self.take(self.chosen(None))

    def after_progress(self) -> Outcome:
        return self.stalemate() if self.stuck() else Outcome(self)

    def stalemate(self) -> Outcome:
        if self.spit[0] or self.spit[1]:
            self.phase = Phase.STALEMATE  # R13, R14
            self.called = [False, False]
            return Outcome(self)
        return self.round_over(emptied_by=None)  # R15(b)

    def round_over(self, emptied_by: int | None) -> Outcome:
        if self.config.scoring:  # V4: a point per card held, before any pile is taken
            for q in (0, 1):
                self.scores[q] += sum(map(len, self.stocks[q])) + len(self.spit[q])
            if max(self.scores) >= self.config.target_score:
                a, b = self.scores
                return Outcome(self, over=True, winner=None if a == b else int(b < a))
        if self.used[0] and self.used[1]:
            if self.config.choose_pile and emptied_by is not None:
                self.phase, self.chooser = Phase.CHOOSE, emptied_by  # V2
            else:
                self.phase = Phase.SLAP  # R16
            self.slaps = []
            return Outcome(self)
        owner = 0 if self.used[0] else 1
        takes: list[int | None] = [None, None]
        if emptied_by is not None:
            takes[1 - emptied_by] = owner  # R19: the other player takes the pile
        else:
            takes[owner] = owner  # H1
        return self.take(takes)

    def slap_takes(self) -> list[int | None]:
        """R16: the first slap on a pile takes it, the other player the other pile;
        nobody slapping: each their own side."""
        if not self.slaps:
            return [0, 1]
        first, pile = self.slaps[0]
        takes: list[int | None] = [None, None]
        takes[first], takes[1 - first] = pile, 1 - pile
        return takes

    def chosen(self, pile: int | None) -> list[int | None]:
        """V2: the chooser's pile; out of time, the smaller one (their own if equal)."""
        c = self.chooser
        assert c is not None
        if pile is None:
            pile = c if len(self.piles[c]) <= len(self.piles[1 - c]) else 1 - c
        takes: list[int | None] = [None, None]
        takes[c], takes[1 - c] = pile, 1 - pile
        return takes

    def take(self, takes: list[int | None]) -> Outcome:
        """R17, R19, R20: what each player holds once the piles are taken."""
        held = []
        for q in (0, 1):
            cards = [c for stock in self.stocks[q] for c in stock] + self.spit[q]
            if takes[q] is not None:
                cards += self.piles[takes[q]]
            held.append(Counter(cards))
        return Outcome(self, held=held, takes=takes)


@dataclass
class Outcome:
    """The predicted result of one action."""

    position: Position
    held: list[Counter[int]] | None = None  # the round ended: what each player gathered
    takes: list[int | None] | None = None
    over: bool = False  # V4 ended the match before any pile was taken
    winner: int | None = None


def layout_shape(n_cards: int, n_stocks: int) -> tuple[list[int], int]:
    """R3, R18: the stock sizes and spit cards a player with ``n_cards`` is dealt."""
    sizes = [0] * n_stocks
    order = [s for row in range(n_stocks) for s in range(row, n_stocks)]
    for s in order[:n_cards]:
        sizes[s] += 1
    return sizes, max(0, n_cards - len(order))


def check_against_model(game: SpitGame, action: Action, before: Position) -> None:
    """Apply ``action`` to ``game`` and to the model; they must agree."""
    legal = before.legal(action.player)
    assert set(game.legal_actions(action.player)) == legal, (before.phase, action)
    if action not in legal:
        with pytest.raises(IllegalAction):
            game.apply(action)
        assert Position.of(game) == before, "a refused action changed the game"
        return
    outcome = before.step(action)
    game.apply(action)
    after = Position.of(game)
    if outcome.held is None and not outcome.over:
        assert after == outcome.position, action
        return
    if outcome.over:  # V4: the match ended at once, no slap
        assert game.phase is Phase.GAME_OVER and game.winner == outcome.winner
        assert list(game.scores) == outcome.position.scores
        return
    held = outcome.held
    assert held is not None
    empty = [q for q in (0, 1) if not held[q]]
    scoring = game.config.scoring
    if empty and not scoring:  # R20: no cards at all wins
        assert game.phase is Phase.GAME_OVER and game.winner == empty[0]
        assert [Counter(g) for g in game.gathered] == held
        return
    if game.phase is Phase.GAME_OVER:  # H4: the round limit
        assert before.round_no >= game.config.round_limit and game.winner is None
        return
    assert game.round_no == before.round_no + 1 and game.phase is Phase.OPENING
    assert list(game.scores) == outcome.position.scores
    if empty:  # V4: a game won by R20 goes on with a fresh deal (R2)
        assert [sum(map(len, game.stocks[q])) + len(game.spit[q]) for q in (0, 1)] == [26, 26]
        return
    for q in (0, 1):  # R17: everything gathered is dealt again, by R3 and R18
        dealt = Counter([c for stock in game.stocks[q] for c in stock] + game.spit[q])
        assert dealt == held[q], f"player {q + 1} was dealt other cards than they gathered"
        sizes, n_spit = layout_shape(sum(held[q].values()), game.n_stocks)
        assert [len(s) for s in game.stocks[q]] == sizes and len(game.spit[q]) == n_spit
        assert game.pile_in_use(q) == (n_spit > 0)  # R18: no spit cards, no pile


def any_action(rng: random.Random, n_stocks: int) -> Action:
    """Any action at all, legal or not, by anyone."""
    p = rng.choice((0, 1))
    return rng.choice(
        [
            play(p, rng.randrange(n_stocks), rng.randrange(2)),
            move(p, rng.randrange(n_stocks)),
            call(p),
            slap(p, rng.randrange(2)),
            choose(p, rng.randrange(2)),
            STALL,
            CLOSE,
        ]
    )


CONFIGS = [
    SpitConfig(round_limit=60),
    SpitConfig(four_stocks=True, choose_pile=True, round_limit=60),
    SpitConfig(alternating_colours=True, choose_pile=True, round_limit=60),
    SpitConfig(scoring=True, target_score=80, round_limit=60),
    SpitConfig(four_stocks=True, scoring=True, target_score=150, round_limit=8),
]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "".join(c.variants) or "none")
def test_the_engine_agrees_with_a_model_written_from_the_rules(config: SpitConfig) -> None:
    rounds = one_pile_rounds = 0
    for seed in range(12):
        rng = random.Random(seed)
        game = SpitGame(config, seed)
        for _ in range(6000):
            if game.phase is Phase.GAME_OVER:
                break
            before = Position.of(game)
            if rng.random() < 0.3:
                action = any_action(rng, game.n_stocks)
            else:
                legal = sorted(
                    set().union(*(before.legal(p) for p in (0, 1)))
                    | (before.legal(SYSTEM) if rng.random() < 0.05 else set())
                )
                action = rng.choice(legal) if legal else STALL
            check_against_model(game, action, before)
            if game.round_no != before.round_no:
                rounds += 1
                one_pile_rounds += game.one_pile_round
    assert rounds > 50 and one_pile_rounds > 0  # the playouts reached R17-R19
