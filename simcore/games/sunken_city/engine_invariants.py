"""Sunken City engine, checked mode: the game's invariants, asserted after every action by
tests and fuzzing (never by benchmarks)."""

from __future__ import annotations

from simcore.frame.jit import kernel
from simcore.games.sunken_city import board as B
from simcore.games.sunken_city import engine as E
from simcore.games.sunken_city import rules as R
from simcore.games.sunken_city import state as S
from simcore.games.sunken_city.engine_advanced import grotto_ok


@kernel
def check_invariants(s, r):
    """Return 0 when every invariant holds, else the ERR_* code of the first one broken."""
    players = r[R.P_PLAYERS]
    total = r[R.P_TOTAL_STREETS]
    # 30 streets conserved over board, stacks and box
    on_board = 0
    for k in range(S.MAX_STREETS):
        if E.psq(s, k, 0) >= 0:
            if k >= total:
                return E.ERR_STREETS
            on_board += 1
    stacked = 0
    for k in range(R.N_SPACES):
        if s[S.O_STACKS + k] < 0:
            return E.ERR_STREETS
        stacked += s[S.O_STACKS + k]
    if s[S.S_STREETS_IN_BOX] < 0 or on_board + stacked + s[S.S_STREETS_IN_BOX] != total:
        return E.ERR_STREETS
    # squares and pieces agree
    for q in range(B.N_SQUARES):
        p = s[S.O_SQUARE_PIECE + q]
        if p == S.WATER:
            continue
        if p < 0 or p >= S.N_SLOTS or not E.covers(s, p, q):
            return E.ERR_BOARD
    for p in range(S.N_SLOTS):
        a = E.psq(s, p, 0)
        b = E.psq(s, p, 1)
        if a < 0:
            if b >= 0:
                return E.ERR_BOARD
            continue
        if s[S.O_SQUARE_PIECE + a] != p or (b >= 0 and s[S.O_SQUARE_PIECE + b] != p):
            return E.ERR_BOARD
        if p < S.HOUSE_BASE:
            # streets never on the centre; two squares sharing an edge
            if r[R.R_KIND + a] == R.CENTRE or (b >= 0 and r[R.R_KIND + b] == R.CENTRE):
                return E.ERR_SQUARE
            if r[R.P_STREET_SQUARES] == 2:
                adj = False
                for j in range(4):
                    if b >= 0 and B.ORTH[a, j] == b:
                        adj = True
                if not adj:
                    return E.ERR_BOARD
            elif b >= 0:
                return E.ERR_BOARD
        else:
            # each house once (a slot has one square), only dark squares, never touching
            if b >= 0:
                return E.ERR_BOARD
            if r[R.R_KIND + a] == R.LIGHT:
                return E.ERR_SQUARE
            if not E.house_in_play(r, E.house_number(p)):
                return E.ERR_HOUSE
            for j in range(8):
                nq = B.RING[a, j]
                if nq >= 0 and s[S.O_SQUARE_PIECE + nq] >= S.HOUSE_BASE:
                    return E.ERR_TOUCH
    # the nearby-house counts match the houses on the lake
    for q in range(B.N_SQUARES):
        n = 1 if s[S.O_SQUARE_PIECE + q] >= S.HOUSE_BASE else 0
        for j in range(8):
            nq = B.RING[q, j]
            if nq >= 0 and s[S.O_SQUARE_PIECE + nq] >= S.HOUSE_BASE:
                n += 1
        if s[S.O_NEAR_HOUSES + q] != n:
            return E.ERR_BOARD
    # adventurers only on pieces or in their villages
    for seat in range(players):
        pos = s[S.O_ADVENTURER_SLOT + seat]
        if pos != S.VILLAGE and (pos < 0 or pos >= S.N_SLOTS or E.psq(s, pos, 0) < 0):
            return E.ERR_ADV
    # each player's 11 treasures: one valid state each; OUT only when not in play; nothing
    # carried while the adventurer is in its village
    for seat in range(players):
        for t in range(R.N_TREASURES):
            v = E.treasure(s, seat, t)
            if v < S.HOUSE_SIDE or v > S.OUT:
                return E.ERR_TREASURE
            should_be_out = t == 0 and r[R.P_USE_HOUSE_1] == 0
            if (v == S.OUT) != should_be_out:
                return E.ERR_TREASURE
            if v == S.CARRIED and s[S.O_ADVENTURER_SLOT + seat] == S.VILLAGE:
                return E.ERR_TREASURE
    # chips conserved
    held = 0
    for seat in range(players):
        if s[S.O_CHIPS + seat] < 0:
            return E.ERR_CHIPS
        held += s[S.O_CHIPS + seat]
    if s[S.S_CHIP_SUPPLY] < 0 or held + s[S.S_CHIP_SUPPLY] != r[R.P_CHIP_SUPPLY]:
        return E.ERR_CHIPS
    # the spirit stands on a piece (advanced game: or waits in a grotto space)
    sp = s[S.S_SPIRIT_SLOT]
    if r[R.P_ADVANCED] == 1:
        ph = s[S.S_PHASE]
        if ph != S.PHASE_RAISING and ph != S.PHASE_SINKING:
            return E.ERR_PHASE
        if sp < 0:
            if sp != -1 or not grotto_ok(r, s[S.S_GROTTO_SPACE]):
                return E.ERR_SPIRIT
        elif s[S.S_GROTTO_SPACE] != 0:
            return E.ERR_SPIRIT
        if ph == S.PHASE_RAISING:
            # raising: the spirit is in the grotto, no spirit points in play
            if sp >= 0 or s[S.S_SPIRIT_STEPS_LEFT] != 0:
                return E.ERR_PHASE
        elif s[S.S_RAISE_LEFT] != 0 or s[S.S_GROTTO_MOVE_ALLOWED] != 0:
            # sinking: nothing is raised
            return E.ERR_PHASE
        if s[S.S_SPIRIT_ACTIVE] != 0:
            return E.ERR_PHASE
        if s[S.S_GROTTO_MOVE_ALLOWED] == 1 and s[S.S_CARD] < 0:
            return E.ERR_PHASE
    elif s[S.S_PHASE] != 0 or s[S.S_GROTTO_SPACE] != 0 or s[S.S_GROTTO_MOVE_ALLOWED] != 0:
        return E.ERR_PHASE
    if sp >= 0 and (sp >= S.N_SLOTS or E.psq(s, sp, 0) < 0):
        return E.ERR_SPIRIT
    if sp < 0 and r[R.P_ADVANCED] == 0:
        return E.ERR_SPIRIT
    if s[S.S_DRAW_SPACE] < 0 or s[S.S_DRAW_SPACE] >= R.N_SPACES:
        return E.ERR_COUNTS
    if s[S.S_RAISE_LEFT] < 0 or s[S.S_MOVE_LEFT] < 0 or s[S.S_SPIRIT_STEPS_LEFT] < 0:
        return E.ERR_COUNTS
    for seat in range(players):
        if s[S.O_HAND + seat] == 0:
            return E.ERR_COUNTS
    return 0
