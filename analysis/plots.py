"""Plots: each takes a tidy frame and an optional matplotlib ax, draws, returns the ax.

No backend is chosen here: new_figure makes figures without pyplot (they are saved with
savefig); an ax left out is made by pyplot, with whatever backend the caller has.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import matplotlib
import matplotlib.ticker
import pandas as pd
from matplotlib.figure import Figure

if TYPE_CHECKING:
    import numpy as np
    from matplotlib.axes import Axes
    from numpy.typing import ArrayLike


def new_figure(figsize: tuple[float, float], ncols: int | None = None) -> tuple[Figure, Any]:
    """(figure, ax), or (figure, a row of ncols axes): a figure that needs no backend."""
    fig = Figure(figsize=figsize)
    if ncols is None:
        return fig, fig.subplots()
    return fig, fig.subplots(1, ncols, squeeze=False)[0]


def _ax(ax: Axes | None, size: tuple[float, float] = (5.5, 3.4)) -> Axes:
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=size)
    return ax


def _labelled(
    ax: Axes, xlabel: str, ylabel: str, title: str, legend: bool = True, **legend_kw: Any
) -> Axes:
    """The axes labelled and the plot titled, with a legend (font size 7, legend_kw) unless
    legend is False or nothing drawn has a label (a game with one player count and no variant);
    returns ax."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if legend and ax.get_legend_handles_labels()[1]:
        ax.legend(fontsize=7, **legend_kw)
    return ax


def sweep_figure(table: pd.DataFrame, keys: list[str], metrics: list[str]) -> Figure:
    """One panel per metric of a sweep table: a line over one parameter, a heatmap over two."""
    fig, axes = new_figure((5.2 * len(metrics), 3.8), ncols=len(metrics))
    for ax, m in zip(axes, metrics):
        if len(keys) == 1:
            sweep_line(table, keys[0], m, ax=ax)
        else:
            sweep_heatmap(table, keys, m, ax=ax)
    fig.tight_layout()
    return fig


def seat_win_rates(
    df: pd.DataFrame, ax: Axes | None = None, title: str = "Win rate per seat"
) -> Axes:
    """df: columns seat, win_rate, ci_low, ci_high (one row per seat), optional 'fair'."""
    ax = _ax(ax, (5, 3.2))
    x = df["seat"].to_numpy()
    fair = float(df["fair"].iloc[0]) if "fair" in df else None
    label = fair_label(fair, len(df)) if fair is not None else ""
    low, high = _rates(ax, x, df, "#4C72B0", fair, label)
    ax.set_xticks(x)
    return _labelled(ax, "seat (0 starts)", f"outright win rate ({_range(low, high)})", title)


def fair_label(fair: float, seats: int) -> str:
    """The fair-share line's legend: 1/N, or, when shared wins make it differ from 1/N, the
    share it is ('30.8%: 1/3 of the 92.3% of games with an outright winner')."""
    if abs(fair * seats - 1) < 1e-9:
        return f"fair share (1/{seats})"
    return f"fair share {fair:.1%}: 1/{seats} of the {seats * fair:.1%} of games won outright"


def _range(low: float, high: float) -> str:
    """The y axis' range in words: 'axis 38.2-49.6%'."""
    return f"axis {100 * low:.1f}-{100 * high:.1f}%"


def _rates(
    ax: Axes,
    x: Sequence[float],
    df: pd.DataFrame,
    color: str,
    fair: float | None,
    fair_label: str,
) -> tuple[float, float]:
    """Win rates with their 95% Wilson intervals and the fair share (a dashed line); returns
    the y axis' range (low, high), which always includes the fair share. When the rates are
    close together and far from 0 (the lowest end of the intervals and the fair share lies
    above their whole spread), the axis is cut and zoomed on them, the rates are drawn as
    points (a bar from a cut axis would exaggerate the gaps) and a note on the plot says that
    the axis is cut (compare the intervals, not the distances); otherwise bars from 0."""
    y = df["win_rate"].to_numpy()
    lo, hi = df["ci_low"].to_numpy(), df["ci_high"].to_numpy()
    bottom = min([*lo, *([fair] if fair is not None else [])])
    top = max([*hi, *([fair] if fair is not None else [])])
    span = max(top - bottom, 1e-3)
    zoom = bottom > span
    if zoom:
        ax.errorbar(
            x,
            y,
            yerr=_err(y, lo, hi),
            fmt="o",
            color=color,
            ecolor="black",
            capsize=4,
            label="win rate, 95% Wilson CI",
        )
        ax.set_ylim(bottom - 0.3 * span, top + 0.3 * span)
        ax.set_xlim(min(x) - 0.6, max(x) + 0.6)
    else:
        ax.bar(x, y, color=color, alpha=0.8)
        ax.errorbar(
            x, y, yerr=_err(y, lo, hi), fmt="none", ecolor="black", capsize=4, label="95% Wilson CI"
        )
    if fair is not None:
        ax.axhline(fair, color="grey", ls="--", lw=1, label=fair_label)
    ax.yaxis.set_major_formatter(
        matplotlib.ticker.PercentFormatter(1.0, decimals=0 if span > 0.05 else 1)
    )
    low, high = ax.get_ylim()
    if zoom:
        ax.text(
            0.01,
            0.99,
            f"axis cut at {100 * low:.1f}%: gaps look larger than they are; compare the intervals",
            transform=ax.transAxes,
            ha="left",
            va="top",
            fontsize=6,
            color="dimgrey",
        )
    return low, high


def _err(y: ArrayLike, lo: ArrayLike, hi: ArrayLike) -> list[np.ndarray]:
    """Error-bar lengths below and above y (never negative: rounding at 0 or 1)."""
    import numpy as np

    y, lo, hi = (np.asarray(v, dtype=float) for v in (y, lo, hi))
    return [np.maximum(y - lo, 0.0), np.maximum(hi - y, 0.0)]


def _wilson_err(games: ArrayLike, total: float) -> tuple[np.ndarray, list[np.ndarray]]:
    """Error-bar lengths (below, above) of Wilson intervals of games/total."""
    import numpy as np

    from analysis.stats import wilson

    share = np.asarray(games, dtype=float) / max(total, 1)
    lo, hi = wilson(games, total)
    return share, _err(share, lo, hi)


def length_histogram(df: pd.DataFrame, ax: Axes | None = None, title: str = "Game length") -> Axes:
    """df: columns rounds, games (one row per length). Bars are the share of games with 95%
    Wilson intervals; the dashed line is the mean."""
    import numpy as np

    ax = _ax(ax)
    total = df["games"].sum()
    share, err = _wilson_err(df["games"], total)
    x = df["rounds"].to_numpy()
    ax.bar(x, share, color="#55A868", alpha=0.8, width=0.85)
    ax.errorbar(
        x, share, yerr=err, fmt="none", ecolor="black", capsize=2, lw=0.8, label="95% Wilson CI"
    )
    mean = float(np.sum(x * df["games"].to_numpy()) / total)
    ax.axvline(mean, color="grey", ls="--", lw=1, label=f"mean {mean:.2f}")
    keep = share > 0.0005
    if keep.any():
        ax.set_xlim(x[keep].min() - 1, x[keep].max() + 1)
    return _labelled(ax, "rounds", "share of games", title)


def score_distributions(
    df: pd.DataFrame, ax: Axes | None = None, title: str = "Final scores per seat"
) -> Axes:
    """df: columns seat, score, score_high, games (one row per seat and score bin, as
    analysis.summary.score_table). One line per seat: the share of games ending in each bin
    (at the bin's lowest score), with a 95% Wilson band. Bins no seat ever reached are left
    out (Sunken Treasure's scores are multiples of 1,000 in bins of 100)."""
    ax = _ax(ax)
    width = int(df["score_high"].iloc[0] - df["score"].iloc[0]) + 1 if len(df) else 1
    df = df[df.groupby("score")["games"].transform("sum") > 0]
    for seat, grp in df.groupby("seat"):
        total = grp["games"].sum()
        share, (below, above) = _wilson_err(grp["games"], total)
        x = grp["score"].to_numpy()
        ax.plot(x, share, marker="o", ms=3, label=f"seat {seat}")
        ax.fill_between(x, share - below, share + above, alpha=0.2)
    xlabel = "final score" + (f" (bins of {width})" if width > 1 else "")
    return _labelled(ax, xlabel, "share of games", title + " (bands: 95% Wilson CI)")


def end_reasons(df: pd.DataFrame, ax: Axes | None = None, title: str = "How games end") -> Axes:
    """df: columns end_reason, games (one row per reason). Shares with 95% Wilson intervals."""
    ax = _ax(ax, (5, 2.8))
    total = df["games"].sum()
    share, err = _wilson_err(df["games"], total)
    y = range(len(df))
    ax.barh(list(y), share, color="#8172B2", alpha=0.8)
    ax.errorbar(share, list(y), xerr=err, fmt="none", ecolor="black", capsize=3)
    ax.set_yticks(list(y))
    ax.set_yticklabels(df["end_reason"])
    return _labelled(ax, "share of games (95% Wilson CI)", "end reason", title, legend=False)


def comparison_forest(
    table: pd.DataFrame, ax: Axes | None = None, title: str = "Difference to the baseline"
) -> Axes:
    """table: rows of analysis.compare.comparison_table (one kind of metric: all rates or all
    in one unit), arms after the first. Each difference with the paired 95% interval its call
    rests on (adjusted over the comparison's tests); rates in percentage points. Filled
    markers: significant (the interval excludes 0)."""
    ax = _ax(ax, (6, 0.35 * len(table) + 1.2))
    t = table.dropna(subset=["diff"]).reset_index(drop=True)
    scale = 100.0 if (t["kind"] == "rate").all() else 1.0
    y = list(range(len(t)))[::-1]
    d = t["diff"].to_numpy() * scale
    err = _err(d, t["adj_low"].to_numpy() * scale, t["adj_high"].to_numpy() * scale)
    arms = list(dict.fromkeys(t["arm"]))
    colours = matplotlib.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, arm in enumerate(arms):
        sel = (t["arm"] == arm).to_numpy()
        ys = [yy for yy, s in zip(y, sel) if s]
        ax.errorbar(
            d[sel],
            ys,
            xerr=[err[0][sel], err[1][sel]],
            fmt="none",
            ecolor=colours[i % len(colours)],
            capsize=3,
            label=arm,
        )
        sig = t["significant"].to_numpy() & sel
        ax.scatter(
            d[sig],
            [yy for yy, s in zip(y, sig) if s],
            color=colours[i % len(colours)],
            zorder=3,
        )
        ns = ~t["significant"].to_numpy() & sel
        ax.scatter(
            d[ns],
            [yy for yy, s in zip(y, ns) if s],
            facecolor="white",
            edgecolor=colours[i % len(colours)],
            zorder=3,
        )
    ax.axvline(0, color="grey", lw=1)
    ax.set_yticks(y)
    ax.set_yticklabels([f"{a}: {lab}" for a, lab in zip(t["arm"], t["label"])], fontsize=7)
    return _labelled(
        ax,
        ("difference (percentage points)" if scale == 100 else "difference")
        + ", paired 95% CI, adjusted\n(filled: significant, hollow: not)",
        "arm: metric",
        title,
    )


def dice_gaps(
    df: pd.DataFrame, ax: Axes | None = None, title: str = "Largest seat gap per die"
) -> Axes:
    """df: the dice table (players, die, largest_gap, gap_low, gap_high, fairest, rulebook).
    Points with 95% intervals per player count; the fairest die is a star, the rulebook's die
    has a black edge."""
    ax = _ax(ax, (6, 3.4))
    dice = list(dict.fromkeys(df["die"]))
    counts = sorted(df["players"].unique())
    colours = matplotlib.rcParams["axes.prop_cycle"].by_key()["color"]
    width = 0.8 / max(len(dice), 1)
    for i, die in enumerate(dice):
        sel = df[df["die"] == die]
        x = [counts.index(p) + (i - (len(dice) - 1) / 2) * width for p in sel["players"]]
        y = sel["largest_gap"].to_numpy() * 100
        err = _err(y, sel["gap_low"].to_numpy() * 100, sel["gap_high"].to_numpy() * 100)
        c = colours[i % len(colours)]
        ax.errorbar(x, y, yerr=err, fmt="o", color=c, capsize=3, label=die)
        for xx, yy, fair, book in zip(x, y, sel["fairest"], sel["rulebook"]):
            if fair:
                ax.scatter([xx], [yy], marker="*", s=160, color=c, edgecolor="black", zorder=4)
            if book:
                ax.scatter([xx], [yy], s=70, facecolor="none", edgecolor="black", zorder=4)
    ax.set_xticks(range(len(counts)))
    ax.set_xticklabels([f"{p} players" for p in counts])
    return _labelled(
        ax,
        "player count (star: smallest gap; ring: the rulebook's die)",
        "largest seat gap (points, 95% CI)",
        title,
        ncol=2,
    )


def _positions(values: Sequence[object]) -> tuple[list[float], list[str], bool]:
    """Numeric x positions for parameter values when they are all numbers, else 0, 1, ..."""
    labels = [str(v) for v in values]
    try:
        return [float(v) for v in labels], labels, True
    except ValueError:
        return list(range(len(labels))), labels, False


def sweep_line(
    df: pd.DataFrame,
    param: str,
    metric: str,
    ax: Axes | None = None,
    hue: str | None = None,
    title: str | None = None,
) -> Axes:
    """df: the sweep table (columns param, [hue], metric, label, kind, value, ci_low, ci_high).
    The metric per parameter value as a line with its 95% interval band (one line per hue)."""
    ax = _ax(ax)
    t = df[df["metric"] == metric]
    scale = 100.0 if (t["kind"] == "rate").all() else 1.0
    groups = t.groupby(hue, sort=False) if hue else [(None, t)]
    numeric = True
    labels: list[str] = []
    for key, grp in groups:
        x, labels, numeric = _positions(grp[param])
        y = grp["value"].to_numpy() * scale
        ax.plot(x, y, marker="o", label=f"{hue}={key}" if hue else metric)
        ax.fill_between(
            x, grp["ci_low"].to_numpy() * scale, grp["ci_high"].to_numpy() * scale, alpha=0.2
        )
    if not numeric:
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(labels, fontsize=7, rotation=20)
    lab = t["label"].iloc[0] if len(t) else metric
    return _labelled(
        ax,
        param,
        lab + (" (points)" if scale == 100 else "") + ", 95% CI band",
        title or f"{lab} by {param}",
        legend=bool(hue),
    )


def sweep_heatmap(
    df: pd.DataFrame,
    params: list[str],
    metric: str,
    ax: Axes | None = None,
    title: str | None = None,
) -> Axes:
    """df: the sweep table for two parameters. A heatmap of the metric, each cell annotated
    with its value and 95% interval."""
    import numpy as np

    ax = _ax(ax, (6, 4))
    t = df[df["metric"] == metric]
    p1, p2 = params
    rows = list(dict.fromkeys(t[p1]))
    cols = list(dict.fromkeys(t[p2]))
    scale = 100.0 if (t["kind"] == "rate").all() else 1.0
    grid = np.full((len(rows), len(cols)), np.nan)
    for r in t.itertuples():
        i, j = rows.index(getattr(r, p1)), cols.index(getattr(r, p2))
        grid[i, j] = r.value * scale
        ax.text(
            j,
            i,
            f"{r.value * scale:.2f}\n[{r.ci_low * scale:.2f}, {r.ci_high * scale:.2f}]",
            ha="center",
            va="center",
            fontsize=7,
        )
    im = ax.imshow(grid, cmap="viridis", aspect="auto", alpha=0.75)
    lab = t["label"].iloc[0] if len(t) else metric
    ax.figure.colorbar(im, ax=ax, label=lab + (" (points)" if scale == 100 else ""))
    ax.set_xticks(range(len(cols)))
    ax.set_xticklabels(cols, fontsize=7)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(rows, fontsize=7)
    return _labelled(ax, p2, p1, title or f"{lab} (cells: value [95% CI])", legend=False)


def ladder(
    df: pd.DataFrame, ax: Axes | None = None, title: str = "Each player against two random players"
) -> Axes:
    """df: columns policy, win_rate, ci_low, ci_high, fair (one row per preset)."""
    ax = _ax(ax)
    x = list(range(len(df)))
    fair = float(df["fair"].iloc[0]) if "fair" in df else None
    label = fair_label(fair, round(1 / fair)) if fair else ""
    low, high = _rates(ax, x, df, "#C44E52", fair, label)
    ax.set_xticks(x)
    ax.set_xticklabels(df["policy"])
    return _labelled(ax, "player (seats rotated)", f"win rate ({_range(low, high)})", title)


def head_to_head(
    df: pd.DataFrame, ax: Axes | None = None, title: str = "Head to head (seats rotated)"
) -> Axes:
    """df: columns row, col, win_rate, ci_low, ci_high: the row player's win rate against the
    column player. Cells annotated with the rate and its 95% interval."""
    import numpy as np

    ax = _ax(ax, (5.5, 4.2))
    names = list(dict.fromkeys(list(df["row"]) + list(df["col"])))
    grid = np.full((len(names), len(names)), np.nan)
    for r in df.itertuples():
        i, j = names.index(r.row), names.index(r.col)
        grid[i, j] = r.win_rate
        ax.text(
            j,
            i,
            f"{r.win_rate:.3f}\n[{r.ci_low:.3f}, {r.ci_high:.3f}]",
            ha="center",
            va="center",
            fontsize=7,
        )
    im = ax.imshow(grid, cmap="RdBu", vmin=0, vmax=1, alpha=0.6)
    ax.figure.colorbar(im, ax=ax, label="row player's win rate")
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, fontsize=8)
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names, fontsize=8)
    return _labelled(ax, "opponent", "player (cells: win rate [95% CI])", title, legend=False)


def feel_panel(
    df: pd.DataFrame,
    metric: str,
    ax: Axes | None = None,
    title: str | None = None,
    legend: bool = True,
) -> Axes:
    """df: how the game feels per setting (columns players, arm, metric, label, kind, value,
    ci_low, ci_high; analysis.report's feel frame). One metric: a point with its 95% interval
    per player count, one colour per arm (a legend when asked and there are several); rates in
    percent."""
    ax = _ax(ax, (4.2, 3.0))
    t = df[df["metric"] == metric]
    scale = 100.0 if (t["kind"] == "rate").all() else 1.0
    counts = sorted(t["players"].unique())
    arms = list(dict.fromkeys(t["arm"]))
    width = 0.8 / max(len(arms), 1)
    for i, arm in enumerate(arms):
        sel = t[t["arm"] == arm]
        x = [counts.index(p) + (i - (len(arms) - 1) / 2) * width for p in sel["players"]]
        y = sel["value"].to_numpy() * scale
        err = _err(y, sel["ci_low"].to_numpy() * scale, sel["ci_high"].to_numpy() * scale)
        ax.errorbar(x, y, yerr=err, fmt="o", capsize=3, label=arm)
    ax.set_xticks(range(len(counts)))
    ax.set_xticklabels([f"{p}p" for p in counts])
    lab = t["label"].iloc[0].split(" (")[0] if len(t) else metric
    return _labelled(
        ax,
        "players",
        lab + (" (%)" if scale == 100 else ""),
        title or lab,
        legend=legend and len(arms) > 1,
    )


def feel_figure(df: pd.DataFrame) -> Figure:
    """Every feel metric of df (as feel_panel's) in a grid of panels, three to a row; the
    arms' legend in the first."""
    metrics = list(dict.fromkeys(df["metric"]))
    rows = -(-len(metrics) // 3)
    fig = Figure(figsize=(12, 3.2 * rows))
    axes = fig.subplots(rows, 3, squeeze=False).ravel()
    for i, (ax, m) in enumerate(zip(axes, metrics)):
        feel_panel(df, m, ax=ax, legend=i == 0)
    for ax in axes[len(metrics) :]:
        ax.set_visible(False)
    fig.tight_layout()
    return fig


LEVEL_COLORS = ("#4C72B0", "#DD8452")


def answer_rates(
    df: pd.DataFrame, ax: Axes | None = None, title: str = "Who wins, per player count and level"
) -> Axes:
    """The first screen's plot. df: one row per (players, level, seat) with win_rate, ci_low,
    ci_high, fair. Seats grouped by player count along x, each level in its colour with its 95%
    Wilson intervals; each level's fair share of its player count a dashed segment over its
    seats (1/N of the games won outright: below 1/N when games end in shared wins). The y
    axis starts at 0 (nothing zoomed) and its range is in its label."""
    import numpy as np

    ax = _ax(ax, (7.5, 3.3))
    levels = list(dict.fromkeys(df["level"]))
    ticks, names, x0 = [], [], 0.0
    for p, grp in df.groupby("players", sort=True):
        for k, level in enumerate(levels):
            g = grp[grp["level"] == level]
            if g.empty:
                continue
            x = x0 + g["seat"].to_numpy() + (k - (len(levels) - 1) / 2) * 0.25
            y = g["win_rate"].to_numpy()
            ax.errorbar(
                x,
                y,
                yerr=_err(y, g["ci_low"], g["ci_high"]),
                fmt="o",
                ms=4,
                capsize=3,
                color=LEVEL_COLORS[k % len(LEVEL_COLORS)],
                label=level if p == df["players"].min() else None,
            )
            fair = float(g["fair"].iloc[0])
            ax.hlines(
                fair,
                x.min() - 0.15,
                x.max() + 0.15,
                colors=LEVEL_COLORS[k % len(LEVEL_COLORS)],
                linestyles="--",
                lw=1,
            )
        seats = int(grp["seat"].max()) + 1
        ticks += list(x0 + np.arange(seats))
        names += [f"{s}" for s in range(seats)]
        ax.text(
            x0 + (seats - 1) / 2,
            -0.16,
            f"{p} players",
            transform=ax.get_xaxis_transform(),
            ha="center",
            fontsize=8,
        )
        x0 += seats + 1
    ax.set_xticks(ticks, names, fontsize=7)
    top = float(max(df["ci_high"].max(), df["fair"].max()))
    ax.set_ylim(0, min(1.0, top * 1.15 + 0.02))
    ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0, decimals=0))
    low, high = ax.get_ylim()
    ax.plot([], [], color="grey", ls="--", lw=1, label="fair share (1/N of the games won outright)")
    ax = _labelled(
        ax, "seat (0 starts)", f"outright win rate ({_range(low, high)})", title, loc="upper right"
    )
    ax.xaxis.labelpad = 16  # below the player counts' names
    return ax


def learning_curve(
    points: Sequence[dict],
    players: int,
    ax: Axes | None = None,
    title: str = "Learning curve",
    games: str = "games of self-play",
) -> Axes:
    """points: the learning curve of `balance train --curve` (games_trained, win_rate, ci_low,
    ci_high, fair): the model's win rate against its base player after each stretch of
    training, with its Wilson 95% interval and the fair share (alone: the base player's own
    success rate on the same games); `games` names the training's games (the x axis)."""
    ax = _ax(ax)
    df = pd.DataFrame(list(points))
    fair = float(df["fair"].iloc[0])
    x = df["games_trained"].to_numpy()
    y = 100 * df["win_rate"].to_numpy()
    err = _err(y, 100 * df["ci_low"].to_numpy(), 100 * df["ci_high"].to_numpy())
    ax.errorbar(x, y, yerr=err, fmt="o-", color="#4C72B0", capsize=3, label="trained (95% CI)")
    label = fair_label(fair, players) if players > 1 else f"the base player alone ({fair:.1%})"
    ax.axhline(100 * fair, color="grey", ls="--", lw=1, label=label)
    ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(6))
    ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(_games_label))
    return _labelled(ax, games, "win rate against the base player (%)", title)


def _games_label(v: float, _pos: object = None) -> str:
    """A count of games on an axis, short: 0, 500, 20k, 1.2M."""
    if abs(v) >= 1e6:
        return f"{v / 1e6:g}M"
    if abs(v) >= 1e3:
        return f"{v / 1e3:g}k"
    return f"{v:g}"
