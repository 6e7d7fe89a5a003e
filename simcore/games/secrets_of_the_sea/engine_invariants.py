"""Checked mode of Secrets of the Sea: check_invariants, run after every action by tests, fuzzing
and `balance simulate --checked` (never in a benchmark). It returns the engine's ERR_* code of
the first invariant broken (tiles conserved, knowledge flags, the hidden-tile tables against a
recount, the dive's phase, the end condition applied), or 0."""

from __future__ import annotations

import numpy as np

from simcore.frame.jit import kernel
from simcore.games.secrets_of_the_sea import board as B
from simcore.games.secrets_of_the_sea import engine as E
from simcore.games.secrets_of_the_sea import rules as R
from simcore.games.secrets_of_the_sea import state as S


@kernel
def check_invariants(s, r):
    """Return 0 when every invariant holds, else the ERR_* code of the first one broken."""
    players = r[R.P_PLAYERS]
    n_tiles = r[R.P_N_TILES]
    # every board tile on exactly one space of its region, or in front of a seat, or out
    for t in range(n_tiles):
        o = s[S.O_OWNER + t]
        if o != S.ON_BOARD and o != S.OUT and (o < 0 or o >= players):
            return E.ERR_TILES
        if t < R.WRECK_BASE:
            n = 0
            for q in range(B.N_SPACES):
                if s[S.O_SPACE + q] == t:
                    n += 1
                    if B.SPACE_REGION[q] != (0 if t < B.PER_REGION else 1):
                        return E.ERR_REGION
            if n != (1 if o == S.ON_BOARD else 0):
                return E.ERR_TILES
    for q in range(B.N_SPACES):
        t = s[S.O_SPACE + q]
        k = s[S.O_KNOWN + q]
        if t != S.EMPTY and (t < 0 or t >= R.WRECK_BASE):
            return E.ERR_TILES
        if k < S.UNLIT or k > S.FRONT or (t == S.EMPTY and k != S.UNLIT):
            return E.ERR_KNOWN
        if k == S.FRONT and E.front_kind(r, t) != R.MONSTER:
            return E.ERR_KNOWN
    # the tables agree with a recount
    for seat in range(R.MAX_PLAYERS):
        for b in range(R.N_BONUS):
            n = 0
            for t in range(n_tiles):
                if s[S.O_OWNER + t] == seat and E.bonus_category(r, t) == b:
                    n += 1
            if s[S.O_HELD + seat * R.N_BONUS + b] != n:
                return E.ERR_TABLES
    for g in range(2):
        for c in range(S.N_HC):
            n = 0
            v = 0
            u = 0
            for k in range(B.PER_REGION):
                q = B.REGION_SPACES[g, k]
                t = s[S.O_SPACE + q]
                if t == S.EMPTY or s[S.O_KNOWN + q] == S.FRONT or E.hidden_category(r, t) != c:
                    continue
                n += 1
                v += E.tile_value(r, t)
                if s[S.O_KNOWN + q] == S.UNLIT:
                    u += 1
            o = g * S.N_HC + c
            if s[S.O_HID_N + o] != n or s[S.O_HID_SUM + o] != v or s[S.O_UNLIT + o] != u:
                return E.ERR_TABLES
    for b in range(R.N_BONUS):
        o = s[S.O_BONUS + b]
        if o < -1 or o >= players:
            return E.ERR_BONUS
    # the counts of tiles left and the held treasures
    n_light = 0
    n_dark = 0
    for q in range(B.N_SPACES):
        if s[S.O_SPACE + q] != S.EMPTY:
            if B.SPACE_REGION[q] == 0:
                n_light += 1
            else:
                n_dark += 1
    n_wreck = 0
    held = np.int64(0)
    for t in range(n_tiles):
        if t >= R.WRECK_BASE and s[S.O_OWNER + t] == S.ON_BOARD:
            n_wreck += 1
        if s[S.O_OWNER + t] >= 0 and E.front_kind(r, t) < R.N_TYPES:
            held |= np.int64(1) << t
    n_bonus = 0
    for b in range(R.N_BONUS):
        if s[S.O_BONUS + b] < 0:
            n_bonus += 1
    if s[S.S_LIGHT_LEFT] != n_light or s[S.S_DARK_LEFT] != n_dark or s[S.S_WRECK_LEFT] != n_wreck:
        return E.ERR_TABLES
    if s[S.S_BONUS_LEFT] != n_bonus or s[S.S_HELD_TREASURES] != held:
        return E.ERR_TABLES
    # each seat's running points are its score (engine.scores)
    for seat in range(R.MAX_PLAYERS):
        v = 0
        for t in range(n_tiles):
            if s[S.O_OWNER + t] == seat:
                v += E.tile_value(r, t)
        for b in range(R.N_BONUS):
            if s[S.O_BONUS + b] == seat:
                v += r[R.P_BONUS_POINTS]
        if s[S.O_POINTS + seat] != v:
            return E.ERR_TABLES
    # the dive
    ph = s[S.S_PHASE]
    if ph < S.PH_ROLL or ph > S.PH_WRECK or s[S.S_BLOCKED] < 0 or s[S.S_BLOCKED] > 3:
        return E.ERR_PHASE
    if s[S.S_SEAT] < 0 or s[S.S_SEAT] >= players:
        return E.ERR_PHASE
    if ph == S.PH_ROLL:
        if s[S.S_COL] != -1 or s[S.S_POS] != 0 or s[S.S_BLOCKED] != 0:
            return E.ERR_PHASE
    else:
        if s[S.S_BLOCKED] == 3:
            return E.ERR_PHASE
        if ph != S.PH_CHOOSE and (s[S.S_COL] < 0 or s[S.S_COL] >= B.COLS or s[S.S_POS] < 1):
            return E.ERR_PHASE
        if s[S.S_POS] < 0 or s[S.S_POS] > B.WRECK_ROW:
            return E.ERR_PHASE
    if ph == S.PH_LIT or ph == S.PH_FIGHT:
        if s[S.S_POS] > B.ROWS or s[S.O_SPACE + E.space_at(s[S.S_COL], s[S.S_POS])] != s[S.S_TILE]:
            return E.ERR_PHASE
        lamp = E.lamp_kind(r, s[S.S_TILE])
        if ph == S.PH_FIGHT and E.front_kind(r, s[S.S_TILE]) != R.MONSTER:
            return E.ERR_PHASE
        if ph == S.PH_LIT and lamp == R.MONSTER:
            return E.ERR_PHASE
    if ph == S.PH_EMPTY and (
        s[S.S_POS] > B.ROWS or s[S.O_SPACE + E.space_at(s[S.S_COL], s[S.S_POS])] != S.EMPTY
    ):
        return E.ERR_PHASE
    if ph == S.PH_WRECK and s[S.S_POS] != B.WRECK_ROW:
        return E.ERR_PHASE
    # the end: immediate when a kind of tile runs out
    e = E.end_condition(s, r)
    if e >= 0 and s[S.S_GAME_OVER] == 0:
        return E.ERR_END
    if s[S.S_GAME_OVER] == 1 and s[S.S_END_REASON] < 0:
        return E.ERR_END
    if s[S.S_ROUND] * players + s[S.S_SEAT] != s[S.S_TURN] and s[S.S_GAME_OVER] == 0:
        return E.ERR_PHASE
    return 0
