"""Playing Secrets of the Sea games: play_game (one game, optionally traced), play_batch (prange
over game indices), and the result row.

A game depends only on (rules, policies, seed, game index): its random stream comes from
simcore.rng.stream_for(seed, index), never from thread count or chunking.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from simcore.jit import driver, kernel
from simcore.results import common_columns
from simcore.rng import stream_for
from simcore.seats import seat_policies
from simcore.secrets_of_the_sea.engine import (
    ERR_TRACE,
    check_invariants,
    record,
    scores,
    setup,
    snapshot,
)
from simcore.secrets_of_the_sea.engine import winners as _winners
from simcore.secrets_of_the_sea.policies import XF_SIZE, play_turn
from simcore.secrets_of_the_sea.rules import (
    MAX_PLAYERS,
    N_BONUS,
    N_SPACES,
    N_TYPES,
    P_N_TILES,
    P_PLAYERS,
    PER_REGION,
    R_FRONT,
    R_VALUE,
    WRECK_BASE,
)
from simcore.secrets_of_the_sea.state import (
    A_GAME_END,
    C_BUSTS,
    C_DIVES,
    C_EMPTY_STOPS,
    C_EXCHANGES,
    C_FIGHTS_LOST,
    C_FIGHTS_WON,
    C_WRECK,
    EMPTY,
    END_ERROR,
    N_CNT,
    O_BONUS,
    O_CNT,
    O_OWNER,
    O_SPACE,
    ON_BOARD,
    S_BUSTS,
    S_CAVES,
    S_DIVES,
    S_EMPTY_STOPS,
    S_END,
    S_ERROR,
    S_EXCHANGES,
    S_FIGHTS,
    S_FIGHTS_WON,
    S_MOVES,
    S_OVER,
    S_SEAT,
    S_TURN,
    S_WRECK_TAKEN,
    STATE_SIZE,
    T_CAPA,
    T_CAPS,
    T_HEADER,
    T_NA,
    T_NS,
    T_ON,
)

# ---------------------------------------------------------------------------------------
# The result row: common columns (simcore.results) then Secrets of the Sea's counters.
GAME_COUNTERS = [
    "dives",
    "busts",
    "lamp_moves",
    "fights",
    "fights_won",
    "exchanges",
    "caves_opened",
    "empty_stops",
    "wreck_taken",
    "light_left",
    "dark_left",
    "wreck_left",
    "bonus_left",
]
SEAT_COUNTERS = [
    "tiles",
    "treasure_points",
    "bonus_tiles",
    "wreck_tiles",
    "monsters_won",
    "monsters_lost",
    "busts",
    "exchanges",
    "empty_stops",
    "dives",
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
# per-seat counters read from O_CNT (the first three are computed from the tiles)
_SEAT_SRC = np.array(
    [
        -1,
        -1,
        -1,
        C_WRECK,
        C_FIGHTS_WON,
        C_FIGHTS_LOST,
        C_BUSTS,
        C_EXCHANGES,
        C_EMPTY_STOPS,
        C_DIVES,
    ],
    dtype=np.int64,
)


@kernel
def play_from(s, r, pols, weights, rng, checked, tr, xf):
    """Play the game in s to its end. pols: int64[4] policy id per seat; weights:
    float64[4, W] (the whole matrix: a row view would cost reference counting per turn);
    xf: float64[XF_SIZE] scratch. Returns 0 or the first error code (also left in
    s[S_ERROR])."""
    err = check_invariants(s, r) if checked else 0
    while err == 0 and s[S_OVER] == 0:
        seat = s[S_SEAT]
        if tr[T_ON] == 1:
            snapshot(tr, s)
        err = play_turn(s, r, tr, seat, pols[seat], weights, rng, checked, xf)
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
    int64[4])."""
    players = r[P_PLAYERS]
    for k in range(rows.shape[1]):
        rows[i, k] = 0
    rows[i, R_GAME] = index
    rows[i, R_PLAYERS] = players
    scores(s, r, score, tb)
    w, mask = _winners(r, score, tb)
    if s[S_ERROR] != 0:
        w, mask = -1, 0
    rows[i, R_WINNER] = w
    rows[i, R_WIN_MASK] = mask
    rows[i, R_ROUNDS] = (s[S_TURN] + players - 1) // players
    rows[i, R_TURNS] = s[S_TURN]
    rows[i, R_END] = s[S_END]
    for seat in range(MAX_PLAYERS):
        rows[i, R_SCORE + seat] = score[seat]
        rows[i, R_TIEBREAK + seat] = tb[seat]
        rows[i, R_POLICY + seat] = policy_idx[seat] if seat < players else -1
    g = R_GAME_CNT
    rows[i, g] = s[S_DIVES]
    rows[i, g + 1] = s[S_BUSTS]
    rows[i, g + 2] = s[S_MOVES]
    rows[i, g + 3] = s[S_FIGHTS]
    rows[i, g + 4] = s[S_FIGHTS_WON]
    rows[i, g + 5] = s[S_EXCHANGES]
    rows[i, g + 6] = s[S_CAVES]
    rows[i, g + 7] = s[S_EMPTY_STOPS]
    rows[i, g + 8] = s[S_WRECK_TAKEN]
    light = 0
    dark = 0
    for q in range(N_SPACES):
        t = s[O_SPACE + q]
        if t != EMPTY:
            if t < PER_REGION:
                light += 1
            else:
                dark += 1
    rows[i, g + 9] = light
    rows[i, g + 10] = dark
    wl = 0
    for t in range(WRECK_BASE, r[P_N_TILES]):
        if s[O_OWNER + t] == ON_BOARD:
            wl += 1
    rows[i, g + 11] = wl
    bl = 0
    for b in range(N_BONUS):
        if s[O_BONUS + b] < 0:
            bl += 1
    rows[i, g + 12] = bl
    for seat in range(players):
        n = 0
        pts = 0
        for t in range(r[P_N_TILES]):
            if s[O_OWNER + t] == seat:
                n += 1
                if r[R_FRONT + t] < N_TYPES:
                    pts += r[R_VALUE + t]
        nb = 0
        for b in range(N_BONUS):
            if s[O_BONUS + b] == seat:
                nb += 1
        rows[i, R_SEAT_CNT + seat] = n
        rows[i, R_SEAT_CNT + MAX_PLAYERS + seat] = pts
        rows[i, R_SEAT_CNT + 2 * MAX_PLAYERS + seat] = nb
        for j in range(3, _SEAT_SRC.shape[0]):
            rows[i, R_SEAT_CNT + j * MAX_PLAYERS + seat] = s[O_CNT + seat * N_CNT + _SEAT_SRC[j]]
    rows[i, R_ERROR] = s[S_ERROR]


@kernel
def run_game(r, pol_ids, weights, seed, index, rotate, checked, tr, rows, i, g):
    """Play game `index` under `seed` and write its result row rows[i], in the scratch of
    one game g = (s, xf, rng, pols, wts, policy_idx, score, tb), reused from game to game
    (everything read is first written here). pol_ids: int64[players] and weights:
    float64[players, W] are the policy list before seat rotation."""
    s, xf, rng, pols, wts, policy_idx, score, tb = g
    players = r[P_PLAYERS]
    stream_for(np.uint64(seed), np.uint64(index), rng)
    seat_policies(players, index, rotate, pol_ids, weights, pols, wts, policy_idx)
    for k in range(XF_SIZE):
        xf[k] = 0.0
    setup(s, r, tr, rng)
    play_from(s, r, pols, wts, rng, checked, tr, xf)
    fill_row(s, r, index, policy_idx, score, tb, rows, i)
    record(tr, s, A_GAME_END, s[S_END], rows[i, R_WINNER], rows[i, R_WIN_MASK], s[S_ERROR])


@driver
def new_scratch(w):
    """The scratch of one game (see run_game); w: weights per seat."""
    return (
        np.zeros(STATE_SIZE, dtype=np.int64),
        np.zeros(XF_SIZE, dtype=np.float64),
        np.zeros(1, dtype=np.uint64),
        np.zeros(MAX_PLAYERS, dtype=np.int64),
        np.zeros((MAX_PLAYERS, w), dtype=np.float64),
        np.full(MAX_PLAYERS, -1, dtype=np.int64),
        np.zeros(MAX_PLAYERS, dtype=np.int64),
        np.zeros(MAX_PLAYERS, dtype=np.int64),
    )


@driver
def play_game(r, pol_ids, weights, seed, index, rotate, checked, tr, row):
    """Play game `index` under `seed` and write its result row. pol_ids: int64[players] and
    weights: float64[players, W] are the policy list before seat rotation. tr: trace buffer
    (state.new_trace). Returns the final state (int64[STATE_SIZE])."""
    g = new_scratch(weights.shape[1])
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
        g = new_scratch(weights.shape[1])
        for i in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
            run_game(r, pol_ids, weights, seed, start + i, rotate, checked, tr, rows, i, g)
