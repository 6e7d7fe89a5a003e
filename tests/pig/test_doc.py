"""docs/adding-a-game.md, the walkthrough of adding Pig, lists every file Pig's addition wrote
with its line count: the table must match the tree."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "adding-a-game.md"
ROW = re.compile(r"^\| `([^`]+)` \| (\d+) \|")


def listed() -> dict[str, int]:
    out = {}
    for line in DOC.read_text().splitlines():
        m = ROW.match(line)
        if m:
            out[m.group(1)] = int(m.group(2))
    return out


def written() -> set[str]:
    globs = ("simcore/games/pig/*.py", "tests/pig/*.py", "docs/*-pig.md", "tests/golden/pig(*")
    files = {str(p.relative_to(ROOT)) for g in globs for p in ROOT.glob(g)}
    return files | {"simcore/studies/bench_pig.py"}


def test_every_file_of_pig_is_listed_and_nothing_else():
    assert set(listed()) == written()


def test_the_line_counts_are_the_trees():
    for path, n in listed().items():
        assert len((ROOT / path).read_text().splitlines()) == n, path
