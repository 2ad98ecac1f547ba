"""What Spit and Speed share: phases, the action log, JSON form and fingerprints."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from enum import StrEnum
from typing import Any, ClassVar, Generic, Protocol, Self, TypeAlias, TypeVar

from spit.engine.actions import PLAYERS, SYSTEM, Action, Kind, call, choose, move, play, slap
from spit.engine.cards import fits
from spit.engine.errors import ConfigError, IllegalAction, ReplayError
from spit.engine.events import CardMoved, CardPlayed, Event, GameOver, PhaseChanged, Spat, Stalemate
from spit.engine.modes import Mode, get_mode
from spit.engine.results import Result
from spit.engine.rng import Rng, shuffled_deck

SAVE_FORMAT = "spit-game"
SAVE_VERSION = 1


class Phase(StrEnum):
    """Where a game is. Only some actions are legal in each phase."""

    OPENING = "opening"  #: waiting for "spit!" calls (R5, H2) or, in Speed, "ready" (P2)
    PLAY = "play"  #: simultaneous play (R6, P3)
    STALEMATE = "stalemate"  #: stuck: waiting for spit calls (R13) or, in Speed, the flip (P4)
    SLAP = "slap"  #: end of a two-pile round: slap a pile (R16)
    CHOOSE = "choose"  #: V2: the player who emptied their layout chooses a pile
    GAME_OVER = "game_over"  #: won (R20, P6, H5, V4, P7) or drawn (H4)


_OVER = Phase.GAME_OVER
_K_CLOSE = Kind.CLOSE
_new = tuple.__new__  # builds an event (a NamedTuple) without its Python-level __new__
#: each phase's ``PhaseChanged`` event, made once and shared (events are immutable)
_PHASE_CHANGES = {phase: PhaseChanged(phase.value) for phase in Phase}


class GameConfig(Protocol):
    """What every mode's rules configuration offers (a frozen dataclass in practice)."""

    @property
    def alternating_colours(self) -> bool:
        """V3: a card must also be of the other colour."""

    @property
    def target_score(self) -> int:
        """The score that ends a match (0: no match, in Speed)."""

    @property
    def round_limit(self) -> int:
        """H4: rounds (or deals) before a draw."""

    @property
    def variants(self) -> tuple[str, ...]:
        """The optional rule ids in force."""

    @property
    def match(self) -> bool:
        """True for a match of rounds scored to the target; False for a single game."""

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-ready form."""


ConfigT = TypeVar("ConfigT", bound=GameConfig)
ObservationT = TypeVar("ObservationT")


class Game(ABC, Generic[ConfigT, ObservationT]):
    """A game of one mode. Mutable: ``apply`` changes it in place.

    Generic over its rules configuration and what a player may see of it
    (``observation``). Subclasses implement ``check`` (raise IllegalAction
    with the reason, change nothing) and ``_perform`` (change the state,
    return the events).
    """

    mode: ClassVar[str]
    #: the kinds of action a player may try in each phase (the engine still checks each)
    PLAYER_KINDS: ClassVar[dict[Phase, tuple[Kind, ...]]]
    config: ConfigT
    seed: int
    rng: Rng
    phase: Phase
    round_no: int
    called: list[bool]
    scores: list[int]
    games_won: list[int]
    winner: int | None
    result: Result
    actions: list[Action]
    #: the two spit piles, bottom to top
    piles: list[list[int]]
    #: the events of the first deal (made by the constructor, before any action)
    opening_events: list[Event]
    #: bumped whenever the phase changes or a stalemate is declared (the
    #: ``PhaseChanged`` and ``Stalemate`` events): the timers' waits start there
    phase_count: int
    #: bumped whenever a card is played, moved or spat: the stall wait (H6) restarts
    progress_count: int

    @abstractmethod
    def __init__(
        self, config: ConfigT | None = None, seed: int = 0, cards: Sequence[Any] | None = None, /
    ) -> None:
        """Deal from ``seed``, or from the given starting cards (each mode reads them its way)."""

    def _start(self, config: ConfigT | None, config_type: type[ConfigT], seed: int) -> None:
        """Set up what every mode has: config, seed, generator, log, scores, result."""
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
            raise ConfigError(f"seed must be a whole number from 0 to 2**64-1, got {seed!r}")
        self.config = config if config is not None else config_type()
        if not isinstance(self.config, config_type):
            raise ConfigError(f"config must be a {config_type.__name__}")
        self.seed = seed
        self.rng = Rng(seed)
        self.actions = []
        self.called = [False, False]
        self.round_no = 0
        self.scores = [0, 0]
        self.games_won = [0, 0]
        self.winner = None
        self.result = Result.NONE
        self.phase = Phase.OPENING
        self.phase_count = 0
        self.progress_count = 0

    def apply(self, action: Action) -> list[Event]:
        """Apply ``action`` and return the events it caused.

        Raises IllegalAction (leaving the state unchanged) if the rules do not
        allow it now.
        """
        self.check(action)
        events = self._perform(action)
        self.actions.append(action)
        self._saw(events)
        return events

    def _saw(self, events: list[Event]) -> None:
        """Move ``phase_count`` and ``progress_count`` for the ``events`` of an action:
        a phase change or a stalemate, and a card played, moved or spat. (A mode
        that applies actions without building events counts them itself.)"""
        for event in events:
            kind = type(event)
            if kind is PhaseChanged or kind is Stalemate:
                self.phase_count += 1
            elif kind is CardPlayed or kind is CardMoved or kind is Spat:
                self.progress_count += 1

    def step(self, action: Action) -> bool:
        """Apply ``action`` if the rules allow it now, without listing its events.

        Returns False, leaving the state unchanged, if they do not. For callers
        that nobody watches (the simulator); a mode may do this without building
        any event (``SpitGame`` does).
        """
        try:
            self.apply(action)
        except IllegalAction:
            return False
        return True

    def is_legal(self, action: Action) -> bool:
        """True if ``action`` may be applied now."""
        try:
            self.check(action)
        except ValueError:
            return False
        return True

    @property
    def info(self) -> Mode:
        """This game's mode: its name, classes, variants and table shape."""
        return get_mode(self.mode)

    @property
    def is_match(self) -> bool:
        """True for a match of rounds scored to a target (V4, P7), where a won
        game does not end the match; False for a single game."""
        return bool(self.config.match)

    def fits(self, card: int, onto: int) -> bool:
        """True if ``card`` may be played onto a pile showing ``onto`` (R8, V3)."""
        return fits(card, onto, bool(self.config.alternating_colours))

    @staticmethod
    def move_slot(cards: Sequence[int | None]) -> int | None:
        """Where a moved card lands among a player's columns (their face-up cards,
        None for an empty one): the leftmost empty column (R10), or None if none is."""
        try:
            return cards.index(None)  # (one scan, up to the first empty column)
        except ValueError:
            return None

    def player_kinds(self) -> tuple[Kind, ...]:
        """The kinds of action a player may try now (``check`` still decides each one)."""
        return self.PLAYER_KINDS[self.phase]

    def action_for(self, player: int, column: int | None, pile: int | None) -> Action | None:
        """The action one of a player's controls means now, or None if it means nothing.

        A control names a ``column`` (stock or hand slot) and a spit ``pile``
        (play, slap or choose that pile), a column alone (move it, R10), or
        neither (the call control). Where the only thing to do is to call
        (the opening, a Spit stalemate: H2) every control calls. The action may
        still be illegal: ``check`` says why.
        """
        kinds = self.player_kinds()
        if kinds == (Kind.CALL,):
            return call(player)
        if column is not None and pile is not None and Kind.PLAY in kinds:
            return play(player, column, pile)
        if column is not None and pile is None and Kind.MOVE in kinds:
            return move(player, column)
        if pile is not None and Kind.SLAP in kinds:
            return slap(player, pile)
        if pile is not None and Kind.CHOOSE in kinds:
            return choose(player, pile)
        if column is None and pile is None and Kind.CALL in kinds:
            return call(player)
        return None

    @property
    def over(self) -> bool:
        """True once the game (or match) has ended."""
        return self.phase is _OVER

    def _check_sender(self, kind: Kind, player: int) -> bool:
        """The checks every mode makes first (``_sender_refusal``), raising
        IllegalAction. Returns True for a timing action (the mode then checks its phase)."""
        reason = self._sender_refusal(kind, player)
        if reason is not None:
            raise IllegalAction(reason)
        return kind >= Kind.CLOSE

    def _sender_refusal(self, kind: Kind, player: int) -> str | None:
        """Why ``player`` may not send an action of ``kind`` at all now, or None: the
        game is over, or timing actions come from SYSTEM only and the others from a
        player."""
        if self.phase is _OVER:
            return "the game is over"
        if kind >= _K_CLOSE:
            if player != SYSTEM:
                return f"only the game itself may {kind.name.lower()}"
            return None
        if player not in PLAYERS:
            return f"no player {player}"
        return None

    def _set_phase(self, events: list[Event] | None, phase: Phase) -> None:
        """Enter ``phase`` (``events`` None: nobody listens, no event is made)."""
        self.phase = phase
        self.phase_count += 1
        if events is not None:
            events.append(_PHASE_CHANGES[phase])

    def _finish(self, events: list[Event] | None, winner: int | None, reason: Result) -> None:
        """End the game (or match): ``winner`` None is a draw."""
        self.winner = winner
        self.result = reason
        if events is not None:
            events.append(GameOver(winner, reason))
        self._set_phase(events, Phase.GAME_OVER)

    def _fresh_deck(self) -> list[int]:
        """The 52 cards shuffled by the game's own generator (R2, P1)."""
        return shuffled_deck(self.rng)

    @abstractmethod
    def check(self, action: Action) -> None:
        """Raise IllegalAction naming the reason if ``action`` is not legal now."""

    @abstractmethod
    def _perform(self, action: Action) -> list[Event]:
        """Carry out a checked action."""

    @abstractmethod
    def legal_actions(self, player: int | None = None) -> list[Action]:
        """Sorted legal actions of ``player`` (0, 1 or SYSTEM); None: both players."""

    def has_legal_action(self, player: int) -> bool:
        """True if ``player`` (0 or 1) has any legal action now (a mode may answer faster)."""
        return bool(self.legal_actions(player))

    @abstractmethod
    def observation(self, player: int) -> ObservationT:
        """What ``player`` may know of the state (all a bot ever sees)."""

    @abstractmethod
    def columns(self, player: int) -> list[tuple[int | None, int]]:
        """Each of a player's face-up places (stock or hand slot), left to right:
        its face-up card (None: empty) and how many cards lie under it."""

    @abstractmethod
    def reserve_size(self, player: int) -> int:
        """Cards the player holds face down besides the columns (spit cards, draw pile)."""

    def pile_in_use(self, pile: int) -> bool:
        """True if ``pile`` is played on this round (a mode may leave one out, R18)."""
        return True

    def side_pile_sizes(self) -> tuple[int, int] | None:
        """Cards in each side pile (Speed's P4), or None in a mode without them."""
        return None

    def centre_face_down(self) -> bool:
        """True while face-down centre cards wait to be turned up (Speed's P2)."""
        return False

    @abstractmethod
    def state_key(self) -> tuple[object, ...]:
        """Every fact of the state as nested tuples of ints and strings."""

    @abstractmethod
    def start_cards_json(self) -> object:
        """The given starting card order in plain form, or None if dealt from the seed."""

    @classmethod
    def from_start(cls, config: ConfigT, seed: int, cards: object) -> Self:
        """Rebuild the starting position of a saved game (see ``to_json``).

        ``cards`` is what ``start_cards_json`` gave (None: dealt from the seed);
        whatever the constructor refuses becomes a ReplayError.
        """
        if cards is not None and not isinstance(cards, list):
            raise ReplayError("the starting cards must be a list")
        try:
            if cards is None:
                return cls(config, seed)
            return cls(config, seed, cards)
        except ConfigError as exc:
            raise ReplayError(str(exc)) from exc

    def copy(self) -> Self:
        """An independent copy. No deepcopy: the state is small lists of ints
        (and immutable values), so nested lists are copied and the rest shared."""
        other = object.__new__(type(self))
        other.__dict__.update({k: _copy_lists(v) for k, v in self.__dict__.items()})
        other.rng = self.rng.copy()
        return other

    def fingerprint(self) -> str:
        """A stable hash of the whole state (same state, same string, on any machine)."""
        key = (
            self.mode,
            tuple(sorted(self.config.to_dict().items())),
            self.rng.state,
            self.state_key(),
        )
        import hashlib  # here: loading it (OpenSSL) is not worth it for games never saved

        return hashlib.blake2b(repr(key).encode(), digest_size=16).hexdigest()

    def to_json(self) -> dict[str, Any]:
        """The save/replay form: mode, config, seed, starting cards and actions."""
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "mode": self.mode,
            "config": self.config.to_dict(),
            "seed": self.seed,
            "cards": self.start_cards_json(),
            "actions": [a.to_json() for a in self.actions],
            "fingerprint": self.fingerprint(),
        }


#: A game of any mode (code that works with every mode, e.g. saving or the arbiter).
AnyGame: TypeAlias = Game[Any, Any]


def _copy_lists(value: Any) -> Any:
    """``value`` with every (nested) list copied; anything else is shared."""
    if isinstance(value, list):
        return [_copy_lists(v) for v in value]
    return value
