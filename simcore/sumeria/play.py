"""Playing Sumeria games: play_game (one game, optionally traced), play_batch (prange over
game indices), and the result row.

A game depends only on (rules, policies, seed, game index): its random stream comes from
simcore.rng.stream_for(seed, index), never from thread count or chunking.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from simcore.jit import driver
from simcore.results import common_columns
from simcore.rng import stream_for
from simcore.seats import seat_policies
from simcore.sumeria.board import N_LOCS, N_TYPES
from simcore.sumeria.engine import (
    ERR_TRACE,
    advance,
    check_invariants,
    record,
    scores,
    setup,
    snapshot,
    winners,
)
from simcore.sumeria.policies import decide
from simcore.sumeria.rules import MAX_PLAYERS, P_PLAYERS
from simcore.sumeria.state import (
    A_GAME_END,
    C_ADDS,
    C_CONTROLS,
    C_FIRST_ROUNDS,
    C_JUMPS,
    C_MOVES,
    C_REMOVES,
    C_SECONDS,
    END_ERROR,
    N_CNT,
    O_HELD,
    O_LOC,
    O_SCNT,
    PH_SCORE,
    S_ACTIONS,
    S_BAG,
    S_CHOICES,
    S_DECISION,
    S_DISCARDED,
    S_EMPTY_SCORED,
    S_END,
    S_ERROR,
    S_JUMPS,
    S_OVER,
    S_PHASE,
    S_ROUND,
    S_SEAT,
    S_SOLE_SCORED,
    S_SWAPS,
    STATE_SIZE,
    T_CAPA,
    T_CAPS,
    T_HEADER,
    T_NA,
    T_NS,
    T_ON,
    X_SIZE,
    X_ZEROED,
    XF_SIZE,
)

# ---------------------------------------------------------------------------------------
# The result row: common columns (simcore.results) then Sumeria's counters.
GAME_COUNTERS = [
    "order_swaps",
    "jumps",
    "tiles_discarded",
    "empty_scored",
    "sole_scored",
    "tile_choices",
    "tiles_left",
]
SEAT_COUNTERS = [
    "adds",
    "moves",
    "removes",
    "jump_moves",
    "controls",
    "seconds",
    "first_player_rounds",
    "tiles",
    "traders_on_board",
]
COLUMNS = (
    common_columns(MAX_PLAYERS)
    + GAME_COUNTERS
    + [f"{name}_{s}" for name in SEAT_COUNTERS for s in range(MAX_PLAYERS)]
    + ["error"]
)
COL = {name: i for i, name in enumerate(COLUMNS)}
N_COLS = len(COLUMNS)
R_GAME, R_PLAYERS, R_WINNER, R_WIN_MASK = (
    COL[k] for k in ("game", "players", "winner", "win_mask")
)
R_ROUNDS, R_TURNS, R_END = COL["rounds"], COL["turns"], COL["end_reason"]
R_SCORE, R_TIEBREAK, R_POLICY = COL["score_0"], COL["tiebreak_0"], COL["policy_0"]
R_GAME_CNT = COL[GAME_COUNTERS[0]]
R_SEAT_CNT = COL[f"{SEAT_COUNTERS[0]}_0"]
R_ERROR = COL["error"]
# per-seat counter sources: a C_* index, or -1 tiles held, -2 traders on the board
_SEAT_SRC = np.array(
    [C_ADDS, C_MOVES, C_REMOVES, C_JUMPS, C_CONTROLS, C_SECONDS, C_FIRST_ROUNDS, -1, -2],
    dtype=np.int64,
)


@driver
def play_from(s, r, pols, weights, rng, checked, tr):
    """Play the game in s to its end. pols: int64[4] policy id per seat; weights:
    float64[4, W]. Returns 0 or the first error code (also left in s[S_ERROR])."""
    x = np.empty(X_SIZE, dtype=np.int64)
    x[:X_ZEROED] = 0
    xf = np.zeros(XF_SIZE, dtype=np.float64)
    # the deciding seat's weights, copied (a row view would cost reference counting per decision)
    w = np.empty(weights.shape[1], dtype=np.float64)
    err = check_invariants(s, r) if checked else 0
    while err == 0 and s[S_OVER] == 0:
        seat = s[S_SEAT]
        snapshot(tr, s)
        for k in range(w.shape[0]):
            w[k] = weights[seat, k]
        err = decide(s, r, tr, seat, pols[seat], w, rng, x, xf)
        if err == 0 and checked:
            err = check_invariants(s, r)
        # the automatic end-of-round steps belong to the decision that set them off
        while err == 0 and s[S_PHASE] == PH_SCORE:
            advance(s, r, tr, rng)
            if checked:
                err = check_invariants(s, r)
        s[S_DECISION] += 1
        if tr[T_ON] == 1 and (tr[T_NA] > tr[T_CAPA] or tr[T_NS] > tr[T_CAPS]):
            err = ERR_TRACE
    if err != 0:
        s[S_ERROR] = err
        s[S_END] = END_ERROR
        s[S_OVER] = 1
    return err


@driver
def fill_row(s, r, index, policy_idx, row):
    """Write the result row of a finished game (row: int64[N_COLS])."""
    players = r[P_PLAYERS]
    row[:] = 0
    row[R_GAME] = index
    row[R_PLAYERS] = players
    score = np.zeros(MAX_PLAYERS, dtype=np.int64)
    tb = np.zeros(MAX_PLAYERS, dtype=np.int64)
    scores(s, r, score, tb)
    w, mask = winners(r, score, tb)
    if s[S_ERROR] != 0:
        w, mask = -1, 0
    row[R_WINNER] = w
    row[R_WIN_MASK] = mask
    row[R_ROUNDS] = s[S_ROUND]
    row[R_TURNS] = s[S_ACTIONS]
    row[R_END] = s[S_END]
    for seat in range(MAX_PLAYERS):
        row[R_SCORE + seat] = score[seat]
        row[R_TIEBREAK + seat] = tb[seat]
        row[R_POLICY + seat] = policy_idx[seat] if seat < players else -1
    g = R_GAME_CNT
    row[g] = s[S_SWAPS]
    row[g + 1] = s[S_JUMPS]
    row[g + 2] = s[S_DISCARDED]
    row[g + 3] = s[S_EMPTY_SCORED]
    row[g + 4] = s[S_SOLE_SCORED]
    row[g + 5] = s[S_CHOICES]
    row[g + 6] = s[S_BAG]
    for j in range(_SEAT_SRC.shape[0]):
        for seat in range(players):
            src = _SEAT_SRC[j]
            if src >= 0:
                v = s[O_SCNT + seat * N_CNT + src]
            elif src == -1:
                v = 0
                for t in range(N_TYPES):
                    v += s[O_HELD + seat * N_TYPES + t]
            else:
                v = 0
                for q in range(N_LOCS):
                    if s[O_LOC + q] == seat:
                        v += 1
            row[R_SEAT_CNT + j * MAX_PLAYERS + seat] = v
    row[R_ERROR] = s[S_ERROR]


@driver
def play_game(r, pol_ids, weights, seed, index, rotate, checked, tr, row):
    """Play game `index` under `seed` and write its result row. pol_ids: int64[players] and
    weights: float64[players, W] are the policy list before seat rotation. tr: trace buffer
    (state.new_trace). Returns the final state (int64[STATE_SIZE])."""
    players = r[P_PLAYERS]
    rng = np.zeros(1, dtype=np.uint64)
    stream_for(np.uint64(seed), np.uint64(index), rng)
    pols = np.zeros(MAX_PLAYERS, dtype=np.int64)
    wts = np.zeros((MAX_PLAYERS, weights.shape[1]), dtype=np.float64)
    policy_idx = np.full(MAX_PLAYERS, -1, dtype=np.int64)
    seat_policies(players, index, rotate, pol_ids, weights, pols, wts, policy_idx)
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    setup(s, r, tr, rng)
    play_from(s, r, pols, wts, rng, checked, tr)
    fill_row(s, r, index, policy_idx, row)
    record(tr, s, A_GAME_END, s[S_END], row[R_WINNER], row[R_WIN_MASK], s[S_ERROR])
    return s


@driver(parallel=True)
def play_batch(r, pol_ids, weights, seed, start, rotate, checked, rows):
    """Play games start .. start + n - 1 in parallel; rows: int64[n, N_COLS]."""
    n = rows.shape[0]
    for i in prange(n):
        tr = np.zeros(T_HEADER, dtype=np.int32)
        play_game(r, pol_ids, weights, seed, start + i, rotate, checked, tr, rows[i])
