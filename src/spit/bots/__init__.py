"""Computer opponents of graded skill: ``make_bot(level, player, seed, mode)``.

A level is a strategy (``STYLES``) plus a reaction time (``REACTIONS``); the
two can be mixed, e.g. ``make_bot("expert", 1, seed=3, reaction="easy")``.
Bots see only observations and act through the arbiter, like a person.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spit.bots.bot import Bot, Strategy
    from spit.bots.reaction import REACTIONS, Reaction
    from spit.bots.speed_strategy import SpeedStrategy
    from spit.bots.spit_strategy import SpitStrategy
    from spit.bots.style import STYLES, Style

#: The levels, weakest first.
LEVELS = ("easy", "medium", "hard", "expert")
#: The level offered first (the settings file's default, the command line's).
DEFAULT_LEVEL = "medium"
#: The game modes bots can play (``STRATEGIES``' keys; a test keeps the two together).
MODES = ("spit", "speed")

#: Loaded when first used: the settings and the menus need only the names above,
#: so the strategies' code stays out of the app's start-up.
_LAZY = {
    "Bot": "spit.bots.bot",
    "Strategy": "spit.bots.bot",
    "REACTIONS": "spit.bots.reaction",
    "Reaction": "spit.bots.reaction",
    "SpeedStrategy": "spit.bots.speed_strategy",
    "SpitStrategy": "spit.bots.spit_strategy",
    "STYLES": "spit.bots.style",
    "Style": "spit.bots.style",
}


def __getattr__(name: str) -> object:
    if name == "STRATEGIES":
        return strategies()
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def strategies() -> dict[str, type[SpitStrategy] | type[SpeedStrategy]]:
    """The strategy class of each game mode bots can play (by the engine's mode name)."""
    from spit.bots.speed_strategy import SpeedStrategy
    from spit.bots.spit_strategy import SpitStrategy

    return {"spit": SpitStrategy, "speed": SpeedStrategy}


def make_strategy(level: str, mode: str = "spit") -> Strategy:
    """The strategy of ``level`` for game ``mode``."""
    from spit.bots.style import STYLES

    style = STYLES.get(level)
    if style is None:
        raise ValueError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}")
    strategy = strategies().get(mode)
    if strategy is None:
        raise ValueError(f"unknown mode {mode!r}; choose from {', '.join(MODES)}")
    return strategy(style)


def make_bot(
    level: str,
    player: int,
    seed: int = 0,
    mode: str = "spit",
    reaction: str | Reaction | None = None,
) -> Bot:
    """A bot of ``level`` playing ``mode`` for ``player``.

    ``reaction`` overrides the level's reaction time: a level name or a
    ``Reaction``. ``seed`` seeds the bot's own generator only.
    """
    from spit.bots.bot import Bot
    from spit.bots.reaction import REACTIONS

    strategy = make_strategy(level, mode)
    if reaction is None:
        reaction = level
    if isinstance(reaction, str):
        if reaction not in REACTIONS:
            raise ValueError(f"unknown reaction {reaction!r}; choose from {', '.join(LEVELS)}")
        reaction = REACTIONS[reaction]
    return Bot(player, strategy, reaction, seed)


__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "MODES",
    "REACTIONS",
    "STRATEGIES",
    "STYLES",
    "Bot",
    "Reaction",
    "SpeedStrategy",
    "SpitStrategy",
    "Strategy",
    "Style",
    "make_bot",
    "make_strategy",
]
