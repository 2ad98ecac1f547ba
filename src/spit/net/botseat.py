"""A computer player on a network seat: it reads the seat's messages, answers with actions.

The same driver plays ``spit join --bot LEVEL`` on a guest's machine and a
seat a computer took over on the host. It sees only what the seat receives
(its own observation), plans with the bot's strategy and reaction time, and
sends its action when the reaction time has passed, like a person's key.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from spit.bots import Bot
from spit.engine import Action
from spit.net import protocol as proto
from spit.realtime.arbiter import Clock

SendAction = Callable[[Action, float], object]


class BotDriver:
    """Drives one seat with ``bot`` from decoded host messages."""

    def __init__(
        self,
        bot: Bot,
        send_action: SendAction,
        clock: Clock,
        call_later: Callable[[float, Callable[[], None]], asyncio.TimerHandle | Any],
    ) -> None:
        self.bot = bot
        self.send_action = send_action
        self.clock = clock
        self.call_later = call_later
        self.config: Any = None  #: the rules the host plays (any mode's config)
        self.obs: Any = None
        self.paused = True
        self.in_flight = 0
        self._planned: tuple[Action, Any] | None = None

    def handle(self, msg: dict[str, Any]) -> None:
        """React to one message the seat received."""
        kind = msg["t"]
        if kind == "welcome":
            self.config = proto.config_from_json(msg["mode"], msg["config"])
            self.paused = not all(msg.get("seats", [True, True]))
        elif kind == "state" and self.config is not None:
            self.obs = proto.observation_from_json(msg["obs"], self.config)
            self._think()
        elif kind == "verdict":
            self.in_flight = max(0, self.in_flight - 1)
            if not msg["ok"]:
                self._think(again=True)
        elif kind == "paused":
            self.paused = True
            self._cancel()
        elif kind == "resumed":
            self.paused = False
            self._think(again=True)
        elif kind in ("over", "bye"):
            self.paused = True
            self._cancel()

    def _cancel(self) -> None:
        if self._planned is not None:
            self._planned[1].cancel()
            self._planned = None

    def _think(self, again: bool = False) -> None:
        obs = self.obs
        if obs is None or self.paused or self.in_flight:
            return
        if self._planned is not None:
            if self.bot.watchful and not self.bot.keeps(obs, self._planned[0]):
                self._cancel()
            else:
                return
        plan = self.bot.plan(obs, self.clock())
        if plan is None:
            return
        delay, action = plan
        handle = self.call_later(max(0.0, delay), lambda: self._fire(action))
        self._planned = (action, handle)

    def _fire(self, action: Action) -> None:
        self._planned = None
        if self.paused:
            return
        if self.obs is not None and action not in self.obs.legal:
            # The piles changed under the plan: a computer never presses a card
            # it can see no longer fits (H8), it thinks again instead.
            self._think(again=True)
            return
        self.in_flight += 1
        self.send_action(action, self.clock())
