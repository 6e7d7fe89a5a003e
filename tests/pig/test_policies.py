"""The `optimal` player against an independent solution: plain value iteration over every
state (no layers, no acceleration) on small games, and the packed bits the kernels read."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from simcore.games.pig import optimal, players
from simcore.games.pig.rules import PigRules, pack


def naive(target: int, faces: tuple[int, ...], sweeps: int = 3000):
    """P[i, j, k] by sweeping P = max(roll, hold) over every state until it stops moving."""
    t = target
    p = np.full((t, t, t), 0.5)

    def at(i, j, k):
        return 1.0 if i + k >= t else p[i, j, k]

    n = len(faces)
    for _ in range(sweeps):
        old = p.copy()
        for i, j, k in itertools.product(range(t), range(t), range(t)):
            if i + k >= t:
                continue
            rolled = sum((1.0 - old[j, i, 0]) if f == 1 else at(i, j, k + f) for f in faces) / n
            p[i, j, k] = rolled if k == 0 else max(rolled, 1.0 - old[j, i + k, 0])
        if np.max(np.abs(p - old)) < 1e-14:
            break
    return p


@pytest.mark.parametrize("target, faces", [(10, (1, 2, 3, 4, 5, 6)), (8, (1, 1, 2, 3))])
def test_the_layered_value_iteration_agrees_with_plain_value_iteration(target, faces):
    p = naive(target, faces)
    p0, rolls = optimal.solve(target, faces)
    assert np.max(np.abs(p0 - p[:, :, 0])) < 1e-9
    n = len(faces)
    for i, j, k in itertools.product(range(target), range(target), range(1, target)):
        if i + k >= target:
            assert not rolls[i, j, k]
            continue
        rolled = (
            sum(
                (1.0 - p[j, i, 0]) if f == 1 else (1.0 if i + k + f >= target else p[i, j, k + f])
                for f in faces
            )
            / n
        )
        held = 1.0 - p[j, i + k, 0]
        if abs(rolled - held) > 1e-9:  # a clear decision (near-ties may go either way)
            assert rolls[i, j, k] == (rolled > held), (i, j, k)


def test_the_kernels_read_the_packed_decisions():
    rules = PigRules(target=40)
    r = pack(rules, 2)
    _, rolls = optimal.table(40, rules.die)
    for i, j, k in itertools.product(range(0, 40, 3), range(0, 40, 5), range(1, 40)):
        want = bool(rolls[i, j, k]) if i + k < 40 else False
        assert players.optimal_rolls(r, i, j, k) == want
