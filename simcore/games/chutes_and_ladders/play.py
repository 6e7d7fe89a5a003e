"""Playing Chutes and Ladders: the one player (the spinner), the result row and the contract
that plugs the game into the shared driver (simcore.frame.skeleton).

The common columns: `rounds` are the spins per player (rounds begun; a 1-player game's rounds
are its spins), `turns` the spins of all seats; `score_k` is seat k's square at the end (100
for the winner). A game ended by the round limit has winner -1 and win mask 0.
"""

from __future__ import annotations

from simcore.frame.contract import GameContract, StateFields
from simcore.frame.jit import kernel
from simcore.frame.skeleton import RowLayout, ahead_if_won, bind_driver, counter_block
from simcore.games.chutes_and_ladders import engine, state
from simcore.games.chutes_and_ladders.board import MAX_PLAYERS

POL_SPINNER = 0  # the only player: spin and move

ROW = RowLayout(
    MAX_PLAYERS,
    game_counters=(("won_by_ladder", state.S_BY_LADDER),),
    seat_counters=counter_block(state.COUNTER_NAMES),
    seat_base=state.O_SEATS + state.F_CNT,
    seat_stride=state.SEAT_W,
)
N_COLS = len(ROW.columns)


@kernel(inline="always")
def play_turn(s, r, tr, seat, pol, wts, rng, checked, x, xf, tab):
    """The seat's turn: one spin (engine.spin); in checked mode the invariants after it. Any
    policy but the spinner is an error (the game has no other)."""
    if pol != POL_SPINNER:
        return engine.ERR_ILLEGAL
    err = engine.spin(s, r, tr, seat, rng)
    if err == 0 and checked:
        err = engine.check_invariants(s, r)
    return err


@kernel(inline="always")
def standing(s, r, seat):
    """The seat's standing (higher is better): its square, and 2**52 more for the winner."""
    return ahead_if_won(s[engine.fld(seat, state.F_SQUARE)], s[state.S_WINNER] == seat, 52)


# the hooks: each kernel is the hook of its name (simcore.frame.contract)
CONTRACT = GameContract.declare(
    __name__,
    ROW,
    StateFields.of(state, trace_full=engine.ERR_TRACE),
    (engine.setup, play_turn, engine.check_invariants, engine.snapshot, engine.scores),
    (engine.record, standing, engine.winners),
)
DRIVER = bind_driver(CONTRACT)
play_game = DRIVER.play_game
play_batch = DRIVER.play_batch
