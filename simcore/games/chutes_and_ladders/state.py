"""The state layout of Chutes and Ladders (one flat int64 array, fields at named offsets) and
its trace buffer."""

from __future__ import annotations

from simcore.frame import tracebuf
from simcore.games.chutes_and_ladders.board import MAX_PLAYERS

# Scalars: s[S_*].
S_SEAT = 0  # seat on turn (after the game's last turn: the seat that played it)
S_TURN = 1  # turns (spins) played so far
S_GAME_OVER = 2  # 1 when the game is over
S_END_REASON = 3  # END_*, -1 while the game runs
S_ERROR = 4  # first error code, 0 none
S_WINNER = 5  # the seat that landed on 100, -1 none
S_BY_LADDER = 6  # 1 when the winning spin reached 100 by a ladder
N_SCAL = 8

# Per-seat fields: s[O_SEATS + seat * SEAT_W + F_*].
O_SEATS = N_SCAL
F_SQUARE = 0  # the piece's square, 0 (off the board) to 100
F_CNT = 1  # [N_CNT] counters, C_* indices
C_SPINS = 0  # spins (turns) of the seat
C_LADDERS = 1  # ladders climbed
C_CHUTES = 2  # chutes slid down
C_ADVANCED = 3  # squares moved by the spinner (before links)
C_CLIMBED = 4  # squares gained on ladders
C_SLID = 5  # squares lost on chutes
C_STAYED = 6  # spins that would have passed 100 (the piece stays)
# the C_* counters' names by index (the row's seat counters)
COUNTER_NAMES = ("spins", "ladders", "chutes", "advanced", "climbed", "slid", "stayed")
N_CNT = len(COUNTER_NAMES)
SEAT_W = F_CNT + N_CNT
STATE_SIZE = O_SEATS + MAX_PLAYERS * SEAT_W

# End reasons.
END_FINISH = 0  # a piece landed exactly on 100
END_ROUND_LIMIT = 1  # the rules' max_rounds passed (safety cap, no winner)
END_ERROR = 2
END_REASONS = ("finish", "round-limit", "error")

# Trace records (turn, seat, kind, a, b, c, ...).
A_SPIN = 0  # the spin, the square it reaches (-1: it would pass 100, the piece stays), the
#             square the piece ends on (after a ladder or chute)
A_GAME_END = 1  # end reason, winner, win mask, error
ACTION_WIDTH = 9

TRACE = tracebuf.TraceShape(ACTION_WIDTH, STATE_SIZE, actions_per_turn=1)


def seat_field(seat: int, f: int) -> int:
    """The offset of field F_* (or F_CNT + C_*) of a seat."""
    return O_SEATS + seat * SEAT_W + f
