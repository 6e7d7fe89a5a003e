"""Golden traces: every file of tests/golden/ is replayed from the parameters in its name and
must be reproduced line by line. Regenerate with `python -m tests.golden.regen` (its docstring
says how to add a case)."""

from __future__ import annotations

import pytest

from tests.conformance.cases import GAMES
from tests.golden.regen import CASES, HERE, file_name, parse_name, trace_lines

FILES = sorted(p.name for p in HERE.glob("*.jsonl"))


@pytest.mark.parametrize("name", FILES, ids=FILES)
def test_golden_trace(name):
    case = parse_name(name)
    assert file_name(case) == name, "the file name does not read back as a case"
    expected = (HERE / name).read_text().splitlines()
    got = trace_lines(case)
    for i, (a, b) in enumerate(zip(got, expected)):
        assert a == b, f"line {i + 1} differs (regenerate with python -m tests.golden.regen)"
    assert len(got) == len(expected)


def test_the_files_are_the_cases():
    """Every file's name reads back as its case (the folder is the list of cases)."""
    assert FILES and [file_name(c) for c in CASES] == FILES


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_golden_trace(game):
    add = "python -m tests.golden.regen --add NAME"
    assert any(c.game == game for c in CASES), f"add a golden trace for {game}: {add}"
