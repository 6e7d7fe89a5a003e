"""How the game feels (#26) on the real games: simulate's table and `metrics` JSON agree with
the rows, compare reports every metric's paired change, sweep takes them as --metric, the
report has its section. Few games each: the kernels are those the other tests compile."""

from __future__ import annotations

import json

import numpy as np
import pytest

import simcore
from analysis.summary import result_json
from simcore import get_game
from simcore.base.metrics import FEEL_METRICS, PPM
from simcore.studies.compare import variant_arm
from tests.conftest import compare, run_main

NAMES = [m.name for m in FEEL_METRICS]


@pytest.mark.parametrize(
    "game", ["sunken-city", "sumeria", "secrets-of-the-sea", "sunken-treasure"]
)
def test_simulate_metrics_agree_with_the_rows(game):
    players = 3
    res = simcore.simulate(get_game(game), players, 300, seed=3, keep_rows=True)
    js = result_json(res)["metrics"]
    assert list(js) == NAMES
    rows = res.rows
    won = rows["winner"] >= 0
    hl, hla = rows["half_leader"], rows["half_last"]
    scores = np.sort(rows[[f"score_{s}" for s in range(players)]].to_numpy(), axis=1)
    expect = {
        "lead_changes": (rows["lead_changes"].mean(), len(rows)),
        "drama": (rows["drama_ppm"][won].mean() / PPM, won.sum()),
        "decisiveness": (rows["decisive_ppm"][won].mean() / PPM, won.sum()),
        "runaway": ((rows["winner"] == hl)[hl >= 0].mean(), (hl >= 0).sum()),
        "comeback": ((rows["winner"] == hla)[hla >= 0].mean(), (hla >= 0).sum()),
        "margin": ((scores[:, -1] - scores[:, -2])[won].mean(), won.sum()),
    }
    for name, (value, n) in expect.items():
        rec = js[name]
        assert rec["n"] == n, (game, name)
        if n:
            assert rec["mean"] == pytest.approx(value, rel=1e-12, abs=1e-15), (game, name)
            assert rec["ci_low"] <= rec["mean"] <= rec["ci_high"], (game, name)
    assert (rows["standing_turns"] > 0).all()


def test_simulate_prints_the_feel_block_and_a_solo_game_has_none(monkeypatch, capsys):
    code, out, _ = run_main(
        ["simulate", "sunken-city", "--players", "2", "--games", "200"], monkeypatch, capsys
    )
    assert code == 0 and "how the game feels" in out
    for label in ("lead changes", "drama", "decisiveness", "runaway", "comeback", "margin"):
        assert label in out, label
    args = ["simulate", "sunken-treasure", "--players", "1", "--games", "50", "--json"]
    code, out, _ = run_main(args, monkeypatch, capsys)
    assert code == 0 and json.loads(out)["metrics"] == {}


def test_compare_base_short_reports_every_feel_metric():
    """`balance compare sunken-city --players 3 --variant base --variant short`."""
    c = compare(
        get_game("sunken-city"), 3, [variant_arm("base"), variant_arm("short")], 400, seed=2
    )
    short = c.table[c.table["arm"] == "short"].set_index("metric")
    assert set(NAMES) <= set(short.index)
    assert short.loc[NAMES, ["diff", "diff_low", "diff_high", "p_adjusted"]].notna().all().all()
    assert all(short.loc[NAMES, "verdict"].str.startswith("`short`"))


def test_sweep_takes_a_feel_metric(monkeypatch, capsys):
    args = ["sweep", "sunken-city", "--players", "3", "--param", "chip_supply=2,6"]
    code, out, _ = run_main([*args, "--games", "200", "--metric", "drama"], monkeypatch, capsys)
    assert code == 0 and "drama_low" in out
    code, _, err = run_main([*args, "--metric", "dramatic"], monkeypatch, capsys)
    assert code == 2 and "comeback" in err and err.count("\n") == 1


def test_report_has_the_feel_section(small_report):
    out, _ = small_report
    md = (out / "report.md").read_text()
    assert "## How the game feels" in md and (out / "feel.png").exists()
    feel = json.loads((out / "report.json").read_text())["feel"]
    assert {r["players"] for r in feel} == {2, 3, 4}
    # random players in Sunken City seldom bank a treasure: few games have an outright winner
    assert "lead_changes" in {r["metric"] for r in feel} <= set(NAMES)
    assert all(r["n"] > 0 for r in feel)
    assert len({r["arm"] for r in feel}) > 1
