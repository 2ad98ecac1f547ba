"""The command-line tests: the app tests' private folders and stand-in terminal."""

from __future__ import annotations

from tests.tui.conftest import a_terminal, isolated_dirs

__all__ = ["a_terminal", "isolated_dirs"]
