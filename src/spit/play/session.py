"""One game being played at the keyboard: keys in, arbiter ticks, words out.

The session turns key presses into actions (by the current phase), debounces
held-key repeats, drives the arbiter, and keeps what the screen needs to say:
the last news, a short flash for a refused move, and which pile a card just
landed on. It knows no Textual, so tests drive it with a fake clock.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from spit.engine import Action, Game, Kind, Phase, call, card_name, choose, move, play, slap
from spit.engine.cards import adjacency_rows
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
from spit.play.keys import Binding, KeyMap, Row
from spit.realtime.arbiter import Agent, Applied, Arbiter, Clock, Outcome, Rejected, Timing

PILE_NAMES = ("left", "right")
FLASH_TIME = 1.2  #: seconds a refused move's message stays
LANDED_TIME = 0.5  #: seconds a pile stays highlighted after a card lands
COUNTDOWN_FROM = 5.0  #: the H6 stall countdown shows in its last seconds


@dataclass(slots=True)
class Flash:
    """A refused move or a hint, shown briefly beside the player's cards."""

    text: str
    player: int | None
    column: int | None
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


def game_mode_scored(game: Game) -> bool:
    """True in a match (Spit V4, Speed P7), where a won game does not end the match."""
    if game.mode == "speed":
        return bool(getattr(game.config, "target_score", 0))
    return bool(getattr(game.config, "scoring", False))


def key_action(game: Game, binding: Binding) -> Action | str:
    """The action a key means in ``game``'s phase, or a hint why it means nothing."""
    p, row, col = binding
    phase = game.phase
    speed = game.mode == "speed"
    if phase is Phase.OPENING or (phase is Phase.STALEMATE and not speed):
        return call(p)
    if phase is Phase.PLAY:
        if row is Row.LEFT or row is Row.RIGHT:
            return play(p, col, int(row))
        if row is Row.MOVE:
            return (
                "Speed has no moves: top row plays left, home row plays right"
                if speed
                else move(p, col)
            )
        return call(p)  # the engine says why no spit is due
    if phase is Phase.STALEMATE:
        return "wait: the side piles are turning over"
    if phase is Phase.SLAP:
        if row is Row.LEFT or row is Row.RIGHT:
            return slap(p, int(row))
        return "slap with your top row (left pile) or home row (right pile)"
    if phase is Phase.CHOOSE:
        if row is Row.LEFT or row is Row.RIGHT:
            return choose(p, int(row))
        return "choose with your top row (left pile) or home row (right pile)"
    return "the game is over: Enter plays again, Escape opens the menu"


class Session:
    """A game with its arbiter, driven by key presses and ticks."""

    def __init__(
        self,
        game: Game,
        keymap: KeyMap | None = None,
        timing: Timing | None = None,
        clock: Clock | None = None,
        agents: dict[int, Agent] | None = None,
        names: tuple[str, str] = ("Player 1", "Player 2"),
    ) -> None:
        import time

        self.game = game
        self.keymap = keymap or KeyMap.default()
        self.clock: Clock = clock or time.monotonic
        self.arbiter = Arbiter(game, timing, self.clock, agents)
        self.names = names
        self.agents = dict(agents or {})
        #: bumped whenever anything on screen should change
        self.version = 0
        self.news = ""
        self.round_news = ""
        self.flash: Flash | None = None
        self.landed: dict[int, Landed] = {}
        self.stalled = False
        #: every key press that reached the session, in order: (time, key, used)
        self.inputs: list[tuple[float, str, bool]] = []
        self._last_press: dict[str, float] = {}
        self._last_play: dict[int, tuple[int, float, int]] = {}
        self._shown_countdown: int | None = None
        self._takes: list[str] = []
        self._takes_short: list[str] = []  # the same, short enough for the news line
        self.listeners: list[Callable[[list[Outcome]], None]] = []
        #: computer levels by player number (set by the app; for the records)
        self.levels: dict[int, str] = {}
        #: keeps the game's files (``spit.store.archive.Archiver``), if the app records games
        self.archiver: Any = None
        #: finished rounds of a match waiting to be shown, oldest first
        self.summaries: list[RoundSummary] = []
        self._round: RoundSummary | None = None
        self._describe_opening(getattr(game, "opening_events", []))

    # ------------------------------------------------------------------ input

    def press(self, key: str, at: float, now: float | None = None) -> bool:
        """A key went down at ``at``. Returns True if it was a game key.

        A press of the same key sooner than the key map's ``repeat_window``
        after its previous press is a held-key repeat: ignored, and the window
        restarts from it.
        """
        binding = self.keymap.lookup(key)
        if binding is None:
            return False
        last = self._last_press.get(key)
        self._last_press[key] = at
        if last is not None and 0 <= at - last < self.keymap.repeat_window:
            self.inputs.append((at, key, False))
            return True
        self.inputs.append((at, key, True))
        now = at if now is None else now
        if binding.player in self.agents:
            self._set_flash(f"{self.names[binding.player]} is played by the computer", None, now)
            return True
        action = self.action_for(binding)
        if isinstance(action, str):
            self._set_flash(f"{self.names[binding.player]}: {action}", binding.player, now)
            return True
        self.arbiter.submit(action, at=at)
        return True

    def action_for(self, binding: Binding) -> Action | str:
        """The action a key means in the current phase, or a hint why it means nothing."""
        return key_action(self.game, binding)

    # ------------------------------------------------------------------- time

    def tick(self, now: float | None = None) -> bool:
        """Run the arbiter up to ``now``; True if the screen should change."""
        now = self.clock() if now is None else now
        changed = False
        outcomes = self.arbiter.tick(now)
        if outcomes:
            changed = True
            for outcome in outcomes:
                self._describe(outcome, now)
            for listener in self.listeners:
                listener(outcomes)
        if self.flash is not None and self.flash.until <= now:
            self.flash = None
            changed = True
        for pile in [p for p, landed in self.landed.items() if landed.until <= now]:
            del self.landed[pile]
            changed = True
        countdown = self.countdown(now)
        shown = None if countdown is None else math.ceil(countdown[0])
        if shown != self._shown_countdown:
            self._shown_countdown = shown
            changed = True
        if changed:
            self.version += 1
        return changed

    def next_wakeup(self, now: float) -> float | None:
        """When ``tick`` next has something to do (timer, flash end, countdown step)."""
        if self.arbiter.paused:
            return None
        times: list[float] = []
        deadline = self.arbiter.next_deadline()
        if deadline is not None:
            times.append(deadline)
        if self.flash is not None:
            times.append(self.flash.until)
        times.extend(landed.until for landed in self.landed.values())
        countdown = self.countdown(now)
        if countdown is not None:
            left = countdown[0]
            step = left - math.floor(left) if left > math.floor(left) else 1.0
            times.append(now + step)
        else:
            timer = self.arbiter.timer()
            if timer is not None and timer[1] == "stall":
                times.append(timer[0] - COUNTDOWN_FROM)
        return min(times) if times else None

    def countdown(self, now: float) -> tuple[float, str] | None:
        """Seconds left on the visible timer and what it is for, or None."""
        if self.arbiter.paused:
            return None
        timer = self.arbiter.timer()
        if timer is None:
            return None
        deadline, what = timer
        left = deadline - now
        if left <= 0:
            return None
        if what == "stall" and left > COUNTDOWN_FROM:
            return None
        return left, what

    def pause(self, now: float | None = None) -> None:
        """Stop the game clock (help, pause screen, terminal too small)."""
        self.arbiter.tick(now)
        self.arbiter.pause(now)
        self.version += 1

    def resume(self, now: float | None = None) -> None:
        """Start the game clock again."""
        self.arbiter.resume(now)
        self._last_press.clear()
        self.version += 1

    # ------------------------------------------------------------------ words

    def name(self, player: int) -> str:
        """A player's display name."""
        return self.names[player]

    def _set_flash(self, text: str, player: int | None, now: float, column: int | None = None):
        self.flash = Flash(text, player, column, now + FLASH_TIME)
        self.version += 1

    def _describe_opening(self, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, Dealt):
                self.round_news = f"Round {self.game.round_no} dealt."

    def describe(self, outcome: Outcome, now: float) -> None:
        """Turn an outcome into news (the replay viewer feeds its actions here)."""
        self._describe(outcome, now)

    @property
    def archive_message(self) -> str | None:
        """What the archiver has to say (a failed save, or 'result saved'), if anything."""
        return None if self.archiver is None else self.archiver.message

    def _summarize(self, event: Event) -> None:
        """Collect a match round's story: how it ended, points, piles taken."""
        if not game_mode_scored(self.game):
            return
        names = self.names
        if isinstance(event, RoundOver):
            self._round = RoundSummary(event.round_no, self.round_news)
        elif isinstance(event, GameWon):
            how = {
                "R20": f"{names[event.player]} has no cards left and wins a game",
                "P6": f"{names[event.player]} played every card and wins the game",
                "H5": f"Stuck for good: {names[event.player]} holds fewer cards and wins",
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
                "Stuck for good with equal cards: a drawn game, no points (H5)",
                totals=(scores[0], scores[1]),
            )
        elif isinstance(event, (Dealt, GameOver)) and self._round is not None:
            if isinstance(event, Dealt) and event.player != 1:
                return
            self._round.match_over = isinstance(event, GameOver)
            self.summaries.append(self._round)
            self._round = None

    def _describe(self, outcome: Outcome, now: float) -> None:
        if isinstance(outcome, Rejected):
            self._describe_rejected(outcome, now)
            return
        assert isinstance(outcome, Applied)
        for event in outcome.events:
            self._describe_event(event, outcome, now)
            self._summarize(event)

    def _describe_rejected(self, outcome: Rejected, now: float) -> None:
        action = outcome.action
        p = action.player
        if p not in (0, 1):
            return
        reason = outcome.reason
        column = action.source if action.kind in (Kind.PLAY, Kind.MOVE) else None
        if action.kind is Kind.PLAY and self._lost_race(action, outcome.time):
            last = self._last_play[action.target]
            reason = (
                f"too late, {self.names[last[0]]} put {card_name(last[2])} on the "
                f"{PILE_NAMES[action.target]} pile first"
            )
        self._set_flash(f"{self.names[p]}: {reason}", p, now, column)

    def _lost_race(self, action: Action, at: float) -> bool:
        """R11: did the opponent's card land on this pile just before, making it illegal?"""
        last = self._last_play.get(action.target)
        if last is None or last[0] == action.player or at - last[1] > 1.0:
            return False
        pile = self.game.piles[action.target]
        card = self._card_in(action.player, action.source)
        if len(pile) < 2 or card is None:
            return False
        rows = adjacency_rows(bool(getattr(self.game.config, "alternating_colours", False)))
        return rows[pile[-2]][card]

    def _card_in(self, player: int, column: int) -> int | None:
        """The face-up card of a player's stock (Spit) or hand slot (Speed)."""
        game = self.game
        if game.mode == "speed":
            hand = game.hands[player]
            return hand[column] if 0 <= column < len(hand) else None
        stocks = game.stocks[player]
        if 0 <= column < len(stocks) and stocks[column]:
            return stocks[column][-1]
        return None

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
            if self.game.mode == "speed":
                self.news = f"{names[event.player]} is ready"
            else:
                self.news = f"{names[event.player]} called spit!"
        elif isinstance(event, Spat):
            self.landed[event.pile] = Landed(event.player, now + LANDED_TIME)
            if self.game.mode != "speed":
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
            if event.reason == "layout_emptied" and event.emptied_by is not None:
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
        elif isinstance(event, GameWon) and game_mode_scored(self.game):
            self.news = f"{names[event.player]} won a game; the match goes on with a new deal"

    def result_text(self) -> str:
        """The game's or match's result in words."""
        game = self.game
        winner = game.winner
        if game.result == "round_limit":
            return "The round limit was reached: a draw."
        if winner is None:
            return "The game is a draw."
        if game.result == "score":
            if game.mode == "speed":
                return f"{self.names[winner]} reaches the target score and wins the match!"
            return f"{self.names[winner]} wins the match with the lowest score!"
        if game.result == "R20":
            return f"{self.names[winner]} has no cards left and wins the game!"
        if game.result == "P6":
            return f"{self.names[winner]} played every card and wins the game!"
        if game.result == "H5":
            return f"Stuck for good: {self.names[winner]} holds fewer cards and wins!"
        return f"{self.names[winner]} wins the game!"

    def status(self, now: float) -> str:
        """The current phase in plain words, with any countdown."""
        game = self.game
        phase = game.phase
        names = self.names
        speed = game.mode == "speed"
        if self.arbiter.paused:
            return "Paused."
        countdown = self.countdown(now)
        secs = f" ({math.ceil(countdown[0])} s)" if countdown else ""
        if phase is Phase.OPENING:
            if speed:
                return f"Get ready: each player presses any of their keys{secs}"
            return f"Round {game.round_no}: call SPIT! to start - any of your keys{secs}"
        if phase is Phase.PLAY:
            if countdown is not None:
                word = "the side piles turn" if speed else "SPIT"
                left = math.ceil(countdown[0])
                return f"Nobody has played for a while: {word} in {left} s"
            rule = "one rank up or down"
            if getattr(game.config, "alternating_colours", False):
                rule += ", other colour"
            return f"Play! {rule}, on either pile"
        if phase is Phase.STALEMATE:
            if speed:
                return f"Both stuck: the side piles turn over{secs}"
            head = "Nobody played for a while: SPIT!" if self.stalled else "Both stuck: SPIT!"
            spit_counts = [len(s) for s in game.spit]
            alone = [p for p in (0, 1) if not spit_counts[p]]
            tail = " Any of your keys calls."
            if alone:
                other = 1 - alone[0]
                tail = f" {names[alone[0]]} has no spit cards: {names[other]} spits alone."
            return f"{head}{tail}{secs}"
        if phase is Phase.SLAP:
            return f"Slap a pile! Top row: left pile, home row: right pile{secs}"
        if phase is Phase.CHOOSE:
            chooser = getattr(game, "chooser", None)
            who = names[chooser] if chooser is not None else "The winner"
            return f"{who} chooses a pile: top row left, home row right{secs}"
        return f"{self.result_text()} Enter: play again, Escape: menu."
