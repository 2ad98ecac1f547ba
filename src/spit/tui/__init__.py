"""The Textual user interface: two players at one keyboard (no rules decided here)."""

from spit.tui.app import GameSettings, SpitApp, make_game
from spit.tui.keymap import KeyMap, KeyMapError
from spit.tui.session import Session

__all__ = ["GameSettings", "KeyMap", "KeyMapError", "Session", "SpitApp", "make_game"]
