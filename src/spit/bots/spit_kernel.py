"""A fast bot-versus-bot game of Spit: the arbiter's game, on flat state.

``spit sim`` and ``spit tournament`` play hundreds of thousands of games, and
the reference way to play one (``SpitGame`` + ``Arbiter`` + ``Bot`` agents on
a ``ManualClock``, ``spit.bots.sim``) spends about 50 µs on every applied
action: an observation per position and bot, Action and Event objects, the
input queue, the timers' bookkeeping. This kernel plays *exactly the same
game* (same deal, same bot decisions and random draws, same times, same
result) without any of that: the layout is lists of ints, each bot's ``Search``
position is kept up to date as cards move instead of being rebuilt from an
observation, and the arbiter's ordering is a few numbers.

What it shares rather than copies: the bots' decisions (``SpitStrategy``'s
``Search``, ``choose_in_play`` and ``follow_up_in``, ``pick_best``,
``call_slap_or_choose``, ``Bot.delay_for`` and ``Reaction.delay``), the deal
(``SpitGame`` deals the first round; ``deal_layout`` and ``fresh_packets``
the rest, with a copy of the game's generator) and the timing rules
(``Timing``).

What it necessarily re-implements, for speed:

- Spit's rules on flat state (R3-R20, V1-V4, H1, H4): which actions are
  legal, what a play, move, call, slap, choice, close or stall does;
- the arbiter's order of things (``realtime.arbiter``, ``realtime.order``,
  ``realtime.timers``): inputs before timers at one instant, the exact-tie
  priority, planning once per position, no re-planning while an action is
  on its way, a watchful bot's ``keeps``, the H2 call, H3 close and H6 stall
  timers and ``Timers.spend``.

The engine and the arbiter stay the authority. ``tests/bots/test_spit_kernel.py``
plays many games both ways (every pair of levels, mixed seats, every variant,
a round limit, other timings) and requires the same result and the same
timed action log; the pinned games (``tests/bots/test_sim_pinned.py``) run
both ways too, and every game handed to an ``on_finish`` hook is rebuilt by
the engine from the kernel's log (an illegal action there is an error). Any
change to the rules, the arbiter or the bots must keep those tests green.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from spit.bots.bot import Bot
from spit.bots.common import call_slap_or_choose
from spit.bots.spit_strategy import SpitStrategy
from spit.engine.actions import (
    CLOSE,
    STALL,
    Action,
    Kind,
    call,
    choose,
    move,
    play,
    slap,
)
from spit.engine.base import Phase
from spit.engine.cards import NO_CARD_FITS, adjacency_masks, adjacency_rows
from spit.engine.errors import EngineError
from spit.engine.results import Result, RoundEnd
from spit.engine.spit_game import (
    SpitGame,
    choice_takes,
    deal_layout,
    fresh_packets,
    one_pile_takes,
    slap_takes,
)
from spit.realtime.arbiter import LogEntry
from spit.realtime.timers import Timing

_INF = float("inf")

_OPENING = Phase.OPENING
_PLAYING = Phase.PLAY
_STALEMATE = Phase.STALEMATE
_SLAP = Phase.SLAP
_CHOOSE = Phase.CHOOSE
_OVER = Phase.GAME_OVER

_K_PLAY = Kind.PLAY
_K_MOVE = Kind.MOVE
_K_CALL = Kind.CALL
_K_SLAP = Kind.SLAP
_K_CHOOSE = Kind.CHOOSE
_K_CLOSE = Kind.CLOSE

#: The interned actions (the engine's own objects): ``_PLAYS[player][stock][pile]``.
_PLAYS = tuple(tuple(tuple(play(p, s, t) for t in (0, 1)) for s in range(5)) for p in (0, 1))
_MOVES = tuple(tuple(move(p, s) for s in range(5)) for p in (0, 1))
_CALLS = (call(0), call(1))
_SLAPS = ((slap(0, 0), slap(0, 1)), (slap(1, 0), slap(1, 1)))
_CHOICES = ((choose(0, 0), choose(0, 1)), (choose(1, 0), choose(1, 1)))

#: What a timer does when it fires: H2 calls for whoever has not, H3 closes, H6 stalls.
_CALL_TIMER, _CLOSE_TIMER, _STALL_TIMER = 0, 1, 2


class KernelUnsupported(ValueError):
    """The kernel cannot reproduce this game exactly (play it through the arbiter)."""


@dataclass(slots=True)
class KernelRun:
    """What a finished kernel game leaves for an ``on_finish`` hook in place of the
    arbiter: the same ``log`` (``LogEntry`` pairs) and ``start_time``."""

    log: list[LogEntry]
    timing: Timing
    start_time: float = 0.0


class SpitKernel:
    """One bot-versus-bot Spit game, played by ``run`` to its end.

    ``game`` is a freshly dealt ``SpitGame`` (nothing applied yet; it is only
    read, and left as it is); ``bots`` are the two seats' ``Bot``s (player 0,
    then 1), each with a ``SpitStrategy``. Afterwards ``log`` holds every
    applied action as ``(time, action)``, and ``winner``, ``result``,
    ``round_no``, ``moves`` and ``now`` (the game's length in seconds) say how
    it ended.
    """

    def __init__(self, game: SpitGame, bots: Sequence[Bot], timing: Timing | None = None) -> None:
        if not isinstance(game, SpitGame) or game.actions or game.phase is not _OPENING:
            raise KernelUnsupported("the kernel starts from a freshly dealt Spit game")
        if len(bots) != 2 or [b.player for b in bots] != [0, 1]:
            raise KernelUnsupported("the kernel needs a bot for player 0 and one for player 1")
        for bot in bots:
            if not isinstance(bot.strategy, SpitStrategy) or not bot.skips_when_stuck:
                raise KernelUnsupported("the kernel plays Spit strategies without memory only")
        timing = timing or Timing()
        self.timing = timing
        self._call_wait = timing.call_wait
        self._slap_time = timing.slap_time
        self._stall_time = timing.stall_time
        config = game.config
        self.config = config
        self.n_stocks = config.n_stocks
        self.rows = adjacency_rows(config.alternating_colours)
        self.masks = adjacency_masks(config.alternating_colours)
        self.rng = game.rng.copy()  # the game's generator, as it stands after the deal
        self.bots = (bots[0], bots[1])
        # ----------------------------------------------------------- the state
        self.phase = _OPENING
        self.round_no = game.round_no
        self.stocks: list[list[list[int]]] = [[list(s) for s in side] for side in game.stocks]
        self.spit: list[list[int]] = [list(game.spit[0]), list(game.spit[1])]
        self.piles: list[list[int]] = [list(game.piles[0]), list(game.piles[1])]
        self.pile_used = [bool(game.pile_used[0]), bool(game.pile_used[1])]
        self.called = [False, False]
        self.slaps: list[tuple[int, int]] = []
        self.chooser: int | None = None
        self.scores = list(game.scores)
        self.games_won = list(game.games_won)
        self.winner: int | None = None
        self.result = Result.NONE
        #: each player's stock tops (None: an empty slot) and cards under them; the
        #: same lists are the bots' ``Search`` positions, kept up to date in place
        self.tops: list[list[int | None]] = [[], []]
        self.down: list[list[int]] = [[], []]
        #: each player's face-up stock tops as bits (bit c: card c)
        self.known = [0, 0]
        for p in (0, 1):
            self.tops[p] = [s[-1] if s else None for s in self.stocks[p]]
            self.down[p] = [max(0, len(s) - 1) for s in self.stocks[p]]
            self.known[p] = _bits(self.tops[p])
        #: the pile tops as the bots see them (None: empty or not in use)
        self.ptops: list[int | None] = [p[-1] if p else None for p in self.piles]
        # --------------------------------------------------------- the bots
        self.strategies: tuple[SpitStrategy, SpitStrategy] = (
            _strategy(bots[0]),
            _strategy(bots[1]),
        )
        alternating = config.alternating_colours
        self.searches = tuple(
            self.strategies[p].search_for(alternating, self.tops[p], self.down[p], self.ptops, [])
            for p in (0, 1)
        )
        self._watchful = [b.watchful for b in bots]
        self._anticipates = [b.anticipates for b in bots]
        #: per player: its bot, strategy, search and whether it plans ahead
        self._agents = [
            (bots[p], self.strategies[p], self.searches[p], bots[p].anticipates) for p in (0, 1)
        ]
        self._styles = [s.style for s in self.strategies]
        # ------------------------------------------------- the arbiter's state
        self.now = 0.0  #: how far the game has run (the arbiter's horizon)
        self.log: list[tuple[float, Action]] = []
        self.moves = 0
        self._version = 0
        self._planned = [-1, -1]
        self._plan_time = [_INF, _INF]
        self._plan_action: list[Action | None] = [None, None]
        self._in_flight = [False, False]
        #: released plans waiting for the engine: (time, rank, player, action)
        self._queue: list[tuple[float, int, int, Action]] = []
        self._rank = 0
        self._priority = 0
        self._tie_at: float | None = None
        self._tie_next = 0
        self._contested: float | None = None
        self._phase_since = 0.0
        self._progress_at = 0.0
        #: the running timer: when it runs out (inf: none) and what it does then
        self._timer_at = _INF
        self._timer_kind = _CALL_TIMER
        self._retime()

    # ================================================================ the run

    def run(self, max_steps: int = 5_000_000) -> None:
        """Play the game to its end (as ``sim.play_game`` does through the arbiter).

        Each step handles the earliest thing due, as ``Arbiter.next_deadline``
        and ``Arbiter._settle`` order them: a timer that runs out before any
        plan, else the plan due first (inputs before timers at one instant),
        else (two plans due at once) ``_settle`` with its tie rules.
        """
        self._plan_agents(0.0)
        plan_time = self._plan_time
        plan_action = self._plan_action
        plan_agents = self._plan_agents
        apply = self._apply
        steps = 0
        while self.phase is not _OVER:
            t0, t1 = plan_time
            first = t1 if t1 < t0 else t0
            timer_at = self._timer_at
            if timer_at < first:
                if timer_at > self.now:
                    self.now = timer_at
                self._fire(timer_at)
                plan_agents(timer_at)
            elif first == _INF:
                raise RuntimeError(f"the game is stuck in phase {self.phase}")
            elif t0 != t1:
                # One plan is due: it goes to the engine alone, no tie to decide.
                if first > self.now:
                    self.now = first
                p = 0 if t0 < t1 else 1
                action = plan_action[p]
                assert action is not None
                plan_time[p] = _INF
                plan_action[p] = None
                if apply(first, action) and first == self._tie_at:
                    self._tie_next = 1 - p  # InputQueue.accepted, outside a contested pop
                plan_agents(first)
            else:
                if first > self.now:
                    self.now = first
                self._settle(self.now)
            steps += 1
            if steps > max_steps:
                raise RuntimeError(f"the game did not end within {max_steps} steps")

    def _settle(self, until: float) -> None:
        """Apply the plans and timers due by ``until`` in time order (``Arbiter._settle``):
        at one instant inputs go before timers."""
        plan_time = self._plan_time
        plan_action = self._plan_action
        queue = self._queue
        while True:
            t0, t1 = plan_time
            first = t1 if t1 < t0 else t0
            if queue:
                head = min(queue)[0]
                if head < first:
                    first = head
            timer_at = self._timer_at
            if timer_at <= until and timer_at < first:
                self._fire(timer_at)
                self._plan_agents(timer_at)
                continue
            if first > until:
                return
            if not queue and (t0 > first or t1 > first):
                # The common case: one plan is due, nothing waits, no tie to decide.
                p = 0 if t0 <= first else 1
                action = plan_action[p]
                assert action is not None
                plan_time[p] = _INF
                plan_action[p] = None
                if self._apply(first, action) and first == self._tie_at:
                    self._tie_next = 1 - p  # InputQueue.accepted, outside a contested pop
                self._plan_agents(first)
                continue
            # plans due by ``first`` go into the queue, player 0's first
            for p in (0, 1):
                if plan_time[p] <= first:
                    self._rank += 1
                    action = plan_action[p]
                    assert action is not None
                    queue.append((plan_time[p], self._rank, p, action))
                    self._in_flight[p] = True
                    plan_time[p] = _INF
                    plan_action[p] = None
            at, _, p, action = self._pop()
            self._in_flight[p] = False
            if self._apply(at, action):
                self._accepted(at, p)
            self._plan_agents(at)

    def _pop(self) -> tuple[float, int, int, Action]:
        """The next waiting input, with the exact-tie priority of ``InputQueue.pop``."""
        queue = self._queue
        self._contested = None
        if len(queue) == 1:
            return queue.pop()
        head = min(queue)
        same = [item for item in queue if item[0] == head[0]]
        pick = head
        if len({item[2] for item in same}) == 2:
            instant = head[0]
            first = self._tie_next if instant == self._tie_at else self._priority
            pick = min(item for item in same if item[2] == first)
            self._contested = instant
        queue.remove(pick)
        return pick

    def _accepted(self, instant: float, player: int) -> None:
        """An input was applied: a tie it won is decided (``InputQueue.accepted``)."""
        if instant == self._contested and instant != self._tie_at:
            self._priority = 1 - player
            self._tie_at = instant
        if instant == self._tie_at:
            self._tie_next = 1 - player

    # ================================================================= timers

    def _retime(self) -> None:
        """Work out the running timer after an applied action (``Timers.due`` for Spit)."""
        phase = self.phase
        if phase is _PLAYING:
            self._timer_at = self._progress_at + self._stall_time
            self._timer_kind = _STALL_TIMER
        elif phase is _SLAP or phase is _CHOOSE:
            self._timer_at = self._phase_since + self._slap_time
            self._timer_kind = _CLOSE_TIMER
        elif phase is _OVER:
            self._timer_at = _INF
        else:
            self._timer_at = self._phase_since + self._call_wait
            self._timer_kind = _CALL_TIMER

    def _fire(self, deadline: float) -> None:
        """The timer ran out (``Arbiter._fire``): H2 calls, H3 closes, H6 stalls."""
        what = self._timer_kind
        version = self._version
        if what == _CALL_TIMER:
            called, spit = self.called, self.spit
            for p in [p for p in (0, 1) if spit[p] and not called[p]]:
                self._apply(deadline, _CALLS[p])
        else:
            self._apply(deadline, CLOSE if what == _CLOSE_TIMER else STALL)
        if version == self._version:
            # ``Timers.spend``: a timer that changed nothing does not run again
            # until an action is applied.
            self._timer_at = _INF

    # ================================================================= agents

    def _plan_agents(self, now: float) -> None:
        """Each bot that has not seen this position plans from it (``Arbiter._plan_agents``)."""
        version = self._version
        planned = self._planned
        for p in (0, 1):
            if self._in_flight[p] or planned[p] == version:
                continue
            if self._plan_action[p] is not None and not self._watchful[p]:
                continue  # committed to its plan until the action lands or is refused
            planned[p] = version
            if self.phase is not _OVER:
                self._plan(p, now)

    def _plan(self, p: int, now: float) -> None:
        """Show bot ``p`` the position (``Arbiter._plan_agents`` for one agent)."""
        if self.phase is not _PLAYING:
            self._plan_outside_play(p, now)
            return
        a, b = self.ptops
        tops = self.tops[p]
        down = self.down[p]
        pending = self._plan_action[p]
        if pending is not None:
            # A watchful bot sees the position change under its hand: it keeps
            # its action while it is still legal (``Bot.keeps``).
            kind, _, s, t = pending
            if kind is _K_PLAY:
                c = tops[s]
                pile = self.ptops[t]
                if c is not None and pile is not None and self.rows[pile][c]:
                    return
            elif kind is _K_MOVE and down[s] and None in tops:
                return
            # (a call or slap planned before the phase changed is never legal in play)
            self._plan_action[p] = None
        masks = self.masks
        known = self.known[p]
        fit0 = 0 if a is None else known & masks[a]
        fit1 = 0 if b is None else known & masks[b]
        movable = None in tops and any(down)
        if not (fit0 or fit1 or movable):
            # Nothing to play and no R10 move: the bot skips a position in which it cannot act.
            self._plan_action[p] = None
            self._plan_time[p] = _INF
            return
        # The legal plays and moves, in the engine's order (``_legal``, inlined).
        plays = _PLAYS[p]
        fits = fit0 | fit1
        if not fits & (fits - 1):  # at most one card to play: no need to look for others
            legal = []
            if fits:
                s = tops.index(fits.bit_length() - 1)
                if fit0:
                    legal.append(plays[s][0])
                if fit1:
                    legal.append(plays[s][1])
        else:
            rows = self.rows
            r0 = NO_CARD_FITS if a is None else rows[a]
            r1 = NO_CARD_FITS if b is None else rows[b]
            legal = []
            for s, c in enumerate(tops):
                if c is not None:
                    if r0[c]:
                        legal.append(plays[s][0])
                    if r1[c]:
                        legal.append(plays[s][1])
        if movable:  # then the R10 moves, in stock order
            moves = _MOVES[p]
            for s, d in enumerate(down):
                if d:
                    legal.append(moves[s])
        bot, strategy, search, anticipates = self._agents[p]
        search.update(known, self.known[1 - p])
        action = strategy.choose_in_play(search, legal, bot.rng)
        planned = strategy.follow_up_in(search, action) if anticipates else None
        delay = bot.delay_for(action, planned)
        self._plan_time[p] = now + (delay if delay > 0.0 else 0.0)  # never before now
        self._plan_action[p] = action

    def _plan_outside_play(self, p: int, now: float) -> None:
        phase = self.phase
        if phase is _OPENING or phase is _STALEMATE:  # (``_legal``, the commonest case)
            legal = [_CALLS[p]] if self.spit[p] and not self.called[p] else []
        else:
            legal = self._legal(p)
        if not legal:
            self._plan_action[p] = None
            self._plan_time[p] = _INF
            return
        pending = self._plan_action[p]
        if pending is not None:
            if pending in legal:
                return
            self._plan_action[p] = None
            self._plan_time[p] = _INF
        bot = self.bots[p]
        action = call_slap_or_choose(p, legal, self._styles[p], bot.rng, self._pile_sizes)
        if action is None:
            return
        delay = bot.delay_for(action)  # nothing is planned ahead outside play
        self._plan_time[p] = now + max(0.0, delay)
        self._plan_action[p] = action

    def _pile_sizes(self) -> tuple[int, int]:
        return len(self.piles[0]), len(self.piles[1])

    def _legal(self, p: int) -> list[Action]:
        """Player ``p``'s legal actions in the engine's order (``SpitGame.legal_actions``)."""
        phase = self.phase
        if phase is _PLAYING:
            rows = self.rows
            a, b = self.ptops
            r0 = NO_CARD_FITS if a is None else rows[a]
            r1 = NO_CARD_FITS if b is None else rows[b]
            plays = _PLAYS[p]
            out: list[Action] = []
            empty = False
            tall: list[int] = []
            down = self.down[p]
            for s, c in enumerate(self.tops[p]):
                if c is None:
                    empty = True
                else:
                    if r0[c]:
                        out.append(plays[s][0])
                    if r1[c]:
                        out.append(plays[s][1])
                    if down[s]:
                        tall.append(s)
            if empty and tall:
                moves = _MOVES[p]
                out.extend([moves[s] for s in tall])
            return out
        if phase is _OPENING or phase is _STALEMATE:
            return [_CALLS[p]] if self.spit[p] and not self.called[p] else []
        if phase is _SLAP:
            return list(_SLAPS[p]) if all(q != p for q, _ in self.slaps) else []
        if phase is _CHOOSE and p == self.chooser:
            return list(_CHOICES[p])
        return []

    # =========================================================== the rules

    def _apply(self, at: float, action: Action) -> bool:
        """Apply ``action`` at ``at`` if it is legal now (``Arbiter._apply``); False if refused."""
        kind, p, s, t = action
        phase = self.phase
        if kind is _K_PLAY:
            if phase is not _PLAYING or not self.pile_used[t]:
                return self._refuse(p)
            stock = self.stocks[p][s]
            top = self.ptops[t]
            if not stock or top is None or not self.rows[top][stock[-1]]:
                return self._refuse(p)
            self._play(p, s, t, stock, at)
            self.moves += 1
        elif kind is _K_MOVE:
            if phase is not _PLAYING:
                return self._refuse(p)
            stock = self.stocks[p][s]
            if len(stock) < 2 or None not in self.tops[p]:
                return self._refuse(p)
            self._move(p, s, at)
            self.moves += 1
        elif kind is _K_CALL:
            if (phase is not _OPENING and phase is not _STALEMATE) or not self.spit[p]:
                return self._refuse(p)
            if self.called[p]:
                return self._refuse(p)
            self.called[p] = True
            if all(self.called[q] or not self.spit[q] for q in (0, 1)):
                self._spit(at)
        elif kind is _K_SLAP:
            if phase is not _SLAP or any(q == p for q, _ in self.slaps):
                return self._refuse(p)
            self.slaps.append((p, t))
            if len(self.slaps) == 2:
                self._resolve_slaps(at)
        elif kind is _K_CHOOSE:
            if phase is not _CHOOSE or p != self.chooser:
                return self._refuse(p)
            self._resolve_choice(t, at)
        elif kind is _K_CLOSE:
            if phase is _SLAP:
                self._resolve_slaps(at)
            elif phase is _CHOOSE:
                self._resolve_choice(None, at)
            else:
                return False
        else:  # the H6 stall
            if phase is not _PLAYING:
                return False
            self._stalemate(at)
        self.log.append((at, action))
        self._version += 1
        if self.phase is _PLAYING:  # ``_retime`` for the commonest case
            self._timer_at = self._progress_at + self._stall_time
            self._timer_kind = _STALL_TIMER
        else:
            self._retime()
        return True

    def _refuse(self, player: int) -> bool:
        """An input the rules refuse (R11): its player plans again."""
        self._planned[player] = -1
        return False

    def _set_phase(self, phase: Phase, at: float) -> None:
        self.phase = phase
        self._phase_since = self._progress_at = at  # a phase change restarts every wait

    def _play(self, p: int, s: int, t: int, stock: list[int], at: float) -> None:
        c = stock.pop()
        self.piles[t].append(c)
        self.ptops[t] = c
        self._progress_at = at
        if stock:
            top = self.tops[p][s] = stock[-1]  # R9
            self.known[p] ^= (1 << c) | (1 << top)
            self.down[p][s] -= 1
        else:
            self.known[p] ^= 1 << c
            tops = self.tops[p]
            tops[s] = None
            if tops.count(None) == self.n_stocks:
                self._end_round(RoundEnd.LAYOUT_EMPTIED, p, at)  # R15(a)
                return
        if not self._anyone_can_move():
            self._stalemate(at)

    def _move(self, p: int, s: int, at: float) -> None:
        stocks, tops, down = self.stocks[p], self.tops[p], self.down[p]
        slot = tops.index(None)  # R10: the leftmost empty slot
        c = stocks[s].pop()
        stocks[slot].append(c)
        tops[slot] = c
        top = tops[s] = stocks[s][-1]  # R9
        self.known[p] |= 1 << top
        down[s] -= 1
        self._progress_at = at
        if not self._anyone_can_move():
            self._stalemate(at)

    def _anyone_can_move(self) -> bool:
        """False exactly in a stalemate (R12): ``SpitGame.can_anyone_move``."""
        a, b = self.ptops  # in play, a pile has a top exactly when it is in use
        masks = self.masks
        fitting = (0 if a is None else masks[a]) | (0 if b is None else masks[b])
        if (self.known[0] | self.known[1]) & fitting:
            return True
        # An R10 move: an empty slot and a stock with a card under its top.
        return (None in self.tops[0] and any(self.down[0])) or (
            None in self.tops[1] and any(self.down[1])
        )

    def _spit(self, at: float) -> None:
        """R5, R13, R14: every player holding spit cards turns one onto their own pile."""
        for p in (0, 1):
            if self.spit[p]:
                c = self.spit[p].pop()
                self.piles[p].append(c)
                self.ptops[p] = c
        self.called = [False, False]
        self._set_phase(_PLAYING, at)
        if not self._anyone_can_move():
            self._stalemate(at)

    def _stalemate(self, at: float) -> None:
        self._phase_since = self._progress_at = at
        if self.spit[0] or self.spit[1]:
            self.called = [False, False]
            self._set_phase(_STALEMATE, at)  # R13, R14
        else:
            self._end_round(RoundEnd.NO_SPIT_CARDS, None, at)  # R15(b)

    def _card_count(self, p: int) -> int:
        return sum(len(s) for s in self.stocks[p]) + len(self.spit[p])

    def _end_round(self, reason: RoundEnd, emptied_by: int | None, at: float) -> None:
        config = self.config
        if config.scoring:  # V4: score before any pile is taken
            a = self.scores[0] + self._card_count(0)
            b = self.scores[1] + self._card_count(1)
            self.scores = [a, b]
            if max(a, b) >= config.target_score:
                self._finish(None if a == b else (0 if a < b else 1), Result.SCORE, at)
                return
        if self.pile_used[0] and self.pile_used[1]:
            self.slaps = []
            if config.choose_pile and reason is RoundEnd.LAYOUT_EMPTIED:
                self.chooser = emptied_by  # V2
                self._set_phase(_CHOOSE, at)
            else:
                self._set_phase(_SLAP, at)  # R16
            return
        self._collect(one_pile_takes(self.pile_used, reason, emptied_by), at)

    def _resolve_slaps(self, at: float) -> None:
        """R16: the first slap decides; nobody slapping means each takes their own side."""
        self._collect(slap_takes(self.slaps), at)

    def _resolve_choice(self, pile: int | None, at: float) -> None:
        """V2: the chooser's pile, or when time ran out the smaller one (own if equal)."""
        assert self.chooser is not None
        sizes = (len(self.piles[0]), len(self.piles[1]))
        self._collect(choice_takes(self.chooser, pile, sizes), at)

    def _collect(self, takes: list[int | None], at: float) -> None:
        """R17, R19, R20: take piles, gather, check for a winner, deal again (or end, H4)."""
        gathered: list[list[int]] = [[], []]
        for p in (0, 1):
            cards = gathered[p]
            for s in self.stocks[p]:
                cards.extend(s)
            cards.extend(self.spit[p])
            pile = takes[p]
            if pile is not None:
                cards.extend(self.piles[pile])
        winner = next((p for p in (0, 1) if not gathered[p]), None)
        at_limit = self.round_no >= self.config.round_limit
        if winner is not None:
            if not self.config.scoring:
                self._finish(winner, Result.NO_CARDS_LEFT, at)
                return
            self.games_won[winner] += 1
            if at_limit:
                self._finish(None, Result.ROUND_LIMIT, at)  # H4
                return
            self._deal(fresh_packets(self.rng), at)  # V4: a fresh deal (R2)
            return
        if at_limit:
            self._finish(None, Result.ROUND_LIMIT, at)  # H4
            return
        for p in (0, 1):
            self.rng.shuffle(gathered[p])
        self._deal(gathered, at)

    def _deal(self, packets: Sequence[Sequence[int]], at: float) -> None:
        """R3, R4, R17, R18: deal both layouts and open the round (R5)."""
        self.round_no += 1
        for p in (0, 1):
            stocks, spit = deal_layout(packets[p], self.n_stocks)
            self.stocks[p] = stocks
            self.spit[p] = spit
            self.tops[p][:] = [s[-1] if s else None for s in stocks]
            self.down[p][:] = [max(0, len(s) - 1) for s in stocks]
            self.known[p] = _bits(self.tops[p])
        self.piles = [[], []]
        self.ptops[:] = [None, None]
        self.pile_used = [bool(self.spit[0]), bool(self.spit[1])]
        self.called = [False, False]
        self.slaps = []
        self.chooser = None
        self._set_phase(_OPENING, at)

    def _finish(self, winner: int | None, reason: Result, at: float) -> None:
        self.winner = winner
        self.result = reason
        self._set_phase(_OVER, at)

    # ============================================================= afterwards

    def replayed(self, game: SpitGame) -> KernelRun:
        """The finished game as the engine plays it: every logged action applied to
        ``game`` (the same fresh deal this kernel started from), with the log.

        Raises RuntimeError if the engine refuses an action (the kernel and the
        engine disagree: a bug) or ends elsewhere than the kernel did.
        """
        log: list[LogEntry] = []
        for at, action in self.log:
            try:
                game.apply(action)
            except EngineError as exc:
                raise RuntimeError(f"the engine refuses {action} at {at}: {exc}") from exc
            log.append(LogEntry(at, action))
        if (game.phase, game.winner, game.result, game.round_no) != (
            self.phase,
            self.winner,
            self.result,
            self.round_no,
        ):
            raise RuntimeError("the engine's replay of a kernel game ends differently")
        return KernelRun(log, self.timing)


def _bits(cards: list[int | None]) -> int:
    """The cards (not None) as bits."""
    return sum(1 << c for c in cards if c is not None)


def _strategy(bot: Bot) -> SpitStrategy:
    strategy = bot.strategy
    assert isinstance(strategy, SpitStrategy)
    return strategy


__all__ = ["KernelRun", "KernelUnsupported", "SpitKernel"]
