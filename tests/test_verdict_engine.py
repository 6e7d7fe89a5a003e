"""The verdict engine (simcore.base.verdicts): direction words from the sign, the interval
the call rests on, one sign convention, and a classification that does not follow the number of
games."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.stats import multinomial_diff_ci
from simcore.base.verdicts import (
    Wording,
    all_seat_pairs,
    change_words,
    classify,
    effect_wording,
    fpa_change_words,
    games_needed,
    seat_pair,
    z_verdict,
)

W = Wording("is higher", "is lower", "no change")


@pytest.mark.parametrize("wins", [(310, 263, 349), (349, 263, 310), (200, 200, 100), (5, 0, 0)])
def test_a_seat_pair_is_always_the_winner_minus_the_other(wins):
    for v in all_seat_pairs(wins, 1000):
        assert v.estimate >= 0
        a = int(v.quantity.split("'s")[0].removeprefix("seat "))  # the seat that wins more
        if v.sign:
            assert v.words.startswith(f"seat {a} wins more often than seat")
            assert v.low > 0
        else:
            assert "no difference detected" in v.words


def test_the_interval_printed_is_the_one_the_call_rests_on():
    rng = np.random.default_rng(1)
    for _ in range(500):
        est, se = rng.normal(0, 1), rng.uniform(0.1, 1)
        tests = int(rng.integers(1, 6))
        v = z_verdict("k", "q", "points", est, se, 1000, W, tests=tests)
        assert v.significant == (v.p < v.alpha) == (v.low > 0 or v.high < 0)
        assert (v.sign > 0) == (v.significant and v.estimate > 0)
        assert v.words == {1: "is higher", -1: "is lower", 0: "no change"}[v.sign]
        assert ("adjusted" in v.sentence()) == (tests > 1)


def test_seat_pairs_are_simultaneous_intervals_at_alpha_over_the_pairs():
    wins, games = (310, 263, 349), 1000
    vs = {v.key: v for v in all_seat_pairs(wins, games)}
    d, lo, hi = multinomial_diff_ci(349, 263, games, 0.05 / 3)
    v = vs["3p/seat_pair/1-2"]
    assert v.tests == 3
    assert v.estimate == pytest.approx(100 * d) and v.low == pytest.approx(100 * lo)
    assert v.high == pytest.approx(100 * hi)
    assert v.words == "seat 2 wins more often than seat 1"


def test_negated_keeps_the_answer():
    v = seat_pair(3, (0, 2), [310, 0, 349], 1000)
    n = v.negated()
    assert n.estimate == -v.estimate and (n.low, n.high) == (-v.high, -v.low)
    assert n.sign == -v.sign and n.wording.more == v.wording.less
    assert n.words == (v.wording.none if v.sign == 0 else v.wording.more)


def test_a_change_of_sign_is_worded_as_such():
    assert change_words(0.2, -1.5, "first-player advantage", "points") == (
        "turns the first-player advantage from +0.2 to -1.5 points"
    )
    assert change_words(-1.0, -3.0, "first-player advantage", "points").startswith("lowers")
    assert change_words(1.0, 3.0, "first-player advantage", "points").startswith("raises")


def test_a_negative_first_player_advantage_is_a_handicap():
    assert fpa_change_words(-7.7, -5.1, "points") == (
        "shrinks the first player's handicap from 7.7 to 5.1 points"
    )
    assert fpa_change_words(-5.1, -7.7, "points").startswith("widens the first player's handicap")
    assert fpa_change_words(0.2, -1.5, "points") == (
        "turns the first player's advantage of 0.2 points into a handicap of 1.5 points"
    )
    assert fpa_change_words(-0.2, 1.5, "points").endswith("into an advantage of 1.5 points")
    assert fpa_change_words(1.0, 3.0, "points").startswith("raises the first-player advantage")
    w = effect_wording("no-chips", "fpa", "first-player advantage", "", "", -7.7, -5.1, "points")
    text = "`no-chips` shrinks the first player's handicap from 7.7 to 5.1 points"
    assert w.more == w.less == text


def z_from(w0: int, games: int):
    est = 100 * (2 * w0 - games) / games
    p = w0 / games
    se = 100 * 2 * np.sqrt(p * (1 - p) / games)
    return z_verdict("2p/fpa", "seat 0 minus seat 1", "points", est, se, games, W)


def _grid(games: int, rng, true_p: float = 0.525):
    ref = z_from(rng.binomial(games, true_p), games)
    kinds = ("players", "components")
    settings = [
        (f"s{k}", kinds[k % 2], z_from(rng.binomial(games, true_p), games)) for k in range(6)
    ]
    return classify(ref, settings)


@pytest.mark.parametrize("games", [2000, 3000, 20000])
def test_the_class_does_not_follow_the_number_of_games(games):
    """A true effect of 5 points in the reference and in every setting: the verdict holds or
    is inconclusive, never 'depends', whatever the games per setting (one fixed draw)."""
    c = _grid(games, np.random.default_rng(11))
    assert c.status in ("holds", "inconclusive"), c.label()
    assert not any(s.against for s in c.settings)


def test_a_setting_counts_against_no_more_often_than_alpha():
    """With the same true effect everywhere, 'depends' (a false interaction or reversal) comes
    out in at most about alpha of the grids: the interaction tests are adjusted over the
    settings."""
    rng = np.random.default_rng(5)
    for games in (2000, 20000):
        depends = np.mean([_grid(games, rng).status == "depends" for _ in range(400)])
        assert depends <= 0.05 + 0.025, (games, depends)


def test_a_reversed_setting_makes_it_depend_on_its_kind():
    rng = np.random.default_rng(3)
    games = 20000
    ref = z_from(rng.binomial(games, 0.53), games)
    rev = z_from(rng.binomial(games, 0.47), games)
    same = z_from(rng.binomial(games, 0.53), games)
    c = classify(ref, [("greedy", "players", rev), ("reading", "components", same)])
    assert c.status == "depends" and c.depends_on == ("players",)
    assert c.label() == "depends on players"
    assert [s.state for s in c.settings] == ["reversed", "agrees"]


def test_an_inconclusive_reference_says_how_many_games_would_decide_it():
    ref = z_verdict("k", "q", "points", 1.0, 1.0, 1000, W)  # 1 +- 2 points: too few games
    c = classify(ref, [])
    assert c.status == "inconclusive"
    # se shrinks with sqrt(games): (1.96 + 0.84)^2 * 1000 * (1 / 1)^2 games
    assert c.games_to_decide == games_needed(ref) == int(np.ceil(1000 * (1.959964 + 0.841621) ** 2))
    narrow = z_verdict("k", "q", "points", 0.1, 0.2, 100000, W)
    assert classify(narrow, []).status == "not detected"


def test_games_needed_reaches_the_power_it_plans_for():
    """At the planned games, an effect equal to the estimate is significant in about 80% of
    draws (simulated)."""
    v = z_verdict("k", "q", "points", 2.0, 1.5, 1000, W)
    n = games_needed(v)
    rng = np.random.default_rng(7)
    se_n = 1.5 * np.sqrt(1000 / n)
    hits = np.mean(np.abs(rng.normal(2.0, se_n, 20000)) / se_n > 1.959964)
    assert abs(hits - 0.8) < 0.02
