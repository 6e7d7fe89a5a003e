"""Chutes and Ladders' known answers: the exact Markov chain (simcore.games.chutes_and_ladders.
markov) gives the published expected length of a 1-player game, 39.2251 spins (Althoen, King &
Schilling 1993), and the simulation agrees with the chain within its 99.9% interval: the mean
length, the length distribution, and each seat's share of the wins."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from simcore import get_game, simulate
from simcore.games.chutes_and_ladders import markov
from simcore.games.chutes_and_ladders.board import LADDERS
from simcore.games.chutes_and_ladders.rules import ChutesAndLaddersRules

PUBLISHED = 39.2251  # Althoen, King & Schilling, The Mathematical Gazette 77 (1993)
Z999 = stats.norm.ppf(0.9995)  # two-sided 99.9%
GAMES = 400_000
RULES = ChutesAndLaddersRules()


def test_the_markov_chain_gives_the_published_expected_length():
    assert round(markov.expected_spins(RULES), 4) == PUBLISHED
    # the same number from the length distribution (the chain run spin by spin)
    f = markov.length_distribution(RULES, 3000)
    assert abs(float(np.arange(f.size) @ f) - markov.expected_spins(RULES)) < 1e-9


def test_the_chain_of_a_plain_race():
    """Without links and with a 1-face spinner of 1 the game is 100 spins exactly; the board's
    ladders alone shorten the plain race (which takes at least 100 / 3.5 spins), the board's
    chutes lengthen it past the plain race."""
    one = ChutesAndLaddersRules(links=(), spinner=(1,))
    assert markov.expected_spins(one) == pytest.approx(100.0)
    race = markov.expected_spins(ChutesAndLaddersRules(links=()))
    ladders = markov.expected_spins(ChutesAndLaddersRules(links=LADDERS))
    assert ladders < 100 / 3.5 < race < PUBLISHED


def test_an_unreachable_finish_is_refused_by_the_chain():
    with pytest.raises(ValueError, match="cannot be reached"):
        markov.expected_spins(ChutesAndLaddersRules(links=(), spinner=(99,)))


def rows(players: int, games: int = GAMES, seed: int = 34, **kw):
    return simulate(
        get_game("chutes-and-ladders"),
        players,
        games,
        seed=seed,
        keep_rows=True,
        checked=False,
        **kw,
    ).rows


def test_the_simulated_mean_length_is_the_published_one():
    r = rows(1, games=1_000_000)
    spins = r["rounds"].to_numpy()
    assert (spins == r["turns"]).all() and (spins == r["spins_0"]).all()
    half = Z999 * spins.std(ddof=1) / math.sqrt(spins.size)
    assert abs(spins.mean() - PUBLISHED) < half, (spins.mean(), half)
    assert half < 0.1  # enough games that the interval means something


def test_the_simulated_lengths_follow_the_chain():
    """A chi-square test of the 1-player game lengths against the chain's distribution (bins
    of at least 50 expected games)."""
    spins = rows(1, seed=35)["rounds"].to_numpy()
    f = markov.length_distribution(RULES, 2000)
    edges = [0]
    acc = 0.0
    for n in range(1, f.size):
        acc += f[n] * spins.size
        if acc >= 50:
            edges.append(n)
            acc = 0.0
    edges[-1] = f.size - 1
    expected = np.array([f[a + 1 : b + 1].sum() for a, b in zip(edges, edges[1:])])
    expected[-1] += 1.0 - f.sum()
    observed, _ = np.histogram(spins, bins=np.array(edges) + 0.5)
    observed[-1] += (spins > edges[-1]).sum()
    p = stats.chisquare(observed, expected * spins.size / expected.sum()).pvalue
    assert p > 0.001, p


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_seats_share_is_the_chains(players):
    exact = markov.seat_shares(RULES, players)
    assert exact.sum() == pytest.approx(1.0, abs=1e-12)
    assert (np.diff(exact) < 0).all()  # each seat before another wins more often
    winner = rows(players, seed=40 + players)["winner"].to_numpy()
    for seat in range(players):
        share = (winner == seat).mean()
        half = Z999 * math.sqrt(exact[seat] * (1 - exact[seat]) / winner.size)
        assert abs(share - exact[seat]) < half, (seat, share, exact[seat])


def test_the_first_players_share_of_two_player_games():
    """The figure stated in docs/rules-chutes-and-ladders.md."""
    assert round(markov.seat_shares(RULES, 2)[0], 4) == 0.5079


def test_the_round_limit_is_out_of_reach_of_the_board():
    """The default round limit (1000) ends a 1-player game with probability below 3e-18."""
    assert RULES.max_rounds == 1000
    assert markov.tail(RULES, RULES.max_rounds) < 3e-18
    assert markov.tail(RULES, 100) == pytest.approx(
        1 - markov.length_distribution(RULES, 100).sum()
    )
