"""The host's match: one engine and one arbiter, seats linked to players, verdicts out.

``Match`` knows no sockets: a seat is a ``Link`` (anything with ``send(bytes)``)
and a ``Stamper``. It turns each received action into an input stamped with
its estimated press time (clamped to that seat's own measured delay, every
clamp logged), ticks the arbiter a *hold window* W behind the clock (so inputs
that arrive within W of their press are ordered by press time, R11), sets W
from the seats' measured delays (never above ``window``), and sends each seat
its verdicts, the events as that seat may see them, and its own observation.
Every judged press is kept (``presses``) for the replay's race audit. A
dropped seat pauses the game; it may rejoin within ``rejoin_timeout``
seconds, after which the other player chooses: a computer takes the seat, or
the match is saved on the host.
"""

from __future__ import annotations

import logging
import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from spit.engine import Action, AnyGame
from spit.net import protocol as proto
from spit.net.stamping import TOLD, Stamper
from spit.realtime.arbiter import Applied, Arbiter, Clock, Outcome, Rejected, Timing
from spit.store.races import Press

log = logging.getLogger("spit.net")

#: Seconds a dropped player has to come back (the issue's 60 s).
REJOIN_TIMEOUT = 60.0
#: Unanswered actions a seat may have in flight; more is a flood.
MAX_PENDING = 32
#: Seconds the present player has to answer ``choose``; then the match is saved.
CHOOSE_TIMEOUT = 60.0
#: Judged presses kept for the race audit (a long game has a few thousand).
MAX_PRESSES = 10_000
#: Seconds between re-estimates of the hold window W.
WINDOW_EVERY = 0.25
#: Ping samples every seat needs before W follows the measurements (until then W is
#: its maximum).
SETTLED = 8


class Link(Protocol):
    """Where a seat's (or a spectator's) messages go."""

    def send(self, data: bytes) -> None:
        """Deliver one encoded message line (must not block)."""


@dataclass(slots=True)
class Seat:
    """One player's place at the table."""

    number: int
    name: str
    link: Link | None = None
    stamper: Stamper = field(default_factory=Stamper)
    pending: deque[tuple[int, Action, Press | None]] = field(default_factory=deque)
    dropped_at: float | None = None
    offered: bool = False
    #: when the other player was asked what to do about this seat (host clock)
    offered_at: float | None = None
    last_obs: dict[str, Any] | None = None
    computer: bool = False
    #: True once the seat was told its presses claim more than its link allows
    told: bool = False
    #: True while the seat's link is too slow for the host's longest wait
    slow: bool = False


class Match:
    """One networked game on the host."""

    def __init__(
        self,
        game: AnyGame,
        timing: Timing | None = None,
        clock: Clock | None = None,
        window: float = 0.07,
        names: tuple[str, str] = ("Player 1", "Player 2"),
        rejoin_timeout: float = REJOIN_TIMEOUT,
        replay: Callable[[], dict[str, Any]] | None = None,
        on_outcomes: Callable[[list[Outcome]], None] | None = None,
        on_save: Callable[[], str] | None = None,
        result_text: Callable[[], str] | None = None,
        adaptive: bool = True,
    ) -> None:
        """``window``: the longest the host waits (W's maximum); ``adaptive``: W follows
        the seats' measured delays (False: W is always ``window``)."""
        import time

        if not 0 <= window <= 1:
            raise ValueError("the hold window must be 0..1 second")
        self.game = game
        self.clock: Clock = clock or time.monotonic
        #: the hold window W now (seconds); at most ``max_window``
        self.window = window
        self.max_window = window
        self.adaptive = adaptive
        #: every press, in the order they arrived (``Press.order``: the order judged)
        self.presses: list[Press] = []
        self.rejoin_timeout = rejoin_timeout
        #: seconds an offered choice waits for an answer before the match is saved
        self.choose_timeout = CHOOSE_TIMEOUT
        self.arbiter = Arbiter(game, timing, self.clock)
        now = self.clock()
        self.arbiter.pause(now)  # nothing runs until both seats are taken
        self.seats = (Seat(0, names[0]), Seat(1, names[1]))
        self.watchers: list[Link] = []
        self.started = False
        self.finished = False
        #: the game clock's seconds played before this host (a match carried on)
        self.played_before = 0.0
        self.closed_reason: str | None = None
        self._horizon = now
        self._replay = replay
        self._on_outcomes = on_outcomes
        self._on_save = on_save
        self._result_text = result_text
        #: called with a seat number when a computer should take it over (set by the host)
        self.take_over: Callable[[int], None] | None = None
        #: called once when the game starts, the seats named as the players joined
        self.on_start: Callable[[], None] | None = None
        #: called when the schedule may have changed (a new input: tick sooner)
        self.wake: Callable[[], None] = lambda: None
        self._late = False
        self._window_at = -math.inf
        self._index = 0
        self._order = 0

    # ------------------------------------------------------------------ seats

    @property
    def names(self) -> tuple[str, str]:
        """The players' names."""
        return (self.seats[0].name, self.seats[1].name)

    def _welcome(self, seat: int | None) -> bytes:
        return proto.encode(
            "welcome",
            seat=seat,
            mode=self.game.mode,
            config=proto.config_json(self.game.mode, self.game.config),
            names=list(self.names),
            window=self.window,
            seats=[s.link is not None and s.dropped_at is None for s in self.seats],
            played=self._played(),
        )

    def attach(self, number: int, link: Link, stamper: Stamper, now: float) -> None:
        """Seat a player (first join or rejoin): welcome, state, and resume if all are here."""
        seat = self.seats[number]
        rejoin = seat.dropped_at is not None
        seat.link = link
        seat.stamper = stamper
        seat.pending.clear()
        seat.dropped_at = None
        seat.offered = False
        seat.offered_at = None
        seat.last_obs = None
        link.send(self._welcome(number))
        self._send_state(seat)
        log.info("seat %d %s (%s)", number + 1, "rejoined" if rejoin else "joined", seat.name)
        self._maybe_start(now)

    def carry_on(self, now: float) -> None:
        """This match goes on from a checkpoint: the game started long ago, so it
        counts as started (the names stay), and each seat waits for its player
        as after a drop: ``rejoin_timeout`` from ``now``, then the usual choice."""
        self.started = True
        for seat in self.seats:
            if seat.link is None:
                seat.dropped_at = now

    def attach_watcher(self, link: Link) -> None:
        """A spectator: public information only."""
        self.watchers.append(link)
        link.send(self._welcome(None))
        link.send(proto.encode("state", obs=self._public_obs()))

    def detach_watcher(self, link: Link) -> None:
        """A spectator left."""
        if link in self.watchers:
            self.watchers.remove(link)

    def seat_taken(self, number: int) -> bool:
        """True if a player is connected to this seat."""
        seat = self.seats[number]
        return seat.link is not None and seat.dropped_at is None

    def _maybe_start(self, now: float) -> None:
        if self.finished or not all(self.seat_taken(s.number) for s in self.seats):
            return
        horizon = max(self._horizon, now - self.window)
        self.arbiter.resume(horizon)
        self._horizon = horizon
        if not self.started:
            self.started = True
            log.info("game starts: %s v %s", *self.names)
            if self.on_start is not None:
                self.on_start()
        self._broadcast(proto.encode("resumed", names=list(self.names), played=self._played(now)))
        self.wake()

    def drop(self, number: int, now: float, why: str = "dropped") -> None:
        """A seat's connection was lost: pause the game and start the rejoin countdown."""
        seat = self.seats[number]
        if seat.link is None or seat.dropped_at is not None:
            return
        seat.link = None
        seat.dropped_at = now
        if self.finished:
            return
        log.warning(
            "seat %d (%s) %s: game paused for %.0f s",
            number + 1,
            seat.name,
            why,
            self.rejoin_timeout,
        )
        if self.started and not self.arbiter.paused:
            # Whatever was pressed before the drop still counts: settle it now.
            self._tick_to(max(self._horizon, now))
            self.arbiter.pause(self._horizon)
        self._broadcast(
            proto.encode(
                "paused",
                why="dropped",
                seat=number,
                left=self.rejoin_timeout,
                played=self._played(now),
            )
        )

    def decide(self, number: int | None, what: str, now: float) -> str | None:
        """The present player's choice after a seat's timeout: ``bot`` or ``save``.

        ``number`` is the deciding seat; a spectator (None) is refused, with a
        log line. Returns a reason if the choice is not possible now.
        """
        if number not in (0, 1):
            log.warning("a spectator tried to decide (%s): refused", what[:10])
            return "spectators cannot decide for the players"
        gone = [s for s in self.seats if s.dropped_at is not None and s.offered]
        if not gone or self.seats[number].dropped_at is not None:
            return "there is nothing to decide now"
        return self._choose(what, gone)

    def _choose(self, what: str, gone: list[Seat]) -> str | None:
        if what == "bot":
            for seat in gone:
                seat.computer = True
                seat.name = f"{seat.name} (computer)"
                if self.take_over is not None:
                    self.take_over(seat.number)
            return None
        if what == "save":
            message = self._on_save() if self._on_save is not None else "match not saved"
            self.close(message)
            return None
        return f"unknown choice {what[:10]!r}: bot or save"

    def check_timeouts(self, now: float) -> None:
        """Offer the choice once a dropped seat's countdown has run out."""
        for seat in self.seats:
            if (
                seat.dropped_at is not None
                and not seat.offered
                and not self.finished
                and now - seat.dropped_at >= self.rejoin_timeout
            ):
                seat.offered = True
                seat.offered_at = now
                log.warning("seat %d did not come back: the other player chooses", seat.number + 1)
                self._broadcast(proto.encode("choose", seat=seat.number, options=["bot", "save"]))
        if self.finished or not self.started:
            return
        gone = [s for s in self.seats if s.dropped_at is not None and s.offered]
        if len(gone) == len(self.seats):
            # Nobody is left to choose: keep the match for `spit resume` on the host.
            log.warning("both players are gone: the match is saved")
            self._choose("save", gone)
            return
        asked = [s.offered_at for s in gone if s.offered_at is not None]
        if asked and now - min(asked) >= self.choose_timeout:
            log.warning("nobody chose within %.0f s: the match is saved", self.choose_timeout)
            self._choose("save", gone)

    def close(self, reason: str) -> None:
        """End the match for everyone (the host quits, or the match was saved)."""
        if self.closed_reason is not None:
            return
        self.closed_reason = reason
        self.finished = True
        self._broadcast(proto.encode("bye", reason=reason))
        self.wake()

    # ------------------------------------------------------------------ input

    def receive_action(
        self, number: int, msg: dict[str, Any], arrival: float, behind: bool = False
    ) -> None:
        """A checked ``action`` message from seat ``number`` that arrived at ``arrival``
        (``behind``: in the same read as another message)."""
        seat = self.seats[number]
        msg_id = msg["id"]
        try:
            action = proto.parse_action(msg["a"])
        except proto.ProtocolError as exc:
            self._verdict(seat, msg_id, False, str(exc))
            return
        if action.player != number:
            log.warning("seat %d sent an action for the other seat: refused", number + 1)
            self._verdict(seat, msg_id, False, "that action is for the other seat")
            return
        if self.finished:
            self._verdict(seat, msg_id, False, "the game is over")
            return
        if self.arbiter.paused:
            self._verdict(seat, msg_id, False, "the game is paused")
            return
        if len(seat.pending) >= MAX_PENDING:
            self._verdict(seat, msg_id, False, "too many moves at once")
            return
        judged = seat.stamper.judge(float(msg["at"]), arrival, behind)
        stamp = max(judged.stamp, self.arbiter.start_time)
        self._watch_clamps(seat, judged.claimed, judged.clamp, arrival)
        record = None
        if len(self.presses) < MAX_PRESSES:
            start = self.arbiter.start_time
            record = Press(
                seat=number,
                action=action,
                press=stamp - start,
                arrival=arrival - start,
                clamp=judged.clamp,
                window=self.window,
            )
            self.presses.append(record)
        seat.pending.append((msg_id, action, record))
        # H8: the seat saw the game a hold window and a one-way trip late
        lag = self.window + (seat.stamper.rtt or 0.0) / 2
        self.arbiter.submit(action, at=stamp, seen=stamp - lag)
        self.wake()

    def _watch_clamps(self, seat: Seat, claimed: float, clamp: float, arrival: float) -> None:
        """Log a clamped press; tell a seat whose presses claim more earliness than its
        link allows (its shift, its floor, or too many far-fetched presses: see
        ``spit.net.stamping``), and warn the host."""
        stamper = seat.stamper
        if clamp > 0:
            log.info(
                "seat %d press judged %.1f ms later than it claimed (it claimed %.1f ms "
                "before its arrival; its link allows %.1f ms; shift %.1f ms, floor %.1f ms)",
                seat.number + 1,
                clamp * 1000,
                (arrival - claimed) * 1000,
                (arrival - claimed - clamp) * 1000,
                stamper.shift * 1000,
                stamper.floor * 1000,
            )
        if stamper.trusted:
            return
        correction = stamper.correction
        if not seat.told and (correction > TOLD or stamper.suspect):
            seat.told = True
            log.warning(
                "seat %d (%s) claims earlier presses than its link allows, again and again "
                "(%.1f ms more than its pings measure, over its last presses, the least of "
                "them %.1f ms more than as many pings take; %d of them claimed more than "
                "any ping but a lost one took): its presses are judged %.1f ms later",
                seat.number + 1,
                seat.name,
                stamper.shift * 1000,
                stamper.floor * 1000,
                stamper.far_fetched,
                correction * 1000,
            )
            self._notice(
                seat,
                "clamp",
                "Your presses arrive later than they claim, again and again: the host now "
                "judges them by its own measure of your link (check your clock or your "
                "connection).",
            )
            for other in self.seats:
                if other is not seat and other.stamper.trusted:
                    self._notice(
                        other,
                        "warn",
                        f"{seat.name}'s presses claim to be earlier than their link allows, "
                        "again and again: the host now judges them by its own measure.",
                    )
        elif seat.told and correction == 0:
            seat.told = False
            log.info("seat %d press stamps fit its link again", seat.number + 1)

    def _notice(self, seat: Seat, about: str, text: str) -> None:
        if seat.link is not None:
            seat.link.send(proto.encode("notice", about=about, text=text[:300]))

    def _update_window(self, now: float) -> None:
        """Re-estimate W: the longest wait any seat's measured delay needs, at most
        ``max_window``; say when a seat's link is too slow for fair races."""
        if now - self._window_at < WINDOW_EVERY:
            return
        self._window_at = now
        needs: list[float] = []
        for seat in self.seats:
            if seat.link is None:
                continue
            stamper = seat.stamper
            allowance = stamper.allowance
            settled = stamper.trusted or stamper.count >= SETTLED
            needs.append(self.max_window if allowance is None or not settled else allowance)
            if allowance is not None and settled and self.max_window > 0:
                self._check_slow(seat, allowance)
        if self.adaptive and needs:
            # No accepted press claims more than its seat's allowance: with W at the
            # largest allowance, no honest press arrives too late to be put in order.
            self.window = min(self.max_window, max(needs))

    def _check_slow(self, seat: Seat, allowance: float) -> None:
        limit = self.max_window
        if not seat.slow and allowance > limit:
            seat.slow = True
            log.warning(
                "seat %d (%s): its link (%.0f ms one way) is too slow for fair races "
                "(the host waits at most %.0f ms)",
                seat.number + 1,
                seat.name,
                allowance * 1000,
                limit * 1000,
            )
            text = (
                f"{seat.name}'s link is too slow for fair races ({allowance * 1000:.0f} ms "
                f"one way; the host waits at most {limit * 1000:.0f} ms): close races may go "
                "to the nearer player."
            )
            for other in self.seats:
                self._notice(other, "slow", text)
        elif seat.slow and allowance < 0.9 * limit:
            seat.slow = False
            log.info("seat %d: its link is fast enough for fair races again", seat.number + 1)
            for other in self.seats:
                self._notice(other, "fair", "Every link is fast enough for fair races again.")

    def submit_local(
        self, number: int, msg_id: int, action: Action, at: float, arrival: float
    ) -> None:
        """An action from a seat on the host itself (its keyboard, or a computer)."""
        self.receive_action(number, {"id": msg_id, "a": action.to_json(), "at": at}, arrival)

    # ------------------------------------------------------------------ time

    def wake_at(self) -> float | None:
        """When (host clock) ``tick`` next has work: the next deadline plus the window."""
        if self.finished:
            return None
        times = []
        if not self.arbiter.paused:
            deadline = self.arbiter.next_deadline()
            if deadline is not None:
                times.append(deadline + self.window)
        for seat in self.seats:
            if seat.dropped_at is not None and not seat.offered:
                times.append(seat.dropped_at + self.rejoin_timeout)
            elif seat.dropped_at is not None and seat.offered_at is not None:
                times.append(seat.offered_at + self.choose_timeout)
        return min(times) if times else None

    def tick(self, now: float) -> None:
        """Apply everything pressed before ``now - window``; send what changed."""
        self.check_timeouts(now)
        if self.finished or self.arbiter.paused:
            return
        self._update_window(now)
        self._tick_to(now - self.window)

    def _tick_to(self, horizon: float) -> None:
        if horizon < self._horizon:
            return
        self._horizon = horizon
        outcomes = self.arbiter.tick(horizon)
        if not outcomes:
            return
        # the index in game.actions of the first action applied by this tick
        self._index = len(self.game.actions) - sum(isinstance(o, Applied) for o in outcomes)
        for outcome in outcomes:
            self._announce(outcome)
        if self._on_outcomes is not None:
            self._on_outcomes(outcomes)
        for seat in self.seats:
            self._send_state(seat)
        if self.watchers:
            public = proto.encode("state", obs=self._with_timer(self._public_obs()))
            for link in self.watchers:
                link.send(public)
        if self.game.over and not self.finished:
            self._game_over()

    def _announce(self, outcome: Outcome) -> None:
        player = outcome.action.player
        seat = self.seats[player] if player in (0, 1) else None
        if isinstance(outcome, Rejected):
            if seat is not None:
                msg_id = self._pop_pending(seat, outcome, None)
                if msg_id is not None:
                    self._verdict(seat, msg_id, False, outcome.reason, outcome.fumble)
            return
        assert isinstance(outcome, Applied)
        index = self._index
        self._index += 1
        if seat is not None:
            msg_id = self._pop_pending(seat, outcome, index)
            if msg_id is not None:
                self._verdict(seat, msg_id, True)
        at = round(outcome.time - self.arbiter.start_time, 4)
        action = outcome.action.to_json()
        by = player if seat is not None else None
        mode = self.game.mode
        # the mode's observer says what each seat sees of an event (e.g. Speed
        # hides a drawn card from the other seat); a mode that hides nothing
        # sends everyone the same line
        hides = self.game.info.observer().hides_events
        shown: dict[int | None, bytes] = {}
        for number in (0, 1, None) if self.watchers else (0, 1):  # no spectator's unasked
            if not hides and shown:
                shown[number] = shown[0]
                continue
            shown[number] = proto.encode(
                "events",
                at=at,
                by=by,
                action=action,
                events=proto.events_json(outcome.events, mode, number),
            )
        for s in self.seats:
            if s.link is not None:
                s.link.send(shown[s.number])
        for link in self.watchers:
            link.send(shown[None])

    def _pop_pending(self, seat: Seat, outcome: Outcome, index: int | None) -> int | None:
        """The id of the pending press this outcome judged (its audit record filled in)."""
        for i, (msg_id, pending, record) in enumerate(seat.pending):
            if pending == outcome.action:
                del seat.pending[i]
                if record is not None:
                    record.order = self._order
                    self._order += 1
                    record.judged = outcome.time - self.arbiter.start_time
                    record.index = index
                    if isinstance(outcome, Rejected):
                        record.reason = outcome.reason
                return msg_id
        return None

    def _verdict(
        self, seat: Seat, msg_id: int, ok: bool, reason: str = "", fumble: float = 0.0
    ) -> None:
        if seat.link is None:
            return
        if ok:
            seat.link.send(proto.encode("verdict", id=msg_id, ok=True))
        elif fumble > 0:  # H8: the seat's plays and moves are held back this long
            seat.link.send(
                proto.encode(
                    "verdict", id=msg_id, ok=False, reason=reason[:300], fumble=round(fumble, 3)
                )
            )
        else:
            seat.link.send(proto.encode("verdict", id=msg_id, ok=False, reason=reason[:300]))

    def _send_state(self, seat: Seat) -> None:
        if seat.link is None:
            return
        obs = proto.observation_json(self.game, seat.number)
        if obs != seat.last_obs:
            seat.last_obs = obs
            seat.link.send(proto.encode("state", obs=self._with_timer(obs)))

    def _with_timer(self, obs: dict[str, Any]) -> dict[str, Any]:
        """The observation with the running timer: seconds left (on the host's clock,
        the hold window included) and what it is for, so screens can count down."""
        timer = None if self.arbiter.paused else self.arbiter.timer()
        if timer is None:
            return obs
        left = max(0.0, timer[0] + self.window - self.clock())
        return {**obs, "timer": [round(left, 3), timer[1]]}

    def _public_obs(self) -> dict[str, Any]:
        """What a spectator sees (the mode's observer decides)."""
        return proto.observation_json(self.game, None)

    def _game_over(self) -> None:
        self.finished = True
        game = self.game
        text = self._result_text() if self._result_text is not None else game.result
        log.info("game over: %s", text)
        applied = self.arbiter.log
        played = self._played(applied[-1][0] if applied else None)  # at the last action
        self._broadcast(
            proto.encode(
                "over",
                winner=game.winner,
                result=game.result[:20],
                text=text[:300],
                played=played,
            )
        )
        if self._replay is not None:
            self._broadcast(proto.encode("replay", data=self._replay()))

    def _played(self, now: float | None = None) -> float:
        """The game clock (seconds played, pauses and the wait for the players left
        out), as the screens show it."""
        return round(self.played_before + self.arbiter.played(now), 3)

    def _broadcast(self, data: bytes) -> None:
        for seat in self.seats:
            if seat.link is not None:
                seat.link.send(data)
        for link in self.watchers:
            link.send(data)
