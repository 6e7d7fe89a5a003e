"""Playing Sunken City games: play_game (one game, optionally traced), play_batch (prange over
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
from simcore.sunken_city.engine import (
    ERR_ILLEGAL,
    ERR_TRACE,
    record,
    scores,
    setup,
    snapshot,
    treasure,
    winners,
)
from simcore.sunken_city.engine_invariants import check_invariants
from simcore.sunken_city.players.random import POL_RANDOM, random_turn
from simcore.sunken_city.players.scratch import F_SIZE, X_SIZE
from simcore.sunken_city.players.turn import POL_HEURISTIC, heuristic_turn
from simcore.sunken_city.rules import MAX_PLAYERS, N_SPACES, N_TREASURES, P_PLAYERS
from simcore.sunken_city.state import (
    A_GAME_END,
    BANKED,
    C_CHIPS_GAINED,
    C_CHIPS_MISSED,
    C_CHIPS_USED,
    C_SENT_HOME,
    C_SENT_OTHERS,
    C_SPIRIT_MOVES,
    END_ERROR,
    O_STACKS,
    S_ERROR,
    S_GROTTO_MOVES,
    S_HOUSES_PLACED,
    S_PIECES_SUNK,
    S_ROUND,
    S_SEAT,
    S_SINK_STEPS,
    S_SPIRIT_MOVES,
    S_STARVED_TURNS,
    S_STREETS_PLACED,
    S_TURN,
    STATE_SIZE,
    T_CAPA,
    T_CAPS,
    T_HEADER,
    T_NA,
    T_NS,
    T_ON,
)
from simcore.sunken_city.state import C_MOVE_POINTS_SPENT as C_STEPS
from simcore.sunken_city.state import C_TREASURES_LOST as C_LOST
from simcore.sunken_city.state import C_TREASURES_RECOVERED as C_RECOVERED
from simcore.sunken_city.state import N_COUNTERS as N_CNT
from simcore.sunken_city.state import O_COUNTERS as O_CNT
from simcore.sunken_city.state import S_BANISHMENTS as S_BANISHED
from simcore.sunken_city.state import S_CHIP_SUPPLY as S_SUPPLY
from simcore.sunken_city.state import S_DRAW_SPACE as S_DRAW
from simcore.sunken_city.state import S_END_REASON as S_END
from simcore.sunken_city.state import S_GAME_OVER as S_OVER
from simcore.sunken_city.state import S_SINKING_PHASES as S_PHASES

# ---------------------------------------------------------------------------------------
# The result row: common columns (simcore.results) then Sunken City's counters.
GAME_COUNTERS = [
    "spirit_moves",
    "pieces_sunk",
    "streets_placed",
    "houses_placed",
    "starved_turns",
    "final_street_space",
    "streets_left",
    "chips_left",
    # the advanced game (seed 001); 0 in the basic game
    "sinking_phases",
    "banishments",
    "grotto_moves",
    "sinking_steps",
]
SEAT_COUNTERS = [
    "sent_home",
    "sent_others_home",
    "chips_gained",
    "chips_used",
    "chips_missed",
    "treasures_banked",
    "treasures_recovered",
    "treasures_lost",
    "spirit_moved",
    "steps",
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
_SEAT_SRC = np.array(
    [
        C_SENT_HOME,
        C_SENT_OTHERS,
        C_CHIPS_GAINED,
        C_CHIPS_USED,
        C_CHIPS_MISSED,
        -1,
        C_RECOVERED,
        C_LOST,
        C_SPIRIT_MOVES,
        C_STEPS,
    ],
    dtype=np.int64,
)


@driver
def play_turn(s, r, tr, seat, pol, w, rng, checked, x, xf):
    """Let policy `pol` (weights w: float64[W]) play the seat's whole turn."""
    if pol == POL_RANDOM:
        return random_turn(s, r, tr, seat, rng, checked, x)
    if pol == POL_HEURISTIC:
        return heuristic_turn(s, r, tr, seat, w, rng, checked, x, xf)
    return ERR_ILLEGAL


@driver
def play_from(s, r, pols, weights, rng, checked, tr):
    """Play the game in s to its end. pols: int64[4] policy id per seat; weights:
    float64[4, W]. Returns 0 or the first error code (also left in s[S_ERROR])."""
    x = np.zeros(X_SIZE, dtype=np.int64)
    xf = np.zeros(F_SIZE, dtype=np.float64)
    err = check_invariants(s, r) if checked else 0
    while err == 0 and s[S_OVER] == 0:
        seat = s[S_SEAT]
        snapshot(tr, s)
        err = play_turn(s, r, tr, seat, pols[seat], weights[seat], rng, checked, x, xf)
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
    row[R_TURNS] = s[S_TURN]
    row[R_END] = s[S_END]
    for seat in range(MAX_PLAYERS):
        row[R_SCORE + seat] = score[seat]
        row[R_TIEBREAK + seat] = tb[seat]
        row[R_POLICY + seat] = policy_idx[seat] if seat < players else -1
    g = R_GAME_CNT
    row[g] = s[S_SPIRIT_MOVES]
    row[g + 1] = s[S_PIECES_SUNK]
    row[g + 2] = s[S_STREETS_PLACED]
    row[g + 3] = s[S_HOUSES_PLACED]
    row[g + 4] = s[S_STARVED_TURNS]
    row[g + 5] = s[S_DRAW] + 1
    left = 0
    for k in range(N_SPACES):
        left += s[O_STACKS + k]
    row[g + 6] = left
    row[g + 7] = s[S_SUPPLY]
    row[g + 8] = s[S_PHASES]
    row[g + 9] = s[S_BANISHED]
    row[g + 10] = s[S_GROTTO_MOVES]
    row[g + 11] = s[S_SINK_STEPS]
    for j in range(_SEAT_SRC.shape[0]):
        for seat in range(players):
            if _SEAT_SRC[j] >= 0:
                v = s[O_CNT + seat * N_CNT + _SEAT_SRC[j]]
            else:
                v = 0
                for t in range(N_TREASURES):
                    if treasure(s, seat, t) == BANKED:
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
    setup(s, r, tr)
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
