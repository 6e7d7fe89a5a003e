"""The rated ladder (`balance ladder`, issue #36): ratings of the rungs on one Elo scale, the
balance of the game at every level of skill, the skill class of each headline verdict, and how
much skill decides the game (docs/skill.md). Numba-free: it reads a
simcore.base.results.LadderRun (or RatedMatches) and returns plain data; analysis.ladder_report
renders it.

**Rating model: Bradley-Terry on pairwise outcomes from finishing orders.** In a rating match
rung A sits in one seat and rung B in the N - 1 others; each game gives A's pairwise results
against each B by the finishing order (win 1, level 1/2, loss 0). The game's share y of A's
N - 1 results is modelled as a binomial GLM with the logit link (statsmodels) and no intercept:
logit P(A above B) = b_A - b_B, b of the reference rung fixed at 0, each game an observation
of N - 1 trials (var_weights). The N - 1 results of one game are not independent (they share
A's own play), so the covariance is the sandwich (HC0) over games, not the binomial one. A
rating is b in Elo points, 400 / ln 10 * b: a 100-point gap is an expected pairwise score of
64%. A rung that never beats (or never loses to) its opponents has no finite estimate: half a
win and half a loss are added to each such one-sided match (the classic correction for
separation), and its rating is marked a bound.

Every interval is 95%; the separation of each rung from the rung below it (in rating order) is
a verdict record (simcore.base.verdicts) adjusted over the neighbour pairs.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import statsmodels.api as sm
from scipy import special as _sp
from statsmodels.stats.multitest import multipletests

from analysis.degenerate import Thresholds, degenerate
from analysis.stats import wilson
from analysis.summary import feel_table
from simcore.base.results import LadderRun, MatchResult, RatedMatches, RunSummary
from simcore.base.verdicts import ALPHA, Verdict, Wording, seat_verdicts, z_verdict

ELO = 400.0 / math.log(10.0)  # Elo points per logit
Z95 = float(_sp.ndtri(0.975))


# --------------------------------------------------------------------------------- ratings
@dataclass(frozen=True)
class Ratings:
    """The fitted ratings: per rung (names in the ladder's order) the rating, its standard
    error and 95% interval in Elo points, whether it is a bound (a one-sided match), and the
    covariance of the ratings (Elo points squared; the reference's row and column 0)."""

    names: list[str]
    reference: str
    rating: np.ndarray
    se: np.ndarray
    cov: np.ndarray
    bound: dict[str, str]  # rung -> 'below' (never beat an opponent) or 'above' (never lost)
    games: dict[str, int]  # rung -> games of its rating matches

    def low(self, i: int) -> float:
        return float(self.rating[i] - Z95 * self.se[i])

    def high(self, i: int) -> float:
        return float(self.rating[i] + Z95 * self.se[i])

    def diff_se(self, i: int, j: int) -> float:
        """The standard error of rating i minus rating j."""
        c = self.cov
        return math.sqrt(max(c[i, i] + c[j, j] - 2 * c[i, j], 0.0))


def rating_matches(run: RatedMatches) -> list[MatchResult]:
    """The matches of a run that rate (a rung against another, seats rotated)."""
    return [m for m in run.matches if m.match.other is not None]


def fit_ratings(run: RatedMatches) -> Ratings:
    """The Bradley-Terry fit of the module docstring (statsmodels GLM, sandwich covariance)."""
    names = [r.name for r in run.rungs]
    ref = names.index(run.reference)
    free = [i for i in range(len(names)) if i != ref]
    k = len(names)
    games = {n: 0 for n in names}
    trials = run.players - 1
    ys, ws, xs = [], [], []
    for m in rating_matches(run):
        a, b = names.index(m.match.rung), names.index(m.match.other)
        hist = np.asarray(m.points, dtype=np.int64)
        n = int(hist.sum())
        games[names[a]] += n
        games[names[b]] += n
        row = np.zeros(k)
        row[a], row[b] = 1.0, -1.0
        share = np.arange(len(hist)) / (2.0 * trials)
        ys.append(np.repeat(share, hist))
        ws.append(np.full(n, float(trials)))
        xs.append(np.repeat(row[None, :], n, axis=0))
        if n and (hist[0] == n or hist[-1] == n):  # one-sided: half a win and half a loss
            ys.append(np.array([0.5]))
            ws.append(np.array([1.0]))
            xs.append(row[None, :])
    rating = np.zeros(k)
    cov = np.zeros((k, k))
    if free:
        x = np.concatenate(xs)[:, free]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # perfect prediction warnings: handled above
            fit = sm.GLM(
                np.concatenate(ys),
                x,
                family=sm.families.Binomial(),
                var_weights=np.concatenate(ws),
            ).fit(cov_type="HC0")
        rating[free] = ELO * np.asarray(fit.params)
        cov[np.ix_(free, free)] = ELO**2 * np.asarray(fit.cov_params())
    bound = {n: side for n in names if (side := _one_sided(run, n))}
    se = np.sqrt(np.maximum(np.diag(cov), 0.0))
    return Ratings(names, run.reference, rating, se, cov, bound, games)


def _one_sided(run: RatedMatches, name: str) -> str | None:
    """'below' when the rung lost every pairwise result of every rating match it played,
    'above' when it won every one, else None (its rating is then an estimate, not a bound)."""
    sides = set()
    for m in rating_matches(run):
        if name not in (m.match.rung, m.match.other):
            continue
        hist = np.asarray(m.points)
        n = int(hist.sum())
        if not n or not (hist[0] == n or hist[-1] == n):
            return None
        rung_won = bool(hist[-1] == n)
        sides.add("above" if rung_won == (name == m.match.rung) else "below")
    return sides.pop() if len(sides) == 1 else None


def by_rating(r: Ratings) -> list[int]:
    """The rungs' indices from the lowest rating to the highest (ties: the ladder's order)."""
    return sorted(range(len(r.names)), key=lambda i: (r.rating[i], i))


def separation(r: Ratings, players: int, alpha: float = ALPHA) -> list[Verdict]:
    """Each rung against the rung below it in rating order: its rating minus the lower one's,
    adjusted over the neighbour pairs (a rung not separated from the one below says so)."""
    order = by_rating(r)
    pairs = list(zip(order, order[1:]))
    out = []
    for lo, hi in pairs:
        a, b = r.names[hi], r.names[lo]
        out.append(
            z_verdict(
                f"{players}p/ladder/separation/{a}/{b}",
                f"{a}'s rating minus {b}'s",
                "Elo points",
                float(r.rating[hi] - r.rating[lo]),
                r.diff_se(hi, lo),
                r.games[a] + r.games[b],
                Wording(
                    f"{a} is stronger than {b}",
                    f"{b} is stronger than {a}",
                    f"{a} is not separated from {b} (the rung below)",
                ),
                tests=len(pairs),
                alpha=alpha,
            )
        )
    return out


def skill_measure(r: Ratings, players: int, alpha: float = ALPHA) -> dict[str, Any]:
    """How much skill decides the game: the Elo spread of the ladder, the strongest rung's
    rating minus the weakest's (after Duersch, Lambrecht & Oechssler 2020, who measure the
    skill in a game by the dispersion of its players' Elo ratings), with its 95% interval,
    and the expected pairwise score of the strongest against the weakest. A ladder of one
    rung (a game without decisions) has a spread of exactly 0. A bound rating at either end
    makes the spread a lower bound."""
    order = by_rating(r)
    lo, hi = order[0], order[-1]
    est = float(r.rating[hi] - r.rating[lo])
    se = r.diff_se(hi, lo) if hi != lo else 0.0
    games = r.games[r.names[hi]] + (r.games[r.names[lo]] if hi != lo else 0)
    rec = z_verdict(
        f"{players}p/ladder/skill",
        f"the Elo spread of the ladder ({r.names[hi]}'s rating minus {r.names[lo]}'s)",
        "Elo points",
        est,
        se,
        games,
        Wording(
            "skill decides part of the game: the strongest rung is rated above the weakest",
            "skill decides part of the game",
            "no skill detected: the strongest rung is not separated from the weakest",
        ),
        alpha=alpha,
    )
    lower_bound = r.names[lo] in r.bound or r.names[hi] in r.bound
    return {
        "record": rec,
        "strongest": r.names[hi],
        "weakest": r.names[lo],
        "expected_score": expected_score(est),
        "expected_score_low": expected_score(rec.low),
        "expected_score_high": expected_score(rec.high),
        "lower_bound": lower_bound,
    }


def expected_score(elo: float) -> float:
    """The expected pairwise score of a rating gap (Elo points): 1 / (1 + 10^(-gap/400))."""
    return float(1.0 / (1.0 + 10.0 ** (-elo / 400.0)))


def variant_skill(run: LadderRun, r: Ratings, alpha: float = ALPHA) -> dict[str, Any] | None:
    """A compared variant's paired effect on the skill measure (None without one): every rating
    match was played again under the variant on the same games (joint histograms of the
    half-points). One GLM of both (each rung's rating under the rules and under the variant,
    the reference 0 in each), its covariance clustered by game (a game and its twin under the
    variant are one cluster: common random numbers), gives the spread between the same two
    rungs (the ladder's strongest and weakest under the rules) under each, and their
    difference: a verdict record, "`V` makes skill matter more / less"."""
    if not run.compare_variant or len(r.names) < 2:
        return None
    names, k, trials = r.names, len(r.names), run.players - 1
    free = [i for i in range(k) if i != names.index(run.reference)]
    width = 2 * trials + 1
    ys, ws, xs, groups = [], [], [], []
    cluster = 0
    for m in rating_matches(run):
        joint = np.asarray(m.joint, dtype=np.int64).reshape(width, width)
        a, b = names.index(m.match.rung), names.index(m.match.other)
        row = np.zeros(k)
        row[a], row[b] = 1.0, -1.0
        zero = np.zeros(k)
        base_cells, alt_cells = np.nonzero(joint)
        counts = joint[base_cells, alt_cells]
        n = int(counts.sum())
        ids = cluster + np.arange(n)
        cluster += n
        for side, cells in ((0, base_cells), (1, alt_cells)):
            ys.append(np.repeat(cells / (2.0 * trials), counts))
            ws.append(np.full(n, float(trials)))
            design = np.concatenate([row, zero] if side == 0 else [zero, row])
            xs.append(np.repeat(design[None, :], n, axis=0))
            groups.append(ids)
        for side, cells in ((0, base_cells), (1, alt_cells)):  # one-sided: half and half
            share = np.repeat(cells, counts)
            if n and (share.min() == share.max()) and share[0] in (0, 2 * trials):
                ys.append(np.array([0.5]))
                ws.append(np.array([1.0]))
                design = np.concatenate([row, zero] if side == 0 else [zero, row])
                xs.append(design[None, :])
                groups.append(np.array([cluster]))
                cluster += 1
    cols = free + [k + i for i in free]
    x = np.concatenate(xs)[:, cols]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fit = sm.GLM(
            np.concatenate(ys), x, family=sm.families.Binomial(), var_weights=np.concatenate(ws)
        ).fit(cov_type="cluster", cov_kwds={"groups": np.concatenate(groups)})
    beta = np.zeros(2 * k)
    beta[cols] = ELO * np.asarray(fit.params)
    cov = np.zeros((2 * k, 2 * k))
    cov[np.ix_(cols, cols)] = ELO**2 * np.asarray(fit.cov_params())
    order = by_rating(r)
    lo, hi = order[0], order[-1]
    contrast = np.zeros(2 * k)
    contrast[[k + hi, k + lo, hi, lo]] = [1.0, -1.0, -1.0, 1.0]
    base_spread, alt_spread = beta[hi] - beta[lo], beta[k + hi] - beta[k + lo]
    v = run.compare_variant
    rec = z_verdict(
        f"{run.players}p/ladder/skill/effect/{v}",
        f"the Elo spread ({names[hi]}'s rating minus {names[lo]}'s) under `{v}` minus under "
        "the rules",
        "Elo points",
        float(alt_spread - base_spread),
        float(math.sqrt(max(contrast @ cov @ contrast, 0.0))),
        sum(int(np.asarray(m.joint).sum()) for m in rating_matches(run)),
        Wording(
            f"`{v}` makes skill matter more",
            f"`{v}` makes skill matter less",
            f"`{v}`: no detectable change in how much skill matters",
        ),
        alpha=alpha,
    )
    return {
        "variant": v,
        "record": rec,
        "spread": float(base_spread),
        "variant_spread": float(alt_spread),
        "variant_ratings": {names[i]: float(beta[k + i]) for i in range(k)},
    }


# --------------------------------------------------------------------------------- balance
def self_play(run: RatedMatches) -> dict[str, MatchResult]:
    """Each rung's self-play match, by rung name."""
    return {m.match.rung: m for m in run.matches if m.match.other is None}


def rounds_level(summary: RunSummary, alpha: float = ALPHA) -> dict[str, float]:
    """The mean length in rounds with its normal 95% interval (from the rounds histogram)."""
    h = np.asarray(summary.rounds_hist, dtype=float)
    n = h.sum()
    x = np.arange(len(h))
    mean = float((x * h).sum() / n)
    var = float(((x - mean) ** 2 * h).sum() / max(n - 1, 1))
    half = float(_sp.ndtri(1 - alpha / 2)) * math.sqrt(var / n)
    return {"mean": mean, "low": mean - half, "high": mean + half, "se": math.sqrt(var / n)}


def balance_rows(run: LadderRun, r: Ratings, alpha: float = ALPHA) -> list[dict[str, Any]]:
    """Per rung (in rating order) the balance of self-play: seat win rates (shares, Wilson
    95%), the seat verdicts (first-player advantage; with 3 or more players the largest gap),
    the length, how the game feels, the degenerate-play check, and the CPU ms a game."""
    own = self_play(run)
    out = []
    for i in by_rating(r):
        name = r.names[i]
        m = own[name]
        s = m.summary
        n = s.games
        lo, hi = wilson(s.seat_wins, n, alpha)
        verdicts = {v.key.split("/", 1)[1]: v for v in seat_verdicts(run.players, s.seat_wins, n)}
        feel = feel_table(s, alpha)
        out.append(
            {
                "rung": name,
                "rating": float(r.rating[i]),
                "games": int(n),
                "seats": [
                    {
                        "seat": k,
                        "wins": int(s.seat_wins[k]),
                        "win_rate": float(s.seat_wins[k] / n),
                        "ci_low": float(lo[k]),
                        "ci_high": float(hi[k]),
                    }
                    for k in range(run.players)
                ],
                "shared_wins": int(s.shared_wins),
                "fpa": verdicts["fpa"],
                "largest_gap": verdicts.get("largest_gap"),
                "rounds": rounds_level(s, alpha),
                "feel": {
                    f.metric: {"value": f.value, "ci_low": f.ci_low, "ci_high": f.ci_high}
                    for f in feel.itertuples()
                },
                "degenerate": degenerate(m.outcomes, Thresholds()),
                "cpu_ms": 1000.0 * m.cpu_s / n if n else float("nan"),
            }
        )
    return out


# --------------------------------------------------------------------------------- skill classes
SKILL_CLASSES = (
    "the same at every level",
    "present at every level, of a size that varies (not with skill)",
    "grows with skill",
    "shrinks with skill",
    "reverses with skill",
    "appears only from a rating",
    "not detected at any level",
    "inconclusive (too few games)",
)


def holm_records(
    items: list[tuple[str, str, str, float, float, int, Wording]],
    alpha: float,
    extra: tuple[float, ...] = (),
) -> tuple[list[Verdict], list[bool]]:
    """Verdict records of a family of questions called by Holm's step-down (statsmodels'
    multipletests): each record's p is its Holm-adjusted p, and its interval is at the level
    Holm tested it at (alpha / the number of hypotheses left at its step; those after the
    first not rejected, at that step's level), so the interval excludes 0 exactly when the
    call is significant. items: (key, quantity, unit, estimate, se, games, wording); extra:
    the raw p of further tests of the family without an interval (the heterogeneity test),
    whose calls are returned beside the records."""
    m = len(items) + len(extra)
    if not m:
        return [], []
    raw = [z_verdict(k, q, u, e, se, g, w, 1, alpha).p for k, q, u, e, se, g, w in items]
    raw += list(extra)
    reject, adj, _, _ = multipletests(raw, alpha=alpha, method="holm")
    order = np.argsort(raw, kind="stable")
    divisor = [0] * m
    stop = None
    for step, i in enumerate(order):
        if stop is None:
            divisor[i] = m - step
            if not reject[i]:
                stop = m - step
        else:
            divisor[i] = stop
    out = []
    for (k, q, u, e, se, g, w), d, p in zip(items, divisor, adj):
        v = z_verdict(k, q, u, e, se, g, w, d, alpha)
        out.append(replace(v, p=float(p)))
    return out, [bool(x) for x in reject[len(items) :]]


def trend(ratings: list[float], est: list[float], se: list[float]) -> tuple[float, float]:
    """The weighted least-squares slope of the estimates on the ratings (weights 1 / se^2;
    statsmodels WLS), per 100 Elo points, and its standard error: from the known variances,
    widened by the residual dispersion when the points scatter more than their errors say (a
    multiplicative dispersion of at least 1, as in a meta-regression)."""
    x = sm.add_constant(np.asarray(ratings) / 100.0)
    w = 1.0 / np.maximum(np.asarray(se) ** 2, 1e-12)
    fit = sm.WLS(np.asarray(est), x, weights=w).fit()
    widen = math.sqrt(max(float(fit.scale), 1.0) / float(fit.scale)) if fit.scale > 0 else 1.0
    return float(fit.params[1]), float(fit.bse[1]) * widen


def heterogeneity_p(est: list[float], se: list[float]) -> float:
    """Cochran's Q test that the rungs' effects are one and the same (chi-square, K - 1
    degrees of freedom; scipy): its p."""
    from scipy import stats

    e, w = np.asarray(est), 1.0 / np.maximum(np.asarray(se) ** 2, 1e-12)
    q = float((w * (e - (w * e).sum() / w.sum()) ** 2).sum())
    return float(stats.chi2.sf(q, len(e) - 1))


def skill_class(
    question: str,
    rows: list[dict[str, Any]],
    what: str,
    players: int,
    alpha: float = ALPHA,
) -> dict[str, Any]:
    """The skill class of a headline verdict (`what`: 'fpa' or 'largest_gap') over the rungs
    that are not degenerate, by an honest test: one question per rung (is the effect there?)
    and a weighted trend of the effect on the rating, Holm over them all (holm_records).

    - reverses with skill: some rungs significantly one way, others the other (the rating
      where it turns: where the trend line crosses 0 when that lies between them, else half
      way between the last rung of one sign and the first of the other);
    - appears only from rating X: the significant rungs are exactly the strongest ones, from
      the rung rated X on, and at least one rung below is not significant;
    - shrinks with skill (gone from rating X): the significant rungs are exactly the weakest
      ones, the rungs from X on are not; or a significant trend towards 0;
    - grows with skill: a significant trend away from 0 (in the direction of the significant
      rungs);
    - an "appears" or "gone" pattern needs the trend's support, or the rungs without the effect
      to be within +-1 point of 0: a rung that is merely undecided leaves it inconclusive;
    - the same at every level: every rung significant in one direction, no trend, and the
      rungs' effects not significantly different (Cochran's Q, in the Holm family); with
      them different: present at every level, of a size that varies (not with skill);
    - not detected at any level: nothing significant and every interval within +-1 point of 0;
      else inconclusive (too few games)."""
    use = [r for r in rows if not r["degenerate"]["degenerate"] and r[what] is not None]
    base = {"question": question, "metric": what, "rungs": [r["rung"] for r in use]}
    if not use:
        return {
            **base,
            "class": "not measured",
            "sentence": f"{question}: not measured (every rung is degenerate)",
            "records": [],
            "trend": None,
        }
    recs_in = [r[what] for r in use]
    items = [
        (
            f"{players}p/ladder/{what}/{r['rung']}",
            f"{v.quantity} with {r['rung']} in every seat",
            v.unit,
            v.estimate,
            v.se,
            v.games,
            v.wording,
        )
        for r, v in zip(use, recs_in)
    ]
    has_trend = len(use) >= 3
    if has_trend:
        slope, slope_se = trend(
            [r["rating"] for r in use], [v.estimate for v in recs_in], [v.se for v in recs_in]
        )
        items.append(
            (
                f"{players}p/ladder/{what}/trend",
                f"the change of the {question} per 100 Elo points of skill",
                "points per 100 Elo",
                slope,
                slope_se,
                sum(v.games for v in recs_in),
                Wording("rises with skill", "falls with skill", "no trend with skill detected"),
            )
        )
    het = [heterogeneity_p([v.estimate for v in recs_in], [v.se for v in recs_in])]
    recs, more = holm_records(items, alpha, tuple(het if len(use) >= 2 else ()))
    varies = bool(more and more[0])
    per_rung, tr = recs[: len(use)], (recs[-1] if has_trend else None)
    cls, extra = _class_of(use, per_rung, tr, varies)
    sentence = _class_sentence(question, cls, extra, use, per_rung, tr)
    return {
        **base,
        "class": cls,
        **extra,
        "sentence": sentence,
        "records": per_rung,
        "trend": tr,
    }


def _class_of(
    use: list[dict], recs: list[Verdict], tr: Verdict | None, varies: bool = False
) -> tuple[str, dict]:
    signs = [v.sign for v in recs]
    ratings = [r["rating"] for r in use]
    if 1 in signs and -1 in signs:
        first = signs[next(i for i, s in enumerate(signs) if s)]
        j = next(i for i, s in enumerate(signs) if s == -first)
        i = max(k for k in range(j) if signs[k] == first)
        turn = (ratings[i] + ratings[j]) / 2
        if tr is not None and tr.sign:
            a = _intercept(use, recs, tr)
            cross = -a / tr.estimate * 100.0
            if ratings[i] <= cross <= ratings[j]:
                turn = cross
        return "reverses with skill", {"turns_at_rating": float(turn)}
    sig = [s != 0 for s in signs]
    if any(sig):
        direction = next(s for s in signs if s)
        trend_says = 0 if tr is None else tr.sign * direction  # +1: away from 0 with skill
        quiet = all(-1.0 <= v.low and v.high <= 1.0 for v, s in zip(recs, sig) if not s)
        cut = split_by_skill(sig)
        if cut and cut[0] == "from" and (trend_says > 0 or quiet):
            return "appears only from a rating", {"appears_from_rating": float(ratings[cut[1]])}
        if cut and cut[0] == "up to" and (trend_says < 0 or quiet):
            return "shrinks with skill", {"gone_from_rating": float(ratings[cut[1] + 1])}
        if trend_says:
            return ("grows with skill" if trend_says > 0 else "shrinks with skill"), {}
        if all(sig):
            if varies:
                return "present at every level, of a size that varies (not with skill)", {}
            return "the same at every level", {}
        return "inconclusive (too few games)", {}
    if tr is not None and tr.sign:
        return ("grows with skill" if tr.sign > 0 else "shrinks with skill"), {}
    if all(-1.0 <= v.low and v.high <= 1.0 for v in recs):
        return "not detected at any level", {}
    return "inconclusive (too few games)", {}


def split_by_skill(flags: list[bool]) -> tuple[str, int] | None:
    """Where a property of the rungs, in rating order, changes once: ('from', i) when exactly
    the rungs i and above have it (i > 0), ('up to', i) when exactly the rungs i and below have
    it (i below the last); None when none or all have it, or not as one block at either end.
    The skill classes here and the skill wording of `balance robustness --ladder`
    (analysis.robustness) both read the rungs with it."""
    flags = [bool(f) for f in flags]
    if not any(flags) or all(flags):
        return None
    first, last = flags.index(True), len(flags) - 1 - flags[::-1].index(True)
    if all(flags[first:]):
        return "from", first
    if all(flags[: last + 1]):
        return "up to", last
    return None


def _intercept(use: list[dict], recs: list[Verdict], tr: Verdict) -> float:
    """The intercept of the trend line through the weighted mean of the estimates."""
    w = np.array([1.0 / max(v.se, 1e-9) ** 2 for v in recs])
    x = np.array([r["rating"] for r in use]) / 100.0
    y = np.array([v.estimate for v in recs])
    return float((w * y).sum() / w.sum() - tr.estimate * (w * x).sum() / w.sum())


def _class_sentence(
    question: str,
    cls: str,
    extra: dict[str, Any],
    use: list[dict[str, Any]],
    recs: list[Verdict],
    tr: Verdict | None,
) -> str:
    where = "; ".join(
        f"{r['rung']} ({r['rating']:+.0f} Elo): {v.interval_text()}" for r, v in zip(use, recs)
    )
    head = f"{question}: {cls}"
    if "turns_at_rating" in extra:
        head += f" (it turns near rating {extra['turns_at_rating']:+.0f})"
    if "appears_from_rating" in extra:
        head = f"{question}: appears only from rating {extra['appears_from_rating']:+.0f}"
    if "gone_from_rating" in extra:
        head += f" (gone from rating {extra['gone_from_rating']:+.0f})"
    if tr is not None:
        head += f"; trend: {tr.words}: {tr.interval_text()}"
    return f"{head}. Per rung (Holm-adjusted): {where}"


# --------------------------------------------------------------------------------- everything
@dataclass
class LadderAnalysis:
    """A ladder read: the ratings, the separation records, the skill measure, the balance
    rows (rating order) and the skill classes of the headline verdicts."""

    run: LadderRun
    ratings: Ratings
    separation: list[Verdict]
    skill: dict[str, Any]
    balance: list[dict[str, Any]]
    classes: list[dict[str, Any]]
    variant: dict[str, Any] | None = None  # a compared variant's effect on the skill measure


def analyse(run: LadderRun, alpha: float = ALPHA) -> LadderAnalysis:
    """Everything the ladder says (the module docstring), from a LadderRun."""
    r = fit_ratings(run)
    rows = balance_rows(run, r, alpha)
    questions = [("the first-player advantage", "fpa")]
    if run.players >= 3:
        questions.append(("the largest seat gap", "largest_gap"))
    classes = (
        []
        if len(r.names) < 2
        else [skill_class(q, rows, what, run.players, alpha) for q, what in questions]
    )
    return LadderAnalysis(
        run,
        r,
        separation(r, run.players, alpha),
        skill_measure(r, run.players, alpha),
        rows,
        classes,
        variant_skill(run, r, alpha),
    )
