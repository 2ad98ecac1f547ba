"""A hosted match carried on from a checkpoint: the part played before, as a host keeps it.

A checkpoint is what ``Host.replay_data()`` gives while a match runs: the
replay format (config, seed, actions, times, players, the fumbles of H8 and
the race audit). ``read_checkpoint`` checks it with the replay parser
(``spit.store.replays.parse_replay``: every field checked, every action
replayed, the fingerprint compared, nothing evaluated) and gives an
``Earlier``: the game in its final position and what a resumed host needs to
keep the whole game in one replay, the earlier part first. The times of the
new part follow the earlier ones as those of a local ``spit resume`` do
(``spit.store.resume.GameKeeper.resuming``: after the last action, or after
the last fumble time if that ended later). ``Host.resumed`` builds the host.

Between two checkpoints a node keeps a *tail*: after each tick that applied
an action, an entry with what the replay gained since the entry before
(``Host.tail_since``; the node holds its messages to the players until the
entry is kept). ``extend_checkpoint`` adds such entries to the checkpoint
they followed, so a match resumed elsewhere goes on from the last thing its
players saw. An entry is ``{"seq": N, "actions": [FIRST, [...]], "times":
[FIRST, [...]], "presses": [FIRST, [...]], "fumbles": [FIRST, [...]]}``: each
list's new items and the index of its first one (presses not judged yet come
again, judged, in a later entry).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from spit.engine import AnyGame
from spit.realtime.fumbles import Fumble
from spit.realtime.timers import Timing
from spit.store.races import Press
from spit.store.replays import (
    MAX_REPLAY_BYTES,
    H8Record,
    Replay,
    ReplayFileError,
    h8_record,
    parse_replay,
)
from spit.store.resume import GameKeeper

__all__ = ["CheckpointError", "Earlier", "TailMark", "extend_checkpoint", "read_checkpoint"]


class CheckpointError(ValueError):
    """Checkpoint data that cannot be resumed; ``str()`` is one line saying why."""


@dataclass(frozen=True, slots=True)
class TailMark:
    """How far a match's tail has got: the next entry's number and, for each list
    of the replay, how many of its items the entries so far hold."""

    seq: int = 0
    actions: int = 0
    presses: int = 0
    fumbles: int = 0


#: The lists of a replay a tail entry extends, and where each lives in the replay.
_TAIL_LISTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("actions", ("actions",)),
    ("times", ("times",)),
    ("presses", ("presses",)),
    ("fumbles", ("h8", "fumbles")),
)


def _tail_list(replay: dict[str, Any], path: tuple[str, ...]) -> list[Any] | None:
    """The list at ``path`` in ``replay`` (None if the replay has no such place)."""
    node: Any = replay
    for key in path[:-1]:
        node = node.get(key) if isinstance(node, dict) else None
    if not isinstance(node, dict):
        return None
    items = node.setdefault(path[-1], [])
    return items if isinstance(items, list) else None


def extend_checkpoint(
    replay: Mapping[str, Any], entries: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """``replay`` (a checkpoint's replay data) with the tail ``entries`` added in
    the order of their numbers, and its fingerprint made that of the longer game.

    An entry that would leave a gap (an earlier one is missing) ends the tail
    there: the game goes on from the last position reached without one. An
    entry that is not well formed is skipped; the result is checked again by
    ``read_checkpoint`` as any checkpoint is.
    """
    from spit.engine.errors import ReplayError
    from spit.engine.saves import load_game

    data: dict[str, Any] = json.loads(json.dumps(dict(replay)))  # a deep copy
    grew = False
    for entry in sorted(entries, key=_seq):
        spans: list[Any] = [entry.get(name) for name, _ in _TAIL_LISTS]
        if not all(_span(span) for span in spans):
            continue  # not an entry this code wrote
        placed: list[tuple[list[Any], int, list[Any]]] = []
        for (_, path), (first, items) in zip(_TAIL_LISTS, spans, strict=True):
            if not items:
                continue
            target = _tail_list(data, path)
            if target is None or first > len(target):
                break  # a gap: what comes after it cannot be placed
            placed.append((target, first, items))
        else:
            for target, first, items in placed:
                target[first : first + len(items)] = items
                grew = True
            continue
        break
    if grew:
        try:
            game = load_game(data, check_fingerprint=False)
        except (ReplayError, ValueError, KeyError, TypeError, IndexError) as exc:
            raise CheckpointError(f"checkpoint tail refused: {exc}") from None
        data["fingerprint"] = game.fingerprint()
    return data


def _seq(entry: Mapping[str, Any]) -> int:
    seq = entry.get("seq")
    return seq if isinstance(seq, int) else -1


def _span(value: Any) -> bool:
    """True for a tail entry's ``[first, [items]]``."""
    return (
        isinstance(value, list)
        and len(value) == 2
        and isinstance(value[0], int)
        and not isinstance(value[0], bool)
        and value[0] >= 0
        and isinstance(value[1], list)
    )


@dataclass(frozen=True, slots=True)
class Earlier:
    """The part of a match played before it was picked up again."""

    #: the checked checkpoint (``final``: the game where it stopped)
    replay: Replay
    #: every earlier action's time, in seconds since the game began
    times: tuple[float, ...]
    #: the game time at which the resumed part begins
    offset: float

    @property
    def game(self) -> AnyGame:
        """The game in the position it was checkpointed in."""
        return self.replay.final

    @property
    def names(self) -> tuple[str, str]:
        """The players' names as the checkpoint keeps them."""
        first, second = self.replay.meta.players
        return (first.name, second.name)

    @property
    def remote_seats(self) -> tuple[int, ...]:
        """The seats played from another machine (both, if the checkpoint marks none)."""
        marked = tuple(i for i, p in enumerate(self.replay.meta.players) if p.remote)
        return marked or (0, 1)

    @property
    def h8(self) -> H8Record | None:
        """The earlier part's fumble rule (H8) and fumbles (None: played without H8)."""
        return self.replay.meta.h8

    def timing(self, base: Timing) -> Timing:
        """``base`` with the game's own fumble rule (none if it was played without)."""
        h8 = self.h8
        return replace(base, fumble_time=0.0) if h8 is None else h8.timing(base)

    def all_times(self, session: Sequence[float]) -> list[float]:
        """Every action time: the earlier ones, then ``session`` (seconds since the
        resumed arbiter started) after the offset."""
        return [*self.times, *(self.offset + float(t) for t in session)]

    def h8_record(
        self, timing: Timing, fumbles: Sequence[Fumble], start_time: float
    ) -> H8Record | None:
        """The whole game's H8 record: the earlier fumbles, then the resumed arbiter's."""
        return h8_record(timing, fumbles, start_time, self.offset, self.h8)

    def presses(self, session: Sequence[Press]) -> list[Press]:
        """The whole race audit: the earlier presses, then ``session``'s (judged by the
        resumed host, times since its arbiter started) moved after the offset."""
        earlier = list(self.replay.presses or ())
        orders = [p.order for p in earlier if p.order is not None]
        first_order = max(orders) + 1 if orders else 0
        offset = self.offset
        later = [
            replace(
                p,
                press=offset + p.press,
                arrival=offset + p.arrival,
                judged=None if p.judged is None else offset + p.judged,
                order=None if p.order is None else first_order + p.order,
            )
            for p in session
        ]
        return earlier + later


def read_checkpoint(data: Mapping[str, Any] | str | bytes, finished: bool = False) -> Earlier:
    """Check checkpoint ``data`` (``Host.replay_data()``, or its JSON text).

    Raises ``CheckpointError`` (one line) if it is not a valid replay of an
    unfinished game: malformed, edited, hostile or (unless ``finished``: a
    checkpoint whose tail holds the last move, whose result is still to be
    kept) already over.
    """
    if isinstance(data, Mapping):
        try:
            raw: str | bytes = json.dumps(dict(data), allow_nan=False)
        except (TypeError, ValueError, RecursionError) as exc:
            reason = str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__
            raise CheckpointError(f"checkpoint refused: not plain JSON data ({reason})") from None
    elif isinstance(data, (str, bytes)):
        raw = data
    else:
        raise CheckpointError("checkpoint refused: expected a JSON object")
    if len(raw) > MAX_REPLAY_BYTES:
        raise CheckpointError(f"checkpoint refused: larger than {MAX_REPLAY_BYTES} bytes")
    try:
        replay = parse_replay(raw)
    except ReplayFileError as exc:
        raise CheckpointError(f"checkpoint refused: {exc}") from None
    if replay.final.over and not finished:
        raise CheckpointError("checkpoint refused: that game is already over")
    keeper = GameKeeper.resuming(replay)
    return Earlier(replay, tuple(keeper.prior_times), keeper.offset)
