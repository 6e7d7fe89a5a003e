"""Sunken City engine, checked mode: the game's invariants, asserted after every action by
tests and fuzzing (never by benchmarks)."""

from __future__ import annotations

from simcore.jit import kernel
from simcore.sunken_city.board import N_SQUARES, ORTH, RING
from simcore.sunken_city.engine import (
    ERR_ADV,
    ERR_BOARD,
    ERR_CHIPS,
    ERR_COUNTS,
    ERR_HOUSE,
    ERR_PHASE,
    ERR_SPIRIT,
    ERR_SQUARE,
    ERR_STREETS,
    ERR_TOUCH,
    ERR_TREASURE,
    covers,
    house_in_play,
    house_number,
    psq,
    treasure,
)
from simcore.sunken_city.engine_advanced import grotto_ok
from simcore.sunken_city.rules import (
    CENTRE,
    LIGHT,
    N_SPACES,
    N_TREASURES,
    P_ADVANCED,
    P_CHIP_SUPPLY,
    P_PLAYERS,
    P_STREET_SQUARES,
    P_TOTAL_STREETS,
    P_USE_HOUSE_1,
    R_KIND,
)
from simcore.sunken_city.state import (
    CARRIED,
    HOUSE_BASE,
    HOUSE_SIDE,
    MAX_STREETS,
    N_SLOTS,
    O_ADVENTURER_SLOT,
    O_CHIPS,
    O_HAND,
    O_NEAR_HOUSES,
    O_SQUARE_PIECE,
    O_STACKS,
    OUT,
    PHASE_RAISING,
    PHASE_SINKING,
    S_CARD,
    S_CHIP_SUPPLY,
    S_DRAW_SPACE,
    S_GROTTO_MOVE_ALLOWED,
    S_GROTTO_SPACE,
    S_MOVE_LEFT,
    S_PHASE,
    S_RAISE_LEFT,
    S_SPIRIT_ACTIVE,
    S_SPIRIT_SLOT,
    S_SPIRIT_STEPS_LEFT,
    S_STREETS_IN_BOX,
    VILLAGE,
    WATER,
)


@kernel
def check_invariants(s, r):
    """Return 0 when every invariant holds, else the ERR_* code of the first one broken."""
    players = r[P_PLAYERS]
    total = r[P_TOTAL_STREETS]
    # 30 streets conserved over board, stacks and box
    on_board = 0
    for k in range(MAX_STREETS):
        if psq(s, k, 0) >= 0:
            if k >= total:
                return ERR_STREETS
            on_board += 1
    stacked = 0
    for k in range(N_SPACES):
        if s[O_STACKS + k] < 0:
            return ERR_STREETS
        stacked += s[O_STACKS + k]
    if s[S_STREETS_IN_BOX] < 0 or on_board + stacked + s[S_STREETS_IN_BOX] != total:
        return ERR_STREETS
    # squares and pieces agree
    for q in range(N_SQUARES):
        p = s[O_SQUARE_PIECE + q]
        if p == WATER:
            continue
        if p < 0 or p >= N_SLOTS or not covers(s, p, q):
            return ERR_BOARD
    for p in range(N_SLOTS):
        a = psq(s, p, 0)
        b = psq(s, p, 1)
        if a < 0:
            if b >= 0:
                return ERR_BOARD
            continue
        if s[O_SQUARE_PIECE + a] != p or (b >= 0 and s[O_SQUARE_PIECE + b] != p):
            return ERR_BOARD
        if p < HOUSE_BASE:
            # streets never on the centre; two squares sharing an edge
            if r[R_KIND + a] == CENTRE or (b >= 0 and r[R_KIND + b] == CENTRE):
                return ERR_SQUARE
            if r[P_STREET_SQUARES] == 2:
                adj = False
                for j in range(4):
                    if b >= 0 and ORTH[a, j] == b:
                        adj = True
                if not adj:
                    return ERR_BOARD
            elif b >= 0:
                return ERR_BOARD
        else:
            # each house once (a slot has one square), only dark squares, never touching
            if b >= 0:
                return ERR_BOARD
            if r[R_KIND + a] == LIGHT:
                return ERR_SQUARE
            if not house_in_play(r, house_number(p)):
                return ERR_HOUSE
            for j in range(8):
                nq = RING[a, j]
                if nq >= 0 and s[O_SQUARE_PIECE + nq] >= HOUSE_BASE:
                    return ERR_TOUCH
    # the nearby-house counts match the houses on the lake
    for q in range(N_SQUARES):
        n = 1 if s[O_SQUARE_PIECE + q] >= HOUSE_BASE else 0
        for j in range(8):
            nq = RING[q, j]
            if nq >= 0 and s[O_SQUARE_PIECE + nq] >= HOUSE_BASE:
                n += 1
        if s[O_NEAR_HOUSES + q] != n:
            return ERR_BOARD
    # adventurers only on pieces or in their villages
    for seat in range(players):
        pos = s[O_ADVENTURER_SLOT + seat]
        if pos != VILLAGE and (pos < 0 or pos >= N_SLOTS or psq(s, pos, 0) < 0):
            return ERR_ADV
    # each player's 11 treasures: one valid state each; OUT only when not in play; nothing
    # carried while the adventurer is in its village
    for seat in range(players):
        for t in range(N_TREASURES):
            v = treasure(s, seat, t)
            if v < HOUSE_SIDE or v > OUT:
                return ERR_TREASURE
            should_be_out = t == 0 and r[P_USE_HOUSE_1] == 0
            if (v == OUT) != should_be_out:
                return ERR_TREASURE
            if v == CARRIED and s[O_ADVENTURER_SLOT + seat] == VILLAGE:
                return ERR_TREASURE
    # chips conserved
    held = 0
    for seat in range(players):
        if s[O_CHIPS + seat] < 0:
            return ERR_CHIPS
        held += s[O_CHIPS + seat]
    if s[S_CHIP_SUPPLY] < 0 or held + s[S_CHIP_SUPPLY] != r[P_CHIP_SUPPLY]:
        return ERR_CHIPS
    # the spirit stands on a piece (advanced game: or waits in a grotto space)
    sp = s[S_SPIRIT_SLOT]
    if r[P_ADVANCED] == 1:
        ph = s[S_PHASE]
        if ph != PHASE_RAISING and ph != PHASE_SINKING:
            return ERR_PHASE
        if sp < 0:
            if sp != -1 or not grotto_ok(r, s[S_GROTTO_SPACE]):
                return ERR_SPIRIT
        elif s[S_GROTTO_SPACE] != 0:
            return ERR_SPIRIT
        if ph == PHASE_RAISING:
            # raising: the spirit is in the grotto, no spirit points in play
            if sp >= 0 or s[S_SPIRIT_STEPS_LEFT] != 0:
                return ERR_PHASE
        elif s[S_RAISE_LEFT] != 0 or s[S_GROTTO_MOVE_ALLOWED] != 0:
            # sinking: nothing is raised
            return ERR_PHASE
        if s[S_SPIRIT_ACTIVE] != 0:
            return ERR_PHASE
        if s[S_GROTTO_MOVE_ALLOWED] == 1 and s[S_CARD] < 0:
            return ERR_PHASE
    elif s[S_PHASE] != 0 or s[S_GROTTO_SPACE] != 0 or s[S_GROTTO_MOVE_ALLOWED] != 0:
        return ERR_PHASE
    if sp >= 0 and (sp >= N_SLOTS or psq(s, sp, 0) < 0):
        return ERR_SPIRIT
    if sp < 0 and r[P_ADVANCED] == 0:
        return ERR_SPIRIT
    if s[S_DRAW_SPACE] < 0 or s[S_DRAW_SPACE] >= N_SPACES:
        return ERR_COUNTS
    if s[S_RAISE_LEFT] < 0 or s[S_MOVE_LEFT] < 0 or s[S_SPIRIT_STEPS_LEFT] < 0:
        return ERR_COUNTS
    for seat in range(players):
        if s[O_HAND + seat] == 0:
            return ERR_COUNTS
    return 0
