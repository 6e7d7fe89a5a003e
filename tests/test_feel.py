"""How the game feels (#26): the metrics on hand-made rows whose values are known, their sums
in a summary (exact, the same in every chunking), the intervals (a plain mean's t interval,
Wilson for the rates, the delta method for the ratios against a bootstrap)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from scipy import stats as st

from analysis.compare import comparison_table
from analysis.stats import wilson
from analysis.summary import feel_json, feel_table
from simcore.base.metrics import (
    FEEL_METRICS,
    FEEL_PARTS,
    PPM,
    STANDING_COLUMNS,
    ArmMoments,
    feel_parts,
    game_metrics,
    has_feel,
    metric_list,
    shown_metrics,
)
from simcore.run.chunks import SCORE_BINS, Summary
from simcore.studies.compare import Arm, arm_moments

# Three games of 3 players, values known by hand:
# A: seat 0 leads throughout and wins 10-5-3: no lead change, drama 0, decided at once, the
#    half-time leader (0) wins, the half-time last (2) does not; margin 5.
# B: seat 1 wins 8-7-1 on the last of 4 turns, from last place at half-time: 3 lead changes,
#    drama 0.5, decisiveness 3/4, the half-time leader (0) loses: a comeback; margin 1.
# C: a shared win (5-5-2, winner -1): 2 lead changes, no drama, decisiveness or margin; the
#    half-time lead was tied (-1); the half-time last (2) did not win; nobody led alone for
#    the first 2 of its 5 turns (A and B had a unique leader after their first turn): the
#    tied opening is (0 + 0 + 2/5) / 3, and 2 of the 3 games have a unique leader at half-time.
HAND = pd.DataFrame(
    {
        "winner": [0, 1, -1],
        "lead_changes": [0, 3, 2],
        "drama_ppm": [0, 500_000, -1],
        "decisive_ppm": [0, 750_000, -1],
        "half_leader": [0, 0, -1],
        "half_last": [2, 1, 2],
        "standing_turns": [6, 4, 5],
        "opening_ppm": [0, 0, 400_000],
        "score_0": [10, 7, 5],
        "score_1": [5, 8, 5],
        "score_2": [3, 1, 2],
    }
)
KNOWN = {  # metric -> (value, games it rests on)
    "lead_changes": (5 / 3, 3),
    "drama": (0.25, 2),
    "decisiveness": (0.375, 2),
    "runaway": (0.5, 2),
    "comeback": (1 / 3, 3),
    "margin": (3.0, 2),
    "half_known": (2 / 3, 3),
    "opening": (0.4 / 3, 3),
}


def _parts(df: pd.DataFrame, players: int = 3) -> np.ndarray:
    return feel_parts(lambda c: df[c].to_numpy(), players)


def _summary(df: pd.DataFrame, players: int = 3) -> Summary:
    s = Summary(players, 1, 1, [], n_feel=len(FEEL_PARTS))
    s.games = len(df)
    s.add_scores(np.stack([df[f"score_{k}"].to_numpy() for k in range(players)]))
    s.add_feel(_parts(df, players))
    return s


def test_hand_made_games_have_their_known_values():
    t = feel_table(_summary(HAND)).set_index("metric")
    assert list(t.index) == [m.name for m in FEEL_METRICS] == list(KNOWN)
    for name, (value, n) in KNOWN.items():
        assert t.loc[name, "value"] == pytest.approx(value, abs=1e-12), name
        assert t.loc[name, "n"] == n, name
        assert t.loc[name, "ci_low"] <= value <= t.loc[name, "ci_high"], name
    # the winner led throughout (game A alone): 0 lead changes, drama 0, decisiveness 0
    a = feel_table(_summary(HAND.iloc[:1])).set_index("metric")
    assert a.loc[["lead_changes", "drama", "decisiveness"], "value"].tolist() == [0, 0, 0]
    assert (a.loc["runaway", "value"], a.loc["comeback", "value"]) == (1.0, 0.0)
    # decided on the last turn, from last place at half-time (game B alone)
    b = feel_table(_summary(HAND.iloc[1:2])).set_index("metric")
    assert b.loc["decisiveness", "value"] == 0.75 and b.loc["comeback", "value"] == 1.0
    assert b.loc["margin", ["p10", "p50", "p90"]].tolist() == [1, 1, 1]


def test_parts_split_ppm_into_whole_numbers_and_check_the_contract():
    p = _parts(HAND)
    hi, lo = FEEL_PARTS.index("feel.drama_hi"), FEEL_PARTS.index("feel.drama_lo")
    assert p[1, hi] * 1000 + p[1, lo] == 500_000 and p.min() >= 0
    bad = HAND.copy()
    bad.loc[0, "drama_ppm"] = PPM + 1
    with pytest.raises(ValueError, match="drama_ppm"):
        _parts(bad)
    bad = HAND.copy()
    bad.loc[0, "score_1"] = 11  # the winner scored less than seat 1
    with pytest.raises(ValueError, match="negative"):
        _parts(bad)
    far = HAND.copy()
    far.loc[0, ["half_leader", "half_last"]] = -2  # out of the tracker's reach: left out
    p = _parts(far)
    known = [FEEL_PARTS.index(c) for c in ("feel.leader_known", "feel.last_known")]
    assert p[:, known].tolist() == [[0, 0], [1, 1], [0, 1]]
    assert has_feel(STANDING_COLUMNS, 2) and not has_feel(STANDING_COLUMNS, 1)
    assert not has_feel(STANDING_COLUMNS[:-1], 3)


def _random_rows(n: int, seed: int, players: int = 3) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    scores = rng.integers(0, 3000, (n, players))
    top = scores.max(axis=1)
    winner = np.where((scores == top[:, None]).sum(axis=1) == 1, scores.argmax(axis=1), -1)
    won = winner >= 0
    return pd.DataFrame(
        {
            "winner": winner,
            "lead_changes": rng.poisson(2.0, n),
            "drama_ppm": np.where(won, rng.integers(0, PPM + 1, n) * (rng.random(n) < 0.6), -1),
            "decisive_ppm": np.where(won, rng.integers(0, PPM + 1, n), -1),
            "half_leader": np.where(rng.random(n) < 0.8, np.where(won, winner, 0), -1),
            "half_last": rng.integers(-1, players, n),
            "standing_turns": rng.integers(5, 40, n),
            "opening_ppm": rng.integers(0, PPM + 1, n) * (rng.random(n) < 0.4),
            **{f"score_{k}": scores[:, k] for k in range(players)},
        }
    )


def test_sums_are_exact_in_any_chunking_and_the_intervals_are_the_usual_ones():
    df = _random_rows(3000, 1)
    whole = _summary(df)
    parts = [_summary(df.iloc[i : i + 700]) for i in range(0, 3000, 700)]
    merged = parts[0]
    for s in parts[1:]:
        merged = merged.merge(s)
    assert merged.equals(whole) and merged.score_width == 10
    t = feel_table(whole).set_index("metric")
    # lead changes: a plain mean over every game, scipy's t interval
    x = df["lead_changes"].to_numpy()
    lo, hi = st.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=st.sem(x))
    assert t.loc["lead_changes", ["value", "ci_low", "ci_high"]].tolist() == pytest.approx(
        [x.mean(), lo, hi], rel=1e-9
    )
    # drama: the mean over the games with an outright winner; its delta-method interval is
    # the t interval of those games' mean up to (n_valid - 1) / (n - 1) corrections
    won = df["winner"].to_numpy() >= 0
    d = df["drama_ppm"].to_numpy()[won] / PPM
    assert t.loc["drama", "value"] == pytest.approx(d.mean(), rel=1e-12)
    assert t.loc["drama", "n"] == won.sum()
    half = (t.loc["drama", "ci_high"] - t.loc["drama", "ci_low"]) / 2
    assert half == pytest.approx(1.96 * st.sem(d), rel=0.01)
    # runaway: Wilson over the games with a unique half-time leader, as win rates are
    hl = df["half_leader"].to_numpy()
    k, n = int(((hl >= 0) & (hl == df["winner"].to_numpy())).sum()), int((hl >= 0).sum())
    w = wilson(k, n)
    assert t.loc["runaway", ["value", "ci_low", "ci_high", "n"]].tolist() == pytest.approx(
        [k / n, float(w[0]), float(w[1]), n]
    )
    # the margin: mean over outright games, quantiles from bins of score_width points
    m = (
        df[["score_0", "score_1", "score_2"]].to_numpy().max(axis=1)
        - np.sort(df[["score_0", "score_1", "score_2"]].to_numpy(), axis=1)[:, -2]
    )[won]
    assert t.loc["margin", "value"] == pytest.approx(m.mean(), rel=1e-12)
    assert abs(t.loc["margin", "p50"] - np.median(m)) <= 10


def test_json_shape():
    s = _summary(HAND)
    js = feel_json(feel_table(s), s)
    assert list(js) == list(KNOWN)
    for name, rec in js.items():
        assert {"label", "kind", "mean", "ci_low", "ci_high", "n"} <= set(rec), name
        assert rec["mean"] == pytest.approx(KNOWN[name][0]) and rec["n"] == KNOWN[name][1]
    assert js["margin"]["histogram"] == {1: 1, 5: 1}
    assert set(js["drama"]) == {"label", "kind", "mean", "ci_low", "ci_high", "n"}
    solo = Summary(1, 1, 1, [])
    assert solo.margin_hist.shape == (0, SCORE_BINS) and feel_table(solo).empty


def test_paired_ratio_difference_matches_a_bootstrap():
    """The delta-method standard error of a paired difference of ratios (drama, runaway) is
    that of the bootstrap over games (resampling games keeps both arms of a game together)."""
    a, b = _random_rows(4000, 2), _random_rows(4000, 3)
    # arm b shares much of arm a's games: the pairing matters
    b.loc[:2499] = a.loc[:2499].to_numpy()
    pa, pb = _parts(a), _parts(b)
    mo = ArmMoments(2, len(FEEL_PARTS), np.ones(len(FEEL_PARTS)))
    mo.add(np.stack([pa, pb]).astype(float))
    index = {c: i for i, c in enumerate(FEEL_PARTS)}
    rng = np.random.default_rng(4)
    for name in ("drama", "runaway"):
        m = next(x for x in FEEL_METRICS if x.name == name)
        num, den = m.vectors(index)
        d, se = mo.ratio_paired(1, num, den)

        def ratio(p, i, num=num, den=den):
            return (p[i] @ num).sum() / (p[i] @ den).sum()

        assert d == pytest.approx(ratio(pb, slice(None)) - ratio(pa, slice(None)), abs=1e-12)
        boot = []
        for _ in range(300):
            i = rng.integers(0, 4000, 4000)
            boot.append(ratio(pb, i) - ratio(pa, i))
        assert se == pytest.approx(np.std(boot), rel=0.15), name
        _, unpaired = mo.ratio_paired(1, num, den, paired=False)
        assert unpaired > 1.3 * se, name


def _synthetic_run(players: int = 3, games: int = 3000, edit=None):
    """An ArmRun-like object of two arms on partly the same synthetic games, with the
    standing columns (the compare machinery of simcore.studies.compare without a game engine);
    edit(a, b) may change the second arm's rows before they are summed."""
    spec = SimpleNamespace(game_counters=[], seat_counters=[], columns=list(STANDING_COLUMNS))
    metrics = metric_list(spec, players)
    a, b = _random_rows(games, 5), _random_rows(games, 6)
    b.loc[: games // 2] = a.loc[: games // 2].to_numpy()
    if edit is not None:
        edit(a, b)
    block, results = [], []
    for df in (a, b):
        w = df["winner"].to_numpy()
        df["win_mask"] = np.where(w >= 0, 1 << np.maximum(w, 0), 3)
        df["rounds"], df["turns"] = 8, df["standing_turns"]
        block.append(game_metrics(df, metrics, players))
        s = Summary(players, 1, 1, [])
        s.games, s.shared_wins = games, int((w < 0).sum())
        s.seat_wins = np.bincount(w[w >= 0], minlength=players)
        results.append(SimpleNamespace(summary=s, games=games))
    moments = arm_moments(2, metrics, players)
    moments.add(np.stack(block))
    run = SimpleNamespace(spec=spec, players=players, metrics=metrics, moments=moments)
    run.arms, run.results = [Arm("base"), Arm("other")], results
    run.index = {m.name: j for j, m in enumerate(metrics)}
    return run, (a, b)


def test_compare_has_every_feel_metric_paired_and_in_the_adjusted_family():
    run, (a, b) = _synthetic_run()
    t = comparison_table(run)
    other = t[t.arm == "other"].set_index("metric")
    names = [m.name for m in FEEL_METRICS]
    assert set(names) <= set(other.index) and not any(t.metric.str.startswith("feel."))
    won = b["winner"].to_numpy() >= 0
    assert other.loc["drama", "value"] == pytest.approx(b["drama_ppm"][won].mean() / PPM)
    assert other.loc["drama", "n"] == won.sum()
    drama_a = a["drama_ppm"][a["winner"] >= 0].mean() / PPM
    assert other.loc["drama", "diff"] == pytest.approx(other.loc["drama", "value"] - drama_a)
    assert other.loc[names, "diff_low"].lt(other.loc[names, "diff"]).all()
    assert other.loc[["runaway", "comeback"], "cohen_h"].notna().all()
    has = t["p_value"].notna()
    m = int(t["tests"].max())
    assert np.allclose(t.loc[has, "p_adjusted"], np.minimum(1, m * t.loc[has, "p_value"]))
    assert has.sum() > len(names) and m <= has.sum()
    assert all(other.loc[names, "verdict"].str.startswith("`other`"))
    # the sweep takes them as --metric choices (checked before anything is played)
    assert set(names) <= {m.name for m in shown_metrics(run.metrics)}


def _later(a, b):
    """The second arm decides its games later and opens them with a longer tie: every game
    with an outright winner is decided at 9/10 and has nobody alone in front for 8/10."""
    won = b["winner"] >= 0
    b.loc[won, "decisive_ppm"] = 900_000
    b["opening_ppm"] = 800_000


def test_a_feel_effect_that_comes_with_a_longer_tied_opening_says_so():
    """Issue #35: a variant's significant effect on decisiveness that comes with a significant
    change of the tied opening quotes the opening's record; without an opening change (or
    when the effect is not significant) there is no note."""
    run, _ = _synthetic_run(edit=_later)
    t = comparison_table(run)
    by_key = {v.key: v for v in t.attrs["verdicts"]}
    opening, later = by_key["3p/effect/other/opening"], by_key["3p/effect/other/decisiveness"]
    assert opening.significant and opening.estimate > 0 and later.significant
    assert later.note.startswith(f"with a longer tied opening ({opening.interval_text()}")
    assert "when the first lead appears" in later.note and later.note in later.sentence()
    row = t[(t.arm == "other") & (t.metric == "decisiveness")].iloc[0]
    assert row["verdict"] == later.sentence() and later.as_json()["note"] == later.note
    assert not by_key["3p/effect/other/margin"].note  # not a metric of the lead
    plain, _ = _synthetic_run()  # the same games but for chance: no opening effect
    for v in comparison_table(plain).attrs["verdicts"]:
        assert not v.note, v.key
