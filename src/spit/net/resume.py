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

__all__ = ["CheckpointError", "Earlier", "read_checkpoint"]


class CheckpointError(ValueError):
    """Checkpoint data that cannot be resumed; ``str()`` is one line saying why."""


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


def read_checkpoint(data: Mapping[str, Any] | str | bytes) -> Earlier:
    """Check checkpoint ``data`` (``Host.replay_data()``, or its JSON text).

    Raises ``CheckpointError`` (one line) if it is not a valid replay of an
    unfinished game: malformed, edited, hostile or already over.
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
    if replay.final.over:
        raise CheckpointError("checkpoint refused: that game is already over")
    keeper = GameKeeper.resuming(replay)
    return Earlier(replay, tuple(keeper.prior_times), keeper.offset)
