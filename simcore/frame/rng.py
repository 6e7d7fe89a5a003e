"""The one random stream helper of the project: splitmix64, one stream per game.

A game's stream is derived from (seed, game index) only, so a game's result never depends on
thread count, chunking or backend. numba's global RNG is used nowhere.
State: a uint64[1] array advanced in place.
"""

from __future__ import annotations

import numpy as np
from numba import uint64

from simcore.frame.jit import kernel

_GOLDEN = uint64(0x9E3779B97F4A7C15)
_M1 = uint64(0xBF58476D1CE4E5B9)
_M2 = uint64(0x94D049BB133111EB)
_INV53 = 1.0 / 9007199254740992.0  # 2**-53


@kernel(inline="always")
def _mix(z):
    z = (z ^ (z >> uint64(30))) * _M1
    z = (z ^ (z >> uint64(27))) * _M2
    return z ^ (z >> uint64(31))


@kernel
def stream_for(seed, index, out):
    """Fill out (uint64[1]) with the starting state of game `index` under `seed`."""
    a = _mix(uint64(seed) + _GOLDEN)
    out[0] = _mix(a ^ (uint64(index) * _GOLDEN + uint64(0x632BE59BD9B4E019)))


@kernel(inline="always")
def next_u64(st):
    """Advance the stream st (uint64[1]) and return 64 random bits."""
    st[0] += _GOLDEN
    return _mix(st[0])


@kernel(inline="always")
def rand_below(st, n):
    """A uniform integer in [0, n) (n >= 1), as int64."""
    x = next_u64(st) >> uint64(11)
    return np.int64(float(x) * _INV53 * n)


@kernel(inline="always")
def rand_float(st):
    """A uniform float in [0, 1)."""
    return float(next_u64(st) >> uint64(11)) * _INV53


def new_stream(seed: int, index: int) -> np.ndarray:
    """Python helper: the stream of one game."""
    out = np.zeros(1, dtype=np.uint64)
    stream_for(np.uint64(seed % 2**64), np.uint64(index), out)
    return out
