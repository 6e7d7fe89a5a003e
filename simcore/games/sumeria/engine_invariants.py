"""Checked mode of Sumeria: check_invariants, run after every decision and automatic step by
tests, fuzzing and `balance simulate --checked` (never in a benchmark). It returns the
engine's ERR_* code of the first invariant broken (one trader per location and the counts per
city-state, traders and tiles conserved, the order a permutation, counters and phase in
range), or 0.
"""

from __future__ import annotations

from simcore.frame.jit import kernel
from simcore.games.sumeria import board as B
from simcore.games.sumeria import engine as E
from simcore.games.sumeria import engine_round as ER
from simcore.games.sumeria import rules as R
from simcore.games.sumeria import state as S


@kernel
def check_invariants(s, r):
    """Return 0 when every invariant holds, else the ERR_* code of the first one broken."""
    players = r[R.P_PLAYERS]
    # one trader per location, of a seat in play; counts per state agree
    for st in range(B.N_STATES):
        for seat in range(R.MAX_PLAYERS):
            c = 0
            tw = 0
            for k in range(B.LOCS_PER_STATE):
                q = st * B.LOCS_PER_STATE + k
                if s[S.O_LOC + q] == seat:
                    c += 1
                    if B.LOC_KIND[q] == B.TOWN:
                        tw += 1
            if c != E.cnt(s, st, seat) or tw != E.towns(s, st, seat):
                return E.ERR_BOARD
    for seat in range(R.MAX_PLAYERS):
        m = 0
        for q in range(B.N_LOCS):
            if s[S.O_LOC + q] == seat:
                m |= 1 << q
        if m != s[S.O_MASK + seat]:
            return E.ERR_BOARD
    on_board = 0
    for q in range(B.N_LOCS):
        v = s[S.O_LOC + q]
        if v != S.EMPTY and (v < 0 or v >= players):
            return E.ERR_BOARD
    # traders conserved: board + reserve = traders per player
    for seat in range(players):
        on_board = 0
        for st in range(B.N_STATES):
            on_board += E.cnt(s, st, seat)
        if s[S.O_RESERVE + seat] < 0 or on_board + s[S.O_RESERVE + seat] != r[R.P_TRADERS]:
            return E.ERR_TRADERS
    # the order is a permutation and pos its inverse
    for p in range(B.N_STATES):
        st = s[S.O_ORDER + p]
        if st < 0 or st >= B.N_STATES or s[S.O_POS + st] != p:
            return E.ERR_ORDER
    # tiles conserved per type: bag + display + held + discarded
    bag = 0
    for t in range(B.N_TYPES):
        n = s[S.O_BAGT + t] + s[S.O_DISC + t]
        if s[S.O_BAGT + t] < 0 or s[S.O_DISC + t] < 0:
            return E.ERR_TILES
        bag += s[S.O_BAGT + t]
        for p in range(R.MAX_SCORED):
            d = E.display(s, p, t)
            if d < 0 or (d > 0 and p >= r[R.P_N_SCORED]):
                return E.ERR_TILES
            n += d
        for seat in range(players):
            if E.held(s, seat, t) < 0:
                return E.ERR_TILES
            n += E.held(s, seat, t)
        if n != r[R.P_TILES_PER_TYPE]:
            return E.ERR_TILES
    if bag != s[S.S_BAG]:
        return E.ERR_TILES
    # between rounds the display is empty; during a round no position holds more than its
    # share
    ph = s[S.S_PHASE]
    if ph == S.PH_OVER:
        for p in range(R.MAX_SCORED):
            if ER.display_total(s, p) != 0:
                return E.ERR_TILES
    elif ph != S.PH_CHOOSE and ph != S.PH_SCORE:
        for p in range(r[R.P_N_SCORED]):
            if ER.display_total(s, p) > r[R.R_TILES + p]:
                return E.ERR_TILES
    if ph < S.PH_SETUP or ph > S.PH_SCORE:
        return E.ERR_COUNTS
    if s[S.S_SEAT] < 0 or s[S.S_SEAT] >= players or s[S.S_FIRST] < 0 or s[S.S_FIRST] >= players:
        return E.ERR_COUNTS
    if ph == S.PH_TURN and (s[S.S_TURN] >= r[R.P_TURNS] or s[S.S_IN_TURN] >= players):
        return E.ERR_COUNTS
    if ph == S.PH_TURN and s[S.S_SEAT] != (s[S.S_FIRST] + s[S.S_IN_TURN]) % players:
        return E.ERR_COUNTS
    if ph != S.PH_OVER and s[S.S_ROUND] >= r[R.P_ROUNDS]:
        return E.ERR_COUNTS
    if ph != S.PH_SETUP and s[S.S_PLACED] != r[R.P_SETUP_TOTAL]:
        return E.ERR_COUNTS
    return 0
