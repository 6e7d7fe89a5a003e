"""Seat compensation said (issue #38; docs/compensation.md): what
simcore.studies.compensate played and chose, as verdict records and sentences a designer can
print. The judgment (fair, unfair or undecided within the tolerance) and the choice of the
recommendation are simcore.base.fairness's; the run holds its recommendation, said here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from simcore.base.fairness import (
    FAIR,
    UNDECIDED,
    UNFAIR,
    SeatWins,
    fair_status,
    pair_records,
    undecided_pairs,
)
from simcore.base.results import Candidate, CompensateRun, Played
from simcore.base.verdicts import interval_words


def status_words(p: SeatWins, tolerance: float) -> str:
    """The confirmation's verdict in words, from its records."""
    st = fair_status(p, tolerance)
    if st == FAIR:
        return f"fair: every pair of seats within +-{tolerance:g} points (95% CI, adjusted)"
    if st == UNFAIR:
        worst = max(pair_records(p), key=lambda v: v.low)
        return f"not fair: {worst.words}: {worst.interval_text()}"
    pairs = undecided_pairs(p, tolerance)
    return (
        f"undecided with {p.games:,} games: {', '.join(pairs)} cannot be told within "
        f"+-{tolerance:g} points"
    )


def compensation_words(run: CompensateRun, cand: Candidate, spec_words: dict[str, str]) -> str:
    """The compensation as a rulebook would print it: 'seat 1 adds 5 to the value of its
    treasures at the end and seat 2 adds 2 ...'; 'no compensation' for the rulebook."""
    rule = [spec_words.get(k, f"{k} = {v}") for k, v in cand.rule]
    if not cand.field and not rule:
        return "no compensation (the rulebook as it is)"
    words = spec_words.get(cand.field, f"gets {{n}} ({cand.field})")
    template, _, note = words.partition("|")  # 'per seat|said once after the seats'
    parts = [
        f"seat {s} " + template.format(n=a, s="" if a == 1 else "s")
        for s, a in enumerate(cand.amounts)
        if a
    ]
    said = " and ".join(parts) + (f" ({note})" if parts and note else "")
    return "; ".join(rule + ([said] if parts else []))


def rates(p: SeatWins) -> list[float]:
    return [100.0 * w / p.games for w in p.seat_wins]


def _rates_text(p: SeatWins) -> str:
    return " / ".join(f"{r:.1f}%" for r in rates(p))


def _sentence(
    run: CompensateRun,
    said: str,
    rec: Played,
    base: Played,
    level: str,
) -> str:
    """A recommendation in one sentence: confirmed fair, or the closest and why not."""
    head = f"with {run.players} players, {said}"
    if fair_status(rec, run.tolerance) == FAIR:
        return (
            f"{head}: confirmed fair on {rec.games:,} fresh games with {level} in every "
            f"seat (seat win rates {_rates_text(rec)}; without it {_rates_text(base)})"
        )
    return (
        f"{head} comes closest, but is not confirmed fair on {rec.games:,} fresh games "
        f"with {level} in every seat ({status_words(rec, run.tolerance)}; seat win "
        f"rates {_rates_text(rec)}; without it {_rates_text(base)})"
    )


def _confirmed_json(
    run: CompensateRun, confirmed: list[Played], spec_words: dict[str, str]
) -> list[dict]:
    return [
        {
            "compensation": p.candidate.label,
            "words": compensation_words(run, p.candidate, spec_words),
            "games": p.games,
            "seat_rates": rates(p),
            "gap": p.gap,
            "status": fair_status(p, run.tolerance),
            "status_words": status_words(p, run.tolerance),
            "pairs": [v.as_json() for v in pair_records(p)],
        }
        for p in confirmed
    ]


def _screened_json(screened: list[Played]) -> list[dict]:
    """The screened candidates by their predicted gap (the calibrated rulebook plus the
    candidate's effect on the screening games), with their own rates on those games."""
    return [
        {
            "compensation": p.candidate.label,
            "seat_rates": rates(p),
            "gap": p.gap,
            "predicted_rates": [100.0 * x for x in p.predicted],
            "predicted_gap": p.predicted_gap,
            "games": p.games,
        }
        for p in sorted(screened, key=lambda p: (p.predicted_gap, p.candidate.total))
    ]


def _calibration_json(c: Played | None) -> dict[str, Any] | None:
    return None if c is None else {"games": c.games, "seat_rates": rates(c), "seed": c.seed}


def _level_json(name: str, b: Played, a: Played, tolerance: float) -> dict[str, Any]:
    return {
        "level": name,
        "games": a.games,
        "without": {"seat_rates": rates(b), "gap": b.gap, "status": fair_status(b, tolerance)},
        "with": {
            "seat_rates": rates(a),
            "gap": a.gap,
            "status": fair_status(a, tolerance),
            "status_words": status_words(a, tolerance),
            "pairs": [v.as_json() for v in pair_records(a)],
        },
    }


def per_level(run: CompensateRun, spec_words: dict[str, str]) -> list[dict[str, Any]]:
    """The compensation for each level checked: the recommendation where it is fair or
    undecided (source 'recommendation'); the rulebook where the recommendation is not fair
    and the rulebook is not shown unfair ('rulebook'); the level's own search where it ran
    ('search', with its candidates; found False when its closest finalist does not narrow
    the rulebook's gap on the fresh games); else the recommendation, not fair there ('none
    found': no search ran)."""
    searches = {ls.level: ls for ls in run.level_searches}
    rec = run.recommendation
    out = []
    for name, b, a in run.levels:
        row: dict[str, Any] = {"level": name, "games": a.games}
        if name in searches:
            ls = searches[name]
            own, own_base = ls.recommendation, ls.confirmed[0]
            said = compensation_words(run, own.candidate, spec_words)
            status = fair_status(own, run.tolerance)
            found = status == FAIR or own.gap < own_base.gap
            row.update(
                source="search",
                found=found,
                compensation=own.candidate.label,
                words=said,
                status=status,
                sentence=_sentence(run, said, own, own_base, name),
                searched=ls.searched,
                confirmed=_confirmed_json(run, ls.confirmed, spec_words),
                screened=_screened_json(ls.screened),
                calibration=_calibration_json(ls.calibration),
                refined=_screened_json(ls.refined),
            )
            if not found:
                row["sentence"] = (
                    f"with {run.players} players, none found for {name}: the closest of "
                    f"{len(ls.screened)} screened ({said}) leaves a gap of {own.gap:.1f} "
                    f"points on {own.games:,} fresh games, the rulebook {own_base.gap:.1f}"
                )
        else:
            st, base_st = fair_status(a, run.tolerance), fair_status(b, run.tolerance)
            source, cand = ("recommendation" if st != UNFAIR else "none found"), rec.candidate
            if st == UNFAIR and base_st != UNFAIR:
                # the compensation makes a level unfair that was not
                source, cand, st = "rulebook", type(rec.candidate)(), base_st
            shared = [
                (c, fair_status(p, run.tolerance))
                for (c, lv), p in run.cross.items()
                if lv == name and fair_status(p, run.tolerance) != UNFAIR
            ]
            if source == "none found" and shared:
                source, (cand, st) = "shared", shared[0]  # an earlier level's own
                row["found_for"] = next(
                    ls.level for ls in searches.values() if ls.recommendation.candidate == cand
                )
            row.update(
                source=source,
                compensation=cand.label,
                words=compensation_words(run, cand, spec_words),
                status=st,
            )
        out.append(row)
    return out


def by_level(run: CompensateRun) -> list[dict[str, Any]]:
    """Every compensation played at every level: the rulebook, the recommendation and each
    level's own (run.cross), with the seat rates and the status at each level."""
    rec = run.recommendation
    plays: dict[str, dict[str, Any]] = {
        "none (the rulebook)": {name: b for name, b, _ in run.levels},
        rec.candidate.label: {name: a for name, _, a in run.levels},
    }
    cross = run.cross
    for c in dict.fromkeys(c for c, _ in cross):
        plays[c.label] = {name: cross[(c, name)] for name, _, _ in run.levels}
    return [
        {
            "compensation": label,
            "levels": [
                {
                    "level": name,
                    "games": p.games,
                    "seat_rates": rates(p),
                    "gap": p.gap,
                    "status": fair_status(p, run.tolerance),
                }
                for name, p in by.items()
            ],
        }
        for label, by in plays.items()
    ]


def every_level_words(levels: list[dict], per: list[dict]) -> str:
    """What the levels say of the recommendation, from their records: fair at every level;
    one compensation per level (a level's own search); not fair at a level; undecided."""
    fair_levels = [lv["level"] for lv in levels if lv["with"]["status"] == FAIR]
    unfair_levels = [lv["level"] for lv in levels if lv["with"]["status"] == UNFAIR]
    if levels and len(fair_levels) == len(levels):
        return f"fair at every level checked ({', '.join(fair_levels)})"
    own = [r for r in per if r["source"] in ("search", "rulebook", "shared")]
    if own:
        parts = []
        for r in own:
            lv = next(x for x in levels if x["level"] == r["level"])
            st = {FAIR: "confirmed fair", UNFAIR: "not fair", UNDECIDED: "undecided"}
            mark = st[r["status"]] if r["status"] == FAIR else f"closest found, {st[r['status']]}"
            said = f"{r['words']} ({mark})" if r.get("found", True) else "none found"
            if r["source"] == "shared":
                said = f"{r['words']} (found for {r['found_for']}; {st[r['status']]} here)"
            if r["source"] == "rulebook":
                said = f"no compensation (the rulebook as it is; {st[r['status']]} there)"
            parts.append(
                f"with {r['level']} in every seat it is not fair "
                f"({lv['with']['status_words']}); for {r['level']}: {said}"
            )
        return (
            "one compensation per level (the recommendation is not fair at every level): "
            + "; ".join(parts)
        )
    if unfair_levels:
        return (
            f"not fair with {', '.join(unfair_levels)} in every seat: this compensation does "
            "not even the seats at that level; search one for it with --policy "
            f"{unfair_levels[0]}"
        )
    return (
        "undecided at "
        + ", ".join(lv["level"] for lv in levels if lv["with"]["status"] == UNDECIDED)
        + " with the games given"
    )


def analyse(run: CompensateRun, spec_words: dict[str, str]) -> dict[str, Any]:
    """Everything the outputs say, as data: the recommendation (its sentence and status),
    the candidates (screened and confirmed), the levels, and the compensation per level."""
    rec, base = run.recommendation, run.confirmed[0]
    said = compensation_words(run, rec.candidate, spec_words)
    levels = [_level_json(name, b, a, run.tolerance) for name, b, a in run.levels]
    per = per_level(run, spec_words)
    return {
        "game": run.game,
        "title": run.title,
        "players": run.players,
        "seed": run.seed,
        "level": run.level,
        "tolerance": run.tolerance,
        "games": run.games,
        "confirm_games": run.confirm_games,
        "level_games": run.level_games,
        "level_screen_games": run.level_screen_games,
        "level_budget": run.level_budget,
        "fields": run.fields,
        "searched": run.searched,
        "skipped": run.skipped,
        "recommendation": {
            "compensation": rec.candidate.label,
            "field": rec.candidate.field,
            "amounts": list(rec.candidate.amounts),
            "words": said,
            "status": fair_status(rec, run.tolerance),
            "sentence": _sentence(run, said, rec, base, run.level),
            "every_level": every_level_words(levels, per),
        },
        "per_level": per,
        "by_level": by_level(run),
        "baseline": {
            "seat_rates": rates(run.baseline),
            "gap": run.baseline.gap,
            "games": run.baseline.games,
        },
        "screened": _screened_json(run.screened),
        "calibration": _calibration_json(run.calibration),
        "refined": _screened_json(run.refined),
        "confirmed": _confirmed_json(run, run.confirmed, spec_words),
        "levels": levels,
        "elapsed_s": run.elapsed_s,
    }


def text_lines(a: dict[str, Any], top: int = 8) -> list[str]:
    """The text output: the recommendation first, then the confirmed candidates, the best
    screened ones and the levels (win rates in %)."""
    out = [
        f"{a['title']}: seat compensation for {a['players']} players, {a['level']} in every "
        f"seat, seed {a['seed']}; fair = every pair of seats within +-{a['tolerance']:g} "
        "points (95% CI, adjusted over the pairs)",
        "",
        "Recommendation: " + a["recommendation"]["sentence"] + ".",
        "At every level: " + a["recommendation"]["every_level"] + ".",
        *[f"For {r['level']}: {r['sentence']}." for r in a["per_level"] if "sentence" in r],
        "",
        f"Confirmed on {a['confirm_games']:,} fresh games (seat win rates in %):",
    ]
    for c in a["confirmed"]:
        rs = " / ".join(f"{r:.1f}" for r in c["seat_rates"])
        out.append(f"  {c['compensation']:<28} {rs:<24} {c['status_words']}")
    out.append("")
    searched = "; ".join(f"{k}: {v}" for k, v in a["searched"].items())
    cal = a["calibration"]
    out.append(
        f"Screened on {a['games']:,} games each ({searched}); the {top} smallest predicted "
        f"gaps (the rulebook on {cal['games']:,} games of the screening's seed, plus each "
        "candidate's effect on the screening games):"
    )
    for c in a["screened"][:top]:
        rs = " / ".join(f"{r:.1f}" for r in c["predicted_rates"])
        out.append(f"  {c['compensation']:<28} {rs:<24} predicted gap {c['predicted_gap']:.1f}")
    for k, v in a["skipped"].items():
        out.append(f"  {k}: not searched ({v})")
    if a["refined"] and a["refined"][0]["games"] > a["games"]:
        out.append(f"The best again on {a['refined'][0]['games']:,} games (predicted):")
        for c in a["refined"]:
            rs = " / ".join(f"{r:.1f}" for r in c["predicted_rates"])
            out.append(f"  {c['compensation']:<28} {rs:<24} predicted gap {c['predicted_gap']:.2f}")
    if a["levels"]:
        out.append("")
        out.append(f"At each level ({a['level_games']:,} games, the same games with and without):")
        for lv in a["levels"]:
            w = " / ".join(f"{r:.1f}" for r in lv["without"]["seat_rates"])
            x = " / ".join(f"{r:.1f}" for r in lv["with"]["seat_rates"])
            out.append(
                f"  {lv['level']:<22} without {w:<22} with {x:<22} {lv['with']['status_words']}"
            )
    for row in a["by_level"][2:]:  # the levels' own compensations, at every level
        out.append(f"  {row['compensation']}:")
        for c in row["levels"]:
            rs = " / ".join(f"{x:.1f}" for x in c["seat_rates"])
            out.append(f"    {c['level']:<20} {rs:<22} {c['status']} (gap {c['gap']:.1f} points)")
    for r in a["per_level"]:
        if r["source"] != "search":
            continue
        out.append("")
        searched = "; ".join(f"{k}: {v}" for k, v in r["searched"].items())
        out.append(
            f"The search with {r['level']} in every seat ({a['level_screen_games']:,} games a "
            f"screened candidate; {searched}), confirmed on {r['games']:,} fresh games:"
        )
        for c in r["confirmed"]:
            rs = " / ".join(f"{x:.1f}" for x in c["seat_rates"])
            out.append(f"  {c['compensation']:<28} {rs:<24} {c['status_words']}")
    return out


def render(
    run: CompensateRun,
    spec_words: dict[str, str] | None,
    json_out: bool,
    echo: Callable[[str], None],
) -> None:
    """balance compensate's output: one JSON object, or the text lines. spec_words: the
    game's SEAT_WORDS (None: the run's, run.seat_words)."""
    import json

    result = analyse(run, run.seat_words if spec_words is None else spec_words)
    if json_out:
        echo(json.dumps(result, indent=1))
        return
    for line in text_lines(result):
        echo(line)


def interval_of(v: dict) -> str:
    """A pair record's interval from its JSON (for tests and the report)."""
    return interval_words(v["estimate"], v["low"], v["high"], v["unit"], v["alpha"], v["tests"])
