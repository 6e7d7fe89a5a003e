"""Compensations at every rung of the ladder, side by side (issue #38; docs/compensation.md,
"Measured"): each compensation (as `--set` gives it, `;` between fields; `none`: the rulebook)
played with every rung's player in every seat, on the same games of one seed, and judged as
`balance compensate` judges (simcore.base.fairness.fair_status):

    .venv/bin/python tools/compensation_rungs.py GAME PLAYERS SEED COMPENSATION...
    .venv/bin/python tools/compensation_rungs.py sunken-city 3 40 none \
        "seat_value=3,4,0" "finish_round=false;seat_value=0,1,2"

The games a rung: 20,000 for the presets; for `search` at budget B, 48,000 / B (at least 400),
so that each rung costs about the same; `--rung NAME` (repeatable) plays only those rungs (any
ladder rung or `search:budget=B`), `--games N` that many games a rung. Prints a markdown
table: the rung, its games, and for each compensation the seat win rates and its status, and
writes it as JSON on stdout's last line.
"""

from __future__ import annotations

import json
import sys


def games_for(rung) -> int:
    if rung.kind == "search" or rung.budget:
        return max(400, 48_000 // max(rung.budget, 1))
    return 20_000


def main(argv: list[str]) -> int:
    import argparse

    from analysis.compensate import rates
    from simcore.base.fairness import TOLERANCE, fair_status
    from simcore.frame.registry import get_game
    from simcore.studies.compensate import Candidate, _Plan
    from simcore.studies.ladder import ladder_rungs, strong_policy

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("players", type=int)
    ap.add_argument("seed", type=int)
    ap.add_argument("compensation", nargs="+")
    ap.add_argument("--rung", action="append", default=[])
    ap.add_argument("--games", type=int, default=0)
    args = ap.parse_args(argv)
    game, players, seed = args.game, args.players, args.seed
    only, games = args.rung, args.games
    spec = get_game(game)
    cands = []
    for text in args.compensation:
        over = {} if text == "none" else dict(kv.split("=", 1) for kv in text.split(";"))
        rule = tuple((k, v) for k, v in over.items() if k not in spec.rules_cls.SEAT_FIELDS)
        seat = [(k, v) for k, v in over.items() if k in spec.rules_cls.SEAT_FIELDS]
        field, amounts = seat[0] if seat else ("", "")
        cands.append(Candidate(field, tuple(int(a) for a in amounts.split(",") if a), rule))
    plan = _Plan(spec, players, spec.default_policy, (), {}, None, None)
    rungs = ladder_rungs(spec)
    strong = strong_policy(spec)
    if strong and strong not in {r.name for r in rungs}:  # the report's strong players too
        *rungs, added = ladder_rungs(spec, policies=[strong])
        rungs.insert(next(i for i, r in enumerate(rungs) if r.kind == "search"), added)
    if only:  # the ladder's own rungs by name, any other player added as a rung
        named = {r.name: r for r in rungs}
        extra = [n for n in only if n not in named]
        if extra:
            named.update({r.name: r for r in ladder_rungs(spec, policies=extra)[-len(extra) :]})
        rungs = [named[n] for n in only]
    out = []
    print("| rung | games | " + " | ".join(c.label for c in cands) + " |")
    print("|---|---|" + "---|" * len(cands))
    for rung in rungs:
        n = games or games_for(rung)
        lineup = ",".join([rung.name] * players)
        played = plan.play([(c, n, seed, lineup) for c in cands], {})
        cells = []
        for p in played:
            st = fair_status(p, TOLERANCE)
            cells.append({"seat_rates": rates(p), "gap": p.gap, "status": st})
        out.append({"rung": rung.name, "games": n, "cells": cells})
        text = [
            " / ".join(f"{r:.1f}" for r in c["seat_rates"]) + f" ({c['status']})" for c in cells
        ]
        print(f"| {rung.name} | {n:,} | " + " | ".join(text) + " |", flush=True)
    print(json.dumps({"game": game, "players": players, "seed": seed, "rungs": out}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
