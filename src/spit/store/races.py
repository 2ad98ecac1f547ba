"""The race audit: every press a network host judged, and the close races among them.

A network host keeps, for each press, when it was judged to have been made
(its *press* stamp), when it arrived, how much later than claimed it was
judged (its *clamp*: the host never believes a press earlier than the
sender's own measured delay allows), the host's wait W at the time, when the
host judged it and whether it was applied (its index among the game's
actions) or refused (the reason). A replay keeps the list under
``"presses"``; older replays have none and load as before.

A *close race* is two presses by different players for the same pile within
W of each other: the host judged them in press order (unless one arrived
later than W after it was made), and ``close_races`` says who won and why,
in words for players (``spit replay --races FILE``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from spit.engine import Action, Kind
from spit.engine.actions import action_from_json
from spit.engine.errors import ReplayError

#: Most presses a replay may list.
MAX_PRESSES = 200_000
#: Longest time (seconds) a press record may name: a week, as for replay times.
_MAX_TIME = 7 * 24 * 3600.0
#: The kinds of press that race for a pile.
_RACING = (Kind.PLAY, Kind.SLAP, Kind.CHOOSE)
_PILES = ("left", "right")


class PressError(ValueError):
    """A malformed press record (one line, for the replay's error message)."""


@dataclass(slots=True)
class Press:
    """One press as the host judged it; times in seconds since the game started."""

    seat: int
    action: Action
    press: float  #: when it was judged to have been made
    arrival: float  #: when it reached the host
    clamp: float  #: how much later than it claimed it was judged (0: as claimed)
    window: float  #: the host's wait W when it arrived
    judged: float | None = None  #: when the host applied or refused it (None: never)
    order: int | None = None  #: its place in the order the host judged presses
    index: int | None = None  #: its index among the game's actions if it was applied
    reason: str = ""  #: why it was refused

    @property
    def applied(self) -> bool:
        """True if the engine took it."""
        return self.index is not None

    @property
    def late(self) -> bool:
        """True if it arrived more than W after it was made (judged at its arrival)."""
        return self.arrival - self.press > self.window + 1e-6

    def to_json(self) -> dict[str, Any]:
        """Plain JSON form (times rounded to 0.1 ms)."""
        out: dict[str, Any] = {
            "seat": self.seat,
            "action": self.action.to_json(),
            "press": round(self.press, 4),
            "arrival": round(self.arrival, 4),
            "clamp": round(self.clamp, 4),
            "window": round(self.window, 4),
            "judged": None if self.judged is None else round(self.judged, 4),
            "order": self.order,
            "index": self.index,
        }
        if self.reason:
            out["reason"] = self.reason[:200]
        return out


def presses_json(presses: Sequence[Press]) -> list[dict[str, Any]]:
    """The ``"presses"`` list of a replay."""
    return [p.to_json() for p in presses[:MAX_PRESSES]]


def _time(raw: dict[str, Any], key: str, optional: bool = False) -> float | None:
    value = raw.get(key)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise PressError(f"{key} is not a number of seconds")
    if not 0 <= value <= _MAX_TIME:
        raise PressError(f"{key} is out of range")
    return float(value)


def _whole(raw: dict[str, Any], key: str, limit: int) -> int | None:
    value = raw.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < limit:
        raise PressError(f"{key} is not a whole number below {limit}")
    return int(value)


def parse_presses(value: Any, n_actions: int) -> list[Press]:
    """Check a replay's ``"presses"`` list; PressError says what is wrong."""
    if not isinstance(value, list):
        raise PressError("presses must be a list")
    if len(value) > MAX_PRESSES:
        raise PressError(f"too many presses ({len(value)})")
    out: list[Press] = []
    for i, raw in enumerate(value):
        try:
            if not isinstance(raw, dict):
                raise PressError("not an object")
            seat = raw.get("seat")
            if seat not in (0, 1) or isinstance(seat, bool):
                raise PressError("seat must be 0 or 1")
            action_raw = raw.get("action")
            if not isinstance(action_raw, list):
                raise PressError("action must be a list")
            try:
                action = action_from_json(action_raw)
            except ReplayError as exc:
                raise PressError(str(exc)) from None
            if action.player != seat:
                raise PressError("the action is another seat's")
            reason = raw.get("reason", "")
            if not isinstance(reason, str) or len(reason) > 200:
                raise PressError("reason must be a short text")
            press = _time(raw, "press")
            arrival = _time(raw, "arrival")
            clamp = _time(raw, "clamp")
            window = _time(raw, "window")
            assert press is not None and arrival is not None
            assert clamp is not None and window is not None
            out.append(
                Press(
                    seat=seat,
                    action=action,
                    press=press,
                    arrival=arrival,
                    clamp=clamp,
                    window=window,
                    judged=_time(raw, "judged", optional=True),
                    order=_whole(raw, "order", 10 * MAX_PRESSES),
                    index=_whole(raw, "index", max(1, n_actions)),
                    reason=reason,
                )
            )
        except PressError as exc:
            raise PressError(f"press {i + 1}: {exc}") from None
    return out


# ------------------------------------------------------------------ races


@dataclass(frozen=True, slots=True)
class Race:
    """Two presses for one pile within W of each other: who the host judged first."""

    winner: Press
    loser: Press

    @property
    def at(self) -> float:
        """When the earlier of the two was made."""
        return min(self.winner.press, self.loser.press)

    @property
    def lead(self) -> float:
        """How much earlier the winner's press was judged made (negative: later)."""
        return self.loser.press - self.winner.press


def _pile(action: Action) -> int | None:
    if action.kind in _RACING:
        return action.target
    return None


def close_races(presses: Sequence[Press]) -> list[Race]:
    """Every close race among judged presses, in time order."""
    judged = [p for p in presses if p.order is not None and _pile(p.action) is not None]
    judged.sort(key=lambda p: p.press)
    races: list[Race] = []
    for i, first in enumerate(judged):
        for second in judged[i + 1 :]:
            wait = max(first.window, second.window)
            if second.press - first.press > wait:
                break
            if second.seat == first.seat or _pile(second.action) != _pile(first.action):
                continue
            assert first.order is not None and second.order is not None
            if first.order < second.order:
                races.append(Race(first, second))
            else:
                races.append(Race(second, first))
    return races


def _ms(seconds: float) -> str:
    ms = seconds * 1000
    return f"{ms:.1f} ms" if abs(ms) < 10 else f"{ms:.0f} ms"


def _what(press: Press) -> str:
    pile = _PILES[press.action.target] if 0 <= press.action.target < 2 else "?"
    if press.action.kind is Kind.PLAY:
        return f"card to the {pile} pile"
    verb = "slap" if press.action.kind is Kind.SLAP else "choice"
    return f"{verb} of the {pile} pile"


def _side(press: Press, name: str) -> str:
    text = f"{name} pressed at {press.press:.4f} s (arrived {press.arrival:.4f} s"
    if press.clamp > 0:
        text += f", judged {_ms(press.clamp)} later than it claimed"
    return text + ")"


def race_why(race: Race, names: Sequence[str]) -> str:
    """Why the winner's press was judged first, in a sentence."""
    w, lo = race.winner, race.loser
    win, lose = names[w.seat], names[lo.seat]
    if lo.late and lo.press < w.press:
        return (
            f"{lose} pressed {_ms(w.press - lo.press)} earlier, but that press took "
            f"{_ms(lo.arrival - lo.press)} to arrive, longer than the host waited "
            f"({_ms(lo.window)}), so it was judged when it arrived."
        )
    if abs(race.lead) < 1e-4:
        return (
            f"Both pressed at the same instant: the tie went to {win} (ties go to each "
            "player in turn)."
        )
    text = f"{win} pressed {_ms(race.lead)} earlier."
    if lo.clamp > 0:
        text += (
            f" {lose}'s press claimed to be {_ms(lo.clamp)} earlier than its link allows "
            "and was judged that much later."
        )
    return text


def race_lines(presses: Sequence[Press], names: Sequence[str]) -> list[str]:
    """One paragraph per close race: both presses, who won, and why."""
    lines: list[str] = []
    for race in close_races(presses):
        w, lo = race.winner, race.loser
        if w.applied:
            outcome = f"{names[w.seat]}'s {_what(w)} went first"
        else:
            outcome = f"{names[w.seat]}'s {_what(w)} was judged first (refused: {w.reason})"
        if lo.applied:
            after = f"; {names[lo.seat]}'s landed after it"
        else:
            after = f"; {names[lo.seat]}'s was refused ({lo.reason or 'no reason kept'})"
        lines.append(f"{race.at:8.3f} s  {outcome}{after}.")
        lines.append(f"            {_side(w, names[w.seat])}; {_side(lo, names[lo.seat])}.")
        lines.append(f"            {race_why(race, names)}")
    return lines
