"""`balance bench`: the table, the reuse of its rates by --full, the plain-Python timing and a
failed measurement reported as one line (no traceback)."""

from __future__ import annotations

import numpy as np
import pytest

from simcore import get_game
from simcore.studies import bench


def test_run_bench_table_and_rates():
    lines = []
    res = bench.run_bench(get_game("sunken-treasure"), 300, 1, echo=lines.append)
    rows = res["results"]
    assert [r["players"] for r in rows] == [1, 2, 3, 4]
    for r in rows:
        assert r["policy"] == "balanced"
        assert r["games_per_s_1"] > 0 and r["ns_per_turn"] > 0
    # one header and one line per player count, columns aligned to the longest game name
    assert len(lines) == 5
    assert lines[1].startswith("sunken-treasure  ")
    assert len({len(line) for line in lines}) == 1
    # --full reuses the rates just measured
    assert (
        bench._rate_1(bench.get_game("sunken-treasure"), 2, "balanced", res)
        == (rows[1]["games_per_s_1"])
    )


def test_thread_counts_take_turns_run_by_run(monkeypatch):
    """After the warm-up, each run times 1 thread and then all threads, so a slow spell of the
    machine cannot fall on one thread count only; the rates are the medians of the runs."""
    calls = []

    def fake(spec, players, games, threads, seed=12345, policy=None):
        calls.append(threads)
        return (0.5 if threads == 1 else 0.25), 10 * games

    monkeypatch.setattr(bench, "_time_batch", fake)
    monkeypatch.setattr(bench.numba.config, "NUMBA_NUM_THREADS", 2)
    res = bench.run_bench(get_game("sunken-treasure"), 100, 3, echo=lambda line: None)
    assert calls == [1, 1, 2, 1, 2, 1, 2] * 4  # warm-up, then 3 runs, for 1-4 players
    row = res["results"][0]
    assert row["seconds_1"] == [0.5] * 3 and row["seconds_2"] == [0.25] * 3
    assert row["games_per_s_1"] == 200 and row["speedup"] == 2.0
    assert row["ns_per_turn"] == pytest.approx(0.5 / 1000 * 1e9)


def test_plain_python_ratio_runs_the_plain_engine():
    out = bench.plain_python_ratio("secrets-of-the-sea", 4, "balanced", 3, 1000.0)
    assert out["sample_games"] == 3
    assert out["plain_python_s_per_game"] > 0
    assert out["ratio"] == pytest.approx(1000.0 * out["plain_python_s_per_game"])


def test_failed_measurement_is_one_line():
    with pytest.raises(bench.BenchError, match="failed .exit 1.: ValueError: boom"):
        bench._run("raise ValueError('boom')", "x")


def test_peak_memory_is_the_child_process_own():
    """The memory figure is the measured simulate's own peak, not its parent's (ru_maxrss
    on Linux keeps the parent's peak across fork and exec)."""
    import numpy as np

    ballast = np.ones(60_000_000)  # 480 MB held by this process while the child runs
    kb = bench.peak_memory("sunken-treasure", 2, "balanced", [20_000])["20000"]
    assert ballast.sum() == 60_000_000
    assert 20_000 < kb < 400_000


def test_unknown_policy_is_an_input_error():
    from simcore.base.rulesbase import RulesError

    with pytest.raises(RulesError, match="unknown policy 'nosuch' for sumeria"):
        bench.run_bench(get_game("sumeria"), 10, 1, echo=lambda line: None, policy="nosuch")
    with pytest.raises(RulesError, match="no game has a policy 'nosuch'"):
        bench.run_bench(None, 10, 1, echo=lambda line: None, policy="nosuch")


def test_policy_of_some_games_benches_those_games():
    lines = []
    res = bench.run_bench(None, 50, 1, echo=lines.append, policy="ev")
    assert {r["game"] for r in res["results"]} == {"secrets-of-the-sea"}
    assert len(lines) == 1 + 3


def test_policy_with_weights_benches_the_games_it_fits():
    """A preset with a weight: the game itself, or with every game those the weight fits
    (Sunken Treasure's balanced has `hunt`, the others' do not)."""
    res = bench.run_bench(
        get_game("sunken-treasure"), 50, 1, echo=lambda line: None, policy="balanced:hunt=2"
    )
    assert {r["policy"] for r in res["results"]} == {"balanced:hunt=2"}
    res = bench.run_bench(None, 50, 1, echo=lambda line: None, policy="balanced:hunt=2")
    assert {r["game"] for r in res["results"]} == {"sunken-treasure"}


# ---------------------------------------------------------------- the strength-for-cost curve


def test_elo_equivalent_against_the_fair_share():
    """0 at the fair share; a 3-player seat winning half its games has odds 1 against a fair
    seat's 1/2: 400 log10(2) = +120; symmetric below the fair share."""
    assert bench.elo_vs_fair(1 / 3, 1 / 3) == pytest.approx(0.0)
    assert bench.elo_vs_fair(0.5, 1 / 3) == pytest.approx(400 * 0.30103, abs=0.01)
    assert bench.elo_vs_fair(0.25, 0.5) == pytest.approx(-bench.elo_vs_fair(0.75, 0.5))
    assert bench.elo_vs_fair(1.0, 0.5) == pytest.approx(400 * 2.99957, abs=0.01)  # clipped


def test_curve_point_interval_and_fair_share():
    """Wilson's interval (7 of 10: 0.3968-0.8922) and a fair share that leaves out the shared
    wins (2 of 10 shared, 4 players: 0.2 each)."""
    pt = bench.curve_point(7, 10, 2, 4)
    assert pt["win_rate"] == 0.7
    assert pt["ci_low"] == pytest.approx(0.3968, abs=1e-4)
    assert pt["ci_high"] == pytest.approx(0.8922, abs=1e-4)
    assert pt["fair"] == pytest.approx(0.2)
    assert pt["elo_low"] < pt["elo"] < pt["elo_high"]
    assert pt["elo"] == pytest.approx(400 * (np.log10(0.7 / 0.3) - np.log10(0.25)))


def test_curve_budgets_follow_the_default_budget():
    assert bench.curve_budgets(bench.get_game("sunken-city")) == [2, 7, 28]
    assert bench.curve_budgets(bench.get_game("sunken-treasure")) == [64, 256, 1024]


def test_play_rotated_counts_the_first_entry_wins():
    """The wins of the lineup's first entry are those the runner counts for that policy on
    the same games (game i seats entry 0 at seat (-i) mod players)."""
    from simcore.run.runner import simulate

    spec = bench.get_game("pig")
    res = bench.play_rotated(spec, 2, "hold-at:n=10,random", 300, 5)
    sim = simulate(
        get_game("pig"), 2, 300, policies="hold-at:n=10,random", seed=5, rotate_seats=True
    )
    assert res["games"] == 300 and res["cpu_s"] >= 0
    assert res["wins"] == sim.summary.policy_wins[0]
    assert res["wins"] + sim.summary.policy_wins[1] + res["shared"] == 300


def test_run_curve_lineups_and_ratios(monkeypatch):
    """Each point plays one `search` seat with the budget against the default preset, the
    reference lineup is the preset in every seat, and a point's cost is its CPU per game over
    the reference's (a fake play: nothing is timed)."""
    calls = []

    def fake(spec, players, lineup, games, seed, start=0):
        calls.append((lineup, games))
        cpu = 0.001 * games if lineup.startswith("balanced") else 0.05 * games
        return {"games": games, "cpu_s": cpu, "wins": games // 2, "shared": 0}

    monkeypatch.setattr(bench, "play_rotated", fake)
    lines = []
    res = bench.run_curve(get_game("sunken-city"), games=100, echo=lines.append)["sunken-city"]
    assert res["players"] == 3 and res["reference"] == "balanced"
    assert ("balanced,balanced,balanced", 2000) in calls
    assert ("search:budget=7,balanced,balanced", 100) in calls
    assert ("trained,balanced,balanced", 100) in calls
    assert [p["budget"] for p in res["points"]] == [2, 7, 28, 0, 28]
    assert [p["player"] for p in res["points"]][-2:] == ["trained", "search:base=trained,budget=28"]
    assert res["points"][0]["cost_ratio"] == pytest.approx(50.0)
    assert res["points"][0]["win_rate"] == 0.5 and len(lines) == 5


def test_search_curve_table():
    """One aligned line per point, the reading of the Elo column, nothing without a curve."""
    from analysis.render import search_curve_lines

    point = bench.curve_point(70, 100, 0, 3) | {
        "budget": 64,
        "games": 100,
        "cpu_ms_per_game": 30.5,
        "cost_ratio": 230.0,
    }
    other = point | {"budget": 1024, "player": "search:budget=1024"}
    curve = {"sunken-city": {"players": 3, "points": [point, other]}}
    lines = search_curve_lines(curve)
    rows = [line for line in lines if line.startswith("sunken-city")]
    assert len(rows) == 2 and len({len(line) for line in lines[2:5]}) == 1
    assert "70.0% (60.4-78.1)" in rows[0] and "33.3%" in rows[0]
    assert "30.50" in rows[0] and rows[0].endswith("230.0") and "budget=1024" in rows[1]
    assert "fair share" in lines[-1] and "Elo" in lines[-1]
    assert search_curve_lines({}) == []
