"""Glicko-2 ratings, pure: plain numbers in, plain numbers out.

The algorithm is Mark Glickman's, step by step as in "Example of the Glicko-2 system"
(http://www.glicko.net/glicko/glicko2.pdf); the names below follow that paper (mu, phi,
sigma on the Glicko-2 scale; r, RD on the familiar one). ``tests/accounts/test_glicko2.py``
checks the paper's worked example.

A rating period here is one game (as on most online game sites): ``rate`` takes the
player's rating, the results of the period and returns the new rating. Time without
games widens the deviation first (``age``), so a player back after months is less sure.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: Glickman's scale factor between the Glicko and Glicko-2 scales.
SCALE = 173.7178
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
#: The system constant tau: how much volatility may change (the paper suggests 0.3-1.2).
TAU = 0.5
#: Convergence tolerance of the volatility iteration (the paper's epsilon).
EPSILON = 0.000001
#: A deviation never grows past a newcomer's.
MAX_DEVIATION = DEFAULT_DEVIATION
#: A deviation never shrinks below this, so that ratings keep moving for regular players.
MIN_DEVIATION = 30.0


@dataclass(frozen=True)
class Rating:
    """A rating on the Glicko scale: ``rating`` (r), ``deviation`` (RD), ``volatility`` (sigma)."""

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY


@dataclass(frozen=True)
class Result:
    """One game of the period: the opponent's rating before it and the score (1, 0.5 or 0)."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: the Illinois algorithm on f(x) = 0."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex)) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (
            tau * tau
        )

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Rating, results: Sequence[Result], *, tau: float = TAU) -> Rating:
    """The player's rating after one rating period with ``results``.

    With no results only the deviation grows (step 6 of the paper). The new deviation
    is kept within ``MIN_DEVIATION`` and ``MAX_DEVIATION`` on the Glicko scale; the
    paper's example stays inside those bounds.
    """
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:
        return Rating(player.rating, _clamp(math.sqrt(phi * phi + sigma * sigma) * SCALE), sigma)
    # Steps 3 and 4: the estimated variance v and the estimated improvement delta.
    v_inverse = 0.0
    improvement = 0.0
    for result in results:
        mu_j = (result.opponent.rating - DEFAULT_RATING) / SCALE
        phi_j = result.opponent.deviation / SCALE
        e = _expected(mu, mu_j, phi_j)
        g = _g(phi_j)
        v_inverse += g * g * e * (1.0 - e)
        improvement += g * (result.score - e)
    v = 1.0 / v_inverse
    delta = v * improvement
    new_sigma = _new_volatility(sigma, phi, v, delta, tau)
    # Steps 6 and 7: the pre-period deviation, then the new deviation and rating.
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Rating(new_mu * SCALE + DEFAULT_RATING, _clamp(new_phi * SCALE), new_sigma)


def age(player: Rating, periods: float) -> Rating:
    """``player`` after ``periods`` rating periods without a game (fractions allowed):
    the deviation grows as in step 6, phi' = sqrt(phi^2 + t * sigma^2), up to a newcomer's."""
    if periods <= 0:
        return player
    phi = player.deviation / SCALE
    grown = math.sqrt(phi * phi + periods * player.volatility * player.volatility) * SCALE
    return Rating(player.rating, min(grown, MAX_DEVIATION), player.volatility)


def _clamp(deviation: float) -> float:
    return max(MIN_DEVIATION, min(MAX_DEVIATION, deviation))
