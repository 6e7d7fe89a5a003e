"""tools/ab_bench.py: a version's package copied under its own name imports side by side with
this one (no compile), and bad arguments print the usage with exit status 2."""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import ab_bench  # noqa: E402


def test_a_copied_version_imports_beside_simcore(tmp_path, monkeypatch):
    ab_bench.copy_version(str(ROOT), tmp_path, "simcore_ab0")
    ab_bench.copy_version("HEAD", tmp_path, "simcore_ab1")
    for name in ("simcore_ab0", "simcore_ab1"):
        left = [
            p for p in (tmp_path / name).rglob("*.py") if re.search(r"\bsimcore\b", p.read_text())
        ]
        assert left == []
    monkeypatch.syspath_prepend(str(tmp_path))
    mod = importlib.import_module("simcore_ab0.frame.standing")
    import simcore.frame.standing

    assert mod is not simcore.frame.standing
    assert mod.M_SIZE == simcore.frame.standing.M_SIZE
    assert mod.kernel.__module__ == "simcore_ab0.frame.jit"


def test_bad_arguments(capsys):
    assert ab_bench.main(["sunken-treasure", "2"]) == 2
    assert ab_bench.main(["sunken-treasure", "two", "10", "2", "HEAD", "HEAD"]) == 2
    assert "usage" in capsys.readouterr().out
