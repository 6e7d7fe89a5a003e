"""Comparisons on common random numbers, from what simcore.studies.arms played: the tidy comparison
table, its verdicts and headlines, the dice table and the sweep table.

Every arm of a comparison was played on the same games (game i of seed S draws its randomness
only from (S, i)), so the differences between arms are analysed per game (paired), which
removes the game-to-game noise both arms share. Every paired interval is computed from the
running sums of per-game metrics the run kept (simcore.base.metrics.ArmMoments).

Statistics come from scipy / statsmodels: t intervals and p-values (scipy.stats.t), Wilson
intervals, Holm's correction (statsmodels multipletests) and Cohen's h
(statsmodels proportion_effectsize).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from statsmodels.stats.proportion import proportion_effectsize

from analysis.stats import (
    fmt_p,
    holm,
    p_text,
    rate_ci,
    ratio_value,
    seat_balance,
    t_interval,
)
from analysis.summary import records, run_keys
from simcore.base.metrics import Metric, largest_gap_seats, shown_metrics

ALPHA = 0.05


# --------------------------------------------------------------------------------- tables
def _gap_vector(run: Any, a: int) -> tuple[np.ndarray, int, int]:
    """Coefficients of (best seat's wins - worst seat's wins) of arm a, and the two seats."""
    best, worst = largest_gap_seats(run.results[a].summary.seat_wins)
    c = np.zeros(len(run.metrics))
    idx = run.index
    c[idx[f"win_{best}"]] += 1
    c[idx[f"win_{worst}"]] -= 1
    return c, best, worst


def _unit(k: int, j: int) -> np.ndarray:
    c = np.zeros(k)
    c[j] = 1.0
    return c


def arm_values(run: Any, alpha: float = ALPHA) -> pd.DataFrame:
    """One row per (metric, arm): the arm's value with its interval (Wilson for rates, the
    multinomial gap interval of `simulate` for the largest gap, t for means)."""
    rows = []
    k = len(run.metrics)
    for a, arm in enumerate(run.arms):
        s = run.results[a].summary
        n = s.games
        bal = seat_balance(s.seat_wins, s.shared_wins, n, alpha) if run.players > 1 else None
        for j, m in enumerate(run.metrics):
            if m.kind == "part":
                continue
            if m.name == "fpa":
                v = bal["first_player_advantage"]
                lo, hi = bal["first_player_advantage_ci"]
            elif m.kind == "rate":
                cnt = run.moments.count(a, j)
                v = cnt / n
                lo, hi = rate_ci(cnt, n, alpha)
            else:
                v, se = run.moments.linear(a, _unit(k, j))
                lo, hi, _ = t_interval(v, se, n, alpha)
            rows.append(
                {"metric": m.name, "arm": arm.label, "value": v, "ci_low": lo, "ci_high": hi}
            )
        for m in shown_metrics(run.metrics):
            if m.num:  # a feel metric: a ratio of part columns
                v = ratio_value(run.moments, a, m, run.index, alpha)
                rows.append({"metric": m.name, "arm": arm.label, **v})
        if bal is not None:
            rows.append(
                {
                    "metric": "largest_gap",
                    "arm": arm.label,
                    "value": bal["largest_gap"],
                    "ci_low": bal["largest_gap_ci"][0],
                    "ci_high": bal["largest_gap_ci"][1],
                }
            )
    return pd.DataFrame(rows)


def _metric_defs(run: Any) -> list[Metric]:
    return shown_metrics(run.metrics)


def _constant(run: Any, j: int) -> bool:
    mo = run.moments
    means = np.array([mo.mean(a)[j] for a in range(len(run.arms))])
    var = np.array([mo.cov(a)[j, j] for a in range(len(run.arms))])
    return bool(np.all(var <= 1e-12) and np.ptp(means) == 0)


def _constant_ratio(run: Any, m: Metric) -> bool:
    """A feel metric with nothing to compare: it rests on no game in some arm, or its parts
    are the same in every game of every arm."""
    idx = run.index
    cols = [idx[c] for c, _ in m.num] + ([idx[m.den]] if m.den else [])
    den = idx[m.den] if m.den else None
    if den is not None and any(run.moments.count(a, den) == 0 for a in range(len(run.arms))):
        return True
    return all(_constant(run, j) for j in cols)


def comparison_table(run: Any, alpha: float = ALPHA, paired: bool = True) -> pd.DataFrame:
    """The tidy comparison table: one row per (metric, arm) with the arm's value and interval,
    and for every arm after the first the difference to the first arm with its paired interval,
    p-value, Holm-corrected p-value over the whole table, Cohen's h (rates) and a verdict.

    paired=False gives the intervals two independent runs would have (for illustration)."""
    vals = arm_values(run, alpha)
    by_key = {(r["metric"], r["arm"]): r for r in vals.to_dict("records")}
    k = len(run.metrics)
    idx = run.index
    defs = {m.name: m for m in _metric_defs(run)}
    records = []
    for m in _metric_defs(run):
        if m.name in idx and _constant(run, idx[m.name]):
            continue  # the same value in every game of every arm: nothing to compare
        if m.num and _constant_ratio(run, m):
            continue
        base = by_key[(m.name, run.arms[0].label)]
        for a, arm in enumerate(run.arms):
            row = dict(by_key[(m.name, arm.label)])
            rec = {
                "metric": m.name,
                "label": m.label,
                "kind": m.kind,
                "arm": arm.label,
                "games": run.results[a].games,
                "value": row["value"],
                "n": row["n"] if m.num else run.results[a].games,
                "ci_low": row["ci_low"],
                "ci_high": row["ci_high"],
                "diff": np.nan,
                "diff_low": np.nan,
                "diff_high": np.nan,
                "p_value": np.nan,
                "cohen_h": np.nan,
            }
            if a > 0 and m.num:
                fn = run.moments.ratio_paired
                d, se = fn(a, *m.vectors(idx), paired=paired)
                lo, hi, p = t_interval(d, se, run.moments.n, alpha)
                rec.update(diff=d, diff_low=lo, diff_high=hi, p_value=p)
                if m.kind == "rate":
                    rec["cohen_h"] = float(proportion_effectsize(row["value"], base["value"]))
            elif a > 0:
                if m.name == "largest_gap":
                    c, _, _ = _gap_vector(run, a)
                    c0, _, _ = _gap_vector(run, 0)
                else:
                    c = c0 = _unit(k, idx[m.name])
                fn = run.moments.paired if paired else run.moments.unpaired
                # for the gap and the first-player advantage d equals the difference of the
                # seat_balance values: both are means of the same per-game quantities
                d, se = fn(a, c, c0)
                lo, hi, p = t_interval(d, se, run.moments.n, alpha)
                rec.update(diff=d, diff_low=lo, diff_high=hi, p_value=p)
                if m.kind == "rate" and m.name not in ("fpa", "largest_gap"):
                    rec["cohen_h"] = float(proportion_effectsize(row["value"], base["value"]))
            records.append(rec)
    df = pd.DataFrame(records)
    df["p_holm"] = np.nan
    has = df["p_value"].notna()
    if has.any():
        df.loc[has, "p_holm"] = holm(df.loc[has, "p_value"], alpha)
    df["significant"] = df["p_holm"] < alpha
    df["verdict"] = [
        verdict(defs[r.metric], r, run.arms[0].label, alpha, tests=int(has.sum()))
        if r.arm != run.arms[0].label
        else ""
        for r in df.itertuples()
    ]
    return df


# --------------------------------------------------------------------------------- words
def _decimals(half_width: float, kind: str) -> int:
    """Two significant digits of the interval's half-width (in points for rates)."""
    hw = abs(half_width) * (100 if kind == "rate" else 1)
    if not np.isfinite(hw) or hw == 0:
        return 2 if kind != "rate" else 1
    return int(min(max(1 - math.floor(math.log10(hw)), 0), 4))


def _num(x: float, kind: str, dec: int, sign: bool = False) -> str:
    v = x * 100 if kind == "rate" else x
    return f"{v:+.{dec}f}" if sign else f"{v:.{dec}f}"


def _level(x: float, kind: str, dec: int) -> str:
    """A value of the metric itself: rates as percentages."""
    return f"{x * 100:.{dec}f}%" if kind == "rate" else f"{x:.{dec}f}"


def verdict(m: Metric, r: Any, base: str, alpha: float = ALPHA, tests: int = 1) -> str:
    """One plain-language line for one metric of one arm against the first arm, consistent with
    the numbers: a change is called only when the Holm-corrected p is below alpha, and then its
    interval (which excludes 0) is given in the direction of the change."""
    d, lo, hi = r.diff, r.diff_low, r.diff_high
    dec = _decimals((hi - lo) / 2, m.kind)
    pts = " points" if m.kind == "rate" else (f" {m.unit}" if m.unit else "")
    conf = f"{round((1 - alpha) * 100)}% CI"
    # '1.8 rounds longer', '2.1 points higher', '0.22 more per game'
    pts_before, pts_after = ("", f" {m.unit}") if m.unit == "per game" else (pts, "")
    before, after = _level(r.value - d, m.kind, dec), _level(r.value, m.kind, dec)
    if r.p_holm < alpha:
        word = m.more if d > 0 else m.less
        a, b = (lo, hi) if d > 0 else (-hi, -lo)
        return (
            f"{r.arm}: {m.label} {_num(abs(d), m.kind, dec)}{pts_before} {word}{pts_after} "
            f"than {base} "
            f"({before} -> {after}; {conf} {_num(a, m.kind, dec)} to {_num(b, m.kind, dec)}; "
            f"Holm {fmt_p(r.p_holm)})"
        )
    text = (
        f"{r.arm}: {m.label} unchanged ({_num(d, m.kind, dec, True)}{pts}, {conf} "
        f"{_num(lo, m.kind, dec, True)} to {_num(hi, m.kind, dec, True)}; {fmt_p(r.p_value)}"
    )
    if r.p_value < alpha:
        text += f", but {fmt_p(r.p_holm, 'Holm p')} over the table's {tests} tests: not significant"
    return text + ")"


HEADLINE_METRICS = {"rounds": "", "largest_gap": "seat gap ", "fpa": "first-player advantage "}


def headlines(table: pd.DataFrame, alpha: float = ALPHA) -> list[str]:
    """One line per arm after the first: length, seat gap and first-player advantage, e.g.
    'no-chips: 1.8 rounds longer (95% CI 1.6 to 2.0); seat gap unchanged, p = 0.41'."""
    out = []
    arms = list(dict.fromkeys(table["arm"]))
    for arm in arms[1:]:
        parts = []
        for name, label in HEADLINE_METRICS.items():
            sel = table[(table.arm == arm) & (table.metric == name)]
            if sel.empty:
                continue
            r = sel.iloc[0]
            d = r["diff"]
            if r.p_holm < alpha:
                dec = _decimals((r.diff_high - r.diff_low) / 2, r.kind)
                lo, hi = (r.diff_low, r.diff_high) if d > 0 else (-r.diff_high, -r.diff_low)
                if name == "rounds":
                    what = "rounds " + ("longer" if d > 0 else "shorter")
                else:
                    what = "points " + (
                        ("wider" if d > 0 else "narrower")
                        if name == "largest_gap"
                        else ("larger" if d > 0 else "smaller")
                    )
                parts.append(
                    f"{label}{_num(abs(d), r.kind, dec)} {what} (95% CI "
                    f"{_num(lo, r.kind, dec)} to {_num(hi, r.kind, dec)})"
                )
            else:
                parts.append(f"{label or 'length '}unchanged, {fmt_p(r.p_value)}")
        out.append(f"{arm}: " + "; ".join(parts))
    return out


# --------------------------------------------------------------------------------- compare
@dataclass
class Comparison:
    """The result of compare(): the run, the tidy table and the verdicts."""

    run: Any
    table: pd.DataFrame
    headlines: list[str]
    alpha: float = ALPHA
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        run = self.run
        return {
            **run_keys(run, run.players),
            "policies": run.policies,
            "rotate_seats": run.rotate_seats,
            "arms": [
                {
                    "label": a.label,
                    "variants": list(a.variants),
                    "overrides": {k: str(v) for k, v in a.overrides},
                    "rules_hash": r.rules_hash,
                    "rules": r.resolved_rules,
                }
                for a, r in zip(run.arms, run.results)
            ],
            "alpha": self.alpha,
            "table": records(self.table),
            "headlines": self.headlines,
            "elapsed_s": run.elapsed_s,
        }


def comparison(run: Any, alpha: float = ALPHA, with_headlines: bool = True) -> Comparison:
    """The comparison of an ArmRun (simcore.studies.arms.run_compare): every arm against the
    first."""
    table = comparison_table(run, alpha)
    return Comparison(run, table, headlines(table, alpha) if with_headlines else [], alpha)


def sweep_table(sweep: Any, alpha: float = ALPHA) -> dict[str, Any]:
    """A played sweep (simcore.studies.arms.SweepRun) -> {'params': [keys], 'table': tidy frame (one
    row per setting and metric: the param values, metric, value, ci_low, ci_high, diff to the
    first setting with its paired interval and Holm p), 'comparison': the Comparison}."""
    run = sweep.run
    comp = comparison(run, alpha, with_headlines=len(run.arms) > 1)
    t = comp.table.copy()
    lookup = {a.label: dict(a.overrides) for a in run.arms}
    for k in sweep.params:
        t.insert(0, k, [lookup[a][k] for a in t["arm"]])
    return {"params": sweep.params, "table": t, "comparison": comp}


def key_counters(spec: Any) -> list[str]:
    """The counters the dice table shows: the game's first game counter and its first seat
    counter (summed over the seats), when it has them."""
    return [*spec.game_counters[:1], *spec.seat_counters[:1]]


def _with_interval(rec: dict, name: str, key: str, v: pd.DataFrame) -> None:
    """rec[name], rec[name_low], rec[name_high]: metric `key`'s value and interval."""
    rec[name] = v.loc[key, "value"]
    rec[f"{name}_low"] = v.loc[key, "ci_low"]
    rec[f"{name}_high"] = v.loc[key, "ci_high"]


def _dice_rows(p: int, run: Any, alpha: float) -> list[dict]:
    """One row per die of a player count (arm 0 the rulebook's die), the fairest (smallest
    largest seat gap) marked."""
    vals = arm_values(run, alpha)
    counters = [c for c in key_counters(run.spec) if c in run.index]
    prow = []
    for a, arm in enumerate(run.arms):
        s = run.results[a].summary
        bal = seat_balance(s.seat_wins, s.shared_wins, s.games, alpha)
        v = vals[vals.arm == arm.label].set_index("metric")
        rec = {
            "players": p,
            "die": arm.label,
            "faces": arm.override_dict["die"],
            "rulebook": a == 0,
            "games": s.games,
            "chi2_p": bal["p_value"],
            "largest_gap": bal["largest_gap"],
            "gap_low": bal["largest_gap_ci"][0],
            "gap_high": bal["largest_gap_ci"][1],
            "gap_seats": f"{bal['largest_gap_seats'][0]}-{bal['largest_gap_seats'][1]}",
            "fpa": bal["first_player_advantage"],
            "fpa_low": bal["first_player_advantage_ci"][0],
            "fpa_high": bal["first_player_advantage_ci"][1],
        }
        for name in ["rounds", *counters]:
            _with_interval(rec, name, name, v)
        prow.append(rec)
    best = int(np.argmin([r["largest_gap"] for r in prow]))
    for a, r in enumerate(prow):
        r["fairest"] = a == best
    return prow


def _gap_excess(run: Any, prow: list[dict], alpha: float) -> None:
    """For every die but the fairest: how much larger its largest seat gap is than the
    fairest die's (gap_excess), with the paired interval and p of that difference (the same
    games under both dice; each gap's best and worst seats as found in its own games).
    Fills gap_excess, gap_excess_low, gap_excess_high, gap_excess_p (NaN on the fairest)."""
    best = next(a for a, r in enumerate(prow) if r["fairest"])
    cb, _, _ = _gap_vector(run, best)
    for a, r in enumerate(prow):
        r.update(gap_excess=np.nan, gap_excess_low=np.nan, gap_excess_high=np.nan)
        r["gap_excess_p"] = np.nan
        if a == best:
            continue
        c, _, _ = _gap_vector(run, a)
        d, se = run.moments.between(a, best, c, cb)
        lo, hi, pv = t_interval(d, se, run.moments.n, alpha)
        r.update(gap_excess=d, gap_excess_low=lo, gap_excess_high=hi, gap_excess_p=pv)


def dice_tables(runs: dict[int, Any], alpha: float = ALPHA) -> dict[str, Any]:
    """The dice analysis of played dice (simcore.studies.arms.run_dice: {players: ArmRun}, the
    rulebook's die first).

    Returns {'table': one row per (players, die): seat fairness chi-square p, largest gap and
    first-player advantage with intervals, length and the key counters (key_counters), the
    rulebook's die and the fairest die (smallest largest gap in these games) marked, and for
    every other die its gap's excess over the fairest die's (gap_excess: paired interval, p,
    and gap_excess_p_holm, Holm-corrected over every die and player count); 'verdicts': one
    line per player count; 'counters': the key counters shown; 'runs'}.

    A die is called the fairest of its player count (clearly_fairest) only when its gap is
    significantly smaller than every other die's (every Holm p < alpha), the rulebook's die
    included; otherwise the verdict says that no die is clearly fairer and gives the margin
    to the runner-up (the die with the next smallest gap) with its interval."""
    rows = []
    for p, run in runs.items():
        prow = _dice_rows(p, run, alpha)
        _gap_excess(run, prow, alpha)
        rows.append(prow)
    flat = [r for prow in rows for r in prow]
    pvals = [r["gap_excess_p"] for r in flat if np.isfinite(r["gap_excess_p"])]
    corrected = iter(holm(pvals, alpha) if pvals else [])
    for r in flat:
        r["gap_excess_p_holm"] = next(corrected) if np.isfinite(r["gap_excess_p"]) else np.nan
    for prow in rows:
        others = [r for r in prow if not r["fairest"]]
        clear = bool(others) and all(r["gap_excess_p_holm"] < alpha for r in others)
        for r in prow:
            r["clearly_fairest"] = r["fairest"] and clear
    verdicts = [_dice_verdict(prow, alpha) for prow in rows]
    counters = key_counters(next(iter(runs.values())).spec) if runs else []
    return {"table": pd.DataFrame(flat), "verdicts": verdicts, "counters": counters, "runs": runs}


def _pts_ci(v: float, lo: float, hi: float) -> str:
    return f"{v * 100:.1f} points, 95% CI {lo * 100:.1f} to {hi * 100:.1f}"


def _dice_verdict(prow: list[dict], alpha: float) -> str:
    """The verdict line of one player count (its rows as filled by dice_tables)."""
    best = next(r for r in prow if r["fairest"])
    book = prow[0]
    p = best["players"]
    others = sorted((r for r in prow if not r["fairest"]), key=lambda r: r["largest_gap"])
    gap = f"largest seat gap {_pts_ci(best['largest_gap'], best['gap_low'], best['gap_high'])}"
    if not others:
        return f"{p} players: only one die ({best['die']}, {gap})"
    runner = others[0]
    margin = (
        f"{_pts_ci(runner['gap_excess'], runner['gap_excess_low'], runner['gap_excess_high'])}; "
        f"{fmt_p(runner['gap_excess_p'])}, {fmt_p(runner['gap_excess_p_holm'], 'Holm p')}"
    )
    where = "the rulebook's die" if best is book else f"the rulebook's is {book['die']}"
    if best["clearly_fairest"]:
        weakest = max(others, key=lambda r: r["gap_excess_p_holm"])
        return (
            f"{p} players: {best['die']} is the fairest die ({where}; {gap}): its gap is "
            f"smaller than every other die's, by {margin} against the runner-up "
            f"{runner['die']} (the largest Holm p over the other dice: "
            f"{p_text(weakest['gap_excess_p_holm'])})"
        )
    text = (
        f"{p} players: no die is clearly fairer: {best['die']} has the smallest gap ({gap}; "
        f"{where}), the runner-up {runner['die']} "
        f"{runner['largest_gap'] * 100:.1f} points; margin {margin}"
    )
    weak = [r for r in others[1:] if r["gap_excess_p_holm"] >= alpha]
    if runner["gap_excess_p_holm"] < alpha and weak:
        text += f"; not clearly fairer than {', '.join(r['die'] for r in weak)}"
    return text


def sweep_wide(table: pd.DataFrame, params: list[str], metrics: list[str]) -> pd.DataFrame:
    """One row per setting: each metric's value and interval side by side."""
    out = None
    for m in metrics:
        sel = table[table.metric == m][[*params, "value", "ci_low", "ci_high"]].rename(
            columns={"value": m, "ci_low": f"{m}_low", "ci_high": f"{m}_high"}
        )
        out = sel if out is None else out.merge(sel, on=params)
    return out.reset_index(drop=True)
