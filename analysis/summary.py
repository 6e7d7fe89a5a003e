"""Result summaries -> tidy DataFrames and the JSON object of `balance simulate --json`."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from analysis.stats import ratio_value, seat_balance, wilson
from simcore.base.metrics import FEEL_METRICS, FEEL_PARTS, ArmMoments
from simcore.base.results import ArmRun, RobustnessResult, RunResult, RunSummary


def records(df: pd.DataFrame) -> list[dict]:
    """DataFrame rows as JSON-ready dicts (NaN -> None, numpy scalars -> Python)."""
    out = []
    for row in df.to_dict(orient="records"):
        rec = {}
        for k, v in row.items():
            if hasattr(v, "item"):
                v = v.item()
            if isinstance(v, float) and not np.isfinite(v):
                v = None
            rec[k] = v
        out.append(rec)
    return out


def _hist_quantile(hist: np.ndarray, q: float) -> float:
    c = np.cumsum(hist)
    if c[-1] == 0:
        return float("nan")
    return float(np.searchsorted(c, q * c[-1], side="left"))


def score_table(hist: np.ndarray, width: int, games: int) -> pd.DataFrame:
    """Final scores per seat from a summary's score histogram (simcore.run.chunks: bins of `width`
    points): one row per seat and bin up to the highest bin any seat reached, with the bin's
    lowest and highest score, the games that ended in it and their share."""
    top = int(np.max(np.nonzero(hist.sum(axis=0))[0], initial=0)) + 1
    k = np.arange(top)
    return pd.DataFrame(
        {
            "seat": np.repeat(np.arange(hist.shape[0]), top),
            "score": np.tile(k * width, hist.shape[0]),
            "score_high": np.tile(k * width + width - 1, hist.shape[0]),
            "games": hist[:, :top].ravel(),
            "share": hist[:, :top].ravel() / games,
        }
    )


def feel_table(s: RunSummary, alpha: float = 0.05) -> pd.DataFrame:
    """How the game feels, from a summary's feel sums (simcore.run.chunks.Summary): one row per
    feel metric (simcore.base.metrics.FEEL_METRICS) with its label, kind, value (the mean over the
    games it rests on), 95% interval and n (those games); the winning margin also with its
    10%, 50% and 90% quantiles (from the margin histogram: the lowest margin of the quantile's
    bin). Empty when the summary has no feel sums (a solo game)."""
    if not s.n_feel:
        return pd.DataFrame(columns=["metric", "label", "kind", "value", "ci_low", "ci_high", "n"])
    moments = ArmMoments.of_one_arm(s.games, s.feel_sum, s.feel_prod)
    index = {c: i for i, c in enumerate(FEEL_PARTS)}
    rows = []
    for m in FEEL_METRICS:
        rec = {"metric": m.name, "label": m.label, "kind": m.kind}
        rec.update(ratio_value(moments, 0, m, index, alpha))
        if m.name == "margin":
            for q in (0.1, 0.5, 0.9):
                rec[f"p{round(q * 100)}"] = _hist_quantile(s.margin_hist[0], q) * s.score_width
        rows.append(rec)
    return pd.DataFrame(rows)


def summarize(result: RunResult) -> dict[str, pd.DataFrame]:
    """Tidy tables of a simulate() result: seats, policies, length, end_reasons, counters."""
    s = result.summary
    n = s.games
    lo, hi = wilson(s.seat_wins, n)
    seat_policy = [
        result.policies[k] if not result.rotate_seats else "rotated" for k in range(result.players)
    ]
    seats = pd.DataFrame(
        {
            "seat": np.arange(result.players),
            "policy": seat_policy,
            "wins": s.seat_wins,
            "win_rate": s.seat_wins / n,
            "ci_low": lo,
            "ci_high": hi,
            "shared_first": s.seat_first - s.seat_wins,
            "mean_score": s.score_sum / n,
            "mean_tiebreak": s.tiebreak_sum / n,
        }
    )
    plo, phi = wilson(s.policy_wins, s.policy_games)
    with np.errstate(invalid="ignore", divide="ignore"):
        policies = pd.DataFrame(
            {
                "entry": np.arange(len(result.policies)),
                "policy": result.policies,
                "games": s.policy_games,
                "wins": s.policy_wins,
                "win_rate": s.policy_wins / s.policy_games,
                "ci_low": plo,
                "ci_high": phi,
                "mean_score": s.policy_score / s.policy_games,
            }
        )
    rounds_mean = float((np.arange(len(s.rounds_hist)) * s.rounds_hist).sum() / n)
    turns_mean = float((np.arange(len(s.turns_hist)) * s.turns_hist).sum() / n)
    length = pd.DataFrame(
        [
            {
                "mean_rounds": rounds_mean,
                "median_rounds": _hist_quantile(s.rounds_hist, 0.5),
                "p5_rounds": _hist_quantile(s.rounds_hist, 0.05),
                "p95_rounds": _hist_quantile(s.rounds_hist, 0.95),
                "mean_turns": turns_mean,
                "median_turns": _hist_quantile(s.turns_hist, 0.5),
            }
        ]
    )
    ends = pd.DataFrame(
        {"end_reason": list(result.end_reasons), "games": s.end_reasons, "share": s.end_reasons / n}
    )
    scores = score_table(s.score_hist, s.score_width, n)
    last = int(np.max(np.nonzero(s.rounds_hist)[0], initial=0)) + 1
    rounds_hist = pd.DataFrame(
        {
            "rounds": np.arange(last),
            "games": s.rounds_hist[:last],
            "share": s.rounds_hist[:last] / n,
        }
    )
    balance = pd.DataFrame([seat_balance(s.seat_wins, s.shared_wins, n)])
    mean = s.counter_sum / n
    var = np.maximum(s.counter_sq / n - mean**2, 0.0)
    counters = pd.DataFrame({"counter": s.counter_names, "mean": mean, "std": np.sqrt(var)})
    return {
        "feel": feel_table(s),
        "seats": seats,
        "policies": policies,
        "length": length,
        "end_reasons": ends,
        "counters": counters,
        "balance": balance,
        "scores": scores,
        "rounds_hist": rounds_hist,
    }


def run_keys(run: ArmRun | RobustnessResult, players: int | list[int]) -> dict[str, Any]:
    """The keys a played run's JSON opens with: the game, the player count(s), the games (per
    arm or setting) and the seed (an ArmRun, a RobustnessRun)."""
    return {"game": run.spec.name, "players": players, "games": run.games, "seed": run.seed}


def result_json(result: RunResult, version: str = "") -> dict[str, Any]:
    """The JSON object of `balance simulate --json`: the keys built here, the less obvious
    ones explained at them (the intervals, the balance figures and score_distribution in
    docs/statistics.md; `metrics` in docs/comparisons.md, "How the game feels", and
    docs/experience-metrics.md). Keys keep their names and meaning; new ones may be added."""
    t = summarize(result)
    s = result.summary
    bal = seat_balance(s.seat_wins, s.shared_wins, s.games)

    length = t["length"].iloc[0]
    return {
        "game": result.game,
        "version": version,
        "players": result.players,
        "games": result.games,
        "seed": result.seed,
        "rotate_seats": result.rotate_seats,
        "partial": bool(result.partial),
        "checked": result.checked,
        "rules": result.resolved_rules,
        "rules_hash": result.rules_hash,
        "seats": records(t["seats"]),
        "policies": records(t["policies"]),
        "shared_wins": int(s.shared_wins),
        "no_winner": int(s.no_winner),
        "shared_win_rate": s.shared_wins / s.games,
        "seat_fairness": {"chi2": bal["chi2"], "p_value": bal["p_value"]},
        "balance": {k: v for k, v in bal.items() if k not in ("chi2", "p_value")},
        # --precision: the target half-width (None without one), whether it was reached (the
        # run stopped at the first chunk where it was; False: the --games cap came first) and
        # the largest seat half-width achieved
        "precision": result.precision,
        "precision_reached": result.precision_reached,
        "max_half_width": result.max_half_width,
        "games_requested": result.games_requested,
        "length": {k: float(length[k]) for k in t["length"].columns},
        "rounds_histogram": {
            int(r): int(g) for r, g in zip(t["rounds_hist"].rounds, t["rounds_hist"].games) if g
        },
        # per seat: the lowest score of each bin -> games (bins of score_bin_width points)
        "score_distribution": [
            {int(k): int(g) for k, g in zip(grp.score, grp.games) if g}
            for _, grp in t["scores"].groupby("seat")
        ],
        "score_bin_width": int(s.score_width),
        "end_reasons": {r: int(c) for r, c in zip(result.end_reasons, s.end_reasons)},
        "counters": {c: float(m) for c, m in zip(t["counters"].counter, t["counters"]["mean"])},
        # how the game feels: metric -> {label, kind, mean, ci_low, ci_high, n (the games it
        # rests on)}; the margin also p10, p50, p90 and its histogram (the lowest margin of
        # each bin of score_bin_width points -> games); {} in a solo game
        "metrics": feel_json(t["feel"], s),
        "errors": int(s.errors),
        "threads": result.threads,
        "elapsed_s": result.elapsed_s,
        "games_per_s": result.games_per_s,
    }


def feel_json(feel: pd.DataFrame, s: RunSummary) -> dict[str, dict]:
    """The `metrics` object of simulate --json from feel_table's rows and the summary."""
    out = {}
    for rec in records(feel.rename(columns={"value": "mean"})):
        name = rec.pop("metric")
        keep = ("label", "kind", "mean", "ci_low", "ci_high", "n")
        out[name] = {k: v for k, v in rec.items() if k in keep or name == "margin"}
        if name == "margin":
            h = s.margin_hist[0]
            out[name]["histogram"] = {int(k) * s.score_width: int(g) for k, g in enumerate(h) if g}
    return out
