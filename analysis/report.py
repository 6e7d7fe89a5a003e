"""The balance report of one game: a self-contained HTML file and a Markdown file with the same
content (plus report.json with the numbers and the PNG plots the Markdown links).

Sections: seat balance per player count (win rates with intervals, length histogram, score
distributions, end reasons), the variant comparison (common random numbers, paired differences,
Holm), the dice matrix (games with a die rules field: Sunken City), the player ladder (each preset
against two `random` players and head to head, seats rotated), and a provenance block.

Game counts per section, from `games` (K): K per player count for the seat balance, K/3 per
arm for the variant comparison and per die, K/6 per ladder match. With K = 30,000 the default
Sunken City report plays about 400,000 games (a few minutes on 2 cores).
"""

from __future__ import annotations

import itertools
import json
import os
import platform
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from analysis import plots  # noqa: E402
from analysis.compare import fmt_p, records, variant_arm  # noqa: E402
from analysis.html import Document  # noqa: E402
from analysis.summary import result_json, summarize  # noqa: E402

SECTIONS = ("Provenance", "Seat balance", "Variant comparison", "Dice", "Player ladder")


def section_games(games: int) -> dict[str, int]:
    """Games per setting in each section of a report of `games` (K)."""
    return {
        "seats": games,
        "variants": max(games // 3, 2),
        "dice": max(games // 3, 2),
        "ladder": max(games // 6, 2),
    }


def _ci(v: float, lo: float, hi: float, pct: bool = True) -> str:
    if pct:
        return f"{v * 100:.1f}% ({lo * 100:.1f}-{hi * 100:.1f})"
    return f"{v:.2f} ({lo:.2f}-{hi:.2f})"


def _pts(v: float, lo: float, hi: float) -> str:
    return f"{v * 100:+.1f} ({lo * 100:+.1f} to {hi * 100:+.1f})"


# ------------------------------------------------------------------------------ seat balance
def _seat_section(doc: Document, players: int, res, version: str):
    t = summarize(res)
    js = result_json(res, version)
    b = js["balance"]
    length = t["length"].iloc[0]
    doc.heading(f"{players} players", 3)
    if players > 1:
        lo, hi = b["first_player_advantage_ci"]
        glo, ghi = b["largest_gap_ci"]
        doc.text(
            f"Rules hash `{res.rules_hash}`, {res.games:,} games. Seat fairness chi-square "
            f"{fmt_p(js['seat_fairness']['p_value'])}; largest seat gap "
            f"{b['largest_gap'] * 100:.1f} points (95% CI {glo * 100:.1f} to {ghi * 100:.1f}, "
            f"seat {b['largest_gap_seats'][0]} over seat {b['largest_gap_seats'][1]}); "
            f"first-player advantage {b['first_player_advantage'] * 100:+.1f} points "
            f"({lo * 100:+.1f} to {hi * 100:+.1f}); shared wins {js['shared_win_rate']:.1%}. "
            f"Mean length {length.mean_rounds:.2f} rounds (median {length.median_rounds:.0f}, "
            f"5-95% {length.p5_rounds:.0f}-{length.p95_rounds:.0f})."
        )
    else:
        doc.text(f"Rules hash `{res.rules_hash}`, {res.games:,} games (solo).")
    seats = t["seats"].assign(fair=b["fair_share"])
    doc.table(
        pd.DataFrame(
            {
                "seat": seats["seat"],
                "win rate (95% CI)": [
                    _ci(r.win_rate, r.ci_low, r.ci_high) for r in seats.itertuples()
                ],
                "shared first": seats["shared_first"],
                "mean score": seats["mean_score"].map(lambda v: f"{v:.2f}"),
            }
        ),
        caption=f"Seats, {players} players",
    )
    fig, ax = plt.subplots(figsize=(4.6, 3.2))
    plots.seat_win_rates(seats, ax=ax, title=f"Win rate per seat, {players} players")
    doc.figure(fig, f"seats-{players}p.png", f"Seat win rates, {players} players")
    fig, ax = plt.subplots(figsize=(4.6, 3.2))
    plots.length_histogram(t["rounds_hist"], ax=ax, title=f"Game length, {players} players")
    doc.figure(fig, f"length-{players}p.png", f"Game length, {players} players")
    fig, ax = plt.subplots(figsize=(4.6, 3.2))
    plots.score_distributions(t["scores"], ax=ax, title=f"Scores, {players} players")
    doc.figure(fig, f"scores-{players}p.png", f"Final scores per seat, {players} players")
    ends = t["end_reasons"][t["end_reasons"]["games"] > 0]
    fig, ax = plt.subplots(figsize=(4.6, 2.4))
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


def _variant_section(doc: Document, players: int, comp):
    t = comp.table
    doc.heading(f"{players} players", 3)
    doc.items(comp.headlines)
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
                "value (95% CI)": _ci(r.value, r.ci_low, r.ci_high, rate),
                "difference (paired 95% CI)": ""
                if np.isnan(r.diff)
                else (
                    _pts(r.diff, r.diff_low, r.diff_high) + " points"
                    if rate
                    else f"{r.diff:+.2f} ({r.diff_low:+.2f} to {r.diff_high:+.2f})"
                ),
                "Holm p": "" if np.isnan(r.p_holm) else fmt_p(r.p_holm)[4:].strip("= "),
                "Cohen's h": "" if np.isnan(r.cohen_h) else f"{r.cohen_h:+.3f}",
            }
        )
    doc.table(pd.DataFrame(rows), caption=f"Balance metrics per variant, {players} players")
    rates = t[t["metric"].isin(("largest_gap", "fpa", "shared")) & t["diff"].notna()]
    fig, ax = plt.subplots(figsize=(6, 0.3 * len(rates) + 1.4))
    plots.comparison_forest(rates, ax=ax, title=f"Balance vs base, {players} players")
    doc.figure(fig, f"variants-balance-{players}p.png", f"Balance vs base, {players} players")
    lens = t[(t["metric"] == "rounds") & t["diff"].notna()]
    fig, ax = plt.subplots(figsize=(6, 0.3 * len(lens) + 1.4))
    plots.comparison_forest(lens, ax=ax, title=f"Length vs base (rounds), {players} players")
    doc.figure(fig, f"variants-length-{players}p.png", f"Length vs base, {players} players")
    other = t[~t.index.isin(keep.index) & t["diff"].notna()]
    lines = [v for v in other["verdict"] if v]
    if lines:
        doc.text("Counters and turns (each verdict Holm-corrected over the whole table):")
        doc.items(lines)
    return comp.to_json()


# ------------------------------------------------------------------------------ dice
def _dice_section(doc: Document, d: dict):
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
                "chi-square p": fmt_p(r.chi2_p)[4:].strip("= "),
                "largest gap, points (95% CI)": f"{r.largest_gap * 100:.1f} "
                f"({r.gap_low * 100:.1f}-{r.gap_high * 100:.1f})",
                "first-player adv., points": _pts(r.fpa, r.fpa_low, r.fpa_high),
                "rounds": _ci(r.rounds, r.rounds_low, r.rounds_high, False),
                "spirit moves": f"{getattr(r, 'spirit_moves', float('nan')):.2f}",
                "sent home": f"{getattr(r, 'sent_home', float('nan')):.2f}",
                "fairest": "yes" if r.fairest else "",
            }
        )
    doc.table(pd.DataFrame(rows), caption="Every die for every player count (fairest in bold)")
    fig, ax = plt.subplots(figsize=(6.5, 3.6))
    plots.dice_gaps(t, ax=ax)
    doc.figure(fig, "dice.png", "Largest seat gap per die and player count")
    return {"table": records(t), "verdicts": d["verdicts"]}


# ------------------------------------------------------------------------------ ladder
def _clamp_players(spec, p: int) -> int:
    return min(max(p, spec.min_players), spec.max_players)


def _ladder_plans(spec, games: int, seed: int) -> dict[tuple, Any]:
    """The ladder's simulations: each preset against random players, and head to head."""
    from simcore.runner import simulation_plan

    presets = [p for p in spec.policies if p != "random"]
    n3, n2 = _clamp_players(spec, 3), _clamp_players(spec, 2)
    plans = {}
    for p in presets:
        policies = ",".join([p] + ["random"] * (n3 - 1))
        plans[("vs_random", p)] = simulation_plan(
            spec, n3, games, policies=policies, rotate_seats=True, seed=seed
        )
    for a, b in itertools.combinations(presets, 2):
        policies = ",".join([a, b] + ["random"] * (n2 - 2))
        plans[("h2h", a, b)] = simulation_plan(
            spec, n2, games, policies=policies, rotate_seats=True, seed=seed
        )
    return plans


def _ladder_section(doc: Document, spec, games: int, results: dict[tuple, Any]):
    from analysis.stats import wilson

    n3, n2 = _clamp_players(spec, 3), _clamp_players(spec, 2)
    rows = []
    for key, res in results.items():
        if key[0] != "vs_random":
            continue
        s = res.summary
        lo, hi = wilson(s.policy_wins[0], s.games)
        rows.append(
            {
                "policy": key[1],
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
                    _ci(r.win_rate, r.ci_low, r.ci_high) for r in vs_random.itertuples()
                ],
            }
        ),
        caption="Against random players",
    )
    fig, ax = plt.subplots(figsize=(5, 3.2))
    plots.ladder(vs_random, ax=ax, title=f"Each preset against {n3 - 1} random players")
    doc.figure(fig, "ladder-random.png", "Each preset against random players")
    pairs = []
    for key, res in results.items():
        if key[0] != "h2h":
            continue
        a, b = key[1:]
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
                        _ci(r.win_rate, r.ci_low, r.ci_high) for r in h2h.itertuples()
                    ],
                }
            ),
            caption="Head to head",
        )
        fig, ax = plt.subplots(figsize=(5.5, 4.4))
        plots.head_to_head(h2h, ax=ax)
        doc.figure(fig, "ladder-h2h.png", "Head to head win rates")
    return {"vs_random": records(vs_random), "head_to_head": records(h2h)}


# ------------------------------------------------------------------------------ report
def report_plans(spec: Any, games: int, seed: int, policy: str | None) -> dict[tuple, Any]:
    """Every simulation of the report as plans (simcore.runner.Plan), keyed by section:
    ('seats', players), ('variants', players), ('dice',), ('vs_random', preset) and
    ('h2h', preset, preset). They are played together: on a cluster, all at once."""
    from analysis.compare import compare_plan, dice_plan
    from simcore.runner import simulation_plan

    n = section_games(games)
    counts = list(range(spec.min_players, spec.max_players + 1))
    plans: dict[tuple, Any] = {}
    for p in counts:
        plans[("seats", p)] = simulation_plan(spec, p, n["seats"], policies=policy, seed=seed)
    variants = list(spec.report_variants)
    if len(variants) > 1:
        arms = [variant_arm(v) for v in variants]
        for p in counts:
            plans[("variants", p)] = compare_plan(
                spec, p, arms, n["variants"], seed=seed, policies=policy
            )
    if "die" in spec.named_values:
        plans[("dice",)] = dice_plan(spec, counts, n["dice"], seed=seed, policies=policy)
    plans.update(_ladder_plans(spec, n["ladder"], seed))
    return plans


def write_report(
    spec: Any,
    out: Path,
    games: int,
    seed: int,
    policy: str | None,
    *,
    version: str,
    command: str,
    echo: Callable[[str], None] = print,
    backend: str = "local",
    scheduler: str | None = None,
    workers: int | None = None,
    threads: int | None = None,
    progress: bool = False,
) -> dict[str, Path]:
    """Run the report's simulations and write report.html, report.md (+ PNGs) and report.json
    into `out`; returns their paths.

    Every simulation is played first (backend, scheduler, workers, threads, progress as
    simcore.runner.run_jobs: on a cluster, all sections at once), then the files are written
    into a temporary folder and moved into `out`: an interrupted run leaves no report."""
    from simcore.jobs import check_backend, run_plans

    check_backend(backend, scheduler, workers)
    t0 = time.time()
    n = section_games(games)
    counts = list(range(spec.min_players, spec.max_players + 1))
    plans = report_plans(spec, games, seed, policy)
    total = sum(job.total_games for p in plans.values() for job in p.jobs)
    jobs = sum(len(p.jobs) for p in plans.values())
    where = "local"
    if backend == "dask":
        where = (
            f"Dask, scheduler {scheduler}" if scheduler else f"Dask, {workers or 2} local workers"
        )
    echo(f"  playing {total:,} games in {jobs} settings (backend: {where})")
    results = dict(
        zip(
            plans,
            run_plans(
                list(plans.values()),
                backend=backend,
                scheduler=scheduler,
                workers=workers,
                threads=threads,
                progress=progress,
            ),
        )
    )
    body = Document(f"Balance report: {spec.title}")
    data: dict[str, Any] = {}

    body.heading("Seat balance", 2)
    body.text(
        f"The rulebook's game with the default players (`{policy or spec.default_policy}`), "
        f"{n['seats']:,} games per player count. Intervals are 95% (Wilson for rates)."
    )
    data["seats"] = []
    for p in counts:
        data["seats"].append(_seat_section(body, p, results[("seats", p)], version))
        echo(f"  seat balance, {p} players: done")

    variants = list(spec.report_variants)
    if len(variants) > 1:
        body.heading("Variant comparison", 2)
        body.text(
            f"Variants {', '.join(f'`{v}`' for v in variants)} against `{variants[0]}`, every "
            f"variant on the same {n['variants']:,} games per player count (common random "
            "numbers): differences are paired per game, p-values Holm-corrected over each "
            "table, Cohen's h for rates. 'Unchanged' means no difference detectable with these "
            "games; the interval bounds how large it can be."
        )
        data["variants"] = []
        for p in counts:
            data["variants"].append(_variant_section(body, p, results[("variants", p)]))
            echo(f"  variant comparison, {p} players: done")

    if ("dice",) in results:
        body.heading("Dice", 2)
        body.text(
            f"Every die of the box for every player count, {n['dice']:,} games per die on the "
            "same games. The fairest die has the smallest largest seat gap; 'significantly "
            "fairer' compares its gap with the rulebook's die per game (paired, Holm over the "
            "player counts)."
        )
        data["dice"] = _dice_section(body, results[("dice",)])
        echo("  dice: done")

    body.heading("Player ladder", 2)
    ladder = {k: v for k, v in results.items() if k[0] in ("vs_random", "h2h")}
    data["ladder"] = _ladder_section(body, spec, n["ladder"], ladder)
    echo("  player ladder: done")

    wall = time.time() - t0
    import numba

    from simcore.rulesbase import rules_hash

    hashes = {p: rules_hash(spec.resolved(spec.rules_cls(), p)) for p in counts}
    prov = [
        f"package version: {version}",
        f"command: `{command}`",
        f"seed: {seed}",
        "rules hash (rulebook game): " + ", ".join(f"{p} players `{h}`" for p, h in hashes.items()),
        f"games: {n['seats']:,} per player count (seat balance), {n['variants']:,} per "
        f"variant, {n['dice']:,} per die, {n['ladder']:,} per ladder match",
        f"players: `{policy or spec.default_policy}`",
        f"wall time: {wall:.1f} s",
        f"backend: {where}",
        f"machine: {os.cpu_count()} cores, {numba.get_num_threads()} threads, "
        f"{platform.platform()}, Python {platform.python_version()}",
    ]
    doc = Document(body.title)
    doc.heading("Provenance", 2)
    doc.items(prov)
    doc.blocks += body.blocks
    summary = {
        "version": version,
        "command": command,
        "seed": seed,
        "games": n,
        "wall_s": wall,
        "backend": backend,
        "cores": os.cpu_count(),
        "rules_hash": hashes,
        **data,
    }
    return _write_files(out, doc, summary)


def _write_files(out: Path, doc: Document, summary: dict) -> dict[str, Path]:
    """report.md (+ PNGs), report.html and report.json written into a temporary folder next
    to `out`, then moved in (report.json last): never a half-written report."""
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
    return {"html": out / "report.html", "markdown": out / "report.md", "json": out / "report.json"}
