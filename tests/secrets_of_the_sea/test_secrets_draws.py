"""Secrets of the Sea: the dice and buoy draws counted with thresholds (rules.draw_thresholds,
engine.draw_index) give the numbers of simcore.frame.rng.rand_below for the same stream."""

from __future__ import annotations

import numpy as np
import pytest

from simcore.frame.rng import new_stream, rand_below
from simcore.games.secrets_of_the_sea.engine import draw_index
from simcore.games.secrets_of_the_sea.rules import N_THRESH, NEVER, draw_thresholds


def _rand_below_of(x: int, n: int) -> int:
    """rand_below's formula for the 53-bit draw x."""
    return int(float(x) * (1.0 / 9007199254740992.0) * n)


@pytest.mark.parametrize("n", range(1, 26))
def test_thresholds_at_every_boundary(n):
    t = draw_thresholds(n)
    assert t.shape == (N_THRESH,)
    for j in range(1, N_THRESH + 1):
        x = int(t[j - 1])
        if x == NEVER:
            assert j >= n  # every value below n is reached
            continue
        assert _rand_below_of(x, n) >= j
        assert x == 0 or _rand_below_of(x - 1, n) < j
    for x in [0, 1, 2**52, 2**53 - 2, 2**53 - 1, *[int(v) for v in t if v != NEVER]]:
        for y in (x - 1, x, x + 1):
            if 0 <= y < 2**53:
                assert int(np.sum(t <= y)) == min(_rand_below_of(y, n), N_THRESH)


@pytest.mark.parametrize("n", [1, 2, 3, 5, 6, 8, 12])
def test_draw_index_is_rand_below(n):
    r = np.zeros(N_THRESH + 3, dtype=np.int64)
    r[3 : 3 + N_THRESH] = draw_thresholds(n)
    a = new_stream(7, n)
    b = new_stream(7, n)
    for _ in range(3000):
        assert draw_index(r, 3, a) == rand_below(b, n)
    assert a[0] == b[0]
