"""Shared by the referee's tests: traces read into rows and written back, and tampering with
a real trace to check that the referee reports the change."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

import pytest

from tests.referee import check_trace

PLAYERS = (2, 3, 4)

Rows = list[dict]


def parse(text: str) -> Rows:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def dump(rows: Rows) -> str:
    return "\n".join(json.dumps(r) for r in rows) + "\n"


def turns(rows: Rows) -> Iterator[dict]:
    return iter(rows[1:-1])


def actions_of(rows: Rows, kind: str) -> Iterator[tuple[dict, dict]]:
    """(turn, action) for every action of that type, in the order of the trace."""
    return ((t, a) for t in turns(rows) for a in t["actions"] if a["type"] == kind)


def steps_of(rows: Rows, kind: str) -> Iterator[tuple[dict, dict]]:
    """(action, step) for every step of the paths of the actions of that type, in order."""
    return ((a, p) for _, a in actions_of(rows, kind) for p in a["path"])


def numbered_actions_of(rows: Rows, kind: str) -> Iterator[tuple[dict, int, dict]]:
    """(turn, index in the turn's actions, action) for every action of that type, in order: for
    an edit that replaces, inserts or deletes actions."""
    return ((t, i, a) for t in turns(rows) for i, a in enumerate(t["actions"]) if a["type"] == kind)


def tamper(texts: list[str], edit: Callable[[Rows], bool]) -> str:
    """The first trace `edit` applies to (edit changes the rows and returns True)."""
    for text in texts:
        assert check_trace(text) == []
        rows = parse(text)
        if edit(rows):
            return dump(rows)
    pytest.fail("no trace in the pool offers the situation to tamper with")


def assert_caught(text: str, *words: str) -> list[str]:
    violations = check_trace(text)
    assert violations, "the referee let a tampered trace pass"
    assert any(all(w in v for w in words) for v in violations), violations[:8]
    return violations


def centre(rows: Rows) -> list[int]:
    flat = rows[0]["rules"]["board"].replace("/", "")
    q = flat.index("C")
    return [q // 9, q % 9]
