"""The tutorial: short lessons from set positions, without any UI.

Each ``Lesson`` deals a position with the engine (given packets or a given
Speed deck, then a few set-up actions), says what to do, and judges a key of
player 1: the right key advances, a wrong one is explained (a lesson's own
words for the likely mistakes, else the engine's reason). Texts name keys as
``{left2}``, ``{right3}``, ``{move5}``, ``{spit}`` (player 1's keys); ``texts``
fills them in from the key map in use.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from spit.engine import (
    Action,
    AnyGame,
    SpeedConfig,
    SpeedGame,
    SpitGame,
    call,
    move,
    parse_cards,
    play,
    slap,
)
from spit.engine.cards import DECK_SIZE
from spit.engine.spit_game import DEAL_ORDER
from spit.play.keys import KeyMap, Row
from spit.play.session import key_action

#: The player the tutorial teaches (player 1, the left hand).
LEARNER = 0
#: Every line a lesson shows must fit the board's 80 columns.
LINE_WIDTH = 79


@dataclass(frozen=True, slots=True)
class Verdict:
    """What a key press meant in a lesson: ``ok`` advances; ``text`` says why."""

    ok: bool
    text: str
    action: Action | None = None


@dataclass(frozen=True)
class Lesson:
    """One lesson: a position, a task, the right actions and explained wrong ones."""

    title: str
    rules: str
    build: Callable[[], AnyGame]
    #: what to do (one line)
    task: str
    #: the rule in a few words (one line)
    hint: str
    expected: frozenset[Action]
    #: said when the right key is pressed (one line)
    success: str
    #: explanations of likely wrong actions (one line each)
    wrong: Mapping[Action, str] = field(default_factory=dict)
    #: what the other player does once the right key is pressed (player 2's call, so
    #: that the spit the lesson teaches happens on the board)
    then: tuple[Action, ...] = ()

    def heading(self) -> str:
        """The lesson's title as players read it (``rules`` holds its rule ids,
        for the code and the tests: a player reads words)."""
        return self.title

    def judge(self, game: AnyGame, key: str, keymap: KeyMap) -> Verdict:
        """What pressing ``key`` in ``game`` (this lesson's position) means."""
        binding = keymap.lookup(key)
        if binding is None:
            return Verdict(False, f"{key!r} is not a game key. {texts(self.task, keymap)}")
        if binding.player != LEARNER:
            return Verdict(False, "That is player 2's key: use your keys, on the left.")
        action = key_action(game, binding)
        if isinstance(action, str):
            return Verdict(False, _sentence(action))
        if action in self.expected:
            return Verdict(True, texts(self.success, keymap), action)
        if action in self.wrong:
            return Verdict(False, texts(self.wrong[action], keymap), action)
        try:
            game.check(action)
        except ValueError as exc:
            return Verdict(False, f"Not here: {exc}.", action)
        return Verdict(False, f"That is allowed, but not this lesson. {self.task}", action)


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def key_names(keymap: KeyMap) -> dict[str, str]:
    """Player 1's keys by the names lesson texts use: ``left1`` ... ``move5``, ``spit``."""
    names = {"spit": keymap.key(LEARNER, Row.CALL)}
    for row in (Row.LEFT, Row.RIGHT, Row.MOVE):
        prefix = ("left", "right", "move")[row]
        for col in range(5):
            names[f"{prefix}{col + 1}"] = keymap.key(LEARNER, row, col)
    names["toprow"] = "".join(keymap.rows[LEARNER][Row.LEFT])
    names["homerow"] = "".join(keymap.rows[LEARNER][Row.RIGHT])
    names["bottomrow"] = "".join(keymap.rows[LEARNER][Row.MOVE])
    return names


def texts(text: str, keymap: KeyMap) -> str:
    """``text`` with its ``{key}`` names replaced by player 1's keys."""
    return text.format(**key_names(keymap))


def keys_for(action: Action, game: AnyGame, keymap: KeyMap) -> list[str]:
    """Every key of player 1 that means ``action`` in ``game``."""
    out = []
    for key in (*keymap.rows[LEARNER][0], *keymap.rows[LEARNER][1], *keymap.rows[LEARNER][2]):
        binding = keymap.lookup(key)
        if binding is not None and key_action(game, binding) == action:
            out.append(key)
    call_key = keymap.key(LEARNER, Row.CALL)
    binding = keymap.lookup(call_key)
    if binding is not None and key_action(game, binding) == action:
        out.append(call_key)
    return out


# ------------------------------------------------------------------ positions


def spit_deal(
    stocks: Sequence[Sequence[Sequence[str]]],
    spits: Sequence[str],
    spit_counts: tuple[int, int],
    sizes: tuple[int, int] | None = None,
) -> SpitGame:
    """A Spit game dealt from set layouts.

    ``stocks[p]`` lists player ``p``'s five stocks as card names from the
    bottom up; a stock with fewer cards than R3 gives it is filled up from
    below with cards named nowhere. ``spits[p]`` names the first spit cards of
    player ``p`` in the order they turn up; ``spit_counts`` says how many
    spit cards each player holds in all. With ``sizes`` (a short layout,
    R18), player ``p``'s stocks are dealt from exactly their named cards.
    """
    layouts = [[parse_cards(" ".join(stock)) for stock in side] for side in stocks]
    named = [c for side in layouts for stock in side for c in stock]
    named += [c for s in spits for c in parse_cards(s)]
    used = set(named)
    if len(used) != len(named):
        raise ValueError("a card is named twice")
    spare = [c for c in range(DECK_SIZE) if c not in used]
    packets: list[list[int]] = []
    for p in (0, 1):
        piles = layouts[p]
        if sizes is None or sizes[p] >= 15:
            piles = [[spare.pop() for _ in range(i + 1 - len(s))] + s for i, s in enumerate(piles)]
        queues = [list(s) for s in piles]
        packet: list[int] = []
        for s in DEAL_ORDER[5]:
            if queues[s]:
                packet.append(queues[s].pop(0))
        if any(queues):
            raise ValueError(f"player {p + 1}'s stocks do not have the R3 shape")
        spit = parse_cards(spits[p])
        spit += [spare.pop() for _ in range(spit_counts[p] - len(spit))]
        packets.append(packet + spit)
    if spare:
        raise ValueError(f"{len(spare)} cards left over: the counts do not add up to 52")
    return SpitGame(None, 0, packets=packets)


def _opened(game: AnyGame, *actions: Action) -> AnyGame:
    """The game after both opening calls (R5) and then ``actions``."""
    for p in (0, 1):
        if call(p) in game.legal_actions(p):
            game.apply(call(p))
    for action in actions:
        game.apply(action)
    return game


#: Player 2's stock tops in the first lessons: none fits the piles there.
_QUIET = [["2D"], ["3D"], ["9D"], ["10D"], ["JH"]]


def play_one() -> AnyGame:
    """Left pile 7C, right pile KD; player 1's 8H fits the left pile only."""
    game = spit_deal(
        [[["3C"], ["8H"], ["JC"], ["5S"], ["10S"]], _QUIET],
        ["7C", "KD"],
        (11, 11),
    )
    return _opened(game)


def look_first() -> AnyGame:
    """Left pile 7C, right pile KD; of player 1's tops only the 8H fits (left pile)."""
    game = spit_deal(
        [[["3C"], ["8H"], ["JD"], ["5S"], ["10S"]], _QUIET],
        ["7C", "KD"],
        (11, 11),
    )
    return _opened(game)


def corner() -> AnyGame:
    """Left pile 5D, right pile KC; player 1's AH fits the king (R8)."""
    game = spit_deal(
        [[["9S"], ["3H"], ["AH"], ["7C"], ["JD"]], _QUIET],
        ["5D", "KC"],
        (11, 11),
    )
    return _opened(game)


def empty_slot() -> AnyGame:
    """Player 1 has just played stock 1 (6H on 7C): the slot is empty, nothing else fits."""
    game = spit_deal(
        [[["6H"], ["9S"], ["JD"], ["3C"], ["10C"]], _QUIET],
        ["7C", "KD"],
        (11, 11),
    )
    return _opened(game, play(0, 0, 0))


#: Stock tops of ranks 5-9 on both sides and spit cards turning up twos: nobody can play.
_STUCK = (
    [["5S"], ["6S"], ["7S"], ["8S"], ["9S"]],
    [["5H"], ["6H"], ["7H"], ["8H"], ["9H"]],
)


def stuck() -> AnyGame:
    """A stalemate right after the opening spit (R12): 2C and 2D fit no stock top.

    The next spit cards, 10C and 10D, end it: 9S and 9H fit them.
    """
    return _opened(spit_deal(list(_STUCK), ["2C 10C", "2D 10D"], (11, 11)))


#: Player 1's 15 cards play in a chain onto 7C: stock 1, stock 2 top down, and so on.
_CHAIN = [["8H"], ["10H", "9H"], ["KH", "QH", "JH"], ["4H", "3H", "2H", "AH"]]
_CHAIN_LAST = ["9S", "8S", "7H", "6H", "5H"]
_CHAIN_STOCKS = (0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4)


def round_end() -> AnyGame:
    """Player 1 has played out their layout onto the left pile: slap (R16).

    Player 2 played QC, JS and 10C onto the right pile (KD) first, so the left
    pile holds 16 cards and the right pile 4.
    """
    game = spit_deal(
        [[*_CHAIN, _CHAIN_LAST], [["QC"], ["JS"], ["10C"], ["2D"], ["3D"]]],
        ["7C", "KD"],
        (14, 8),
    )
    setup = [play(1, 0, 1), play(1, 1, 1), play(1, 2, 1)]
    setup += [play(0, s, 0) for s in _CHAIN_STOCKS]
    return _opened(game, *setup)


def new_layout() -> AnyGame:
    """After the slap of ``round_end``: player 1 took the 4-card pile, round 2 opens (R17)."""
    game = round_end()
    game.apply(slap(0, 1))
    game.apply(slap(1, 0))
    return game


def few_cards() -> AnyGame:
    """Player 1 holds 6 cards: a short layout, no spit cards, one pile (R18).

    Player 2's first spit card, 5C, starts the right pile; player 1's 4S fits it.
    """
    game = spit_deal(
        [[["JD"], ["9H", "4S"], ["KC"], ["8D"], ["2H"]], _QUIET_15],
        ["", "5C"],
        (0, 31),
        sizes=(6, 15),
    )
    return _opened(game)


#: Player 2's tops beside a short layout (padded to 15 cards below them).
_QUIET_15 = [["2C"], ["3D"], ["9D"], ["10D"], ["JH"]]


def speed_hand() -> AnyGame:
    """Speed: player 1's hand 4C 9D JH QS KS; the centre cards turn up 5D and 10H."""
    first = parse_cards("4C 9D JH QS KS") + parse_cards("2H 3S 6C 6H 7S")
    centre = parse_cards("5D 10H")
    rest = [c for c in range(DECK_SIZE) if c not in first and c not in centre]
    deck = first[:5] + rest[:10] + first[5:] + rest[10:]
    game = SpeedGame(SpeedConfig(), 0, deck=deck + centre)
    return _opened(game)


def _plays(*plays: tuple[int, int]) -> frozenset[Action]:
    return frozenset(play(LEARNER, s, t) for s, t in plays)


#: The course, in order.
LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "Play a card one up or one down",
        "R7",
        play_one,
        task="Play your 8♥ (stock 2) on the 7♣ of the left pile: press {left2}.",
        hint="A card one rank above or below a pile's top may go on it. Top row: left pile.",
        expected=_plays((1, 0)),
        success="Played! The card below is turned up at once. Enter: next lesson.",
        wrong={
            play(0, 1, 1): "The right pile shows K♦: an 8 is not next to a king. Try {left2}.",
        },
    ),
    Lesson(
        "Turn the corner",
        "R8",
        corner,
        task="Play your A♥ (stock 3) on the K♣ of the right pile: press {right3}.",
        hint="Ranks go round: an ace fits a king or a 2; a king fits a queen or an ace.",
        expected=_plays((2, 1)),
        success="The corner is turned: A♥ on K♣. Enter: next lesson.",
        wrong={
            play(0, 2, 0): "The left pile shows 5♦: an ace fits only a king or a 2. Try {right3}.",
        },
    ),
    Lesson(
        "Fill an empty slot",
        "R10",
        empty_slot,
        task="Stock 1 is empty and nothing fits: move a card into it, e.g. {move5}.",
        hint="Bottom row: move that stock's top card to the empty slot; a new card turns up.",
        expected=frozenset(move(0, s) for s in range(1, 5)),
        success="Moved: the card below turned up, maybe one that fits. Enter: next lesson.",
        wrong={move(0, 0): "Stock 1 is the empty one: move another stock's card into it."},
    ),
    Lesson(
        "Stuck: call spit!",
        "R12, R13",
        stuck,
        task='Nobody can play or move: call "spit!" with {spit} (or any of your keys).',
        hint="Each then turns a spit card onto their own pile; vs computer it is automatic.",
        expected=frozenset({call(0)}),
        success="Both called: 10♣ and 10♦ turned up on the piles. Your 9♠ fits! Enter: next.",
        then=(call(1),),
    ),
    Lesson(
        "Slap the smaller pile",
        "R16",
        round_end,
        task="Round over: left pile 16 cards, right pile 4. Slap the right: {homerow}.",
        hint="You take the pile you slap: fewer cards is better. First slap wins a pile.",
        expected=frozenset({slap(0, 1)}),
        success="Slapped the smaller pile: you take 4 cards, not 16. Enter: next lesson.",
        wrong={
            slap(0, 0): "That is the left pile, 16 cards: you want the smaller. Use {homerow}.",
        },
    ),
    Lesson(
        "The new layout",
        "R17",
        new_layout,
        task="Your pile, spit cards and layout were dealt anew. Call spit! with {spit}.",
        hint="You hold 17 cards now: 15 in the layout, 2 spit cards; player 2 holds 35.",
        expected=frozenset({call(0)}),
        success="Round 2 opens when both have called. Enter: next lesson.",
    ),
    Lesson(
        "15 cards or fewer",
        "R18, R19",
        few_cards,
        task="6 cards: no spit cards, one pile. Play 4♠ (stock 2) on the 5♣: {right2}.",
        hint="Empty your layout first and you take nothing: with no cards at all you win.",
        expected=_plays((1, 1)),
        success="Played. In a one-pile round there is no slap. Enter: next lesson.",
        wrong={
            play(0, 1, 0): "Only the right pile is used this round: play it there with {right2}.",
        },
    ),
    Lesson(
        "Look before you press: fumbles",
        "H8",
        look_first,
        task="Only one card fits: 8♥ (stock 2) on the left pile's 7♣. Find it: {left2}.",
        hint="A card put where it cannot fit is a fumble: your keys then rest a moment.",
        expected=_plays((1, 0)),
        success="Played, no fumble. Mashing keys costs more time than looking. Enter: next.",
        wrong={
            **{
                play(0, s, t): "That card fits no pile: a fumble! Your keys would rest a "
                "moment. Try {left2}."
                for s in range(5)
                for t in (0, 1)
                if s != 1
            },
            play(0, 1, 1): "8♥ does not fit the K♦ on the right: a fumble! Try {left2}.",
        },
    ),
    Lesson(
        "Speed: your hand and the side piles",
        "P2-P4",
        speed_hand,
        task="Speed: your 5 cards are a hand. Play 4♣ on 5♦ ({left1}) or 9♦ on 10♥ ({right2}).",
        hint="You draw back up to 5. When nobody can play, the side piles turn a card up.",
        expected=_plays((0, 0), (1, 1), (2, 1)),
        success="Played, and a new card drawn into your hand. Enter: choose your first game!",
    ),
)


#: The course's last step: the setup screen, this mode against this opponent chosen first.
FINAL_GAME = ("spit", "easy")
