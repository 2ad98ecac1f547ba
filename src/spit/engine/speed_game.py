"""The rules of Speed (RULES.md P1-P7, V3, H4, H5, H6), the second game mode.

Speed shares Spit's cards, actions, events, phases, random generator and save
format. Its table: each player has a hidden hand of five slots and a face-down
draw pile; two side piles lie face down, one beside each spit pile; the two
spit piles in the centre start from two face-down centre cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from spit.engine.actions import FLIP, PLAYERS, STALL, SYSTEM, Action, Kind, call, play
from spit.engine.base import Game, Phase
from spit.engine.cards import DECK_SIZE, NO_CARD_FITS, adjacency_rows, misfit_reason
from spit.engine.config import SPEED_VARIANT_FIELDS, SpeedConfig
from spit.engine.errors import ConfigError, IllegalAction
from spit.engine.events import (
    CardPlayed,
    CardTurnedUp,
    Dealt,
    Event,
    GameDrawn,
    GameWon,
    Scored,
    SidePilesRebuilt,
    Spat,
    SpitCalled,
    Stalemate,
)
from spit.engine.modes import Mode, register_mode
from spit.engine.results import Result
from spit.engine.schema import target_setting, variant_settings

#: P2: the number of slots in a hand.
HAND_SIZE = 5

#: ``result`` values at game over.

_PLAY_TABLE = tuple(
    tuple(tuple(play(p, s, t) for t in (0, 1)) for s in range(HAND_SIZE)) for p in PLAYERS
)
_CALLS = (call(0), call(1))
_FULL_HAND = (1,) * HAND_SIZE  # Dealt's "stock sizes" for a hand: one card in each slot
_BOTH = PLAYERS
_ONE = {0: (0,), 1: (1,)}
_STALL_ONLY = (STALL,)
_FLIP_ONLY = (FLIP,)

_PLAYING = Phase.PLAY
_KIND_PLAY = Kind.PLAY
_new = tuple.__new__  # builds an event NamedTuple without its Python-level __new__

_WAIT_REASON = {
    Phase.OPENING: "wait until both players are ready",
    Phase.STALEMATE: "it is a stalemate: wait for the side piles to turn",
    Phase.GAME_OVER: "the game is over",
}


@dataclass(frozen=True, slots=True)
class SpeedDeal:
    """Where the cards of one deal go (P1, P1b), each list ending with its next card."""

    hands: tuple[list[int | None], list[int | None]]
    draw: tuple[list[int], list[int]]
    side: tuple[list[int], list[int]]
    centre: list[int]


def deal_speed(deck: Sequence[int], long_deal: bool) -> SpeedDeal:
    """Deal a 52-card order by P1 (or P1b), then draw the hands (P2).

    ``deck`` is read in this order: player 1's cards, player 2's cards (the
    first five of each are their hand, slots 1-5, the rest their draw pile,
    drawn in order), side pile 1 then side pile 2 (each turned up in order),
    and last the two centre cards (for spit pile 1, then spit pile 2).
    """
    n = 20 if long_deal else 15
    k = 5 if long_deal else 10
    packets = (deck[0:n], deck[n : 2 * n])
    sides = (deck[2 * n : 2 * n + k], deck[2 * n + k : 2 * n + 2 * k])
    hands: tuple[list[int | None], list[int | None]] = (
        list(packets[0][:HAND_SIZE]),
        list(packets[1][:HAND_SIZE]),
    )
    draw = (list(reversed(packets[0][HAND_SIZE:])), list(reversed(packets[1][HAND_SIZE:])))
    side = (list(reversed(sides[0])), list(reversed(sides[1])))
    return SpeedDeal(hands, draw, side, list(deck[2 * n + 2 * k :]))


def check_deck(deck: object) -> list[int]:
    """A given deck must be a list of the 52 card ids, once each (ConfigError if not)."""
    if not isinstance(deck, (list, tuple)):
        raise ConfigError("the deck must be a list of 52 card ids")
    for c in deck:
        if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < DECK_SIZE:
            raise ConfigError(f"not a card id: {c!r:.20}")
    if sorted(deck) != list(range(DECK_SIZE)):
        raise ConfigError("the deck must hold the 52 cards exactly once each")
    return list(deck)


class SpeedObservation(NamedTuple):
    """What one player may know: their own hand, counts of hidden cards, the pile tops.

    Never the opponent's hand, a draw or side pile card, the centre cards before
    they turn up, or the seed. An immutable named tuple (cheap to build, once
    per position and bot).
    """

    player: int
    phase: Phase
    round_no: int
    config: SpeedConfig
    hand: tuple[int | None, ...]
    opponent_hand_count: int
    draw_counts: tuple[int, int]
    side_counts: tuple[int, int]
    pile_tops: tuple[int | None, int | None]
    pile_sizes: tuple[int, int]
    ready: tuple[bool, bool]
    scores: tuple[int, int]
    games_won: tuple[int, int]
    winner: int | None
    result: Result
    legal: tuple[Action, ...]

    def visible_cards(self) -> set[int]:
        """Every card id this observation shows."""
        cards = {c for c in self.hand if c is not None}
        cards.update(c for c in self.pile_tops if c is not None)
        return cards


class SpeedGame(Game[SpeedConfig, SpeedObservation]):
    """A game (or P7 match) of Speed. ``apply`` actions; read events.

    ``hands[p]`` has five slots, each a card id or None; ``draw[p]``, ``side[j]``
    and ``piles[j]`` are lists ending with their next (or top) card. Side pile
    ``j`` and spit pile ``j`` lie on player ``j``'s side. ``centre`` holds the
    two face-down centre cards until the opening (P2).
    """

    mode = "speed"
    PLAYER_KINDS: ClassVar[dict[Phase, tuple[Kind, ...]]] = {
        Phase.OPENING: (Kind.CALL,),
        Phase.PLAY: (Kind.PLAY, Kind.CALL),
        Phase.STALEMATE: (),  # P4: the side piles turn by themselves
        Phase.SLAP: (),
        Phase.CHOOSE: (),
        Phase.GAME_OVER: (),
    }

    def __init__(
        self,
        config: SpeedConfig | None = None,
        seed: int = 0,
        deck: Sequence[int] | None = None,
    ) -> None:
        """Start a game: shuffle from ``seed``, or deal the given 52-card ``deck``.

        See ``deal_speed`` for how a given deck is read. The events of the first
        deal are in ``opening_events``.
        """
        self._start(config, SpeedConfig, seed)
        self._rows = adjacency_rows(self.config.alternating_colours)
        #: the adjacency rows of the two spit piles' top cards (kept up to date)
        self._top_rows = [NO_CARD_FITS, NO_CARD_FITS]
        self.hands: list[list[int | None]] = [[], []]
        self.draw: list[list[int]] = [[], []]
        self.side: list[list[int]] = [[], []]
        self.piles: list[list[int]] = [[], []]
        self.centre: list[int] = []
        self.start_deck: tuple[int, ...] | None = None
        if deck is None:
            first = self._fresh_deck()
        else:
            first = check_deck(deck)
            self.start_deck = tuple(first)
        self.opening_events: list[Event] = []
        self._deal(self.opening_events, first)

    # ----------------------------------------------------------------- reading

    def hand_count(self, player: int) -> int:
        """Cards in the player's hand."""
        return HAND_SIZE - self.hands[player].count(None)

    def card_count(self, player: int) -> int:
        """Cards the player still has to play: hand plus draw pile (P6, H5)."""
        return self.hand_count(player) + len(self.draw[player])

    def columns(self, player: int) -> list[tuple[int | None, int]]:
        """Each hand slot's card (None: empty); nothing lies under a hand card."""
        return [(c, 0) for c in self.hands[player]]

    def reserve_size(self, player: int) -> int:
        """The player's draw pile."""
        return len(self.draw[player])

    def side_pile_sizes(self) -> tuple[int, int]:
        """Cards in each side pile."""
        return len(self.side[0]), len(self.side[1])

    def centre_face_down(self) -> bool:
        """True until the opening turns the centre cards up (P2)."""
        return bool(self.centre)

    def all_cards(self) -> list[int]:
        """Every card in the game, wherever it is (always 52 cards, once each)."""
        out: list[int] = []
        for p in PLAYERS:
            out.extend(c for c in self.hands[p] if c is not None)
            out.extend(self.draw[p])
            out.extend(self.side[p])
            out.extend(self.piles[p])
        out.extend(self.centre)
        return out

    def can_anyone_play(self) -> bool:
        """False exactly in a stalemate (P4): no hand card fits either spit pile."""
        r0, r1 = self._top_rows
        for hand in self.hands:
            for c in hand:
                if c is not None and (r0[c] or r1[c]):
                    return True
        return False

    def observation(self, player: int) -> SpeedObservation:
        """What ``player`` may see (their own hand, counts of everything hidden)."""
        if player not in PLAYERS:
            raise ValueError(f"no player {player}")
        piles, draw, side = self.piles, self.draw, self.side
        p0, p1 = piles
        called, scores, won = self.called, self.scores, self.games_won
        return _new(
            SpeedObservation,
            (
                player,
                self.phase,
                self.round_no,
                self.config,
                tuple(self.hands[player]),
                HAND_SIZE - self.hands[1 - player].count(None),
                (len(draw[0]), len(draw[1])),
                (len(side[0]), len(side[1])),
                (p0[-1] if p0 else None, p1[-1] if p1 else None),
                (len(p0), len(p1)),
                (called[0], called[1]),
                (scores[0], scores[1]),
                (won[0], won[1]),
                self.winner,
                self.result,
                tuple(self.legal_actions(player)),
            ),
        )

    def state_key(self) -> tuple[object, ...]:
        return (
            self.phase.value,
            self.round_no,
            tuple(tuple(h) for h in self.hands),
            tuple(tuple(d) for d in self.draw),
            tuple(tuple(s) for s in self.side),
            tuple(tuple(p) for p in self.piles),
            tuple(self.centre),
            tuple(self.called),
            tuple(self.scores),
            tuple(self.games_won),
            self.winner,
            self.result.value,  # the plain string: fingerprints stay as they were
        )

    def start_cards_json(self) -> object:
        return None if self.start_deck is None else list(self.start_deck)

    # ------------------------------------------------------------ legal actions

    def legal_actions(self, player: int | None = None) -> list[Action]:
        phase = self.phase
        if phase is _PLAYING and player != SYSTEM:
            # Only plays are legal, listed in sorted order: the hot path of self-play.
            r0, r1 = self._top_rows
            out: list[Action] = []
            add = out.append
            hands = self.hands
            for p in _BOTH if player is None else _ONE.get(player, ()):
                c0, c1, c2, c3, c4 = hands[p]
                a0, a1, a2, a3, a4 = _PLAY_TABLE[p]
                if c0 is not None:
                    if r0[c0]:
                        add(a0[0])
                    if r1[c0]:
                        add(a0[1])
                if c1 is not None:
                    if r0[c1]:
                        add(a1[0])
                    if r1[c1]:
                        add(a1[1])
                if c2 is not None:
                    if r0[c2]:
                        add(a2[0])
                    if r1[c2]:
                        add(a2[1])
                if c3 is not None:
                    if r0[c3]:
                        add(a3[0])
                    if r1[c3]:
                        add(a3[1])
                if c4 is not None:
                    if r0[c4]:
                        add(a4[0])
                    if r1[c4]:
                        add(a4[1])
            return out
        if phase is _PLAYING:
            return list(_STALL_ONLY)  # player is SYSTEM: H6
        if phase is Phase.STALEMATE:
            return list(_FLIP_ONLY) if player == SYSTEM else []  # P4
        if phase is not Phase.OPENING:
            return []
        if player is None:
            return [a for a, ready in zip(_CALLS, self.called, strict=True) if not ready]
        if (player == 0 or player == 1) and not self.called[player]:
            return [_CALLS[player]]  # P2
        return []

    # ---------------------------------------------------------------- checking

    def check(self, action: Action) -> None:
        kind, p, s, t = action
        phase = self.phase
        if self._check_sender(kind, p):
            if kind is Kind.STALL and phase is not Phase.PLAY:
                raise IllegalAction("a stall can only be declared during play")
            if kind is Kind.FLIP and phase is not Phase.STALEMATE:
                raise IllegalAction("the side piles turn only in a stalemate")
            if kind is Kind.CLOSE:
                raise IllegalAction("Speed has no slap or choice window to close")
            return
        if kind is Kind.PLAY:
            if phase is not Phase.PLAY:
                raise IllegalAction(_WAIT_REASON[phase])
            if not 0 <= s < HAND_SIZE:
                raise IllegalAction(f"there is no hand slot {s + 1}")
            if t not in (0, 1):
                raise IllegalAction(f"there is no spit pile {t + 1}")
            c = self.hands[p][s]
            if c is None:
                raise IllegalAction(f"hand slot {s + 1} is empty")
            top = self.piles[t][-1]
            if not self._rows[top][c]:
                raise IllegalAction(misfit_reason(c, top, self.config.alternating_colours))
        elif kind is Kind.CALL:
            if phase is not Phase.OPENING:
                raise IllegalAction("the game is under way: there is nothing to be ready for")
            if self.called[p]:
                raise IllegalAction("you are already ready")
        elif kind is Kind.MOVE:
            raise IllegalAction("Speed has no stocks to move: play from your hand")
        else:
            raise IllegalAction("there is no pile to slap or choose in Speed")

    # -------------------------------------------------------------- performing

    def apply(self, action: Action) -> list[Event]:
        # Fast path for the commonest action, a legal play; everything else
        # (and every illegal play, for its reason) goes through check().
        if action[0] is _KIND_PLAY and self.phase is _PLAYING:
            _, p, s, t = action
            if (p == 0 or p == 1) and 0 <= s < HAND_SIZE and (t == 0 or t == 1):
                hand = self.hands[p]
                c = hand[s]
                if c is not None and self._top_rows[t][c]:
                    events = self._play(p, s, t, hand, c)
                    self.actions.append(action)
                    self._saw(events)
                    return events
        return super().apply(action)

    def _play(self, p: int, s: int, t: int, hand: list[int | None], c: int) -> list[Event]:
        """P3: play the card, draw back up into the same slot, then look for P6 or P4."""
        self.piles[t].append(c)
        top_rows = self._top_rows
        top_rows[t] = self._rows[c]
        draw = self.draw[p]
        # Events are built with tuple.__new__: the same NamedTuples, at half the cost.
        if draw:
            new = draw.pop()
            hand[s] = new
            events: list[Event] = [_new(CardPlayed, (p, s, t, c)), _new(CardTurnedUp, (p, s, new))]
        else:
            hand[s] = None
            events = [_new(CardPlayed, (p, s, t, c))]
            if hand.count(None) == HAND_SIZE:
                self._game_won(events, p, Result.PLAYED_OUT)  # P6
                return events
        if not self.can_anyone_play():
            self._stalemate(events, stalled=False)  # P4: nobody can play
        return events

    def _perform(self, action: Action) -> list[Event]:
        kind, p, s, t = action
        if kind is Kind.PLAY:
            hand = self.hands[p]
            card = hand[s]
            assert card is not None  # ``check`` refuses an empty slot
            return self._play(p, s, t, hand, card)
        events: list[Event] = []
        if kind is Kind.CALL:
            self.called[p] = True
            events.append(SpitCalled(p))
            if self.called[0] and self.called[1]:
                self._open(events)
        elif kind is Kind.STALL:
            self._stalemate(events, stalled=True)  # H6
        elif kind is Kind.FLIP:
            self._flip(events)
        return events

    def _open(self, events: list[Event]) -> None:
        """P2: both ready: the two centre cards turn up at once and start the spit piles."""
        for j in PLAYERS:
            c = self.centre[j]
            self.piles[j] = [c]
            self._top_rows[j] = self._rows[c]
            events.append(Spat(j, j, c))
        self.centre = []
        self.called = [False, False]
        self._set_phase(events, Phase.PLAY)
        if not self.can_anyone_play():
            self._stalemate(events, stalled=False)

    def _stalemate(self, events: list[Event], stalled: bool) -> None:
        events.append(Stalemate(stalled))
        if self.phase is not Phase.STALEMATE:
            self._set_phase(events, Phase.STALEMATE)

    def _flip(self, events: list[Event]) -> None:
        """P4: each side pile turns its top card onto its spit pile (P5 refills first)."""
        if not self.side[0] and not self.side[1] and not self._rebuild(events):
            return
        side = self.side
        for j in PLAYERS:
            if side[j]:
                c = side[j].pop()
                self.piles[j].append(c)
                self._top_rows[j] = self._rows[c]
                events.append(Spat(j, j, c))
        if self.can_anyone_play():
            self._set_phase(events, Phase.PLAY)
        else:
            self._stalemate(events, stalled=False)

    def _rebuild(self, events: list[Event]) -> bool:
        """P5: gather the spit piles below their tops into two new side piles.

        Returns False, having ended the game by H5, if there is nothing to
        gather, or if no card in the centre fits any card in either hand (then
        no number of flips could ever end the stalemate).
        """
        piles = self.piles
        gathered = piles[0][:-1] + piles[1][:-1]
        if not gathered or not self._centre_can_help():
            self._stuck_end(events)
            return False
        piles[0] = piles[0][-1:]
        piles[1] = piles[1][-1:]
        self.rng.shuffle(gathered)
        half = (len(gathered) + 1) // 2  # the larger half on player 1's side
        self.side = [gathered[:half], gathered[half:]]
        events.append(SidePilesRebuilt((half, len(gathered) - half)))
        return True

    def _centre_can_help(self) -> bool:
        """True if some card in the spit piles fits some card in a hand (P5 vs H5)."""
        rows = self._rows
        held = [c for hand in self.hands for c in hand if c is not None]
        for pile in self.piles:
            for top in pile:
                row = rows[top]
                for c in held:
                    if row[c]:
                        return True
        return False

    def _stuck_end(self, events: list[Event]) -> None:
        """H5: the player holding fewer cards (hand plus draw pile) wins; equal is a draw."""
        mine, theirs = self.card_count(0), self.card_count(1)
        if mine == theirs:
            self._game_drawn(events)
        else:
            self._game_won(events, 0 if mine < theirs else 1, Result.STUCK)

    def _game_won(self, events: list[Event], winner: int, reason: Result) -> None:
        """P6 or H5 won a game: score it in a P7 match and go on, or end."""
        events.append(GameWon(winner, reason))
        if not self.config.match:
            self._finish(events, winner, reason)
            return
        self.games_won[winner] += 1
        points = [0, 0]
        points[winner] = len(self.draw[1 - winner])  # P7
        self.scores[winner] += points[winner]
        events.append(Scored((points[0], points[1]), (self.scores[0], self.scores[1])))
        if self.scores[winner] >= self.config.target_score:
            self._finish(events, winner, Result.SCORE)
            return
        self._next_deal(events)

    def _game_drawn(self, events: list[Event]) -> None:
        """H5 with equal cards: a drawn game (in a P7 match, the match goes on)."""
        events.append(GameDrawn(Result.STUCK))
        if self.config.match:
            self._next_deal(events)
        else:
            self._finish(events, None, Result.STUCK)

    def _next_deal(self, events: list[Event]) -> None:
        """P7: a fresh deal, unless H4's round limit has been reached."""
        if self.round_no >= self.config.round_limit:
            self._finish(events, None, Result.ROUND_LIMIT)  # H4
            return
        self._deal(events, self._fresh_deck())

    def _deal(self, events: list[Event], deck: Sequence[int]) -> None:
        """P1, P2: deal a new round and wait for both players to be ready."""
        self.round_no += 1
        deal = deal_speed(deck, self.config.long_deal)
        self.hands = list(deal.hands)
        self.draw = list(deal.draw)
        self.side = list(deal.side)
        self.piles = [[], []]
        self._top_rows = [NO_CARD_FITS, NO_CARD_FITS]
        self.centre = deal.centre
        self.called = [False, False]
        for p in PLAYERS:
            events.append(Dealt(p, _FULL_HAND, len(self.draw[p])))
        self._set_phase(events, Phase.OPENING)


register_mode(
    Mode(
        name="speed",
        title="Speed",
        game_class=SpeedGame,
        config_class=SpeedConfig,
        variants=SPEED_VARIANT_FIELDS,
        has_moves=False,
        side_piles=True,
        reserve_name="draw pile",
        lowest_score_wins=False,
        match_rule=(
            "The winner scores the cards left in the loser's draw pile; first to {target}."
        ),
        private_hand=True,
        observer_class="spit.engine.speed_observer:SpeedObserver",
        settings=(
            *variant_settings(SPEED_VARIANT_FIELDS),
            target_setting(0, 0, "points to win (0: single games)"),
        ),
    )
)
