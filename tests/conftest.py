"""Fixtures shared by several test modules."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import cli


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
