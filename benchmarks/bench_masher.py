"""Benchmark: does mashing keys pay? A blind masher against each computer level (H8).

The masher never looks at the cards: it presses its seat's game keys (every
play, move, call and slap key) one after another in a shuffled cycle, at a
steady rate, and each key means what the keyboard makes of it in the phase of
the moment (``spit.play.session.key_action``), exactly as a person's key.
Its presses go to the arbiter stamped at their time, so the arbiter judges
them as it judges a keyboard; the computer plays through the arbiter as an
agent. Every game is Spit, played on a fake clock, the masher's seat
alternating game by game.

For comparison each level also plays itself through the arbiter, with fumbles
on and off on the same seeds: player 1's win rate is the seat bias, and the
difference between on and off is what fumbles change for the computers.

Run: ``PYTHONPATH=src python3 benchmarks/bench_masher.py [--games N]
[--goal-games N] [--mirror-games N] [--goal-only]`` (defaults 20 games per
masher pairing, 100 against medium and hard with H8 on, the goal figures, and
100 per mirror pairing: about two minutes on an idle machine, five on a
busy one; ``--goal-only`` plays only the goal pairings, for a long run). A
game that reaches ``MAX_GAME_TIME`` seconds of game time stops and counts for
nobody.
The last line is the figure: the masher's best win rate against medium and
hard with fumbles on, e.g. ``masher best win rate vs medium/hard with H8: 1.0%``.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from dataclasses import replace

from spit.bots import LEVELS, make_bot
from spit.bots.sim import new_game
from spit.engine import AnyGame
from spit.play.keys import Binding, KeyMap
from spit.play.session import key_action
from spit.realtime.arbiter import Arbiter, Timing
from spit.realtime.clock import ManualClock

RATES = (12.0, 25.0)  #: keys per second
#: A game still going after this much game time stops and counts for nobody.
MAX_GAME_TIME = 3600.0
ON = Timing()  # H8 at its defaults: 0.5 s fumble time, 0.25 s race margin
OFF = replace(ON, fumble_time=0.0)


def seat_keys(player: int) -> list[Binding]:
    """Every game key of ``player`` in the default key map."""
    keymap = KeyMap.default()
    found = [keymap.lookup(key) for key in keymap.keys[player].values()]
    return [b for b in found if b is not None]


class Masher:
    """Presses ``player``'s keys blind, ``rate`` a second, in a reshuffled cycle."""

    def __init__(self, player: int, rate: float, seed: int) -> None:
        self.keys = seat_keys(player)
        self.gap = 1.0 / rate
        self.rng = random.Random(seed)
        self.cycle: list[Binding] = []
        self.presses = 0

    def key(self) -> Binding:
        """The next key to press."""
        if not self.cycle:
            self.cycle = list(self.keys)
            self.rng.shuffle(self.cycle)
        self.presses += 1
        return self.cycle.pop()


def play_masher(level: str, rate: float, timing: Timing, seed: int) -> int | None:
    """One game of the masher against ``level``; returns the winner: 1 masher,
    0 the computer, None a draw or a game that did not end."""
    masher_seat = seed % 2
    bot_seat = 1 - masher_seat
    game = new_game("spit", (), seed)
    clock = ManualClock(0.0)
    bot = make_bot(level, bot_seat, seed=seed * 7 + 1, mode="spit")
    arbiter = Arbiter(game, timing, clock, {bot_seat: bot})
    masher = Masher(masher_seat, rate, seed * 7 + 2)
    press = masher.gap
    while not game.over and clock.now < MAX_GAME_TIME:
        deadline = arbiter.next_deadline()
        if deadline is None or press <= deadline:
            clock.now = press
            action = key_action(game, masher.key())
            if not isinstance(action, str):
                arbiter.submit(action, at=press)
            press += masher.gap
        else:
            clock.now = deadline
        arbiter.tick(clock.now)
    return _winner(game, masher_seat)


def play_mirror(level: str, timing: Timing, seed: int) -> int | None:
    """One game of ``level`` against itself; returns the winner's seat (None: none)."""
    game = new_game("spit", (), seed)
    clock = ManualClock(0.0)
    agents = {p: make_bot(level, p, seed=seed * 7 + 1 + p, mode="spit") for p in (0, 1)}
    arbiter = Arbiter(game, timing, clock, agents)
    while not game.over and clock.now < MAX_GAME_TIME:
        deadline = arbiter.next_deadline()
        if deadline is None:
            break
        clock.now = max(clock.now, deadline)
        arbiter.tick(clock.now)
    return game.winner if game.over else None


def _winner(game: AnyGame, masher_seat: int) -> int | None:
    if not game.over or game.winner is None:
        return None
    return 1 if game.winner == masher_seat else 0


def interval(wins: int, games: int) -> tuple[float, float]:
    """The 95% Wilson interval of a win rate, in percent."""
    if games == 0:
        return (0.0, 100.0)
    z = 1.96
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (100 * max(0.0, centre - half), 100 * min(1.0, centre + half))


def masher_row(level: str, rate: float, games: int, goal_games: int) -> tuple[str, float]:
    """One line of masher results against ``level`` at ``rate``, and the win rate with H8."""
    parts = []
    rate_on = 0.0
    for name, timing in (("H8 off", OFF), ("H8 on", ON)):
        n = goal_games if timing is ON and level in GOAL_LEVELS else games
        results = [play_masher(level, rate, timing, seed) for seed in range(n)]
        wins = results.count(1)
        low, high = interval(wins, n)
        parts.append(
            f"{name}: {wins:3}/{n} = {100 * wins / n:5.1f}% [{low:4.1f}-{high:5.1f}]"
            + (f" ({results.count(None)} unfinished)" if None in results else "")
        )
        if timing is ON:
            rate_on = 100 * wins / n
    return f"  vs {level:6} at {rate:2g} keys/s  " + "  ".join(parts), rate_on


def mirror_row(level: str, games: int) -> str:
    """``level`` against itself with H8 off and on, on the same seeds."""
    off = [play_mirror(level, OFF, seed) for seed in range(games)]
    on = [play_mirror(level, ON, seed) for seed in range(games)]
    rates = []
    for results in (off, on):
        decided = [r for r in results if r is not None]
        rates.append(100 * decided.count(0) / len(decided) if decided else float("nan"))
    differ = sum(a != b for a, b in zip(off, on, strict=True))
    return (
        f"  {level:6} v itself: player 1 wins {rates[0]:5.1f}% (H8 off), {rates[1]:5.1f}% "
        f"(H8 on): moved {rates[1] - rates[0]:+.1f} points; {differ} of {games} games differ"
    )


def goal_only(games: int) -> None:
    """The masher against medium and hard with H8 on, and nothing else."""
    start = time.perf_counter()
    print(f"Spit through the arbiter, H8 on; {games} games per pairing")
    best: tuple[float, str] = (-1.0, "")
    for level in GOAL_LEVELS:
        for rate in RATES:
            results = [play_masher(level, rate, ON, seed) for seed in range(games)]
            wins = results.count(1)
            low, high = interval(wins, games)
            print(
                f"  vs {level:6} at {rate:2g} keys/s: masher wins {wins}/{games} = "
                f"{100 * wins / games:.1f}% [{low:.1f}-{high:.1f}], "
                f"{results.count(None)} unfinished",
                flush=True,
            )
            best = max(best, (100 * wins / games, f"{level} at {rate:g} keys/s"))
    print(f"({time.perf_counter() - start:.0f} s)")
    print(f"masher best win rate vs medium/hard with H8: {best[0]:.1f}% ({best[1]})")


#: The levels the goal figure is about.
GOAL_LEVELS = ("medium", "hard")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per masher pairing")
    parser.add_argument(
        "--goal-games", type=int, default=100, help="games against medium and hard with H8 on"
    )
    parser.add_argument("--mirror-games", type=int, default=100, help="games per mirror pairing")
    parser.add_argument(
        "--goal-only",
        action="store_true",
        help="only the goal pairings: the masher against medium and hard with H8 on",
    )
    args = parser.parse_args()
    if args.goal_only:
        goal_only(args.goal_games)
        return
    start = time.perf_counter()
    print(
        f"Spit through the arbiter; {args.games} games per masher pairing "
        f"({args.goal_games} against {' and '.join(GOAL_LEVELS)} with H8 on), "
        f"{args.mirror_games} per mirror pairing; win rates with 95% intervals"
    )
    print("a blind masher against each level (seats alternating):")
    best: tuple[float, str] = (-1.0, "")
    for level in LEVELS:
        for rate in RATES:
            line, rate_on = masher_row(level, rate, args.games, args.goal_games)
            print(line, flush=True)
            if level in GOAL_LEVELS:
                best = max(best, (rate_on, f"{level} at {rate:g} keys/s"))
    print("each level against itself (player 1's win rate: the seat bias):")
    for level in LEVELS:
        print(mirror_row(level, args.mirror_games), flush=True)
    print(f"({time.perf_counter() - start:.0f} s)")
    print(f"masher best win rate vs medium/hard with H8: {best[0]:.1f}% ({best[1]})")


if __name__ == "__main__":
    main()
