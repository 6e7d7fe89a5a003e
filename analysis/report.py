"""The balance report of one game: a self-contained HTML file and a Markdown file with the same
content (plus report.json with the numbers and the PNG plots the Markdown links), written from
the simulations simcore.studies.report.play_report played.

It opens with the answer (analysis.answer: fair or not per player count for beginners and for
strong players, the first player's advantage, the die, each variant's effect, the fix, one
plot); then every other section as a closed part under its heading: the Findings (the
verdicts that hold over the robustness grid and those that depend on the players or the
component readings, analysis.robustness), the provenance, seat balance per player count (win
rates with intervals, length histogram, score distributions, end reasons), the variant
comparison (common random numbers, paired differences, adjusted), how the game feels, the dice
matrix (games with a die rules field), the player ladder (each preset against two `random`
players and head to head, seats rotated), and the robustness detail (collapsible tables).
docs/comparisons.md describes each part; docs/performance.md ("The report") gives the games
`make report` plays and the time they take.
"""

from __future__ import annotations

import json
import os
import platform
import time
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis import plots
from analysis.answer import answer_section
from analysis.compare import Comparison, DiceTables, arm_values, comparison, dice_tables
from analysis.html import Document
from analysis.robustness import robustness
from analysis.robustness_report import detail_section, findings_section, report_json
from analysis.stats import ci_text, fmt_p, p_text, wilson
from analysis.summary import records, result_json, summarize
from simcore.base.errors import InputError
from simcore.base.metrics import FEEL_METRICS
from simcore.base.results import ArmRun, ReportRuns, RunResult
from simcore.base.verdicts import seat_verdicts


def _pts(v: float, lo: float, hi: float) -> str:
    return f"{v * 100:+.1f} ({lo * 100:+.1f} to {hi * 100:+.1f})"


# ------------------------------------------------------------------------------ seat balance
def _seat_section(doc: Document, players: int, res: RunResult, version: str) -> dict[str, Any]:
    t = summarize(res)
    js = result_json(res, version)
    b = js["balance"]
    length = t["length"].iloc[0]
    doc.heading(f"{players} players", 3)
    verdicts = seat_verdicts(players, res.summary.seat_wins, res.games)
    if players > 1:
        doc.text(
            f"Rules hash `{res.rules_hash}`, {res.games:,} games. Seat fairness chi-square "
            f"{fmt_p(js['seat_fairness']['p_value'])}; shared wins "
            f"{100 * js['shared_win_rate']:.1f}%, so a seat's fair share of the outright wins "
            f"is {100 * b['fair_share']:.1f}% (1/{players} of the games won outright: the "
            f"dashed line of the plot). Mean length {length.mean_rounds:.2f} rounds "
            f"(median {length.median_rounds:.0f}, 5-95% {length.p5_rounds:.0f}-"
            f"{length.p95_rounds:.0f})."
        )
        doc.items([v.sentence() for v in verdicts])
    else:
        doc.text(f"Rules hash `{res.rules_hash}`, {res.games:,} games (solo).")
    js["verdicts"] = [v.as_json() for v in verdicts]
    seats = t["seats"].assign(fair=b["fair_share"])
    doc.table(
        pd.DataFrame(
            {
                "seat": seats["seat"],
                "win rate (95% CI)": [
                    ci_text(r.win_rate, r.ci_low, r.ci_high) for r in seats.itertuples()
                ],
                "shared first": seats["shared_first"],
                "mean score": seats["mean_score"].map(lambda v: f"{v:.2f}"),
            }
        ),
        caption=f"Seats, {players} players",
    )
    fig, ax = plots.new_figure((4.6, 3.2))
    plots.seat_win_rates(seats, ax=ax, title=f"Win rate per seat, {players} players")
    doc.figure(fig, f"seats-{players}p.png", f"Seat win rates, {players} players")
    fig, ax = plots.new_figure((4.6, 3.2))
    plots.length_histogram(t["rounds_hist"], ax=ax, title=f"Game length, {players} players")
    doc.figure(fig, f"length-{players}p.png", f"Game length, {players} players")
    fig, ax = plots.new_figure((4.6, 3.2))
    plots.score_distributions(t["scores"], ax=ax, title=f"Scores, {players} players")
    doc.figure(fig, f"scores-{players}p.png", f"Final scores per seat, {players} players")
    ends = t["end_reasons"][t["end_reasons"]["games"] > 0]
    fig, ax = plots.new_figure((4.6, 2.4))
    plots.end_reasons(ends, ax=ax, title=f"How games end, {players} players")
    doc.figure(fig, f"ends-{players}p.png", f"End reasons, {players} players")
    doc.table(
        pd.DataFrame(
            {
                "end reason": ends["end_reason"],
                "games": ends["games"],
                "share": ends["share"].map(lambda v: f"{v:.1%}"),
            }
        ),
        caption=f"End reasons, {players} players",
    )
    return js


# ------------------------------------------------------------------------------ variants
KEY_METRICS = ("largest_gap", "fpa", "shared", "rounds")


def _variant_section(
    doc: Document, players: int, comp: Comparison, readings: Collection[str] = ()
) -> dict[str, Any]:
    """One player count's variant comparison: the headlines, the balance metrics per variant
    (collapsible), the forest plots of balance and length, the other verdicts. readings: the
    game's component readings (said when the players ignore one's change)."""
    run, t = comp.run, comp.table
    doc.heading(f"{players} players", 3)
    doc.items(comp.headlines)
    only = t.attrs.get("scoring_only", [])
    if only:
        changed = [a for a in only if any(part in readings for part in a.split("+"))]
        doc.text(
            "Under "
            + ", ".join(f"`{a}`" for a in only)
            + " the players' games are unchanged: the players make the same decisions in every "
            "game (length, turns and every counter identical game for game), so only who wins, "
            "the scores and the margin change; the scores and the margin are in the variant's "
            "own scale."
            + "".join(f" `{a}` changes the components, which the players ignore." for a in changed)
        )
    # a scoring-only variant: only what can change (who wins, the scores, the margin)
    same = t["scoring_only"] & (t["se"] <= 0) & (t["diff"] == 0)
    t = t[~same]
    keep = t[
        t["metric"].isin(KEY_METRICS)
        | t["metric"].str.startswith("win_")
        | t["metric"].str.startswith("score_")
    ]
    rows = []
    for r in keep.itertuples():
        rate = r.kind == "rate"
        rows.append(
            {
                "metric": r.label,
                "arm": r.arm,
                "value (95% CI)": ci_text(r.value, r.ci_low, r.ci_high, rate),
                "difference (paired 95% CI, adjusted)": ""
                if np.isnan(r.diff)
                else (
                    _pts(r.diff, r.adj_low, r.adj_high) + " points"
                    if rate
                    else f"{r.diff:+.2f} ({r.adj_low:+.2f} to {r.adj_high:+.2f})"
                ),
                "adjusted p": "" if np.isnan(r.p_adjusted) else p_text(r.p_adjusted),
                "Cohen's h": "" if np.isnan(r.cohen_h) else f"{r.cohen_h:+.3f}",
            }
        )
    with doc.details(f"Balance metrics per variant, {players} players (table, {len(rows)} rows)"):
        doc.table(pd.DataFrame(rows), caption=f"Balance metrics per variant, {players} players")
    rates = t[t["metric"].isin(("largest_gap", "fpa", "shared")) & t["diff"].notna()]
    fig, ax = plots.new_figure((6, 0.3 * len(rates) + 1.4))
    plots.comparison_forest(rates, ax=ax, title=f"Balance vs base, {players} players")
    doc.figure(fig, f"variants-balance-{players}p.png", f"Balance vs base, {players} players")
    lens = t[(t["metric"] == "rounds") & t["diff"].notna()]
    fig, ax = plots.new_figure((6, 0.3 * len(lens) + 1.4))
    plots.comparison_forest(lens, ax=ax, title=f"Length vs base (rounds), {players} players")
    doc.figure(fig, f"variants-length-{players}p.png", f"Length vs base, {players} players")
    other = t[~t.index.isin(keep.index) & t["diff"].notna()]
    lines = [
        r.verdict for r in other.itertuples() if r.verdict and not _trivial(run, r.metric, r.arm)
    ]
    if lines:
        with doc.details(f"Counters and turns, {players} players ({len(lines)} verdicts)"):
            doc.text(
                "Each verdict adjusted over the whole table (Bonferroni: the interval printed is "
                "the one the call rests on); a counter that a variant "
                "fixes by definition (the same value in every game of the variant) is left out."
            )
            doc.items(lines)
    return comp.to_json()


def _trivial(run: ArmRun, metric: str, arm: str) -> bool:
    """A variant's effect on a counter that the variant fixes by definition: the counter takes
    one value in every game of the variant's arm (no-chips: no chips gained) while it varies
    in the baseline. Left out of the prose (it stays in report.json)."""
    j = run.index.get(metric)
    if j is None:
        return False
    a = [a.label for a in run.arms].index(arm)
    return bool(run.moments.cov(a)[j, j] <= 1e-12 < run.moments.cov(0)[j, j])


# ------------------------------------------------------------------------------ feel
def _feel_frame(runs: ReportRuns) -> pd.DataFrame | None:
    """How the game feels (docs/comparisons.md): the feel metrics per player count and
    variant with their intervals, from the variant comparison's games (every variant on the
    same games) or, for a game without variants, the seat balance's; None when no player
    count has them (a solo game)."""
    from analysis.summary import feel_table

    defs = {m.name: m for m in FEEL_METRICS}
    frames = []
    for p in runs.player_counts:
        run = runs.variant_runs.get(p)
        if run is not None:
            t = arm_values(run)
            t = t[t["metric"].isin(list(defs))]
        else:
            t = feel_table(runs.seats[p].summary).assign(arm="base")
        frames.append(t.assign(players=p))
    df = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    if df.empty:
        return None
    df["label"] = [defs[m].label for m in df["metric"]]
    df["kind"] = [defs[m].kind for m in df["metric"]]
    return df[df["n"] > 0]  # a metric that rests on no game (no outright winner) has no value


def _feel_section(doc: Document, df: pd.DataFrame) -> list[dict]:
    """The feel section of _feel_frame's metrics: what each means, the table, the plot."""
    doc.text(
        "Lead changes per game; drama (how far behind the eventual winner stood, on average "
        "over the turns it trailed: 0 at the leader's standing, 1 at the last player's); "
        "decisiveness (the share of the turns played before the winner led for good); "
        "runaway leader (the unique leader at half-time wins) and comeback (the unique last "
        "at half-time wins); the winning margin in final score points. Drama, decisiveness "
        "and margin rest on the games with an outright winner, runaway and comeback on the "
        "games with a unique leader (last) at half-time (their number: `n` in report.json). "
        "What they rest on, beside them: the share of games with a unique leader at "
        "half-time, and the tied opening (the mean share of a game's turns played before "
        "anyone leads alone). A long tied opening makes the half-time leader rare and the "
        "winner lead for good late whoever plays well, so a variant's effect on the metrics "
        "above that comes with a longer or shorter tied opening says so. "
        "Each standing is defined in the game's rules document, each metric in "
        "docs/comparisons.md. 95% intervals "
        "(Wilson for the two rates); the variants' paired differences are among the variant "
        "comparison's verdicts. A metric that rests on no game (drama when no game had an "
        "outright winner) is left out."
    )
    wide = []
    for (p, arm), grp in df.groupby(["players", "arm"], sort=False):
        row = {"players": p, "variant": arm}
        for r in grp.itertuples():
            row[r.label.split(" (")[0]] = ci_text(r.value, r.ci_low, r.ci_high, r.kind == "rate")
        wide.append(row)
    doc.table(
        pd.DataFrame(wide).fillna(""),
        caption="How the game feels, per player count and variant: value (95% CI)",
    )
    doc.figure(plots.feel_figure(df), "feel.png", "How the game feels (95% intervals)")
    return records(df)


# ------------------------------------------------------------------------------ dice
def _dice_section(doc: Document, d: DiceTables, games: int) -> dict[str, Any]:
    """Every die for every player count (games per die): the verdicts, the table
    (collapsible), the plot."""
    doc.text(
        f"Every die of the box for every player count, {games:,} games per die on the "
        "same games. The die with the smallest largest seat gap is called the fairest only "
        "when its gap is significantly smaller than every other die's, the rulebook's "
        "included: each die's gap minus the smallest is compared per game (paired), "
        "adjusted over every die and player count (Bonferroni). Otherwise the verdict says "
        "that no die is clearly fairer and gives the margin to the runner-up."
    )
    t = d["table"]
    doc.items(d["verdicts"])
    rows = []
    for r in t.itertuples():
        rows.append(
            {
                "players": r.players,
                "die": f"**{r.die}**" if r.fairest else r.die,
                "faces": r.faces,
                "rulebook": "yes" if r.rulebook else "",
                "chi-square p": p_text(r.chi2_p),
                "largest gap, points (95% CI)": f"{r.largest_gap * 100:.1f} "
                f"({r.gap_low * 100:.1f} to {r.gap_high * 100:.1f})",
                "gap minus the fairest's, points (95% CI, adjusted)": ""
                if r.fairest
                else _pts(r.gap_excess, r.gap_excess_adj_low, r.gap_excess_adj_high),
                "adjusted p": "" if r.fairest else p_text(r.gap_excess_p_adjusted),
                "first-player adv., points": _pts(r.fpa, r.fpa_low, r.fpa_high),
                "rounds": ci_text(r.rounds, r.rounds_low, r.rounds_high, False),
                **{c.replace("_", " "): f"{getattr(r, c):.2f}" for c in d["counters"]},
                "clearly fairest": "yes" if r.clearly_fairest else "",
            }
        )
    with doc.details(f"Every die for every player count (table, {len(rows)} rows)"):
        doc.table(
            pd.DataFrame(rows),
            caption="Every die for every player count (the smallest gap in bold; 'clearly "
            "fairest' when its gap is significantly smaller than every other die's)",
        )
    fig, ax = plots.new_figure((6.5, 3.6))
    plots.dice_gaps(t, ax=ax)
    doc.figure(fig, "dice.png", "Largest seat gap per die and player count")
    table = records(t.drop(columns=["verdicts", "gap_excess_verdict"]))
    return {
        "table": table,
        "records": [v.as_json() for v in d["records"]],
        # each die's seat verdicts (the largest gap, its first-player advantage): the gap
        # record the dice line quotes
        "seat_records": [
            {"players": int(r["players"]), "die": r["die"], "verdicts": r["verdicts"]}
            for r in t.to_dict("records")
        ],
        "verdicts": d["verdicts"],
    }


# ------------------------------------------------------------------------------ ladder
def _ladder_section(doc: Document, runs: ReportRuns) -> dict[str, list[dict]]:
    """Each preset against `random` players (table, plot), and head to head (table, plot)."""
    n3, n2 = runs.ladder_players
    games = runs.games["ladder"]
    ladder = runs.ladder
    if not ladder.vs_random and not ladder.head_to_head:
        doc.text(
            "No player ladder: the game has no `random` player to measure the others against "
            + (f"({runs.spec.no_search})." if runs.spec.no_search else "(see `balance games`).")
        )
        return {"vs_random": [], "head_to_head": []}
    rows = []
    for policy, res in ladder.vs_random.items():
        s = res.summary
        lo, hi = wilson(s.policy_wins[0], s.games)
        rows.append(
            {
                "policy": policy,
                "games": s.games,
                "win_rate": s.policy_wins[0] / s.games,
                "ci_low": float(lo),
                "ci_high": float(hi),
                "fair": 1 / n3,
            }
        )
    vs_random = pd.DataFrame(rows)
    doc.text(
        f"Each preset against {n3 - 1} `random` players ({n3}-player game, seats rotated, "
        f"{games:,} games each); a fair share is {1 / n3:.1%}."
    )
    doc.table(
        pd.DataFrame(
            {
                "player": vs_random["policy"],
                "win rate (95% CI)": [
                    ci_text(r.win_rate, r.ci_low, r.ci_high) for r in vs_random.itertuples()
                ],
            }
        ),
        caption="Against random players",
    )
    fig, ax = plots.new_figure((5, 3.2))
    plots.ladder(vs_random, ax=ax, title=f"Each preset against {n3 - 1} random players")
    doc.figure(fig, "ladder-random.png", "Each preset against random players")
    pairs = []
    for (a, b), res in ladder.head_to_head.items():
        s = res.summary
        for i, (row, col) in enumerate(((a, b), (b, a))):
            lo, hi = wilson(s.policy_wins[i], s.games)
            pairs.append(
                {
                    "row": row,
                    "col": col,
                    "games": s.games,
                    "win_rate": s.policy_wins[i] / s.games,
                    "ci_low": float(lo),
                    "ci_high": float(hi),
                }
            )
    h2h = pd.DataFrame(pairs)
    if len(h2h):
        fill = f" (the other {n2 - 2} seats random)" if n2 > 2 else ""
        doc.text(
            f"Head to head: {n2}-player games{fill}, seats rotated, {games:,} games per pair; "
            "each cell is the row player's win rate against the column player."
        )
        doc.table(
            pd.DataFrame(
                {
                    "player": h2h["row"],
                    "against": h2h["col"],
                    "win rate (95% CI)": [
                        ci_text(r.win_rate, r.ci_low, r.ci_high) for r in h2h.itertuples()
                    ],
                }
            ),
            caption="Head to head",
        )
        fig, ax = plots.new_figure((5.5, 4.4))
        plots.head_to_head(h2h, ax=ax)
        doc.figure(fig, "ladder-h2h.png", "Head to head win rates")
    return {"vs_random": records(vs_random), "head_to_head": records(h2h)}


# ------------------------------------------------------------------------------ report
def write_report(
    runs: ReportRuns,
    out: Path,
    *,
    version: str,
    command: str,
    echo: Callable[[str], None] = print,
) -> dict[str, Path]:
    """Write report.html, report.md (+ PNGs) and report.json into `out` from the played
    simulations (simcore.studies.report.play_report); returns their paths. The report
    is written in reading order: the answer, then every other section closed under its
    heading (the Findings, the provenance, the detail). The files are written into a
    temporary folder and moved into `out`: never a half-written report."""
    dice = dice_tables(runs.dice) if runs.dice is not None else None
    comparisons = {p: comparison(run) for p, run in runs.variant_runs.items()}
    rob = robustness(runs.robustness)
    doc = Document(f"Balance report: {runs.spec.title}")
    answer = answer_section(doc, runs, dice, comparisons)
    echo("  the answer: done")
    findings_section(doc, rob, FINDINGS_NOTE, closed=True)
    wall = time.time() - runs.started
    with doc.section("Provenance", closed=True):
        doc.items(_provenance(runs, version, command, wall))
        skipped = [k.line for k in runs.all_skipped]
        if skipped:
            doc.text("Skipped (the rules of these pairs cannot be composed):")
            doc.items(skipped)
    data = _detail_parts(doc, runs, version, dice, comparisons, echo)
    detail_section(doc, rob, closed=True)
    echo("  robustness: done")
    summary = {
        "version": version,
        "command": command,
        "seed": runs.seed,
        "games": runs.games,
        "wall_s": wall,
        "backend": runs.backend,
        "cores": os.cpu_count(),
        "rules_hash": runs.rules_hashes,
        **_choice_json(runs),
        **data,
        "robustness": report_json(rob),
        "answer": answer,
    }
    return _write_files(out, doc, summary)


FINDINGS_NOTE = (
    "The report plays a cheap grid (a twentieth of --games per setting, no `search` settings; "
    "the reference setting is the variant comparison, with its games); "
    "`balance robustness GAME` plays the whole grid with more games (docs/robustness.md), and "
    "a verdict that holds here may still fail with `search` players. The detail is in the last "
    "section, 'Robustness of the verdicts'."
)


def _detail_parts(
    doc: Document,
    runs: ReportRuns,
    version: str,
    dice: DiceTables | None,
    comparisons: dict[int, Comparison],
    echo: Callable[[str], None],
) -> dict[str, Any]:
    """The sections between the provenance and the robustness detail, each closed under its
    heading: the seat balance, the variant comparison, how the game feels, the dice, the
    player ladder. Returns their report.json keys."""
    data: dict[str, Any] = {}
    with doc.section("Seat balance", closed=True):
        data["seats"] = _seats_part(doc, runs, version, echo)
    if len(runs.variants) > 1:
        with doc.section("Variant comparison", closed=True):
            data["variants"] = _variants_part(doc, runs, comparisons, echo)
    feel = _feel_frame(runs)
    data["feel"] = []
    if feel is not None:
        with doc.section("How the game feels", closed=True):
            data["feel"] = _feel_section(doc, feel)
    if dice is not None:
        with doc.section("Dice", closed=True):
            data["dice"] = _dice_section(doc, dice, runs.games["dice"])
            if runs.dice_strong:  # the die per level: the strong players' verdicts
                strong = dice_tables(runs.dice_strong)
                doc.text(
                    f"With the strong players (`{runs.strong_lineup}` in every seat, the same "
                    f"{runs.games['dice']:,} games per die):"
                )
                doc.items(strong["verdicts"])
                data["dice"]["strong"] = {
                    "lineup": runs.strong_lineup,
                    "records": [v.as_json() for v in strong["records"]],
                    "seat_records": [
                        {"players": int(r["players"]), "die": r["die"], "verdicts": r["verdicts"]}
                        for r in strong["table"].to_dict("records")
                    ],
                    "verdicts": strong["verdicts"],
                }
        echo("  dice: done")
    with doc.section("Player ladder", closed=True):
        data["ladder"] = _ladder_section(doc, runs)
    echo("  player ladder: done")
    return data


def _variants_part(
    doc: Document,
    runs: ReportRuns,
    comparisons: dict[int, Comparison],
    echo: Callable[[str], None],
) -> list[dict[str, Any]]:
    """The variant comparison: what it compares and how, then one part per player count."""
    variants = runs.variants
    doc.text(
        f"Variants {', '.join(f'`{v}`' for v in variants)} against `{variants[0]}`, every "
        f"variant on the same {runs.games['variants']:,} games per player count (common random "
        "numbers): differences are paired per game, each interval and p adjusted over its "
        "table's tests (Bonferroni, so that a change is called exactly when the interval "
        "printed excludes 0), Cohen's h for rates. 'No change detected' means no difference "
        "detectable with these games; the interval bounds how large it can be. A variant "
        "under which the players' games are unchanged (only the scores differ) is said so."
    )
    out = []
    for p in runs.player_counts:
        if p in comparisons:
            readings = runs.spec.readings(runs.choice.rules_file)
            out.append(_variant_section(doc, p, comparisons[p], readings))
        echo(f"  variant comparison, {p} players: done")
    return out


def _seats_part(
    doc: Document, runs: ReportRuns, version: str, echo: Callable[[str], None]
) -> list[dict[str, Any]]:
    """The seat balance section: one part per player count."""
    lineup = runs.policy or runs.spec.default_policy
    doc.text(
        f"The rulebook's game with the default players (`{lineup}`), "
        f"{runs.games['seats']:,} games per player count. Intervals are 95% (Wilson for rates; "
        "the largest seat gap's holds for the data-picked best and worst seats: simultaneous "
        "over every pair of seats). A shared first place counts as no seat's win: the column "
        "'shared first' counts the games in which the seat tied for first place with another "
        "seat (same score and tie-break), which are in no seat's win rate. p-values below 0.001 "
        "are shown as < 0.001."
    )
    out = []
    for p in runs.player_counts:
        out.append(_seat_section(doc, p, runs.seats[p], version))
        echo(f"  seat balance, {p} players: done")
    return out


def _choice_json(runs: ReportRuns) -> dict[str, Any]:
    """report.json's keys of the report's choices ('choice': player counts, the variants
    compared, the --set fields, the rules file, the lineup) and the skipped (setting, variant)
    pairs with the reason ('skipped')."""
    choice = runs.choice
    return {
        "choice": {
            "players": choice.counts,
            "variants": list(choice.variants),
            "overrides": choice.overrides,
            "rules_file": choice.rules_file,
            "policy": choice.policy,
        },
        "skipped": [k.to_json() for k in runs.all_skipped],
    }


def _provenance(runs: ReportRuns, version: str, command: str, wall: float) -> list[str]:
    n = runs.games
    hashes = runs.rules_hashes
    return [
        f"package version: {version}",
        f"command: `{command}`",
        f"seed: {runs.seed}",
        "rules hash (rulebook game): " + ", ".join(f"{p} players `{h}`" for p, h in hashes.items()),
        f"games: {n['seats']:,} per player count (seat balance), {n['variants']:,} per "
        f"variant, {n['dice']:,} per die, {n['ladder']:,} per ladder match",
        f"players: `{runs.policy or runs.spec.default_policy}`",
        f"wall time: {wall:.1f} s",
        f"backend: {runs.where}",
        f"machine: {os.cpu_count()} cores, {runs.threads} threads, "
        f"{platform.platform()}, Python {platform.python_version()}",
    ]


def _write_files(out: Path, doc: Document, summary: dict) -> dict[str, Path]:
    """report.md (+ PNGs), report.html and report.json written into a temporary folder next
    to `out`, then moved in (report.json last): never a half-written report."""
    try:
        _move_in(out, doc, summary)
    except OSError as e:  # a full disk, a folder gone: one line, no half-written report
        raise InputError(f"--out '{out}': the report could not be written ({e.strerror})") from None
    return {"html": out / "report.html", "markdown": out / "report.md", "json": out / "report.json"}


def _move_in(out: Path, doc: Document, summary: dict) -> None:
    """The files written into a temporary folder beside `out`, then moved in."""
    import shutil
    import tempfile

    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}."))
    try:
        (tmp / "report.md").write_text(doc.markdown(tmp))
        (tmp / "report.html").write_text(doc.html())
        (tmp / "report.json").write_text(json.dumps(summary, indent=1, default=str))
        out.mkdir(exist_ok=True)
        names = sorted(f.name for f in tmp.iterdir() if f.name != "report.json")
        for name in [*names, "report.json"]:
            os.replace(tmp / name, out / name)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
