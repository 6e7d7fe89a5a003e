"""Comparisons on common random numbers: the paired moments against scipy on the rows, paired
intervals narrower than unpaired ones, the false-alarm rate of identical arms, Holm, verdicts."""

from __future__ import annotations

import re

import numpy as np
import pytest
from scipy import stats as st

from analysis.compare import comparison_table, t_interval
from simcore import RulesError, get_game, simulate
from simcore.base.errors import InputError
from simcore.base.metrics import ArmMoments, game_metrics, metric_list
from simcore.studies.compare import Arm, parse_arm_text, run_arms, set_arm, variant_arm
from tests.conftest import compare, dice_analysis, sweep

SC = "sunken-city"


@pytest.fixture(scope="module")
def short_run():
    """base vs short, 3 random players, 3,000 games on the same seeds (in chunks of 1,000)."""
    arms = [variant_arm("base"), variant_arm("short")]
    return run_arms(get_game(SC), 3, arms, 3000, seed=5, policies="random", chunk_size=1000)


def test_moments_match_scipy_on_the_rows(short_run):
    """The paired interval from the running sums equals scipy's paired t-test on the rows."""
    spec = get_game(SC)
    metrics = metric_list(spec, 3)
    j = [m.name for m in metrics].index("rounds")
    x = []
    for v in ("base", "short"):
        res = simulate(
            get_game(SC), 3, 3000, variants=[v], policies="random", seed=5, keep_rows=True
        )
        x.append(game_metrics(res.rows, metrics, 3)[:, j])
    ref = st.ttest_rel(x[1], x[0])
    ci = ref.confidence_interval()
    c = np.zeros(len(metrics))
    c[j] = 1
    d, se = short_run.moments.paired(1, c)
    lo, hi, p = t_interval(d, se, short_run.moments.n)
    assert d == pytest.approx(np.mean(x[1] - x[0]))
    assert (lo, hi) == pytest.approx((ci.low, ci.high), rel=1e-6)
    assert p == pytest.approx(ref.pvalue, rel=1e-6, abs=1e-300)
    # the unpaired standard error is the one of two independent samples (Welch)
    _, se_u = short_run.moments.unpaired(1, c)
    assert se_u == pytest.approx(np.sqrt(x[0].var(ddof=1) / 3000 + x[1].var(ddof=1) / 3000))


def test_paired_interval_narrower_than_unpaired(short_run):
    """Common random numbers: the same data analysed per game gives a much narrower interval
    for the length difference than the unpaired analysis of the same games."""
    paired = comparison_table(short_run, paired=True).set_index(["metric", "arm"])
    unpaired = comparison_table(short_run, paired=False).set_index(["metric", "arm"])
    for metric in ("rounds", "turns"):
        wp = paired.loc[(metric, "short"), "diff_high"] - paired.loc[(metric, "short"), "diff_low"]
        wu = (
            unpaired.loc[(metric, "short"), "diff_high"]
            - unpaired.loc[(metric, "short"), "diff_low"]
        )
        assert wp < 0.7 * wu, (metric, wp, wu)
    # the point estimates are the same; only the intervals differ
    assert paired.loc[("rounds", "short"), "diff"] == unpaired.loc[("rounds", "short"), "diff"]


def test_identical_arms_identical_games():
    """Two identical arms play identical games: every difference is exactly 0, p = 1."""
    comp = compare(
        get_game(SC), 2, [variant_arm("base"), variant_arm("base")], 500, policies="random"
    )
    t = comp.table.dropna(subset=["diff"])
    assert (t["diff"] == 0).all() and (t["p_value"] == 1).all() and not t["significant"].any()
    assert list(dict.fromkeys(comp.table["arm"])) == ["base", "base #2"]


def test_equivalent_arms_false_alarm_rate():
    """A die with its faces in another order has the same distribution but different games:
    over 40 seeds the table (Bonferroni, family-wise 5%) calls a difference in at most ~5% of the
    seeds, and single raw p-values fall below 0.05 about 5% of the time."""
    arms = [set_arm("die=0,1,1,2,2,3"), set_arm("die=3,2,2,1,1,0")]
    flagged, raw = 0, []
    seeds = range(40)
    for seed in seeds:
        comp = compare(get_game(SC), 3, arms, 1500, seed=seed, policies="random")
        t = comp.table.dropna(subset=["p_value"])
        assert (t["diff"] != 0).any()  # not the same games
        flagged += bool(t["significant"].any())
        raw += list(t[t.metric.isin(["rounds", "win_0", "spirit_moves", "sent_home"])].p_value)
    # binomial(40, 0.05): P(X >= 7) < 0.005
    assert flagged <= 6, flagged
    assert 0.01 <= np.mean(np.array(raw) < 0.05) <= 0.11


def test_the_calls_are_adjusted_over_the_table(short_run):
    """Bonferroni over the table's tests: the adjusted p is min(1, m p), the adjusted
    interval is the t interval at 0.05 / m, and a change is called exactly when that
    interval excludes 0 (scipy's t, recomputed here)."""
    from scipy import stats as st

    t = comparison_table(short_run)
    has = t["p_value"].notna()
    m = int(t.loc[has, "tests"].max())
    varies = has & ~((t["se"] <= 0) & (t["diff"] == 0))
    assert m == varies.sum() and m > 10
    r = t[varies]
    assert np.allclose(r["p_adjusted"], np.minimum(1, m * r["p_value"]))
    q = st.t.ppf(1 - 0.05 / m / 2, short_run.moments.n - 1)
    assert np.allclose(r["adj_low"], r["diff"] - q * r["se"])
    assert np.allclose(r["adj_high"], r["diff"] + q * r["se"])
    assert (t["significant"] == (t["p_adjusted"] < 0.05)).all()
    assert (r["significant"] == ((r["adj_low"] > 0) | (r["adj_high"] < 0))).all()
    assert t.loc[~has, "arm"].eq("base").all()  # the baseline has no test


def _numbers(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"[-+]?\d+\.\d+|[-+]?\d+", text)]


def test_verdicts_agree_with_the_numbers(short_run):
    """Every verdict: its direction word from the sign of the difference, the number and the
    interval it prints the adjusted ones of the table (rates in points), 'adjusted' beside."""
    t = comparison_table(short_run)
    rows = t[t["arm"] == "short"]
    assert len(rows) > 10
    records = {v.key: v for v in t.attrs["verdicts"]}
    for r in rows.itertuples():
        text = r.verdict
        v = records[f"3p/effect/short/{r.metric}"]
        if v.low == v.high == v.estimate == 0:  # no game differs: said so, no interval
            assert text == f"`short`: the same {r.label} in every game", text
            continue
        assert text == v.sentence()
        assert text.startswith("`short`")
        k = 100 if r.kind == "rate" else 1
        assert v.estimate == pytest.approx(r.diff * k)
        assert (v.low, v.high) == pytest.approx((r.adj_low * k, r.adj_high * k))
        num = r"([-+]\d+(?:\.\d+)?)"
        est, lo, hi = re.findall(rf"{num}[^(:]*\(95% CI {num} to {num}", text)[-1]
        tol = 0.51 * 10 ** -(len(est.split(".")[1]) if "." in est else 0)
        assert float(est) == pytest.approx(v.estimate, abs=tol)
        assert float(lo) == pytest.approx(v.low, abs=tol)
        assert float(hi) == pytest.approx(v.high, abs=tol)
        if v.tests > 1:
            assert f"adjusted over {v.tests} tests" in text
        if not r.significant:
            assert "no change" in text, text
        elif r.metric != "fpa":
            up = v.wording.more in text
            assert up == (r.diff > 0), text


def test_headline_format(short_run):
    from analysis.compare import headlines

    t = comparison_table(short_run)
    (line,) = headlines(t)
    records = {v.key: v for v in t.attrs["verdicts"]}
    assert line.startswith("short: ")
    for name in ("rounds", "largest_gap", "fpa"):
        assert records[f"3p/effect/short/{name}"].sentence() in line


def test_arm_texts():
    assert parse_arm_text("die=0,1,1,2,2,3,chips=false") == {"die": "0,1,1,2,2,3", "chips": "false"}
    assert set_arm("die=black").overrides == (("die", "black"),)
    for bad in ("", "chips", "=3"):
        with pytest.raises(RulesError):
            parse_arm_text(bad)
    with pytest.raises(RulesError, match="unknown variant"):
        compare(get_game(SC), 3, [variant_arm("base"), variant_arm("turbo")], 10)
    with pytest.raises(InputError, match="at least two arms"):
        compare(get_game(SC), 3, [variant_arm("base")], 10)
    with pytest.raises(RulesError, match="unknown rules key"):
        compare(get_game(SC), 3, [variant_arm("base"), Arm("x", (), (("colour", "red"),))], 10)


def test_dice_and_sweep_api():
    d = dice_analysis(get_game(SC), [2, 4], 300, dice=["1,1,2,2,3,3", "black"], policies="random")
    t = d["table"]
    assert set(t["players"]) == {2, 4} and len(t) == 8  # three box dice + one given, per count
    assert t.groupby("players")["fairest"].sum().eq(1).all()
    assert t[t.rulebook].set_index("players")["die"].to_dict() == {2: "beige", 4: "purple"}
    assert len(d["verdicts"]) == 2
    text = "\n".join(d["verdicts"])
    for p, grp in t.groupby("players"):
        best = grp.loc[grp["fairest"], "die"].iloc[0]
        assert grp.loc[grp["fairest"], "largest_gap"].iloc[0] == grp["largest_gap"].min()
        assert (
            f"{p} players: {best} is the fairest die" in text
            or f"{p} players: no die is clearly fairer: {best} has the smallest gap" in text
        )
    with pytest.raises(RulesError):
        dice_analysis(get_game(SC), [3], 10, dice=["green"])
    with pytest.raises(RulesError, match="die rules field"):
        dice_analysis(get_game("sumeria"), [3], 10)
    s = sweep(get_game(SC), 3, ["owner_limit=2,2,2;3,3,3"], 300, policies="random")
    assert list(s["table"]["owner_limit"].unique()) == ["2,2,2", "3,3,3"]
    with pytest.raises(RulesError, match="not a rules field"):
        sweep(get_game(SC), 3, ["colour=1,2"], 10)
    with pytest.raises(RulesError, match="';'"):
        sweep(get_game(SC), 3, ["die=0,1,1"], 10)


def test_moments_accumulate_like_one_block():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(2, 500, 4))
    a, b = ArmMoments(2, 4), ArmMoments(2, 4)
    a.add(x)
    b.add(x[:, :200])
    b.add(x[:, 200:])
    assert np.allclose(a.cov(1, 0), b.cov(1, 0)) and np.allclose(a.cov(1), b.cov(1))
    assert np.allclose(a.cov(1, 0), np.cov(x[1].T, x[0].T)[:4, 4:])


def test_chunking_does_not_change_a_single_bit():
    """The moments are sums of whole numbers (the first-player advantage scaled by the
    player count): chunks of any size merge to exactly the same table. (With the advantage
    summed as thirds, this seed and chunking moved some p-values by 1e-15.)"""
    arms = [variant_arm("base"), set_arm("die=black"), variant_arm("no-chips")]
    one = compare(get_game(SC), 3, arms, 5000, seed=1, policies="random").table
    many = compare(get_game(SC), 3, arms, 5000, seed=1, policies="random", chunk_size=333).table
    assert one.equals(many)
