"""Playing Secrets of the Sea: the game's turn loop and result row, plugged into the shared
driver (simcore.frame.skeleton): play_game (one game, optionally traced) and play_batch (blocks of
games in parallel).
"""

from __future__ import annotations

from simcore.frame.contract import GameContract, StateFields
from simcore.frame.jit import kernel
from simcore.frame.skeleton import DERIVED, RowLayout, bind_driver
from simcore.games.secrets_of_the_sea import (
    engine,
    engine_invariants,
    search_player,
    state,
    trained_player,
)
from simcore.games.secrets_of_the_sea.policies import XF_SIZE
from simcore.games.secrets_of_the_sea.policies import play_turn as policy_turn
from simcore.games.secrets_of_the_sea.rules import (
    MAX_PLAYERS,
    N_BONUS,
    N_TYPES,
    P_N_TILES,
    R_FRONT,
    R_SEAT_POINTS,
    R_VALUE,
)

# The result row: common columns, then Secrets of the Sea's counters (name, state field). The
# tiles left are the engine's running counts (check_invariants holds them equal to a recount).
ROW = RowLayout(
    MAX_PLAYERS,
    game_counters=(
        ("dives", state.S_DIVES),
        ("busts", state.S_BUSTS),
        ("lamp_moves", state.S_MOVES),
        ("fights", state.S_FIGHTS),
        ("fights_won", state.S_FIGHTS_WON),
        ("exchanges", state.S_EXCHANGES),
        ("caves_opened", state.S_CAVES),
        ("empty_stops", state.S_EMPTY_STOPS),
        ("wreck_taken", state.S_WRECK_TAKEN),
        ("light_left", state.S_LIGHT_LEFT),
        ("dark_left", state.S_DARK_LEFT),
        ("wreck_left", state.S_WRECK_LEFT),
        ("bonus_left", state.S_BONUS_LEFT),
    ),
    seat_counters=(
        ("tiles", DERIVED),
        ("treasure_points", DERIVED),
        ("bonus_tiles", DERIVED),
        ("wreck_tiles", state.C_WRECK),
        ("monsters_won", state.C_FIGHTS_WON),
        ("monsters_lost", state.C_FIGHTS_LOST),
        ("busts", state.C_BUSTS),
        ("exchanges", state.C_EXCHANGES),
        ("empty_stops", state.C_EMPTY_STOPS),
        ("dives", state.C_DIVES),
    ),
    seat_base=state.O_CNT,
    seat_stride=state.N_CNT,
)
N_COLS = len(ROW.columns)
K_TILES = ROW.counter("tiles")
K_TREASURE_POINTS = ROW.counter("treasure_points")
K_BONUS_TILES = ROW.counter("bonus_tiles")


@kernel(inline="always")
def play_turn(s, r, tr, seat, pol, wts, rng, checked, x, xf, tab):
    """The seat's whole turn (policies.play_turn as policy_turn); x and tab are not used."""
    return policy_turn(s, r, tr, seat, pol, wts, rng, checked, xf)


@kernel(inline="always")
def standing(s, r, seat):
    """The seat's standing (docs/rules-secrets-of-the-sea.md, "Standing"): its score as
    `scores` counts it (the points of its tiles and bonus tiles; no tie-break), kept up to
    date by the engine (check_invariants compares it with a recount)."""
    return s[state.O_POINTS + seat] + r[R_SEAT_POINTS + seat]  # compensation: a head start


@kernel
def derived(s, r, k, seat):
    """The seat counters that are not one state field: tiles in front of the seat, the points
    of its treasure tiles, its bonus tiles."""
    n = 0
    if k == K_BONUS_TILES:
        for b in range(N_BONUS):
            if s[state.O_BONUS + b] == seat:
                n += 1
        return n
    for t in range(r[P_N_TILES]):
        if s[state.O_OWNER + t] == seat:
            if k == K_TILES:
                n += 1
            elif r[R_FRONT + t] < N_TYPES:
                n += r[R_VALUE + t]
    return n


# the hooks: each kernel is the hook of its name (simcore.frame.contract)
CONTRACT = GameContract.declare(
    __name__,
    ROW,
    StateFields.of(state, trace_full=engine.ERR_TRACE),
    (engine.setup, play_turn, engine_invariants.check_invariants, engine.snapshot),
    (engine.scores, engine.record, standing, derived),
    search_player.HOOKS,
    trained_player.trained_features,
    trained_width=trained_player.TRAINED_WIDTH,
    xf_size=XF_SIZE,
    zero_state=False,
)
DRIVER = bind_driver(CONTRACT)
play_game = DRIVER.play_game
play_batch = DRIVER.play_batch
