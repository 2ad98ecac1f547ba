"""Headless simulation: bots play bots through the arbiter on a simulated clock.

No wall time passes inside a game: a fake clock jumps straight to the
arbiter's next deadline (a bot's planned action, a timer), so a game that
lasts minutes at the table takes milliseconds here. Every game ends: by R20,
P6/H5 in Speed, V4's target score, or H4's round limit (a draw).

Games are played by ``schedule.Scheduler``: the same engine, input order,
ties and timers as the ``Arbiter``, without what only people need (tests
compare the two game by game); a game asked for with ``reference=True`` goes
through the ``Arbiter`` itself, as the app plays.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import pickle
import signal
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from spit.bots import LEVELS, make_bot
from spit.bots.bot import Bot
from spit.bots.schedule import Scheduler, Stuck
from spit.engine import AnyGame, Kind, Phase, Result, get_mode
from spit.realtime.arbiter import Arbiter, LogEntry, Timing
from spit.realtime.clock import ManualClock

#: H4 ends a game by its round limit as a draw; the result string it leaves.
ROUND_LIMIT = Result.ROUND_LIMIT
#: A game that needs more arbiter steps than this is a bug, not a long game.
MAX_STEPS = 5_000_000


class FinishedRun(Protocol):
    """How a finished game was played, besides the game itself: its ``Arbiter``,
    or for a scheduled game (``schedule.Scheduled``) the same log and start."""

    @property
    def log(self) -> list[LogEntry]:
        """Every applied action with its time, in order (the replay log)."""

    @property
    def start_time(self) -> float:
        """The game clock's reading at the start."""


#: Called with each finished game, how it was played (its arbiter, or the
#: scheduler's equivalent) and its index in the series.
FinishHook = Callable[[AnyGame, FinishedRun, int], None]


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
        strategy, colon, reaction = text.strip().lower().partition(":")
        if colon and not reaction:
            raise ValueError(
                f"{text.strip()!r} has nothing after ':'; give LEVEL or STRATEGY:REACTION "
                f"(levels: {', '.join(LEVELS)})"
            )
        reaction = reaction or strategy
        for name in (strategy, reaction):
            if name not in LEVELS:
                raise ValueError(f"unknown level {name!r}; choose from {', '.join(LEVELS)}")
        return cls(strategy, reaction)

    def __str__(self) -> str:
        if self.strategy == self.reaction:
            return self.strategy
        return f"{self.strategy}:{self.reaction}"


@dataclass(frozen=True, slots=True)
class GameResult:
    """How one simulated game ended."""

    winner: int | None
    result: Result
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


def new_game(
    mode: str, variants: Sequence[str], seed: int, round_limit: int | None = None
) -> AnyGame:
    """A fresh game of ``mode`` with the given variant ids (and H4 round limit).

    Raises ValueError (a ConfigError) naming the choices for an unknown mode or variant.
    """
    extra = {} if round_limit is None else {"round_limit": round_limit}
    info = get_mode(mode)
    return info.new_game(info.config(variants, **extra), seed)


def play_game(
    seats: tuple[Seat, Seat],
    mode: str = "spit",
    variants: Sequence[str] = (),
    seed: int = 0,
    index: int = 0,
    timing: Timing | None = None,
    round_limit: int | None = None,
    on_finish: FinishHook | None = None,
    reference: bool = False,
) -> GameResult:
    """Play game number ``index`` of a series to its end and report it.

    ``on_finish(game, run, index)`` is called once the game is over (the
    command line uses it to save replays; this layer writes no files): ``run``
    is the arbiter, or for a game played by the scheduler a ``Scheduled`` with
    the same ``log`` and ``start_time``, and ``game`` the finished game.
    ``reference`` plays through the arbiter (the result is the same; tests
    compare them).
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
    return play_with(game, agents, timing, index, on_finish, reference)


def play_with(
    game: AnyGame,
    agents: Mapping[int, Bot],
    timing: Timing | None = None,
    index: int = 0,
    on_finish: FinishHook | None = None,
    reference: bool = False,
) -> GameResult:
    """Play a freshly dealt ``game`` between two bots (``agents`` by player) to its end.

    The game is played by the scheduler, or with ``reference`` through the
    arbiter. ``index`` names the game in messages and for ``on_finish`` (see
    ``play_game``).
    """
    if reference:
        return _play_reference(game, agents, timing, index, on_finish)
    scheduler = Scheduler(game, (agents[0], agents[1]), timing)
    try:
        scheduler.run(MAX_STEPS)
    except Stuck as exc:
        raise SimulationError(f"game {index}: {exc}") from exc
    if on_finish is not None:
        on_finish(game, scheduler.finished(), index)
    return GameResult(game.winner, game.result, game.round_no, scheduler.moves, scheduler.now)


def _play_reference(
    game: AnyGame,
    agents: Mapping[int, Bot],
    timing: Timing | None,
    index: int,
    on_finish: FinishHook | None,
) -> GameResult:
    """Play a game through the arbiter, the way the app does."""
    clock = ManualClock(0.0)
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


#: Below this many games per process, starting a process costs more than it saves.
MIN_GAMES_PER_JOB = 25


def default_jobs(games: int | None = None) -> int:
    """Worker processes to use by default: every core (fewer for a short run of ``games``)."""
    cores = max(1, os.cpu_count() or 1)
    if games is None:
        return cores
    return max(1, min(cores, games // MIN_GAMES_PER_JOB))


#: A batch of games for one worker, as plain data only (it crosses to a spawned
#: process): (series, P1 seat, P2 seat, mode, variants, run seed, first index,
#: end index, H4 round limit or None).
Batch = tuple[int, str, str, str, tuple[str, ...], int, int, int, int | None]
#: One game's result as plain data: (winner, result, rounds, moves, seconds).
ResultRow = tuple[int | None, Result, int, int, float]

_worker_hook: FinishHook | None = None


def _init_worker(hook: FinishHook | None) -> None:
    """Set up a worker process: the finish hook its games call (if any)."""
    global _worker_hook
    _worker_hook = hook


def _start_worker(hook: FinishHook | None) -> None:
    """Set up a worker process: ctrl+c is the parent's to handle (it stops the
    pool), so a worker never prints a traceback of its own."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _init_worker(hook)


def _play_batch(batch: Batch) -> tuple[int, int, list[ResultRow]]:
    """Play a batch of games (in a worker or in this process); plain data in and out."""
    series, p1, p2, mode, variants, seed, start, stop, round_limit = batch
    seats = (Seat.parse(p1), Seat.parse(p2))
    rows: list[ResultRow] = []
    for index in range(start, stop):
        r = play_game(seats, mode, variants, seed, index, None, round_limit, _worker_hook)
        rows.append((r.winner, r.result, r.rounds, r.moves, r.seconds))
    return series, start, rows


def _batches(
    series: int,
    seats: tuple[Seat, Seat],
    games: int,
    seed: int,
    mode: str,
    variants: Sequence[str],
    round_limit: int | None,
    size: int,
) -> list[Batch]:
    p1, p2 = str(seats[0]), str(seats[1])
    return [
        (series, p1, p2, mode, tuple(variants), seed, start, min(games, start + size), round_limit)
        for start in range(0, games, size)
    ]


def batch_size(games: int, jobs: int) -> int:
    """Games per batch: small enough to share the work out evenly (the last
    batches keep every worker busy to the end) and move the progress bar, large
    enough that sending a batch and its results (a few hundred bytes) costs little."""
    if jobs <= 1:
        return 1
    return max(1, min(20, games // (jobs * 16) or 1))


def start_method() -> str:
    """How worker processes start: ``fork`` where the platform has it and this
    process runs no other thread (a forked worker starts at once, with every
    module already loaded), else ``spawn`` (a fresh interpreter that imports
    the simulator first, which costs a few tenths of a second per worker)."""
    if "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1:
        return "fork"
    return "spawn"


def _picklable(value: object) -> bool:
    try:
        pickle.dumps(value)
    except (pickle.PicklingError, TypeError, AttributeError):
        return False
    return True


def run_batches(
    batches: Sequence[Batch],
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    on_finish: FinishHook | None = None,
) -> dict[int, list[GameResult]]:
    """Play every batch, on ``jobs`` processes, and return each series' results in order.

    The results do not depend on ``jobs``: every game's deal and bots are
    seeded from its run seed and index alone. With ``jobs`` above 1 the games
    run in worker processes (``start_method``); ``on_finish`` must then be
    picklable (a top-level function or an instance of a top-level class),
    else the games run here. ``progress(done)`` is called as games finish.
    """
    if jobs > 1 and on_finish is not None and not _picklable(on_finish):
        jobs = 1
    jobs = max(1, min(jobs, len(batches)))
    found: dict[tuple[int, int], list[ResultRow]] = {}
    done = 0
    if jobs == 1:
        _init_worker(on_finish)
        try:
            for batch in batches:
                series, start, rows = _play_batch(batch)
                found[(series, start)] = rows
                done += len(rows)
                if progress is not None:
                    progress(done)
        finally:
            _init_worker(None)
    else:
        context = multiprocessing.get_context(start_method())
        with context.Pool(jobs, initializer=_start_worker, initargs=(on_finish,)) as pool:
            for series, start, rows in pool.imap_unordered(_play_batch, batches):
                found[(series, start)] = rows
                done += len(rows)
                if progress is not None:
                    progress(done)
    out: dict[int, list[GameResult]] = {}
    for (series, _), rows in sorted(found.items()):
        out.setdefault(series, []).extend(GameResult(*row) for row in rows)
    return out


def check_setup(mode: str, variants: Sequence[str], round_limit: int | None = None) -> None:
    """Raise ValueError (or ConfigError) for an unknown mode or variant."""
    new_game(mode, variants, 0, round_limit)


def canonical_variants(mode: str, variants: Sequence[str]) -> tuple[str, ...]:
    """Variant ids as the rules spell them (``'v3'`` becomes ``'V3'``)."""
    return tuple(get_mode(mode).known_variants(v.strip() for v in variants))


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
    jobs: int = 1,
    reference: bool = False,
) -> Summary:
    """Play ``games`` games; ``progress(done)`` is called as games finish.

    ``on_finish`` is passed to ``play_game`` for every game. With ``jobs``
    above 1 the games are shared out among that many processes (see
    ``run_batches``); the results are the same for any number of jobs. A
    custom ``timing``, or ``reference`` (every game through the arbiter, see
    ``play_game``), runs here, in one process.
    """
    if games < 1:
        raise ValueError("the number of games must be at least 1")
    check_setup(mode, variants, round_limit)  # check the mode and variants before starting
    summary = Summary(seats, mode, canonical_variants(mode, variants), seed)
    start = time.perf_counter()
    if timing is not None or reference:
        for index in range(games):
            result = play_game(
                seats, mode, variants, seed, index, timing, round_limit, on_finish, reference
            )
            summary.results.append(result)
            if progress is not None:
                progress(index + 1)
    else:
        size = batch_size(games, jobs)
        batches = _batches(0, seats, games, seed, mode, variants, round_limit, size)
        summary.results = run_batches(batches, jobs, progress, on_finish)[0]
    summary.wall_seconds = time.perf_counter() - start
    return summary
