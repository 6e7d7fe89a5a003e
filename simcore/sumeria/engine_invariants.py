"""Checked mode of Sumeria: check_invariants, run after every decision and automatic step by
tests, fuzzing and `balance simulate --checked` (never in a benchmark). It returns the
engine's ERR_* code of the first invariant broken (one trader per location and the counts per
city-state, traders and tiles conserved, the order a permutation, counters and phase in
range), or 0.
"""

from __future__ import annotations

from simcore.jit import kernel
from simcore.sumeria.board import (
    LOC_KIND,
    LOCS_PER_STATE,
    N_LOCS,
    N_STATES,
    N_TYPES,
    TOWN,
)
from simcore.sumeria.engine import (
    ERR_BOARD,
    ERR_COUNTS,
    ERR_ORDER,
    ERR_TILES,
    ERR_TRADERS,
    cnt,
    display,
    held,
    towns,
)
from simcore.sumeria.engine_round import display_total
from simcore.sumeria.rules import (
    MAX_PLAYERS,
    MAX_SCORED,
    P_INITIAL,
    P_N_SCORED,
    P_PLAYERS,
    P_ROUNDS,
    P_TILES_PER_TYPE,
    P_TRADERS,
    P_TURNS,
    R_TILES,
)
from simcore.sumeria.state import (
    EMPTY,
    O_BAGT,
    O_DISC,
    O_LOC,
    O_MASK,
    O_ORDER,
    O_POS,
    O_RESERVE,
    PH_CHOOSE,
    PH_OVER,
    PH_SCORE,
    PH_SETUP,
    PH_TURN,
    S_BAG,
    S_FIRST,
    S_IN_TURN,
    S_PHASE,
    S_PLACED,
    S_ROUND,
    S_SEAT,
    S_TURN,
)


@kernel
def check_invariants(s, r):
    """Return 0 when every invariant holds, else the ERR_* code of the first one broken."""
    players = r[P_PLAYERS]
    # one trader per location, of a seat in play; counts per state agree
    for st in range(N_STATES):
        for seat in range(MAX_PLAYERS):
            c = 0
            tw = 0
            for k in range(LOCS_PER_STATE):
                q = st * LOCS_PER_STATE + k
                if s[O_LOC + q] == seat:
                    c += 1
                    if LOC_KIND[q] == TOWN:
                        tw += 1
            if c != cnt(s, st, seat) or tw != towns(s, st, seat):
                return ERR_BOARD
    for seat in range(MAX_PLAYERS):
        m = 0
        for q in range(N_LOCS):
            if s[O_LOC + q] == seat:
                m |= 1 << q
        if m != s[O_MASK + seat]:
            return ERR_BOARD
    on_board = 0
    for q in range(N_LOCS):
        v = s[O_LOC + q]
        if v != EMPTY and (v < 0 or v >= players):
            return ERR_BOARD
    # traders conserved: board + reserve = traders per player
    for seat in range(players):
        on_board = 0
        for st in range(N_STATES):
            on_board += cnt(s, st, seat)
        if s[O_RESERVE + seat] < 0 or on_board + s[O_RESERVE + seat] != r[P_TRADERS]:
            return ERR_TRADERS
    # the order is a permutation and pos its inverse
    for p in range(N_STATES):
        st = s[O_ORDER + p]
        if st < 0 or st >= N_STATES or s[O_POS + st] != p:
            return ERR_ORDER
    # tiles conserved per type: bag + display + held + discarded
    bag = 0
    for t in range(N_TYPES):
        n = s[O_BAGT + t] + s[O_DISC + t]
        if s[O_BAGT + t] < 0 or s[O_DISC + t] < 0:
            return ERR_TILES
        bag += s[O_BAGT + t]
        for p in range(MAX_SCORED):
            d = display(s, p, t)
            if d < 0 or (d > 0 and p >= r[P_N_SCORED]):
                return ERR_TILES
            n += d
        for seat in range(players):
            if held(s, seat, t) < 0:
                return ERR_TILES
            n += held(s, seat, t)
        if n != r[P_TILES_PER_TYPE]:
            return ERR_TILES
    if bag != s[S_BAG]:
        return ERR_TILES
    # between rounds the display is empty; during a round no position holds more than its
    # share
    ph = s[S_PHASE]
    if ph == PH_OVER:
        for p in range(MAX_SCORED):
            if display_total(s, p) != 0:
                return ERR_TILES
    elif ph != PH_CHOOSE and ph != PH_SCORE:
        for p in range(r[P_N_SCORED]):
            if display_total(s, p) > r[R_TILES + p]:
                return ERR_TILES
    if ph < PH_SETUP or ph > PH_SCORE:
        return ERR_COUNTS
    if s[S_SEAT] < 0 or s[S_SEAT] >= players or s[S_FIRST] < 0 or s[S_FIRST] >= players:
        return ERR_COUNTS
    if ph == PH_TURN and (s[S_TURN] >= r[P_TURNS] or s[S_IN_TURN] >= players):
        return ERR_COUNTS
    if ph == PH_TURN and s[S_SEAT] != (s[S_FIRST] + s[S_IN_TURN]) % players:
        return ERR_COUNTS
    if ph != PH_OVER and s[S_ROUND] >= r[P_ROUNDS]:
        return ERR_COUNTS
    if ph != PH_SETUP and s[S_PLACED] != players * r[P_INITIAL]:
        return ERR_COUNTS
    return 0
