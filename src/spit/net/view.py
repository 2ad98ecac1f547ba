"""The guest's side of a network game: a session built from what the host sends.

``RemoteSession`` has the surface the board and the game screen read from a
local ``Session`` (it reuses its key handling, narration and status words),
but its game is a ``ShadowGame`` rebuilt from the seat's own observation, and
its "arbiter" sends presses to the host and hands back the host's verdicts
and events. A pressed card moves at once (pending); the verdict then keeps
it there or puts it back with the reason.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from spit.engine import Action, Game, Kind, Phase, SpeedConfig, SpitConfig
from spit.engine.cards import adjacency_rows
from spit.engine.events import Event
from spit.engine.modes import Mode, get_mode
from spit.engine.results import Result
from spit.net import protocol as proto
from spit.play.keys import Binding, KeyMap
from spit.play.narration import Narrator
from spit.play.session import PILE_NAMES, Session
from spit.play.status import status_text
from spit.realtime.arbiter import Applied, Clock, Outcome, Rejected
from spit.realtime.timers import TimerKind

#: A card the viewer may not see (the opponent's Speed hand): drawn face down.
HIDDEN = -1


class ShadowGame:
    """The game as one seat (or a spectator) sees it: the attributes the board reads."""

    def __init__(self, mode: str, config: SpitConfig | SpeedConfig) -> None:
        self.mode = mode
        self.config = config
        self.phase = Phase.OPENING
        self.round_no = 1
        self.winner: int | None = None
        self.result = Result.NONE
        self.scores = [0, 0]
        self.games_won = [0, 0]
        self.called = [False, False]
        self.chooser: int | None = None
        self.stocks: list[list[list[int | None]]] = [[], []]
        self.spit: list[list[None]] = [[], []]
        self.piles: list[list[int | None]] = [[], []]
        self.pile_used = [True, True]
        self.hands: list[list[int | None]] = [[], []]
        self.draw: list[list[None]] = [[], []]
        self.side: list[list[None]] = [[], []]
        self.centre: list[None] = []
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
        """True if ``card`` may go on a pile showing ``onto`` (False if that was never seen)."""
        if onto is None or card < 0:
            return False
        return bool(adjacency_rows(bool(self.config.alternating_colours))[onto][card])

    def columns(self, player: int) -> list[tuple[int | None, int]]:
        """Each face-up place: its card (None: empty; HIDDEN: face down) and cards under it."""
        if self.mode == "speed":
            return [(c, 0) for c in self.hands[player]]
        return [(s[-1] if s else None, max(0, len(s) - 1)) for s in self.stocks[player]]

    def reserve_size(self, player: int) -> int:
        """Spit cards or draw pile."""
        return len(self.draw[player] if self.mode == "speed" else self.spit[player])

    # what the board asks every game (``Game.pile_in_use`` and the two after it)

    def pile_in_use(self, pile: int) -> bool:
        """False for the pile left out of a one-pile round (R18)."""
        return bool(self.pile_used[pile])

    def side_pile_sizes(self) -> tuple[int, int] | None:
        """Cards in each side pile (Speed), or None."""
        return (len(self.side[0]), len(self.side[1])) if self.mode == "speed" else None

    def centre_face_down(self) -> bool:
        """True while face-down centre cards wait to be turned up (Speed)."""
        return bool(self.centre)

    def update(self, obs: dict[str, Any]) -> None:
        """Take a checked observation (``proto.observation_from_json`` was run on it)."""
        self.phase = Phase(obs["phase"])
        self.round_no = obs["round_no"]
        self.winner = obs["winner"]
        self.result = Result(obs["result"])
        self.scores = list(obs["scores"])
        self.games_won = list(obs["games_won"])
        self.legal = tuple(proto.parse_action(a) for a in obs["legal"])
        if self.mode == "speed":
            self._speed(obs)
        else:
            self._spit(obs)

    def _spit(self, obs: dict[str, Any]) -> None:
        self.stocks = [
            [[None] * face_down + ([top] if top is not None else []) for top, face_down in side]
            for side in obs["stocks"]
        ]
        self.spit = [[None] * n for n in obs["spit_counts"]]
        # the cards seen landing are kept, as in Speed: a lost race is told as locally
        self.piles = [self._pile(j, top, size) for j, (top, size, _) in enumerate(obs["piles"])]
        self.pile_used = [used for _, _, used in obs["piles"]]
        self.called = list(obs["called"])
        self.chooser = obs["chooser"]

    def _speed(self, obs: dict[str, Any]) -> None:
        me = obs["player"]
        counts = obs.get("hand_counts") or [0, 0]
        for p in (0, 1):
            if p == me:
                self.hands[p] = list(obs["hand"])
            else:
                self.hands[p] = [HIDDEN] * counts[p] + [None] * (5 - counts[p])
        self.draw = [[None] * n for n in obs["draw_counts"]]
        self.side = [[None] * n for n in obs["side_counts"]]
        self.piles = [
            self._pile(j, top, size)
            for j, (top, size) in enumerate(zip(obs["pile_tops"], obs["pile_sizes"], strict=True))
        ]
        self.centre = (
            [None, None] if self.phase is Phase.OPENING and not any(obs["pile_sizes"]) else []
        )
        self.called = list(obs["ready"])

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


class _Link:
    """Stands where a local session has its arbiter: sends presses, returns outcomes."""

    def __init__(self, view: RemoteSession) -> None:
        self.view = view
        self.outcomes: list[Outcome] = []
        self.paused = False
        self.deadline: tuple[float, TimerKind] | None = None

    def submit(self, action: Action, at: float | None = None) -> None:
        self.view._send_press(action, self.view.clock() if at is None else at)

    def tick(self, now: float | None = None) -> list[Outcome]:
        out, self.outcomes = self.outcomes, []
        return out

    def pause(self, now: float | None = None) -> None:
        """A network game runs on at the host: nothing to stop here."""

    def resume(self, now: float | None = None) -> None:
        """See ``pause``."""

    def timer(self) -> tuple[float, TimerKind] | None:
        return self.deadline

    def next_deadline(self) -> float | None:
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
        # Not Session.__init__: there is no local game or arbiter. The fields the
        # inherited methods use are set here; the game arrives with "welcome".
        self.send = send
        self.keymap = keymap or KeyMap.default()
        self.clock = clock or time.monotonic
        self.link = _Link(self)
        self.arbiter = self.link  # the host judges: the link is this session's Referee
        self.shadow = ShadowGame("spit", SpitConfig())
        self.game = self.shadow  # read through GameView, like a local session's Game
        self.config: SpitConfig | SpeedConfig = SpitConfig()
        self.names = ("Player 1", "Player 2")
        self.agents = {}
        self.version = 0
        self.narrator = Narrator(self.game, self.names)
        self.narrator.news = "Connecting to the host..."
        self.inputs = []
        self._last_press = {}
        self._shown_countdown = None
        self.listeners = []
        self.levels = {}
        self.archiver = None
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
        self._pending: dict[int, Action] = {}
        self._obs: dict[str, Any] | None = None
        self._paused_until: float | None = None
        self._shown_rejoin: int | None = None  # the rejoin countdown's second on screen

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
        if self.seat is None or self.send is None:
            now = at if now is None else now
            self._set_flash("you are watching: keys do nothing here", None, now)
            return True
        now = at if now is None else now
        if not 0 <= now - at <= 1.0:
            at = now  # a key time from another clock (or none): the press is now
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
        if self.send is None:
            return
        msg_id = self.send(action, at)
        self._pending[msg_id] = action
        self._show_pending()
        self.version += 1

    def _show_pending(self) -> None:
        """Show pending presses at once: a played card leaves its slot for the pile,
        a moved one goes to the empty slot, a call shows as made (slaps and choices
        show in the status line, see ``pending_words``)."""
        game = self.shadow
        for action in self._pending.values():
            p, s, t = action.player, action.source, action.target
            if action.kind is Kind.CALL and p in (0, 1):
                game.called[p] = True
                continue
            if action.kind is Kind.MOVE and game.mode != "speed":
                stocks = game.stocks[p]
                empty = next((i for i, pile in enumerate(stocks) if not pile), None)
                top = stocks[s][-1] if 0 <= s < len(stocks) and stocks[s] else None
                if empty is not None and top is not None:
                    stocks[empty] = [top]
                    stocks[s] = stocks[s][:-1]
                continue
            if action.kind is not Kind.PLAY:
                continue
            if game.mode == "speed":
                hand = game.hands[p]
                if 0 <= s < len(hand) and hand[s] is not None and hand[s] != HIDDEN:
                    game.piles[t] = [*game.piles[t], hand[s]]
                    hand[s] = None
            else:
                stocks = game.stocks[p]
                if 0 <= s < len(stocks) and stocks[s] and stocks[s][-1] is not None:
                    game.piles[t] = [*game.piles[t], stocks[s][-1]]
                    stocks[s] = stocks[s][:-1]

    def pending_words(self) -> str:
        """The presses sent and not yet judged, in words ("" if none)."""
        words = []
        for action in self._pending.values():
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
        self.config = proto.config_from_json(msg["mode"], msg["config"])
        self.shadow = ShadowGame(msg["mode"], self.config)
        self.game = self.shadow
        self._set_names(msg["names"])
        self.seat = msg["seat"]
        self.bottom_player = self.seat if self.seat is not None else 0
        self.started = all(msg.get("seats", [False]))
        self.narrator = Narrator(self.game, self.names)
        self.narrator.news = "Waiting for the other player..." if not self.started else ""

    def _on_state(self, msg: dict[str, Any], now: float) -> None:
        obs = msg["obs"]
        proto.observation_from_json(obs, self.config)  # checks every field
        self._obs = obs
        self.shadow.update(obs)
        self.link.deadline = _timer(obs.get("timer"), now)
        self._show_pending()

    def _on_verdict(self, msg: dict[str, Any], now: float) -> None:
        action = self._pending.pop(msg["id"], None)
        if action is None:
            return
        if not msg["ok"]:
            if self._obs is not None:
                self.shadow.update(self._obs)  # the card snaps back
                self._show_pending()
            self.link.outcomes.append(Rejected(now, action, msg.get("reason", "refused")))

    def _on_events(self, msg: dict[str, Any], now: float) -> None:
        events: list[Event] = proto.events_from_json(msg["events"])
        raw = msg.get("action")
        if not raw:
            return
        action = proto.any_action(raw)
        self.link.outcomes.append(Applied(now, action, events, msg.get("by") is None))

    def _on_paused(self, msg: dict[str, Any], now: float) -> None:
        self.link.paused = True
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
        self.notice = ""
        self.choice = None
        self._paused_until = None
        if self.news.startswith("Waiting"):
            self.narrator.news = "Both players are here: play!"

    def _on_choose(self, msg: dict[str, Any], now: float) -> None:
        self.choice = msg["seat"]
        self._paused_until = None
        self.notice = (
            f"{self.names[msg['seat']]} did not come back: Enter lets the computer "
            "play their seat, Esc saves the match on the host"
        )

    def _on_over(self, msg: dict[str, Any], now: float) -> None:
        self.shadow.phase = Phase.GAME_OVER
        self.shadow.winner = msg["winner"]
        self.narrator.news = msg["text"]

    def _on_replay(self, msg: dict[str, Any], now: float) -> None:
        self.replay_data = msg["data"]

    def _on_bye(self, msg: dict[str, Any], now: float) -> None:
        self.ended = msg["reason"]

    def _on_error(self, msg: dict[str, Any], now: float) -> None:
        self._set_flash(f"host: {msg['reason']}", None, now)

    def lost(self, reason: str) -> None:
        """The connection ended (the host quit, or the network failed)."""
        if self.ended is None:
            self.ended = reason
        self.link.paused = True
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
            return f"{self.news}  Esc: menu."
        paused = bool(self.link.paused)
        text = status_text(self.game, self.names, self.countdown(now), paused, self.stalled)
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
