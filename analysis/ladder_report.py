"""`balance ladder`'s output: the text tables, the JSON object and the plot of a ladder read by
analysis.ladder. Rates a person reads are in % (points); the JSON keeps shares (`win_rate`,
`ci_low`, `ci_high`) and the verdict records in their units (docs/skill.md lists the keys).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import matplotlib.ticker
import numpy as np

from analysis.ladder import LadderAnalysis, expected_score
from analysis.plots import _labelled, new_figure
from simcore.base.verdicts import Verdict

if TYPE_CHECKING:
    from matplotlib.axes import Axes

Echo = Callable[[str], None]
MODEL = (
    "Bradley-Terry on pairwise outcomes from finishing orders: logit P(A finishes above B) = "
    "b_A - b_B, a binomial GLM (statsmodels) with one observation per game (the rung's share "
    "of its N-1 pairwise results), sandwich (HC0) covariance over games; ratings in Elo points "
    "(400/ln 10 per logit), 0 = the reference; 95% intervals"
)


def _rec(v: Verdict | None) -> dict | None:
    return None if v is None else v.as_json()


def to_json(a: LadderAnalysis, version: str = "") -> dict[str, Any]:
    """The JSON object of `balance ladder --json` (docs/skill.md)."""
    run, r = a.run, a.ratings
    own = {m.match.rung: m for m in run.matches if m.match.other is None}
    rungs = []
    for i, rung in enumerate(run.rungs):
        m = own[rung.name]
        rungs.append(
            {
                "rung": rung.name,
                "kind": rung.kind,
                "budget": rung.budget or None,
                "reference": rung.name == r.reference,
                "rating": float(r.rating[i]),
                "rating_low": r.low(i),
                "rating_high": r.high(i),
                "rating_se": float(r.se[i]),
                "bound": r.bound.get(rung.name),
                "rating_games": r.games[rung.name],
                "cpu_ms_per_game": 1000.0 * m.cpu_s / max(m.summary.games, 1),
            }
        )
    skill = dict(a.skill, record=a.skill["record"].as_json())
    variant = None if a.variant is None else dict(a.variant, record=a.variant["record"].as_json())
    return {
        "game": run.game,
        "players": run.players,
        "seed": run.seed,
        "games": run.games,
        "search_games": run.search_games,
        "rules_hash": run.rules_hash,
        "version": version,
        "reference": r.reference,
        "no_decisions": run.no_decisions,
        "model": MODEL,
        "rungs": rungs,
        "order": [r.names[i] for i in np.argsort(r.rating, kind="stable")],
        "separation": [v.as_json() for v in a.separation],
        "skill": skill,
        "variant_skill": variant,
        "balance": [_balance_json(b) for b in a.balance],
        "skill_classes": [
            {
                **{k: v for k, v in c.items() if k not in ("records", "trend")},
                "records": [v.as_json() for v in c["records"]],
                "trend": _rec(c["trend"]),
            }
            for c in a.classes
        ],
        "matches": [
            {
                "match": m.match.key,
                "rung": m.match.rung,
                "other": m.match.other,
                "games": int(m.summary.games),
                "points": [int(x) for x in m.points] if m.match.other else None,
                "cpu_s": m.cpu_s,
                "elapsed_s": m.elapsed_s,
            }
            for m in run.matches
        ],
        "resumed": list(run.resumed),
        "elapsed_s": run.elapsed_s,
    }


def _balance_json(b: dict[str, Any]) -> dict[str, Any]:
    return {
        **b,
        "fpa": _rec(b["fpa"]),
        "largest_gap": _rec(b["largest_gap"]),
        "feel": {k: _finite(v) for k, v in b["feel"].items()},
    }


def _finite(d: dict[str, float]) -> dict[str, float | None]:
    return {k: (float(v) if v is not None and np.isfinite(v) else None) for k, v in d.items()}


# --------------------------------------------------------------------------------- text
def _elo(v: float) -> str:
    return f"{v:+.0f}"


def rung_table(a: LadderAnalysis) -> list[str]:
    """The rungs from the weakest to the strongest: rating, 95% interval, CPU-ms a game."""
    r, run = a.ratings, a.run
    own = {m.match.rung: m for m in run.matches if m.match.other is None}
    below = {v.key.split("/")[3]: v for v in a.separation}
    width = max(len(n) for n in r.names) + 2
    lines = [f"{'rung':<{width}}{'rating':>7}  {'95% CI':<15}{'CPU-ms a game':>14}  note"]
    for i in sorted(range(len(r.names)), key=lambda k: (r.rating[k], k)):
        name = r.names[i]
        m = own[name]
        ci = "reference" if name == r.reference else f"{_elo(r.low(i))} to {_elo(r.high(i))}"
        notes = []
        if name in r.bound:
            won = r.bound[name] == "above"
            notes.append(f"never {'lost' if won else 'won'} a pairwise result: a bound")
        if name in below and not below[name].significant:
            notes.append(f"not separated from {below[name].key.split('/')[4]}")
        cpu = 1000.0 * m.cpu_s / max(m.summary.games, 1)
        lines.append(
            f"{name:<{width}}{_elo(r.rating[i]):>7}  {ci:<15}{cpu:>14.3f}  {'; '.join(notes)}"
        )
    return lines


def balance_table(a: LadderAnalysis) -> list[str]:
    """Each rung in every seat (rating order): seat win rates in %, the first-player
    advantage and (3 or more players) the largest gap in points, the length in rounds."""
    players = a.run.players
    width = max(len(b["rung"]) for b in a.balance) + 2
    head = f"{'rung':<{width}}{'rating':>7}{'games':>8}"
    head += "".join(f"{'seat ' + str(s):>8}" for s in range(players))
    head += "  first-player advantage"
    if players >= 3:
        head += "          largest gap         "
    lines = [head + "  rounds"]
    for b in a.balance:
        row = f"{b['rung']:<{width}}{_elo(b['rating']):>7}{b['games']:>8,}"
        row += "".join(f"{100 * s['win_rate']:>7.1f}%" for s in b["seats"])
        row += f"  {_points(b['fpa']):<23}"
        if players >= 3:
            row += f"  {_points(b['largest_gap']):<28}"
        rd = b["rounds"]
        row += f"  {rd['mean']:.2f} ({rd['low']:.2f}-{rd['high']:.2f})"
        if b["degenerate"]["degenerate"]:
            row += "  degenerate: " + "; ".join(b["degenerate"]["reasons"])
        lines.append(row)
    return lines


def _points(v: Verdict) -> str:
    return f"{v.estimate:+.1f} ({v.low:+.1f} to {v.high:+.1f})"


def text(a: LadderAnalysis) -> list[str]:
    """The whole text output."""
    run = a.run
    searched = any(r.kind == "search" for r in run.rungs)
    head = (
        f"{run.title}: ladder of {run.players} players, seed {run.seed}; {run.games:,} games a "
        f"match{f' ({run.search_games:,} with a search rung)' if searched else ''}, "
        f"rules {run.rules_hash}"
    )
    out = [head]
    if run.no_decisions:
        out.append(
            f"one rung ({run.rungs[0].name}): the game has no decisions, so every player plays "
            "the same game; the skill measure is exactly 0"
        )
    out += ["", "Ratings (Elo points, 0 = the reference; " + MODEL.split(":")[0] + "):"]
    out += ["  " + x for x in rung_table(a)]
    if a.separation:
        out += ["", "Each rung against the rung below it:"]
        out += [f"  {v.sentence()}" for v in a.separation]
    sk = a.skill
    rec = sk["record"]
    bound = (
        " (a lower bound: a rung at an end never won or never lost)" if sk["lower_bound"] else ""
    )
    out += ["", "How much skill decides the game (the Elo spread, Duersch et al. 2020):"]
    if len(run.rungs) == 1:
        out.append("  exactly 0 Elo points: one rung, every player plays the same game")
    else:
        out.append(
            f"  {rec.sentence()}{bound}; the strongest ({sk['strongest']}) scores "
            f"{100 * sk['expected_score']:.1f}% of pairwise results against the weakest "
            f"({sk['weakest']}) ({100 * expected_score(rec.low):.1f} to "
            f"{100 * expected_score(rec.high):.1f})"
        )
    if a.variant is not None:
        v = a.variant
        out.append(
            f"  {v['record'].sentence()} (the spread {v['spread']:+.0f} under the rules, "
            f"{v['variant_spread']:+.0f} under `{v['variant']}`; paired: the same games)"
        )
    out += [
        "",
        "Balance at every level (each rung in every seat, seats fixed; win rates in %, "
        "advantage and gap in points with 95% CI, the gap adjusted over the seat pairs):",
    ]
    out += ["  " + x for x in balance_table(a)]
    if a.classes:
        out += [
            "",
            "Skill classes (Holm over the rungs, the trend and the heterogeneity; degenerate "
            "rungs left out):",
        ]
        out += [f"  {c['sentence']}" for c in a.classes]
    if run.resumed:
        out.append(f"resumed: {len(run.resumed)} of {len(run.matches)} matches from the checkpoint")
    cpu = sum(m.cpu_s for m in run.matches)
    out.append(f"{sum(m.summary.games for m in run.matches):,} games, {cpu:.1f} CPU s")
    return out


# --------------------------------------------------------------------------------- plot
def figure(a: LadderAnalysis):
    """Two panels: the ratings with their 95% intervals (rating order), and each seat's
    self-play win rate against the rung's rating (degenerate rungs hollow)."""
    fig, (left, right) = new_figure((11, 4.2), ncols=2)
    ratings_plot(a, ax=left)
    seats_plot(a, ax=right)
    fig.tight_layout()
    return fig


def ratings_plot(a: LadderAnalysis, ax: Axes) -> Axes:
    """The rungs' ratings (Elo points) with 95% intervals, weakest at the bottom."""
    r = a.ratings
    order = sorted(range(len(r.names)), key=lambda k: (r.rating[k], k))
    y = np.arange(len(order))
    est = r.rating[order]
    lo = np.array([r.low(i) for i in order])
    hi = np.array([r.high(i) for i in order])
    ax.errorbar(
        est,
        y,
        xerr=[est - lo, hi - est],
        fmt="o",
        color="#4C72B0",
        capsize=3,
        label="rating, 95% CI",
    )
    ax.axvline(0, color="grey", ls="--", lw=1, label=f"reference ({r.reference})")
    ax.set_yticks(y)
    ax.set_yticklabels([r.names[i] for i in order], fontsize=8)
    return _labelled(ax, "rating (Elo points)", "rung", "Ratings of the rungs")


def seats_plot(a: LadderAnalysis, ax: Axes) -> Axes:
    """Each seat's win rate (in %) in self-play against the rung's rating, with the fair
    share; the degenerate rungs as hollow points outside the lines (left out as in the skill
    classes)."""
    x = np.array([b["rating"] for b in a.balance])
    bad = np.array([b["degenerate"]["degenerate"] for b in a.balance])
    ok = ~bad
    for s in range(a.run.players):
        y = np.array([b["seats"][s]["win_rate"] for b in a.balance])
        lo = np.array([b["seats"][s]["ci_low"] for b in a.balance])
        hi = np.array([b["seats"][s]["ci_high"] for b in a.balance])
        err = [np.maximum(y - lo, 0), np.maximum(hi - y, 0)]
        line = ax.errorbar(
            x[ok], y[ok], yerr=[e[ok] for e in err], fmt="-o", capsize=3, label=f"seat {s}"
        )
        if bad.any():
            ax.plot(x[bad], y[bad], "o", mfc="white", color=line[0].get_color())
    ax.axhline(1 / a.run.players, color="grey", ls="--", lw=1, label="fair share")
    if bad.any():
        ax.plot([], [], "o", mfc="white", color="grey", label="degenerate rung")
    lo, hi = ax.get_ylim()
    ax.yaxis.set_major_formatter(
        matplotlib.ticker.PercentFormatter(1.0, decimals=0 if hi - lo > 0.15 else 1)
    )
    return _labelled(
        ax,
        "rating of the rung in every seat (Elo points)",
        "outright win rate",
        "Seat win rates against skill",
    )


def write_plot(a: LadderAnalysis, path: Path) -> None:
    figure(a).savefig(path, dpi=110)


def render(a: LadderAnalysis, plot: Path | None, json_out: bool, version: str, echo: Echo):
    """Print the ladder (text or one JSON object) and write the plot when asked."""
    if plot is not None:
        write_plot(a, plot)
    if json_out:
        echo(json.dumps(plain(to_json(a, version)), indent=2, allow_nan=False))
        return
    for line in text(a):
        echo(line)
    if plot is not None:
        echo(f"plot written to {plot}")


def plain(o: object) -> object:
    """JSON-ready data: numpy numbers as Python numbers, NaN and infinities as None."""
    if isinstance(o, dict):
        return {str(k): plain(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [plain(v) for v in o]
    if isinstance(o, np.generic):
        o = o.item()
    if isinstance(o, float) and not np.isfinite(o):
        return None
    return o
