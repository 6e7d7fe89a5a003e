"""Statistics against known answers, the precision stop, and balance metrics."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as st
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

from analysis.stats import (
    holm,
    largest_gap_ci,
    multinomial_diff_ci,
    seat_balance,
    seat_fairness,
    t_interval,
    wilson,
)
from simcore import get_game, simulate


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
    res = simulate(get_game("sunken-city"), 3, 200_000, seed=4, precision=target, chunk_size=500)
    assert res.max_half_width <= target
    assert res.games < 200_000 and res.games % 500 == 0
    # one chunk fewer had not reached the target: it stopped at the first chunk that did
    if res.games > 500:
        before = simulate(get_game("sunken-city"), 3, res.games - 500, seed=4)
        assert before.max_half_width > target


def test_precision_bounds():
    from simcore.base.errors import InputError

    for bad in (0, 0.5, -1, 2):
        with pytest.raises(InputError):
            simulate(get_game("sunken-city"), 3, 100, precision=bad)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_largest_gap_interval_covers_in_an_exactly_fair_game(seats):
    """In an exactly fair game (every seat wins outright with the same probability, 5% of the
    games shared) the true largest gap is 0; its 95% interval covers it in at least 93% of
    2,000 simulated runs of 3,000 games, for 2, 3 and 4 seats (the old interval, +-1.96 se
    around the data-picked best and worst seats, covered 95%, 88% and 78%)."""
    rng = np.random.default_rng(100 + seats)
    games, reps = 3000, 2000
    counts = rng.multinomial(games, [0.95 / seats] * seats + [0.05], size=reps)
    covered = [largest_gap_ci(c[:seats], games)[0] <= 0.0 for c in counts]
    assert np.mean(covered) >= 0.93
    # the interval every command prints is this one
    b = seat_balance(counts[0][:seats], shared=int(counts[0][seats]), games=games)
    assert b["largest_gap_ci"] == list(largest_gap_ci(counts[0][:seats], games))


@pytest.mark.parametrize("probs", [[0.4, 0.35, 0.25], [0.27, 0.25, 0.25, 0.23], [0.52, 0.48]])
def test_largest_gap_interval_covers_in_unfair_games(probs):
    rng = np.random.default_rng(9)
    games, reps = 3000, 2000
    true_gap = max(probs) - min(probs)
    counts = rng.multinomial(games, probs, size=reps)
    covered = [lo <= true_gap <= hi for lo, hi in (largest_gap_ci(c, games) for c in counts)]
    assert np.mean(covered) >= 0.93


def test_one_seat_has_no_first_player_advantage_or_gap():
    """A solo game: the first-player advantage is 0 by definition and the largest gap and the
    fairness test need two seats: all None (null in JSON), not an interval around 0."""
    b = seat_balance([370], shared=0, games=1000)
    assert b["fair_share"] == pytest.approx(0.37)
    for k in ("first_player_advantage", "first_player_advantage_ci", "largest_gap"):
        assert b[k] is None
    assert b["largest_gap_ci"] is None and b["p_value"] is None


@pytest.mark.parametrize(
    "p,text",
    [
        (0.0, "< 0.001"),
        (1e-300, "< 0.001"),
        (0.000999, "< 0.001"),
        (0.001, "0.001"),
        (0.0412, "0.041"),
        (0.41, "0.41"),
        (float("nan"), "n/a"),
        (None, "n/a"),
    ],
)
def test_p_values_below_the_smallest_printed_value(p, text):
    from analysis.stats import fmt_p, p_text

    assert p_text(p) == text
    assert fmt_p(p) == ("p " + text if text.startswith("<") else "p = " + text)
    assert fmt_p(p, "Holm p").startswith("Holm p ")


def test_precision_flag_in_the_json():
    """--precision: the JSON says whether the target was reached, with the target and the
    largest half-width achieved; a run without a target has no flag (null)."""
    from analysis.summary import result_json

    reached = result_json(
        simulate(get_game("sunken-city"), 3, 20_000, seed=4, precision=0.03, chunk_size=500)
    )
    assert reached["precision"] == 0.03 and reached["precision_reached"] is True
    assert reached["max_half_width"] <= 0.03 and reached["games"] < 20_000
    capped = result_json(
        simulate(get_game("sunken-city"), 3, 1000, seed=4, precision=0.005, chunk_size=500)
    )
    assert capped["precision_reached"] is False and capped["games"] == 1000
    assert capped["max_half_width"] > 0.005
    assert (
        result_json(simulate(get_game("sunken-city"), 3, 500, seed=4))["precision_reached"] is None
    )


def test_t_interval_is_scipys_to_the_last_bit():
    """t_interval calls scipy.special directly: the same floats as scipy.stats.t.interval
    and 2 * t.sf, over estimates, errors and degrees of freedom of many magnitudes."""
    rng = np.random.default_rng(3)
    for i in range(3000):
        est = rng.normal() * 10.0 ** rng.integers(-6, 4)
        se = abs(rng.normal()) * 10.0 ** rng.integers(-6, 3)
        n = int(rng.integers(2, 10**7))
        alpha = (0.05, 0.01, 0.1, 0.2)[i % 4]
        lo, hi = st.t.interval(1 - alpha, n - 1, loc=est, scale=se)
        p = 2 * st.t.sf(abs(est) / se, n - 1)
        assert t_interval(est, se, n, alpha) == (float(lo), float(hi), float(p))


def test_holm_is_statsmodels_holm():
    rng = np.random.default_rng(4)
    for size in (1, 7, 40):
        p = rng.uniform(0, 0.2, size)
        assert (holm(p, 0.05) == multipletests(p, alpha=0.05, method="holm")[1]).all()
