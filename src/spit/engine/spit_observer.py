"""What each seat and a spectator see of a Spit game: everything face up (R3).

Spit hides only face-down cards, which no observation holds, so a seat and
a spectator see the same (a spectator has no legal actions) and no event is
hidden from anyone.
"""

from __future__ import annotations

from typing import Any

from spit.engine.base import AnyGame
from spit.engine.observers import (
    CodecError,
    Observer,
    PileShown,
    Table,
    card,
    count,
    flag,
    items,
    pair,
    require,
    seat_or_none,
)
from spit.engine.spit_game import PileView, SpitObservation, StockView


class SpitObserver(Observer):
    """Spit's observations in JSON: stock tops and face-down counts, spit counts, piles."""

    def observe(self, game: AnyGame, seat: int | None) -> dict[str, Any]:
        """A seat's observation; a spectator's is player 1's without the legal actions."""
        obs = game.observation(0 if seat is None else seat)
        data = self.common_json(obs, seat)
        data.update(
            stocks=[[[v.top, v.face_down] for v in side] for side in obs.stocks],
            spit_counts=list(obs.spit_counts),
            piles=[[p.top, p.size, p.in_use] for p in obs.piles],
            called=list(obs.called),
            slaps=[list(s) for s in obs.slaps],
            chooser=obs.chooser,
        )
        return data

    def from_json(self, data: dict[str, Any], config: Any) -> SpitObservation:
        """The observation, every field checked."""
        common = self.common_from_json(data)
        fields = require(data, ("stocks", "spit_counts", "piles", "called", "slaps", "chooser"))

        def stock(v: Any) -> StockView:
            if not isinstance(v, list) or len(v) != 2:
                raise CodecError("observation: bad stock")
            return StockView(card(v[0]), count(v[1]))

        def pile(v: Any) -> PileView:
            if not isinstance(v, list) or len(v) != 3:
                raise CodecError("observation: bad pile")
            return PileView(card(v[0]), count(v[1]), flag(v[2]))

        return SpitObservation(
            config=config,
            stocks=pair(fields["stocks"], lambda side: items(side, stock, 5)),
            spit_counts=pair(fields["spit_counts"], count),
            piles=pair(fields["piles"], pile),
            called=pair(fields["called"], flag),
            slaps=items(fields["slaps"], lambda s: pair(s, count), 4),
            chooser=seat_or_none(fields["chooser"], "chooser"),
            **common,
        )

    def table(self, obs: SpitObservation) -> Table:
        """Stock tops with the face-down cards under them; the spit cards as the reserve."""
        columns = tuple(tuple((v.top, v.face_down) for v in side) for side in obs.stocks)
        return Table(
            columns=(columns[0], columns[1]),
            reserves=obs.spit_counts,
            piles=(PileShown(*obs.piles[0]), PileShown(*obs.piles[1])),
            called=obs.called,
            chooser=obs.chooser,
        )
