"""The pure rules engine: no I/O, no clock, no UI, no global random.

A game is fixed by (rules config, seed, ordered actions). Both players call
"spit!" to start, then ask what is legal and play it (this example is run as a
doctest by tests/engine/test_doctest.py):

>>> from spit.engine import SpitConfig, SpitGame, call
>>> game = SpitGame(SpitConfig(), seed=7)
>>> events = game.apply(call(0)) + game.apply(call(1))
>>> game.phase
<Phase.PLAY: 'play'>
>>> [action.describe() for action in game.legal_actions(0)]
['player 1 plays slot 1 on pile 2']
>>> game.apply(game.legal_actions(0)[0])[0]
CardPlayed(player=0, source=0, pile=1, card=16)
"""

from spit.engine.actions import (
    CLOSE,
    FLIP,
    STALL,
    SYSTEM,
    Action,
    Kind,
    action_from_json,
    call,
    choose,
    move,
    play,
    slap,
)
from spit.engine.base import AnyGame, Game, GameConfig, Phase
from spit.engine.cards import card, card_name, card_names, parse_card, parse_cards
from spit.engine.config import SpeedConfig, SpitConfig
from spit.engine.errors import ConfigError, EngineError, IllegalAction, ReplayError
from spit.engine.modes import Mode, all_modes, get_mode, mode_names, register_mode
from spit.engine.results import Result, RoundEnd
from spit.engine.saves import dumps, load_game, loads

# Each mode's module registers its Mode when it loads: these imports are the
# list of built-in modes, in the order menus show them (a new mode's module is
# imported here too).
from spit.engine.spit_game import SpitGame, SpitObservation, deal_layout

# isort: split
from spit.engine.speed_game import SpeedGame, SpeedObservation

__all__ = [
    "CLOSE",
    "FLIP",
    "STALL",
    "SYSTEM",
    "Action",
    "AnyGame",
    "ConfigError",
    "EngineError",
    "Game",
    "GameConfig",
    "IllegalAction",
    "Kind",
    "Mode",
    "Phase",
    "ReplayError",
    "Result",
    "RoundEnd",
    "SpeedConfig",
    "SpeedGame",
    "SpeedObservation",
    "SpitConfig",
    "SpitGame",
    "SpitObservation",
    "action_from_json",
    "all_modes",
    "call",
    "card",
    "card_name",
    "card_names",
    "choose",
    "deal_layout",
    "dumps",
    "get_mode",
    "load_game",
    "loads",
    "mode_names",
    "move",
    "parse_card",
    "parse_cards",
    "play",
    "register_mode",
    "slap",
]
