"""Fixtures and helpers shared by several test modules."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cli
from analysis.compare import comparison, dice_tables, sweep_table
from simcore.studies.compare import run_compare, run_dice, run_sweep

# A whole-suite run compiles the games in this order (tests/conformance first, games sorted);
# the last one, the longest to compile, is compiled meanwhile by a second process
# (tests/warm.py) on the other core. BALANCE_TEST_WARMUP=0 turns it off.
WARM_GAMES = ("sunken-treasure",)
WHOLE_SUITE = 300  # tests collected from which the run counts as a whole-suite run
_warm: list[subprocess.Popen] = []


def pytest_collection_finish(session):
    if len(session.items) < WHOLE_SUITE or os.environ.get("BALANCE_TEST_WARMUP") == "0":
        return
    _warm.append(
        subprocess.Popen(
            [sys.executable, "-m", "tests.warm", *WARM_GAMES],
            cwd=Path(__file__).resolve().parent.parent,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    )


def pytest_sessionfinish(session, exitstatus):
    for proc in _warm:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


def run_main(args, monkeypatch, capsys) -> tuple[int, str, str]:
    """Run `balance ARGS` in this process through cli.main: (exit status, stdout, stderr)."""
    monkeypatch.setattr(sys, "argv", ["balance", *args])
    code = 0
    try:
        cli.main()
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


def compare(*args, **kw):
    """Play a comparison (simcore.studies.compare.run_compare) and analyse it (analysis.compare)."""
    return comparison(run_compare(*args, **kw))


def dice_analysis(*args, **kw):
    """Play the dice (simcore.studies.compare.run_dice) and make their table (analysis.compare)."""
    return dice_tables(run_dice(*args, **kw))


def sweep(*args, **kw):
    """Play a sweep (simcore.studies.compare.run_sweep) and make its table (analysis.compare)."""
    return sweep_table(run_sweep(*args, **kw))


@pytest.fixture(scope="session")
def small_report(tmp_path_factory):
    """`balance report sunken-city --games 120 --policy random` on the local backend:
    (output folder, what the command printed)."""
    out = tmp_path_factory.mktemp("rep") / "sc"
    res = CliRunner().invoke(
        cli.app,
        ["report", "sunken-city", "--out", str(out), "--games", "120", "--policy", "random"],
    )
    assert res.exit_code == 0, res.output
    return out, res.output
