"""Checked mode of Secrets of the Sea: check_invariants, run after every action by tests, fuzzing
and `balance simulate --checked` (never in a benchmark). It returns the engine's ERR_* code of
the first invariant broken (tiles conserved, knowledge flags, the hidden-tile tables against a
recount, the dive's phase, the end condition applied), or 0."""

from __future__ import annotations

import numpy as np

from simcore.jit import kernel
from simcore.secrets_of_the_sea.board import (
    COLS,
    N_SPACES,
    PER_REGION,
    REGION_SPACES,
    ROWS,
    SPACE_REGION,
    WRECK_ROW,
)
from simcore.secrets_of_the_sea.engine import (
    ERR_BONUS,
    ERR_END,
    ERR_KNOWN,
    ERR_PHASE,
    ERR_REGION,
    ERR_TABLES,
    ERR_TILES,
    bonus_category,
    end_condition,
    front_kind,
    hidden_category,
    lamp_kind,
    space_at,
    tile_value,
)
from simcore.secrets_of_the_sea.rules import (
    MAX_PLAYERS,
    MONSTER,
    N_BONUS,
    N_TYPES,
    P_N_TILES,
    P_PLAYERS,
    WRECK_BASE,
)
from simcore.secrets_of_the_sea.state import (
    EMPTY,
    FRONT,
    N_HC,
    O_BONUS,
    O_HELD,
    O_HID_N,
    O_HID_SUM,
    O_KNOWN,
    O_OWNER,
    O_SPACE,
    O_UNLIT,
    ON_BOARD,
    OUT,
    PH_CHOOSE,
    PH_EMPTY,
    PH_FIGHT,
    PH_LIT,
    PH_ROLL,
    PH_WRECK,
    S_BLOCKED,
    S_BONUS_LEFT,
    S_COL,
    S_DARK_LEFT,
    S_END_REASON,
    S_GAME_OVER,
    S_HELD_TREASURES,
    S_LIGHT_LEFT,
    S_PHASE,
    S_POS,
    S_ROUND,
    S_SEAT,
    S_TILE,
    S_TURN,
    S_WRECK_LEFT,
    UNLIT,
)


@kernel
def check_invariants(s, r):
    """Return 0 when every invariant holds, else the ERR_* code of the first one broken."""
    players = r[P_PLAYERS]
    n_tiles = r[P_N_TILES]
    # every board tile on exactly one space of its region, or in front of a seat, or out
    for t in range(n_tiles):
        o = s[O_OWNER + t]
        if o != ON_BOARD and o != OUT and (o < 0 or o >= players):
            return ERR_TILES
        if t < WRECK_BASE:
            n = 0
            for q in range(N_SPACES):
                if s[O_SPACE + q] == t:
                    n += 1
                    if SPACE_REGION[q] != (0 if t < PER_REGION else 1):
                        return ERR_REGION
            if n != (1 if o == ON_BOARD else 0):
                return ERR_TILES
    for q in range(N_SPACES):
        t = s[O_SPACE + q]
        k = s[O_KNOWN + q]
        if t != EMPTY and (t < 0 or t >= WRECK_BASE):
            return ERR_TILES
        if k < UNLIT or k > FRONT or (t == EMPTY and k != UNLIT):
            return ERR_KNOWN
        if k == FRONT and front_kind(r, t) != MONSTER:
            return ERR_KNOWN
    # the tables agree with a recount
    for seat in range(MAX_PLAYERS):
        for b in range(N_BONUS):
            n = 0
            for t in range(n_tiles):
                if s[O_OWNER + t] == seat and bonus_category(r, t) == b:
                    n += 1
            if s[O_HELD + seat * N_BONUS + b] != n:
                return ERR_TABLES
    for g in range(2):
        for c in range(N_HC):
            n = 0
            v = 0
            u = 0
            for k in range(PER_REGION):
                q = REGION_SPACES[g, k]
                t = s[O_SPACE + q]
                if t == EMPTY or s[O_KNOWN + q] == FRONT or hidden_category(r, t) != c:
                    continue
                n += 1
                v += tile_value(r, t)
                if s[O_KNOWN + q] == UNLIT:
                    u += 1
            o = g * N_HC + c
            if s[O_HID_N + o] != n or s[O_HID_SUM + o] != v or s[O_UNLIT + o] != u:
                return ERR_TABLES
    for b in range(N_BONUS):
        o = s[O_BONUS + b]
        if o < -1 or o >= players:
            return ERR_BONUS
    # the counts of tiles left and the held treasures
    n_light = 0
    n_dark = 0
    for q in range(N_SPACES):
        if s[O_SPACE + q] != EMPTY:
            if SPACE_REGION[q] == 0:
                n_light += 1
            else:
                n_dark += 1
    n_wreck = 0
    held = np.int64(0)
    for t in range(n_tiles):
        if t >= WRECK_BASE and s[O_OWNER + t] == ON_BOARD:
            n_wreck += 1
        if s[O_OWNER + t] >= 0 and front_kind(r, t) < N_TYPES:
            held |= np.int64(1) << t
    n_bonus = 0
    for b in range(N_BONUS):
        if s[O_BONUS + b] < 0:
            n_bonus += 1
    if s[S_LIGHT_LEFT] != n_light or s[S_DARK_LEFT] != n_dark or s[S_WRECK_LEFT] != n_wreck:
        return ERR_TABLES
    if s[S_BONUS_LEFT] != n_bonus or s[S_HELD_TREASURES] != held:
        return ERR_TABLES
    # the dive
    ph = s[S_PHASE]
    if ph < PH_ROLL or ph > PH_WRECK or s[S_BLOCKED] < 0 or s[S_BLOCKED] > 3:
        return ERR_PHASE
    if s[S_SEAT] < 0 or s[S_SEAT] >= players:
        return ERR_PHASE
    if ph == PH_ROLL:
        if s[S_COL] != -1 or s[S_POS] != 0 or s[S_BLOCKED] != 0:
            return ERR_PHASE
    else:
        if s[S_BLOCKED] == 3:
            return ERR_PHASE
        if ph != PH_CHOOSE and (s[S_COL] < 0 or s[S_COL] >= COLS or s[S_POS] < 1):
            return ERR_PHASE
        if s[S_POS] < 0 or s[S_POS] > WRECK_ROW:
            return ERR_PHASE
    if ph == PH_LIT or ph == PH_FIGHT:
        if s[S_POS] > ROWS or s[O_SPACE + space_at(s[S_COL], s[S_POS])] != s[S_TILE]:
            return ERR_PHASE
        lamp = lamp_kind(r, s[S_TILE])
        if ph == PH_FIGHT and front_kind(r, s[S_TILE]) != MONSTER:
            return ERR_PHASE
        if ph == PH_LIT and lamp == MONSTER:
            return ERR_PHASE
    if ph == PH_EMPTY and (s[S_POS] > ROWS or s[O_SPACE + space_at(s[S_COL], s[S_POS])] != EMPTY):
        return ERR_PHASE
    if ph == PH_WRECK and s[S_POS] != WRECK_ROW:
        return ERR_PHASE
    # the end: immediate when a kind of tile runs out
    e = end_condition(s, r)
    if e >= 0 and s[S_GAME_OVER] == 0:
        return ERR_END
    if s[S_GAME_OVER] == 1 and s[S_END_REASON] < 0:
        return ERR_END
    if s[S_ROUND] * players + s[S_SEAT] != s[S_TURN] and s[S_GAME_OVER] == 0:
        return ERR_PHASE
    return 0
