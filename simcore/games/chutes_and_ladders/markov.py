"""The exact answers of Chutes and Ladders by its Markov chain (numpy): a piece's square after
each spin is a Markov chain on the squares 0 to 100, absorbed at 100. The expected length of a
1-player game is the row sum of the fundamental matrix N = (I - Q)^-1 of the transient squares
(Althoen, King & Schilling 1993: 39.2251 spins on the Milton Bradley board). The pieces never
meet, so the game of several players is that of independent pieces: seat j wins when its
piece finishes at spin n, the seats before it have not finished within n spins and the seats
after it not within n - 1."""

from __future__ import annotations

import numpy as np

from simcore.games.chutes_and_ladders.board import FINISH, N_SQUARES
from simcore.games.chutes_and_ladders.rules import ChutesAndLaddersRules, destinations


def transitions(rules: ChutesAndLaddersRules) -> np.ndarray:
    """P[a, b]: the probability that a piece on square a is on square b after one spin (100
    absorbs)."""
    dest = destinations(rules.links)
    p = np.zeros((N_SQUARES, N_SQUARES))
    w = 1.0 / len(rules.spinner)
    for a in range(FINISH):
        for face in rules.spinner:
            to = a + face
            p[a, a if to > FINISH else dest[to]] += w
    p[FINISH, FINISH] = 1.0
    return p


def expected_spins(rules: ChutesAndLaddersRules) -> float:
    """The expected spins of a 1-player game: N = (I - Q)^-1 over the transient squares 0 to
    99, summed over the row of square 0. ValueError when 100 cannot be reached."""
    q = transitions(rules)[:FINISH, :FINISH]
    try:
        n = np.linalg.inv(np.eye(FINISH) - q)
    except np.linalg.LinAlgError:
        raise ValueError("square 100 cannot be reached from every square") from None
    return float(n[0].sum())


def length_distribution(rules: ChutesAndLaddersRules, spins: int) -> np.ndarray:
    """f[n]: the probability that one piece first reaches 100 at spin n (n = 0 .. spins)."""
    p = transitions(rules)
    v = np.zeros(N_SQUARES)
    v[0] = 1.0
    done = np.zeros(spins + 1)
    for n in range(1, spins + 1):
        v = v @ p
        done[n] = v[FINISH]
    return np.diff(done, prepend=0.0)


def seat_shares(rules: ChutesAndLaddersRules, players: int, spins: int = 5000) -> np.ndarray:
    """Each seat's probability of winning a game of `players` (seat 0 spins first), with the
    rounds cut at `spins` (the probability left beyond it is that of no winner so far)."""
    f = length_distribution(rules, spins)
    alive = 1.0 - np.cumsum(f)  # alive[n]: not finished within n spins
    before = np.concatenate(([1.0], alive[:-1]))  # not finished within n - 1 spins
    return np.array(
        [float(np.sum(f * alive**j * before ** (players - 1 - j))) for j in range(players)]
    )


def tail(rules: ChutesAndLaddersRules, spins: int) -> float:
    """The probability that one piece has not reached 100 after `spins` spins (the mass left
    on the transient squares, summed directly rather than as 1 - a sum near 1)."""
    q = transitions(rules)[:FINISH, :FINISH]
    v = np.zeros(FINISH)
    v[0] = 1.0
    for _ in range(spins):
        v = v @ q
    return float(v.sum())
