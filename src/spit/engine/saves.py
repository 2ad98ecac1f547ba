"""Saving and replaying games as plain JSON: (mode, config, seed, cards, actions).

Loading checks every field and never evaluates anything: a corrupt or hostile
file gives a ReplayError with a one-line reason.
"""

from __future__ import annotations

import json
from typing import Any

from spit.engine.actions import action_from_json
from spit.engine.base import SAVE_FORMAT, SAVE_VERSION, AnyGame
from spit.engine.errors import ConfigError, EngineError, ReplayError
from spit.engine.modes import get_mode, mode_names

#: Largest number of actions a save may hold (a generous bound on a real game).
MAX_ACTIONS = 2_000_000


def new_game_from_save(data: Any) -> AnyGame:
    """The starting position of a saved game, without its actions applied."""
    if not isinstance(data, dict):
        raise ReplayError("a saved game must be a JSON object")
    if data.get("format") != SAVE_FORMAT:
        raise ReplayError("not a spit saved game (format field missing or wrong)")
    version = data.get("version")
    if type(version) is not int or version != SAVE_VERSION:
        raise ReplayError(f"unsupported save version {data.get('version')!r:.20}")
    mode = data.get("mode")
    if not isinstance(mode, str) or mode not in mode_names():
        raise ReplayError(f"unknown game mode {mode!r:.30}")
    info = get_mode(mode)
    try:
        config = info.config_class.from_dict(data.get("config"))
    except (ConfigError, TypeError) as exc:
        raise ReplayError(f"bad config: {exc}") from exc
    seed = data.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
        raise ReplayError("seed must be a whole number from 0 to 2**64-1")
    return info.game_class.from_start(config, seed, data.get("cards"))


def load_game(data: Any, check_fingerprint: bool = True) -> AnyGame:
    """Rebuild a game from its saved form by replaying every action.

    Raises ReplayError if the data is malformed, an action is illegal, or the
    final fingerprint differs from the stored one.
    """
    game = new_game_from_save(data)
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise ReplayError("actions must be a list")
    if len(actions) > MAX_ACTIONS:
        raise ReplayError(f"too many actions ({len(actions)})")
    for i, raw in enumerate(actions):
        action = action_from_json(raw)
        try:
            game.apply(action)
        except EngineError as exc:
            raise ReplayError(f"action {i + 1} ({action.describe()}) is illegal: {exc}") from exc
    stored = data.get("fingerprint")
    if not isinstance(stored, str):
        raise ReplayError("the saved game has no fingerprint to check against")
    if check_fingerprint and stored != game.fingerprint():
        raise ReplayError("the replayed game does not match its stored fingerprint")
    return game


def dumps(game: AnyGame) -> str:
    """The saved form of ``game`` as a JSON string."""
    return json.dumps(game.to_json(), separators=(",", ":"))


def loads(text: str | bytes) -> AnyGame:
    """Parse a JSON string saved by ``dumps`` (see ``load_game``)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ReplayError(f"not valid JSON: {exc}") from exc
    return load_game(data)
