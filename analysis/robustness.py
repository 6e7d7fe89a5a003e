"""How far each balance verdict holds: the settings of a robustness run (simcore.studies.robustness)
turned into verdict records (simcore.base.verdicts: the same records `simulate`, `compare`
and the report give for the same games), degenerate settings flagged and set aside, and every
verdict classified over the settings that remain (docs/robustness.md).

Verdicts, per player count (engine keys): the largest seat gap (`Np/largest_gap`: the seats are
not equally strong) and each pair of seats (`Np/seat_pair/i-j`) with 3 or more players, the
first-player advantage (`Np/fpa`; with 2 players the only seat verdict), the game length
(`Np/length`: a level, not a direction: it holds unless a setting's interval of the mean lies
wholly outside LENGTH_TOLERANCE of the reference's mean), and each variant's effect on the
largest seat gap, the first-player advantage, the length and the feel metrics
(`Np/effect/VARIANT/METRIC`, paired on common random numbers and adjusted over the setting's
comparison table, exactly as `compare`).

Classification (simcore.base.verdicts.classify, power-aware): the reference setting (the
default lineup on the rulebook's components) gives the verdict; a setting counts against it
only when it contradicts it (significantly reversed) or differs significantly from the
reference (an interaction test, Bonferroni over the settings). A setting that is merely not
decided with its games is listed as inconclusive and never turns "holds" into "depends".

With --ladder (the rungs of the ladder as the players): each rung is rated by the ladder's fit
(rung_ratings: analysis.ladder.fit_ratings), its setting named with its rating, and each
verdict says where along the rungs it changes (by_skill).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from analysis.compare import ALPHA, arm_values, comparison_table
from analysis.degenerate import Thresholds, degenerate
from analysis.summary import run_keys
from simcore.base.metrics import FEEL_METRICS
from simcore.base.results import ArmRun, GridSetting, RobustnessResult
from simcore.base.verdicts import Verdict, interval_words, seat_verdicts
from simcore.base.verdicts import classify as engine_classify

if TYPE_CHECKING:
    from analysis.ladder import Ratings

STATUSES = (
    "holds",
    "depends on players",
    "depends on components",
    "depends on players and components",
    "inconclusive",
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
KINDS = {"lineup": "players", "components": "components"}  # a setting's kind in a label
# "not detected" needs the reference's interval within this of 0 (per unit; else inconclusive)
MARGINS = {"points": 1.0, "rounds": 0.25, "per game": 0.1, "": 0.02, "score points": 1.0}


# --------------------------------------------------------------------------------- settings
def first_arm_values(run: ArmRun, alpha: float) -> pd.DataFrame:
    """arm_values (compare's values and intervals) of a setting's first arm, indexed by metric."""
    vals = arm_values(run, alpha)
    return vals[vals["arm"] == run.arms[0].label].set_index("metric")


def length_record(players: int, vals: pd.DataFrame, games: int) -> dict:
    """The length of a setting's first arm: mean rounds with its 95% t interval (a level)."""
    r = vals.loc["rounds"]
    return {
        "key": f"{players}p/length",
        "unit": "rounds",
        "estimate": float(r.value),
        "low": float(r.ci_low),
        "high": float(r.ci_high),
        "games": int(games),
    }


def seat_records(run: ArmRun, alpha: float) -> list[Verdict]:
    """The seat verdicts of a setting's first arm (simcore.base.verdicts.seat_verdicts)."""
    s = run.results[0].summary
    return seat_verdicts(run.players, s.seat_wins, s.games, alpha)


def effect_records(run: ArmRun, alpha: float) -> list[Verdict]:
    """The variants' effects in a setting: each arm after the first against the first, on the
    largest seat gap, the first-player advantage, the length and each feel metric, as
    `compare` gives them (comparison_table's records: paired, adjusted over the setting's
    table). An effect that is 0 in every game (a variant that cannot change the metric, e.g.
    a scoring rule on the length) is left out: it is trivial, not a verdict."""
    if len(run.arms) < 2:
        return []
    t = comparison_table(run, alpha)
    out = []
    for v in t.attrs["verdicts"]:
        metric = v.key.rsplit("/", 1)[1]
        if metric not in EFFECT_METRICS or (v.estimate == 0 and not v.se > 0):
            continue
        out.append(v)
    return out


def feel_levels(vals: pd.DataFrame) -> dict[str, dict]:
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


def is_feel(key: str) -> bool:
    """Whether a verdict is a variant's effect on a feel metric ('3p/effect/short/drama')."""
    return "/effect/" in key and key.rsplit("/", 1)[1] in FEEL


def is_effect(key: str) -> bool:
    return "/effect/" in key


def setting_table(
    run: RobustnessResult, alpha: float, t: Thresholds, ratings: dict[int, Ratings] | None = None
) -> tuple[list[dict], dict]:
    """One record per setting (grid order): the setting, its degenerate-play measures (of the
    first arm; a variant arm that is degenerate drops that variant's effects), and the
    records of every verdict it measures (JSON); and {setting key: {verdict key: Verdict or
    the length dict}} for the classification. ratings (--ladder: analysis.ladder.Ratings per
    player count): a rung's setting carries its rating and is named with it."""
    out, by_setting = [], {}
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
        rec.update(rung_rating(s, (ratings or {}).get(s.players)))
        vals = first_arm_values(arm_run, alpha)
        rec["feel"] = feel_levels(vals)
        verdicts: list[Any] = [
            length_record(s.players, vals, s.games),
            *seat_records(arm_run, alpha),
        ]
        if not per_arm[0]["degenerate"]:
            bad = set(rec["degenerate_arms"])
            verdicts += [
                v for v in effect_records(arm_run, alpha) if v.key.split("/")[2] not in bad
            ]
        rec["records"] = [v if isinstance(v, dict) else v.as_json() for v in verdicts]
        by_setting[s.key] = {(v["key"] if isinstance(v, dict) else v.key): v for v in verdicts}
        out.append(rec)
    return out, by_setting


# --------------------------------------------------------------------------------- verdicts
def _like(v: Verdict, ref: Verdict) -> Verdict:
    """A setting's record turned the way of the reference's (a seat pair is oriented by its
    own estimate in each setting)."""
    return v.negated() if v.quantity != ref.quantity and "/seat_pair/" in v.key else v


def classify(
    settings: list[dict], by_setting: dict, players: int, key: str, alpha: float = ALPHA
) -> dict:
    """The classification of one verdict of one player count over the settings (as
    setting_table gives them), as a JSON-ready dict: status, label, the reference's record,
    every other setting's call (state, whether it counts against, interaction p), the
    degenerate settings left out and, when inconclusive, the games that would decide it."""
    recs, left_out = [], []
    for s in settings:
        if s["players"] != players:
            continue
        v = by_setting[s["key"]].get(key)
        if s["degenerate"]:
            left_out.append(s["label"])
        elif v is not None:
            recs.append((s, v))
    out = {"players": players, "verdict": key, "left_out": left_out, "settings": len(recs)}
    if not recs:
        return {**out, "status": "not measured", "label": "not measured", "claim": key, "calls": []}
    ref_s, ref = next(((s, v) for s, v in recs if s["reference"]), recs[0])
    if key.endswith("/length"):
        return {**out, **_classify_length(recs, ref_s, ref)}
    others = [(s, _like(v, ref)) for s, v in recs if s is not ref_s]
    margin = MARGINS.get(ref.unit.split(" (")[0], 0.0)
    c = engine_classify(ref, [(s["label"], KINDS[s["kind"]], v) for s, v in others], alpha, margin)
    status = c.label() if c.status == "depends" else c.status
    estimates = [ref.estimate] + [v.estimate for _, v in others]
    if any("rating" in s for s, _ in recs):  # --ladder: where along the rungs it changes
        rungs = [(ref_s, ref, False, "reference")]
        rungs += [(s, v, call.against, call.state) for call, (s, v) in zip(c.settings, others)]
        out["skill"] = by_skill(ref, [r for r in rungs if "rating" in r[0]])
    return {
        **out,
        "status": status,
        "label": c.label(),
        "claim": ref.words,
        "sign": ref.sign,
        "reference": {"setting": ref_s["label"], "key": ref_s["key"], **ref.as_json()},
        "range": [min(estimates), max(estimates)],
        "games_to_decide": c.games_to_decide,
        "calls": [
            {
                "setting": call.setting,
                "key": s["key"],
                "kind": s["kind"],
                "state": call.state,
                "against": call.against,
                "interaction_p": call.interaction_p,
                **call.verdict.as_json(),
            }
            for call, (s, _) in zip(c.settings, others)
        ],
    }


def rung_rating(s: GridSetting, ratings: Ratings | None) -> dict[str, Any]:
    """A rung's setting under --ladder: its rating (Elo points, 95% interval, a bound) and its
    label named with it ('search:budget=64 in every seat (+240 Elo)'); {} for every other
    setting (and every setting without --ladder)."""
    if ratings is None or s.kind != "lineup" or s.name not in ratings.names:
        return {}
    i = ratings.names.index(s.name)
    bound = ratings.bound.get(s.name)
    return {
        "label": f"{s.label} ({elo_text(float(ratings.rating[i]), bound)})",
        "rating": float(ratings.rating[i]),
        "rating_low": ratings.low(i),
        "rating_high": ratings.high(i),
        "rating_bound": bound,
    }


def elo_text(rating: float, bound: str | None = None) -> str:
    """'+240 Elo'; a bound's: '-382 Elo or lower' ('below': it never won a pairwise result)."""
    more = {"below": " or lower", "above": " or higher"}.get(bound or "", "")
    return f"{rating + 0.0:+.0f} Elo{more}"


SKILL_WORDS = {"reversed": "reversed", "differs": "gone"}  # a rung's state against it, in words


def _classed(base: dict, name: str, at: float, text: str) -> dict:
    """A verdict's skill entry: its class, the rating where it changes and its words."""
    return {**base, "class": name, "changes_at_rating": at, "text": text}


def by_skill(ref: Verdict, rungs: list[tuple[dict, Verdict, bool, str]]) -> dict | None:
    """Where along the ladder a verdict changes (--ladder; docs/robustness.md): rungs are the
    rung settings that measure it (setting, its record turned the way of the reference's,
    whether it counts against the verdict, its state), the reference's among them. With a
    significant reference: the rungs that count against it are exactly the strongest (*fails
    only with strong players*: "holds up to +0 Elo; reversed from +212 Elo (search:budget=16
    and stronger)") or exactly the weakest (*fails only with weak players*). With a reference
    that finds nothing, and some rung against it: the rungs that find it (one direction) are
    exactly the strongest (*appears only with strong players*) or the weakest (*only with
    weak players*), or one direction at the weak end and the other at the strong end
    (*reverses with skill*). The direction words are the records' (from their signs); the
    blocks are analysis.ladder.split_by_skill's. None when no such pattern (or fewer than two
    rungs)."""
    from analysis.ladder import split_by_skill  # statsmodels: only with --ladder

    if len(rungs) < 2:
        return None
    rungs = sorted(rungs, key=lambda r: (r[0]["rating"], r[0]["name"]))
    names = [r[0]["name"] for r in rungs]
    ratings = [r[0]["rating"] for r in rungs]
    elo = [elo_text(x) for x in ratings]

    def up(i: int) -> str:
        return f"({names[i]} and stronger)" if i < len(rungs) - 1 else f"({names[i]})"

    def down(i: int) -> str:
        return f"({names[i]} and weaker)" if i > 0 else f"({names[i]})"

    base = {"rungs": [{"setting": r[0]["label"], "rating": r[0]["rating"]} for r in rungs]}
    if ref.sign:
        cut = split_by_skill([r[2] for r in rungs])
        if cut is None:
            return None
        states = {SKILL_WORDS.get(r[3], r[3]) for r in rungs if r[2]}
        what = " or ".join(sorted(states, reverse=True))
        kept = all(r[3] in ("agrees", "reference") for r in rungs if not r[2])
        held = "holds" if kept else "holds or is undecided"
        side, i = cut
        if side == "from":
            text = f"{held} up to {elo[i - 1]}; {what} from {elo[i]} {up(i)}"
            return _classed(base, "fails only with strong players", ratings[i], text)
        text = f"{what} up to {elo[i]} {down(i)}; {held} from {elo[i + 1]}"
        return _classed(base, "fails only with weak players", ratings[i + 1], text)
    if not any(r[2] for r in rungs):
        return None
    pos = [r[1].sign > 0 for r in rungs]
    neg = [r[1].sign < 0 for r in rungs]
    if any(pos) and any(neg):
        cuts = {c[0]: c[1] for c in (split_by_skill(pos), split_by_skill(neg)) if c}
        if set(cuts) != {"from", "up to"}:
            return None
        i, j = cuts["up to"], cuts["from"]
        text = (
            f"reverses with skill: {rungs[i][1].words} up to {elo[i]} {down(i)}; "
            f"{rungs[j][1].words} from {elo[j]} {up(j)}"
        )
        return _classed(base, "reverses with skill", (ratings[i] + ratings[j]) / 2, text)
    cut = split_by_skill(pos if any(pos) else neg)
    if cut is None:
        return None
    side, i = cut
    words = rungs[i][1].words
    if side == "from":
        text = f"{words} only from {elo[i]} {up(i)}; not significant up to {elo[i - 1]}"
        return _classed(base, "appears only with strong players", ratings[i], text)
    text = f"{words} only up to {elo[i]} {down(i)}; not significant from {elo[i + 1]}"
    return _classed(base, "only with weak players", ratings[i + 1], text)


def _classify_length(recs: list, ref_s: dict, ref: dict) -> dict:
    base = ref["estimate"]
    lo, hi = base * (1 - LENGTH_TOLERANCE), base * (1 + LENGTH_TOLERANCE)
    calls = []
    for s, r in recs:
        if s is ref_s:
            continue
        state = "shorter" if r["high"] < lo else "longer" if r["low"] > hi else "agrees"
        calls.append(
            {
                "setting": s["label"],
                "key": s["key"],
                "kind": s["kind"],
                "state": state,
                "against": state != "agrees",
                **r,
            }
        )
    kinds = tuple(dict.fromkeys(KINDS[c["kind"]] for c in calls if c["against"]))
    status = "depends on " + " and ".join(kinds) if kinds else "holds"
    return {
        "status": status,
        "label": status,
        "claim": f"a game lasts {lo:.1f} to {hi:.1f} rounds (the reference's mean ±10%)",
        "sign": 1,
        "reference": {"setting": ref_s["label"], **ref},
        "range": [min(r["estimate"] for _, r in recs), max(r["estimate"] for _, r in recs)],
        "games_to_decide": None,
        "calls": calls,
    }


def verdict_keys(settings: list[dict], players: int) -> list[str]:
    """Every verdict some setting of the player count measures, in a fixed order: the
    largest gap, the seat pairs, the first-player advantage, the length, the effects."""
    seen: dict[str, None] = {}
    for s in settings:
        if s["players"] == players:
            for r in s["records"]:
                seen.setdefault(r["key"], None)

    def order(k: str) -> tuple:
        kind = k.split("/")[1]
        return ({"largest_gap": 0, "seat_pair": 1, "fpa": 2, "length": 3}.get(kind, 4), k)

    return sorted(seen, key=order)


@dataclass
class Robustness:
    """The analysed robustness run: the settings' records and every verdict's classification."""

    run: RobustnessResult
    settings: list[dict]
    verdicts: list[dict]
    thresholds: Thresholds
    alpha: float = ALPHA
    records: dict = field(default_factory=dict)  # setting key -> verdict key -> record
    ratings: dict = field(default_factory=dict)  # --ladder: players -> analysis.ladder.Ratings

    def to_json(self) -> dict[str, Any]:
        run = self.run
        ladder = {"ladder": ladder_json(self.ratings)} if self.ratings else {}
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
            "variants": list(run.variants),
            "skipped": [k.to_json() for k in run.skipped],
            **ladder,
        }

    def record(self, setting_key: str, verdict_key: str) -> Any:
        """The verdict record of one question in one setting (None when not measured)."""
        return self.records.get(setting_key, {}).get(verdict_key)


def robustness(
    run: RobustnessResult, alpha: float = ALPHA, thresholds: Thresholds | None = None
) -> Robustness:
    """Analyse a RobustnessRun (simcore.studies.robustness.run_robustness)."""
    t = thresholds or Thresholds()
    ratings = rung_ratings(run)
    settings, by_setting = setting_table(run, alpha, t, ratings)
    verdicts = [
        classify(settings, by_setting, p, v, alpha)
        for p in run.player_counts
        for v in verdict_keys(settings, p)
    ]
    return Robustness(run, settings, verdicts, t, alpha, by_setting, ratings)


def rung_ratings(run: RobustnessResult) -> dict[int, Ratings]:
    """--ladder: the ratings of the rungs per player count, fitted from the run's rating
    matches by the ladder's own fit (analysis.ladder.fit_ratings: Bradley-Terry, 0 = the
    default player); {} without --ladder or without a rating match (a one-rung game)."""
    ladders = run.ladders
    if not ladders:
        return {}
    from analysis.ladder import fit_ratings  # statsmodels: only with --ladder

    return {p: fit_ratings(rm) for p, rm in ladders.items() if rm.matches}


def ladder_json(ratings: dict[int, Ratings]) -> list[dict]:
    """The ratings of --ladder for the JSON: per player count, per rung (the ladder's order)
    its rating, 95% interval, standard error, bound and the games of its rating matches."""
    return [
        {
            "players": p,
            "reference": r.reference,
            "rungs": [
                {
                    "rung": name,
                    "rating": float(r.rating[i]),
                    "rating_low": r.low(i),
                    "rating_high": r.high(i),
                    "rating_se": float(r.se[i]),
                    "bound": r.bound.get(name),
                    "rating_games": r.games[name],
                }
                for i, name in enumerate(r.names)
            ],
        }
        for p, r in ratings.items()
    ]


# --------------------------------------------------------------------------------- words
def seats_text(players: int) -> str:
    """'1 player', '3 players'."""
    return f"{players} player" + ("s" if players != 1 else "")


def _num(v: float) -> str:
    x = round(v, 2) + 0.0
    return f"{x:+.1f}" if abs(x) >= 0.05 or x == 0 else f"{x:+.2f}"


def _short(c: dict) -> str:
    """'aggressive in every seat (-0.5, -6.8 to +5.8: inconclusive)'."""
    nums = f"{_num(c['estimate'])}, {_num(c['low'])} to {_num(c['high'])}"
    return f"{c['setting']} ({nums}: {c['state']})"


def _listed(calls: list[dict], shown: int) -> str:
    parts = [_short(c) for c in calls[:shown]]
    if len(calls) > shown:
        parts.append(f"{len(calls) - shown} more")
    return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]


def sentence(v: dict, shown: int = 3) -> str:
    """One sentence of a classified verdict: the reference's record (words from its sign,
    the interval its call rests on), the class, and the settings that count against it or
    are undecided (the first `shown` of each with their numbers)."""
    head = seats_text(v["players"])
    if v["status"] == "not measured":
        return (
            f"{head}: {v['verdict']}: not measured (every setting that measures it is degenerate)."
        )
    ref, n = v["reference"], v["settings"]
    if v["verdict"].endswith("/length"):
        size = (
            f"{ref['estimate']:.2f} rounds (95% CI {ref['low']:.2f} to {ref['high']:.2f}) with "
            f"{ref['setting']}"
        )
        against = [c for c in v["calls"] if c["against"]]
        tail = f"; outside the band with {_listed(against, shown)}" if against else ""
        return f"{head}: {v['claim']} ({v['label']}): {size}{tail}."
    size = f"{_record_text(ref)} with {ref['setting']}"
    if ref.get("note"):  # what the reference's call rests on (analysis.compare.opening_notes)
        size += f" ({ref['note']})"
    text = f"{head}: {ref['words']}: {size}"
    against = [c for c in v["calls"] if c["against"]]
    undecided = [c for c in v["calls"] if not c["against"] and c["state"] != "agrees"]
    if v["status"] == "holds":
        return f"{text}; holds in all {n} settings."
    if v["status"] == "not detected":
        return f"{text}; not detected (no setting finds it)."
    text += f"; {v['label']}" if v["status"] == "inconclusive" else f" ({v['label']})"
    if v.get("skill"):
        text += f"; by skill: {v['skill']['text']}"
    if against:
        text += f"; against it: {_listed(against, shown)}"
    if undecided:
        text += f"; undecided: {_listed(undecided, shown)}"
    return text + "."


def _record_text(r: dict) -> str:
    """A record's number and the interval its call rests on, from its JSON."""
    return interval_words(r["estimate"], r["low"], r["high"], r["unit"], r["alpha"], r["tests"])


def findings(a: Robustness) -> dict[str, Any]:
    """The Findings: the verdicts the reference setting (the default report) finds that hold,
    that depend on the players, the components or both, and that are inconclusive (lists of
    classified verdicts); 'others': the verdicts the reference does not find that some
    setting finds (they are in the detail). The variants' effects on the feel metrics are
    apart: 'feel' (found by the reference) and 'feel_others'."""
    out: dict[str, Any] = {
        "holds": [],
        "players": [],
        "components": [],
        "both": [],
        "inconclusive": [],
        "others": 0,
        "feel": [],
        "feel_others": 0,
    }
    where = {
        "holds": "holds",
        "depends on players": "players",
        "depends on components": "components",
        "depends on players and components": "both",
        "inconclusive": "inconclusive",
    }
    for v in a.verdicts:
        if v["status"] not in where:
            continue
        feel = is_feel(v["verdict"])
        found = v["reference"].get("sign", 1) != 0
        if not found:
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


def ratings_lines(a: Robustness) -> list[str]:
    """--ladder: per player count, the rungs by rating with their 95% intervals."""
    out = []
    for p, r in a.ratings.items():
        order = sorted(range(len(r.names)), key=lambda i: (r.rating[i], i))
        parts = [
            f"{r.names[i]} {elo_text(float(r.rating[i]), r.bound.get(r.names[i]))}"
            + ("" if r.names[i] == r.reference else f" ({r.low(i):+.0f} to {r.high(i):+.0f})")
            for i in order
        ]
        out.append(
            f"{seats_text(p)}, the ladder's rungs rated (Elo points, 0 = {r.reference}, 95% CI): "
            + ", ".join(parts)
        )
    return out


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
    lines += [f"skipped: {k.line}" for k in run.skipped]
    lines += ratings_lines(a)
    for status in STATUSES:
        sel = [v for v in a.verdicts if v["status"] == status]
        if sel:
            lines.append(f"{status} ({len(sel)}):")
            lines += ["  " + sentence(v) for v in sel]
    lines.append(f"{run.elapsed_s:.1f} s")
    return lines
