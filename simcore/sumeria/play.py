"""Playing Sumeria: the game's decision loop and result row, plugged into the shared driver
(simcore.skeleton): play_game (one game, optionally traced) and play_batch (blocks of games in
parallel).

A game depends only on (rules, policies, seed, game index): its random stream comes from
simcore.rng.stream_for(seed, index), never from thread count or chunking.
"""

from __future__ import annotations

from simcore.jit import kernel
from simcore.skeleton import DERIVED, RowLayout, bind_driver
from simcore.sumeria import engine, engine_round, state
from simcore.sumeria.board import N_LOCS, N_TYPES
from simcore.sumeria.engine import (
    ERR_TRACE,
    snapshot,
)
from simcore.sumeria.engine_invariants import (
    check_invariants,
)
from simcore.sumeria.engine_round import (
    advance,
)
from simcore.sumeria.policies import decide
from simcore.sumeria.rules import MAX_PLAYERS
from simcore.sumeria.state import (
    C_ADDS,
    C_CONTROLS,
    C_FIRST_ROUNDS,
    C_JUMPS,
    C_MOVES,
    C_REMOVES,
    C_SECONDS,
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
    S_GAME_OVER,
    S_JUMPS,
    S_PHASE,
    S_ROUND,
    S_SEAT,
    S_SOLE_SCORED,
    S_SWAPS,
    X_SIZE,
    X_ZEROED,
    XF_SIZE,
)
from simcore.tracebuf import trace_full

# The result row: common columns, then Sumeria's counters (name, state field).
ROW = RowLayout(
    MAX_PLAYERS,
    game_counters=(
        ("order_swaps", S_SWAPS),
        ("jumps", S_JUMPS),
        ("tiles_discarded", S_DISCARDED),
        ("empty_scored", S_EMPTY_SCORED),
        ("sole_scored", S_SOLE_SCORED),
        ("tile_choices", S_CHOICES),
        ("tiles_left", S_BAG),
    ),
    seat_counters=(
        ("adds", C_ADDS),
        ("moves", C_MOVES),
        ("removes", C_REMOVES),
        ("jump_moves", C_JUMPS),
        ("controls", C_CONTROLS),
        ("seconds", C_SECONDS),
        ("first_player_rounds", C_FIRST_ROUNDS),
        ("tiles", DERIVED),
        ("traders_on_board", DERIVED),
    ),
    seat_base=O_SCNT,
    seat_stride=N_CNT,
)
N_COLS = len(ROW.columns)
K_TILES = ROW.counter("tiles")


@kernel
def play_from(s, r, pols, weights, rng, checked, tr, x, xf, tab):
    """Play the game in s to its end. pols: int64[4] policy id per seat; weights:
    float64[4, W]; x: int64[X_SIZE] (its first X_ZEROED values zeroed before the game) and
    xf: float64[XF_SIZE], the players' scratch; tab is not used. Returns 0 or the first error
    code (the driver ends the game with it). The deciding seat's weights are a row view of
    the matrix: a kernel does no reference counting, so the view costs nothing per
    decision."""
    err = check_invariants(s, r) if checked else 0
    while err == 0 and s[S_GAME_OVER] == 0:
        seat = s[S_SEAT]
        snapshot(tr, s)
        err = decide(s, r, tr, seat, pols[seat], weights[seat], rng, x, xf)
        if err == 0 and checked:
            err = check_invariants(s, r)
        # the automatic end-of-round steps belong to the decision that set them off
        while err == 0 and s[S_PHASE] == PH_SCORE:
            advance(s, r, tr, rng)
            if checked:
                err = check_invariants(s, r)
        s[S_DECISION] += 1
        if trace_full(tr):
            err = ERR_TRACE
    return err


@kernel
def length(s, r):
    """(rounds, turns) of the row: the round counter at the end and the actions taken (adds,
    moves, removes)."""
    return s[S_ROUND], s[S_ACTIONS]


@kernel
def derived(s, r, k, seat):
    """The seat counters that are not one state field: the tiles the seat holds, its traders
    on the board."""
    n = 0
    if k == K_TILES:
        for t in range(N_TYPES):
            n += s[O_HELD + seat * N_TYPES + t]
        return n
    for q in range(N_LOCS):
        if s[O_LOC + q] == seat:
            n += 1
    return n


DRIVER = bind_driver(
    __name__, ROW, state, engine, engine_round, x_size=X_SIZE, x_zeroed=X_ZEROED, xf_size=XF_SIZE
)
play_game = DRIVER.play_game
play_batch = DRIVER.play_batch
