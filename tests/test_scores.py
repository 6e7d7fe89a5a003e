"""Score distributions: the per-seat score histograms survive merging (any chunking gives the
same histogram), their bins suit every game's score range, and what `simulate --json` and
the report show sums to the games played and agrees with the rows."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.summary import result_json, score_table
from simcore import get_game, simulate
from simcore.run.chunks import SCORE_BINS, Summary

PLAYERS = 3
COLUMNS = ["winner", "win_mask", "rounds", "turns", "end_reason", "error"] + [
    f"{c}_{s}" for c in ("score", "tiebreak", "policy") for s in range(PLAYERS)
]
COL = {c: i for i, c in enumerate(COLUMNS)}


def _rows(scores: np.ndarray) -> np.ndarray:
    """Result rows (only what Summary.add_rows reads) of games with these final scores
    (int64[games, seats]); the highest score wins."""
    rows = np.zeros((len(scores), len(COLUMNS)), dtype=np.int64)
    rows[:, COL["winner"]] = scores.argmax(axis=1)
    rows[:, COL["win_mask"]] = 1 << rows[:, COL["winner"]]
    rows[:, COL["rounds"]] = 8
    for s in range(PLAYERS):
        rows[:, COL[f"score_{s}"]] = scores[:, s]
    return rows


def _summary(rows: np.ndarray) -> Summary:
    s = Summary(PLAYERS, 1, 1, [])
    s.add_rows(rows, COL)
    return s


@pytest.mark.parametrize("scale,width", [(1, 1), (1000, 100)])
def test_merged_chunks_keep_the_score_histogram(scale, width):
    """Three chunks merged in any order give the histogram of all games at once: it sums to
    the games played for every seat and equals the counts of the rows' scores. Scores of a
    Sunken Treasure-like game (multiples of 1,000 up to 40,000) get bins of 100, each holding
    exactly one of its scores; small scores get bins of 1."""
    rng = np.random.default_rng(4)
    scores = rng.integers(0, 41, size=(3000, PLAYERS)) * scale
    scores[:1000] //= 50  # the first chunk alone needs narrower bins than the others
    rows = _rows(scores)
    whole = _summary(rows)
    parts = [_summary(rows[a:b]) for a, b in ((0, 1000), (1000, 1700), (1700, 3000))]
    assert parts[0].score_width <= width
    merged = parts[0].merge(parts[1]).merge(parts[2])
    other_order = parts[2].merge(parts[0].merge(parts[1]))
    for s in (merged, other_order):
        assert s.equals(whole)
        assert s.score_width == width
        assert (s.score_hist.sum(axis=1) == 3000).all()
        for seat in range(PLAYERS):
            ref = np.bincount(scores[:, seat] // width, minlength=SCORE_BINS)
            assert np.array_equal(s.score_hist[seat], ref)
    # what the report and the JSON show: each score with its games
    t = score_table(merged.score_hist, merged.score_width, 3000)
    assert t.groupby("seat")["games"].sum().eq(3000).all()
    seat0 = t[(t.seat == 0) & (t.games > 0)]
    values, counts = np.unique(scores[:, 0] // width * width, return_counts=True)
    assert list(seat0.score) == list(values) and list(seat0.games) == list(counts)


def test_equals_sees_the_score_histogram():
    a = _summary(_rows(np.array([[3, 1, 2], [0, 5, 1]])))
    b = _summary(_rows(np.array([[3, 1, 2], [0, 5, 2]])))  # only seat 2's score differs
    assert not a.equals(b)


def test_negative_scores_are_refused():
    with pytest.raises(ValueError, match="below 0"):
        _summary(_rows(np.array([[3, -1, 2]])))


@pytest.mark.parametrize("game,players", [("sunken-city", 3), ("sunken-treasure", 2)])
def test_simulate_json_score_distribution_agrees_with_the_rows(game, players):
    """`simulate --json`'s score_distribution, played in several chunks: non-empty, sums to
    the games played for every seat, and counts exactly the rows' scores (in bins of
    score_bin_width points)."""
    res = simulate(get_game(game), players, 600, seed=3, chunk_size=250, keep_rows=True)
    js = result_json(res)
    width = js["score_bin_width"]
    assert len(js["score_distribution"]) == players
    for seat, dist in enumerate(js["score_distribution"]):
        assert sum(dist.values()) == 600
        values, counts = np.unique(res.rows[f"score_{seat}"] // width * width, return_counts=True)
        assert dist == dict(zip(values.tolist(), counts.tolist()))
    if game == "sunken-treasure":
        assert width == 100 and all(k % 1000 == 0 for k in js["score_distribution"][0])
