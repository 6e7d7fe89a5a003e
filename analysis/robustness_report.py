"""The robustness analysis on paper: the report's Findings section (the verdicts that hold, those
that depend on players or on components, one sentence each) and the robustness detail
(settings, degenerate play, every verdict per setting, long tables collapsible), as blocks of an
analysis.html.Document; and the files of `balance robustness --out`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

from analysis.html import Document
from analysis.robustness import (
    STATUSES,
    Robustness,
    degenerate_lines,
    seats_text,
    sentence,
)
from analysis.stats import ci_text
from simcore.base.inputs import write_atomic


def findings_section(doc: Document, a: Robustness, note: str = "", closed: bool = False) -> None:
    """The Findings: a short lead, then the verdicts that hold and those that depend on the
    players or the components, one sentence each with size and interval (the variants'
    effects that depend, collapsible: the seat verdicts stay in view); closed: the section
    collapsed under its heading (analysis.html.Document.section)."""
    with doc.section("Findings", closed=closed):
        _findings(doc, a, note)


def _findings(doc: Document, a: Robustness, note: str) -> None:
    from analysis.robustness import findings

    f = findings(a)
    n = len(a.settings)
    lineups = sorted({s["label"] for s in a.settings if s["kind"] == "lineup"})
    readings = sorted({s["name"] for s in a.settings if s["kind"] == "components"})
    doc.text(
        f"Each verdict was measured in {n} settings: {len(lineups)} lineups of players "
        f"({', '.join(lineups)}) and "
        + (
            f"{len(readings)} component readings ({', '.join(f'`{r}`' for r in readings)})"
            if readings
            else "no component reading (the game registers none)"
        )
        + f", on {a.run.games:,} games per setting{_fewer(a)} (seed {a.run.seed}). A verdict "
        "**holds** when it is significant in the same direction in every setting that is not "
        "degenerate; it **depends** on the players or the components when a setting "
        "contradicts it (significantly reversed) or differs significantly from the reference "
        "(an interaction test, adjusted over the settings); it is **inconclusive** when some "
        "setting cannot decide it with its games (never counted as a failure). Sizes are in "
        "points of win rate (or rounds) for the reference setting (the default players on "
        "the rulebook's components), each with the interval its call rests on (adjusted where "
        "several questions are asked of the same games)." + (f" {note}" if note else "")
    )
    groups = (
        ("holds", "Verdicts that hold"),
        ("players", "Verdicts of the default report that depend on the players"),
        ("components", "Verdicts of the default report that depend on the component readings"),
        ("both", "Verdicts of the default report that depend on both"),
        ("inconclusive", "Verdicts of the default report that some settings cannot decide"),
    )
    for key, title in groups:
        seats = [sentence(v, 2) for v in f[key] if "/effect/" not in v["verdict"]]
        effects = [sentence(v, 2) for v in f[key] if "/effect/" in v["verdict"]]
        if not seats and not effects:
            continue
        doc.text(f"**{title}** ({len(seats) + len(effects)}):")
        if seats:
            doc.items(seats)
        if effects and key == "holds":
            doc.items(effects)
        elif effects:
            with doc.details(f"{title}: the variants' effects ({len(effects)})"):
                doc.items(effects)
    if f["others"]:
        doc.text(
            f"{f['others']} further verdicts are not found with the default players on the "
            "rulebook's components; they are in the detail."
        )
    if f["feel"] or f["feel_others"]:
        held = [v for v in f["feel"] if v["status"] == "holds"]
        doc.text(
            f"**How the variants change the feel of the game** (lead changes, drama, "
            f"decisiveness, runaway leader, comeback, winning margin; docs/comparisons.md): "
            f"{len(f['feel'])} effects found with the default players, {len(held)} of them "
            "hold in every setting"
            + (
                f"; {f['feel_others']} more are significant only in other settings"
                if f["feel_others"]
                else ""
            )
            + "."
        )
        if f["feel"]:
            with doc.details(f"The variants' effects on the feel ({len(f['feel'])})"):
                doc.items([sentence(v, 2) for v in f["feel"]])
    if not any(f[k] for k, _ in groups) and not f["others"]:
        doc.text("No verdict is significant in any setting with these games.")
    lines = degenerate_lines(a)
    if lines:
        doc.text(
            f"**Degenerate play** ({len(lines)} settings, left out of every verdict above): "
            + "; ".join(lines)
            + "."
        )


def _fewer(a: Robustness) -> str:
    """' (the search settings: 2,000 and 500)' when some settings played fewer games."""
    few = {s["name"]: s["games"] for s in a.settings if s["games"] != a.run.games}
    if not few:
        return ""
    return " (" + ", ".join(f"{n}: {g:,}" for n, g in few.items()) + ")"


def detail_section(doc: Document, a: Robustness, closed: bool = False) -> None:
    """The detail behind the Findings: how the settings were played, degenerate play per
    setting, and every verdict in every setting (collapsible tables); closed: the section
    collapsed under its heading."""
    with doc.section("Robustness of the verdicts", closed=closed):
        _detail(doc, a)


def _detail(doc: Document, a: Robustness) -> None:
    doc.text(
        "Every setting plays the variants of the report on the same games (common random "
        "numbers); the search settings play the rules alone, on fewer games. A setting is "
        f"degenerate when the most common outcome (final scores and length) makes up "
        f"{a.thresholds.repeated:.0%} or more of its games, when {a.thresholds.limit:.0%} or "
        f"more end by the round or turn limit, or when no seat scores in "
        f"{a.thresholds.no_score:.0%} or more (docs/robustness.md)."
    )
    with doc.details(f"Settings ({len(a.settings)}): games, distinct games, degenerate play"):
        doc.table(settings_frame(a), caption="The settings")
    skipped = [k.line for k in a.run.skipped]
    if skipped:
        doc.text("Skipped (the rules of these pairs cannot be composed):")
        doc.items(skipped)
    feel = feel_frame(a)
    if not feel.empty:
        with doc.details(f"How the game feels in each setting ({len(feel)})"):
            doc.table(
                feel,
                caption="How the game feels in each setting (its first arm): value (95% CI); "
                "rates in %",
            )
    for p in a.run.player_counts:
        sel = [v for v in a.verdicts if v["players"] == p]
        if not sel:
            continue
        with doc.details(f"{seats_text(p)}: every verdict ({len(sel)})"):
            doc.table(verdict_frame(sel), caption=f"Verdicts, {seats_text(p)}")
            doc.table(
                per_setting_frame(a, p), caption=f"Each verdict in each setting, {seats_text(p)}"
            )


def settings_frame(a: Robustness) -> pd.DataFrame:
    rows = []
    for s in a.settings:
        rows.append(
            {
                "players": s["players"],
                "setting": s["label"],
                "games": f"{s['games']:,}",
                "arms": len(s["arms"]),
                "win rate per seat": " / ".join(f"{w:.1%}" for w in s["win_rates"]),
                "distinct games": f"{s['distinct_share']:.1%}",
                "most common game": f"{s['most_common_share']:.1%}",
                "round limit": f"{s['limit_share']:.1%}",
                "no score": f"{s['no_score_share']:.1%}",
                "degenerate": "yes" if s["degenerate"] else "",
            }
        )
    return pd.DataFrame(rows)


def feel_frame(a: Robustness) -> pd.DataFrame:
    """One row per setting with feel metrics: each metric's value and 95% interval (as the
    report's feel table prints them)."""
    from analysis.robustness import EFFECT_METRICS, FEEL

    rows = []
    for s in a.settings:
        if not s.get("feel"):
            continue
        row = {"players": s["players"], "setting": s["label"]}
        for name, m in FEEL.items():
            v = s["feel"].get(name)
            rate = m.kind == "rate"
            cell = "" if v is None else ci_text(v["value"], v["ci_low"], v["ci_high"], rate)
            row[EFFECT_METRICS[name]] = cell
        rows.append(row)
    return pd.DataFrame(rows)


def _cell(r: dict) -> str:
    """A record's estimate and the interval its call rests on (a star: significant)."""
    star = "*" if r.get("significant") else ""
    return f"{r['estimate']:+.2f}{star} ({r['low']:+.2f} to {r['high']:+.2f})"


def verdict_frame(verdicts: list[dict]) -> pd.DataFrame:
    rows = []
    for v in sorted(verdicts, key=lambda v: STATUSES.index(_group(v["status"]))):
        ref = v.get("reference")
        rows.append(
            {
                "verdict": v["claim"],
                "status": v["label"],
                "reference (95% CI)": "" if not ref else _cell(ref),
                "unit": "" if not ref else ref.get("unit", ""),
                "range over settings": ""
                if "range" not in v
                else f"{v['range'][0]:+.2f} to {v['range'][1]:+.2f}",
                "against it / undecided": ", ".join(
                    f"{c['setting']} ({c['state']})"
                    for c in v["calls"]
                    if c["against"] or c["state"] != "agrees"
                ),
            }
        )
    return pd.DataFrame(rows)


def _group(status: str) -> str:
    return status if status in STATUSES else "inconclusive"


def per_setting_frame(a: Robustness, players: int) -> pd.DataFrame:
    """One row per verdict, one column per setting: value and interval (a star: significant)."""
    sets = [s for s in a.settings if s["players"] == players]
    keys = [v["verdict"] for v in a.verdicts if v["players"] == players]
    rows = []
    for k in keys:
        row = {"verdict": k}
        for s in sets:
            r = next((r for r in s["records"] if r["key"] == k), None)
            cell = ""
            if s["degenerate"]:
                cell = "degenerate"
            elif r is not None:
                cell = _cell(r)
            row[s["label"]] = cell
        rows.append(row)
    return pd.DataFrame(rows)


def write_robustness(a: Robustness, folder: Path, version: str) -> dict[str, Path]:
    """robustness.json (with the package's version), robustness.md and robustness.html
    (self-contained) in `folder`."""
    doc = Document(f"Robustness: {a.run.spec.title}")
    findings_section(doc, a)
    detail_section(doc, a)
    folder.mkdir(parents=True, exist_ok=True)
    paths = {k: folder / f"robustness.{k}" for k in ("json", "md", "html")}
    texts = {
        "json": json.dumps(a.to_json() | {"version": version}, indent=1, default=str),
        "md": doc.markdown(folder),
        "html": doc.html(),
    }
    for k, path in paths.items():
        write_atomic(path, lambda tmp, t=texts[k]: Path(tmp).write_text(t), "--out")
    return paths


def report_json(a: Robustness) -> dict[str, Any]:
    """What report.json keeps of the robustness part: the verdicts and the settings."""
    js = a.to_json()
    keys = ("games", "thresholds", "readings", "verdicts", "settings", "skipped")
    return {k: js[k] for k in keys}
