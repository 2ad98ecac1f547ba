"""Headless simulation: bots play bots through the arbiter on a simulated clock.

No wall time passes inside a game: a fake clock jumps straight to the
arbiter's next deadline (a bot's planned action, a timer), so a game that
lasts minutes at the table takes milliseconds here. Every game ends: by R20,
P6/H5 in Speed, V4's target score, or H4's round limit (a draw).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from spit.bots import LEVELS, MODES, make_bot
from spit.engine import Game, Kind, Phase, SpeedConfig, SpeedGame, SpitConfig, SpitGame
from spit.engine.config import SPEED_VARIANT_FIELDS, VARIANT_FIELDS
from spit.realtime.arbiter import Arbiter, Timing

#: H4 ends a game by its round limit as a draw; the result string it leaves.
ROUND_LIMIT = "round_limit"
#: A game that needs more arbiter steps than this is a bug, not a long game.
MAX_STEPS = 5_000_000

#: Called with each finished game, its arbiter and its index in the series.
FinishHook = Callable[[Game, Arbiter, int], None]


class SimulationError(RuntimeError):
    """A simulated game did not behave (it should always end)."""


@dataclass(frozen=True, slots=True)
class Seat:
    """Who plays one seat: a strategy level and a reaction-time level."""

    strategy: str
    reaction: str

    @classmethod
    def parse(cls, text: str) -> Seat:
        """``'hard'`` or ``'STRATEGY:REACTION'`` such as ``'expert:easy'``."""
        strategy, _, reaction = text.strip().lower().partition(":")
        reaction = reaction or strategy
        for name in (strategy, reaction):
            if name not in LEVELS:
                raise ValueError(f"unknown level {name!r}; choose from {', '.join(LEVELS)}")
        return cls(strategy, reaction)

    def __str__(self) -> str:
        if self.strategy == self.reaction:
            return self.strategy
        return f"{self.strategy}:{self.reaction}"


class FakeClock:
    """A clock that only moves when told to."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@dataclass(frozen=True, slots=True)
class GameResult:
    """How one simulated game ended."""

    winner: int | None
    result: str
    rounds: int
    moves: int
    seconds: float


@dataclass(slots=True)
class Summary:
    """Totals over many games."""

    seats: tuple[Seat, Seat]
    mode: str
    variants: tuple[str, ...]
    seed: int
    results: list[GameResult] = field(default_factory=list)
    wall_seconds: float = 0.0

    @property
    def games(self) -> int:
        """Games played."""
        return len(self.results)

    @property
    def wins(self) -> list[int]:
        """Games won by player 1 and by player 2."""
        return [sum(1 for r in self.results if r.winner == p) for p in (0, 1)]

    @property
    def draws(self) -> int:
        """Games without a winner (H4, or equal V4/P7/H5 totals)."""
        return sum(1 for r in self.results if r.winner is None)

    @property
    def round_limit_games(self) -> int:
        """Games that H4's round limit ended."""
        return sum(1 for r in self.results if r.result == ROUND_LIMIT)

    def _mean(self, values: Sequence[float]) -> float:
        return sum(values) / len(values) if values else 0.0

    @property
    def rounds_mean(self) -> float:
        """Mean rounds per game."""
        return self._mean([r.rounds for r in self.results])

    @property
    def moves_mean(self) -> float:
        """Mean card actions (plays and R10 moves) per game."""
        return self._mean([r.moves for r in self.results])

    @property
    def seconds_mean(self) -> float:
        """Mean simulated game length in seconds."""
        return self._mean([r.seconds for r in self.results])

    @property
    def games_per_s(self) -> float:
        """Games simulated per second of wall time."""
        return self.games / self.wall_seconds if self.wall_seconds > 0 else 0.0

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-ready figures."""
        return {
            "p1": str(self.seats[0]),
            "p2": str(self.seats[1]),
            "mode": self.mode,
            "variants": list(self.variants),
            "seed": self.seed,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "round_limit_games": self.round_limit_games,
            "rounds_mean": round(self.rounds_mean, 3),
            "moves_mean": round(self.moves_mean, 3),
            "seconds_mean": round(self.seconds_mean, 3),
            "games_per_s": round(self.games_per_s, 2),
        }


def derive_seed(seed: int, index: int, role: str) -> int:
    """A 63-bit seed for game ``index``'s ``role`` ('game', 'p1', 'p2'), stable everywhere."""
    digest = hashlib.blake2b(f"{seed}/{index}/{role}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def new_game(mode: str, variants: Sequence[str], seed: int, round_limit: int | None = None) -> Game:
    """A fresh game of ``mode`` with the given variant ids (and H4 round limit)."""
    extra = {} if round_limit is None else {"round_limit": round_limit}
    if mode == "spit":
        return SpitGame(SpitConfig.from_variants(list(variants), **extra), seed)
    if mode == "speed":
        flags: dict[str, object] = dict(extra)
        names = {k.upper(): v for k, v in SPEED_VARIANT_FIELDS.items()}
        for v in variants:
            name = names.get(v.strip().upper())
            if name is None:
                choices = ", ".join(SPEED_VARIANT_FIELDS)
                raise ValueError(f"unknown Speed variant {v!r}; choose from {choices}")
            flags[name] = True
        return SpeedGame(SpeedConfig(**flags), seed)  # type: ignore[arg-type]
    raise ValueError(f"unknown mode {mode!r}; choose from {', '.join(MODES)}")


def play_game(
    seats: tuple[Seat, Seat],
    mode: str = "spit",
    variants: Sequence[str] = (),
    seed: int = 0,
    index: int = 0,
    timing: Timing | None = None,
    round_limit: int | None = None,
    on_finish: FinishHook | None = None,
) -> GameResult:
    """Play game number ``index`` of a series to its end and report it.

    ``on_finish(game, arbiter, index)`` is called once the game is over (the
    command line uses it to save replays; this layer writes no files).
    """
    game = new_game(mode, variants, derive_seed(seed, index, "game"), round_limit)
    agents = {
        p: make_bot(
            seat.strategy,
            p,
            seed=derive_seed(seed, index, f"p{p + 1}"),
            mode=mode,
            reaction=seat.reaction,
        )
        for p, seat in enumerate(seats)
    }
    clock = FakeClock()
    arbiter = Arbiter(game, timing or Timing(), clock, agents)
    steps = 0
    next_deadline, tick = arbiter.next_deadline, arbiter.tick
    while game.phase is not Phase.GAME_OVER:
        deadline = next_deadline()
        if deadline is None:
            raise SimulationError(f"game {index} is stuck in phase {game.phase}")
        if deadline > clock.now:
            clock.now = deadline
        tick(clock.now)
        steps += 1
        if steps > MAX_STEPS:
            raise SimulationError(f"game {index} did not end within {MAX_STEPS} steps")
    if on_finish is not None:
        on_finish(game, arbiter, index)
    moves = sum(1 for _, a in arbiter.log if a.kind is Kind.PLAY or a.kind is Kind.MOVE)
    return GameResult(game.winner, game.result, game.round_no, moves, arbiter.elapsed(clock.now))


def simulate(
    seats: tuple[Seat, Seat],
    games: int,
    seed: int = 0,
    mode: str = "spit",
    variants: Sequence[str] = (),
    timing: Timing | None = None,
    progress: Callable[[int], None] | None = None,
    round_limit: int | None = None,
    on_finish: FinishHook | None = None,
) -> Summary:
    """Play ``games`` games; ``progress(done)`` is called after each one.

    ``on_finish`` is passed to ``play_game`` for every game.
    """
    if games < 1:
        raise ValueError("the number of games must be at least 1")
    new_game(mode, variants, 0, round_limit)  # check the mode and variants before starting
    canonical = {v.upper(): v for v in (*VARIANT_FIELDS, *SPEED_VARIANT_FIELDS)}
    names = tuple(canonical.get(v.strip().upper(), v) for v in variants)
    summary = Summary(seats, mode, names, seed)
    start = time.perf_counter()
    for index in range(games):
        result = play_game(seats, mode, variants, seed, index, timing, round_limit, on_finish)
        summary.results.append(result)
        if progress is not None:
            progress(index + 1)
    summary.wall_seconds = time.perf_counter() - start
    return summary
