"""The command-line tests: the app tests' private folders and stand-in terminal, and
the apps a command would run (``launched``, recorded instead)."""

from __future__ import annotations

from tests.support.pilot import launched
from tests.tui.conftest import a_terminal, isolated_dirs

__all__ = ["a_terminal", "isolated_dirs", "launched"]
