"""The referee's fixed data: the board's size and corners, squares read from a trace, the
error for an unreadable trace, and the bookkeeping of the turn in progress."""

from __future__ import annotations

from typing import Any

SIZE = 9
N_SPACES = 6
# Corners clockwise from the top left: (0,0), (0,8), (8,8), (8,0).
CORNERS = ((0, 0), (0, SIZE - 1), (SIZE - 1, SIZE - 1), (SIZE - 1, 0))
ALL_TREASURES = tuple(range(1, 11)) + (12,)
CHEST = 12
MAX_VIOLATIONS = 500

Square = tuple[int, int]


class TraceError(Exception):
    """The trace cannot be read any further (malformed line or field)."""


def as_square(x: Any) -> Square:
    if (
        not isinstance(x, (list, tuple))
        or len(x) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in x)
    ):
        raise TraceError(f"not a square: {x!r}")
    return (x[0], x[1])


def as_squares(xs: Any) -> tuple[Square, ...]:
    if not isinstance(xs, list):
        raise TraceError(f"not a list of squares: {xs!r}")
    return tuple(sorted(as_square(x) for x in xs))


def orthogonal(a: Square, b: Square) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def square_name(q: Square) -> str:
    return f"r{q[0]}c{q[1]}"


class TurnState:
    """Bookkeeping of the turn in progress."""

    def __init__(self, raise_n: int, move_n: int, icon: int):
        self.raise_n = raise_n
        self.bp = raise_n  # building points left (pieces still to raise)
        self.sp = 0  # spirit points left (advanced game, sinking phase)
        self.grotto_right = False  # entered the house of the spirit's grotto space
        self.pending_why = ""
        self.move_n = move_n
        self.icon = icon
        self.points = move_n
        self.houses = 0
        self.chip_used = False
        self.moved = False  # the adventurer has taken a step this turn
        self.spirit_used = False
        self.ended = False
        self.pending: list[dict] = []
        self.blocks: list[str] = []
        self.raise_checked = False
