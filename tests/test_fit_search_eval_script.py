"""tools/fit_search_eval.py (what a Sunken City position says about its winner, issue #37): the
conditional logit's fit and log loss on games drawn from known coefficients, and a short run."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.perf_scripts import load_script


def _drawn(b, positions=20_000, seats=3, seed=1):
    """Features from a normal law and, for each position, one winner drawn with the chance
    exp(b . f_k) / sum_j exp(b . f_j): the share of the win is 1 for it, 0 for the others."""
    rng = np.random.default_rng(seed)
    feats = rng.normal(size=(positions, seats, len(b)))
    u = feats @ np.asarray(b)
    p = np.exp(u) / np.exp(u).sum(axis=1, keepdims=True)
    winner = (rng.random(positions)[:, None] > np.cumsum(p, axis=1)).sum(axis=1)
    share = np.zeros((positions, seats))
    share[np.arange(positions), winner] = 1.0
    return feats, share


def test_the_fit_finds_the_coefficients_the_winners_were_drawn_from():
    tool = load_script("fit_search_eval")
    b = [0.8, -0.5, 0.0]
    feats, share = _drawn(b)
    fitted = tool.fit(feats, share)
    assert fitted == pytest.approx(b, abs=0.05)
    # the fitted utilities predict better than the fair share, and the fair share's loss is
    # log(seats)
    assert tool.log_loss(feats @ fitted, share) < tool.log_loss(0 * share, share)
    assert tool.log_loss(0 * share, share) == pytest.approx(math.log(3))


def test_shared_wins_count_as_shares():
    """A two-way tie in every position: the loss is the mean of -0.5 log p over the tied
    seats, and the fit sees no difference between seats with equal features."""
    tool = load_script("fit_search_eval")
    share = np.tile([0.5, 0.5, 0.0], (4, 1))
    u = np.tile([1.0, 1.0, 0.0], (4, 1))
    p = math.e / (2 * math.e + 1)
    assert tool.log_loss(u, share) == pytest.approx(-math.log(p))


@pytest.mark.slow  # compiles the tool's own kernels (not cached): about 50 s
def test_a_short_run_prints_every_player_count(capsys):
    assert load_script("fit_search_eval").main(["40"]) == 0
    out = capsys.readouterr().out
    for players in (2, 3, 4):
        assert f"{players} players: " in out
    assert "favourite won" in out and "coefficients: banked" in out
