"""The narrator: turns the arbiter's outcomes into words for the screen.

It keeps the last news line, the round's story (for the between-rounds
screen of a match), a short flash for a refused move, and which pile a card
just landed on. It reads the game but decides nothing about it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from spit.engine import Action, Kind, Result, RoundEnd, card_name
from spit.engine.events import (
    CardMoved,
    CardPlayed,
    Dealt,
    Event,
    GameDrawn,
    GameOver,
    GameWon,
    PileTaken,
    RoundOver,
    Scored,
    SidePilesRebuilt,
    Slapped,
    Spat,
    SpitCalled,
    Stalemate,
)
from spit.realtime.arbiter import FUMBLING, Applied, Outcome, Rejected

if TYPE_CHECKING:
    # types only: the protocols cost start-up time and nothing at run time
    from spit.play.views import GameView

PILE_NAMES = ("left", "right")
FLASH_TIME = 1.2  #: seconds a refused move's message stays
HELD_TIME = 0.8  #: seconds the "held key, ignored" note stays
LANDED_TIME = 0.5  #: seconds a pile stays highlighted after a card lands


@dataclass(slots=True)
class Flash:
    """A refused move or a hint, shown briefly beside the player's cards."""

    text: str
    player: int | None
    column: int | None
    until: float
    #: how many times in a row this very message was given while it showed
    count: int = 1


@dataclass(slots=True)
class Held:
    """A key press taken as a held-key repeat (and ignored), noted briefly."""

    key: str
    player: int
    until: float


@dataclass(slots=True)
class Landed:
    """A card that just landed on a spit pile, and who played it."""

    player: int
    until: float


@dataclass(slots=True)
class RoundSummary:
    """What happened in one round of a match (V4, P7), for the between-rounds screen."""

    round_no: int
    how: str
    points: tuple[int, int] = (0, 0)
    totals: tuple[int, int] = (0, 0)
    takes: list[str] = field(default_factory=list)
    match_over: bool = False


class Narrator:
    """The words about one game: news, round story, flash and landed piles."""

    def __init__(self, game: GameView, names: tuple[str, str]) -> None:
        self.game = game
        self.names = names
        self.news = ""
        self.round_news = ""
        self.flash: Flash | None = None
        #: the last key press ignored as a held-key repeat, while it is noted
        self.held: Held | None = None
        self.landed: dict[int, Landed] = {}
        #: players under a fumble (H8): when their fumble time ends
        self.fumbled: dict[int, float] = {}
        self.stalled = False
        #: finished rounds of a match waiting to be shown, oldest first
        self.summaries: list[RoundSummary] = []
        self._round: RoundSummary | None = None
        self._last_play: dict[int, tuple[int, float, int]] = {}
        self._takes: list[str] = []
        self._takes_short: list[str] = []  # the same, short enough for the news line

    def set_flash(
        self, text: str, player: int | None, now: float, column: int | None = None
    ) -> None:
        """Show ``text`` beside ``player``'s cards for FLASH_TIME seconds.

        The same message again while it shows counts up (``Flash.count``), so
        that a second refusal visibly differs from the first.
        """
        last = self.flash
        count = last.count + 1 if last is not None and last.text == text else 1
        self.flash = Flash(text, player, column, now + FLASH_TIME, count)

    def set_held(self, key: str, player: int, now: float) -> None:
        """Note for HELD_TIME seconds that ``key`` was taken as held down (ignored)."""
        self.held = Held(key, player, now + HELD_TIME)

    def expire(self, now: float) -> bool:
        """Drop the flash and landed marks whose time is up; True if any went."""
        changed = False
        if self.flash is not None and self.flash.until <= now:
            self.flash = None
            changed = True
        if self.held is not None and self.held.until <= now:
            self.held = None
            changed = True
        for pile in [p for p, landed in self.landed.items() if landed.until <= now]:
            del self.landed[pile]
            changed = True
        for player in [p for p, until in self.fumbled.items() if until <= now]:
            del self.fumbled[player]
            changed = True
        return changed

    def wakeups(self) -> list[float]:
        """When a flash, a held-key note or a landed mark ends."""
        times = [landed.until for landed in self.landed.values()]
        times.extend(self.fumbled.values())
        if self.flash is not None:
            times.append(self.flash.until)
        if self.held is not None:
            times.append(self.held.until)
        return times

    def opening(self, events: list[Event]) -> None:
        """Words for the events of the first deal (made before the arbiter ran)."""
        for event in events:
            if isinstance(event, Dealt):
                self.round_news = f"Round {self.game.round_no} dealt."

    def describe(self, outcome: Outcome, now: float) -> None:
        """Turn an outcome into news."""
        if isinstance(outcome, Rejected):
            self._describe_rejected(outcome, now)
            return
        assert isinstance(outcome, Applied)
        for event in outcome.events:
            self._describe_event(event, outcome, now)
            self._summarize(event)

    def _summarize(self, event: Event) -> None:
        """Collect a match round's story: how it ended, points, piles taken."""
        if not self.game.is_match:
            return
        names = self.names
        if isinstance(event, RoundOver):
            self._round = RoundSummary(event.round_no, self.round_news)
        elif isinstance(event, GameWon):
            how = {
                Result.NO_CARDS_LEFT: f"{names[event.player]} has no cards left and wins a game",
                Result.PLAYED_OUT: f"{names[event.player]} played every card and wins the game",
                Result.STUCK: f"Stuck for good: {names[event.player]} holds fewer cards and wins",
            }.get(event.reason, f"{names[event.player]} wins a game")
            if self._round is None:
                self._round = RoundSummary(self.game.round_no, how)
            else:
                self._round.how += f"; {how}"
        elif isinstance(event, Scored) and self._round is not None:
            self._round.points = event.points
            self._round.totals = event.totals
        elif isinstance(event, PileTaken) and self._round is not None:
            self._round.takes = list(self._takes)
        elif isinstance(event, GameDrawn) and self._round is None:
            scores = self.game.scores
            self._round = RoundSummary(
                self.game.round_no,
                "Stuck for good with equal cards: a drawn game, no points",
                totals=(scores[0], scores[1]),
            )
        elif isinstance(event, (Dealt, GameOver)) and self._round is not None:
            if isinstance(event, Dealt) and event.player != 1:
                return
            self._round.match_over = isinstance(event, GameOver)
            self.summaries.append(self._round)
            self._round = None

    def _describe_rejected(self, outcome: Rejected, now: float) -> None:
        action = outcome.action
        p = action.player
        if p not in (0, 1):
            return
        reason = outcome.reason
        if reason == FUMBLING:
            return  # said once, when the fumble began; the board shows the hands-off time
        column = action.source if action.kind in (Kind.PLAY, Kind.MOVE) else None
        if outcome.fumble > 0:  # H8
            self.fumbled[p] = now + outcome.fumble
            self.set_flash(f"{self.names[p]}: fumble! {reason}; hands off a moment", p, now, column)
            return
        if action.kind is Kind.PLAY and self._lost_race(action, outcome.time):
            last = self._last_play[action.target]
            reason = (
                f"too late, {self.names[last[0]]} put {card_name(last[2])} on the "
                f"{PILE_NAMES[action.target]} pile first"
            )
        self.set_flash(f"{self.names[p]}: {reason}", p, now, column)

    def _lost_race(self, action: Action, at: float) -> bool:
        """R11: did the opponent's card land on this pile just before, making it illegal?"""
        last = self._last_play.get(action.target)
        if last is None or last[0] == action.player or at - last[1] > 1.0:
            return False
        pile = self.game.piles[action.target]
        card = self._card_in(action.player, action.source)
        if len(pile) < 2 or card is None:
            return False
        below = pile[-2]  # None: a card a network guest never saw
        return below is not None and self.game.fits(card, below)

    def _card_in(self, player: int, column: int) -> int | None:
        """The face-up card of a player's stock or hand slot."""
        columns = self.game.columns(player)
        return columns[column][0] if 0 <= column < len(columns) else None

    def _describe_event(self, event: Event, outcome: Applied, now: float) -> None:
        names = self.names
        if isinstance(event, CardPlayed):
            self._last_play[event.pile] = (event.player, outcome.time, event.card)
            self.landed[event.pile] = Landed(event.player, now + LANDED_TIME)
            self.news = (
                f"{names[event.player]} played {card_name(event.card)} "
                f"on the {PILE_NAMES[event.pile]} pile"
            )
            self.stalled = False
        elif isinstance(event, CardMoved):
            self.news = (
                f"{names[event.player]} moved {card_name(event.card)} "
                f"to empty slot {event.slot + 1}"
            )
        elif isinstance(event, SpitCalled):
            if self.game.info.side_piles:
                self.news = f"{names[event.player]} is ready"
            else:
                self.news = f"{names[event.player]} called spit!"
        elif isinstance(event, Spat):
            if self.game.info.side_piles:  # Speed's centre and side cards: nobody's play
                self.landed.pop(event.pile, None)
            else:  # a Spit spit card is its player's own
                self.landed[event.pile] = Landed(event.player, now + LANDED_TIME)
            if not self.game.info.side_piles:
                self.news = "SPIT! New cards on the spit piles"
            elif outcome.action.kind is Kind.FLIP:
                self.news = "Both stuck: the side piles turned a card onto each pile"
            else:
                self.news = "Both ready: the centre cards are turned up. Play!"
            self.stalled = False
        elif isinstance(event, SidePilesRebuilt):
            self.news = "The side piles ran out: the spit piles were shuffled into new ones"
        elif isinstance(event, Stalemate):
            self.stalled = event.stalled
        elif isinstance(event, RoundOver):
            self._takes = []
            self._takes_short = []
            if event.reason is RoundEnd.LAYOUT_EMPTIED and event.emptied_by is not None:
                self.round_news = f"{names[event.emptied_by]} emptied their layout!"
            else:
                self.round_news = "Stuck, and no spit cards left: the round is over."
            self.news = self.round_news
        elif isinstance(event, Slapped):
            self.news = f"{names[event.player]} slapped the {PILE_NAMES[event.pile]} pile"
        elif isinstance(event, PileTaken):
            if event.pile is None:
                part = f"{names[event.player]} took no pile"
                short = f"{names[event.player]} took none"
            else:
                pile = PILE_NAMES[event.pile]
                part = f"{names[event.player]} took the {pile} pile ({event.size} cards)"
                short = f"{names[event.player]} took {pile} ({event.size})"
            self._takes.append(part)
            self._takes_short.append(short)
            self.round_news = "; ".join(self._takes)
            self.news = self.round_news
        elif isinstance(event, Scored):
            self.news = f"Scores this round {event.points[0]}-{event.points[1]}"
        elif isinstance(event, Dealt):
            if event.player == 1:
                # one 80-column line: the full story is on the between-rounds screen
                taken = ", ".join(self._takes_short) or self.round_news
                self.news = f"Round {self.game.round_no} dealt: {taken}"
        elif isinstance(event, GameWon) and self.game.is_match:
            self.news = f"{names[event.player]} won a game; the match goes on with a new deal"
