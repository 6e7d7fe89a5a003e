"""Statistics from scipy / statsmodels (no hand-written formulas), and how p-values are
printed (p_text, fmt_p: the one formatter every table, verdict and command uses)."""

from __future__ import annotations

import gc
import math

import numpy as np
from numpy.typing import ArrayLike
from scipy import special as _sp
from scipy import stats as _st
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

from simcore.base.metrics import (
    ArmMoments,
    Metric,
    fair_share,
    first_player_advantage,
    largest_gap_seats,
)

P_SMALLEST = 0.001  # the smallest p-value printed as a number; smaller ones print "< 0.001"


def p_text(p: float) -> str:
    """A p-value as printed in every table: '< 0.001' below the smallest printed value (never
    '0.001' or '0' for a smaller p), two significant digits below 0.1 ('0.041'), two decimals
    from 0.1 ('0.41'), 'n/a' when there is no test (NaN, None)."""
    if p is None or not np.isfinite(p):
        return "n/a"
    if p < P_SMALLEST:
        return f"< {P_SMALLEST:g}"
    return f"{p:.2g}" if p < 0.1 else f"{p:.2f}"


def fmt_p(p: float, name: str = "p") -> str:
    """A p-value in a sentence: 'p < 0.001', 'p = 0.041', 'Holm p = 0.15', 'p = n/a'."""
    text = p_text(p)
    return f"{name} {text}" if text.startswith("<") else f"{name} = {text}"


def wilson(
    successes: ArrayLike, trials: ArrayLike, alpha: float = 0.05
) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval(s) for successes out of trials (arrays or scalars)."""
    s = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    safe_n = np.where(n > 0, n, 1.0)
    lo, hi = proportion_confint(s, safe_n, alpha=alpha, method="wilson")
    lo = np.where(n > 0, lo, np.nan)
    hi = np.where(n > 0, hi, np.nan)
    return lo, hi


def rate_ci(successes: float, trials: float, alpha: float = 0.05) -> tuple[float, float]:
    """The Wilson interval of one rate (successes out of trials) as two floats."""
    lo, hi = wilson(successes, trials, alpha)
    return float(lo), float(hi)


def seat_fairness(wins: ArrayLike) -> tuple[float, float]:
    """Chi-square test that outright wins are spread evenly over the seats: (statistic, p)."""
    w = np.asarray(wins, dtype=float)
    if w.sum() == 0:
        return float("nan"), float("nan")
    res = _st.chisquare(w)
    return float(res.statistic), float(res.pvalue)


def multinomial_diff_ci(
    ci: ArrayLike, cj: ArrayLike, n: float, alpha: float = 0.05
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Interval for p_i - p_j, two outcome shares of the same n games (multinomial
    covariance), normal approximation with scipy's quantile; ci, cj scalars or arrays."""
    z = _st.norm.ppf(1 - alpha / 2)
    pi, pj = np.asarray(ci) / n, np.asarray(cj) / n
    d = pi - pj
    se = np.sqrt(np.maximum(pi + pj - d * d, 0.0) / n)
    return d, d - z * se, d + z * se


def largest_gap_ci(wins: ArrayLike, games: int, alpha: float = 0.05) -> tuple[float, float]:
    """A (1 - alpha) interval for the true largest seat gap max_i p_i - min_j p_j (p_i: seat
    i's outright win rate), valid although the best and worst seats are picked from the data.

    Every pairwise difference p_i - p_j gets its interval (multinomial_diff_ci) at the
    Bonferroni level alpha / m, m = seats * (seats - 1) / 2 pairs, so that all of them hold
    together with probability at least 1 - alpha. When they all hold, the true gap (the
    difference of the truly best and worst seats) lies below the largest upper end, and every
    lower end lies below it: [max(0, largest lower end), largest upper end] over the ordered
    pairs. With 2 seats this is the usual interval of |p_0 - p_1|."""
    w = np.asarray(wins, dtype=float)
    k = len(w)
    if k < 2 or games <= 0:
        return float("nan"), float("nan")
    _, lo, hi = multinomial_diff_ci(w[:, None], w[None, :], games, alpha / (k * (k - 1) / 2))
    pairs = ~np.eye(k, dtype=bool)  # every ordered pair of two different seats
    return max(float(lo[pairs].max()), 0.0), float(hi[pairs].max())


def seat_balance(wins: ArrayLike, shared: int, games: int, alpha: float = 0.05) -> dict:
    """Balance metrics of outright seat wins (defined in simcore.base.metrics): first-player
    advantage (seat 0 win rate minus its fair share: the outright wins split evenly) with a
    Wilson interval, the largest seat gap with its simultaneous interval (largest_gap_ci), the
    shared-win rate with a Wilson interval, and the seat-fairness test.

    With one seat there is no other seat to compare with: the first-player advantage (0 by
    definition), the largest gap and the fairness test are None (null in JSON, 'n/a' in
    print)."""
    w = np.asarray(wins, dtype=float)
    n = len(w)
    fair = fair_share(w.sum(), games, n)
    out = {
        "fair_share": fair,
        "first_player_advantage": None,
        "first_player_advantage_ci": None,
        "largest_gap": None,
        "largest_gap_ci": None,
        "largest_gap_seats": None,
        "shared_win_rate": shared / games,
        "shared_win_rate_ci": list(rate_ci(shared, games, alpha)),
        "chi2": None,
        "p_value": None,
    }
    if n < 2:
        return out
    lo, hi = rate_ci(w[0], games, alpha)
    best, worst = largest_gap_seats(w)
    glo, ghi = largest_gap_ci(w, games, alpha)
    chi, p = seat_fairness(w)
    out.update(
        {
            "first_player_advantage": first_player_advantage(w[0], w.sum(), games, n),
            "first_player_advantage_ci": [lo - fair, hi - fair],
            "largest_gap": (w[best] - w[worst]) / games,
            "largest_gap_ci": [glo, ghi],
            "largest_gap_seats": [best, worst],
            "chi2": chi,
            "p_value": p,
        }
    )
    return out


def ci_text(v: float, lo: float, hi: float, pct: bool = True) -> str:
    """'32.4% (31.8 to 33.0)', '8.27 (8.25 to 8.29)', '-0.42 (-0.51 to -0.33)': a value and
    its interval, the range with 'to', so that a negative end reads as a sign, not a dash."""
    if pct:
        return f"{v * 100:.1f}% ({lo * 100:.1f} to {hi * 100:.1f})"
    return f"{v:.2f} ({lo:.2f} to {hi:.2f})"


def t_interval(est: float, se: float, n: int, alpha: float = 0.05) -> tuple[float, float, float]:
    """(low, high, two-sided p of est = 0) from scipy's t distribution with n - 1 df: the
    same arithmetic as scipy.stats.t.interval(1 - alpha, df, loc=est, scale=se) and
    2 * scipy.stats.t.sf(|est| / se, df) (quantile * scale + loc, from the functions of
    scipy.special those call; the same floats, tests/test_stats.py), without their
    per-call overhead (90 µs against 1 µs: a report computes some 20,000 intervals)."""
    if se <= 0 or not np.isfinite(se):
        return est, est, (1.0 if est == 0 else 0.0)
    df = max(n - 1, 1)
    conf = 1 - alpha
    lo = _sp.stdtrit(df, (1.0 - conf) / 2) * se + est
    hi = _sp.stdtrit(df, (1.0 + conf) / 2) * se + est
    p = 2 * _sp.stdtr(df, -(abs(est) / se))
    return float(lo), float(hi), float(p)


def holm(pvals: ArrayLike, alpha: float = 0.05) -> np.ndarray:
    """Holm-corrected p-values (statsmodels multipletests, method "holm"). multipletests
    runs a full garbage collection on every call (0.1 s with pandas and matplotlib loaded;
    a report calls it dozens of times): the objects alive before the call are frozen out
    of it (gc.freeze), which changes nothing else."""
    gc.freeze()
    try:
        return multipletests(np.asarray(pvals, dtype=float), alpha=alpha, method="holm")[1]
    finally:
        gc.unfreeze()


def ratio_value(
    moments: ArmMoments, a: int, m: Metric, index: dict[str, int], alpha: float = 0.05
) -> dict:
    """A ratio metric (a feel metric: simcore.base.metrics.FEEL_METRICS) of arm a of the running
    sums: {value, ci_low, ci_high, n}, n the games it rests on. A rate (runaway, comeback)
    gets the Wilson interval of its count in those games, as a win rate does; a mean the t
    interval of its delta-method standard error (simcore.base.metrics.ArmMoments.ratio: over every
    game the plain mean's). NaN when it rests on no game."""
    num, den = m.vectors(index)
    v, se, games = moments.ratio(a, num, den)
    n = int(round(games))
    if n == 0:
        return {"value": math.nan, "ci_low": math.nan, "ci_high": math.nan, "n": 0}
    if m.kind == "rate":
        lo, hi = rate_ci(round(v * n), n, alpha)
    else:
        lo, hi, _ = t_interval(v, se, n, alpha)
    return {"value": v, "ci_low": lo, "ci_high": hi, "n": n}
