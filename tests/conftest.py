"""Fixtures and helpers shared by several test modules."""

from __future__ import annotations

import sys

import pytest
from typer.testing import CliRunner

import cli
from analysis.compare import comparison, dice_tables, sweep_table
from simcore.arms import run_compare, run_dice, run_sweep


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
    """Play a comparison (simcore.arms.run_compare) and analyse it (analysis.compare)."""
    return comparison(run_compare(*args, **kw))


def dice_analysis(*args, **kw):
    """Play the dice (simcore.arms.run_dice) and make their table (analysis.compare)."""
    return dice_tables(run_dice(*args, **kw))


def sweep(*args, **kw):
    """Play a sweep (simcore.arms.run_sweep) and make its table (analysis.compare)."""
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
