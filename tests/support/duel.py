"""Duel: a small third game mode with a private hand, registered by the tests alone.

It proves the mode registry is real (tests/architecture/test_a_third_mode.py):
nothing in ``src/`` knows it. Each player holds a private hand of three cards
and a face-down draw pile; both say ready, then play a hand card one rank up
or down onto either pile and draw into the slot. Whoever plays out wins.
When nobody can play, each turns a draw card onto a pile; with none left,
fewer cards left wins (equal: a draw).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from spit.engine import Action, ConfigError, Game, IllegalAction, Kind, Mode, Phase, Result
from spit.engine.actions import PLAYERS, call, play
from spit.engine.events import CardPlayed, CardTurnedUp, Dealt, Event, Spat, SpitCalled
from spit.engine.observers import (
    HIDDEN,
    Observer,
    PileShown,
    Table,
    count,
    flag,
    items,
    pair,
    require,
)
from spit.engine.observers import card as card_of
from spit.engine.schema import Setting

HAND = 3  # cards in a hand unless the players choose more (its setting, below)
MAX_HAND = 5


@dataclass(frozen=True)
class DuelConfig:
    """Duel's one option, the cards in a hand, and the fields every mode's config offers."""

    hand: int = HAND
    alternating_colours: bool = False
    target_score: int = 0
    round_limit: int = 0
    variants: tuple[str, ...] = ()
    match: bool = False

    def __post_init__(self) -> None:
        if type(self.hand) is not int or not HAND <= self.hand <= MAX_HAND:
            raise ConfigError(f"a Duel hand holds {HAND} to {MAX_HAND} cards")

    def to_dict(self) -> dict[str, object]:
        return {"hand": self.hand}

    @classmethod
    def from_dict(cls, data: object) -> DuelConfig:
        if not isinstance(data, dict) or set(data) - {"hand"}:
            raise ConfigError("Duel's only option is its hand")
        return cls(**data)


class DuelObservation(NamedTuple):
    player: Any  # a seat, or None for a spectator
    phase: Phase
    round_no: int
    config: DuelConfig
    hand: tuple[int | None, ...]  # a spectator's: HIDDEN for each card held
    other_hand: int
    draw_counts: tuple[int, int]
    pile_tops: tuple[int | None, int | None]
    pile_sizes: tuple[int, int]
    called: tuple[bool, bool]
    scores: tuple[int, int]
    games_won: tuple[int, int]
    winner: int | None
    result: Result
    legal: tuple[Action, ...]


class DuelGame(Game[DuelConfig, DuelObservation]):
    mode = "duel"
    PLAYER_KINDS = {phase: () for phase in Phase} | {
        Phase.OPENING: (Kind.CALL,),
        Phase.PLAY: (Kind.PLAY,),
    }

    def __init__(self, config: DuelConfig | None = None, seed: int = 0, cards: Any = None, /):
        self._start(config, DuelConfig, seed)
        self.round_no = 1
        self.cards = cards
        deck = list(cards) if cards is not None else self._fresh_deck()
        if sorted(deck) != list(range(52)):
            raise ConfigError("the deck must hold the 52 cards once each")
        n = self.config.hand
        self.hands: list[list[int | None]] = [list(deck[:n]), list(deck[n : 2 * n])]
        self.piles = [[deck[2 * n]], [deck[2 * n + 1]]]
        self.draw = [deck[2 * n + 2 :: 2], deck[2 * n + 3 :: 2]]
        self.opening_events = [Dealt(p, (n,), len(self.draw[p])) for p in PLAYERS]

    def check(self, action: Action) -> None:
        if self._check_sender(action.kind, action.player):
            raise IllegalAction("nothing happens by itself in Duel")
        if action.kind not in self.PLAYER_KINDS[self.phase]:
            raise IllegalAction("not now")
        if action.kind is Kind.CALL and self.called[action.player]:
            raise IllegalAction("already ready")
        if action.kind is Kind.PLAY:
            hand = self.hands[action.player]
            c = hand[action.source] if action.source < len(hand) else None
            if c is None or not self.fits(c, self.piles[action.target][-1]):
                raise IllegalAction("that card does not fit there")

    def _perform(self, action: Action) -> list[Event]:
        p, events = action.player, []
        if action.kind is Kind.CALL:
            self.called[p] = True
            events.append(SpitCalled(p))
            if all(self.called):
                self._set_phase(events, Phase.PLAY)
        else:
            hand, s = self.hands[p], action.source
            events.append(CardPlayed(p, s, action.target, hand[s]))
            self.piles[action.target].append(hand[s])
            hand[s] = self.draw[p].pop() if self.draw[p] else None
            if hand[s] is not None:
                events.append(CardTurnedUp(p, s, hand[s]))
            if all(c is None for c in hand):
                self._finish(events, p, Result.PLAYED_OUT)
        while self.phase is Phase.PLAY and not any(self.legal_actions(q) for q in PLAYERS):
            if not (self.draw[0] and self.draw[1]):  # stuck for good: fewer cards left wins
                left = [sum(c is not None for c in self.hands[q]) + len(self.draw[q])
                        for q in PLAYERS]  # fmt: skip
                winner = None if left[0] == left[1] else left.index(min(left))
                self._finish(events, winner, Result.STUCK)
            for q in PLAYERS if self.phase is Phase.PLAY else ():  # stuck: each turns one up
                self.piles[q].append(self.draw[q].pop())
                events.append(Spat(q, q, self.piles[q][-1]))
        return events

    def legal_actions(self, player: int | None = None) -> list[Action]:
        players = PLAYERS if player is None else (player,)
        wanted = [call(p) for p in players if p in PLAYERS] + [
            play(p, s, t)
            for p in players
            if p in PLAYERS
            for s in range(self.config.hand)
            for t in (0, 1)
        ]
        return sorted(a for a in wanted if self.is_legal(a))

    def observation(self, player: int) -> DuelObservation:
        (a, b), draw = self.piles, self.draw
        return DuelObservation(
            player, self.phase, self.round_no, self.config, tuple(self.hands[player]),
            sum(c is not None for c in self.hands[1 - player]), (len(draw[0]), len(draw[1])),
            (a[-1], b[-1]), (len(a), len(b)), (self.called[0], self.called[1]),
            (0, 0), (0, 0), self.winner, self.result, tuple(self.legal_actions(player)),
        )  # fmt: skip

    def columns(self, player: int) -> list[tuple[int | None, int]]:
        return [(c, 0) for c in self.hands[player]]

    def reserve_size(self, player: int) -> int:
        return len(self.draw[player])

    def state_key(self) -> tuple[object, ...]:
        lists = (*self.hands, *self.piles, *self.draw)
        return (self.phase.value, tuple(map(tuple, lists)), tuple(self.called), self.winner)

    def start_cards_json(self) -> object:
        return self.cards


class DuelObserver(Observer):
    """A hand is private: its cards go to their holder alone, a drawn card too."""

    hides_events = True

    def observe(self, game: Any, seat: int | None) -> dict[str, Any]:
        obs = game.observation(0 if seat is None else seat)
        hand = obs.hand if seat is not None else [c if c is None else HIDDEN for c in obs.hand]
        data = self.common_json(obs, seat)
        data.update(hand=list(hand), other_hand=obs.other_hand, draw_counts=list(obs.draw_counts),
                    pile_tops=list(obs.pile_tops), pile_sizes=list(obs.pile_sizes),
                    called=list(obs.called))  # fmt: skip
        return data

    def from_json(self, data: dict[str, Any], config: Any) -> DuelObservation:
        common = self.common_from_json(data)
        f = require(data, ("hand", "other_hand", "draw_counts", "pile_tops", "pile_sizes"))
        f["called"] = require(data, ("called",))["called"]
        seen = card_of if common["player"] is not None else _hidden
        return DuelObservation(
            hand=items(f["hand"], seen, config.hand),
            other_hand=count(f["other_hand"], config.hand),
            draw_counts=pair(f["draw_counts"], count), pile_tops=pair(f["pile_tops"], card_of),
            pile_sizes=pair(f["pile_sizes"], count), called=pair(f["called"], flag),
            config=config, **common,
        )  # fmt: skip

    def table(self, obs: DuelObservation) -> Table:
        other = ((HIDDEN, 0),) * obs.other_hand + ((None, 0),) * (obs.config.hand - obs.other_hand)
        mine = tuple((c, 0) for c in obs.hand)
        columns = (other, mine) if obs.player == 1 else (mine, other)
        piles = (PileShown(obs.pile_tops[0], obs.pile_sizes[0]),
                 PileShown(obs.pile_tops[1], obs.pile_sizes[1]))  # fmt: skip
        return Table(columns, obs.draw_counts, piles, obs.called)

    def event_for(self, event: Event, seat: int | None) -> Event:
        if isinstance(event, CardTurnedUp) and event.player != seat:
            return event._replace(card=None)
        return event


def _hidden(v: Any) -> int | None:
    """A spectator's hand slot: a card held (HIDDEN) or empty, never a card."""
    return HIDDEN if v == HIDDEN else None


DUEL = Mode(
    name="duel", title="Duel", game_class=DuelGame, config_class=DuelConfig, variants={},
    has_moves=False, side_piles=False, reserve_name="draw pile", lowest_score_wins=False,
    match_rule="", private_hand=True, observer_class=DuelObserver,
    settings=(Setting("hand", "hand", HAND, "cards in hand", "each player holds 3 to 5 cards",
                      low=HAND, high=MAX_HAND),),
)  # fmt: skip
