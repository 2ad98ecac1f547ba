"""Who sees what: each mode's observer, its JSON forms, and what a board draws of it.

A mode's ``Observer`` (OpenSpiel's word) decides, in the engine, what a seat
and a spectator may know of a game, and which part of an event a seat may
see. The network sends only what it gives (``observe``, ``event_for``) and
rebuilds an observation from its JSON form (``from_json``, which checks
every field); a guest's board draws from the ``Table`` an observation gives.
Nothing outside the engine needs to know which mode hides what.

Each JSON form carries the mode's name and its observer's ``version``, so a
form another build wrote is refused with a reason rather than misread.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from spit.engine.actions import Action, Kind, action_from_json
from spit.engine.errors import EngineError, ReplayError

if TYPE_CHECKING:
    from spit.engine.base import AnyGame
    from spit.engine.events import Event

#: A card the viewer may not see (an opponent's private hand): drawn face down.
HIDDEN = -1
#: The most cards a count in an observation may say (two decks' worth).
MAX_COUNT = 104
#: The most legal actions an observation may list.
MAX_LEGAL = 64

#: A place on the table: its card (None: empty, or face down when cards lie
#: under it; ``HIDDEN``: a card this viewer may not see) and the cards under it.
Column = tuple[int | None, int]


class CodecError(EngineError):
    """A JSON form that is not a valid observation or config: the reason is safe to show."""


class PileShown(NamedTuple):
    """A spit pile as anyone sees it: its top card, its size, and whether it is played on."""

    top: int | None
    size: int
    in_use: bool = True


class Table(NamedTuple):
    """What a board draws of a game from one observation (any mode's).

    ``columns``: each player's face-up places, left to right; ``reserves``:
    the cards each holds face down besides them; ``called``: who has called
    (or said ready); ``side_piles``: their sizes, or None in a mode without
    them; ``centre_face_down``: face-down centre cards wait to be turned up;
    ``chooser``: who chooses a pile now (V2), if anyone.
    """

    columns: tuple[tuple[Column, ...], tuple[Column, ...]]
    reserves: tuple[int, int]
    piles: tuple[PileShown, PileShown]
    called: tuple[bool, bool]
    side_piles: tuple[int, int] | None = None
    centre_face_down: bool = False
    chooser: int | None = None


class Observer(ABC):
    """What one mode shows each seat and a spectator, and its observations' JSON form.

    A mode subclasses this once (``Mode.observer``). ``observe`` and
    ``from_json`` are each other's inverse for what a seat may know;
    ``table`` turns an observation into what a board draws.
    """

    #: the version of this mode's observation form (bump it when the form changes)
    version: ClassVar[int] = 1
    #: True if ``event_for`` can hide part of an event from some seat
    hides_events: ClassVar[bool] = False

    def __init__(self, mode: str) -> None:
        self.mode = mode

    @abstractmethod
    def observe(self, game: AnyGame, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may know of ``game`` now, in plain JSON.

        Start from ``common_json`` and add the mode's own fields.
        """

    @abstractmethod
    def from_json(self, data: dict[str, Any], config: Any) -> Any:
        """The observation ``observe`` gave, rebuilt and checked (CodecError if not valid).

        Start with ``common_from_json``; a spectator's has ``player`` None.
        """

    @abstractmethod
    def table(self, obs: Any) -> Table:
        """What a board draws of ``obs`` (an observation ``from_json`` gave)."""

    def event_for(self, event: Event, seat: int | None) -> Event:
        """``event`` as ``seat`` (None: a spectator) may see it: by default, all of it."""
        return event

    def events_for(self, events: Iterable[Event], seat: int | None) -> list[Event]:
        """Each of ``events`` as ``seat`` may see it."""
        return [self.event_for(event, seat) for event in events]

    # ------------------------------------------------------------------ helpers

    def common_json(self, obs: Any, seat: int | None) -> dict[str, Any]:
        """The fields every mode's observation has, from ``obs`` (a mode's observation
        named tuple), for ``seat`` (None: a spectator, who has no legal actions)."""
        return {
            "mode": self.mode,
            "v": self.version,
            "player": seat,
            "phase": obs.phase.value,
            "round_no": obs.round_no,
            "scores": list(obs.scores),
            "games_won": list(obs.games_won),
            "winner": obs.winner,
            "result": obs.result.value,
            "legal": [a.to_json() for a in obs.legal] if seat is not None else [],
        }

    def common_from_json(self, data: dict[str, Any]) -> dict[str, Any]:
        """The fields every mode's observation has, checked: ``player``, ``phase``,
        ``round_no``, ``scores``, ``games_won``, ``winner``, ``result``, ``legal``."""
        from spit.engine.base import Phase
        from spit.engine.results import Result

        if data.get("mode") != self.mode:
            raise CodecError(f"observation: not a {self.mode} observation")
        version = data.get("v")
        if type(version) is not int or version != self.version:
            raise CodecError(
                f"observation: version {version!r:.10} (this spit reads {self.version}); "
                "both sides need the same spit version"
            )
        names = ("player", "phase", "round_no", "scores", "games_won", "winner", "result")
        fields = require(data, (*names, "legal"))
        legal_raw = fields["legal"]
        if not isinstance(legal_raw, list) or len(legal_raw) > MAX_LEGAL:
            raise CodecError("observation: bad legal list")
        return {
            "player": seat_or_none(fields["player"], "player"),
            "phase": enum(Phase, fields["phase"], "phase"),
            "round_no": count(fields["round_no"], 10**6),
            "scores": pair(fields["scores"], lambda v: count(v, 10**6)),
            "games_won": pair(fields["games_won"], lambda v: count(v, 10**6)),
            "winner": seat_or_none(fields["winner"], "winner"),
            "result": enum(Result, fields["result"], "result"),
            "legal": tuple(player_action(a) for a in legal_raw),
        }


# ------------------------------------------------------------------ checks for codecs


def require(data: dict[str, Any], names: Iterable[str]) -> dict[str, Any]:
    """The named fields of ``data``; CodecError naming the first one missing."""
    out = {}
    for name in names:
        if name not in data:
            raise CodecError(f"observation: field {name!r} missing")
        out[name] = data[name]
    return out


def whole(v: Any) -> bool:
    """True for a JSON whole number (not a bool) that fits 64 bits."""
    return isinstance(v, int) and not isinstance(v, bool) and -(2**63) <= v < 2**63


def card(v: Any) -> int | None:
    """A card id 0..51, or None."""
    if v is None:
        return None
    if not whole(v) or not 0 <= v < 52:
        raise CodecError("observation: a card must be 0..51 or null")
    return int(v)


def count(v: Any, limit: int = MAX_COUNT) -> int:
    """A count 0..``limit``."""
    if not whole(v) or not 0 <= v <= limit:
        raise CodecError("observation: a count is out of range")
    return int(v)


def flag(v: Any) -> bool:
    """true or false."""
    if not isinstance(v, bool):
        raise CodecError("observation: expected true or false")
    return v


def seat_or_none(v: Any, what: str) -> int | None:
    """0, 1 or None."""
    if v not in (0, 1, None) or isinstance(v, bool) or (v is not None and not whole(v)):
        raise CodecError(f"observation: bad {what}")
    return None if v is None else int(v)


def pair(v: Any, item: Callable[[Any], Any]) -> tuple[Any, Any]:
    """A list of two, each checked by ``item``."""
    if not isinstance(v, list) or len(v) != 2:
        raise CodecError("observation: expected a pair")
    return item(v[0]), item(v[1])


def items(v: Any, item: Callable[[Any], Any], limit: int) -> tuple[Any, ...]:
    """A list of at most ``limit``, each checked by ``item``."""
    if not isinstance(v, list) or len(v) > limit:
        raise CodecError("observation: a list is too long or not a list")
    return tuple(item(x) for x in v)


def enum(cls: Any, v: Any, what: str) -> Any:
    """A member of the string enum ``cls``."""
    try:
        return cls(v)
    except (ValueError, TypeError):
        raise CodecError(f"observation: bad {what}") from None


def player_action(v: Any) -> Action:
    """A player's action (never the game's own timing actions)."""
    try:
        action = action_from_json(v)
    except ReplayError as exc:
        raise CodecError(f"bad action: {exc}") from None
    if action.kind >= Kind.CLOSE:
        raise CodecError("only the game itself may send timing actions")
    return action
