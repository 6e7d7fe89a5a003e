"""The bench figure of Pig (simcore.studies.bench.pig_overhead): the hand-written Pig is the
same game as the `pig` package's hold-at-20 against hold-at-20 (its first player wins 0.5347),
and the figure reports both rates and their ratio."""

from __future__ import annotations

import math

from simcore import get_game
from simcore.studies import bench
from simcore.studies.bench_pig import hand_pig


def test_the_hand_written_pig_is_hold_at_20_against_hold_at_20():
    n = 1_000_000
    rate = hand_pig(n, 3) / n
    assert abs(rate - 0.5347) <= 3.29 * math.sqrt(0.25 / n) + 0.00005, rate


def test_pig_overhead_prints_both_rates_and_the_ratio():
    lines = []
    res = bench.pig_overhead(1, games=20_000, echo=lines.append)
    assert res["frame_games_per_s_1"] > 0 and res["hand_games_per_s_1"] > 0
    assert res["overhead"] == res["hand_games_per_s_1"] / res["frame_games_per_s_1"]
    assert len(lines) == 1 and "through the frame" in lines[0] and "overhead x" in lines[0]


def test_balance_bench_of_pig_has_the_figure():
    lines = []
    res = bench.bench(get_game("pig"), 1000, 1, echo=lines.append)
    assert "pig_overhead" in res and lines[-1].startswith("pig, hold-at-20")
