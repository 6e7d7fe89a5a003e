"""Static tables of the 9x9 lake, built once at import (square index = row * 9 + column)."""

from __future__ import annotations

import numpy as np

SIZE = 9  # the lake is SIZE x SIZE squares
N_SQUARES = SIZE * SIZE


def _make_orth() -> np.ndarray:
    """int64[81, 4]: the orthogonal neighbours of each square, -1 padding."""
    out = np.full((N_SQUARES, 4), -1, dtype=np.int64)
    for s in range(N_SQUARES):
        r, c = divmod(s, SIZE)
        k = 0
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < SIZE and 0 <= cc < SIZE:
                out[s, k] = rr * SIZE + cc
                k += 1
    return out


def _make_ring() -> np.ndarray:
    """int64[81, 8]: the 8 surrounding squares (corners included), -1 padding."""
    out = np.full((N_SQUARES, 8), -1, dtype=np.int64)
    for s in range(N_SQUARES):
        r, c = divmod(s, SIZE)
        k = 0
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                rr, cc = r + dr, c + dc
                if (dr or dc) and 0 <= rr < SIZE and 0 <= cc < SIZE:
                    out[s, k] = rr * SIZE + cc
                    k += 1
    return out


def _make_dominoes() -> np.ndarray:
    """int64[144, 2]: every pair of orthogonally adjacent squares (a street's possible spots)."""
    pairs = []
    for s in range(N_SQUARES):
        r, c = divmod(s, SIZE)
        if c + 1 < SIZE:
            pairs.append((s, s + 1))
        if r + 1 < SIZE:
            pairs.append((s, s + SIZE))
    return np.array(pairs, dtype=np.int64)


ORTH = _make_orth()
RING = _make_ring()
DOMINOES = _make_dominoes()
N_DOMINOES = DOMINOES.shape[0]


def square(r: int, c: int) -> int:
    """Index of the square in row r, column c."""
    return r * SIZE + c


def square_name(s: int) -> str:
    """'r3c4' style name of a square."""
    return f"r{s // SIZE}c{s % SIZE}"
