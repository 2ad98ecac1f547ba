"""Errors the engine raises. Each carries a message fit to show a player."""


class EngineError(ValueError):
    """Base class for the engine's errors."""


class IllegalAction(EngineError):
    """An action the rules do not allow now; the state is left unchanged."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class ConfigError(EngineError):
    """A rules configuration that cannot be played."""


class ReplayError(EngineError):
    """A saved game that cannot be read or does not replay."""
