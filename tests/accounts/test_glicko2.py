"""Glicko-2 against Glickman's worked example ("Example of the Glicko-2 system",
http://www.glicko.net/glicko/glicko2.pdf): a 1500/200/0.06 player beats a 1400/30 player,
then loses to 1550/100 and 1700/300, and becomes 1464.06 / 151.52 / 0.05999."""

from __future__ import annotations

import math

import pytest

from accounts import glicko2
from accounts.glicko2 import Rating, Result, age, rate

EXAMPLE_RESULTS = [
    Result(Rating(1400, 30), 1),
    Result(Rating(1550, 100), 0),
    Result(Rating(1700, 300), 0),
]

pytestmark = pytest.mark.pure


def test_glickman_worked_example() -> None:
    new = rate(Rating(1500, 200, 0.06), EXAMPLE_RESULTS)
    # The paper rounds mu' to -0.2069 before converting, hence its 1464.06; computed
    # without rounding the rating is 1464.0507, which is 1464.05. Both agree to 0.01.
    assert new.rating == pytest.approx(1464.06, abs=0.011)
    assert round(new.deviation, 2) == 151.52
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)


def test_worked_example_intermediate_steps() -> None:
    # Steps 3 and 4 of the paper: v = 1.7785, delta = -0.4834 on the Glicko-2 scale.
    mu = 0.0
    v_inverse = improvement = 0.0
    for result in EXAMPLE_RESULTS:
        mu_j = (result.opponent.rating - 1500) / glicko2.SCALE
        phi_j = result.opponent.deviation / glicko2.SCALE
        g = glicko2._g(phi_j)
        e = glicko2._expected(mu, mu_j, phi_j)
        v_inverse += g * g * e * (1 - e)
        improvement += g * (result.score - e)
    v = 1 / v_inverse
    assert v == pytest.approx(1.7785, abs=0.001)  # the paper rounds g and E first
    assert v * improvement == pytest.approx(-0.4834, abs=0.001)


def test_a_win_raises_and_a_loss_lowers_and_both_narrow_the_deviation() -> None:
    start = Rating()
    won = rate(start, [Result(Rating(), 1)])
    lost = rate(start, [Result(Rating(), 0)])
    drew = rate(start, [Result(Rating(), 0.5)])
    assert won.rating > 1500 > lost.rating
    assert drew.rating == pytest.approx(1500)
    assert won.rating - 1500 == pytest.approx(1500 - lost.rating)
    assert won.deviation < start.deviation
    # Beating a stronger player is worth more than beating a weaker one.
    assert (
        rate(start, [Result(Rating(1800, 50), 1)]).rating > rate(start, [Result(Rating(1200, 50), 1)]).rating
    )


def test_no_games_only_widens_the_deviation_up_to_a_newcomers() -> None:
    player = Rating(1700, 50, 0.06)
    idle = rate(player, [])
    assert idle.rating == 1700
    assert idle.deviation == pytest.approx(math.sqrt((50 / glicko2.SCALE) ** 2 + 0.06**2) * glicko2.SCALE)
    assert age(player, 0) == player
    assert age(player, 4).deviation > age(player, 1).deviation > 50
    assert age(player, 10_000).deviation == glicko2.MAX_DEVIATION


def test_deviation_stays_within_bounds() -> None:
    player = Rating(1500, 31, 0.06)
    for _ in range(50):
        player = rate(player, [Result(Rating(1500, 31), 1)])
    assert player.deviation >= glicko2.MIN_DEVIATION
