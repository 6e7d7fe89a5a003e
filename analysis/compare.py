"""Comparisons on common random numbers, from what simcore.studies.compare played: the tidy
comparison table, its verdicts and headlines, the dice table and the sweep table.

Every arm of a comparison was played on the same games (game i of seed S draws its randomness
only from (S, i)), so the differences between arms are analysed per game (paired), which
removes the game-to-game noise both arms share. Every paired interval is computed from the
running sums of per-game metrics the run kept (simcore.base.metrics.ArmMoments).

Statistics come from scipy / statsmodels: t intervals and p-values (scipy.stats.t), Wilson
intervals, Holm's correction (statsmodels multipletests) and Cohen's h
(statsmodels proportion_effectsize).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, TypedDict

import numpy as np
import pandas as pd
from statsmodels.stats.proportion import proportion_effectsize

from analysis.stats import (
    rate_ci,
    ratio_value,
    seat_balance,
    t_interval,
)
from analysis.summary import records, run_keys
from simcore.base.metrics import REST_ON_OPENING, Metric, largest_gap_seats, shown_metrics
from simcore.base.results import ArmRun, GameInfo, SweepRun
from simcore.base.verdicts import (
    Verdict,
    Wording,
    effect_wording,
    first_player_advantage,
    interval_words,
    largest_gap,
    z_verdict,
)

ALPHA = 0.05


# --------------------------------------------------------------------------------- tables
def _gap_vector(run: ArmRun, a: int) -> tuple[np.ndarray, int, int]:
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


def arm_values(run: ArmRun, alpha: float = ALPHA) -> pd.DataFrame:
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


def _metric_defs(run: ArmRun) -> list[Metric]:
    return shown_metrics(run.metrics)


def _constant(run: ArmRun, j: int) -> bool:
    mo = run.moments
    means = np.array([mo.mean(a)[j] for a in range(len(run.arms))])
    var = np.array([mo.cov(a)[j, j] for a in range(len(run.arms))])
    return bool(np.all(var <= 1e-12) and np.ptp(means) == 0)


def _constant_ratio(run: ArmRun, m: Metric) -> bool:
    """A feel metric with nothing to compare: it rests on no game in some arm, or its parts
    are the same in every game of every arm."""
    idx = run.index
    cols = [idx[c] for c, _ in m.num] + ([idx[m.den]] if m.den else [])
    den = idx[m.den] if m.den else None
    if den is not None and any(run.moments.count(a, den) == 0 for a in range(len(run.arms))):
        return True
    return all(_constant(run, j) for j in cols)


class Shared(tuple):
    """What a table keeps in its attrs (its verdict records, its scoring-only arms): shared by
    every frame derived from it, never copied (pandas deep-copies attrs on every operation,
    which made a report's tables seconds slower; the records are immutable)."""

    def __deepcopy__(self, memo: dict) -> Shared:
        return self


def comparison_table(run: ArmRun, alpha: float = ALPHA, paired: bool = True) -> pd.DataFrame:
    """The tidy comparison table: one row per (metric, arm) with the arm's value and interval,
    and for every arm after the first the difference to the first arm with its paired interval,
    p-value, the interval and p adjusted over the table's tests (Bonferroni: `tests`, `adj_low`,
    `adj_high`, `p_adjusted`, `significant`), Cohen's h (rates) and a verdict (the record's
    sentence; simcore.base.verdicts; the records in attrs["verdicts"]).

    paired=False gives the intervals two independent runs would have (for illustration)."""
    vals = arm_values(run, alpha)
    by_key = {(r["metric"], r["arm"]): r for r in vals.to_dict("records")}
    k = len(run.metrics)
    idx = run.index
    defs = {m.name: m for m in _metric_defs(run)}
    records = []
    for m in _metric_defs(run):
        if m.name == "largest_gap" and run.players == 2:
            continue  # 2 players: the gap is twice the first-player advantage, one question
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
                rec.update(diff=d, diff_low=lo, diff_high=hi, p_value=p, se=se)
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
                rec.update(diff=d, diff_low=lo, diff_high=hi, p_value=p, se=se)
                if m.kind == "rate" and m.name not in ("fpa", "largest_gap"):
                    rec["cohen_h"] = float(proportion_effectsize(row["value"], base["value"]))
            records.append(rec)
    df = pd.DataFrame(records)
    if "se" not in df:
        df["se"] = np.nan
    only = scoring_only_arms(run, df)
    df["scoring_only"] = df["arm"].isin(only)
    # the family the calls are adjusted over: every difference that varies from game to game
    # (a difference that is 0 in every game is no test: it is exactly 0)
    family = df["p_value"].notna() & ~((df["se"] <= 0) & (df["diff"] == 0))
    tests = max(int(family.sum()), 1)
    df["tests"] = np.where(df["p_value"].notna(), tests, 0)
    verdicts = []
    n = len(df)
    adj = np.full((n, 3), np.nan)  # adj_low, adj_high, p_adjusted
    words = [""] * n
    in_family = family.to_numpy()
    for i, r in enumerate(df.to_dict("records")):
        if not np.isfinite(r["p_value"]):
            continue
        v = effect_verdict(run, defs[r["metric"]], r, tests if in_family[i] else 1, alpha)
        verdicts.append(v)
    verdicts = opening_notes(verdicts)
    at = iter(verdicts)
    for i, r in enumerate(df.to_dict("records")):
        if not np.isfinite(r["p_value"]):
            continue
        v = next(at)
        scale = 100 if r["kind"] == "rate" else 1
        adj[i] = (v.low / scale, v.high / scale, v.p)
        words[i] = (
            v.sentence() if in_family[i] else f"`{r['arm']}`: the same {r['label']} in every game"
        )
    df["adj_low"], df["adj_high"], df["p_adjusted"] = adj[:, 0], adj[:, 1], adj[:, 2]
    df["verdict"] = words
    df["significant"] = df["p_adjusted"] < alpha
    df.attrs["verdicts"] = Shared(verdicts)
    df.attrs["scoring_only"] = Shared(only)
    return df


# the metrics a scoring rule cannot change: what the players did (length, counters); a
# variant under which all of them are the same in every game is scoring-only
def _play_metric(m: Metric) -> bool:
    return m.kind == "mean" and not m.name.startswith("score_") and not m.num


def scoring_only_arms(run: ArmRun, table: pd.DataFrame) -> list[str]:
    """The arms whose games are the baseline's game for game (every play metric: length,
    turns and every counter, the same in every game: paired difference 0 with no variance):
    the players made the same decisions, only the scoring differs."""
    out = []
    play = [m.name for m in _metric_defs(run) if _play_metric(m) and m.name in run.index]
    if not play:
        return out
    k = len(run.metrics)
    for a, arm in enumerate(run.arms[1:], start=1):
        same = True
        for name in play:
            d, se = run.moments.paired(a, _unit(k, run.index[name]), _unit(k, run.index[name]))
            if d != 0 or se > 0:
                same = False
                break
        if same:
            out.append(arm.label)
    return out


OWN_SCALE = ("margin",)  # metrics in score points: a scoring rule changes their scale


def effect_verdict(
    run: ArmRun, m: Metric, r: dict[str, Any], tests: int, alpha: float = ALPHA
) -> Verdict:
    """The verdict record of a variant's effect on a metric (a row of comparison_table):
    points for rates, the metric's unit otherwise; a score metric of a scoring-only variant
    is marked as in the variant's own scale."""
    k = 100.0 if m.kind == "rate" else 1.0
    unit = "points" if m.kind == "rate" else (m.unit or "")
    if m.name in OWN_SCALE or m.name.startswith("score_"):
        unit = "score points"
        if r["scoring_only"]:
            unit += " (in the variant's own scale)"
    before, after = k * (r["value"] - r["diff"]), k * r["value"]
    words = effect_wording(r["arm"], m.name, m.label, m.more, m.less, before, after, unit)
    return z_verdict(
        f"{run.players}p/effect/{r['arm']}/{m.name}",
        f"{m.label} under {r['arm']} minus under {run.arms[0].label}",
        unit,
        k * r["diff"],
        k * r["se"],
        int(r["games"]),
        words,
        tests,
        alpha,
        df=int(run.moments.n) - 1,
    )


def opening_notes(verdicts: list[Verdict]) -> list[Verdict]:
    """The variants' feel effects that rest on the tied opening (REST_ON_OPENING) say so
    (issue #35): when a variant changes one of them significantly and also lengthens or
    shortens the stretch of turns before anyone leads alone (the `opening` record of the same
    arm, significant), the effect's record gets a note quoting that record, since who leads
    at half-time and when the winner leads for good then move with when anyone leads at all."""
    by_key = {v.key: v for v in verdicts}
    out = []
    for v in verdicts:
        prefix, metric = v.key.rsplit("/", 1)
        opening = by_key.get(f"{prefix}/opening")
        if metric in REST_ON_OPENING and v.significant and opening and opening.significant:
            longer = "longer" if opening.estimate > 0 else "shorter"
            v = replace(
                v,
                note=(
                    f"with a {longer} tied opening ({opening.interval_text()} of the game's "
                    "turns before anyone leads alone): the effect comes at least partly from "
                    "when the first lead appears"
                ),
            )
        out.append(v)
    return out


# --------------------------------------------------------------------------------- words
HEADLINE_METRICS = ("rounds", "largest_gap", "fpa")


def headlines(table: pd.DataFrame, alpha: float = ALPHA) -> list[str]:
    """One line per arm after the first: its verdicts on the length, the largest seat gap and
    the first-player advantage (the records' sentences); a scoring-only arm says so first."""
    out = []
    verdicts = {v.key.split("/", 2)[2]: v for v in table.attrs.get("verdicts", [])}
    arms = list(dict.fromkeys(table["arm"]))
    for arm in arms[1:]:
        parts = [
            verdicts[f"{arm}/{name}"].sentence()
            for name in HEADLINE_METRICS
            if f"{arm}/{name}" in verdicts
        ]
        head = f"{arm}: "
        if arm in table.attrs.get("scoring_only", []):
            head += "the players' games are unchanged (only the scores differ); "
        if not parts:
            parts = ["no difference from the baseline in any game"]
        out.append(head + "; ".join(parts))
    return out


# --------------------------------------------------------------------------------- compare
@dataclass
class Comparison:
    """The result of compare(): the run, the tidy table and the verdicts."""

    run: ArmRun
    table: pd.DataFrame
    headlines: list[str]
    alpha: float = ALPHA
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def verdicts(self) -> list[Verdict]:
        """The verdict records of every difference in the table (simcore.base.verdicts)."""
        return list(self.table.attrs.get("verdicts", []))

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
            "verdicts": [v.as_json() for v in self.verdicts],
            "scoring_only": list(self.table.attrs.get("scoring_only", [])),
            "headlines": self.headlines,
            "elapsed_s": run.elapsed_s,
        }


def comparison(run: ArmRun, alpha: float = ALPHA, with_headlines: bool = True) -> Comparison:
    """The comparison of an ArmRun (simcore.studies.compare.run_compare): every arm against the
    first."""
    table = comparison_table(run, alpha)
    return Comparison(run, table, headlines(table, alpha) if with_headlines else [], alpha)


def sweep_table(sweep: SweepRun, alpha: float = ALPHA) -> dict[str, Any]:
    """A played sweep (simcore.studies.compare.SweepRun) -> {'params': [keys], 'table': tidy
    frame (one row per setting and metric: the param values, metric, value, ci_low, ci_high,
    diff to the first setting with its paired interval and the adjusted call), 'comparison':
    the Comparison}."""
    run = sweep.run
    comp = comparison(run, alpha, with_headlines=len(run.arms) > 1)
    t = comp.table.copy()
    lookup = {a.label: dict(a.overrides) for a in run.arms}
    for k in sweep.params:
        t.insert(0, k, [lookup[a][k] for a in t["arm"]])
    return {"params": sweep.params, "table": t, "comparison": comp}


def key_counters(spec: GameInfo) -> list[str]:
    """The counters the dice table shows: the game's first game counter and its first seat
    counter (summed over the seats), when it has them."""
    return [*spec.game_counters[:1], *spec.seat_counters[:1]]


def _with_interval(rec: dict, name: str, key: str, v: pd.DataFrame) -> None:
    """rec[name], rec[name_low], rec[name_high]: metric `key`'s value and interval."""
    rec[name] = v.loc[key, "value"]
    rec[f"{name}_low"] = v.loc[key, "ci_low"]
    rec[f"{name}_high"] = v.loc[key, "ci_high"]


def _dice_rows(p: int, run: ArmRun, alpha: float) -> list[dict]:
    """One row per die of a player count (arm 0 the rulebook's die), the fairest (smallest
    largest seat gap) marked; the gap and the first-player advantage are the seat verdicts
    of simcore.base.verdicts (as every command gives them; shares in the table)."""
    vals = arm_values(run, alpha)
    counters = [c for c in key_counters(run.spec) if c in run.index]
    prow = []
    for a, arm in enumerate(run.arms):
        s = run.results[a].summary
        bal = seat_balance(s.seat_wins, s.shared_wins, s.games, alpha)
        gap = largest_gap(p, s.seat_wins, s.games, alpha)
        fpa = first_player_advantage(p, s.seat_wins[0], sum(s.seat_wins), s.games, alpha)
        v = vals[vals.arm == arm.label].set_index("metric")
        best, worst = largest_gap_seats(s.seat_wins)
        rec = {
            "players": p,
            "die": arm.label,
            "faces": arm.override_dict["die"],
            "rulebook": a == 0,
            "games": s.games,
            "chi2_p": bal["p_value"],
            "largest_gap": gap.estimate / 100,
            "gap_low": gap.low / 100,
            "gap_high": gap.high / 100,
            "gap_seats": f"{best}-{worst}",
            "fpa": fpa.estimate / 100,
            "fpa_low": fpa.low / 100,
            "fpa_high": fpa.high / 100,
            "verdicts": [gap.as_json(), fpa.as_json()],
        }
        for name in ["rounds", *counters]:
            _with_interval(rec, name, name, v)
        prow.append(rec)
    best = int(np.argmin([r["largest_gap"] for r in prow]))
    for a, r in enumerate(prow):
        r["fairest"] = a == best
    return prow


def _gap_excess(
    run: ArmRun, prow: list[dict], alpha: float
) -> list[tuple[dict, float, float, int]]:
    """For every die but the fairest: how much larger its largest seat gap is than the
    fairest die's (gap_excess, a share), with the unadjusted paired interval and p of that
    difference (the same games under both dice; each gap's best and worst seats as found in
    its own games). Fills gap_excess, gap_excess_low, gap_excess_high, gap_excess_p (NaN on
    the fairest) and returns (row, difference, its standard error) per other die."""
    best = next(a for a, r in enumerate(prow) if r["fairest"])
    cb, _, _ = _gap_vector(run, best)
    out = []
    for a, r in enumerate(prow):
        r.update(gap_excess=np.nan, gap_excess_low=np.nan, gap_excess_high=np.nan)
        r["gap_excess_p"] = np.nan
        if a == best:
            continue
        c, _, _ = _gap_vector(run, a)
        d, se = run.moments.between(a, best, c, cb)
        lo, hi, pv = t_interval(d, se, run.moments.n, alpha)
        r.update(gap_excess=d, gap_excess_low=lo, gap_excess_high=hi, gap_excess_p=pv)
        out.append((r, d, se, int(run.moments.n)))
    return out


def gap_excess_verdict(
    r: dict, fairest: str, d: float, se: float, n: int, tests: int, alpha: float
) -> Verdict:
    """The verdict record of one die's gap against the fairest die's, in points, adjusted
    over every die of every player count compared (tests)."""
    p, die = r["players"], r["die"]
    return z_verdict(
        f"{p}p/die_gap_excess/{die}",
        f"the largest seat gap with die {die} minus with die {fairest}",
        "points",
        100 * d,
        100 * se,
        int(r["games"]),
        Wording(
            f"die {die} leaves a wider seat gap than die {fairest}",
            f"die {die} leaves a narrower seat gap than die {fairest}",
            f"die {die}'s seat gap is not clearly wider than die {fairest}'s",
        ),
        tests,
        alpha,
        df=n - 1,
    )


class DiceTables(TypedDict):
    """The dice analysis (dice_tables)."""

    table: pd.DataFrame  # one row per (players, die)
    verdicts: list[str]  # one line per player count
    records: list[Verdict]  # each die's gap against the fairest die's
    counters: list[str]  # the key counters shown
    runs: dict[int, ArmRun]


def dice_tables(runs: dict[int, ArmRun], alpha: float = ALPHA) -> DiceTables:
    """The dice analysis of played dice (simcore.studies.compare.run_dice: {players: ArmRun}, the
    rulebook's die first).

    Returns {'table': one row per (players, die): seat fairness chi-square p, largest gap and
    first-player advantage with intervals (shares), length and the key counters
    (key_counters), the rulebook's die and the fairest die (smallest largest gap in these
    games) marked, and for every other die its gap's excess over the fairest die's
    (gap_excess: the unadjusted paired interval and p; gap_excess_adj_low/_high and
    gap_excess_p_adjusted: Bonferroni over every die and player count compared, what the call
    rests on); 'verdicts': one line per player count; 'records': the verdict records;
    'counters': the key counters shown; 'runs'}.

    A die is called the fairest of its player count (clearly_fairest) only when its gap is
    significantly smaller than every other die's (every adjusted interval above 0), the
    rulebook's die included; otherwise the verdict says that no die is clearly fairer and
    gives the margin to the runner-up (the die with the next smallest gap) with its
    interval."""
    rows, excess = [], []
    for p, run in runs.items():
        prow = _dice_rows(p, run, alpha)
        excess += _gap_excess(run, prow, alpha)
        rows.append(prow)
    tests = max(len(excess), 1)
    records_ = []
    for prow in rows:
        fairest = next(r["die"] for r in prow if r["fairest"])
        for r in prow:
            r.update(gap_excess_adj_low=np.nan, gap_excess_adj_high=np.nan)
            r["gap_excess_p_adjusted"] = np.nan
            r["gap_excess_verdict"] = None
        for r, d, se, n in (e for e in excess if e[0] in prow):
            v = gap_excess_verdict(r, fairest, d, se, n, tests, alpha)
            r.update(gap_excess_adj_low=v.low / 100, gap_excess_adj_high=v.high / 100)
            r["gap_excess_p_adjusted"] = v.p
            r["gap_excess_verdict"] = v.as_json()
            records_.append(v)
        others = [r for r in prow if not r["fairest"]]
        clear = bool(others) and all(r["gap_excess_adj_low"] > 0 for r in others)
        for r in prow:
            r["clearly_fairest"] = r["fairest"] and clear
    by_key = {v.key: v for v in records_}
    verdicts = [_dice_verdict(prow, by_key) for prow in rows]
    counters = key_counters(next(iter(runs.values())).spec) if runs else []
    return {
        "table": pd.DataFrame([r for prow in rows for r in prow]),
        "verdicts": verdicts,
        "records": records_,
        "counters": counters,
        "runs": runs,
    }


def _dice_verdict(prow: list[dict], by_key: dict[str, Verdict]) -> str:
    """The verdict line of one player count (its rows as filled by dice_tables): the
    fairest die's gap, and the runner-up's margin as its verdict record says it."""
    best = next(r for r in prow if r["fairest"])
    book = prow[0]
    p = best["players"]
    others = sorted((r for r in prow if not r["fairest"]), key=lambda r: r["largest_gap"])
    g = best["verdicts"][0]
    gap = f"{g['words']}: " + interval_words(
        g["estimate"], g["low"], g["high"], g["unit"], g["alpha"], g["tests"]
    )
    if not others:
        return f"{p} players: only one die ({best['die']}, {gap})"
    runner = by_key[f"{p}p/die_gap_excess/{others[0]['die']}"]
    where = "the rulebook's die" if best is book else f"the rulebook's is {book['die']}"
    if best["clearly_fairest"]:
        return (
            f"{p} players: {best['die']} is the fairest die ({where}; {gap}): its gap is "
            f"smaller than every other die's; the margin to the runner-up {others[0]['die']}: "
            f"{runner.sentence()}"
        )
    text = (
        f"{p} players: no die is clearly fairer: {best['die']} has the smallest gap ({gap}; "
        f"{where}); the margin to the runner-up {others[0]['die']}: {runner.sentence()}"
    )
    if runner.significant:
        weak = [
            r["die"]
            for r in others[1:]
            if not by_key[f"{p}p/die_gap_excess/{r['die']}"].significant
        ]
        if weak:
            text += f"; not clearly fairer than {', '.join(weak)}"
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
