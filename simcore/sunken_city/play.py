"""Playing Sunken City: the game's turn loop and result row, plugged into the shared driver
(simcore.skeleton): play_game (one game, optionally traced) and play_batch (blocks of games in
parallel).

A game depends only on (rules, policies, seed, game index): its random stream comes from
simcore.rng.stream_for(seed, index), never from thread count or chunking.
"""

from __future__ import annotations

from simcore.jit import driver, kernel
from simcore.skeleton import DERIVED, RowLayout, bind_driver
from simcore.sunken_city import engine, engine_invariants, state
from simcore.sunken_city.engine import (
    ERR_ILLEGAL,
    treasure,
)
from simcore.sunken_city.engine import setup as deal
from simcore.sunken_city.players.random import POL_RANDOM, random_turn
from simcore.sunken_city.players.scratch import F_SIZE as XF_SIZE
from simcore.sunken_city.players.scratch import X_SIZE
from simcore.sunken_city.players.turn import POL_HEURISTIC, heuristic_turn
from simcore.sunken_city.rules import MAX_PLAYERS, N_SPACES, N_TREASURES
from simcore.sunken_city.state import (
    BANKED,
    C_CHIPS_GAINED,
    C_CHIPS_MISSED,
    C_CHIPS_USED,
    C_MOVE_POINTS_SPENT,
    C_SENT_HOME,
    C_SENT_OTHERS,
    C_SPIRIT_MOVES,
    C_TREASURES_LOST,
    C_TREASURES_RECOVERED,
    N_COUNTERS,
    O_COUNTERS,
    O_STACKS,
    S_BANISHMENTS,
    S_CHIP_SUPPLY,
    S_DRAW_SPACE,
    S_GROTTO_MOVES,
    S_HOUSES_PLACED,
    S_PIECES_SUNK,
    S_ROUND,
    S_SINK_STEPS,
    S_SINKING_PHASES,
    S_SPIRIT_MOVES,
    S_STARVED_TURNS,
    S_STREETS_PLACED,
    S_TURN,
)

# The result row: common columns, then Sunken City's counters (name, state field).
ROW = RowLayout(
    MAX_PLAYERS,
    game_counters=(
        ("spirit_moves", S_SPIRIT_MOVES),
        ("pieces_sunk", S_PIECES_SUNK),
        ("streets_placed", S_STREETS_PLACED),
        ("houses_placed", S_HOUSES_PLACED),
        ("starved_turns", S_STARVED_TURNS),
        ("final_street_space", DERIVED),
        ("streets_left", DERIVED),
        ("chips_left", S_CHIP_SUPPLY),
        # the advanced game (seed 001); 0 in the basic game
        ("sinking_phases", S_SINKING_PHASES),
        ("banishments", S_BANISHMENTS),
        ("grotto_moves", S_GROTTO_MOVES),
        ("sinking_steps", S_SINK_STEPS),
    ),
    seat_counters=(
        ("sent_home", C_SENT_HOME),
        ("sent_others_home", C_SENT_OTHERS),
        ("chips_gained", C_CHIPS_GAINED),
        ("chips_used", C_CHIPS_USED),
        ("chips_missed", C_CHIPS_MISSED),
        ("treasures_banked", DERIVED),
        ("treasures_recovered", C_TREASURES_RECOVERED),
        ("treasures_lost", C_TREASURES_LOST),
        ("spirit_moved", C_SPIRIT_MOVES),
        ("steps", C_MOVE_POINTS_SPENT),
    ),
    seat_base=O_COUNTERS,
    seat_stride=N_COUNTERS,
)
N_COLS = len(ROW.columns)
K_FINAL_STREET_SPACE = ROW.counter("final_street_space")
K_STREETS_LEFT = ROW.counter("streets_left")
K_TREASURES_BANKED = ROW.counter("treasures_banked")


@driver
def play_turn(s, r, tr, seat, pol, wts, rng, checked, x, xf, tab):
    """Let policy `pol` play the seat's whole turn with its weights wts[seat] (a driver: the
    players read their weights as a row). x: int64[X_SIZE] and xf: float64[XF_SIZE], the
    players' scratch; tab is not used."""
    if pol == POL_RANDOM:
        return random_turn(s, r, tr, seat, rng, checked, x)
    if pol == POL_HEURISTIC:
        return heuristic_turn(s, r, tr, seat, wts[seat], rng, checked, x, xf)
    return ERR_ILLEGAL


@kernel
def setup(s, r, tr, rng):
    """Deal the game (Sunken City's setup draws nothing at random)."""
    deal(s, r, tr)


@kernel
def length(s, r):
    """(rounds, turns) played."""
    return s[S_ROUND], s[S_TURN]


@kernel
def derived(s, r, k, seat):
    """The counters that are not one state field."""
    if k == K_FINAL_STREET_SPACE:
        return s[S_DRAW_SPACE] + 1
    if k == K_STREETS_LEFT:
        left = 0
        for q in range(N_SPACES):
            left += s[O_STACKS + q]
        return left
    if k == K_TREASURES_BANKED:
        v = 0
        for t in range(N_TREASURES):
            if treasure(s, seat, t) == BANKED:
                v += 1
        return v
    return 0


DRIVER = bind_driver(
    __name__, ROW, state, engine, engine_invariants, x_size=X_SIZE, xf_size=XF_SIZE
)
play_game = DRIVER.play_game
play_batch = DRIVER.play_batch
