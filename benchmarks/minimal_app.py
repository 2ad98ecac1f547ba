"""The smallest Textual app that shows each key: ``bench_tui.py``'s yardstick.

One widget; every key press replaces its text with ``key <name> #<count>``.
Run by the benchmark in the same pseudo-terminal harness as spit itself.
"""

from __future__ import annotations

from textual import events
from textual.app import App, ComposeResult
from textual.widgets import Static


class KeyEcho(App[None]):
    """Shows the last key and how many keys came."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def compose(self) -> ComposeResult:
        yield Static("ready: press keys", id="echo")

    def on_key(self, event: events.Key) -> None:
        self.count += 1
        self.query_one("#echo", Static).update(f"key {event.key} #{self.count}")


if __name__ == "__main__":
    KeyEcho().run()
