"""The balance report: every player count x the game's main variants, with the default players.
Writes report.md, report.json and PNG plots into one folder, with provenance."""

from __future__ import annotations

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

from analysis.plots import seat_win_rates  # noqa: E402
from analysis.summary import result_json, summarize  # noqa: E402


def _fmt_rate(row) -> str:
    return f"{row.win_rate:.3f} ({row.ci_low:.3f}-{row.ci_high:.3f})"


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
) -> Path:
    """Run the report's simulations and write it; returns the Markdown path."""
    from simcore.runner import simulate

    out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    variants = list(spec.report_variants)
    sections = []
    data = []
    for players in range(spec.min_players, spec.max_players + 1):
        for var in variants:
            res = simulate(
                spec, players, games, variants=[var], policies=policy, seed=seed, version=version
            )
            t = summarize(res)
            js = result_json(res, version)
            data.append(js)
            # the fair outright-win share: what is not shared, split evenly
            seats = t["seats"].assign(fair=js["balance"]["fair_share"])
            fig, ax = plt.subplots(figsize=(5, 3.2))
            seat_win_rates(seats, ax=ax, title=f"{players} players, {var}")
            png = f"seats-{players}p-{var.replace('+', '_')}.png"
            fig.tight_layout()
            fig.savefig(out / png, dpi=90)
            plt.close(fig)
            length = t["length"].iloc[0]
            lines = [
                f"### {players} players, variant `{var}`",
                "",
                f"Rules hash `{res.rules_hash}`; seat fairness chi-square p = "
                f"{js['seat_fairness']['p_value']:.3g}; shared wins "
                f"{js['shared_win_rate']:.3f}; mean length {length.mean_rounds:.2f} rounds "
                f"(median {length.median_rounds:.0f}, 5-95% {length.p5_rounds:.0f}-"
                f"{length.p95_rounds:.0f}).",
                "",
                "| seat | win rate (95% CI) | mean score |",
                "|---|---|---|",
            ]
            for row in seats.itertuples():
                lines.append(f"| {row.seat} | {_fmt_rate(row)} | {row.mean_score:.2f} |")
            ends = ", ".join(f"{k} {v / games:.3f}" for k, v in js["end_reasons"].items() if v)
            lines += ["", f"End reasons: {ends}.", "", f"![seat win rates]({png})", ""]
            sections.append("\n".join(lines))
            echo(f"  {players} players, {var}: done ({res.games_per_s:,.0f} games/s)")
    wall = time.time() - t0
    head = [
        f"# Balance report: {spec.title}",
        "",
        "## Provenance",
        "",
        f"- package version: {version}",
        f"- command: `{command}`",
        f"- seed: {seed}; games per setting: {games:,}",
        f"- players: {policy or spec.default_policy}",
        f"- wall time: {wall:.1f} s on {os.cpu_count()} cores ({platform.platform()})",
        "- rules hash per setting: in each section",
        "",
        "## Results",
        "",
    ]
    md = out / "report.md"
    md.write_text("\n".join(head) + "\n" + "\n".join(sections))
    (out / "report.json").write_text(
        json.dumps(
            {
                "version": version,
                "command": command,
                "seed": seed,
                "games": games,
                "wall_s": wall,
                "settings": data,
            },
            indent=1,
        )
    )
    return md
