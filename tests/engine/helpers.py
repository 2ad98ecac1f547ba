"""Building exact Spit positions for the rule tests, and whole-state invariant checks.

Positions are given the way a person would lay them out: each stock as card
names from the bottom to the top, and spit cards in the order they are turned
up. ``layout_packet`` turns a layout back into the R3 dealing order, written
out here from the rule text (not taken from the engine), so the tests also
check that the engine deals by R3.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields, is_dataclass

from spit.engine import (
    CLOSE,
    FLIP,
    STALL,
    SYSTEM,
    Action,
    Phase,
    SpitConfig,
    SpitGame,
    call,
    choose,
    move,
    parse_cards,
    play,
    slap,
)
from spit.engine.cards import DECK_SIZE
from spit.engine.events import CardPlayed, GameWon, PileTaken, Spat

#: R3's dealing order, from the rule text: the 0-based stock each card goes onto.
#: Five stocks: one card on each of stocks 1-5, then 2-5, then 3-5, 4-5, then 5.
R3_ORDER: dict[int, tuple[int, ...]] = {
    5: (0, 1, 2, 3, 4, 1, 2, 3, 4, 2, 3, 4, 3, 4, 4),
    4: (0, 1, 2, 3, 1, 2, 3, 2, 3, 3),
}


def full_sizes(n_stocks: int) -> list[int]:
    """Stock sizes of a full layout (R3; V1 for four stocks)."""
    return list(range(1, n_stocks + 1))


def short_sizes(n_cards: int, n_stocks: int) -> list[int]:
    """Stock sizes when ``n_cards`` are dealt by R3 as far as they go (R18)."""
    sizes = [0] * n_stocks
    for s in R3_ORDER[n_stocks][:n_cards]:
        sizes[s] += 1
    return sizes


def layout_packet(stocks: Sequence[Sequence[int]], n_stocks: int = 5) -> list[int]:
    """The dealing order that produces ``stocks`` (each listed bottom to top) by R3."""
    queues = [list(s) for s in stocks] + [[] for _ in range(n_stocks - len(stocks))]
    out: list[int] = []
    for s in R3_ORDER[n_stocks]:
        if not queues[s]:
            break
        out.append(queues[s].pop(0))
    if any(queues):
        raise ValueError(f"stocks {stocks} do not have an R3 shape")
    return out


def make_game(
    stocks0: Sequence[str],
    stocks1: Sequence[str],
    spit0: str = "",
    spit1: str = "",
    *,
    config: SpitConfig | None = None,
    pad: tuple[bool, bool] = (True, True),
    spit_count0: int | None = None,
    rest_to: int = 0,
) -> SpitGame:
    """A game dealt from exact layouts.

    With ``pad[p]``, player ``p``'s stocks are filled up below the given cards
    to a full layout with unnamed cards (lowest card ids first). Cards named
    nowhere go to the end of the spit cards: all to ``rest_to``, or, with
    ``spit_count0``, enough to give player 0 that many spit cards and the rest
    to player 1.
    """
    config = config or SpitConfig()
    n = config.n_stocks
    given = [[parse_cards(s) for s in stocks0], [parse_cards(s) for s in stocks1]]
    spits = [parse_cards(spit0), parse_cards(spit1)]
    named = [c for p in (0, 1) for st in given[p] for c in st] + spits[0] + spits[1]
    if len(set(named)) != len(named):
        raise ValueError("a card is named twice")
    filler = [c for c in range(DECK_SIZE) if c not in set(named)]
    layouts: list[list[int]] = []
    for p in (0, 1):
        stocks = given[p]
        if pad[p]:
            if len(stocks) != n:
                raise ValueError(f"give all {n} stocks to pad them")
            stocks = [
                [filler.pop(0) for _ in range(i + 1 - len(st))] + st for i, st in enumerate(stocks)
            ]
        layouts.append(layout_packet(stocks, n))
    packets = [layouts[0] + spits[0], layouts[1] + spits[1]]
    if spit_count0 is not None:
        extra = spit_count0 - len(spits[0])
        packets[0].extend(filler[:extra])
        packets[1].extend(filler[extra:])
    else:
        packets[rest_to].extend(filler)
    for p in (0, 1):
        if len(layouts[p]) < config.layout_size and len(packets[p]) > len(layouts[p]):
            raise ValueError("a short layout (R18) cannot have spit cards")
    return SpitGame(config, 0, packets=packets)


def opened(game: SpitGame) -> SpitGame:
    """Make every player holding spit cards call, so the opening spit happens (R5)."""
    for p in (0, 1):
        if call(p) in game.legal_actions(p):
            game.apply(call(p))
    return game


def hand(game: SpitGame, player: int) -> list[int]:
    """Every card the player holds (layout plus spit cards), sorted."""
    cards = [c for s in game.stocks[player] for c in s] + list(game.spit[player])
    return sorted(cards)


def tops(game: SpitGame, player: int) -> list[int | None]:
    """The face-up top card of each of the player's stocks (None: empty)."""
    return [s[-1] if s else None for s in game.stocks[player]]


#: A layout whose 15 cards play in order onto a 7 (8 9 10 J Q K A 2 ... 9):
#: stock 1, then stock 2 from the top down, and so on (R9 turns each next one up).
CHAIN5 = ["8H", "10H 9H", "KH QH JH", "4H 3H 2H AH", "9S 8S 7H 6H 5H"]
#: The 15 chain cards in playing order, as (stock, card name).
CHAIN5_PLAYS = [
    (0, "8H"),
    (1, "9H"),
    (1, "10H"),
    (2, "JH"),
    (2, "QH"),
    (2, "KH"),
    (3, "AH"),
    (3, "2H"),
    (3, "3H"),
    (3, "4H"),
    (4, "5H"),
    (4, "6H"),
    (4, "7H"),
    (4, "8S"),
    (4, "9S"),
]
#: Player 1's stock tops beside the chain: none fits on a 7 or on a king.
DEAD_TOPS = ["2D", "3D", "4D", "5D", "10D"]


def chain_game(spit_count0: int, config: SpitConfig | None = None) -> SpitGame:
    """Opened two-pile game: player 0 can empty their layout onto pile 0 (7C).

    Player 0 holds ``spit_count0`` spit cards (the first, 7C, starts pile 0);
    player 1 holds the other ``22 - spit_count0`` (the first, KD, starts pile 1).
    """
    return opened(make_game(CHAIN5, DEAD_TOPS, "7C", "KD", config=config, spit_count0=spit_count0))


def play_chain(game: SpitGame, player: int = 0) -> list:
    """Play the CHAIN5 cards onto pile 0 in order; return all events."""
    events: list = []
    for stock, _name in CHAIN5_PLAYS:
        events += game.apply(play(player, stock, 0))
    return events


#: Spit cards that fit on none of the frozen tops (ranks A-3 and 9-K).
_FROZEN_SPIT = parse_cards(
    " ".join(f"{r}{s}" for s in "CDHS" for r in ("A", "2", "3", "9", "10", "J", "Q", "K"))
)
_FROZEN_TOPS = (parse_cards("5C 5D 5H 5S 6C"), parse_cards("6D 6H 6S 7C 7D"))
_FROZEN_BELOW = parse_cards("7H 7S 4C 4D 4H 4S 8C 8D 8H 8S") + _FROZEN_SPIT[22:]


def frozen_game(spit_count0: int, config: SpitConfig | None = None) -> SpitGame:
    """Full layouts with stock tops of ranks 5-7 and spit cards of ranks A-3 and 9-K.

    No spit card ever makes a top playable, and no slot is empty, so every
    position after a spit is a stalemate (R12). Player 0 holds ``spit_count0``
    spit cards (``_FROZEN_SPIT`` order), player 1 the other ``22 - spit_count0``.
    Not yet opened.
    """
    config = config or SpitConfig()
    if config.four_stocks:
        raise ValueError("the frozen position is laid out for five stocks")
    n = 5
    below = list(_FROZEN_BELOW)
    packets = []
    spit = [_FROZEN_SPIT[:spit_count0], _FROZEN_SPIT[spit_count0:22]]
    for p in (0, 1):
        stocks = [[below.pop() for _ in range(i)] + [_FROZEN_TOPS[p][i]] for i in range(n)]
        packets.append(layout_packet(stocks, n) + spit[p])
    return SpitGame(config, 0, packets=packets)


def frozen_spit_cards(spit_count0: int) -> tuple[list[int], list[int]]:
    """The spit cards of ``frozen_game(spit_count0)`` in turn-up order."""
    return _FROZEN_SPIT[:spit_count0], _FROZEN_SPIT[spit_count0:22]


# ------------------------------------------------------------------ invariants

#: Every action any actor could ask for (only some are legal at a time).
ALL_ACTIONS: tuple[Action, ...] = (
    *(play(p, s, t) for p in (0, 1) for s in range(5) for t in (0, 1)),
    *(move(p, s) for p in (0, 1) for s in range(5)),
    *(call(p) for p in (0, 1)),
    *(slap(p, t) for p in (0, 1) for t in (0, 1)),
    *(choose(p, t) for p in (0, 1) for t in (0, 1)),
    CLOSE,
    STALL,
    FLIP,
)


def all_legal(game: SpitGame) -> list[Action]:
    """The legal actions of both players and of the game itself (SYSTEM)."""
    return game.legal_actions(0) + game.legal_actions(1) + game.legal_actions(SYSTEM)


def check_cards(game: SpitGame) -> None:
    """The 52 cards are all present, once each; no player has too many stocks (R10, V1)."""
    assert sorted(game.all_cards()) == list(range(52))
    n = game.config.n_stocks
    assert [len(game.stocks[0]), len(game.stocks[1])] == [n, n]


def check_observation(game: SpitGame) -> None:
    """Observations show every stock top face up and no hidden card (R3, R9)."""
    tops = {s[-1] for st in game.stocks for s in st if s}
    tops |= {p[-1] for p in game.piles if p}
    for player in (0, 1):
        obs = game.observation(player)
        assert obs.visible_cards() == tops
        for p in (0, 1):
            for view, stock in zip(obs.stocks[p], game.stocks[p], strict=True):
                assert view.top == (stock[-1] if stock else None)
                assert view.face_down == max(len(stock) - 1, 0)
        assert obs.spit_counts == (len(game.spit[0]), len(game.spit[1]))
        if game.seed >= 1 << 20:  # counts never get this large: the seed must not show
            assert game.seed not in ints_in(obs)
    check_hidden_cards_do_not_show(game)


def ints_in(value: object) -> set[int]:
    """Every int reachable from an observation (dataclasses and tuples)."""
    found: set[int] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, bool) or v is None or isinstance(v, str):
            continue
        if isinstance(v, int):
            found.add(v)
        elif isinstance(v, tuple):
            stack.extend(v)
        elif is_dataclass(v):
            stack.extend(getattr(v, f.name) for f in fields(v))
    return found


def check_hidden_cards_do_not_show(game: SpitGame) -> None:
    """Rearranging the face-down cards (below stock tops, spit cards) changes no observation."""
    hidden = [c for st in game.stocks for s in st for c in s[:-1]]
    hidden += [c for sp in game.spit for c in sp]
    if len(hidden) < 2:
        return
    other = game.copy()
    shuffled = hidden[1:] + hidden[:1]
    for st in other.stocks:
        for s in st:
            for i in range(len(s) - 1):
                s[i] = shuffled.pop(0)
    for sp in other.spit:
        for i in range(len(sp)):
            sp[i] = shuffled.pop(0)
    assert other.fingerprint() != game.fingerprint()
    for player in (0, 1):
        assert other.observation(player) == game.observation(player)


def check_round_start(game: SpitGame) -> None:
    """A fresh round is dealt by R3 and R18, with piles empty and calls due (R5, R17)."""
    assert game.phase is Phase.OPENING
    assert game.piles == [[], []]
    size = game.config.layout_size
    n = game.config.n_stocks
    for p in (0, 1):
        count = game.card_count(p)
        assert count > 0
        assert [len(s) for s in game.stocks[p]] == short_sizes(min(count, size), n)
        assert len(game.spit[p]) == max(0, count - size)
        assert game.pile_used[p] == (count > size)
    assert game.pile_used != [False, False]


def check_collect(before: SpitGame, events: list, after: SpitGame) -> None:
    """After piles are taken, each player gathered layout + spit cards + their pile (R17, R19)."""
    takes = {e.player: e.pile for e in events if isinstance(e, PileTaken)}
    if not takes:
        return
    assert sorted(takes) == [0, 1]
    used = [t for t in takes.values() if t is not None]
    assert len(set(used)) == len(used)  # no pile taken twice
    if before.pile_used == [True, True]:
        assert sorted(used) == [0, 1]  # two-pile round: each takes one (R16, V2)
    else:
        assert used == [0 if before.pile_used[0] else 1]  # one-pile round (R19, H1)
    if any(isinstance(e, GameWon) for e in events) and after.config.scoring:
        return  # V4: a fresh deal (R2) follows a win
    # Cards played or spat by this same action were on the piles when they were taken.
    before = before.copy()
    for e in events:
        if isinstance(e, CardPlayed):
            before.piles[e.pile].append(before.stocks[e.player][e.source].pop())
        elif isinstance(e, Spat):
            before.piles[e.pile].append(before.spit[e.player].pop())
        elif isinstance(e, PileTaken):
            break
    for p in (0, 1):
        gathered = [c for s in before.stocks[p] for c in s] + list(before.spit[p])
        if takes[p] is not None:
            gathered += before.piles[takes[p]]
        now = after.gathered[p] if after.over else [c for s in after.stocks[p] for c in s]
        if not after.over:
            now = now + list(after.spit[p])
        assert sorted(now) == sorted(gathered)
