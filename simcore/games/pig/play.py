"""Playing Pig: the turn, the result row and the game's contract with the frame
(simcore.frame.contract), bound into its driver (simcore.frame.skeleton.bind_driver)."""

from __future__ import annotations

from simcore.frame.contract import GameContract, StateFields
from simcore.frame.jit import kernel
from simcore.frame.skeleton import RowLayout, bind_driver, counter_block
from simcore.games.pig import engine, search_player, trained_player
from simcore.games.pig import state as S
from simcore.games.pig.players import finish_turn

ROW = RowLayout(
    S.MAX_PLAYERS,
    game_counters=(("rolls", S.S_ROLLS),),
    seat_counters=counter_block(S.SEAT_COUNTERS, first=S.F_ROLLS),
    seat_base=S.O_SEATS,
    seat_stride=S.SEAT_W,
)


@kernel(inline="always")
def play_turn(s, r, tr, seat, pol, wts, rng, checked, x, xf, tab):
    """Policy `pol` plays the seat's whole turn (x, xf, tab are not used)."""
    return finish_turn(s, r, tr, seat, pol, wts, rng, checked)


# the hooks: each kernel is the hook of its name (simcore.frame.contract)
CONTRACT = GameContract.declare(
    __name__,
    ROW,
    StateFields.of(S, trace_full=S.ERR_TRACE),
    (engine.setup, play_turn, engine.check_invariants, engine.snapshot, engine.scores),
    (engine.record, engine.standing, engine.winners, engine.standing_version),
    search_player.HOOKS,
    trained_player.trained_features,
    trained_width=trained_player.TRAINED_WIDTH,
)
DRIVER = bind_driver(CONTRACT)
play_game = DRIVER.play_game
play_batch = DRIVER.play_batch
