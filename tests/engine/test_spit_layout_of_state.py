"""How a Spit game keeps its state: few enough attributes for CPython's fast reads,
and the play table the legal-action listing reads agreeing with the rules."""

from __future__ import annotations

import random

from spit.engine import SpitConfig, SpitGame
from spit.engine.actions import Kind, move, play
from spit.engine.base import Phase

#: CPython 3.11 reads an instance's attributes at full speed only while its dict
#: shares its keys with the class's other instances, which it stops doing at 30
#: keys; every self.x in the engine's hot paths relies on it.
MOST_ATTRIBUTES = 29


def test_a_game_dealt_from_its_seed_keeps_fewer_attributes_than_cpythons_limit() -> None:
    for config in (SpitConfig(), SpitConfig.from_variants(["V1", "V2", "V3", "V4"])):
        game = SpitGame(config, seed=3)
        assert len(vars(game)) <= MOST_ATTRIBUTES, sorted(vars(game))
        for action in game.legal_actions(0)[:1]:
            game.apply(action)
        assert len(vars(game)) <= MOST_ATTRIBUTES, sorted(vars(game))


def _listed_by_hand(game: SpitGame, player: int) -> list[object]:
    """The player's legal plays and R10 moves in play, straight from the cards."""
    out: list[object] = []
    tops = game.tops[player]
    for s, card in enumerate(tops):
        for t in (0, 1):
            onto = game.pile_tops[t]
            if card is not None and onto is not None and game.fits(card, onto):
                out.append(play(player, s, t))
    if None in tops:
        out += [move(player, s) for s, under in enumerate(game.down[player]) if under]
    return out


def test_the_listed_plays_and_moves_are_those_the_cards_allow_in_their_order() -> None:
    rnd = random.Random(5)
    seen = 0
    for seed in range(40):
        game = SpitGame(SpitConfig(), seed=seed)
        while not game.over and seen < 4000:
            if game.phase is Phase.PLAY:
                for p in (0, 1):
                    assert game.legal_actions(p) == _listed_by_hand(game, p)
                    seen += 1
            actions = game.legal_actions(None) or game.legal_actions(2)
            kinds = [a for a in actions if a.kind is not Kind.STALL] or actions
            game.apply(rnd.choice(kinds))
    assert seen >= 1000
