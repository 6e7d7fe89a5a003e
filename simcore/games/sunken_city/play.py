"""Playing Sunken City: the game's turn loop and result row, plugged into the shared driver
(simcore.frame.skeleton): play_game (one game, optionally traced) and play_batch (blocks of games in
parallel).
"""

from __future__ import annotations

from simcore.frame.contract import GameContract, StateFields
from simcore.frame.jit import driver, kernel
from simcore.frame.skeleton import DERIVED, RowLayout, bind_driver
from simcore.games.sunken_city import state
from simcore.games.sunken_city.engine import (
    ERR_ILLEGAL,
    ERR_TRACE,
    record,
    scores,
    snapshot,
    treasure,
    treasure_value,
    winners,
)
from simcore.games.sunken_city.engine import setup as deal
from simcore.games.sunken_city.engine_invariants import check_invariants
from simcore.games.sunken_city.players.random import POL_RANDOM, random_turn
from simcore.games.sunken_city.players.scratch import X_SIZE, XF_SIZE
from simcore.games.sunken_city.players.search import search_eval, search_options, search_play
from simcore.games.sunken_city.players.trained_player import (
    TRAINED_WIDTH,
    TRAINED_X_SIZE,
    TRAINED_XF_SIZE,
    trained_features,
)
from simcore.games.sunken_city.players.turn import POL_HEURISTIC, heuristic_turn
from simcore.games.sunken_city.rules import (
    MAX_PLAYERS,
    N_SPACES,
    N_TREASURES,
    P_SCORING,
    R_SEAT_POINTS,
    R_SEAT_VALUE,
)

# The result row: common columns, then Sunken City's counters (name, state field).
ROW = RowLayout(
    MAX_PLAYERS,
    game_counters=(
        ("spirit_moves", state.S_SPIRIT_MOVES),
        ("pieces_sunk", state.S_PIECES_SUNK),
        ("streets_placed", state.S_STREETS_PLACED),
        ("houses_placed", state.S_HOUSES_PLACED),
        ("starved_turns", state.S_STARVED_TURNS),
        ("final_street_space", DERIVED),
        ("streets_left", DERIVED),
        ("chips_left", state.S_CHIP_SUPPLY),
        # the advanced game (seed 001); 0 in the basic game
        ("sinking_phases", state.S_SINKING_PHASES),
        ("banishments", state.S_BANISHMENTS),
        ("grotto_moves", state.S_GROTTO_MOVES),
        ("sinking_steps", state.S_SINK_STEPS),
    ),
    seat_counters=(
        ("sent_home", state.C_SENT_HOME),
        ("sent_others_home", state.C_SENT_OTHERS),
        ("chips_gained", state.C_CHIPS_GAINED),
        ("chips_used", state.C_CHIPS_USED),
        ("chips_missed", state.C_CHIPS_MISSED),
        ("treasures_banked", DERIVED),
        ("treasures_recovered", state.C_TREASURES_RECOVERED),
        ("treasures_lost", state.C_TREASURES_LOST),
        ("spirit_moved", state.C_SPIRIT_MOVES),
        ("steps", state.C_MOVE_POINTS_SPENT),
    ),
    seat_base=state.O_COUNTERS,
    seat_stride=state.N_COUNTERS,
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
    return s[state.S_ROUND], s[state.S_TURN]


@kernel
def standing(s, r, seat):
    """The seat's standing (docs/rules-sunken-city.md, "Standing"): its score and tie-break as
    `scores` counts them, score * 128 + tie-break ('count': treasures banked, then their
    values, at most 67 (+ seat_value, at most 50); 'value': the values banked), the
    compensation included (seat_points, seat_value: a head start)."""
    cnt = 0
    val = 0
    for t in range(N_TREASURES):
        if treasure(s, seat, t) == state.BANKED:
            cnt += 1
            val += treasure_value(t)
    val += r[R_SEAT_VALUE + seat]  # at most 67 + 50: below 128
    if r[P_SCORING] == 0:
        return (cnt + r[R_SEAT_POINTS + seat]) * 128 + val
    return (val + r[R_SEAT_POINTS + seat]) * 128


@kernel
def derived(s, r, k, seat):
    """The counters that are not one state field."""
    if k == K_FINAL_STREET_SPACE:
        return s[state.S_DRAW_SPACE] + 1
    if k == K_STREETS_LEFT:
        left = 0
        for q in range(N_SPACES):
            left += s[state.O_STACKS + q]
        return left
    if k == K_TREASURES_BANKED:
        v = 0
        for t in range(N_TREASURES):
            if treasure(s, seat, t) == state.BANKED:
                v += 1
        return v
    return 0


# the hooks: each kernel is the hook of its name (simcore.frame.contract)
CONTRACT = GameContract.declare(
    __name__,
    ROW,
    StateFields.of(state, trace_full=ERR_TRACE),
    (setup, play_turn, check_invariants, snapshot, scores, record, standing, length, derived),
    winners,
    (search_options, search_play, search_eval),
    trained_features,
    trained_width=TRAINED_WIDTH,
    x_size=X_SIZE + TRAINED_X_SIZE,  # the trained player's hook has its scratch behind
    xf_size=XF_SIZE + TRAINED_XF_SIZE,
)
DRIVER = bind_driver(CONTRACT)
play_game = DRIVER.play_game
play_batch = DRIVER.play_batch
