"""Statistics against known answers, the precision stop, and balance metrics."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as st
from statsmodels.stats.proportion import proportion_confint

from analysis.stats import multinomial_diff_ci, seat_balance, seat_fairness, wilson
from simcore import simulate


@pytest.mark.parametrize(
    "k,n,lo,hi",
    [
        # textbook Wilson score intervals (95%)
        (50, 100, 0.4038, 0.5962),
        (0, 20, 0.0, 0.1611),
        (81, 263, 0.2553, 0.3662),
    ],
)
def test_wilson_known_values(k, n, lo, hi):
    a, b = wilson(k, n)
    assert a == pytest.approx(lo, abs=1e-4) and b == pytest.approx(hi, abs=1e-4)
    ref = proportion_confint(k, n, method="wilson")
    assert (a, b) == pytest.approx(ref)


def test_wilson_vectorised_and_empty():
    lo, hi = wilson(np.array([1, 5, 0]), np.array([10, 10, 0]))
    assert np.isnan(lo[2]) and np.isnan(hi[2])
    assert lo[1] < 0.5 < hi[1]


def test_fair_coin_game_gives_uniform_fairness_p_values():
    """A fair 'game' (the winner drawn uniformly among 3 seats) gives p-values of the seat
    fairness test that are uniform on [0, 1]."""
    rng = np.random.default_rng(12345)
    ps = [seat_fairness(rng.multinomial(3000, [1 / 3] * 3))[1] for _ in range(600)]
    assert st.kstest(ps, "uniform").pvalue > 0.01
    assert 0.02 < np.mean(np.array(ps) < 0.05) < 0.09  # the 5% false-alarm rate


def test_unfair_game_is_detected():
    rng = np.random.default_rng(1)
    wins = rng.multinomial(3000, [0.37, 0.33, 0.30])
    assert seat_fairness(wins)[1] < 0.01


def test_multinomial_gap_interval_covers():
    rng = np.random.default_rng(7)
    cover = 0
    for _ in range(400):
        c = rng.multinomial(2000, [0.4, 0.35, 0.25])
        _, lo, hi = multinomial_diff_ci(c[0], c[2], 2000)
        cover += lo <= 0.15 <= hi
    assert 0.92 < cover / 400 < 0.98


def test_seat_balance_fields():
    b = seat_balance([400, 300, 200], shared=100, games=1000)
    assert b["fair_share"] == pytest.approx(0.3)
    assert b["first_player_advantage"] == pytest.approx(0.1)
    lo, hi = b["first_player_advantage_ci"]
    assert lo < 0.1 < hi
    assert b["largest_gap"] == pytest.approx(0.2) and b["largest_gap_seats"] == [0, 2]
    assert b["shared_win_rate"] == pytest.approx(0.1)


def test_precision_stop():
    target = 0.01
    res = simulate("sunken-city", 3, 200_000, seed=4, precision=target, chunk_size=500)
    assert res.max_half_width <= target
    assert res.games < 200_000 and res.games % 500 == 0
    # one chunk fewer had not reached the target: it stopped at the first chunk that did
    if res.games > 500:
        before = simulate("sunken-city", 3, res.games - 500, seed=4)
        assert before.max_half_width > target


def test_precision_bounds():
    from simcore import RulesError

    for bad in (0, 0.5, -1, 2):
        with pytest.raises(RulesError):
            simulate("sunken-city", 3, 100, precision=bad)
