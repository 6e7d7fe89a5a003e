"""Playing Sumeria: one decision at a time through the shared turn loop, and the result row,
plugged into the shared driver (simcore.frame.skeleton): play_game (one game, optionally traced) and
play_batch (blocks of games in parallel). A Sumeria "turn" for the driver is one decision (a
setup placement, an action, or a tile choice) with the automatic end-of-round steps it sets
off; the `search` player (simcore.frame.search) searches each decision (sumeria/search.py).
"""

from __future__ import annotations

from simcore.frame.contract import GameContract, StateFields
from simcore.frame.jit import kernel
from simcore.frame.skeleton import DERIVED, RowLayout, bind_driver
from simcore.games.sumeria import engine, engine_round, state, trained_player
from simcore.games.sumeria.board import N_LOCS, N_TYPES
from simcore.games.sumeria.engine_invariants import check_invariants
from simcore.games.sumeria.engine_round import advance, tile_points
from simcore.games.sumeria.policies import decide
from simcore.games.sumeria.rules import MAX_PLAYERS, R_SEAT_POINTS
from simcore.games.sumeria.search import play_candidate, search_options

# The result row: common columns, then Sumeria's counters (name, state field).
ROW = RowLayout(
    MAX_PLAYERS,
    game_counters=(
        ("order_swaps", state.S_SWAPS),
        ("jumps", state.S_JUMPS),
        ("tiles_discarded", state.S_DISCARDED),
        ("empty_scored", state.S_EMPTY_SCORED),
        ("sole_scored", state.S_SOLE_SCORED),
        ("tile_choices", state.S_CHOICES),
        ("tiles_left", state.S_BAG),
    ),
    seat_counters=(
        ("adds", state.C_ADDS),
        ("moves", state.C_MOVES),
        ("removes", state.C_REMOVES),
        ("jump_moves", state.C_JUMPS),
        ("controls", state.C_CONTROLS),
        ("seconds", state.C_SECONDS),
        ("first_player_rounds", state.C_FIRST_ROUNDS),
        ("tiles", DERIVED),
        ("traders_on_board", DERIVED),
    ),
    seat_base=state.O_SCNT,
    seat_stride=state.N_CNT,
)
N_COLS = len(ROW.columns)
K_TILES = ROW.counter("tiles")


@kernel
def settle(s, r, tr, rng, checked, err):
    """What follows a decision (err: its error code): the invariants in checked mode, then the
    automatic end-of-round steps it set off (they belong to it), then the decision counter.
    Returns 0 or the first error code."""
    if err == 0 and checked:
        err = check_invariants(s, r)
    while err == 0 and s[state.S_PHASE] == state.PH_SCORE:
        advance(s, r, tr, rng)
        if checked:
            err = check_invariants(s, r)
    s[state.S_DECISION] += 1
    return err


@kernel
def play_turn(s, r, tr, seat, pol, wts, rng, checked, x, xf, tab):
    """One decision of `seat` by policy `pol` (a setup placement, an action on its turn, or a
    tile choice) and the automatic steps after it: the shared turn loop (simcore.frame.skeleton
    play_turns) calls it until the game is over. wts: float64[4, W]; the deciding seat's
    weights are a row view of the matrix (a kernel does no reference counting, so the view
    costs nothing per decision); x: int64[X_SIZE] (its first X_ZEROED values zeroed before the
    game) and xf: float64[XF_SIZE], the players' scratch; tab is not used. Returns 0 or the
    first error code (the driver ends the game with it)."""
    err = decide(s, r, tr, seat, pol, wts[seat], rng, x, xf)
    return settle(s, r, tr, rng, checked, err)


@kernel
def search_play(s, r, tr, seat, opt, pol, wts, rng, checked, x, xf, tab):
    """The `search` player's hook (simcore.frame.search): play candidate `opt` of the decision in
    front of `seat` (search.search_options; ranked with the seat's weights, the base player's)
    and the automatic steps after it, as play_turn does. A decision is the whole turn, so
    nothing is left for the base player `pol` to complete."""
    err = play_candidate(s, r, tr, seat, opt, wts[seat], x, xf)
    return settle(s, r, tr, rng, checked, err)


@kernel
def length(s, r):
    """(rounds, turns) of the row: the round counter at the end and the actions taken (adds,
    moves, removes)."""
    return s[state.S_ROUND], s[state.S_ACTIONS]


@kernel
def standing(s, r, seat):
    """The seat's standing (docs/rules-sumeria.md, "Standing"): the points of the Influence
    tiles it holds, then the most tiles of one type (the tie-break, at most tiles_per_type <=
    50), as points * 64 + most: the final scoring applied to the tiles held so far."""
    total = 0
    most = 0
    for t in range(N_TYPES):
        n = s[state.O_HELD + seat * N_TYPES + t]
        total += tile_points(r, n)
        if n > most:
            most = n
    return (total + r[R_SEAT_POINTS + seat]) * 64 + most  # compensation: a head start


@kernel
def derived(s, r, k, seat):
    """The seat counters that are not one state field: the tiles the seat holds, its traders
    on the board."""
    n = 0
    if k == K_TILES:
        for t in range(N_TYPES):
            n += s[state.O_HELD + seat * N_TYPES + t]
        return n
    for q in range(N_LOCS):
        if s[state.O_LOC + q] == seat:
            n += 1
    return n


# the hooks: each kernel is the hook of its name (simcore.frame.contract)
CONTRACT = GameContract.declare(
    __name__,
    ROW,
    StateFields.of(state, trace_full=engine.ERR_TRACE),
    (engine.setup, play_turn, check_invariants, engine.snapshot, engine_round.scores),
    (engine.record, standing, length, derived, search_options, search_play),
    trained_player.trained_features,
    trained_width=trained_player.TRAINED_WIDTH,
    x_size=state.X_SIZE,
    x_zeroed=state.X_ZEROED,
    xf_size=state.XF_SIZE,
)
DRIVER = bind_driver(CONTRACT)
play_game = DRIVER.play_game
play_batch = DRIVER.play_batch
