"""The guest's side of a network game: a session built from what the host sends.

``RemoteSession`` is a ``Session`` built from two parts of its own: its game
is a ``ShadowGame`` (the ``GameView`` of the seat's own observations, drawn
through the mode's observer, ``spit.engine.observers``) and its referee a
``HostLink``, which sends presses to the host and hands back the host's
verdicts and events. A pressed card moves at once (pending); the verdict then
keeps it there or puts it back with the reason. Nothing here knows which mode
is played: the mode's observer says what a seat sees and how to draw it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from spit.engine import Action, Game, Kind, Phase, get_mode
from spit.engine.cards import fits
from spit.engine.events import Event
from spit.engine.modes import Mode
from spit.engine.observers import HIDDEN, Column, Observer
from spit.engine.results import Result
from spit.net import protocol as proto
from spit.play.keys import Binding, KeyMap
from spit.play.session import PILE_NAMES, Session
from spit.play.status import status_text
from spit.realtime.arbiter import Applied, Clock, Outcome, Rejected
from spit.realtime.timers import MAX_FUMBLE_TIME, TimerKind

#: What the keys do once a network game is over (the host deals any new game):
#: Enter and Esc both leave the board (``NetGameScreen.action_again``).
AFTER_GAME = "Enter or Esc leaves this board"

__all__ = ["HIDDEN", "HostLink", "RemoteSession", "ShadowGame"]


class ShadowGame:
    """The game as one seat (or a spectator) sees it: the ``GameView`` the board reads.

    Rebuilt from each observation through the mode's observer (``table``);
    between two observations it shows the seat's pending presses
    (``predict``). Until the host's welcome names the game it is an empty
    table of the first registered mode.
    """

    def __init__(self, mode: str | None = None, config: Any = None) -> None:
        self.reset(mode, config)

    def reset(self, mode: str | None, config: Any) -> None:
        """A fresh table of ``mode`` (None: the first registered) played with ``config``."""
        info = get_mode(mode) if mode is not None else _first_mode()
        self.mode = info.name
        self.config = config if config is not None else info.config()
        self.observer: Observer | None = None
        self.phase = Phase.OPENING
        self.round_no = 1
        self.winner: int | None = None
        self.result = Result.NONE
        self.scores = [0, 0]
        self.games_won = [0, 0]
        self.called = [False, False]
        self.chooser: int | None = None
        self.slots: list[list[Column]] = [[], []]
        self.reserves = [0, 0]
        self.piles: list[list[int | None]] = [[], []]
        self.pile_used = [True, True]
        self.side: tuple[int, int] | None = None
        self.face_down = False
        self.legal: tuple[Action, ...] = ()

    @property
    def over(self) -> bool:
        """True once the host says the game is over."""
        return self.phase is Phase.GAME_OVER

    @property
    def info(self) -> Mode:
        """The mode's record (table shape, words)."""
        return get_mode(self.mode)

    @property
    def is_match(self) -> bool:
        """True for a scored match."""
        return bool(self.config.match)

    def player_kinds(self) -> tuple[Kind, ...]:
        """The kinds of action a player may try now (the mode's own table)."""
        kinds: tuple[Kind, ...] = self.info.game_class.PLAYER_KINDS[self.phase]
        return kinds

    #: what a key means now: the engine's own rule, on this view of the game
    action_for = Game.action_for

    def fits(self, card: int, onto: int | None) -> bool:
        """True if ``card`` may go on a pile showing ``onto`` (False if that was never seen):
        the engine's own rule (``cards.fits``, what ``Game.fits`` asks)."""
        if onto is None or not 0 <= card < 52 or not 0 <= onto < 52:
            return False
        return fits(card, onto, bool(self.config.alternating_colours))

    def columns(self, player: int) -> list[tuple[int | None, int]]:
        """Each face-up place: its card (None: empty; HIDDEN: face down) and cards under it."""
        return list(self.slots[player])

    def reserve_size(self, player: int) -> int:
        """The cards a player holds face down besides the columns (spit cards, draw pile)."""
        return self.reserves[player]

    def pile_in_use(self, pile: int) -> bool:
        """False for the pile left out of a one-pile round (R18)."""
        return bool(self.pile_used[pile])

    def side_pile_sizes(self) -> tuple[int, int] | None:
        """Cards in each side pile, or None in a mode without them."""
        return self.side

    def centre_face_down(self) -> bool:
        """True while face-down centre cards wait to be turned up."""
        return self.face_down

    def update(self, obs: Any) -> None:
        """Take an observation ``proto.observation_from_json`` rebuilt (and checked)."""
        observer = self.observer or self.info.observer()
        self.observer = observer
        table = observer.table(obs)
        self.phase = obs.phase
        self.round_no = obs.round_no
        self.winner = obs.winner
        self.result = obs.result
        self.scores = list(obs.scores)
        self.games_won = list(obs.games_won)
        self.legal = tuple(obs.legal)
        self.slots = [list(table.columns[0]), list(table.columns[1])]
        self.reserves = list(table.reserves)
        self.piles = [self._pile(j, pile.top, pile.size) for j, pile in enumerate(table.piles)]
        self.pile_used = [pile.in_use for pile in table.piles]
        self.called = list(table.called)
        self.chooser = table.chooser
        self.side = table.side_piles
        self.face_down = table.centre_face_down

    def _pile(self, j: int, top: int | None, size: int) -> list[int | None]:
        """A spit pile as far as it was seen: the cards seen landing, unknown below."""
        old = self.piles[j]
        if not size:
            return []
        if old and size == len(old) and old[-1] == top:
            return old
        if old and size == len(old) + 1:
            return [*old, top]
        return [None] * (size - 1) + [top]

    def predict(self, action: Action) -> None:
        """Show a pending press as if the host took it: a played card leaves its place
        for the pile, a moved one goes where the engine puts it, a call shows as made
        (slaps and choices show in the status line). Cards this seat cannot see stay.

        A play or move is shown only if the host's engine listed it as legal in the
        position this seat was last sent (``legal``), and a moved card lands where
        the engine puts it (``Game.move_slot``): the view decides no rule.
        """
        p, s, t = action.player, action.source, action.target
        if p not in (0, 1):
            return
        if action.kind is Kind.CALL:
            self.called[p] = True
            return
        if action.kind not in (Kind.PLAY, Kind.MOVE) or action not in self.legal:
            return
        slots = self.slots[p]
        if not 0 <= s < len(slots):
            return
        top, under = slots[s]
        if top is None or top == HIDDEN:
            return
        if action.kind is Kind.MOVE:
            # (a place with cards face down is not empty, even with its top unknown)
            empty = Game.move_slot([None if slot == (None, 0) else HIDDEN for slot in slots])
            if empty is None:
                return
            slots[empty] = (top, 0)
        else:
            self.piles[t] = [*self.piles[t], top]
        slots[s] = (None, max(0, under - 1))


def _first_mode() -> Mode:
    """The first registered mode (a guest's table before the host names the game)."""
    from spit.engine import all_modes

    return all_modes()[0]


def _timer(raw: Any, now: float) -> tuple[float, TimerKind] | None:
    """The running timer from a state's ``[seconds left, kind]`` (None if absent or bad)."""
    if not isinstance(raw, list) or len(raw) != 2:
        return None
    left, kind = raw
    if not isinstance(left, (int, float)) or isinstance(left, bool) or not 0 <= left < 3600:
        return None
    try:
        return now + float(left), TimerKind(kind)
    except ValueError:
        return None


class HostLink:
    """The guest's referee: sends presses to the host, hands back what the host judged.

    It stands where a local session has its arbiter (a ``Referee``). ``send``
    (``connect``) delivers one press to the host and returns its message id;
    None: a spectator, or not connected yet. ``on_sent`` is told after each
    press sent (the session shows it pending).
    """

    def __init__(
        self,
        clock: Callable[[], float],
        send: Callable[[Action, float], int] | None = None,
        on_sent: Callable[[], None] | None = None,
    ) -> None:
        self.clock = clock
        self.send = send
        self.on_sent = on_sent
        self.outcomes: list[Outcome] = []
        self.paused = False
        self.deadline: tuple[float, TimerKind] | None = None
        #: presses sent and not yet judged, by message id
        self.pending: dict[int, Action] = {}

    def submit(self, action: Action, at: float | None = None) -> int | None:
        """Send a press made at ``at`` to the host (its message id; None: not sent)."""
        if self.send is None:
            return None
        msg_id = self.send(action, self.clock() if at is None else at)
        self.pending[msg_id] = action
        if self.on_sent is not None:
            self.on_sent()
        return msg_id

    def tick(self, now: float | None = None) -> list[Outcome]:
        """What the host judged since the last tick."""
        out, self.outcomes = self.outcomes, []
        return out

    def pause(self, now: float | None = None) -> None:
        """A network game runs on at the host: nothing to stop here."""

    def resume(self, now: float | None = None) -> None:
        """See ``pause``."""

    def timer(self) -> tuple[float, TimerKind] | None:
        """The host's running timer, as its last state said."""
        return self.deadline

    def next_deadline(self) -> float | None:
        """Nothing happens here by itself: the host decides when."""
        return None


class RemoteSession(Session):
    """A seat's view of a game run by a host; the board reads it like a ``Session``."""

    #: a network game cannot be paused, and nothing is saved at a guest's end
    FOOTER_KEYS = (("F1", "help"), ("Esc", "leave"), ("ctrl+q", "quit"))

    def __init__(
        self,
        send: Callable[[Action, float], int] | None,
        keymap: KeyMap | None = None,
        clock: Clock | None = None,
    ) -> None:
        import time

        clock = clock or time.monotonic
        self.shadow = ShadowGame()
        self.link = HostLink(clock, send, self._sent)
        super().__init__(self.shadow, self.link, keymap, clock)
        self.narrator.news = "Connecting to the host..."
        #: this screen's seat (None: a spectator)
        self.seat: int | None = None
        self.started = False
        #: what the host says about a missing player, or a choice to make
        self.notice = ""
        self.choice: int | None = None
        #: the end of the connection, in words (None while connected)
        self.ended: str | None = None
        #: what to say while the other player has not joined yet
        self.waiting = "Waiting for the other player to join..."
        #: a note about the replay the host sent
        self.replay_note: str | None = None
        self.replay_data: dict[str, Any] | None = None
        self._obs: Any = None
        self._paused_until: float | None = None
        self._shown_rejoin: int | None = None  # the rejoin countdown's second on screen
        #: what the host says about the fairness of the links ("" when all is well)
        self.link_note = ""
        # the game clock as the host has it: seconds played when it last said, and
        # this screen's time then while the game runs (None: stopped)
        self._played = 0.0
        self._played_since: float | None = None

    @property
    def config(self) -> Any:
        """The rules the host plays."""
        return self.shadow.config

    # ------------------------------------------------------------ parts

    def connect(self, send: Callable[[Action, float], int]) -> None:
        """Presses go to the host through ``send`` from now on (this screen plays a seat)."""
        self.link.send = send

    @property
    def watching(self) -> bool:
        """True if this screen only watches (nothing sends its presses to a host)."""
        return self.link.send is None

    def chosen(self) -> None:
        """The choice the host asked for was answered (or cannot be): stop asking."""
        self.choice = None
        self.changed()

    def note_replay(self, note: str | None) -> None:
        """What became of the replay the host sent (shown once the game is over)."""
        self.replay_note = note
        self.changed()

    def wait_for(self, words: str) -> None:
        """What to say until the other player joins."""
        self.waiting = words
        self.changed()

    # ------------------------------------------------------------ keys

    def key_owner(self, player: int) -> int | None:
        """Player 1's keys on this seat's own cards (either player's keys play for it);
        none on the opponent's cards or for a spectator, whose keys do nothing."""
        return 0 if player == self.seat else None

    def press(self, key: str, at: float, now: float | None = None) -> bool:
        """A key: both players' keys play for this seat (a spectator's do nothing)."""
        binding = self.keymap.lookup(key)
        if binding is None:
            return False
        if self.seat is None or self.link.send is None:
            now = at if now is None else now
            self._set_flash("you are watching: keys do nothing here", None, now)
            return True
        now = at if now is None else now
        if not 0 <= now - at <= 1.0:
            at = now  # a key time from another clock (or none): the press is now
        if self.game.over:
            # Enter does what it says: a network game is not dealt again from here
            self._set_flash(f"the game is over: {AFTER_GAME}", self.seat, now)
            return True
        if not self.started or self.link.paused:
            self._set_flash("wait: the game is not running", self.seat, now)
            return True
        # Either player's keys play for this seat: the guest has the keyboard alone.
        binding = Binding(self.seat, binding.row, binding.column)
        last = self._last_press.get(key)
        self._last_press[key] = at
        if last is not None and 0 <= at - last < self.keymap.repeat_window:
            self.inputs.append((at, key, False))
            return True
        self.inputs.append((at, key, True))
        action = self.action_for(binding)
        if isinstance(action, str):
            self._set_flash(f"{self.names[self.seat]}: {action}", self.seat, now)
            return True
        self._send_press(action, at)
        return True

    def _send_press(self, action: Action, at: float) -> None:
        self.link.submit(action, at)

    def _sent(self) -> None:
        """A press went to the host: show it pending."""
        self._show_pending()
        self.version += 1

    def _show_pending(self) -> None:
        """Show pending presses at once (``ShadowGame.predict``)."""
        for action in self.link.pending.values():
            self.shadow.predict(action)

    def pending_words(self) -> str:
        """The presses sent and not yet judged, in words ("" if none)."""
        words = []
        for action in self.link.pending.values():
            kind = action.kind
            if kind is Kind.PLAY:
                words.append(f"card to the {PILE_NAMES[action.target].lower()} pile")
            elif kind is Kind.MOVE:
                words.append("move to the empty slot")
            elif kind is Kind.CALL:
                words.append("ready" if self.shadow.info.side_piles else "spit!")
            elif kind in (Kind.SLAP, Kind.CHOOSE):
                verb = "slap" if kind is Kind.SLAP else "choose"
                words.append(f"{verb} the {PILE_NAMES[action.target].lower()} pile")
        return ", ".join(words)

    # ------------------------------------------------------------ messages

    def receive(self, msg: dict[str, Any], now: float | None = None) -> None:
        """One checked message from the host."""
        now = self.clock() if now is None else now
        kind = msg["t"]
        handler = getattr(self, f"_on_{kind}", None)
        if handler is not None:
            handler(msg, now)
        self.version += 1

    def _on_welcome(self, msg: dict[str, Any], now: float) -> None:
        config = proto.config_from_json(msg["mode"], msg["config"])
        self.shadow.reset(msg["mode"], config)  # the same object: the narrator reads it
        self._obs = None
        self._set_names(msg["names"])
        self.seat = msg["seat"]
        self.bottom_player = self.seat if self.seat is not None else 0
        self.started = all(msg.get("seats", [False]))
        if self.started:
            self.link.paused = False  # a new connection (a watcher's again) to a game going on
        self.narrator.news = "Waiting for the other player..." if not self.started else ""
        self._set_clock(msg, now, running=self.started)

    def _on_state(self, msg: dict[str, Any], now: float) -> None:
        raw = msg["obs"]
        obs = proto.observation_from_json(raw, self.shadow.config)  # checks every field
        self._obs = obs
        self.shadow.update(obs)
        self.link.deadline = _timer(raw.get("timer"), now)
        self._show_pending()

    def _on_verdict(self, msg: dict[str, Any], now: float) -> None:
        action = self.link.pending.pop(msg["id"], None)
        if action is None:
            return
        if not msg["ok"]:
            if self._obs is not None:
                self.shadow.update(self._obs)  # the card snaps back
                self._show_pending()
            fumble = min(max(float(msg.get("fumble", 0.0)), 0.0), MAX_FUMBLE_TIME)
            self.link.outcomes.append(
                Rejected(now, action, msg.get("reason", "refused"), fumble=fumble)
            )

    def _on_events(self, msg: dict[str, Any], now: float) -> None:
        events: list[Event] = proto.events_from_json(msg["events"])
        raw = msg.get("action")
        if not raw:
            return
        action = proto.any_action(raw)
        self.link.outcomes.append(Applied(now, action, events, msg.get("by") is None))

    def _on_paused(self, msg: dict[str, Any], now: float) -> None:
        self.link.paused = True
        self._set_clock(msg, now, running=False)
        seat = msg.get("seat")
        left = msg.get("left")
        if seat is not None:
            who = self.names[seat]
            self._paused_until = now + float(left) if left is not None else None
            self.notice = f"{who} lost the connection"
        else:
            self.notice = "The game is paused"

    def _set_names(self, raw: Any) -> None:
        names = (
            [str(n)[:20] for n in raw[:2] if isinstance(n, str)] if isinstance(raw, list) else []
        )
        if len(names) == 2:
            self.names = (names[0], names[1])
            self.narrator.names = self.names

    def _on_resumed(self, msg: dict[str, Any], now: float) -> None:
        self._set_names(msg.get("names"))
        self.link.paused = False
        self.started = True
        self._set_clock(msg, now, running=True)
        self.notice = ""
        self.choice = None
        self._paused_until = None
        if self.news.startswith("Waiting"):
            self.narrator.news = "Both players are here: play!"

    def _on_choose(self, msg: dict[str, Any], now: float) -> None:
        self._paused_until = None
        if self.seat is None:  # a spectator watches the choice, it does not make it
            self.notice = f"{self.names[msg['seat']]} did not come back: the other player chooses"
            return
        self.choice = msg["seat"]
        self.notice = (
            f"{self.names[msg['seat']]} did not come back: Enter lets the computer "
            "play their seat, Esc saves the match on the host"
        )

    def _on_over(self, msg: dict[str, Any], now: float) -> None:
        self.shadow.phase = Phase.GAME_OVER
        self.shadow.winner = msg["winner"]
        self.narrator.news = msg["text"]
        self._set_clock(msg, now, running=False)

    def _on_replay(self, msg: dict[str, Any], now: float) -> None:
        self.replay_data = msg["data"]

    def _on_bye(self, msg: dict[str, Any], now: float) -> None:
        self.ended = msg["reason"]

    def _on_notice(self, msg: dict[str, Any], now: float) -> None:
        """The host's word about fair races: a link too slow (kept in the status
        line until the host says it is fast enough again), or presses clamped."""
        about = msg["about"]
        if about == "slow":
            self.link_note = "slow link: close races may not be fair"
        elif about == "fair":
            self.link_note = ""
        self._set_flash(msg["text"], None, now)

    def _on_error(self, msg: dict[str, Any], now: float) -> None:
        self._set_flash(f"host: {msg['reason']}", None, now)

    def lost(self, reason: str, *, replace: bool = False) -> None:
        """The connection ended (the host quit, or the network failed): the first
        reason stays unless ``replace`` (a later, truer one: it did not come back)."""
        if self.ended is None or replace:
            self.ended = reason
        self.link.paused = True
        self._set_clock({}, self.clock(), running=False)
        self.version += 1

    # ------------------------------------------------------------ the game clock

    def _set_clock(self, msg: dict[str, Any], now: float, running: bool) -> None:
        """The host's game clock from ``msg`` (``played``; without it, the clock goes on
        from what it shows now), running from ``now`` or stopped."""
        played = msg.get("played")
        self._played = max(0.0, float(played)) if played is not None else self.game_time(now)
        self._played_since = now if running else None

    def game_time(self, now: float) -> float:
        """Seconds the game has been played, as the host counts them (the wait for the
        players and the pauses left out; stopped at the end)."""
        if self._played_since is None:
            return self._played
        return self._played + max(0.0, now - self._played_since)

    def carry_on(
        self, why: str = "Picking the match up again on another node of the server"
    ) -> None:
        """A new connection carries the same match on (a server moved it, or this
        screen takes its seat after watching): not ended now. ``why`` shows meanwhile.

        The game stays paused until the host says it has resumed.
        """
        self.ended = None
        self.link.pending.clear()  # the presses sent on the lost connection have no verdict
        self.notice = why
        self.version += 1

    # ------------------------------------------------------------ words

    def status(self, now: float) -> str:
        """The phase in words, or what the network is doing."""
        if self.ended is not None and not self.game.over:
            return f"Game ended: {self.ended}"
        if self.notice:
            if self._paused_until is not None:
                left = max(0, math.ceil(self._paused_until - now))
                return f"{self.notice}: waiting {left} s for them to rejoin"
            return self.notice
        if not self.started:
            return self.waiting
        if self.game.over:
            return f"{self.news}  {AFTER_GAME}."
        paused = bool(self.link.paused)
        text = status_text(self.game, self.names, self.countdown(now), paused, self.stalled)
        if self.link_note:
            text = f"{text}  [{self.link_note}]"
        pending = self.pending_words()
        return f"[pending: {pending}]  {text}" if pending else text

    def tick(self, now: float | None = None) -> bool:
        """As ``Session.tick``; also True when the rejoin countdown shows a new second."""
        now = self.clock() if now is None else now
        changed = super().tick(now)
        left = None
        if self._paused_until is not None:
            left = max(0, math.ceil(self._paused_until - now))
        if left != self._shown_rejoin:
            self._shown_rejoin = left
            if not changed:
                self.version += 1
            changed = True
        return changed

    def next_wakeup(self, now: float) -> float | None:
        """Also wake each second of a rejoin countdown."""
        wake = super().next_wakeup(now)
        if self._paused_until is not None:
            step = now + 1.0
            wake = step if wake is None else min(wake, step)
        return wake

    def result_text(self) -> str:
        """The host's words for the result."""
        return self.news
