"""Glicko-2 ratings: the maths only (no I/O, no clock).

Mark Glickman's system ("Example of the Glicko-2 system", 2013). A rating is
a number on the familiar Elo scale (1500 for a newcomer), a rating deviation
(RD: how uncertain the number is; about 95% of the time the true strength is
within two RDs) and a volatility (how erratic the player's results are).
A rating period is a batch of games; ``rate`` turns a rating and the results
of one period into the new rating. A period without games only widens the RD.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: Converts between the Elo-like scale and Glicko-2's internal scale (400 / ln 10).
SCALE = 173.7178
BASE_RATING = 1500.0
#: A newcomer's rating deviation and volatility (Glickman's suggestions).
INITIAL_RD = 350.0
INITIAL_VOLATILITY = 0.06
#: The system constant: how fast the volatility may change (0.3 to 1.2; smaller is steadier).
TAU = 0.5
#: The convergence tolerance of the volatility iteration.
EPSILON = 0.000001


@dataclass(frozen=True, slots=True)
class Rating:
    """A Glicko-2 rating: ``rating`` ± ``2 * rd`` is the 95% interval."""

    rating: float = BASE_RATING
    rd: float = INITIAL_RD
    volatility: float = INITIAL_VOLATILITY

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval, ``rating`` ± 2 RD."""
        return (self.rating - 2 * self.rd, self.rating + 2 * self.rd)


@dataclass(frozen=True, slots=True)
class Result:
    """One game of a period: the opponent's rating and RD, and the score (1, ½ or 0)."""

    opponent: float
    opponent_rd: float
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, g_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The score ``player`` is expected to make against ``opponent`` in one game."""
    mu = (player.rating - BASE_RATING) / SCALE
    mu_j = (opponent.rating - BASE_RATING) / SCALE
    return _expected(mu, mu_j, _g(opponent.rd / SCALE))


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm on f(x) = 0."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        bottom = 2.0 * (phi * phi + v + ex) ** 2
        return top / bottom - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(200):  # converges in a handful of steps; the bound is a guard
        if abs(big_b - big_a) <= EPSILON:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(
    player: Rating, results: Sequence[Result], tau: float = TAU, max_rd: float = INITIAL_RD
) -> Rating:
    """The rating after one period with ``results`` (none: only the RD grows, to ``max_rd``)."""
    mu = (player.rating - BASE_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not results:
        widened = math.sqrt(phi * phi + sigma * sigma) * SCALE
        return Rating(player.rating, min(widened, max(max_rd, player.rd)), sigma)
    inverse_v = 0.0
    total = 0.0
    for r in results:
        mu_j = (r.opponent - BASE_RATING) / SCALE
        g_j = _g(r.opponent_rd / SCALE)
        e_j = _expected(mu, mu_j, g_j)
        inverse_v += g_j * g_j * e_j * (1.0 - e_j)
        total += g_j * (r.score - e_j)
    v = 1.0 / inverse_v
    delta = v * total
    sigma_new = _new_volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * total
    return Rating(mu_new * SCALE + BASE_RATING, phi_new * SCALE, sigma_new)


def rate_game(a: Rating, b: Rating, score_a: float, tau: float = TAU) -> tuple[Rating, Rating]:
    """Both players' new ratings after one game between them (a period of one game each)."""
    new_a = rate(a, [Result(b.rating, b.rd, score_a)], tau)
    new_b = rate(b, [Result(a.rating, a.rd, 1.0 - score_a)], tau)
    return new_a, new_b


__all__ = [
    "BASE_RATING",
    "INITIAL_RD",
    "INITIAL_VOLATILITY",
    "TAU",
    "Rating",
    "Result",
    "expected_score",
    "rate",
    "rate_game",
]
