"""Playing Sunken Treasure games: play_game (one game, optionally traced), play_batch (prange
over game indices), and the result row.

A game depends only on (rules, policies, seed, game index): its random stream comes from
simcore.rng.stream_for(seed, index), never from thread count or chunking.

The common columns (simcore.results) with one player: `winner` is 0 when the target was
banked within the solo turn limit, else -1 with `win_mask` 0 (a loss, not a shared win).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from simcore.jit import driver, kernel
from simcore.results import common_columns
from simcore.rng import stream_for
from simcore.seats import seat_policies
from simcore.sunken_treasure.board import MAX_PLAYERS
from simcore.sunken_treasure.engine import (
    ERR_ILLEGAL,
    ERR_TRACE,
    check_invariants,
    n_banked,
    record,
    scores,
    setup,
    snapshot,
    winners,
)
from simcore.sunken_treasure.policies import (
    LT_SIZE,
    POL_RANDOM,
    heuristic_turn,
    lock_table,
    random_turn,
)
from simcore.sunken_treasure.rules import P_PLAYERS
from simcore.sunken_treasure.state import (
    A_GAME_END,
    C_ABANDONED,
    C_ATTACKED,
    C_BANKS,
    C_CARDS_TAKEN,
    C_LOCKS_FAILED,
    C_OPENED,
    C_ROBBED,
    C_SAFETY,
    C_SURFACED,
    C_THEFTS,
    C_THEFTS_WON,
    C_TRAP_SURFACED,
    C_VALUE_LOST,
    END_ERROR,
    F_CNT,
    O_SEATS,
    S_ATTACKS,
    S_END,
    S_ERROR,
    S_OVER,
    S_RESHUFFLES,
    S_SAFETY_PLAYED,
    S_SEAT,
    S_SHARKS_CLEARED,
    S_SHARKS_DRAWN,
    S_SHORT,
    S_TRE_DN,
    S_TRE_N,
    S_TURN,
    SEAT_W,
    STATE_SIZE,
    T_CAPA,
    T_CAPS,
    T_HEADER,
    T_NA,
    T_NS,
    T_ON,
    X_SIZE,
)

# ---------------------------------------------------------------------------------------
# The result row: common columns (simcore.results) then Sunken Treasure's counters.
GAME_COUNTERS = [
    "shark_attacks",
    "sharks_drawn",
    "sharks_cleared",
    "safety_played",
    "item_reshuffles",
    "attempt_reshuffles",
    "treasure_reshuffles",
    "treasure_short",
    "treasure_left",
]
SEAT_COUNTERS = [
    "cards_banked",
    "containers_opened",
    "treasure_taken",
    "locks_failed",
    "trap_surfaced",
    "shark_attacked",
    "value_lost",
    "thefts",
    "thefts_won",
    "cards_robbed",
    "surfaced",
    "banks",
    "safety",
    "abandoned",
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
# Where each seat counter comes from: a C_* counter, or -1 = banked cards (computed).
_SEAT_SRC = np.array(
    [
        -1,
        C_OPENED,
        C_CARDS_TAKEN,
        C_LOCKS_FAILED,
        C_TRAP_SURFACED,
        C_ATTACKED,
        C_VALUE_LOST,
        C_THEFTS,
        C_THEFTS_WON,
        C_ROBBED,
        C_SURFACED,
        C_BANKS,
        C_SAFETY,
        C_ABANDONED,
    ],
    dtype=np.int64,
)


@kernel(inline="always")
def play_turn(s, r, tr, seat, pol, w, rng, checked, x, lt):
    """Let policy `pol` play the seat's turn (w: float64[4, W], the weights of every seat; a
    kernel, and the whole matrix rather than a row view, so no reference counting per turn)."""
    if pol == POL_RANDOM:
        return random_turn(s, r, tr, seat, rng, checked, x)
    if pol > POL_RANDOM:
        return heuristic_turn(s, r, tr, seat, w, rng, checked, lt)
    return ERR_ILLEGAL


@kernel
def play_from(s, r, pols, weights, rng, checked, tr, x, lt):
    """Play the game in s to its end. pols: int64[4] policy id per seat; weights:
    float64[4, W]; x: int64[X_SIZE] scratch; lt: the lock table (policies.lock_table).
    Returns 0 or the first error code (also left in s[S_ERROR])."""
    err = check_invariants(s, r) if checked else 0
    while err == 0 and s[S_OVER] == 0:
        seat = s[S_SEAT]
        if tr[T_ON] == 1:
            snapshot(tr, s)
        turn = s[S_TURN]
        err = play_turn(s, r, tr, seat, pols[seat], weights, rng, checked, x, lt)
        if err == 0 and s[S_TURN] != turn + 1:
            err = ERR_ILLEGAL  # a player returned without completing its turn
        if tr[T_ON] == 1 and (tr[T_NA] > tr[T_CAPA] or tr[T_NS] > tr[T_CAPS]):
            err = ERR_TRACE
    if err != 0:
        s[S_ERROR] = err
        s[S_END] = END_ERROR
        s[S_OVER] = 1
    return err


@kernel
def fill_row(s, r, index, policy_idx, score, tb, rows, i):
    """Write the result row rows[i] of a finished game (rows: int64[n, N_COLS]; score, tb:
    int64[4] scratch)."""
    players = r[P_PLAYERS]
    for k in range(rows.shape[1]):
        rows[i, k] = 0
    rows[i, R_GAME] = index
    rows[i, R_PLAYERS] = players
    for k in range(MAX_PLAYERS):
        score[k] = 0
        tb[k] = 0
    scores(s, r, score, tb)
    w, mask = winners(s, r)
    if s[S_ERROR] != 0:
        w, mask = -1, 0
    rows[i, R_WINNER] = w
    rows[i, R_WIN_MASK] = mask
    # rounds begun (the game ends mid-round when the target is banked)
    rows[i, R_ROUNDS] = (s[S_TURN] + players - 1) // players
    rows[i, R_TURNS] = s[S_TURN]
    rows[i, R_END] = s[S_END]
    for seat in range(MAX_PLAYERS):
        rows[i, R_SCORE + seat] = score[seat]
        rows[i, R_TIEBREAK + seat] = tb[seat]
        rows[i, R_POLICY + seat] = policy_idx[seat] if seat < players else -1
    g = R_GAME_CNT
    rows[i, g] = s[S_ATTACKS]
    rows[i, g + 1] = s[S_SHARKS_DRAWN]
    rows[i, g + 2] = s[S_SHARKS_CLEARED]
    rows[i, g + 3] = s[S_SAFETY_PLAYED]
    rows[i, g + 4] = s[S_RESHUFFLES]
    rows[i, g + 5] = s[S_RESHUFFLES + 1]
    rows[i, g + 6] = s[S_RESHUFFLES + 2]
    rows[i, g + 7] = s[S_SHORT]
    rows[i, g + 8] = s[S_TRE_N] + s[S_TRE_DN]
    for j in range(_SEAT_SRC.shape[0]):
        for seat in range(players):
            if _SEAT_SRC[j] >= 0:
                v = s[O_SEATS + seat * SEAT_W + F_CNT + _SEAT_SRC[j]]
            else:
                v = n_banked(s, r, seat)
            rows[i, R_SEAT_CNT + j * MAX_PLAYERS + seat] = v
    rows[i, R_ERROR] = s[S_ERROR]


@kernel
def run_game(r, pol_ids, weights, seed, index, rotate, checked, tr, rows, i, g):
    """Play game `index` under `seed` and write its result row rows[i], in the scratch of
    one game g = (s, x, rng, pols, wts, policy_idx, score, tb, lt), reused from game to game
    (everything read is first written here). pol_ids: int64[players] and weights:
    float64[players, W] are the policy list before seat rotation."""
    s, x, rng, pols, wts, policy_idx, score, tb, lt = g
    players = r[P_PLAYERS]
    stream_for(np.uint64(seed), np.uint64(index), rng)
    seat_policies(players, index, rotate, pol_ids, weights, pols, wts, policy_idx)
    for k in range(X_SIZE):
        x[k] = 0
    setup(s, r, tr, rng)
    play_from(s, r, pols, wts, rng, checked, tr, x, lt)
    fill_row(s, r, index, policy_idx, score, tb, rows, i)
    record(tr, s, A_GAME_END, s[S_END], rows[i, R_WINNER], rows[i, R_WIN_MASK], s[S_ERROR])


@driver
def new_scratch(r, w):
    """The scratch of one game (see run_game); w: weights per seat. Its lock table is filled
    here, once per block of games (it depends on the rules only)."""
    lt = np.zeros(LT_SIZE, dtype=np.float64)
    lock_table(r, lt)
    return (
        np.zeros(STATE_SIZE, dtype=np.int64),
        np.zeros(X_SIZE, dtype=np.int64),
        np.zeros(1, dtype=np.uint64),
        np.zeros(MAX_PLAYERS, dtype=np.int64),
        np.zeros((MAX_PLAYERS, w), dtype=np.float64),
        np.full(MAX_PLAYERS, -1, dtype=np.int64),
        np.zeros(MAX_PLAYERS, dtype=np.int64),
        np.zeros(MAX_PLAYERS, dtype=np.int64),
        lt,
    )


@driver
def play_game(r, pol_ids, weights, seed, index, rotate, checked, tr, row):
    """Play game `index` under `seed` and write its result row. pol_ids: int64[players] and
    weights: float64[players, W] are the policy list before seat rotation. tr: trace buffer
    (state.new_trace). Returns the final state (int64[STATE_SIZE])."""
    g = new_scratch(r, weights.shape[1])
    rows = row.reshape((1, row.shape[0]))
    run_game(r, pol_ids, weights, seed, index, rotate, checked, tr, rows, 0, g)
    return g[0]


BLOCK = 64  # games per block of play_batch: one scratch per block, not per game


@driver(parallel=True)
def play_batch(r, pol_ids, weights, seed, start, rotate, checked, rows):
    """Play games start .. start + n - 1 in parallel; rows: int64[n, N_COLS]. The games are
    split in blocks of BLOCK; each block allocates its scratch once."""
    n = rows.shape[0]
    nb = (n + BLOCK - 1) // BLOCK
    for b in prange(nb):
        tr = np.zeros(T_HEADER, dtype=np.int32)
        g = new_scratch(r, weights.shape[1])
        for i in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
            run_game(r, pol_ids, weights, seed, start + i, rotate, checked, tr, rows, i, g)
