"""How far each balance verdict holds: the settings of a robustness run (simcore.studies.robustness)
turned into per-setting numbers, degenerate settings flagged and set aside, and every verdict
classified over the settings that remain (docs/robustness.md).

Verdicts, per player count: each pair of seats (which of the two wins more often; the seat
order), the largest seat gap (the seats are not equally strong), the first-player advantage,
the game length (a level, not a direction: it holds unless a setting's interval of the mean
lies wholly outside LENGTH_TOLERANCE of the reference's mean), and for each variant of the
game's report the direction of its effect on the largest seat gap, the first-player advantage
and the length (paired on common random numbers, Holm-corrected over each setting's comparison
table, as `compare`).

Classification of a verdict over the non-degenerate settings that measure it:
- its direction is the reference setting's (the default lineup on the rulebook's components)
  when significant there, else the direction significant in the most settings;
- **holds**: significant in that direction in every setting; **not detected**: significant in
  no setting; **depends on players**: it fails in a lineup setting only; **depends on
  components**: it fails in a component-reading setting only; **depends on players and
  components**: both. A setting fails when its interval includes 0 (not significant with its
  games) or lies on the other side (reversed): both are listed with their numbers.

Every interval comes from analysis.stats / analysis.compare (statsmodels, scipy): Wilson for
rates, the multinomial difference of two seats' shares (Bonferroni over the pairs, as the
largest gap's interval), paired t intervals for the variants' effects.
"""

from __future__ import annotations

import itertools
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from analysis.compare import ALPHA, arm_values, comparison_table
from analysis.stats import fmt_p, multinomial_diff_ci, seat_balance
from analysis.summary import run_keys
from simcore.base.metrics import FEEL_METRICS

STATUSES = (
    "holds",
    "depends on players",
    "depends on components",
    "depends on players and components",
    "not detected",
    "not measured",
)
LENGTH_TOLERANCE = 0.10  # the length verdict: every setting's mean within 10% of the reference
FEEL = {m.name: m for m in FEEL_METRICS}  # how the game feels (docs/experience-metrics.md)
EFFECT_METRICS = {
    "largest_gap": "largest seat gap",
    "fpa": "first-player advantage",
    "rounds": "length",
    **{name: m.label.split(" (")[0] for name, m in FEEL.items()},
}
# a variant's effect on a feel metric in words: (when it raises it, when it lowers it)
FEEL_WORDS = {
    "lead_changes": ("brings more lead changes", "brings fewer lead changes"),
    "drama": ("raises the drama", "lowers the drama"),
    "decisiveness": ("decides the game later", "decides the game earlier"),
    "runaway": (
        "lets the leader at half-time win more often",
        "lets the leader at half-time win less often",
    ),
    "comeback": (
        "lets the last at half-time win more often",
        "lets the last at half-time win less often",
    ),
    "margin": ("widens the winning margin", "narrows the winning margin"),
}


@dataclass(frozen=True)
class Thresholds:
    """When a setting is degenerate (each a share of its games; any one suffices)."""

    repeated: float = 0.25  # the most common outcome (scores, length) makes up this share or more
    limit: float = 0.5  # ended by a safety cap (round or turn limit) this share or more
    no_score: float = 0.5  # no seat scored in this share or more


# --------------------------------------------------------------------------------- settings
def degenerate(outcomes: Any, t: Thresholds) -> dict[str, Any]:
    """The degenerate-play measures of one arm's games (simcore.studies.robustness.Outcomes): the
    share of distinct games (distinct final scores and length), the share of the most common
    one, the shares ended by a safety cap and with no score, and the reasons it is flagged."""
    n = outcomes.games
    mode = max(outcomes.counts.values()) if n else 0
    top = max(outcomes.counts, key=outcomes.counts.get) if n else ()
    out = {
        "games": n,
        "distinct_share": len(outcomes.counts) / n if n else float("nan"),
        "most_common_share": mode / n if n else float("nan"),
        "most_common": {"scores": list(top[:-1]), "rounds": top[-1]} if n else None,
        "limit_share": outcomes.limit / n if n else float("nan"),
        "no_score_share": outcomes.no_score / n if n else float("nan"),
    }
    reasons = []
    if n and out["most_common_share"] >= t.repeated:
        sc = "/".join(map(str, top[:-1]))
        reasons.append(
            f"{out['most_common_share']:.1%} of the games are one and the same outcome (scores "
            f"{sc}, {top[-1]} rounds; {out['distinct_share']:.2%} distinct games)"
        )
    if n and out["limit_share"] >= t.limit:
        reasons.append(f"{out['limit_share']:.1%} of the games end by the round or turn limit")
    if n and out["no_score_share"] >= t.no_score:
        reasons.append(f"no seat scores in {out['no_score_share']:.1%} of the games")
    out["degenerate"] = bool(reasons)
    out["reasons"] = reasons
    return out


def first_arm_values(run: Any, alpha: float) -> Any:
    """arm_values (compare's values and intervals) of a setting's first arm, indexed by metric."""
    vals = arm_values(run, alpha)
    return vals[vals["arm"] == run.arms[0].label].set_index("metric")


def seat_records(run: Any, alpha: float, vals: Any) -> list[dict]:
    """The seat verdicts of a setting's first arm: each pair of seats, the largest gap, the
    first-player advantage and the length, with their intervals (vals: first_arm_values)."""
    s = run.results[0].summary
    n, p = s.games, run.players
    out = []
    rounds = vals.loc["rounds"]
    out.append(_rec("length", float(rounds.value), float(rounds.ci_low), float(rounds.ci_high), n))
    if p < 2:
        return out
    bal = seat_balance(s.seat_wins, s.shared_wins, n, alpha)
    glo, ghi = bal["largest_gap_ci"]
    out.append(_rec("gap", bal["largest_gap"], glo, ghi, n, seats=bal["largest_gap_seats"]))
    lo, hi = bal["first_player_advantage_ci"]
    out.append(_rec("fpa", bal["first_player_advantage"], lo, hi, n))
    w = np.asarray(s.seat_wins, dtype=float)
    pairs = list(itertools.combinations(range(p), 2))
    for i, j in pairs:
        d, dlo, dhi = multinomial_diff_ci(w[i], w[j], n, alpha / len(pairs))
        out.append(_rec(f"seats:{i}-{j}", float(d), float(dlo), float(dhi), n))
    return out


def effect_records(run: Any, alpha: float) -> list[dict]:
    """The variants' effects in a setting: each arm after the first against the first, on the
    largest seat gap, the first-player advantage, the length and each feel metric (lead
    changes, drama, decisiveness, runaway leader, comeback, margin: simcore.base.metrics) as
    `compare` gives them (comparison_table's paired intervals and Holm p over the setting's
    table). An effect that is 0 in every game (a
    variant that cannot change the metric, e.g. a scoring rule on the length) is left out: it
    is trivial, not a verdict."""
    if len(run.arms) < 2:
        return []
    t = comparison_table(run, alpha)
    out = []
    for r in t[t["metric"].isin(list(EFFECT_METRICS)) & t["diff"].notna()].itertuples():
        if r.diff == r.diff_low == r.diff_high == 0:
            continue  # the same value in every game of both arms: no effect by definition
        rec = _rec(f"variant:{r.arm}:{r.metric}", r.diff, r.diff_low, r.diff_high, int(r.games))
        rec["significant"] = bool(r.p_holm < alpha)
        rec["p_holm"] = float(r.p_holm)
        out.append(rec)
    return out


def feel_levels(vals: Any) -> dict[str, dict]:
    """How the game feels in a setting (its first arm; vals: first_arm_values): each feel
    metric's value, 95% interval and the games it rests on, as `compare` gives them; {}
    without feel metrics (a solo game) and a metric that rests on no game left out."""
    sel = vals[vals.index.isin(list(FEEL))]
    return {
        name: {
            "value": float(r.value),
            "ci_low": float(r.ci_low),
            "ci_high": float(r.ci_high),
            "n": int(r.n),
        }
        for name, r in sel.iterrows()
        if r.n > 0
    }


def is_feel(verdict: str) -> bool:
    """Whether a verdict is a variant's effect on a feel metric ('variant:short:drama')."""
    return verdict.startswith("variant:") and verdict.rsplit(":", 1)[1] in FEEL


def _rec(verdict: str, value, low, high, games: int, **extra) -> dict:
    return {
        "verdict": verdict,
        "value": float(value),
        "low": float(low),
        "high": float(high),
        "games": int(games),
        "significant": bool(low > 0 or high < 0),
        **extra,
    }


def setting_table(run: Any, alpha: float, t: Thresholds) -> list[dict]:
    """One record per setting (grid order): the setting, its degenerate-play measures (of the
    first arm; a variant arm that is degenerate drops that variant's effects), and the
    numbers of every verdict it measures."""
    out = []
    for s in run.settings:
        arm_run = run.runs[s.key]
        per_arm = [degenerate(o, t) for o in run.outcomes[s.key]]
        rec = {
            "key": s.key,
            "players": s.players,
            "kind": s.kind,
            "name": s.name,
            "label": s.label,
            "reading": s.reading,
            "reference": s.reference,
            "policies": s.policies,
            "games": s.games,
            "arms": [a.label for a in arm_run.arms],
            "elapsed_s": arm_run.elapsed_s,
            "resumed": s.key in run.resumed,
            **per_arm[0],
            "degenerate_arms": [a.label for a, d in zip(arm_run.arms, per_arm) if d["degenerate"]],
            "win_rates": (np.asarray(arm_run.results[0].summary.seat_wins) / s.games).tolist(),
        }
        vals = first_arm_values(arm_run, alpha)
        rec["feel"] = feel_levels(vals)
        records = seat_records(arm_run, alpha, vals)
        if not per_arm[0]["degenerate"]:
            bad = set(rec["degenerate_arms"])
            records += [
                r for r in effect_records(arm_run, alpha) if r["verdict"].split(":")[1] not in bad
            ]
        rec["records"] = records
        out.append(rec)
    return out


# --------------------------------------------------------------------------------- verdicts
def claim(verdict: str, sign: int) -> str:
    """The verdict in words, in its direction: 'seat 2 wins more often than seat 1'."""
    if verdict.startswith("seats:"):
        i, j = verdict[6:].split("-")
        a, b = (i, j) if sign > 0 else (j, i)
        return f"seat {a} wins more often than seat {b}"
    if verdict == "gap":
        return "the seats are not equally strong (largest seat gap above 0)"
    if verdict == "fpa":
        return "the first player " + ("has an advantage" if sign > 0 else "is at a disadvantage")
    if verdict == "length":
        return "the game length stays within 10% of the reference"
    _, arm, metric = verdict.split(":", 2)
    if metric in FEEL_WORDS:
        return f"`{arm}` {FEEL_WORDS[metric][0 if sign > 0 else 1]}"
    word = {"largest_gap": ("widens", "narrows"), "fpa": ("raises", "lowers")}.get(
        metric, ("lengthens", "shortens")
    )
    what = EFFECT_METRICS[metric]
    return (
        f"`{arm}` {word[0] if sign > 0 else word[1]} the {'game' if metric == 'rounds' else what}"
    )


def classify(settings: list[dict], players: int, verdict: str) -> dict:
    """The classification of one verdict of one player count over the settings (as
    setting_table gives them): status, direction, the reference's numbers, the settings where
    it fails (and why) and the degenerate settings left out."""
    recs, left_out = [], []
    for s in settings:
        if s["players"] != players:
            continue
        r = next((r for r in s["records"] if r["verdict"] == verdict), None)
        if s["degenerate"]:
            left_out.append(s["label"])
        elif r is not None:
            recs.append((s, r))
    ref = next(((s, r) for s, r in recs if s["reference"]), recs[0] if recs else None)
    out = {"players": players, "verdict": verdict, "left_out": left_out, "settings": len(recs)}
    if not recs:
        return {**out, "status": "not measured", "claim": claim(verdict, 1), "fails": []}
    if verdict == "length":
        return {**out, **_classify_length(recs, ref)}
    sig = [np.sign(r["value"]) for _, r in recs if r["significant"]]
    if not sig:
        sign = 1 if ref[1]["value"] >= 0 else -1
        status = "not detected"
    else:
        if ref[1]["significant"]:
            sign = int(np.sign(ref[1]["value"]))
        else:
            sign = 1 if sig.count(1) >= sig.count(-1) else -1
        status = None
    fails = []
    for s, r in recs:
        if r["significant"] and np.sign(r["value"]) == sign:
            continue
        why = "reversed" if r["significant"] else "not significant"
        fails.append(_fail(s, r, why))
    return {**out, **_classified(recs, ref, fails, sign, claim(verdict, sign), status)}


def _classified(recs: list, ref: tuple, fails: list, sign: int, words: str, status=None) -> dict:
    """The classification's fields: the status from the kinds of the failing settings (unless
    given), the reference's numbers and the range over the settings."""
    if status is None:
        status = {
            frozenset(): "holds",
            frozenset({"lineup"}): "depends on players",
            frozenset({"components"}): "depends on components",
        }.get(frozenset(f["kind"] for f in fails), "depends on players and components")
    return {
        "status": status,
        "sign": sign,
        "claim": words,
        "reference": _fail(*ref, "") | {"setting": ref[0]["label"]},
        "range": [min(r["value"] for _, r in recs), max(r["value"] for _, r in recs)],
        "fails": fails,
    }


def _fail(s: dict, r: dict, why: str) -> dict:
    """A setting's numbers of a verdict, and why it fails there (empty: it does not)."""
    return {
        "setting": s["label"],
        "key": s["key"],
        "kind": s["kind"],
        "value": r["value"],
        "low": r["low"],
        "high": r["high"],
        "games": r["games"],
        "p_holm": r.get("p_holm"),
        "why": why,
    }


def _classify_length(recs: list, ref: tuple) -> dict:
    base = ref[1]["value"]
    lo, hi = base * (1 - LENGTH_TOLERANCE), base * (1 + LENGTH_TOLERANCE)
    fails = [  # the setting's whole interval outside the band: significantly shorter or longer
        _fail(s, r, "shorter" if r["high"] < lo else "longer")
        for s, r in recs
        if r["high"] < lo or r["low"] > hi
    ]
    words = f"a game lasts {lo:.1f} to {hi:.1f} rounds (the reference's mean ±10%)"
    return _classified(recs, ref, fails, 1, words)


def verdict_keys(settings: list[dict], players: int) -> list[str]:
    """Every verdict some setting of the player count measures, in a fixed order."""
    seen: dict[str, None] = {}
    for s in settings:
        if s["players"] == players:
            for r in s["records"]:
                seen.setdefault(r["verdict"], None)
    order = {"gap": 0, "fpa": 2, "length": 3}
    return sorted(seen, key=lambda v: (order.get(v, 1 if v.startswith("seats:") else 4), v))


@dataclass
class Robustness:
    """The analysed robustness run: the settings' records and every verdict's classification."""

    run: Any
    settings: list[dict]
    verdicts: list[dict]
    thresholds: Thresholds
    alpha: float = ALPHA

    def to_json(self) -> dict[str, Any]:
        run = self.run
        return {
            **run_keys(run, run.player_counts),
            "rules_file": run.rules_file,
            "readings": run.readings,
            "alpha": self.alpha,
            "thresholds": asdict(self.thresholds) | {"length_tolerance": LENGTH_TOLERANCE},
            "settings": self.settings,
            "verdicts": self.verdicts,
            "resumed": run.resumed,
            "elapsed_s": run.elapsed_s,
            "variants": list(getattr(run, "variants", ())),
            "skipped": [k.to_json() for k in getattr(run, "skipped", [])],
        }


def robustness(run: Any, alpha: float = ALPHA, thresholds: Thresholds | None = None) -> Robustness:
    """Analyse a RobustnessRun (simcore.studies.robustness.run_robustness)."""
    t = thresholds or Thresholds()
    settings = setting_table(run, alpha, t)
    verdicts = [
        classify(settings, p, v) for p in run.player_counts for v in verdict_keys(settings, p)
    ]
    return Robustness(run, settings, verdicts, t, alpha)


# --------------------------------------------------------------------------------- words
def seats_text(players: int) -> str:
    """'1 player', '3 players'."""
    return f"{players} player" + ("s" if players != 1 else "")


def _feel_mean(verdict: str) -> bool:
    """A variant's effect on a feel metric that is a mean (lead changes, drama, decisiveness,
    margin: shown in its own unit, not in points of a rate)."""
    return is_feel(verdict) and FEEL[verdict.rsplit(":", 1)[1]].kind == "mean"


def num(v: float, verdict: str, sign: bool = True) -> str:
    """A verdict's value: points for rates, rounds for the length ('+8.3', '8.41'), a feel
    metric's mean in its unit with three decimals ('-0.100'); a value that rounds to 0
    prints without a minus ('+0.0')."""
    if _feel_mean(verdict):
        x = round(v, 3) + 0.0
        return f"{x:+.3f}" if sign else f"{x:.3f}"
    rounds = verdict == "length" or verdict.endswith(":rounds")
    x = round(v if rounds else v * 100, 2 if rounds else 1) + 0.0  # + 0.0: no '-0.0'
    if rounds:
        return f"{x:+.2f}" if sign and verdict != "length" else f"{x:.2f}"
    return f"{x:+.1f}" if sign else f"{x:.1f}"


def interval(lo: float, hi: float, verdict: str) -> str:
    """'-5.4 to -3.5': an interval with both ends signed (rounds of a length unsigned)."""
    return f"{num(lo, verdict)} to {num(hi, verdict)}"


FEEL_UNITS = {"lead_changes": " lead changes a game", "margin": " score points"}


def unit(verdict: str) -> str:
    if _feel_mean(verdict):
        return FEEL_UNITS.get(verdict.rsplit(":", 1)[1], "")
    return " rounds" if verdict == "length" or verdict.endswith(":rounds") else " points"


def _oriented(f: dict, key: str, sign: int) -> tuple[float, float, float]:
    """A record's value and interval, a seat pair's turned the way of the claim."""
    v, lo, hi = f["value"], f["low"], f["high"]
    if key.startswith("seats:") and sign < 0:
        return -v, -hi, -lo
    return v, lo, hi


def _measure(f: dict, key: str, sign: int) -> str:
    """'+8.3 points (95% CI +6.4 to +10.1)' (with the Holm p of a variant's effect)."""
    v, lo, hi = _oriented(f, key, sign)
    holm = f", Holm {fmt_p(f['p_holm'])}" if f.get("p_holm") is not None else ""
    return f"{num(v, key)}{unit(key)} (95% CI {interval(lo, hi, key)}{holm})"


def _short(f: dict, key: str, sign: int) -> str:
    """'aggressive in every seat (-0.5, -6.8 to +5.8: not significant)'."""
    v, lo, hi = _oriented(f, key, sign)
    return f"{f['setting']} ({num(v, key)}, {interval(lo, hi, key)}: {f['why']})"


def sentence(v: dict, shown: int = 3) -> str:
    """One sentence of a classified verdict: its size and interval in the reference setting
    and the settings where it fails (the first `shown` of them with their numbers)."""
    key = v["verdict"]
    head = f"{seats_text(v['players'])}: {v['claim']}"
    if v["status"] == "not measured":
        return f"{head}: not measured (every setting that measures it is degenerate)."
    ref, sign = v["reference"], v["sign"]
    n, fails = v["settings"], v["fails"]
    size = f"{_measure(ref, key, sign)} with {ref['setting']}"
    if v["status"] == "holds":
        lo, hi = _oriented({"value": 0, "low": v["range"][0], "high": v["range"][1]}, key, sign)[1:]
        return f"{head} in all {n} settings: {size}; {interval(lo, hi, key)} across settings."
    if v["status"] == "not detected":
        return f"{head}: not detected in any of {n} settings ({size})."
    at_ref = next((f for f in fails if f["key"] == ref["key"]), None)
    others = [f for f in fails if f["key"] != ref["key"]]
    size += f" ({at_ref['why']} there)" if at_ref else ""
    parts = [_short(f, key, sign) for f in others[:shown]]
    if len(others) > shown:
        parts.append(f"{len(others) - shown} more")
    listed = ", ".join(parts[:-1]) + (" or " if len(parts) > 1 else "") + parts[-1] if parts else ""
    more = ""
    return (
        f"{head} ({v['status']}): {size}; it holds in {n - len(fails)} of {n} settings, "
        f"not with {listed}{more}."
        if others
        else f"{head} ({v['status']}): {size}; it holds in the {n - 1} other settings."
    )


def findings(a: Robustness) -> dict[str, Any]:
    """The Findings: the verdicts that hold, and those that the reference setting (the default
    report) finds but that depend on the players, the components or both (lists of verdicts);
    'others': how many verdicts are significant only in some settings other than the
    reference (they are in the detail, as are those not detected). The variants' effects on
    the feel metrics are apart: 'feel', those the reference finds (holding or not), and
    'feel_others' as 'others'."""
    out: dict[str, Any] = {
        "holds": [],
        "players": [],
        "components": [],
        "both": [],
        "others": 0,
        "feel": [],
        "feel_others": 0,
    }
    where = {
        "holds": "holds",
        "depends on players": "players",
        "depends on components": "components",
        "depends on players and components": "both",
    }
    for v in a.verdicts:
        if v["status"] not in where:
            continue
        failed_at_ref = any(f["key"] == v["reference"]["key"] for f in v["fails"])
        feel = is_feel(v["verdict"])
        if v["status"] != "holds" and failed_at_ref:
            out["feel_others" if feel else "others"] += 1
        else:
            out["feel" if feel else where[v["status"]]].append(v)
    return out


def degenerate_lines(a: Robustness) -> list[str]:
    """One line per degenerate setting: why it is left out of the verdicts."""
    return [
        f"{seats_text(s['players'])}, {s['label']}: left out ({'; '.join(s['reasons'])})"
        for s in a.settings
        if s["degenerate"]
    ]


def text(a: Robustness) -> list[str]:
    """The plain-text output of `balance robustness`."""
    run = a.run
    lines = [
        f"{run.spec.title}: robustness over {len(a.settings)} settings, {run.games:,} games per "
        f"setting (search settings fewer), seed {run.seed}"
    ]
    lines += (
        ["degenerate settings (left out of the verdicts):"]
        + ["  " + x for x in degenerate_lines(a)]
        if degenerate_lines(a)
        else ["no degenerate setting"]
    )
    lines += [f"skipped: {k.line}" for k in getattr(run, "skipped", [])]
    for status in STATUSES:
        sel = [v for v in a.verdicts if v["status"] == status]
        if sel:
            lines.append(f"{status} ({len(sel)}):")
            lines += ["  " + sentence(v) for v in sel]
    lines.append(f"{run.elapsed_s:.1f} s")
    return lines
