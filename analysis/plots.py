"""Plots: each takes a tidy frame and an optional matplotlib ax, draws, returns the ax."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402


def seat_win_rates(df: pd.DataFrame, ax=None, title: str = "Win rate per seat"):
    """df: columns seat, win_rate, ci_low, ci_high (one row per seat), optional 'fair'."""
    if ax is None:
        _, ax = plt.subplots(figsize=(5, 3.2))
    x = df["seat"].to_numpy()
    y = df["win_rate"].to_numpy()
    err = [y - df["ci_low"].to_numpy(), df["ci_high"].to_numpy() - y]
    ax.bar(x, y, color="#4C72B0", alpha=0.8)
    ax.errorbar(x, y, yerr=err, fmt="none", ecolor="black", capsize=4, label="95% Wilson CI")
    if "fair" in df:
        ax.axhline(
            float(df["fair"].iloc[0]),
            color="grey",
            ls="--",
            lw=1,
            label="fair share of outright wins",
        )
    ax.set_xticks(x)
    ax.set_xlabel("seat (0 starts)")
    ax.set_ylabel("outright win rate")
    ax.set_title(title)
    ax.legend(fontsize=7)
    return ax
