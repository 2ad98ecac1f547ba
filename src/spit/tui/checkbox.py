"""A checkbox that shows its state in characters: ``[X]`` on, ``[ ]`` off."""

from __future__ import annotations

from textual.widgets import Checkbox


class StateCheckbox(Checkbox):
    """A checkbox whose box shows its state in characters, not only in colour:
    ``[X]`` when on, ``[ ]`` when off, readable in plain text and NO_COLOR."""

    BUTTON_LEFT = "["
    BUTTON_RIGHT = "]"

    def __init__(
        self,
        label: str,
        value: bool = False,
        *,
        id: str | None = None,
        name: str | None = None,
        compact: bool = False,
    ) -> None:
        super().__init__(label, value, id=id, name=name, compact=compact)
        self.BUTTON_INNER = self._inner(value)

    @staticmethod
    def _inner(value: bool) -> str:
        return "X" if value else " "

    def watch_value(self) -> None:
        """Show the new state in the box, then let Checkbox post its message."""
        self.BUTTON_INNER = self._inner(self.value)
        super().watch_value()
        self.refresh()
