"""The golden traces, and the one way to regenerate them for every game.

Each file of tests/golden/ is one game's JSON-lines trace (docs/trace-format.md), replayed with
version "golden". Its name holds every parameter of the game it records, for example

    sumeria(players=4,seed=9,game=2,policy=balanced_shifter_chaser_random,variant=cross-map).jsonl

(game name; then players, seed, game index, the policy list with "_" between seats, the
variants joined by "+", and rules overrides with "_" for ","). tests/conformance/test_golden.py
reads every file of the folder, replays the game its name describes and compares the lines, so
any change of a game's behaviour shows up as a diff.

The folder is the list of cases: each file's name is its case (CASES, read from the names), so a
new game adds its golden traces without editing a shared file. After an intended rules change,
regenerate and review the diff; to add a case, name it:

    python -m tests.golden.regen                    # every file of the folder
    python -m tests.golden.regen sumeria            # only the files of the games named
    python -m tests.golden.regen --add 'pig(players=2,seed=1,game=0,policy=optimal_random)'

(a registered game without a file fails test_every_game_has_a_golden_trace). Policy names in a
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


def cases() -> list[Case]:
    """The cases of the folder, from the files' names."""
    return [parse_name(p.name) for p in sorted(HERE.glob("*.jsonl"))]


CASES = cases()


def write(case: Case) -> None:
    assert parse_name(file_name(case)) == case, f"{case} does not read back from its name"
    path = HERE / file_name(case)
    path.write_text("\n".join(trace_lines(case)) + "\n")
    print(f"wrote {path.name}")


def main(argv: list[str]) -> None:
    if argv[:1] == ["--add"]:
        for name in argv[1:]:
            write(parse_name(name if name.endswith(".jsonl") else name + ".jsonl"))
        return
    for case in cases():
        if not argv or case.game in argv:
            write(case)


if __name__ == "__main__":
    main(sys.argv[1:])
