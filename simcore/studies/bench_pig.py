"""A hand-written numba Pig, the yardstick of the frame's overhead (`balance bench`): hold-at-20
against hold-at-20, target 100, a six-sided die, in one compiled function with no state array,
no trace, no rows and no standings; the same random stream per game (splitmix64 of (seed,
game), as simcore.frame.rng) but its own game loop."""

from __future__ import annotations

import numpy as np
from numba import uint64

from simcore.frame.jit import driver

_GOLDEN = uint64(0x9E3779B97F4A7C15)
_M1 = uint64(0xBF58476D1CE4E5B9)
_M2 = uint64(0x94D049BB133111EB)
_INV53 = 1.0 / 9007199254740992.0


@driver
def hand_pig(games, seed):
    """Play `games` games of hold-at-20 against hold-at-20; the first player's wins."""
    wins = 0
    for g in range(games):
        z = uint64(seed) + _GOLDEN
        z = (z ^ (z >> uint64(30))) * _M1
        z = (z ^ (z >> uint64(27))) * _M2
        a = z ^ (z >> uint64(31))
        st = a ^ (uint64(g) * _GOLDEN + uint64(0x632BE59BD9B4E019))
        score0 = 0
        score1 = 0
        seat = 0
        while True:
            own = score0 if seat == 0 else score1
            total = 0
            while True:
                st += _GOLDEN
                z = (st ^ (st >> uint64(30))) * _M1
                z = (z ^ (z >> uint64(27))) * _M2
                z = z ^ (z >> uint64(31))
                face = np.int64(float(z >> uint64(11)) * _INV53 * 6) + 1
                if face == 1:
                    total = 0
                    break
                total += face
                if total >= 20 or own + total >= 100:
                    break
            if seat == 0:
                score0 += total
                if score0 >= 100:
                    wins += 1
                    break
            else:
                score1 += total
                if score1 >= 100:
                    break
            seat = 1 - seat
    return wins
