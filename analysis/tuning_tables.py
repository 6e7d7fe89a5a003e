"""The tuning commands' tables, verdicts and plots (simcore.studies.tune_players,
simcore.studies.tune_rules
play; this module only computes statistics on what they played and renders it).

Every verdict rests on the confirmation run only (fresh games, never the search's own,
optimistically biased estimates): paired differences against the starting point with t
intervals (analysis.compare.t_interval), Holm's correction over the candidates
(statsmodels multipletests), Wilson intervals for win rates and an exact binomial test
against the fair share (scipy).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as _st

from analysis.compare import ALPHA, t_interval
from analysis.stats import fmt_p, holm, rate_ci
from simcore.base.results import (
    PlayerConfirmation,
    PlayerTuning,
    RulesTuning,
    TuningObjective,
    TuningRun,
)
from simcore.base.verdicts import Wording, z_verdict

# --------------------------------------------------------------------------------- players


def player_confirmation_table(conf: PlayerConfirmation, alpha: float = ALPHA) -> pd.DataFrame:
    """One row per arm of a player confirmation (the starting player first): its win rate in
    the tuned seat against the starting player in every other seat with a Wilson interval,
    the exact one-sided binomial p of 'above the fair share 1/players', and for candidates
    the paired difference to the starting player on the same games (t interval, p, Holm p
    over the candidates)."""
    fair = 1.0 / conf.players
    base = conf.wins[0].astype(float)
    rows = []
    for k, (label, idx, w) in enumerate(zip(conf.labels, conf.indices, conf.wins)):
        n, wins = len(w), int(w.sum())
        lo, hi = rate_ci(wins, n, alpha)
        rec = {
            "arm": label,
            "trial": idx,
            "games": n,
            "wins": wins,
            "win_rate": wins / n,
            "ci_low": lo,
            "ci_high": hi,
            "p_above_fair": float(_st.binomtest(wins, n, fair, alternative="greater").pvalue),
            "diff": np.nan,
            "diff_low": np.nan,
            "diff_high": np.nan,
            "p_value": np.nan,
        }
        if k > 0:
            d = w.astype(float) - base
            se = float(d.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
            dlo, dhi, p = t_interval(float(d.mean()), se, n, alpha)
            rec.update(diff=float(d.mean()), diff_low=dlo, diff_high=dhi, p_value=p, se=se)
        rows.append(rec)
    df = pd.DataFrame(rows)
    cand = df.index[1:]
    start = conf.labels[0]

    def verdict_of(r: pd.Series) -> tuple[str, str, str, float, Wording]:
        name = (
            f"tuned/vs_start/{r.arm if 'arm' in r else r.candidate}/{r.get('metric', 'win_rate')}"
        )
        words = Wording(
            f"{r.arm} beats {start}",
            f"{r.arm} loses to {start}",
            f"{r.arm} is not distinguishable from {start}",
        )
        return name, "the difference to the start", "points", 100.0, words

    _adjust(df, cand, alpha, max(len(cand), 1), verdict_of)
    if len(cand):
        df.loc[cand, "p_fair_holm"] = holm(df.loc[cand, "p_above_fair"], alpha)
    return df


def _adjust(
    df: pd.DataFrame,
    rows: pd.Index,
    alpha: float,
    tests: int,
    verdict_of: Callable[[pd.Series], tuple[str, str, str, float, Wording]],
) -> None:
    """The verdict records of the differences in `rows` of a confirmation table, adjusted
    over `tests` comparisons (simcore.base.verdicts: Bonferroni, the interval printed the one
    the call rests on); verdict_of(row) -> (name, quantity, unit, scale, wording), scale: the
    unit per share of diff. Fills adj_low, adj_high, p_adjusted (shares like diff),
    significant and record (the record as JSON)."""
    df["adj_low"], df["adj_high"], df["p_adjusted"] = np.nan, np.nan, np.nan
    df["significant"], df["record"] = False, None
    for i in rows:
        r = df.loc[i]
        name, quantity, unit, scale, words = verdict_of(r)
        games = int(r["games"])
        diff, se = scale * r["diff"], scale * r["se"]
        v = z_verdict(name, quantity, unit, diff, se, games, words, tests, alpha, df=games - 1)
        df.loc[i, ["adj_low", "adj_high", "p_adjusted"]] = [v.low / scale, v.high / scale, v.p]
        df.at[i, "significant"] = v.significant
        df.at[i, "record"] = v.as_json()


def player_verdicts(
    conf: PlayerConfirmation, table: pd.DataFrame, chosen: int | None, alpha: float = ALPHA
) -> list[str]:
    """One line per candidate, then the verdict on the weights written (chosen)."""
    start = conf.labels[0]
    fair = 1.0 / conf.players
    lines = []
    for k in range(1, len(table)):
        r = table.iloc[k]
        better = r.significant and r["diff"] > 0
        worse = r.significant and r["diff"] < 0
        word = "beats" if better else ("loses to" if worse else "is not distinguishable from")
        adj = f", adjusted over {len(table) - 1}" if len(table) > 2 else ""
        lines.append(
            f"{r.arm} {word} {start}: {r['diff'] * 100:+.2f} points of win rate "
            f"(95% CI{adj} {r.adj_low * 100:+.2f} to {r.adj_high * 100:+.2f}; "
            f"{fmt_p(r.p_adjusted, 'adjusted p' if adj else 'p')}); against {conf.players - 1} "
            f"{start}: {r.win_rate * 100:.2f}% (95% CI {r.ci_low * 100:.2f} to "
            f"{r.ci_high * 100:.2f}), "
            + ("above" if r.ci_low > fair else "not above")
            + f" the fair share {fair * 100:.1f}%"
        )
    if chosen is not None:
        r = table.iloc[chosen]
        ok = r.significant and r["diff"] > 0
        lines.append(
            f"verdict: the weights written ({r.arm}) "
            + (f"beat {start} on fresh games" if ok else f"are NOT confirmed better than {start}")
            + (
                "; the lower end of their win rate's 95% interval is "
                + ("above" if r.ci_low > fair else "not above")
                + f" {fair * 100:.1f}%"
            )
        )
    return lines


def _run_json(res: TuningRun, command: str) -> dict[str, Any]:
    """The JSON keys of both tuning commands (simcore.base.results.TuningRun)."""
    return {
        "command": command,
        "game": res.game,
        "players": res.players,
        "seed": res.seed,
        "budget": res.budget,
        "trials": len(res.trials),
        "resumed_trials": res.resumed_trials,
        "games_per_trial": res.games_per_trial,
        "storage": res.storage,
        "study": res.study,
        "search_s": res.search_s,
        "confirm_s": res.confirm_s,
    }


def player_json(
    res: PlayerTuning, table: pd.DataFrame | None, verdicts: list[str]
) -> dict[str, Any]:
    b = res.best
    out = {
        **_run_json(res, "tune-players"),
        "policy": res.policy,
        "name": res.name,
        "population": res.population,
        "space": {k: list(v) for k, v in res.space.items()},
        "start": res.start,
        "search_best": {"trial": b["index"], "value": b["value"], "weights": b["params"]},
        "out": res.out,
        "verdicts": verdicts,
    }
    if res.confirmation is not None and table is not None:
        conf = res.confirmation
        out["confirmation"] = {
            "games": conf.games,
            "first_game_index": conf.first_index,
            "opponents": conf.opponents,
            "table": json.loads(table.to_json(orient="records")),
            "weights": conf.weights,
            "chosen": res.chosen,
        }
    return out


def _weights_table(res: PlayerTuning) -> pd.DataFrame:
    rows = []
    conf = res.confirmation
    shown = conf.weights[res.chosen] if conf is not None and res.chosen else res.best["params"]
    for k, (lo, hi, whole) in res.space.items():
        rows.append(
            {
                "weight": k,
                "start": res.start[k],
                "written": shown[k],
                "range": f"{lo:g}..{hi:g}" + (" (whole)" if whole else ""),
            }
        )
    return pd.DataFrame(rows)


def render_player_tuning(res: PlayerTuning, json_out: bool, echo: Callable[[str], None]) -> None:
    """Print a tune-players result: the search in one line, the weights, the confirmation
    table and the verdicts (or one JSON object)."""
    conf = res.confirmation
    table = player_confirmation_table(conf) if conf is not None else None
    verdicts = player_verdicts(conf, table, res.chosen) if conf is not None else []
    if json_out:
        echo(json.dumps(player_json(res, table, verdicts), indent=2, default=float))
        return
    b = res.best
    echo(
        f"{res.game}, {res.players} players: tuned {res.policy} ({len(res.space)} weights) "
        f"over {len(res.trials)} trials of {res.games_per_trial:,} games "
        f"({res.resumed_trials} from the database), {res.search_s:.0f} s; "
        f"study {res.study} in {res.storage}"
    )
    echo(
        f"search's best: trial {b['index']}, mean win rate {b['value']:.4f} against "
        f"{', '.join(res.population)} (the search's own estimate, optimistic; not a verdict)"
    )
    if conf is None:
        echo("no confirmation (the search stopped before its budget)")
        return
    echo(_weights_table(res).to_string(index=False))
    echo(
        f"confirmation: {conf.games:,} fresh games per arm (game indices from "
        f"{conf.first_index:,}, seed {res.seed}), each arm against {conf.players - 1} "
        f"{conf.opponents}, seats rotated, {res.confirm_s:.0f} s"
    )
    show = table[["arm", "games"]].copy()
    for c in ("win_rate", "ci_low", "ci_high", "diff", "adj_low", "adj_high"):
        show[c] = 100 * table[c]
    show["p_adjusted"] = table["p_adjusted"]
    echo("(win rates in %, differences in points; adj_low/adj_high: the adjusted 95% CI)")
    echo(show.to_string(index=False, float_format=lambda x: f"{x:.2f}", na_rep=""))
    for line in verdicts:
        echo(line)
    if res.out:
        echo(f"weights written to {res.out} (use: --policy-file {res.out} --policy {res.name},...)")


# --------------------------------------------------------------------------------- rules
TABLE_METRIC = {"seat_gap": "largest_gap", "first_player": "fpa"}


def _metric(quantity: str) -> str:
    return TABLE_METRIC.get(quantity, quantity)


def _improves(o: TuningObjective, base: float, r: pd.Series, alpha: float) -> bool:
    """Whether a candidate's paired difference to the start (row r of the comparison table)
    confirms an improvement of objective o: significant (the adjusted interval excludes 0) in
    the objective's direction; for a target, toward it and not past it by more than the
    start's distance (the whole adjusted interval between 0 and twice the start's distance,
    toward the target)."""
    if not r.significant:
        return False
    if o.target is None:
        return r["diff"] < 0 if o.direction == "min" else r["diff"] > 0
    dist = abs(o.target - base)
    toward = 1.0 if o.target > base else -1.0
    lo, hi = sorted((toward * r.adj_low, toward * r.adj_high))
    return lo > 0 and hi < 2 * dist


def rules_confirmation_table(res: RulesTuning, alpha: float = ALPHA) -> pd.DataFrame:
    """One row per (candidate, objective) of a rules confirmation: the start's and the
    candidate's values with intervals, the paired difference with its interval, p and the
    adjusted interval and p (over every candidate and objective: the call's), and whether it
    confirms an improvement."""
    from analysis.compare import comparison_table

    run = res.confirmation
    table = comparison_table(run, alpha)
    start = run.arms[0].label
    rows, objs = [], []
    for a, arm in enumerate(run.arms[1:], start=1):
        for o in res.objectives:
            m = _metric(o.quantity)
            sel = table[(table.metric == m) & (table.arm == arm.label)]
            b = table[(table.metric == m) & (table.arm == start)]
            if sel.empty or b.empty:  # the same value in every game of every arm
                continue
            r, b = sel.iloc[0], b.iloc[0]
            rows.append(
                {
                    "candidate": arm.label,
                    "trial": res.candidates[a - 1]["index"],
                    "objective": o.text,
                    "metric": m,
                    "start": b.value,
                    "start_low": b.ci_low,
                    "start_high": b.ci_high,
                    "value": r.value,
                    "ci_low": r.ci_low,
                    "ci_high": r.ci_high,
                    "diff": r["diff"],
                    "diff_low": r.diff_low,
                    "diff_high": r.diff_high,
                    "p_value": r.p_value,
                    "se": r.se,
                    "games": r.games,
                    "kind": r.kind,
                }
            )
            objs.append(o)
    df = pd.DataFrame(rows)
    if df.empty:
        return df
    _adjust_over_all(df, alpha)
    df["improves"] = [_improves(o, r.start, r, alpha) for o, (_, r) in zip(objs, df.iterrows())]
    df["constraints"] = [_constraints_text(res, table, c) for c in df["candidate"]]
    df["also"] = [_side_effects(res, table, c, start) for c in df["candidate"]]
    return df


def _objective_words(r: pd.Series) -> Wording:
    return Wording(
        f"{r.candidate} raises {r.metric}",
        f"{r.candidate} lowers {r.metric}",
        f"{r.candidate} does not change {r.metric} detectably",
    )


def _adjust_over_all(df: pd.DataFrame, alpha: float) -> None:
    """The verdict records of a rules confirmation table, adjusted over every row (every
    candidate and objective): fills adj_low, adj_high, p_adjusted (in the table's scale),
    significant and record; rates in points."""

    def verdict_of(r: pd.Series) -> tuple[str, str, str, float, Wording]:
        scale = 100.0 if r["kind"] == "rate" else 1.0
        quantity = f"{r.metric} of {r.candidate} minus the start's"
        unit = "points" if scale == 100 else ""
        return f"tune/{r.candidate}/{r.metric}", quantity, unit, scale, _objective_words(r)

    _adjust(df, df.index, alpha, len(df), verdict_of)


SIDE_METRICS = {"rounds": ("length", " rounds", 1.0), "shared": ("shared wins", "%", 100.0)}


def _side_effects(res: RulesTuning, table: pd.DataFrame, arm: str, start: str) -> str:
    """What else the candidate changes (length, shared wins), when not an objective: the
    start's value, the candidate's, the paired difference's interval (not Holm-corrected:
    a description, not a test)."""
    objs = {_metric(o.quantity) for o in res.objectives}
    out = []
    for m, (label, unit, k) in SIDE_METRICS.items():
        sel = table[(table.metric == m) & (table.arm == arm)]
        b = table[(table.metric == m) & (table.arm == start)]
        if m in objs or sel.empty or b.empty:
            continue
        r = sel.iloc[0]
        out.append(
            f"{label} {b.iloc[0].value * k:.2f} -> {r.value * k:.2f}{unit} "
            f"(95% CI of the difference {r.diff_low * k:+.2f} to {r.diff_high * k:+.2f})"
        )
    return "; ".join(out)


def _constraints_text(res: RulesTuning, table: pd.DataFrame, arm: str) -> str:
    """Each constraint on the candidate's confirmed value: 'ok', 'ok?' (the point estimate
    holds, the interval crosses the bound) or 'NO'."""
    out = []
    for c in res.constraints:
        sel = table[(table.metric == _metric(c.quantity)) & (table.arm == arm)]
        if sel.empty:
            continue
        r = sel.iloc[0]
        sure = c.holds(r.ci_low) and c.holds(r.ci_high)
        out.append(f"{c.text}: " + ("ok" if sure else "ok?" if c.holds(r.value) else "NO"))
    return "; ".join(out)


def rules_verdicts(res: RulesTuning, table: pd.DataFrame) -> list[str]:
    lines = []
    for r in table.itertuples():
        kind = "rate" if r.metric in ("largest_gap", "fpa") or r.metric.startswith("win") else ""
        f = (lambda x: f"{x * 100:.2f} points") if kind else (lambda x: f"{x:.3f}")
        g = (lambda x: f"{x * 100:+.2f}") if kind else (lambda x: f"{x:+.3f}")
        lines.append(
            f"{r.candidate}: {r.objective} ({r.metric}) {f(r.start)} -> {f(r.value)}, "
            f"difference {g(r.diff)} (95% CI {g(r.adj_low)} to {g(r.adj_high)}, adjusted over "
            f"{len(table)} tests; {fmt_p(r.p_adjusted, 'adjusted p')}): "
            + ("confirmed better than the start" if r.improves else "not confirmed better")
            + (f"; constraints {r.constraints}" if r.constraints else "")
            + (f"; also {r.also}" if r.also else "")
        )
    good = table[table.improves] if not table.empty else table
    if good.empty:
        lines.append(
            "verdict: no setting in the searched range is confirmed better than the start "
            "on fresh games"
        )
    elif len(res.objectives) == 1:
        names = ", ".join(dict.fromkeys(good.candidate))
        lines.append(f"verdict: confirmed better than the start on fresh games: {names}")
    else:  # per objective, and in both
        parts = []
        for o in res.objectives:
            sel = good[good.objective == o.text]
            parts.append(f"in {o.text}: {', '.join(sel.candidate) if len(sel) else 'none'}")
        both = [c for c, g in good.groupby("candidate") if len(g) == len(res.objectives)]
        parts.append(f"in both: {', '.join(both) if both else 'none'}")
        lines.append("verdict: confirmed better than the start on fresh games " + "; ".join(parts))
    return lines


def front_table(res: RulesTuning) -> pd.DataFrame:
    """The trials shown: the Pareto front of the feasible trials (two objectives) or the
    confirmed candidates (one), and the start (trial 0), with their role."""
    from simcore.base.pareto import pareto_front

    df = trials_frame(res)
    names = [o.text for o in res.objectives]
    cand = {c["index"] for c in res.candidates}
    shown = set(cand) | {0}
    if len(names) == 2:
        sign = np.array([1.0 if o.direction == "min" else -1.0 for o in res.objectives])
        shown |= {t["index"] for t in pareto_front([t for t in res.trials if t["feasible"]], sign)}
    out = df[df.trial.isin(shown)].copy()
    out.insert(
        1, "role", ["start" if i == 0 else "confirmed" if i in cand else "front" for i in out.trial]
    )
    return out.sort_values(names, ascending=[o.direction == "min" for o in res.objectives])


def trials_frame(res: RulesTuning) -> pd.DataFrame:
    """One row per completed trial: index, parameters, objective values, feasibility."""
    rows = []
    for t in res.trials:
        rec = {"trial": t["index"], **t["params"]}
        for o, v in zip(res.objectives, t["values"]):
            rec[o.text] = v
        rec["feasible"] = t["feasible"]
        rows.append(rec)
    return pd.DataFrame(rows)


def tradeoff_plot(res: RulesTuning, path: str | Path) -> None:
    """Two objectives: every trial's pair of values, the Pareto front joined and the
    confirmed candidates ringed; one objective: the value of every trial by trial index."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from simcore.base.pareto import pareto_front

    df = trials_frame(res)
    fig, ax = plt.subplots(figsize=(6, 4.5))
    names = [o.text for o in res.objectives]
    ok = df[df.feasible]
    if len(names) == 2:
        ax.scatter(df[names[0]], df[names[1]], s=12, c="lightgray", label="trials")
        sign = np.array([1.0 if o.direction == "min" else -1.0 for o in res.objectives])
        recs = [t for t in res.trials if t["feasible"]]
        front = sorted(pareto_front(recs, sign), key=lambda t: t["values"][0])
        ax.plot(
            [t["values"][0] for t in front],
            [t["values"][1] for t in front],
            "o-",
            label="Pareto front",
        )
        ax.set_xlabel(names[0])
        ax.set_ylabel(names[1])
    else:
        ax.scatter(df["trial"], df[names[0]], s=12, c="gray", label="trials")
        ax.scatter(ok["trial"], ok[names[0]], s=12, label="feasible")
        ax.set_xlabel("trial")
        ax.set_ylabel(names[0])
    for c in res.candidates:
        x = c["values"][0] if len(names) == 2 else c["index"]
        y = c["values"][1] if len(names) == 2 else c["values"][0]
        ax.scatter([x], [y], s=80, facecolors="none", edgecolors="red")
    start = next((t for t in res.trials if t["index"] == 0), None)
    if start is not None:
        x, y = (
            (start["values"][0], start["values"][1]) if len(names) == 2 else (0, start["values"][0])
        )
        ax.scatter([x], [y], marker="x", c="black", label="start")
    ax.set_title(
        f"{res.game}, {res.players} players: {len(res.trials)} trials (search estimates; "
        "ringed: confirmed)",
        fontsize=9,
    )
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def rules_json(res: RulesTuning, table: pd.DataFrame, verdicts: list[str]) -> dict[str, Any]:
    return {
        **_run_json(res, "tune"),
        "policies": res.policies,
        "params": [p.name for p in res.params],
        "objectives": [o.text for o in res.objectives],
        "constraints": [c.text for c in res.constraints],
        "notes": res.notes,
        "start": {k: (list(v) if isinstance(v, tuple) else v) for k, v in res.start.items()},
        "candidates": res.candidates,
        "confirmation": {
            "games": res.confirmation.games if res.confirmation else 0,
            "table": json.loads(table.to_json(orient="records")) if not table.empty else [],
        },
        "verdicts": verdicts,
    }


def render_rules_tuning(
    res: RulesTuning, plot: str | Path | None, json_out: bool, echo: Callable[[str], None]
) -> None:
    """Print a `tune` result: the search, the best trials (the Pareto front for two
    objectives), the confirmation and the verdicts; write the plot when asked."""
    table = rules_confirmation_table(res) if res.confirmation is not None else pd.DataFrame()
    verdicts = rules_verdicts(res, table) if res.confirmation is not None else []
    if plot is not None:
        tradeoff_plot(res, plot)
    if json_out:
        echo(json.dumps(rules_json(res, table, verdicts), indent=2, default=float))
        return
    objs = ", ".join(o.text for o in res.objectives)
    echo(
        f"{res.game}, {res.players} players: {len(res.trials)} trials of "
        f"{res.games_per_trial:,} games ({res.resumed_trials} from the database), "
        f"{res.search_s:.0f} s; objective {objs}"
        + (f"; constraints {', '.join(c.text for c in res.constraints)}" if res.constraints else "")
        + f"; study {res.study} in {res.storage}"
    )
    for note in res.notes:
        echo(note)
    kind = "the Pareto front" if len(res.objectives) == 2 else "the best trials"
    echo(f"{kind} and the start (the search's own estimates, optimistic; not a verdict):")
    echo(front_table(res).to_string(index=False, float_format=lambda x: f"{x:.4f}"))
    if res.confirmation is None:
        echo("no confirmation (the search stopped before its budget, or nothing was feasible)")
        return
    echo(
        f"confirmation: {res.confirmation.games:,} fresh games per setting (game indices from "
        f"2**62, seed {res.seed}), paired with the start, {res.confirm_s:.0f} s"
    )
    for line in verdicts:
        echo(line)
    if plot is not None:
        echo(f"plot written to {plot}")
