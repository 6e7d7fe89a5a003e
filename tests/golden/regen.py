"""Regenerate the committed golden traces: `.venv/bin/python -m tests.golden.regen`.

Each file is one game's JSON-lines trace (docs/trace-format.md), named after its parameters.
tests/test_golden.py replays the same games and compares them line by line, so any change in
the engine's behaviour shows up as a diff; after an intended rules change, regenerate and
review the diff.
"""

from __future__ import annotations

import json
from pathlib import Path

from simcore import get_game

HERE = Path(__file__).parent
CASES = [
    # (players, seed, game index, variants, overrides, policy)
    (2, 1, 3, [], {}, "random"),
    (3, 7, 11, ["short+no-chips"], {}, "random"),
    (4, 5, 2, [], {"interleave": "false", "die": "0,1,2,3"}, "random"),
]


def name(players, seed, index, variants, overrides, policy) -> str:
    parts = [f"players={players}", f"seed={seed}", f"game={index}", f"policy={policy}"]
    if variants:
        parts.append("variant=" + "+".join(variants))
    parts += [f"{k}={v.replace(',', '_')}" for k, v in sorted(overrides.items())]
    return "sunken-city(" + ",".join(parts) + ").jsonl"


def trace_lines(players, seed, index, variants, overrides, policy) -> list[str]:
    spec = get_game("sunken-city")
    rules = spec.resolve_rules(variants, overrides, None, players)
    seats = spec.parse_policies(policy, players)
    text = spec.replay(rules, players, seats, seed, index, version="golden").jsonl()
    return text.splitlines()


def main() -> None:
    for case in CASES:
        path = HERE / name(*case)
        path.write_text("\n".join(trace_lines(*case)) + "\n")
        print(f"wrote {path.name} ({len(json.loads(path.read_text().splitlines()[-1]))} keys)")


if __name__ == "__main__":
    main()
