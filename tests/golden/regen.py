"""The golden traces, and the one way to regenerate them for every game.

Each file of tests/golden/ is one game's JSON-lines trace (docs/trace-format.md), replayed with
version "golden". Its name holds every parameter of the game it records, for example

    sumeria(players=4,seed=9,game=2,policy=balanced_shifter_chaser_random,variant=cross-map).jsonl

(game name; then players, seed, game index, the policy list with "_" between seats, the
variants joined by "+", and rules overrides with "_" for ","). tests/conformance/test_golden.py
reads every file of the folder, replays the game its name describes and compares the lines, so
any change of a game's behaviour shows up as a diff.

After an intended rules change, or to add a case (append it to CASES; a registered game
without a case fails test_every_game_has_a_golden_trace), regenerate and review the diff:

    .venv/bin/python -m tests.golden.regen            # every case of CASES
    .venv/bin/python -m tests.golden.regen sumeria    # only the cases of the games named

A file whose case was removed from CASES is deleted by a full regeneration. Policy names in a
case must be plain names (no ":weight=value"), so that the file name reads back.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NamedTuple

from simcore import get_game

HERE = Path(__file__).parent


class Case(NamedTuple):
    game: str
    players: int
    seed: int
    index: int
    policy: str  # "random" or one name per seat, "balanced,thief,random"
    variants: str = ""  # "short+no-chips"
    overrides: tuple[tuple[str, str], ...] = ()  # sorted (rules field, value as on the CLI)


CASES = [
    Case("secrets-of-the-sea", 3, 4, 2, "random,ev,balanced"),
    Case("secrets-of-the-sea", 3, 9, 5, "stop-at-value,stop-at-depth,random", "exact-wreck"),
    Case("sumeria", 3, 4, 1, "random"),
    Case("sumeria", 4, 9, 2, "balanced,shifter,chaser,random", "cross-map"),
    Case("sunken-city", 2, 1, 3, "random"),
    Case("sunken-city", 3, 7, 11, "random", "short+no-chips"),
    Case(
        "sunken-city",
        4,
        5,
        2,
        "random",
        "intermingled",
        (("chip_timing", "any-time"), ("die", "0,1,2,3")),
    ),
    Case("sunken-treasure", 3, 4, 2, "balanced,thief,random"),
    Case(
        "sunken-treasure",
        3,
        9,
        5,
        "banker,lockbreaker,thief",
        "bank-on-surface",
        (("sharks_to_attack", "2"),),
    ),
]


def file_name(case: Case) -> str:
    parts = [f"players={case.players}", f"seed={case.seed}", f"game={case.index}"]
    parts.append("policy=" + case.policy.replace(",", "_"))
    if case.variants:
        parts.append("variant=" + case.variants)
    parts += [f"{k}={v.replace(',', '_')}" for k, v in case.overrides]
    return f"{case.game}({','.join(parts)}).jsonl"


def parse_name(name: str) -> Case:
    """The case a golden file's name describes (the inverse of file_name)."""
    game, _, rest = name.removesuffix(".jsonl").partition("(")
    fields = dict(p.split("=", 1) for p in rest.removesuffix(")").split(","))
    return Case(
        game,
        int(fields.pop("players")),
        int(fields.pop("seed")),
        int(fields.pop("game")),
        fields.pop("policy").replace("_", ","),
        fields.pop("variant", ""),
        tuple((k, v.replace("_", ",")) for k, v in fields.items()),
    )


def trace_lines(case: Case) -> list[str]:
    """The case's trace as it is played now."""
    spec = get_game(case.game)
    rules = spec.resolve_rules([case.variants], dict(case.overrides), None, case.players)
    seats = spec.resolve_seats(spec.parse_policies(case.policy, case.players), rules)
    trace = spec.replay(rules, case.players, seats, case.seed, case.index, version="golden")
    return trace.jsonl().splitlines()


def main(games: list[str]) -> None:
    cases = [c for c in CASES if not games or c.game in games]
    for case in cases:
        assert parse_name(file_name(case)) == case, f"{case} does not read back from its name"
        path = HERE / file_name(case)
        path.write_text("\n".join(trace_lines(case)) + "\n")
        print(f"wrote {path.name}")
    if not games:
        for path in sorted(set(HERE.glob("*.jsonl")) - {HERE / file_name(c) for c in CASES}):
            path.unlink()
            print(f"removed {path.name}")


if __name__ == "__main__":
    main(sys.argv[1:])
