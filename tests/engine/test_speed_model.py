"""The Speed engine against an independent model written from RULES.md (P1-P7, H5, H6).

As ``test_spit_model``: the model reads a position, lists what is legal and
predicts what every action leads to; random playouts with illegal attempts
mixed in compare the engine with it at every step. Where the rules shuffle
(P5's new side piles) the model checks which cards went where and how many.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

import pytest

from spit.engine import FLIP, STALL, SYSTEM, Phase, SpeedConfig, SpeedGame
from spit.engine.actions import Action, Kind, call, play
from spit.engine.errors import IllegalAction

from .test_spit_model import fits

HAND = 5


@dataclass
class Table:
    """A copy of what Speed's rules talk about, read off the engine."""

    hands: list[list[int | None]]
    draw: list[list[int]]
    side: list[list[int]]
    piles: list[list[int]]
    centre: list[int]
    phase: Phase
    called: list[bool]
    scores: list[int]
    round_no: int
    config: SpeedConfig = field(repr=False)

    @classmethod
    def of(cls, game: SpeedGame) -> Table:
        return cls(
            hands=[list(h) for h in game.hands],
            draw=[list(d) for d in game.draw],
            side=[list(s) for s in game.side],
            piles=[list(p) for p in game.piles],
            centre=list(game.centre),
            phase=game.phase,
            called=list(game.called),
            scores=list(game.scores),
            round_no=game.round_no,
            config=game.config,
        )

    def fits(self, card: int, pile: int) -> bool:
        top = self.piles[pile]
        return bool(top) and fits(card, top[-1], self.config.alternating_colours)

    def legal(self, p: int) -> set[Action]:
        if p == SYSTEM:
            system = {Phase.PLAY: {STALL}, Phase.STALEMATE: {FLIP}}  # H6, P4
            return system.get(self.phase, set())
        if self.phase is Phase.OPENING:
            return set() if self.called[p] else {call(p)}  # P2: "ready"
        return self.plays(p) if self.phase is Phase.PLAY else set()

    def plays(self, p: int) -> set[Action]:
        return {  # P3: a hand card one rank from a pile's top (V3: and the other colour)
            play(p, s, t)
            for s, card in enumerate(self.hands[p])
            for t in (0, 1)
            if card is not None and self.fits(card, t)
        }

    def stuck(self) -> bool:
        return not (self.plays(0) or self.plays(1))

    def held(self, p: int) -> int:
        return sum(c is not None for c in self.hands[p]) + len(self.draw[p])


def check_against_model(game: SpeedGame, action: Action, rng: random.Random) -> None:
    """Apply ``action`` to ``game`` and to the model; they must agree."""
    table = Table.of(game)
    legal = table.legal(action.player)
    assert set(game.legal_actions(action.player)) == legal, (table.phase, action)
    if action not in legal:
        with pytest.raises(IllegalAction):
            game.apply(action)
        assert Table.of(game) == table, "a refused action changed the game"
        return
    kind, p, s, t = action
    if kind is Kind.CALL:
        table.called[p] = True
        if all(table.called):  # P2: both ready: both centre cards turn up at once
            table.piles = [[table.centre[0]], [table.centre[1]]]
            table.centre, table.called = [], [False, False]
            table.phase = Phase.STALEMATE if table.stuck() else Phase.PLAY
    elif kind is Kind.STALL:
        table.phase = Phase.STALEMATE  # H6: counts as a stalemate (P4)
    elif kind is Kind.PLAY:
        card = table.hands[p][s]
        assert card is not None
        table.piles[t].append(card)
        table.hands[p][s] = table.draw[p].pop() if table.draw[p] else None  # P3: draw back up
        if table.held(p) == 0:  # P6
            return check_game_won(game, action, table, p)
        if table.stuck():
            table.phase = Phase.STALEMATE  # P4
    else:
        assert kind is Kind.FLIP
        if not table.side[0] and not table.side[1]:
            return check_refill(game, table)
        flip(table)
    game.apply(action)
    assert Table.of(game) == table, action


def flip(table: Table) -> None:
    """P4: each side pile turns its top card onto the spit pile next to it."""
    for j in (0, 1):
        if table.side[j]:
            table.piles[j].append(table.side[j].pop())
    table.phase = Phase.STALEMATE if table.stuck() else Phase.PLAY


def check_refill(game: SpeedGame, table: Table) -> None:
    """P5 (or H5 when it cannot help): the side piles are empty at a stalemate."""
    gathered = table.piles[0][:-1] + table.piles[1][:-1]
    held = [c for hand in table.hands for c in hand if c is not None]
    centre = [c for pile in table.piles for c in pile]
    helps = any(fits(c, top, table.config.alternating_colours) for top in centre for c in held)
    if not gathered or not helps:  # H5: fewer cards wins, equal is a draw
        winner = None if table.held(0) == table.held(1) else int(table.held(1) < table.held(0))
        game.apply(FLIP)
        if winner is None:
            if not game.config.match:
                assert game.phase is Phase.GAME_OVER and game.winner is None
            else:
                assert game.round_no == table.round_no + 1 or game.phase is Phase.GAME_OVER
            return
        return check_game_won(game, FLIP, table, winner, applied=True)
    game.apply(FLIP)
    half = (len(gathered) + 1) // 2  # the larger half on player 1's side
    sizes = [half, len(gathered) - half]
    after = Table.of(game)
    assert [p[0] for p in after.piles] == [table.piles[0][-1], table.piles[1][-1]]
    flipped = [after.piles[j][1:] for j in (0, 1)]
    assert [len(after.side[j]) + len(flipped[j]) for j in (0, 1)] == sizes
    assert all(len(f) == (1 if n else 0) for f, n in zip(flipped, sizes, strict=True))
    assert Counter(after.side[0] + after.side[1] + flipped[0] + flipped[1]) == Counter(gathered)
    table.piles = after.piles
    table.side = after.side
    table.phase = Phase.STALEMATE if table.stuck() else Phase.PLAY
    assert after == table


def check_game_won(
    game: SpeedGame, action: Action, table: Table, winner: int, applied: bool = False
) -> None:
    """P6/H5 won a game; P7: in a match the winner scores the loser's draw pile."""
    if not applied:
        game.apply(action)
    if not game.config.match:
        assert game.phase is Phase.GAME_OVER and game.winner == winner
        return
    scores = list(table.scores)
    scores[winner] += len(table.draw[1 - winner])
    assert list(game.scores) == scores
    if scores[winner] >= game.config.target_score:
        assert game.phase is Phase.GAME_OVER and game.winner == winner
    elif game.phase is not Phase.GAME_OVER:  # else H4's round limit
        assert game.round_no == table.round_no + 1 and game.phase is Phase.OPENING


def dealt_as_p1(game: SpeedGame) -> None:
    """P1/P1b and P2: who holds how many cards at a deal."""
    n, k = (20, 5) if game.config.long_deal else (15, 10)
    assert [len(h) + len(d) for h, d in zip(game.hands, game.draw, strict=True)] == [n, n]
    assert all(None not in h and len(h) == HAND for h in game.hands)
    assert [len(s) for s in game.side] == [k, k] and len(game.centre) == 2


CONFIGS = [
    SpeedConfig(round_limit=50),
    SpeedConfig(long_deal=True, round_limit=50),
    SpeedConfig(alternating_colours=True, round_limit=50),
    SpeedConfig(target_score=40, round_limit=30),
]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "".join(c.variants) or "none")
def test_the_speed_engine_agrees_with_a_model_written_from_the_rules(config: SpeedConfig) -> None:
    refills = 0
    for seed in range(15):
        rng = random.Random(seed)
        game = SpeedGame(config, seed)
        dealt_as_p1(game)
        for _ in range(4000):
            if game.phase is Phase.GAME_OVER:
                break
            round_no = game.round_no
            table = Table.of(game)
            if rng.random() < 0.25:
                p = rng.choice((0, 1))
                action = rng.choice(
                    [play(p, rng.randrange(HAND), rng.randrange(2)), call(p), STALL, FLIP]
                )
            else:
                legal = sorted(table.legal(0) | table.legal(1) | table.legal(SYSTEM))
                action = rng.choice(legal)
            refills += action is FLIP and table.phase is Phase.STALEMATE and not any(table.side)
            check_against_model(game, action, rng)
            if game.round_no != round_no and game.phase is Phase.OPENING:
                dealt_as_p1(game)
    assert refills > 0  # the playouts reached P5
