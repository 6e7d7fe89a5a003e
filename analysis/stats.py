"""Statistics from scipy / statsmodels (no hand-written formulas)."""

from __future__ import annotations

import numpy as np
from scipy import stats as _st
from statsmodels.stats.proportion import proportion_confint


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
