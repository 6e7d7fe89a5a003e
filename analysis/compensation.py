"""Seat compensation judged and said (issue #38; docs/compensation.md): what
simcore.studies.compensate played, as verdict records and sentences a designer can print.

Fair means equivalence, not the absence of a detected gap: every pairwise difference of the
seats' outright win rates lies within +-tolerance points with 95% confidence, i.e. every
interval of analysis.verdict_engine.all_seat_pairs (simultaneous over the pairs, Bonferroni)
lies inside [-tolerance, +tolerance]. A pair whose interval lies wholly beyond the tolerance is
unfair; anything else is undecided with the games given (the seats that cannot be separated
are named)."""

from __future__ import annotations

from typing import Any

from analysis.verdict_engine import Verdict, all_seat_pairs, interval_words

FAIR, UNFAIR, UNDECIDED = "fair", "unfair", "undecided"


def pair_records(p: Any) -> list[Verdict]:
    """Every pair of seats of a played candidate (analysis.verdict_engine.all_seat_pairs)."""
    return all_seat_pairs(p.seat_wins, p.games)


def fair_status(p: Any, tolerance: float) -> str:
    """'fair', 'unfair' or 'undecided' (the module docstring)."""
    recs = pair_records(p)
    if all(-tolerance <= v.low and v.high <= tolerance for v in recs):
        return FAIR
    if any(v.low > tolerance or v.high < -tolerance for v in recs):
        return UNFAIR
    return UNDECIDED


def _undecided_pairs(p: Any, tolerance: float) -> list[str]:
    return [
        v.quantity.replace("'s win rate minus", " and").replace("'s", "")
        for v in pair_records(p)
        if not (-tolerance <= v.low and v.high <= tolerance)
        and not (v.low > tolerance or v.high < -tolerance)
    ]


def status_words(p: Any, tolerance: float) -> str:
    """The confirmation's verdict in words, from its records."""
    st = fair_status(p, tolerance)
    if st == FAIR:
        return f"fair: every pair of seats within +-{tolerance:g} points (95% CI, adjusted)"
    if st == UNFAIR:
        worst = max(pair_records(p), key=lambda v: v.low)
        return f"not fair: {worst.words}: {worst.interval_text()}"
    pairs = _undecided_pairs(p, tolerance)
    return (
        f"undecided with {p.games:,} games: {', '.join(pairs)} cannot be told within "
        f"+-{tolerance:g} points"
    )


def compensation_words(run: Any, cand: Any, spec_words: dict[str, str]) -> str:
    """The compensation as a rulebook would print it: 'seat 1 adds 5 to the value of its
    treasures at the end and seat 2 adds 2 ...'; 'no compensation' for the rulebook."""
    rule = [spec_words.get(k, f"{k} = {v}") for k, v in getattr(cand, "rule", ())]
    if not cand.field and not rule:
        return "no compensation (the rulebook as it is)"
    template = spec_words.get(cand.field, f"gets {{n}} ({cand.field})")
    parts = [
        f"seat {s} " + template.format(n=a, s="" if a == 1 else "s")
        for s, a in enumerate(cand.amounts)
        if a
    ]
    return "; ".join(rule + ([" and ".join(parts)] if parts else []))


def rates(p: Any) -> list[float]:
    return [100.0 * w / p.games for w in p.seat_wins]


def _rates_text(p: Any) -> str:
    return " / ".join(f"{r:.1f}%" for r in rates(p))


def recommendation_record(run: Any, judge=fair_status) -> tuple[Any, Any]:
    """(the recommended candidate's confirmation, the baseline's): the first confirmed
    candidate judged fair, else the one with the smallest gap on the fresh games (the same
    choice as simcore.studies.compensate.recommendation)."""
    cands = run.confirmed[1:]
    rec = next((p for p in cands if judge(p, run.tolerance) == FAIR), None)
    if rec is None:
        rec = min(cands, key=lambda p: (p.gap, p.candidate.total))
    return rec, run.confirmed[0]


def analyse(run: Any, spec_words: dict[str, str]) -> dict[str, Any]:
    """Everything the outputs say, as data: the recommendation (its sentence and status),
    the candidates (screened and confirmed), and the levels."""
    rec, base = recommendation_record(run)
    status = fair_status(rec, run.tolerance)
    said = compensation_words(run, rec.candidate, spec_words)
    head = f"with {run.players} players, {said}"
    if status == FAIR:
        sentence = (
            f"{head}: confirmed fair on {rec.games:,} fresh games with {run.level} in every "
            f"seat (seat win rates {_rates_text(rec)}; without it {_rates_text(base)})"
        )
    else:
        sentence = (
            f"{head} comes closest, but is not confirmed fair on {rec.games:,} fresh games "
            f"with {run.level} in every seat ({status_words(rec, run.tolerance)}; seat win "
            f"rates {_rates_text(rec)}; without it {_rates_text(base)})"
        )
    confirmed = [
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
        for p in run.confirmed
    ]
    screened = sorted(run.screened, key=lambda p: (p.gap, p.candidate.total))
    levels = []
    for name, b, a in run.levels:
        levels.append(
            {
                "level": name,
                "games": a.games,
                "without": {
                    "seat_rates": rates(b),
                    "gap": b.gap,
                    "status": fair_status(b, run.tolerance),
                },
                "with": {
                    "seat_rates": rates(a),
                    "gap": a.gap,
                    "status": fair_status(a, run.tolerance),
                    "status_words": status_words(a, run.tolerance),
                    "pairs": [v.as_json() for v in pair_records(a)],
                },
            }
        )
    fair_levels = [lv["level"] for lv in levels if lv["with"]["status"] == FAIR]
    unfair_levels = [lv["level"] for lv in levels if lv["with"]["status"] == UNFAIR]
    if levels and len(fair_levels) == len(levels):
        every = f"fair at every level checked ({', '.join(fair_levels)})"
    elif unfair_levels:
        every = (
            f"not fair with {', '.join(unfair_levels)} in every seat: this compensation does "
            "not even the seats at that level; search one for it with --policy "
            f"{unfair_levels[0]}"
        )
    else:
        every = (
            "undecided at "
            + ", ".join(lv["level"] for lv in levels if lv["with"]["status"] == UNDECIDED)
            + " with the games given"
        )
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
        "fields": run.fields,
        "searched": run.searched,
        "skipped": run.skipped,
        "recommendation": {
            "compensation": rec.candidate.label,
            "field": rec.candidate.field,
            "amounts": list(rec.candidate.amounts),
            "words": said,
            "status": status,
            "sentence": sentence,
            "every_level": every,
        },
        "baseline": {
            "seat_rates": rates(run.baseline),
            "gap": run.baseline.gap,
            "games": run.baseline.games,
        },
        "screened": [
            {
                "compensation": p.candidate.label,
                "seat_rates": rates(p),
                "gap": p.gap,
                "games": p.games,
            }
            for p in screened
        ],
        "confirmed": confirmed,
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
        "",
        f"Confirmed on {a['confirm_games']:,} fresh games (seat win rates in %):",
    ]
    for c in a["confirmed"]:
        rs = " / ".join(f"{r:.1f}" for r in c["seat_rates"])
        out.append(f"  {c['compensation']:<28} {rs:<24} {c['status_words']}")
    out.append("")
    searched = "; ".join(f"{k}: {v}" for k, v in a["searched"].items())
    out.append(f"Screened on {a['games']:,} games each ({searched}); the {top} smallest gaps:")
    for c in a["screened"][:top]:
        rs = " / ".join(f"{r:.1f}" for r in c["seat_rates"])
        out.append(f"  {c['compensation']:<28} {rs:<24} gap {c['gap']:.1f} points")
    for k, v in a["skipped"].items():
        out.append(f"  {k}: not searched ({v})")
    if a["levels"]:
        out.append("")
        out.append(f"At each level ({a['level_games']:,} games, the same games with and without):")
        for lv in a["levels"]:
            w = " / ".join(f"{r:.1f}" for r in lv["without"]["seat_rates"])
            x = " / ".join(f"{r:.1f}" for r in lv["with"]["seat_rates"])
            out.append(
                f"  {lv['level']:<22} without {w:<22} with {x:<22} {lv['with']['status_words']}"
            )
    return out


def render(run: Any, spec_words: dict[str, str] | None, json_out: bool, echo) -> None:
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
