"""The rules of Spit (RULES.md R1-R20, V1-V4, H1, H4; phases for H2, H3, H6)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import chain
from operator import itemgetter
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
from spit.engine.cards import (
    CARD_BITS,
    DECK_SIZE,
    adjacency_masks,
    card_name,
    misfit_reason,
)
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
from spit.engine.schema import target_setting, variant_settings

#: R3: the stock each successive card of a layout is dealt onto, row by row.
DEAL_ORDER: dict[int, tuple[int, ...]] = {
    n: tuple(s for row in range(n) for s in range(row, n)) for n in (4, 5)
}


#: _MOVES_OF[player][bits]: the R10 moves of the stocks in ``bits`` (bit s: stock s), in order
_MOVES_OF = tuple(
    tuple(tuple(move(p, s) for s in range(5) if bits >> s & 1) for bits in range(32))
    for p in PLAYERS
)
#: _DEAL_PLACES[n][s]: where in a packet stock ``s``'s cards of a full layout lie
#: (``DEAL_ORDER`` read stock by stock), bottom to top
_DEAL_PLACES: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple(tuple(i for i, s in enumerate(order) if s == stock) for stock in range(n))
    for n, order in DEAL_ORDER.items()
}

#: _DEAL_TAKE[n]: a full layout's cards from a packet, stock by stock (each bottom
#: to top), in one call; _DEAL_CUTS[n][s]: stock ``s``'s share of them, as a slice
_DEAL_TAKE = {n: itemgetter(*chain(*places)) for n, places in _DEAL_PLACES.items()}
_DEAL_CUTS = {
    n: tuple(slice(sum(map(len, places[:s])), sum(map(len, places[: s + 1]))) for s in range(n))
    for n, places in _DEAL_PLACES.items()
}
#: a stock's top card (the last of its list)
_top_of = itemgetter(-1)
_BITS = CARD_BITS
#: card ``c`` as a bit, from the table
_bit_of: Callable[[int], int] = CARD_BITS.__getitem__
#: both spit piles' tops and fitting cards while they are empty
_NO_PILE_TOPS: tuple[None, None] = (None, None)
_NO_PILE_MASKS = (0, 0)

#: _FULL_LAYOUT[n]: a full layout's stock sizes, the cards face down under each
#: top, and the stocks with a card face down as bits
_FULL_LAYOUT = {
    n: (
        [len(p) for p in places],
        [len(p) - 1 for p in places],
        sum(1 << s for s, p in enumerate(places) if len(p) > 1),
    )
    for n, places in _DEAL_PLACES.items()
}

#: _PLAYS_OF[player][on0 | on1 << 5]: the R7 plays of the stocks in ``on0`` onto pile 1
#: and of those in ``on1`` onto pile 2 (bit s: stock s), in stock order, pile 1 first;
#: each worked out when first needed (``_plays_of``: building all at import costs more)
_PLAYS_OF: tuple[list[tuple[Action, ...] | None], ...] = ([None] * 1024, [None] * 1024)


def _plays_of(player: int, key: int) -> tuple[Action, ...]:
    """The entry ``_PLAYS_OF[player][key]``, worked out and kept."""
    plays = tuple(play(player, s, t) for s in range(5) for t in (0, 1) if key >> (s + 5 * t) & 1)
    _PLAYS_OF[player][key] = plays
    return plays


_new = tuple.__new__  # builds a NamedTuple without its Python-level __new__

#: The events of the commonest actions, made once and shared (events are immutable):
#: ``_PLAYED[p][s][t][c]`` is CardPlayed(p, s, t, c), ``_TURNED[p][s][c]`` CardTurnedUp(p, s, c).
_PLAYED = tuple(
    tuple(
        tuple(tuple(_new(CardPlayed, (p, s, t, c)) for c in range(DECK_SIZE)) for t in (0, 1))
        for s in range(5)
    )
    for p in PLAYERS
)
_TURNED = tuple(
    tuple(tuple(_new(CardTurnedUp, (p, s, c)) for c in range(DECK_SIZE)) for s in range(5))
    for p in PLAYERS
)
_SPAT = tuple(tuple(_new(Spat, (p, p, c)) for c in range(DECK_SIZE)) for p in PLAYERS)
_CALLED = (SpitCalled(0), SpitCalled(1))
_STALEMATES = (Stalemate(False), Stalemate(True))

_CALLS = (call(0), call(1))
_SLAPS = ((slap(0, 0), slap(0, 1)), (slap(1, 0), slap(1, 1)))
_CHOOSES = ((choose(0, 0), choose(0, 1)), (choose(1, 0), choose(1, 1)))

_OPENING, _PLAYING, _STALEMATE = Phase.OPENING, Phase.PLAY, Phase.STALEMATE
_SLAP, _CHOOSE, _OVER = Phase.SLAP, Phase.CHOOSE, Phase.GAME_OVER
_K_MOVE, _K_CALL, _K_SLAP, _K_CHOOSE = Kind.MOVE, Kind.CALL, Kind.SLAP, Kind.CHOOSE
_K_CLOSE, _K_STALL, _K_FLIP = Kind.CLOSE, Kind.STALL, Kind.FLIP
_BOTH = PLAYERS
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
    k = len(order)
    stocks: list[list[int]]
    if len(cards) >= k:  # a full layout: each stock's cards straight from their places
        dealt = _DEAL_TAKE[n_stocks](cards)
        stocks = list(map(list, map(dealt.__getitem__, _DEAL_CUTS[n_stocks])))
        return stocks, list(cards[: k - 1 : -1])  # (the spit cards: the rest, reversed)
    stocks = [[] for _ in range(n_stocks)]
    for i in range(len(cards)):
        stocks[order[i]].append(cards[i])
    return stocks, []


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

    Besides the cards themselves the game keeps, up to date as cards move,
    what anyone can see of them as flat lists: ``tops[p]`` (each stock's
    face-up card, None for an empty slot), ``down[p]`` (the cards face down
    under it), ``known[p]`` (player ``p``'s face-up tops as bits: bit ``c`` for
    card ``c``) and ``pile_tops`` (each spit pile's top, None while empty).
    The rules read these; so may a bot (they are what a player sees). Each
    list is the same object for the whole game, changed in place.
    """

    mode = "spit"
    #: the packets the game was dealt from, if given (None: dealt from the seed).
    #: A class default, set on a game only when given: a game keeps at most 29
    #: attributes of its own, below CPython's limit (30) for instance attributes
    #: read at full speed (a key-sharing dict), which the hot paths rely on.
    start_packets: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    #: True once the game (or match) has ended: a plain attribute here (set by
    #: ``_finish``), not ``Game.over``'s property, which costs a call each time it
    #: is read (once per action in every loop that plays a game out)
    over: bool = False
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
        alternating = self.config.alternating_colours
        self._masks = adjacency_masks(alternating)
        n = self.config.n_stocks
        self.stocks: list[list[list[int]]] = [[], []]
        self.spit: list[list[int]] = [[], []]
        self.piles: list[list[int]] = [[], []]
        self.pile_used = [False, False]
        self.slaps: list[tuple[int, int]] = []
        self.chooser: int | None = None
        #: cards gathered at a round's end and not dealt again (only at game over)
        self.gathered: list[list[int]] = [[], []]
        self.tops: list[list[int | None]] = [[None] * n, [None] * n]
        self.down: list[list[int]] = [[0] * n, [0] * n]
        self.known = [0, 0]
        #: per player, the stocks with a card face down under their top, as bits
        self._tall = [0, 0]
        #: per player, the stocks whose top may move (R10), as bits: ``_reckon_movable``
        self._movable = [0, 0]
        self.pile_tops: list[int | None] = [None, None]
        #: per spit pile, the cards that may be played onto its top as bits (0: none)
        self._pile_masks = [0, 0]
        if packets is None:
            first = self._fresh_packets()
        else:
            first = _check_packets(packets)
            self.start_packets = (tuple(first[0]), tuple(first[1]))
        self.opening_events: list[Event] = []
        self._deal_round(self.opening_events, first)

    # ----------------------------------------------------------------- reading

    @property
    def n_stocks(self) -> int:
        """Stocks in each layout (R3; V1 has four)."""
        return self.config.n_stocks

    def layout_count(self, player: int) -> int:
        """Cards in the player's layout."""
        return sum(len(s) for s in self.stocks[player])

    def card_count(self, player: int) -> int:
        """Cards the player holds: layout plus spit cards (V4 scores these)."""
        return self.layout_count(player) + len(self.spit[player])

    def columns(self, player: int) -> list[tuple[int | None, int]]:
        """Each stock's top card (None: empty slot) and the cards under it."""
        return list(zip(self.tops[player], self.down[player], strict=True))

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
        return self._can_act()

    def _can_act(self, player: int | None = None) -> bool:
        """True if ``player`` (None: either player) can play a card onto a spit pile
        in use (R7, V3) or make an R10 move: the one scan for a stalemate (R12)
        and for a player who has nothing to do. Read in play, where a pile has a
        top exactly when it is in use."""
        m0, m1 = self._pile_masks
        fitting = m0 | m1
        known, movable = self.known, self._movable
        if player is None:
            return bool((known[0] | known[1]) & fitting or movable[0] or movable[1])
        return bool(known[player] & fitting or movable[player])

    def _reckon_movable(self, p: int) -> None:
        """R10, the one statement of when a move is legal: sets ``_movable[p]``,
        the stocks of player ``p`` whose top may move into an empty slot, as bits
        (bit s: stock s). A stock may move if it has a card face down under its
        top, and there is an empty slot: a stock without a face-up top, so fewer
        known tops than stocks (a test of one int instead of comparing every top
        with None). Called when a layout is dealt, a move fills a slot or a stock
        is emptied; a play that turns up a stock's last face-down card only
        clears that stock's bit (the same result, without the call: on the hot
        path)."""
        tall = self._tall[p]
        self._movable[p] = tall if self.known[p].bit_count() < len(self.tops[p]) else 0

    def _may_call(self, p: int) -> bool:
        """R5, R13, the one statement of when a call is legal: at the opening or
        in a stalemate, a player who holds spit cards and has not called yet."""
        phase = self.phase
        return (
            (phase is _OPENING or phase is _STALEMATE) and bool(self.spit[p]) and not self.called[p]
        )

    def observation(self, player: int) -> SpitObservation:
        """What ``player`` may see (also fine for a spectator: Spit hides nothing more)."""
        legal = tuple(self.legal_actions(player))
        views = _STOCK_VIEWS
        empty = _EMPTY_STOCK
        (t0, t1), (d0, d1) = self.tops, self.down
        stocks = (
            tuple([empty if c is None else views[c][d] for c, d in zip(t0, d0, strict=True)]),
            tuple([empty if c is None else views[c][d] for c, d in zip(t1, d1, strict=True)]),
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
        return self._can_act(player)

    def legal_actions(self, player: int | None = None) -> list[Action]:
        phase = self.phase
        if phase is _PLAYING and player in _BOTH:
            known = self.known[player]
            m0, m1 = self._pile_masks
            fit0 = known & m0
            fit1 = known & m1
            tops = self.tops[player]
            movable = self._movable[player]
            if movable:  # the R10 moves, after the plays
                moves = _MOVES_OF[player][movable]
                if not (fit0 or fit1):
                    return [*moves]
            elif not (fit0 or fit1):
                return []
            else:
                moves = ()
            # The stocks whose top fits each pile, as bits (a card is on one stock
            # at most), then the plays (R7) of those stocks from a table. Written
            # out once per pile: a helper's call would cost more than its loop here.
            on0 = 0
            if fit0.bit_count() == 1:
                on0 = 1 << tops.index(fit0.bit_length() - 1)
            else:
                while fit0:
                    low = fit0 & -fit0
                    on0 |= 1 << tops.index(low.bit_length() - 1)
                    fit0 ^= low
            on1 = 0
            if fit1.bit_count() == 1:
                on1 = 1 << tops.index(fit1.bit_length() - 1)
            else:
                while fit1:
                    low = fit1 & -fit1
                    on1 |= 1 << tops.index(low.bit_length() - 1)
                    fit1 ^= low
            key = on0 | on1 << 5  # (not 0: a card fits)
            plays = _PLAYS_OF[player][key] or _plays_of(player, key)
            return [*plays, *moves]
        if player in _BOTH:  # (a player outside play)
            if phase is _OPENING or phase is _STALEMATE:
                return [_CALLS[player]] if self._may_call(player) else []
            if phase is _SLAP:
                if not self._slapped(player):
                    return [*_SLAPS[player]]
                return []
            if phase is _CHOOSE and player == self.chooser:
                return [*_CHOOSES[player]]
            return []
        if player is None:
            return sorted(self.legal_actions(0) + self.legal_actions(1))
        if player == SYSTEM:
            if phase is _PLAYING:
                return [STALL]
            if phase is _SLAP or phase is _CHOOSE:
                return [CLOSE]
            return []
        raise ValueError(f"no player {player!r}: use 0, 1, SYSTEM or None")

    def _slapped(self, player: int) -> bool:
        """True if ``player`` has slapped this round (R16: a slap cannot be changed)."""
        slaps = self.slaps  # (player, pile) pairs
        return (player, 0) in slaps or (player, 1) in slaps

    # ---------------------------------------------------------------- checking

    def check(self, action: Action) -> None:
        reason = self._refusal(action)
        if reason is not None:
            raise IllegalAction(reason if isinstance(reason, str) else self._misfit(*reason))

    def _refusal(self, action: Action) -> str | tuple[int, int] | None:
        """Why ``action`` is not legal now, or None if it is: the one statement of
        what is legal (``check`` raises it, ``step`` only asks). A card that does
        not fit its pile is given as (card, pile), put in words only if asked."""
        kind, p, s, t = action
        phase = self.phase
        if kind is _KIND_PLAY and p in _BOTH:  # the commonest action first
            if phase is not _PLAYING:
                return _WAIT_REASON[phase]
            if not 0 <= s < len(self.tops[p]):
                return f"there is no stock {s + 1}"
            if t not in _BOTH or not self.pile_used[t]:
                return f"spit pile {t + 1} is not in use this round"
            c = self.tops[p][s]
            if c is None:
                return f"stock {s + 1} is empty"
            if not self._pile_masks[t] & _BITS[c]:  # R7, R8, V3
                return (c, t)
            return None
        if kind < _K_CLOSE and p in _BOTH:  # a player's action: ``_sender_refusal``
            if phase is _OVER:  # refuses it only once the game is over, in these words
                return _WAIT_REASON[phase]
        else:
            reason = self._sender_refusal(kind, p)
            if reason is not None:
                return reason
            if kind is _K_STALL and phase is not _PLAYING:
                return "a stall can only be declared during play"
            if kind is _K_CLOSE and phase not in (_SLAP, _CHOOSE):
                return "there is no slap or choice window to close"
            if kind is _K_FLIP:
                return "Spit has no side piles to flip"
            return None
        if kind is _K_MOVE:
            if phase is not _PLAYING:
                return _WAIT_REASON[phase]
            if not 0 <= s < len(self.tops[p]):
                return f"there is no stock {s + 1}"
            if self._movable[p] >> s & 1:
                return None
            # why not (``_reckon_movable`` decided it)
            tops = self.tops[p]
            if tops[s] is None:
                return f"stock {s + 1} is empty"
            if self.known[p].bit_count() == len(tops):  # a face-up top on every stock
                return "there is no empty slot to move into"
            return f"stock {s + 1} has only one card: moving it changes nothing"
        elif kind is _K_CALL:
            if self._may_call(p):
                return None
            # why not (``_may_call`` decided it)
            if phase not in (_OPENING, _STALEMATE):
                return "no spit is due: it is not a stalemate"
            if not self.spit[p]:
                return "you have no spit cards to spit"
            return "you have already called spit!"
        elif kind is _K_SLAP:
            if phase is not _SLAP:
                return "there is nothing to slap now"
            if t not in (0, 1):
                return f"there is no spit pile {t + 1}"
            if self._slapped(p):
                return "you have already slapped: a slap cannot be changed"
        elif kind is _K_CHOOSE:
            if phase is not _CHOOSE:
                return "there is no pile to choose now"
            if p != self.chooser:
                return "only the player who emptied their layout chooses"
            if t not in (0, 1):
                return f"there is no spit pile {t + 1}"
        else:  # pragma: no cover - every Kind is handled above
            return f"unknown action {action!r}"
        return None

    def _misfit(self, card: int, pile: int) -> str:
        """Why ``card`` may not go on spit pile ``pile`` (R7, R8, V3): only the
        condition it fails is named."""
        top = self.pile_tops[pile]
        if top is None:
            return f"{card_name(card)} is not one rank above or below nothing"
        return misfit_reason(card, top, self.config.alternating_colours)

    # -------------------------------------------------------------- performing

    def apply(self, action: Action) -> list[Event]:
        """``step`` with an event list, raising IllegalAction if ``action`` is refused
        (``step`` recognises a legal play at once)."""
        events: list[Event] = []
        if not self.step(action, events):
            reason = self._refusal(action)
            assert reason is not None
            raise IllegalAction(reason if isinstance(reason, str) else self._misfit(*reason))
        return events

    def step(self, action: Action, events: list[Event] | None = None) -> bool:
        """Carry out ``action`` if it is legal now (False, changing nothing, if not);
        its events go to ``events`` (None, the simulator's path: nobody listens,
        none is made). ``apply`` calls it with a list.

        The three commonest actions are recognised here at once, exactly as
        ``_refusal`` would find them legal (the tests hold the two to the same
        verdict on every action): a play (in play, a stock's top that fits a
        pile in use, whose mask is 0 while it has no top), carried out here too
        (R7, the one place: a call less on the commonest action); a move (R10)
        and a spit call (R5, R13), which go straight to their rules.
        """
        kind, p, s, t = action
        if kind is _KIND_PLAY and self.phase is _PLAYING and p in _BOTH:
            if s >= 0 and t in _BOTH:
                tops = self.tops[p]
                try:
                    c = tops[s]
                except IndexError:  # no such stock (the index tells: no ``len`` call)
                    return False
                pile_masks = self._pile_masks
                if c is not None and pile_masks[t] & _BITS[c]:
                    # R7: the stock's top card ``c`` onto spit pile ``t``; R9 turns the next one up
                    self.actions.append(action)
                    stock = self.stocks[p][s]
                    stock.pop()
                    self.piles[t].append(c)
                    self.pile_tops[t] = c
                    pile_masks[t] = self._masks[c]
                    self.progress_count += 1
                    known = self.known
                    if stock:
                        top = tops[s] = stock[-1]  # R9
                        down = self.down[p]
                        under = down[s] = down[s] - 1
                        if not under:  # its top alone on it now: it cannot move (R10)
                            tall = self._tall
                            tall[p] ^= 1 << s
                            self._movable[p] &= tall[p]  # (``_reckon_movable``, in short)
                        known[p] ^= _BITS[c] | _BITS[top]
                        if events is not None:
                            events += (_PLAYED[p][s][t][c], _TURNED[p][s][top])
                    else:
                        tops[s] = None
                        if events is not None:
                            events.append(_PLAYED[p][s][t][c])
                        known[p] ^= _BITS[c]
                        if not known[p]:  # every stock is empty (an empty one has no top)
                            self._end_round(events, RoundEnd.LAYOUT_EMPTIED, p)  # R15(a)
                            return True
                        self._reckon_movable(p)  # an empty slot now
                    # R12: a face-up card that fits a pile settles it at once (the
                    # commonest case, without a call: the new pile top first);
                    # otherwise ``_can_act`` looks for an R10 move too.
                    fitting = pile_masks[t]
                    if not (
                        known[0] & fitting
                        or known[1] & fitting
                        or (known[0] | known[1]) & pile_masks[1 - t]
                        or self._can_act()
                    ):
                        self._stalemate(events, stalled=False)
                    return True
            return False  # (an illegal play: ``_refusal`` says why)
        if kind is _K_MOVE:  # the next commonest, recognised here too (R10)
            if self.phase is _PLAYING and p in _BOTH and s >= 0 and self._movable[p] >> s & 1:
                self._move(p, s, events)
                self.actions.append(action)
                return True
            return False
        if kind is _K_CALL:  # R5, R13: a player holding spit cards who has not called
            if p in _BOTH and self._may_call(p):
                self._call(p, events)
                self.actions.append(action)
                return True
            return False
        if self._refusal(action) is not None:
            return False
        self._carry_out(action, events)
        self.actions.append(action)
        return True

    def _perform(self, action: Action) -> list[Event]:
        # ``Game.apply``'s hook (``apply`` above replaces it): a checked action through
        # ``step``, whose log entry ``Game.apply`` makes itself
        events: list[Event] = []
        taken = self.step(action, events)
        assert taken  # (``Game.apply`` checked it first)
        self.actions.pop()
        return events

    def _carry_out(self, action: Action, events: list[Event] | None) -> None:
        """Carry out a checked slap, choice, close or stall (``step`` makes the
        plays, moves and calls itself); its events go to ``events`` (None: nobody
        listens)."""
        kind, p, _, t = action
        if kind is _K_SLAP:
            self.slaps.append((p, t))
            if events is not None:
                events.append(_new(Slapped, (p, t)))
            if len(self.slaps) == 2:
                self._resolve_slaps(events)
        elif kind is _K_CHOOSE:
            if events is not None:
                events.append(_new(Slapped, (p, t)))
            self._resolve_choice(events, t)
        elif kind is _K_CLOSE:
            if self.phase is _SLAP:
                self._resolve_slaps(events)
            else:
                self._resolve_choice(events, None)
        elif kind is _K_STALL:
            self._stalemate(events, stalled=True)  # H6

    def _finish(self, events: list[Event] | None, winner: int | None, reason: Result) -> None:
        super()._finish(events, winner, reason)
        self.over = True

    def _call(self, p: int, events: list[Event] | None) -> None:
        """R5, R13: ``p`` calls spit!; once every player holding spit cards has, they spit."""
        called = self.called
        called[p] = True
        if events is not None:
            events.append(_CALLED[p])
        spit = self.spit
        if (called[0] or not spit[0]) and (called[1] or not spit[1]):
            self._spit(events)

    def _move(self, p: int, s: int, events: list[Event] | None) -> None:
        """R10: the stock's top card into the leftmost empty slot; R9 turns the next one up."""
        stocks = self.stocks[p]
        tops = self.tops[p]
        slot = self.move_slot(tops)
        assert slot is not None  # ``step`` makes a move only with an empty slot
        stock = stocks[s]
        c = stock.pop()
        stocks[slot].append(c)
        tops[slot] = c
        top = tops[s] = stock[-1]  # R9
        down = self.down[p]
        under = down[s] = down[s] - 1
        if not under:
            self._tall[p] ^= 1 << s
        known = self.known
        known[p] |= _BITS[top]
        self._reckon_movable(p)
        self.progress_count += 1
        if events is not None:
            events += (_new(CardMoved, (p, s, slot, c)), _TURNED[p][s][top])
        masks = self._pile_masks  # R12, as after a play (``step``): a fitting card settles it
        if not (known[0] | known[1]) & (masks[0] | masks[1]) and not self._can_act():
            self._stalemate(events, stalled=False)

    def _spit(self, events: list[Event] | None) -> None:
        """R5, R13, R14: every player holding spit cards turns one onto their own pile."""
        spit, piles, pile_tops, pile_masks, masks = (
            self.spit,
            self.piles,
            self.pile_tops,
            self._pile_masks,
            self._masks,
        )
        for p in PLAYERS:
            cards = spit[p]
            if cards:
                c = cards.pop()
                piles[p].append(c)
                pile_tops[p] = c
                pile_masks[p] = masks[c]
                self.progress_count += 1
                if events is not None:
                    events.append(_SPAT[p][c])
        self.called = [False, False]
        self._set_phase(events, _PLAYING)
        if not self._can_act():
            self._stalemate(events, stalled=False)

    def _stalemate(self, events: list[Event] | None, stalled: bool) -> None:
        if events is not None:
            events.append(_STALEMATES[stalled])
        if self.spit[0] or self.spit[1]:
            self.called = [False, False]
            self._set_phase(events, _STALEMATE)  # R13, R14
        else:
            self._end_round(events, RoundEnd.NO_SPIT_CARDS, None)  # R15(b)

    def _end_round(
        self, events: list[Event] | None, reason: RoundEnd, emptied_by: int | None
    ) -> None:
        if events is not None:
            events.append(_new(RoundOver, (self.round_no, reason, emptied_by)))
        if self.config.scoring:  # V4: score before any pile is taken
            points = (self.card_count(0), self.card_count(1))
            self.scores = [self.scores[0] + points[0], self.scores[1] + points[1]]
            if events is not None:
                events.append(Scored(points, (self.scores[0], self.scores[1])))
            if max(self.scores) >= self.config.target_score:
                a, b = self.scores
                self._finish(events, None if a == b else (0 if a < b else 1), Result.SCORE)
                return
        if self.pile_used[0] and self.pile_used[1]:
            self.slaps = []
            if self.config.choose_pile and reason is RoundEnd.LAYOUT_EMPTIED:
                self.chooser = emptied_by  # V2
                self._set_phase(events, _CHOOSE)
            else:
                self._set_phase(events, _SLAP)  # R16
            return
        self._collect(events, one_pile_takes(self.pile_used, reason, emptied_by))

    def _resolve_slaps(self, events: list[Event] | None) -> None:
        """R16: the first slap decides; nobody slapping means each takes their own side."""
        self._collect(events, slap_takes(self.slaps))

    def _resolve_choice(self, events: list[Event] | None, pile: int | None) -> None:
        """V2: the chooser's pile, or when time ran out the smaller one (own if equal)."""
        assert self.chooser is not None
        sizes = (len(self.piles[0]), len(self.piles[1]))
        self._collect(events, choice_takes(self.chooser, pile, sizes))

    def _collect(self, events: list[Event] | None, takes: list[int | None]) -> None:
        """R17, R19, R20: take piles, gather, check for a winner, deal again."""
        stocks, spit, piles = self.stocks, self.spit, self.piles
        t0, t1 = takes
        gathered = [
            list(chain(*stocks[0], spit[0], () if t0 is None else piles[t0])),
            list(chain(*stocks[1], spit[1], () if t1 is None else piles[t1])),
        ]
        if events is not None:
            events += (
                _new(PileTaken, (0, t0, 0 if t0 is None else len(piles[t0]))),
                _new(PileTaken, (1, t1, 0 if t1 is None else len(piles[t1]))),
            )
        self.chooser = None
        self.slaps = []
        winner = 0 if not gathered[0] else 1 if not gathered[1] else None
        at_limit = self.round_no >= self.config.round_limit
        if winner is not None:
            if events is not None:
                events.append(_new(GameWon, (winner, Result.NO_CARDS_LEFT)))
            if not self.config.scoring:
                self._gather(gathered)
                self._finish(events, winner, Result.NO_CARDS_LEFT)
                return
            self.games_won[winner] += 1
            if at_limit:
                self._gather(gathered)
                self._finish(events, None, Result.ROUND_LIMIT)  # H4
                return
            self._deal_round(events, self._fresh_packets())  # V4: fresh deal (R2)
            return
        if at_limit:
            self._gather(gathered)
            self._finish(events, None, Result.ROUND_LIMIT)  # H4
            return
        shuffle = self.rng.shuffle
        shuffle(gathered[0])
        shuffle(gathered[1])
        self._deal_round(events, gathered)

    def _gather(self, gathered: list[list[int]]) -> None:
        """The game ends with every card gathered (none dealt again)."""
        self.stocks = [[[] for _ in range(self.config.n_stocks)] for _ in PLAYERS]
        self.spit = [[], []]
        self.piles = [[], []]
        self.gathered = gathered
        self._seen_again()

    def _fresh_packets(self) -> list[list[int]]:
        """R2: shuffle the deck and deal 26 cards to each player."""
        return fresh_packets(self.rng)

    def _deal_round(self, events: list[Event] | None, packets: Sequence[Sequence[int]]) -> None:
        """R3, R4, R17, R18: deal both layouts and open the round (R5)."""
        self.round_no += 1
        n = self.config.n_stocks
        stocks0, spit0 = deal_layout(packets[0], n)
        stocks1, spit1 = deal_layout(packets[1], n)
        self.stocks = [stocks0, stocks1]
        self.spit = [spit0, spit1]
        self.piles = [[], []]
        if events is not None:
            events += (
                _new(Dealt, (0, tuple(map(len, stocks0)), len(spit0))),
                _new(Dealt, (1, tuple(map(len, stocks1)), len(spit1))),
            )
        self._seen_again()
        self.gathered = [[], []]
        self.pile_used = [bool(spit0), bool(spit1)]
        self.called = [False, False]
        self.slaps = []
        self.chooser = None
        self._set_phase(events, _OPENING)

    def _seen_again(self) -> None:
        """Work the visible state (``tops``, ``down``, ``known``, ``pile_tops``) out
        afresh from the cards, in place (after the cards were gathered or dealt)."""
        known, tall, tops_of, down_of = self.known, self._tall, self.tops, self.down
        stocks_of = self.stocks
        sizes, full_down, full_tall = _FULL_LAYOUT[len(tops_of[0])]
        for p in PLAYERS:
            stocks = stocks_of[p]
            tops = tops_of[p]
            if list(map(len, stocks)) == sizes:  # a full layout (R3), the commonest
                cards: list[int] = list(map(_top_of, stocks))
                tops[:] = cards
                down_of[p][:] = full_down
                known[p] = sum(map(_bit_of, cards))  # (distinct bits)
                tall[p] = full_tall
                self._reckon_movable(p)
                continue
            down = down_of[p]
            tops[:] = [stock[-1] if stock else None for stock in stocks]
            down[:] = [len(stock) - 1 if stock else 0 for stock in stocks]
            known[p] = sum([1 << c for c in tops if c is not None])
            tall[p] = sum([1 << s for s, under in enumerate(down) if under])
            self._reckon_movable(p)
        masks, pile_tops, pile_masks = self._masks, self.pile_tops, self._pile_masks
        a, b = self.piles
        if a or b:
            for t, pile in enumerate(self.piles):
                if pile:
                    c = pile_tops[t] = pile[-1]
                    pile_masks[t] = masks[c]
                else:
                    pile_tops[t] = None
                    pile_masks[t] = 0
        else:  # (just dealt: both piles empty)
            pile_tops[:] = _NO_PILE_TOPS
            pile_masks[:] = _NO_PILE_MASKS


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
        settings=(
            *variant_settings(VARIANT_FIELDS),
            target_setting(1, 100, "scoring match: lowest total wins"),
        ),
    )
)
