"""Small helpers every decision of the heuristic players uses: the engine's verdict after an
action, treasure and house values, slot bit sets, the lake's signature and square geometry."""

from __future__ import annotations

import numpy as np

from simcore.frame.jit import kernel
from simcore.frame.playerkit import bind_after
from simcore.games.sunken_city import board as B
from simcore.games.sunken_city import rules as R
from simcore.games.sunken_city import state as S
from simcore.games.sunken_city.engine import psq, treasure, treasure_value
from simcore.games.sunken_city.engine_invariants import check_invariants
from simcore.games.sunken_city.players.scratch import X_DIST_FROM_SPIRIT, XF_THREAT_BY_DIST

# a turn gives up (ERR_ILLEGAL) after this many actions: a guard against a player that never
# ends its turn
MAX_ACTIONS_PER_TURN = 10_000

INF = 999  # an unreachable distance

# Row and column of each square, and 1 / (1 + d) for the Manhattan distances d of the lake
# (numpy's division is the same IEEE operation as the kernels': the same values).
ROW = np.arange(B.N_SQUARES, dtype=np.int64) // B.SIZE
COL = np.arange(B.N_SQUARES, dtype=np.int64) % B.SIZE
INV1 = 1.0 / (1.0 + np.arange(2 * B.SIZE, dtype=np.float64))
PAD = (ROW + 1) * (B.SIZE + 2) + COL + 1  # each square's place in a grid with a border
INV_COST = 1.0 / (1.0 + np.arange(1000, dtype=np.float64))  # 1 / (1 + c), c < 1000


# After an action: the engine's verdict, then (checked mode) the invariants.
after = bind_after(__name__, check_invariants)


@kernel(inline="always")
def tv(t):
    """What a treasure is worth to a player: count first (10), then its face value."""
    return 10.0 + treasure_value(t)


@kernel(inline="always")
def slot_bit(p):
    """The bit of piece slot p in its word of a set of slots (word p >> 6), an int64 (bit 63
    is then the sign bit, compiled or not: plain Python would make a larger int)."""
    return np.int64(1) << (p & 63)


@kernel(inline="always")
def with_slot(lo, hi, o):
    """The set of slots (lo: 0..63, hi: 64..69) with slot o added (o < 0: unchanged)."""
    if o >= 64:
        hi |= slot_bit(o)
    elif o >= 0:
        lo |= slot_bit(o)
    return lo, hi


@kernel(inline="always")
def has_slot(lo, hi, o):
    """Whether slot o (>= 0) is in the set of slots (lo: 0..63, hi: 64..69)."""
    return ((hi if o >= 64 else lo) & slot_bit(o)) != 0


@kernel(inline="always")
def board_signature(s):
    """Changes whenever a piece appears or sinks (the counters only grow)."""
    return s[S.S_STREETS_PLACED] + 1000 * s[S.S_HOUSES_PLACED] + 1000000 * s[S.S_PIECES_SUNK]


@kernel(inline="always")
def manhattan(a, b):
    return abs(ROW[a] - ROW[b]) + abs(COL[a] - COL[b])


@kernel
def position_square(s, r, seat):
    """A square for the seat's adventurer: its piece's square, or its village's corner."""
    a = s[S.O_ADVENTURER_SLOT + seat]
    if a == S.VILLAGE:
        return r[R.R_VILLAGE + seat]
    return psq(s, a, 0)


@kernel
def carried_value(s, seat):
    v = 0.0
    for t in range(R.N_TREASURES):
        if treasure(s, seat, t) == S.CARRIED:
            v += tv(t)
    return v


@kernel
def house_value(s, r, seat, slot, on_centre):
    """Treasure value of entering house `slot` for the seat (its own treasure and, in the
    centre, the chest)."""
    h = slot - S.HOUSE_BASE
    v = 0.0
    if treasure(s, seat, h) == S.HOUSE_SIDE:
        v += tv(h)
    if on_centre and treasure(s, seat, S.CHEST) == S.HOUSE_SIDE:
        v += tv(S.CHEST)
    return v


@kernel(inline="always")
def threat(slot, x, xf):
    """Threat to the piece under `slot` (threat_table must be current)."""
    if slot == S.VILLAGE:
        return 0.0
    d = x[X_DIST_FROM_SPIRIT + slot]
    if d >= INF:
        return 0.0
    return xf[XF_THREAT_BY_DIST + (d if d < 7 else 7)]


@kernel(inline="always")
def keep_path(x, dst, stack, depth, last):
    """x[dst : dst + depth + 1] = the path on a search stack (the nodes x[stack + 1 .. stack +
    depth] below the current depth) followed by `last`."""
    for j in range(depth):
        x[dst + j] = x[stack + j + 1]
    x[dst + depth] = last
