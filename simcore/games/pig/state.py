"""Pig's state layout (one flat int64 array, each field at a named offset), its end reasons,
error codes, trace records and trace buffer."""

from __future__ import annotations

from simcore.frame import tracebuf
from simcore.frame.jit import kernel

MAX_PLAYERS = 2

S_SEAT = 0  # seat on turn
S_TURN = 1  # turns completed (the index of the current turn)
S_GAME_OVER = 2  # 1 when the game is over
S_END_REASON = 3  # END_*, -1 while the game runs
S_ERROR = 4  # first error code, 0 none
S_WINNER = 5  # the seat that reached the target, -1 none
S_TOTAL = 6  # the turn total
S_ROLLS = 7  # rolls in the game
S_HOLDS = 8  # holds in the game (a standing changes only at a hold)
O_SEATS = 9  # [MAX_PLAYERS x SEAT_W] one block per seat, F_* fields
F_SCORE = 0  # points banked
F_ROLLS = 1  # rolls
F_PIGS = 2  # turns ended by the pig
F_HOLDS = 3  # turns ended by a hold
F_BEST = 4  # the largest turn total banked
F_LOST = 5  # points of turn totals lost to the pig
SEAT_W = 6
# the names of the seat's counters F_ROLLS .. F_LOST, in order (the row's seat counters)
SEAT_COUNTERS = ("seat_rolls", "pig_outs", "holds", "best_turn", "points_lost")
STATE_SIZE = O_SEATS + MAX_PLAYERS * SEAT_W

END_TARGET = 0  # a player held and reached the target
END_TURN_LIMIT = 1  # max_turns turns were played (no winner)
END_ERROR = 2
END_REASONS = ("target", "turn-limit", "error")

ERR_ILLEGAL = 1  # a hold at turn total 0, or an unknown policy
ERR_TRACE = 2  # the trace buffer is full
ERR_SEAT = 3  # invariants: the seat on turn is not the turn's
ERR_POINTS = 4  # a score or the turn total is negative, or a score at the target mid-game
ERR_COUNTS = 5  # the rolls, holds or pig-outs do not add up
ERR_END = 6  # the end fields disagree

# Trace records: turn, seat, kind, then a, b.
A_ROLL = 0  # face, turn total after
A_PIG = 1  # face (1), turn total lost
A_HOLD = 2  # turn total banked, score after
A_GAME_END = 3  # end reason, winner, win mask, error
ACTION_WIDTH = 9

TRACE = tracebuf.TraceShape(ACTION_WIDTH, STATE_SIZE, actions_per_turn=8)


def field(seat: int, f: int) -> int:
    """The offset of field f of a seat's block."""
    return O_SEATS + seat * SEAT_W + f


seat_field = kernel(field, inline="always")  # the same, for the kernels
