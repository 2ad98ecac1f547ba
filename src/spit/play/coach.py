"""Speed coaching: what a replay says about how fast each player was.

Pure analysis, no UI and no files: give it a game's starting position and
its timed actions (a replay) and it plays them back, looking at every
position in between. Only what a player could see counts for them: the plays
of their own face-up cards (Spit: stock tops; Speed: their hand), which are
exactly their legal plays.

- A *chance* is one card of a player fitting one spit pile. It opens at the
  moment it became possible (the card was turned up or drawn, or a pile's new
  top made it fit, or play resumed after a spit) and stays open while it
  stays possible.
- A *reaction* is the time from the moment the played card could first be
  played (on either pile, without a break since) to the key press that played
  it: a card that fitted one pile for a while and is played on the other just
  after the opponent's card made it fit there too was not a reaction of a few
  milliseconds.
- A *missed chance* is one that closed without being taken: the opponent
  played on that pile first (``beaten``), or it stayed open longer than
  ``MISS_AFTER`` seconds (``slow``). A card the player played on the other
  pile instead is not missed.
- A *stalemate call* is timed from the moment the stalemate began (R13); it is
  late from ``LATE_CALL`` seconds (the game calling for a player after its
  countdown counts as late).
- A *slap* (R16, or a V2 choice) is timed from the round's end; it is right
  when it hits the smaller pile (either, when they are equal).
- A *fumble* (H8) is a card put down where it did not fit, which held the
  player's hands back a moment; the replay records them, the analysis counts them.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from spit.engine import Action, AnyGame, Kind, Phase
from spit.engine.events import CardPlayed, Stalemate

#: A chance open longer than this (seconds) and not taken is missed.
MISS_AFTER = 2.0
#: A stalemate call this long (seconds) after the stalemate began is late.
LATE_CALL = 2.0


@dataclass(frozen=True, slots=True)
class Play:
    """A card a player played: when, onto which pile, and how long after it became possible."""

    player: int
    card: int
    pile: int
    at: float
    reaction: float


@dataclass(frozen=True, slots=True)
class Miss:
    """A chance the player did not take.

    ``reason`` is ``beaten`` (the opponent played on that pile first) or ``slow``.
    """

    player: int
    card: int
    pile: int
    opened: float
    closed: float
    reason: str

    @property
    def open_for(self) -> float:
        """How long the chance was there, in seconds."""
        return self.closed - self.opened


@dataclass(frozen=True, slots=True)
class Call:
    """A "spit!" call in a stalemate, ``delay`` seconds after the stalemate began."""

    player: int
    at: float
    delay: float

    @property
    def late(self) -> bool:
        """True if the call came ``LATE_CALL`` seconds or more after the stalemate began."""
        return self.delay >= LATE_CALL


@dataclass(frozen=True, slots=True)
class Slap:
    """A slap (or V2 choice) at a round's end; ``pile`` None: the player never slapped.

    ``sizes`` are the two piles' sizes when the round ended; ``right`` is True
    for the smaller pile (or either when they are equal).
    """

    player: int
    pile: int | None
    delay: float | None
    sizes: tuple[int, int]
    #: a V2 choice of a pile, not a slap
    choice: bool = False

    @property
    def right(self) -> bool:
        """True if the slap hit the smaller pile (or the piles were equal)."""
        if self.pile is None:
            return False
        return self.sizes[self.pile] <= self.sizes[1 - self.pile]


@dataclass(slots=True)
class Analysis:
    """Everything measured in one game, for both players."""

    mode: str
    duration: float
    #: seconds spent in play (not in openings, stalemates or slaps)
    play_time: float
    plays: list[Play] = field(default_factory=list)
    misses: list[Miss] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)
    slaps: list[Slap] = field(default_factory=list)
    #: each player's fumbles (H8)
    fumbles: tuple[int, int] = (0, 0)

    def reactions(self, player: int) -> list[float]:
        """The player's reaction times, in the order they played."""
        return [p.reaction for p in self.plays if p.player == player]

    def summary(self, player: int) -> PlayerSummary:
        """The figures for one player."""
        reactions = self.reactions(player)
        misses = [m for m in self.misses if m.player == player]
        calls = [c for c in self.calls if c.player == player]
        slaps = [s for s in self.slaps if s.player == player and not s.choice]
        choices = [s for s in self.slaps if s.player == player and s.choice]
        minutes = self.play_time / 60.0
        slap_delays = [s.delay for s in slaps if s.delay is not None]
        return PlayerSummary(
            plays=len(reactions),
            median_reaction=statistics.median(reactions) if reactions else None,
            fastest_reaction=min(reactions) if reactions else None,
            cards_per_minute=len(reactions) / minutes if minutes > 0 else 0.0,
            missed=len(misses),
            missed_slow=sum(1 for m in misses if m.reason == SLOW),
            missed_beaten=sum(1 for m in misses if m.reason == BEATEN),
            calls=len(calls),
            late_calls=sum(1 for c in calls if c.late),
            median_call=statistics.median([c.delay for c in calls]) if calls else None,
            slaps=sum(1 for s in slaps if s.pile is not None),
            right_slaps=sum(1 for s in slaps if s.right),
            missed_slaps=sum(1 for s in slaps if s.pile is None),
            median_slap=statistics.median(slap_delays) if slap_delays else None,
            choices=len(choices),
            right_choices=sum(1 for s in choices if s.right),
            fumbles=self.fumbles[player],
        )


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One player's figures from one game (times in seconds; None: nothing to measure)."""

    plays: int
    median_reaction: float | None
    fastest_reaction: float | None
    cards_per_minute: float
    missed: int
    missed_slow: int
    missed_beaten: int
    calls: int
    late_calls: int
    median_call: float | None
    slaps: int
    right_slaps: int
    missed_slaps: int
    median_slap: float | None
    fumbles: int = 0
    #: V2: piles chosen (not slapped), and how many of them the smaller
    choices: int = 0
    right_choices: int = 0

    def to_json(self) -> dict[str, Any]:
        """Plain JSON form (times rounded to milliseconds)."""
        out: dict[str, Any] = {}
        for name in self.__slots__:
            value = getattr(self, name)
            out[name] = round(value, 3) if isinstance(value, float) else value
        return out


SLOW = "slow"
BEATEN = "beaten"


def _card_at(game: AnyGame, player: int, source: int) -> int:
    """The face-up card a play of ``player`` from ``source`` would play (any mode's
    columns: Spit's stock tops, Speed's hand)."""
    card = game.columns(player)[source][0]
    if card is None:
        raise ValueError(f"no face-up card in place {source + 1} of player {player + 1}")
    return card


def _pile_sizes(game: AnyGame) -> tuple[int, int]:
    piles = game.piles
    return (len(piles[0]), len(piles[1]))


def chances(game: AnyGame) -> set[tuple[int, int, int]]:
    """Every open chance of this position: (player, card, pile) for each legal play."""
    out: set[tuple[int, int, int]] = set()
    if game.phase is not Phase.PLAY:
        return out
    for player in (0, 1):
        for action in game.legal_actions(player):
            if action.kind is Kind.PLAY:
                out.add((player, _card_at(game, player, action.source), action.target))
    return out


def analyse(
    start: AnyGame, timed: Sequence[tuple[float, Action]], fumblers: Sequence[int] = ()
) -> Analysis:
    """Play ``timed`` (seconds since the start, action) from ``start`` and measure it.

    ``fumblers``: who made each fumble (H8) the game recorded.

    ``start`` is not changed (a copy is played on). Raises the engine's
    IllegalAction if an action does not fit (a replay loaded by
    ``spit.store.replays`` has been checked already).
    """
    game = start.copy()
    duration = timed[-1][0] if timed else 0.0
    result = Analysis(game.mode, duration, 0.0)
    result.fumbles = (sum(1 for p in fumblers if p == 0), sum(1 for p in fumblers if p == 1))
    opened: dict[tuple[int, int, int], float] = dict.fromkeys(chances(game), 0.0)
    # when each (player, card) became playable on some pile, and has stayed so since:
    # a reaction is timed from here (the card's chance on the other pile may be newer)
    playable: dict[tuple[int, int], float] = dict.fromkeys(((p, c) for p, c, _ in opened), 0.0)
    stalemate_since = 0.0
    slap_since = 0.0
    slap_sizes = (0, 0)
    slapped: set[int] = set()
    last = 0.0
    for at, action in timed:
        phase = game.phase
        if phase is Phase.PLAY:
            result.play_time += at - last
        last = at
        kind = action.kind
        if kind is Kind.SLAP or kind is Kind.CHOOSE:
            slapped.add(action.player)
            delay = at - slap_since
            chose = kind is Kind.CHOOSE
            result.slaps.append(Slap(action.player, action.target, delay, slap_sizes, chose))
        elif kind is Kind.CLOSE and phase is Phase.SLAP:
            # a slap not made is late; a V2 choice not made gives the smaller pile (no fault)
            for p in (0, 1):
                if p not in slapped:
                    result.slaps.append(Slap(p, None, None, slap_sizes))
        elif kind is Kind.CALL and phase is Phase.STALEMATE:
            result.calls.append(Call(action.player, at, at - stalemate_since))
        events = game.apply(action)
        played = next((e for e in events if isinstance(e, CardPlayed)), None)
        if played is not None:
            since = playable.get((played.player, played.card), at)
            result.plays.append(Play(played.player, played.card, played.pile, at, at - since))
        now = chances(game)
        cards = {(p, c) for p, c, _ in now}
        for gone in [k for k in playable if k not in cards]:
            del playable[gone]
        for card_key in cards:
            playable.setdefault(card_key, at)
        for key in [k for k in opened if k not in now]:
            since = opened.pop(key)
            player, card, pile = key
            if played is not None and played.player == player and played.card == card:
                continue  # taken (or played onto the other pile instead)
            if played is not None and played.player != player and played.pile == pile:
                result.misses.append(Miss(player, card, pile, since, at, BEATEN))
            elif at - since > MISS_AFTER:
                result.misses.append(Miss(player, card, pile, since, at, SLOW))
        for key in now:
            opened.setdefault(key, at)
        if any(isinstance(e, Stalemate) for e in events):
            stalemate_since = at
        if game.phase is not phase and game.phase in (Phase.SLAP, Phase.CHOOSE):
            slap_since = at
            slap_sizes = _pile_sizes(game)
            slapped = set()
    return result


# ------------------------------------------------------------------ moments

#: How many moments of each kind (missed chances, slow reactions) a player is shown.
MOMENTS_EACH = 3
#: A play is a moment to watch again only from this reaction time (seconds).
SLOW_REACTION = 1.0
MISSED = "missed"
SLOW_PLAY = "slow"


@dataclass(frozen=True, slots=True)
class Moment:
    """A moment of a game worth watching again, at replay time ``at``.

    ``kind`` is ``MISSED``: at ``at`` ``card`` of ``player`` came to fit ``pile``
    (whose top was ``onto``), and that chance stayed open ``seconds`` without
    being taken (``beaten``: the opponent played on that pile first); or
    ``SLOW_PLAY``: at ``at`` the card could be played, and it was played onto
    ``onto`` on ``pile`` ``seconds`` later (the reaction, as ``analyse`` times it).
    """

    kind: str
    player: int
    card: int
    pile: int
    onto: int | None
    at: float
    seconds: float
    beaten: bool = False

    def words(self) -> str:
        """The moment in one line, said to the player: ``at 1:23 you could have ...``."""
        from spit.engine import card_name
        from spit.play.texts import clock_text

        when = clock_text(self.at)
        card = card_name(self.card)
        onto = f" on {card_name(self.onto)}" if self.onto is not None else ""
        if self.kind == MISSED:
            tail = ", then beaten to it" if self.beaten else ""
            return f"at {when} you could have played {card}{onto} for {self.seconds:.1f} s{tail}"
        return f"at {when} you took {self.seconds:.1f} s to play {card}{onto}"

    def to_json(self) -> dict[str, Any]:
        """Plain JSON form (times rounded to milliseconds)."""
        return {
            "kind": self.kind,
            "player": self.player,
            "card": self.card,
            "pile": self.pile,
            "onto": self.onto,
            "at": round(self.at, 3),
            "seconds": round(self.seconds, 3),
            "beaten": self.beaten,
            "words": self.words(),
        }


def parse_clock(text: str) -> float:
    """A replay time typed as ``1:23``, ``83`` or ``83.5`` (seconds); ValueError if not."""
    parts = text.strip().split(":")
    if not 1 <= len(parts) <= 3 or any(not p.strip() for p in parts):
        raise ValueError(f"{text!r} is not a time (give 1:23 or seconds, e.g. 83)")
    try:
        numbers = [float(p) for p in parts]
    except ValueError:
        raise ValueError(f"{text!r} is not a time (give 1:23 or seconds, e.g. 83)") from None
    if any(n < 0 or n != n for n in numbers) or any(n >= 60 for n in numbers[1:]):
        raise ValueError(f"{text!r} is not a time (give 1:23 or seconds, e.g. 83)")
    seconds = 0.0
    for n in numbers:
        seconds = seconds * 60 + n
    return seconds


def moments(
    start: AnyGame,
    timed: Sequence[tuple[float, Action]],
    analysis: Analysis,
    players: Sequence[int],
    each: int = MOMENTS_EACH,
) -> list[Moment]:
    """The moments of ``players`` to watch again: for each, the ``each`` chances left
    open longest (at the time each opened, with the pile's top card then), then the
    ``each`` slowest plays from ``SLOW_REACTION`` (at the time the reaction is timed
    from, with the card it went on). ``start`` and ``timed`` are the game
    ``analysis`` came from.
    """
    misses: list[Miss] = []
    slow: list[Play] = []
    for player in players:
        mine = [m for m in analysis.misses if m.player == player]
        mine.sort(key=lambda m: (-m.open_for, m.opened))
        misses.extend(mine[:each])
        plays = [p for p in analysis.plays if p.player == player and p.reaction >= SLOW_REACTION]
        plays.sort(key=lambda p: (-p.reaction, p.at))
        slow.extend(plays[:each])
    tops, under = _pile_tops(start, timed, [(m.opened, m.pile) for m in misses])
    out: list[Moment] = []
    for player in players:
        for m in misses:
            if m.player == player:
                onto = tops[(m.opened, m.pile)]
                beaten = m.reason == BEATEN
                out.append(
                    Moment(MISSED, player, m.card, m.pile, onto, m.opened, m.open_for, beaten)
                )
        for p in slow:
            if p.player == player:
                onto = under.get((p.player, p.card, p.at))
                opened = p.at - p.reaction
                out.append(Moment(SLOW_PLAY, player, p.card, p.pile, onto, opened, p.reaction))
    return out


def _pile_tops(
    start: AnyGame, timed: Sequence[tuple[float, Action]], wanted: Sequence[tuple[float, int]]
) -> tuple[dict[tuple[float, int], int | None], dict[tuple[int, int, float], int | None]]:
    """The top card of each (time, pile) in ``wanted`` after every action up to that
    time; and for every card played, (player, card, time) -> the card it went on."""
    game = start.copy()
    tops: dict[tuple[float, int], int | None] = {}
    under: dict[tuple[int, int, float], int | None] = {}
    order = sorted(set(wanted))
    i = 0
    for at, action in timed:
        while i < len(order) and order[i][0] < at:
            pile = game.piles[order[i][1]]
            tops[order[i]] = pile[-1] if pile else None
            i += 1
        before = [p[-1] if p else None for p in game.piles]
        for event in game.apply(action):
            if isinstance(event, CardPlayed):
                under[(event.player, event.card, at)] = before[event.pile]
    for key in order[i:]:
        pile = game.piles[key[1]]
        tops[key] = pile[-1] if pile else None
    return tops, under
