"""The rules of Spit (RULES.md R1-R20, V1-V4, H1, H4; phases for H2, H3, H6)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, NamedTuple

from spit.engine.actions import (
    CLOSE,
    PLAYERS,
    STALL,
    SYSTEM,
    Action,
    Kind,
    call,
    choose,
    move,
    play,
    slap,
)
from spit.engine.base import Game, Phase
from spit.engine.cards import DECK_SIZE, NO_CARD_FITS, adjacency_rows, misfit_reason
from spit.engine.config import VARIANT_FIELDS, SpitConfig
from spit.engine.errors import ConfigError, IllegalAction
from spit.engine.events import (
    CardMoved,
    CardPlayed,
    CardTurnedUp,
    Dealt,
    Event,
    GameWon,
    PileTaken,
    RoundOver,
    Scored,
    Slapped,
    Spat,
    SpitCalled,
    Stalemate,
)
from spit.engine.modes import Mode, register_mode
from spit.engine.results import Result, RoundEnd
from spit.engine.rng import Rng, shuffled_deck

#: R3: the stock each successive card of a layout is dealt onto, row by row.
DEAL_ORDER: dict[int, tuple[int, ...]] = {
    n: tuple(s for row in range(n) for s in range(row, n)) for n in (4, 5)
}


_PLAY_TABLE = tuple(tuple(tuple(play(p, s, t) for t in (0, 1)) for s in range(5)) for p in PLAYERS)
_MOVE_TABLE = tuple(tuple(move(p, s) for s in range(5)) for p in PLAYERS)

_PLAYING = Phase.PLAY
_new = tuple.__new__  # builds a NamedTuple without its Python-level __new__
_KIND_PLAY = Kind.PLAY

_WAIT_REASON = {
    Phase.OPENING: "wait for the opening spit: call spit! first",
    Phase.STALEMATE: "it is a stalemate: only spit! calls now",
    Phase.SLAP: "the round is over: slap a spit pile",
    Phase.CHOOSE: "the round is over: the pile is being chosen",
    Phase.GAME_OVER: "the game is over",
}


def deal_layout(cards: Sequence[int], n_stocks: int) -> tuple[list[list[int]], list[int]]:
    """Deal ``cards`` by R3 (short where there are too few, R18).

    Returns the stocks (each bottom to top) and the spit cards, the next one
    to turn up last. ``cards[0]`` is dealt first.
    """
    order = DEAL_ORDER[n_stocks]
    stocks: list[list[int]] = [[] for _ in range(n_stocks)]
    k = min(len(cards), len(order))
    for i in range(k):
        stocks[order[i]].append(cards[i])
    spit = list(cards[k:])
    spit.reverse()
    return stocks, spit


def fresh_packets(rng: Rng) -> list[list[int]]:
    """R2: shuffle the deck with ``rng`` and deal 26 cards to each player."""
    deck = shuffled_deck(rng)
    return [deck[:26], deck[26:]]


class StockView(NamedTuple):
    """What anyone can see of a stock: its face-up top and how many lie below."""

    top: int | None
    face_down: int


#: Every possible stock view, shared (they are immutable): ``_STOCK_VIEWS[top][face_down]``.
#: Building the observation from this table instead of new objects makes it
#: several times cheaper, which matters to bots and the simulator.
_STOCK_VIEWS: tuple[tuple[StockView, ...], ...] = tuple(
    tuple(StockView(c, d) for d in range(DECK_SIZE)) for c in range(DECK_SIZE)
)
_EMPTY_STOCK = StockView(None, 0)


class PileView(NamedTuple):
    """What anyone can see of a spit pile."""

    top: int | None
    size: int
    in_use: bool


class SpitObservation(NamedTuple):
    """What one player may know: no face-down card, no spit card order, no seed.

    An immutable named tuple (not a dataclass): bots and the simulator build
    one per position and player, and a tuple is several times cheaper to make.
    """

    player: int
    phase: Phase
    round_no: int
    config: SpitConfig
    stocks: tuple[tuple[StockView, ...], tuple[StockView, ...]]
    spit_counts: tuple[int, int]
    piles: tuple[PileView, PileView]
    called: tuple[bool, bool]
    slaps: tuple[tuple[int, int], ...]
    chooser: int | None
    scores: tuple[int, int]
    games_won: tuple[int, int]
    winner: int | None
    result: Result
    legal: tuple[Action, ...]

    def visible_cards(self) -> set[int]:
        """Every card id this observation shows."""
        cards = {v.top for side in self.stocks for v in side if v.top is not None}
        cards.update(p.top for p in self.piles if p.top is not None)
        return cards


class SpitGame(Game[SpitConfig, SpitObservation]):
    """A game (or V4 match) of Spit. ``apply`` actions; read events.

    Pile ``p`` is player ``p``'s spit pile. Stock lists run bottom to top; only
    the top card of a stock is face up (R3, R9). Spit card lists end with the
    next card to turn up.
    """

    mode = "spit"
    PLAYER_KINDS: ClassVar[dict[Phase, tuple[Kind, ...]]] = {
        Phase.OPENING: (Kind.CALL,),
        Phase.PLAY: (Kind.PLAY, Kind.MOVE, Kind.CALL),
        Phase.STALEMATE: (Kind.CALL,),
        Phase.SLAP: (Kind.SLAP,),
        Phase.CHOOSE: (Kind.CHOOSE,),
        Phase.GAME_OVER: (),
    }

    def __init__(
        self,
        config: SpitConfig | None = None,
        seed: int = 0,
        packets: Sequence[Sequence[int]] | None = None,
    ) -> None:
        """Start a game: deal from ``seed`` (R2), or from the given ``packets``.

        ``packets`` gives each player's cards in dealing order (``packets[p][0]``
        is dealt first); together they must be the 52 cards once each. The
        events of the first deal are in ``opening_events``.
        """
        self._start(config, SpitConfig, seed)
        self._rows = adjacency_rows(self.config.alternating_colours)
        self.n_stocks = self.config.n_stocks
        self.stocks: list[list[list[int]]] = [[], []]
        self.spit: list[list[int]] = [[], []]
        self.piles: list[list[int]] = [[], []]
        self.pile_used = [False, False]
        self.slaps: list[tuple[int, int]] = []
        self.chooser: int | None = None
        self.start_packets: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        #: cards gathered at a round's end and not dealt again (only at game over)
        self.gathered: list[list[int]] = [[], []]
        if packets is None:
            first = self._fresh_packets()
        else:
            first = _check_packets(packets)
            self.start_packets = (tuple(first[0]), tuple(first[1]))
        self.opening_events: list[Event] = []
        self._deal_round(self.opening_events, first)

    # ----------------------------------------------------------------- reading

    def layout_count(self, player: int) -> int:
        """Cards in the player's layout."""
        return sum(len(s) for s in self.stocks[player])

    def card_count(self, player: int) -> int:
        """Cards the player holds: layout plus spit cards (V4 scores these)."""
        return self.layout_count(player) + len(self.spit[player])

    def columns(self, player: int) -> list[tuple[int | None, int]]:
        """Each stock's top card (None: empty slot) and the cards under it."""
        return [(s[-1] if s else None, max(0, len(s) - 1)) for s in self.stocks[player]]

    def reserve_size(self, player: int) -> int:
        """The player's spit cards."""
        return len(self.spit[player])

    def pile_in_use(self, pile: int) -> bool:
        """False for the pile left out of a one-pile round (R18)."""
        return bool(self.pile_used[pile])

    def all_cards(self) -> list[int]:
        """Every card in the game, wherever it is (always 52 cards, once each)."""
        out: list[int] = []
        for p in PLAYERS:
            for s in self.stocks[p]:
                out.extend(s)
            out.extend(self.spit[p])
            out.extend(self.piles[p])
            out.extend(self.gathered[p])
        return out

    @property
    def one_pile_round(self) -> bool:
        """True if only one spit pile is in use this round (R18, R19)."""
        return self.pile_used[0] != self.pile_used[1]

    def can_anyone_move(self) -> bool:
        """False exactly in a stalemate (R12): no play onto a pile and no R10 move."""
        piles = self.piles
        used = self.pile_used
        rows = self._rows
        r0 = rows[piles[0][-1]] if used[0] else NO_CARD_FITS
        r1 = rows[piles[1][-1]] if used[1] else NO_CARD_FITS
        for stocks in self.stocks:
            empty = tall = False
            for s in stocks:
                if s:
                    c = s[-1]
                    if r0[c] or r1[c]:
                        return True
                    if len(s) > 1:
                        tall = True
                else:
                    empty = True
            if empty and tall:
                return True
        return False

    def observation(self, player: int) -> SpitObservation:
        """What ``player`` may see (also fine for a spectator: Spit hides nothing more)."""
        legal = tuple(self.legal_actions(player))
        views = _STOCK_VIEWS
        empty = _EMPTY_STOCK
        side0, side1 = self.stocks
        stocks = (
            tuple([views[s[-1]][len(s) - 1] if s else empty for s in side0]),
            tuple([views[s[-1]][len(s) - 1] if s else empty for s in side1]),
        )
        (a, b), (used_a, used_b) = self.piles, self.pile_used
        piles = (
            _new(PileView, (a[-1] if a else None, len(a), used_a)),
            _new(PileView, (b[-1] if b else None, len(b), used_b)),
        )
        spit, called, scores, won = self.spit, self.called, self.scores, self.games_won
        # tuple.__new__ skips the named tuple's Python-level __new__: the same
        # object at a fraction of the cost (this runs once per position and bot).
        return _new(
            SpitObservation,
            (
                player,
                self.phase,
                self.round_no,
                self.config,
                stocks,
                (len(spit[0]), len(spit[1])),
                piles,
                (called[0], called[1]),
                tuple(self.slaps),
                self.chooser,
                (scores[0], scores[1]),
                (won[0], won[1]),
                self.winner,
                self.result,
                legal,
            ),
        )

    def state_key(self) -> tuple[object, ...]:
        return (
            self.phase.value,
            self.round_no,
            tuple(tuple(tuple(s) for s in st) for st in self.stocks),
            tuple(tuple(s) for s in self.spit),
            tuple(tuple(p) for p in self.piles),
            tuple(tuple(g) for g in self.gathered),
            tuple(self.pile_used),
            tuple(self.called),
            tuple(self.slaps),
            self.chooser,
            tuple(self.scores),
            tuple(self.games_won),
            self.winner,
            self.result.value,  # the plain string: fingerprints stay as they were
        )

    def start_cards_json(self) -> object:
        return None if self.start_packets is None else [list(p) for p in self.start_packets]

    # ------------------------------------------------------------ legal actions

    def has_legal_action(self, player: int) -> bool:
        """True if ``player`` has any legal action now (in play: without listing them)."""
        if self.phase is not _PLAYING:
            return bool(self.legal_actions(player))
        piles = self.piles
        used = self.pile_used
        rows = self._rows
        r0 = rows[piles[0][-1]] if used[0] else NO_CARD_FITS
        r1 = rows[piles[1][-1]] if used[1] else NO_CARD_FITS
        empty = tall = False
        for s in self.stocks[player]:
            if s:
                c = s[-1]
                if r0[c] or r1[c]:
                    return True
                if len(s) > 1:
                    tall = True
            else:
                empty = True
        return empty and tall

    def legal_actions(self, player: int | None = None) -> list[Action]:
        phase = self.phase
        if phase is _PLAYING and (player == 0 or player == 1):
            piles = self.piles
            used = self.pile_used
            rows = self._rows
            r0 = rows[piles[0][-1]] if used[0] else NO_CARD_FITS
            r1 = rows[piles[1][-1]] if used[1] else NO_CARD_FITS
            plays = _PLAY_TABLE[player]
            out: list[Action] = []
            empty = False
            tall: list[int] = []
            for i, s in enumerate(self.stocks[player]):
                if s:
                    c = s[-1]
                    if r0[c]:
                        out.append(plays[i][0])
                    if r1[c]:
                        out.append(plays[i][1])
                    if len(s) > 1:
                        tall.append(i)
                else:
                    empty = True
            if empty and tall:
                moves = _MOVE_TABLE[player]
                out.extend([moves[i] for i in tall])
            return out
        if player is None:
            return sorted(self.legal_actions(0) + self.legal_actions(1))
        if player == SYSTEM:
            if phase is Phase.PLAY:
                return [STALL]
            if phase is Phase.SLAP or phase is Phase.CHOOSE:
                return [CLOSE]
            return []
        if player != 0 and player != 1:
            raise ValueError(f"no player {player!r}: use 0, 1, SYSTEM or None")
        if phase is Phase.OPENING or phase is Phase.STALEMATE:
            if self.spit[player] and not self.called[player]:
                return [call(player)]
            return []
        if phase is Phase.SLAP:
            if all(p != player for p, _ in self.slaps):
                return [slap(player, 0), slap(player, 1)]
            return []
        if phase is Phase.CHOOSE and player == self.chooser:
            return [choose(player, 0), choose(player, 1)]
        return []

    # ---------------------------------------------------------------- checking

    def check(self, action: Action) -> None:
        kind, p, s, t = action
        phase = self.phase
        if self._check_sender(kind, p):
            if kind is Kind.STALL and phase is not Phase.PLAY:
                raise IllegalAction("a stall can only be declared during play")
            if kind is Kind.CLOSE and phase not in (Phase.SLAP, Phase.CHOOSE):
                raise IllegalAction("there is no slap or choice window to close")
            if kind is Kind.FLIP:
                raise IllegalAction("Spit has no side piles to flip")
            return
        if kind is Kind.PLAY:
            if phase is not Phase.PLAY:
                raise IllegalAction(_WAIT_REASON[phase])
            if not 0 <= s < self.n_stocks:
                raise IllegalAction(f"there is no stock {s + 1}")
            if t not in (0, 1) or not self.pile_used[t]:
                raise IllegalAction(f"spit pile {t + 1} is not in use this round")
            stock = self.stocks[p][s]
            if not stock:
                raise IllegalAction(f"stock {s + 1} is empty")
            top = self.piles[t][-1]
            c = stock[-1]
            if not self._rows[top][c]:
                raise IllegalAction(misfit_reason(c, top, self.config.alternating_colours))
        elif kind is Kind.MOVE:
            if phase is not Phase.PLAY:
                raise IllegalAction(_WAIT_REASON[phase])
            if not 0 <= s < self.n_stocks:
                raise IllegalAction(f"there is no stock {s + 1}")
            stock = self.stocks[p][s]
            if not stock:
                raise IllegalAction(f"stock {s + 1} is empty")
            if all(self.stocks[p]):
                raise IllegalAction("there is no empty slot to move into")
            if len(stock) == 1:
                raise IllegalAction(f"stock {s + 1} has only one card: moving it changes nothing")
        elif kind is Kind.CALL:
            if phase not in (Phase.OPENING, Phase.STALEMATE):
                raise IllegalAction("no spit is due: it is not a stalemate")
            if not self.spit[p]:
                raise IllegalAction("you have no spit cards to spit")
            if self.called[p]:
                raise IllegalAction("you have already called spit!")
        elif kind is Kind.SLAP:
            if phase is not Phase.SLAP:
                raise IllegalAction("there is nothing to slap now")
            if t not in (0, 1):
                raise IllegalAction(f"there is no spit pile {t + 1}")
            if any(q == p for q, _ in self.slaps):
                raise IllegalAction("you have already slapped: a slap cannot be changed")
        elif kind is Kind.CHOOSE:
            if phase is not Phase.CHOOSE:
                raise IllegalAction("there is no pile to choose now")
            if p != self.chooser:
                raise IllegalAction("only the player who emptied their layout chooses")
            if t not in (0, 1):
                raise IllegalAction(f"there is no spit pile {t + 1}")
        else:  # pragma: no cover - every Kind is handled above
            raise IllegalAction(f"unknown action {action!r}")

    # -------------------------------------------------------------- performing

    def apply(self, action: Action) -> list[Event]:
        # Fast path for the commonest action, a legal play; everything else
        # (and every illegal play, for its reason) goes through check().
        if action[0] is _KIND_PLAY and self.phase is _PLAYING:
            _, p, s, t = action
            if (p == 0 or p == 1) and 0 <= s < self.n_stocks and (t == 0 or t == 1):
                stocks = self.stocks[p]
                stock = stocks[s]
                if stock and self.pile_used[t] and self._rows[self.piles[t][-1]][stock[-1]]:
                    events = self._play(p, s, t, stocks, stock)
                    self.actions.append(action)
                    return events
        return super().apply(action)

    def _play(
        self, p: int, s: int, t: int, stocks: list[list[int]], stock: list[int]
    ) -> list[Event]:
        c = stock.pop()
        self.piles[t].append(c)
        events: list[Event] = [CardPlayed(p, s, t, c)]
        if stock:
            events.append(CardTurnedUp(p, s, stock[-1]))  # R9
        elif not any(stocks):
            self._end_round(events, RoundEnd.LAYOUT_EMPTIED, p)  # R15(a)
            return events
        if not self.can_anyone_move():
            self._stalemate(events, stalled=False)
        return events

    def _perform(self, action: Action) -> list[Event]:
        kind, p, s, t = action
        events: list[Event] = []
        if kind is Kind.PLAY:
            stocks = self.stocks[p]
            return self._play(p, s, t, stocks, stocks[s])
        elif kind is Kind.MOVE:
            stocks = self.stocks[p]
            slot = 0
            while stocks[slot]:
                slot += 1
            c = stocks[s].pop()
            stocks[slot].append(c)
            events.append(CardMoved(p, s, slot, c))
            events.append(CardTurnedUp(p, s, stocks[s][-1]))  # R9
            if not self.can_anyone_move():
                self._stalemate(events, stalled=False)
        elif kind is Kind.CALL:
            self.called[p] = True
            events.append(SpitCalled(p))
            if all(self.called[q] or not self.spit[q] for q in PLAYERS):
                self._spit(events)
        elif kind is Kind.SLAP:
            self.slaps.append((p, t))
            events.append(Slapped(p, t))
            if len(self.slaps) == 2:
                self._resolve_slaps(events)
        elif kind is Kind.CHOOSE:
            events.append(Slapped(p, t))
            self._resolve_choice(events, t)
        elif kind is Kind.CLOSE:
            if self.phase is Phase.SLAP:
                self._resolve_slaps(events)
            else:
                self._resolve_choice(events, None)
        elif kind is Kind.STALL:
            self._stalemate(events, stalled=True)  # H6
        return events

    def _spit(self, events: list[Event]) -> None:
        """R5, R13, R14: every player holding spit cards turns one onto their own pile."""
        for p in PLAYERS:
            if self.spit[p]:
                c = self.spit[p].pop()
                self.piles[p].append(c)
                events.append(Spat(p, p, c))
        self.called = [False, False]
        self._set_phase(events, Phase.PLAY)
        if not self.can_anyone_move():
            self._stalemate(events, stalled=False)

    def _stalemate(self, events: list[Event], stalled: bool) -> None:
        events.append(Stalemate(stalled))
        if self.spit[0] or self.spit[1]:
            self.called = [False, False]
            self._set_phase(events, Phase.STALEMATE)  # R13, R14
        else:
            self._end_round(events, RoundEnd.NO_SPIT_CARDS, None)  # R15(b)

    def _end_round(self, events: list[Event], reason: RoundEnd, emptied_by: int | None) -> None:
        events.append(RoundOver(self.round_no, reason, emptied_by))
        if self.config.scoring:  # V4: score before any pile is taken
            points = (self.card_count(0), self.card_count(1))
            self.scores = [self.scores[0] + points[0], self.scores[1] + points[1]]
            events.append(Scored(points, (self.scores[0], self.scores[1])))
            if max(self.scores) >= self.config.target_score:
                a, b = self.scores
                self._finish(events, None if a == b else (0 if a < b else 1), Result.SCORE)
                return
        if self.pile_used[0] and self.pile_used[1]:
            self.slaps = []
            if self.config.choose_pile and reason is RoundEnd.LAYOUT_EMPTIED:
                self.chooser = emptied_by  # V2
                self._set_phase(events, Phase.CHOOSE)
            else:
                self._set_phase(events, Phase.SLAP)  # R16
            return
        self._collect(events, one_pile_takes(self.pile_used, reason, emptied_by))

    def _resolve_slaps(self, events: list[Event]) -> None:
        """R16: the first slap decides; nobody slapping means each takes their own side."""
        self._collect(events, slap_takes(self.slaps))

    def _resolve_choice(self, events: list[Event], pile: int | None) -> None:
        """V2: the chooser's pile, or when time ran out the smaller one (own if equal)."""
        assert self.chooser is not None
        sizes = (len(self.piles[0]), len(self.piles[1]))
        self._collect(events, choice_takes(self.chooser, pile, sizes))

    def _collect(self, events: list[Event], takes: list[int | None]) -> None:
        """R17, R19, R20: take piles, gather, check for a winner, deal again."""
        gathered: list[list[int]] = [[], []]
        for p in PLAYERS:
            cards = gathered[p]
            for s in self.stocks[p]:
                cards.extend(s)
            cards.extend(self.spit[p])
            pile = takes[p]
            if pile is None:
                events.append(PileTaken(p, None, 0))
            else:
                cards.extend(self.piles[pile])
                events.append(PileTaken(p, pile, len(self.piles[pile])))
        self.stocks = [[[] for _ in range(self.n_stocks)] for _ in PLAYERS]
        self.spit = [[], []]
        self.piles = [[], []]
        self.chooser = None
        self.slaps = []
        self.gathered = gathered
        winner = next((p for p in PLAYERS if not gathered[p]), None)
        at_limit = self.round_no >= self.config.round_limit
        if winner is not None:
            events.append(GameWon(winner, Result.NO_CARDS_LEFT))
            if not self.config.scoring:
                self._finish(events, winner, Result.NO_CARDS_LEFT)
                return
            self.games_won[winner] += 1
            if at_limit:
                self._finish(events, None, Result.ROUND_LIMIT)  # H4
                return
            self._deal_round(events, self._fresh_packets())  # V4: fresh deal (R2)
            return
        if at_limit:
            self._finish(events, None, Result.ROUND_LIMIT)  # H4
            return
        for p in PLAYERS:
            self.rng.shuffle(gathered[p])
        self._deal_round(events, gathered)

    def _fresh_packets(self) -> list[list[int]]:
        """R2: shuffle the deck and deal 26 cards to each player."""
        return fresh_packets(self.rng)

    def _deal_round(self, events: list[Event], packets: Sequence[Sequence[int]]) -> None:
        """R3, R4, R17, R18: deal both layouts and open the round (R5)."""
        self.round_no += 1
        self.piles = [[], []]
        self.stocks = [[], []]
        self.spit = [[], []]
        for p in PLAYERS:
            stocks, spit = deal_layout(packets[p], self.n_stocks)
            self.stocks[p] = stocks
            self.spit[p] = spit
            events.append(Dealt(p, tuple(len(s) for s in stocks), len(spit)))
        self.gathered = [[], []]
        self.pile_used = [bool(self.spit[0]), bool(self.spit[1])]
        self.called = [False, False]
        self.slaps = []
        self.chooser = None
        self._set_phase(events, Phase.OPENING)


def one_pile_takes(
    pile_used: Sequence[bool], reason: RoundEnd, emptied_by: int | None
) -> list[int | None]:
    """The pile each player takes at the end of a one-pile round (``None``: none).

    R19: the player who did not empty their layout takes the one pile; H1: when
    the spit cards ran out instead, its owner takes it back.
    """
    owner = 0 if pile_used[0] else 1
    takes: list[int | None] = [None, None]
    if reason is RoundEnd.LAYOUT_EMPTIED:
        assert emptied_by is not None
        takes[1 - emptied_by] = owner  # R19
    else:
        takes[owner] = owner  # H1
    return takes


def slap_takes(slaps: Sequence[tuple[int, int]]) -> list[int | None]:
    """R16: the first slap (player, pile) decides; nobody slapping, each takes their own."""
    if not slaps:
        return [0, 1]
    first, pile = slaps[0]
    takes: list[int | None] = [None, None]
    takes[first] = pile
    takes[1 - first] = 1 - pile
    return takes


def choice_takes(chooser: int, pile: int | None, sizes: Sequence[int]) -> list[int | None]:
    """V2: the chooser takes ``pile``; if time ran out (None), the smaller one (own if equal)."""
    if pile is None:
        pile = chooser if sizes[chooser] <= sizes[1 - chooser] else 1 - chooser
    takes: list[int | None] = [None, None]
    takes[chooser] = pile
    takes[1 - chooser] = 1 - pile
    return takes


def _check_packets(packets: object) -> list[list[int]]:
    """Packets must be two non-empty lists that together hold the 52 cards once each."""
    if not isinstance(packets, (list, tuple)) or len(packets) != 2:
        raise ConfigError("packets must be two lists of card ids")
    out: list[list[int]] = []
    for packet in packets:
        if not isinstance(packet, (list, tuple)) or not packet:
            raise ConfigError("each player's packet must be a non-empty list of card ids")
        for c in packet:
            if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < DECK_SIZE:
                raise ConfigError(f"not a card id: {c!r:.20}")
        out.append(list(packet))
    if sorted(out[0] + out[1]) != list(range(DECK_SIZE)):
        raise ConfigError("packets must hold the 52 cards exactly once each")
    return out


register_mode(
    Mode(
        name="spit",
        title="Spit",
        game_class=SpitGame,
        config_class=SpitConfig,
        variants=VARIANT_FIELDS,
        has_moves=True,
        side_piles=False,
        reserve_name="spit cards",
        lowest_score_wins=True,
        match_rule="A point per card still held; the match ends at {target}, lowest wins.",
        observer_class="spit.engine.spit_observer:SpitObserver",
        match_variant="V4",
    )
)
