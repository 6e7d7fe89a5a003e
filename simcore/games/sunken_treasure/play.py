"""Playing Sunken Treasure: the game's turn loop and result row, plugged into the shared driver
(simcore.frame.skeleton): play_game (one game, optionally traced) and play_batch (blocks of games in
parallel).

The common columns with one player: `winner` is 0 when the target was banked within the solo
turn limit, else -1 with `win_mask` 0 (a loss, not a shared win).
"""

from __future__ import annotations

from simcore.frame.contract import GameContract, StateFields
from simcore.frame.jit import kernel
from simcore.frame.skeleton import DERIVED, RowLayout, ahead_if_won, bind_driver, counter_block
from simcore.games.sunken_treasure import (
    engine,
    engine_invariants,
    search_player,
    state,
    trained_player,
)
from simcore.games.sunken_treasure.board import MAX_PLAYERS
from simcore.games.sunken_treasure.engine import ERR_ILLEGAL, banked_value, head_start, n_banked
from simcore.games.sunken_treasure.policies import (
    LT_SIZE,
    POL_RANDOM,
    heuristic_turn,
    lock_table,
    random_turn,
)

# The result row: common columns, then Sunken Treasure's counters (name, state field).
ROW = RowLayout(
    MAX_PLAYERS,
    game_counters=(
        ("shark_attacks", state.S_ATTACKS),
        ("sharks_drawn", state.S_SHARKS_DRAWN),
        ("sharks_cleared", state.S_SHARKS_CLEARED),
        ("safety_played", state.S_SAFETY_PLAYED),
        ("item_reshuffles", state.S_RESHUFFLES),
        ("attempt_reshuffles", state.S_RESHUFFLES + 1),
        ("treasure_reshuffles", state.S_RESHUFFLES + 2),
        ("treasure_short", state.S_SHORT),
        ("treasure_left", DERIVED),
    ),
    seat_counters=(("cards_banked", DERIVED), *counter_block(state.COUNTER_NAMES)),
    seat_base=state.O_SEATS + state.F_CNT,
    seat_stride=state.SEAT_W,
)
N_COLS = len(ROW.columns)
K_TREASURE_LEFT = ROW.counter("treasure_left")
K_CARDS_BANKED = ROW.counter("cards_banked")


@kernel(inline="always")
def play_turn(s, r, tr, seat, pol, wts, rng, checked, x, xf, lt):
    """Let policy `pol` play the seat's turn (wts: float64[4, W], the weights of every seat; a
    kernel, and the whole matrix rather than a row view, so no reference counting per turn).
    x: int64[X_SIZE] scratch; lt: the lock table (policies.lock_table); xf is not used. A
    player that returns without completing its turn is an error."""
    turn = s[state.S_TURN]
    if pol == POL_RANDOM:
        err = random_turn(s, r, tr, seat, rng, checked, x)
    elif pol > POL_RANDOM:
        err = heuristic_turn(s, r, tr, seat, wts, rng, checked, lt)
    else:
        err = ERR_ILLEGAL
    if err == 0 and s[state.S_TURN] != turn + 1:
        err = ERR_ILLEGAL
    return err


@kernel(inline="always")
def standing(s, r, seat):
    """The seat's standing (docs/rules-sunken-treasure.md, "Standing"): (won, dollars banked)
    in that order, as won * 2**52 + banked (the dollars of all treasure cards are below
    2**26: 64 cards of at most $1,000,000). `won`: the seat banked the target and so ended and
    won the game. The dollars carried are not counted: they are at risk, and the winner rule
    does not look at them."""
    won = s[state.S_END_REASON] == state.END_TARGET and s[state.S_WINNER] == seat
    return ahead_if_won(banked_value(s, r, seat) + head_start(r, seat), won, 52)


@kernel(inline="always")
def standing_version(s, r, t):
    """Changes after every turn that may have changed a standing: the engine bumps
    S_STANDINGS wherever a banked value or the winner changes (state.py), so the shared loop
    looks at the standings only after those turns (a few in a game of about 50 turns)."""
    return s[state.S_STANDINGS]


@kernel
def derived(s, r, k, seat):
    """The counters that are not one state field."""
    if k == K_TREASURE_LEFT:
        return s[state.S_TRE_N] + s[state.S_TRE_DN]
    if k == K_CARDS_BANKED:
        return n_banked(s, r, seat)
    return 0


# the hooks: each kernel is the hook of its name (simcore.frame.contract)
CONTRACT = GameContract.declare(
    __name__,
    ROW,
    StateFields.of(state, trace_full=engine.ERR_TRACE),
    (engine.setup, play_turn, engine_invariants.check_invariants, engine.snapshot),
    (engine.scores, engine.record, standing, engine.winners, derived, standing_version),
    search_player.HOOKS,
    trained_player.trained_features,
    trained_width=trained_player.TRAINED_WIDTH,
    tables=lock_table,  # filled once per block of games
    x_size=state.X_SIZE,
    table_size=LT_SIZE,
    zero_state=False,
)
DRIVER = bind_driver(CONTRACT)
play_game = DRIVER.play_game
play_batch = DRIVER.play_batch
