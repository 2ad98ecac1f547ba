"""What each seat and a spectator see of a Speed game: a hand is private (P2).

A seat sees its own hand and counts of everything else; a spectator sees
neither hand: player 1's comes as ``HIDDEN`` cards (one per card held),
player 2's as a count, as a seat sees its opponent's. The card a player draws
into their hand (``CardTurnedUp``) is hidden from everyone else: the event
keeps its place, its card becomes None.
"""

from __future__ import annotations

from typing import Any

from spit.engine.base import AnyGame
from spit.engine.events import CardTurnedUp, Event
from spit.engine.observers import (
    HIDDEN,
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
)
from spit.engine.speed_game import HAND_SIZE, SpeedObservation


class SpeedObserver(Observer):
    """Speed's observations in JSON: a hand (the seat's own), counts, pile tops."""

    hides_events = True

    def observe(self, game: AnyGame, seat: int | None) -> dict[str, Any]:
        """A seat's own hand and counts; a spectator's has no hand."""
        obs = game.observation(0 if seat is None else seat)
        hand = list(obs.hand)
        if seat is None:
            hand = [None if c is None else HIDDEN for c in hand]
        data = self.common_json(obs, seat)
        data.update(
            hand=hand,
            opponent_hand_count=obs.opponent_hand_count,
            draw_counts=list(obs.draw_counts),
            side_counts=list(obs.side_counts),
            pile_tops=list(obs.pile_tops),
            pile_sizes=list(obs.pile_sizes),
            ready=list(obs.ready),
        )
        return data

    def from_json(self, data: dict[str, Any], config: Any) -> SpeedObservation:
        """The observation, every field checked (a spectator's hand: ``HIDDEN`` cards)."""
        common = self.common_from_json(data)
        names = ("hand", "opponent_hand_count", "draw_counts", "side_counts")
        fields = require(data, (*names, "pile_tops", "pile_sizes", "ready"))
        in_hand = card if common["player"] is not None else _hidden
        return SpeedObservation(
            config=config,
            hand=items(fields["hand"], in_hand, HAND_SIZE),
            opponent_hand_count=count(fields["opponent_hand_count"], HAND_SIZE),
            draw_counts=pair(fields["draw_counts"], count),
            side_counts=pair(fields["side_counts"], count),
            pile_tops=pair(fields["pile_tops"], card),
            pile_sizes=pair(fields["pile_sizes"], count),
            ready=pair(fields["ready"], flag),
            **common,
        )

    def table(self, obs: SpeedObservation) -> Table:
        """The viewer's own hand face up, any other hand face down; the draw piles."""
        me = 0 if obs.player is None else obs.player  # a spectator: player 1's hidden hand
        other = obs.opponent_hand_count
        hidden: list[tuple[int | None, int]] = [(HIDDEN, 0)] * other
        hands = [tuple((c, 0) for c in obs.hand), tuple(hidden + [(None, 0)] * (HAND_SIZE - other))]
        if me == 1:
            hands.reverse()
        face_down = obs.phase.value == "opening" and not any(obs.pile_sizes)
        return Table(
            columns=(hands[0], hands[1]),
            reserves=obs.draw_counts,
            piles=(
                PileShown(obs.pile_tops[0], obs.pile_sizes[0]),
                PileShown(obs.pile_tops[1], obs.pile_sizes[1]),
            ),
            called=obs.ready,
            side_piles=obs.side_counts,
            centre_face_down=face_down,
        )

    def event_for(self, event: Event, seat: int | None) -> Event:
        """A drawn card is seen only by the player who drew it."""
        if isinstance(event, CardTurnedUp) and event.player != seat:
            return event._replace(card=None)
        return event


def _hidden(v: Any) -> int | None:
    """A spectator's view of a hand slot: a card held (``HIDDEN``) or an empty slot."""
    if v is not None and v != HIDDEN:
        raise CodecError("observation: a spectator sees no card of a hand")
    return None if v is None else HIDDEN
