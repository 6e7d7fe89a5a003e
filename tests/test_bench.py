"""`balance bench`: the table, the reuse of its rates by --full, the plain-Python timing and a
failed measurement reported as one line (no traceback)."""

from __future__ import annotations

import pytest

from simcore.studies import bench


def test_run_bench_table_and_rates():
    lines = []
    res = bench.run_bench("sunken-treasure", 300, 1, echo=lines.append)
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
    res = bench.run_bench("sunken-treasure", 100, 3, echo=lambda line: None)
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
        bench.run_bench("sumeria", 10, 1, echo=lambda line: None, policy="nosuch")
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
        "sunken-treasure", 50, 1, echo=lambda line: None, policy="balanced:hunt=2"
    )
    assert {r["policy"] for r in res["results"]} == {"balanced:hunt=2"}
    res = bench.run_bench(None, 50, 1, echo=lambda line: None, policy="balanced:hunt=2")
    assert {r["game"] for r in res["results"]} == {"sunken-treasure"}
