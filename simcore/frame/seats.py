"""Seat handling every game shares: which entry of the policy list plays each seat.

Three seatings: fixed (entry s plays seat s), rotated (entry (s + index) mod players plays seat
s of game `index`), and a **population**: the policy list is a pool of K players, and each game
draws its lineup from the pool, deterministically from its game index (population_entry). A
population list is marked by a first id of POPULATION (-1); the pool is the entries after it
(population_arrays builds such a list). A game's lineup depends only on its index, never on
thread count or chunking, and every other game keeps its own random stream (simcore.frame.rng).
"""

from __future__ import annotations

import numpy as np
from numba import uint64

from simcore.frame.jit import kernel

POPULATION = -1  # pol_ids[0] of a population list: the pool is pol_ids[1:], weights[1:]
_GOLDEN = uint64(0x9E3779B97F4A7C15)
_M1 = uint64(0xBF58476D1CE4E5B9)
_M2 = uint64(0x94D049BB133111EB)


@kernel
def population_entry(players, index, seat, pool):
    """The pool entry (0 .. pool - 1) that plays `seat` in game `index` of a population.

    The games come in groups of `players` consecutive indices (group g = index // players); a
    group draws one lineup, each of its seats an entry of the pool chosen by a splitmix64 hash
    of (g, position), and plays it in every rotation: game index sits the group's entry
    (seat + index) mod players in `seat`. So every drawn lineup is played from every seat, and
    each entry sits in each seat equally often in expectation; the lineup of a game depends only
    on its index (not on the seed: every seed draws the same lineups)."""
    g = uint64(index // players)
    pos = (seat + index) % players
    z = g * uint64(8) + uint64(pos) + _GOLDEN
    z = (z ^ (z >> uint64(30))) * _M1
    z = (z ^ (z >> uint64(27))) * _M2
    z = z ^ (z >> uint64(31))
    return int(z % uint64(pool))


@kernel
def seat_policies(players, index, rotate, pol_ids, weights, pols, wts, policy_idx):
    """Assign the policy list (pol_ids: int64[entries], weights: float64[entries, W]) to the
    seats of game `index`: pols[seat], wts[seat] and policy_idx[seat] (the list entry). Without
    rotation entry s plays seat s; with rotation, seat s gets entry (s + index) mod players, so
    every entry sits in every seat equally often. A population list (pol_ids[0] == POPULATION)
    draws each seat's entry from its pool (population_entry; policy_idx counts the pool's
    entries from 0; `rotate` is not used). The seats beyond `players` are cleared (policy 0,
    entry -1, weights 0), so the same arrays can serve game after game."""
    for seat in range(players, pols.shape[0]):
        pols[seat] = 0
        policy_idx[seat] = -1
        for j in range(wts.shape[1]):
            wts[seat, j] = 0.0
    population = pol_ids[0] == POPULATION
    for seat in range(players):
        if population:
            k = 1 + population_entry(players, index, seat, pol_ids.shape[0] - 1)
            policy_idx[seat] = k - 1
        else:
            k = (seat + index) % players if rotate else seat
            policy_idx[seat] = k
        pols[seat] = pol_ids[k]
        for j in range(weights.shape[1]):
            wts[seat, j] = weights[k, j]


def population_arrays(ids: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A pool of players (ids: int64[K], weights: float64[K, W], as GameSpec.policy_arrays
    gives them) as a population list for seat_policies: the marker entry first."""
    pool_ids = np.concatenate([np.array([POPULATION], dtype=np.int64), ids.astype(np.int64)])
    pool_w = np.concatenate([np.zeros((1, w.shape[1]), dtype=np.float64), w])
    return pool_ids, pool_w
