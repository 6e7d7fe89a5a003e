"""Static tables of the sea, built once at import. A space is one of the 5 x 10 tile spaces:
space index = column * 10 + (row - 1), rows 1..10 from the surface down (1-5 light blue,
6-10 dark blue); the lamp's position in a column is its row, 0 = the boat, 11 = the wreck.
The board's size is fixed here (rules.py, which holds what a designer may vary, imports it)."""

from __future__ import annotations

import numpy as np

COLS = 5  # buoys, one column of spaces below each (seed 003: "the five buoys")
ROWS = 10  # spaces per column: rows 1-5 light blue, 6-10 dark blue (GAME-DATA, fact)
LIGHT_ROWS = 5
N_SPACES = COLS * ROWS
PER_REGION = COLS * LIGHT_ROWS  # 25 light and 25 dark tiles, one per space
WRECK_ROW = ROWS + 1  # lamp position of the wreck (below row 10)


def _make_space_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """int64[50] column, row (1..10) and region (0 light, 1 dark) of each space."""
    col = np.zeros(N_SPACES, dtype=np.int64)
    row = np.zeros(N_SPACES, dtype=np.int64)
    region = np.zeros(N_SPACES, dtype=np.int64)
    for q in range(N_SPACES):
        col[q], row[q] = divmod(q, ROWS)
        row[q] += 1
        region[q] = 0 if row[q] <= LIGHT_ROWS else 1
    return col, row, region


def _make_region_spaces() -> np.ndarray:
    """int64[2, 25]: the spaces of the light (0) and dark (1) regions, column by column."""
    out = np.zeros((2, PER_REGION), dtype=np.int64)
    for g in range(2):
        k = 0
        for c in range(COLS):
            for row in range(1, LIGHT_ROWS + 1):
                out[g, k] = c * ROWS + row - 1 + g * LIGHT_ROWS
                k += 1
    return out


SPACE_COL, SPACE_ROW, SPACE_REGION = _make_space_tables()
REGION_SPACES = _make_region_spaces()


def space_of(col: int, row: int) -> int:
    """The space in column col (0..4) and row (1..10)."""
    return col * ROWS + row - 1
