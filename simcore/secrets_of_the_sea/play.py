"""Playing Secrets of the Sea: the game's turn loop and result row, plugged into the shared
driver (simcore.skeleton): play_game (one game, optionally traced) and play_batch (blocks of
games in parallel).

A game depends only on (rules, policies, seed, game index): its random stream comes from
simcore.rng.stream_for(seed, index), never from thread count or chunking.
"""

from __future__ import annotations

from simcore.jit import kernel
from simcore.secrets_of_the_sea import engine, engine_invariants, state
from simcore.secrets_of_the_sea.policies import XF_SIZE
from simcore.secrets_of_the_sea.policies import play_turn as policy_turn
from simcore.secrets_of_the_sea.rules import (
    MAX_PLAYERS,
    N_BONUS,
    N_TYPES,
    P_N_TILES,
    P_PLAYERS,
    R_FRONT,
    R_VALUE,
)
from simcore.secrets_of_the_sea.state import (
    C_BUSTS,
    C_DIVES,
    C_EMPTY_STOPS,
    C_EXCHANGES,
    C_FIGHTS_LOST,
    C_FIGHTS_WON,
    C_WRECK,
    N_CNT,
    O_BONUS,
    O_CNT,
    O_OWNER,
    S_BONUS_LEFT,
    S_BUSTS,
    S_CAVES,
    S_DARK_LEFT,
    S_DIVES,
    S_EMPTY_STOPS,
    S_EXCHANGES,
    S_FIGHTS,
    S_FIGHTS_WON,
    S_LIGHT_LEFT,
    S_MOVES,
    S_TURN,
    S_WRECK_LEFT,
    S_WRECK_TAKEN,
)
from simcore.skeleton import DERIVED, RowLayout, bind_driver

# The result row: common columns, then Secrets of the Sea's counters (name, state field). The
# tiles left are the engine's running counts (check_invariants holds them equal to a recount).
ROW = RowLayout(
    MAX_PLAYERS,
    game_counters=(
        ("dives", S_DIVES),
        ("busts", S_BUSTS),
        ("lamp_moves", S_MOVES),
        ("fights", S_FIGHTS),
        ("fights_won", S_FIGHTS_WON),
        ("exchanges", S_EXCHANGES),
        ("caves_opened", S_CAVES),
        ("empty_stops", S_EMPTY_STOPS),
        ("wreck_taken", S_WRECK_TAKEN),
        ("light_left", S_LIGHT_LEFT),
        ("dark_left", S_DARK_LEFT),
        ("wreck_left", S_WRECK_LEFT),
        ("bonus_left", S_BONUS_LEFT),
    ),
    seat_counters=(
        ("tiles", DERIVED),
        ("treasure_points", DERIVED),
        ("bonus_tiles", DERIVED),
        ("wreck_tiles", C_WRECK),
        ("monsters_won", C_FIGHTS_WON),
        ("monsters_lost", C_FIGHTS_LOST),
        ("busts", C_BUSTS),
        ("exchanges", C_EXCHANGES),
        ("empty_stops", C_EMPTY_STOPS),
        ("dives", C_DIVES),
    ),
    seat_base=O_CNT,
    seat_stride=N_CNT,
)
N_COLS = len(ROW.columns)
K_TILES = ROW.counter("tiles")
K_TREASURE_POINTS = ROW.counter("treasure_points")
K_BONUS_TILES = ROW.counter("bonus_tiles")


@kernel(inline="always")
def play_turn(s, r, tr, seat, pol, wts, rng, checked, x, xf, tab):
    """The seat's whole turn (policies.play_turn as policy_turn); x and tab are not used."""
    return policy_turn(s, r, tr, seat, pol, wts, rng, checked, xf)


@kernel
def length(s, r):
    """(rounds begun, turns played): the game ends mid-round when a kind of tile runs out."""
    players = r[P_PLAYERS]
    return (s[S_TURN] + players - 1) // players, s[S_TURN]


@kernel
def derived(s, r, k, seat):
    """The seat counters that are not one state field: tiles in front of the seat, the points
    of its treasure tiles, its bonus tiles."""
    n = 0
    if k == K_BONUS_TILES:
        for b in range(N_BONUS):
            if s[O_BONUS + b] == seat:
                n += 1
        return n
    for t in range(r[P_N_TILES]):
        if s[O_OWNER + t] == seat:
            if k == K_TILES:
                n += 1
            elif r[R_FRONT + t] < N_TYPES:
                n += r[R_VALUE + t]
    return n


DRIVER = bind_driver(__name__, ROW, state, engine, engine_invariants, xf_size=XF_SIZE)
play_game = DRIVER.play_game
play_batch = DRIVER.play_batch
