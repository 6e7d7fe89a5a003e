"""Statistics from scipy / statsmodels (no hand-written formulas)."""

from __future__ import annotations

import numpy as np
from scipy import stats as _st
from statsmodels.stats.proportion import proportion_confint

from simcore.metrics import fair_share, first_player_advantage, largest_gap_seats


def wilson(successes, trials, alpha: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval(s) for successes out of trials (arrays or scalars)."""
    s = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    safe_n = np.where(n > 0, n, 1.0)
    lo, hi = proportion_confint(s, safe_n, alpha=alpha, method="wilson")
    lo = np.where(n > 0, lo, np.nan)
    hi = np.where(n > 0, hi, np.nan)
    return lo, hi


def seat_fairness(wins) -> tuple[float, float]:
    """Chi-square test that outright wins are spread evenly over the seats: (statistic, p)."""
    w = np.asarray(wins, dtype=float)
    if w.sum() == 0:
        return float("nan"), float("nan")
    res = _st.chisquare(w)
    return float(res.statistic), float(res.pvalue)


def multinomial_diff_ci(ci: float, cj: float, n: float, alpha: float = 0.05):
    """Interval for p_i - p_j, two outcome shares of the same n games (multinomial
    covariance), normal approximation with scipy's quantile."""
    z = _st.norm.ppf(1 - alpha / 2)
    pi, pj = ci / n, cj / n
    d = pi - pj
    se = np.sqrt(max(pi + pj - d * d, 0.0) / n)
    return d, d - z * se, d + z * se


def seat_balance(wins, shared: int, games: int, alpha: float = 0.05) -> dict:
    """Balance metrics of outright seat wins (defined in simcore.metrics): first-player
    advantage (seat 0 win rate minus its fair share: the outright wins split evenly) with a
    Wilson interval, the largest seat gap with an interval, the shared-win rate with a Wilson
    interval, and the seat-fairness test."""
    w = np.asarray(wins, dtype=float)
    n = len(w)
    fair = fair_share(w.sum(), games, n)
    lo, hi = wilson(w[0], games, alpha)
    best, worst = largest_gap_seats(w)
    gap, glo, ghi = multinomial_diff_ci(w[best], w[worst], games, alpha)
    slo, shi = wilson(shared, games, alpha)
    chi, p = seat_fairness(w)
    return {
        "fair_share": fair,
        "first_player_advantage": first_player_advantage(w[0], w.sum(), games, n),
        "first_player_advantage_ci": [float(lo) - fair, float(hi) - fair],
        "largest_gap": gap,
        "largest_gap_ci": [max(glo, 0.0), ghi],
        "largest_gap_seats": [best, worst],
        "shared_win_rate": shared / games,
        "shared_win_rate_ci": [float(slo), float(shi)],
        "chi2": chi,
        "p_value": p,
    }
