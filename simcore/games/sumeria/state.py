"""The state layout of Sumeria, the trace buffer and the scratch space (positions for tests and
docs: positions.py).

As in Sunken City, the kernels keep a position in ONE flat int64 array, each field at a named
offset below with its encoding commented; `view(s)` gives Python the same state as a
NamedTuple of numpy views (no copy). City-states are 0-based (named 1-8 outside the kernels);
an importance position 0 is the leftmost city-state tile (the most important).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simcore.frame import tracebuf
from simcore.frame.tracebuf import T_CAPA, T_CAPS, T_HEADER, T_NA, T_NS, T_ON  # noqa: F401 (re-exported)
from simcore.games.sumeria.board import MAX_DEG, N_LOCS, N_STATES, N_TYPES
from simcore.games.sumeria.rules import MAX_PLAYERS, MAX_SCORED

EMPTY = -1  # location content: no trader

# Phases.
PH_SETUP = 0  # initial placement of traders, in turn order
PH_TURN = 1  # a player's turn: add, move or remove
PH_CHOOSE = 2  # end of round: a controller chooses influence tiles
PH_OVER = 3
PH_SCORE = 4  # end of round: the automatic scoring steps between tile choices (engine.advance)

# ---------------------------------------------------------------------------------------
# Scalars: s[S_*].
S_PHASE = 0  # PH_*
S_SEAT = 1  # seat to decide (the player on turn, the placer, or the chooser)
S_FIRST = 2  # first player of the round (holds the first player pawn)
S_ROUND = 3  # round, 0-based
S_TURN = 4  # turn of the round (the turn marker), 0-based
S_IN_TURN = 5  # players who have acted in this turn (0..players-1)
S_ACTIONS = 6  # player actions taken (add, move, remove), the result row's 'turns'
S_PLACED = 7  # traders placed at setup
S_CHOOSE_POS = 8  # PH_CHOOSE: importance position being resolved (0..scored-1)
S_PICKS = 9  # PH_CHOOSE: tiles the controller still takes at that position
S_SECOND = 10  # PH_CHOOSE: second-place seat at that position, -1 none (or sole player)
S_BAG = 11  # tiles in the bag
S_END_REASON = 12  # end reason (END_*), -1 while the game runs
S_GAME_OVER = 13  # 1 when the game is over
S_ERROR = 14  # first error (engine ERR_* code), 0 none
S_DECISION = 15  # decisions made (placements, actions, tile choices): trace key
S_SWAPS = 16  # city-state tiles swapped by players' actions
S_DISCARDED = 17  # influence tiles discarded
S_JUMPS = 18  # moves that jumped over at least one trader
S_EMPTY_SCORED = 19  # scored city-states without any trader
S_SOLE_SCORED = 20  # scored city-states with traders of a single player
S_CHOICES = 21  # tile choices the players made (not automatic)
N_SCAL = 24

# Fields (offsets into the flat state array).
O_LOC = N_SCAL  # [56] location -> seat of the trader on it, EMPTY (-1)
O_ORDER = O_LOC + N_LOCS  # [8] importance position -> city-state (0 = leftmost, scored first)
O_POS = O_ORDER + N_STATES  # [8] city-state -> importance position
O_CNT = O_POS + N_STATES  # [8 x 4] traders of each seat in each city-state
O_TOWNS = O_CNT + N_STATES * MAX_PLAYERS  # [8 x 4] traders of each seat on its towns
O_RESERVE = O_TOWNS + N_STATES * MAX_PLAYERS  # [4] traders in front of each seat
O_BAGT = O_RESERVE + MAX_PLAYERS  # [4] tiles of each type in the bag
O_DISPLAY = O_BAGT + N_TYPES  # [4 x 4] tiles of each type above scored position p
O_HELD = O_DISPLAY + MAX_SCORED * N_TYPES  # [4 x 4] tiles of each type each seat holds
O_DISC = O_HELD + MAX_PLAYERS * N_TYPES  # [4] discarded tiles of each type
O_SCNT = O_DISC + N_TYPES  # [4 x N_CNT] per-seat counters, C_* indices
# Per-seat counters.
C_ADDS = 0
C_MOVES = 1
C_REMOVES = 2
C_CONTROLS = 3  # scored city-states controlled (first place)
C_SECONDS = 4  # scored city-states in second place
C_FIRST_ROUNDS = 5  # rounds begun as first player
C_JUMPS = 6  # moves with at least one jump
N_CNT = 8
# [4] bitmask of the locations of each seat's traders (bit q: location q), kept with O_LOC by
# engine.put_trader / lift_trader: the players' keys and masks without a pass over the board
O_MASK = O_SCNT + MAX_PLAYERS * N_CNT
STATE_SIZE = O_MASK + MAX_PLAYERS
# A trace snapshot keeps the state up to the masks (56 bits do not fit the int32 trace);
# TRACE.snapshots rebuilds them from the locations.
SNAP_SIZE = O_MASK

# End reasons.
END_ROUNDS = 0
END_ERROR = 1
END_REASONS = ("rounds", "error")


class State(NamedTuple):
    """Python view of a flat state (numpy views, no copies; writes go to the flat array)."""

    scal: np.ndarray  # int64[N_SCAL]: scalars, S_* indices
    loc: np.ndarray  # int64[56]: seat of the trader on each location, EMPTY (-1)
    order: np.ndarray  # int64[8]: city-state at each importance position
    pos: np.ndarray  # int64[8]: importance position of each city-state
    cnt: np.ndarray  # int64[8, 4]: traders per city-state and seat
    towns: np.ndarray  # int64[8, 4]: traders on towns per city-state and seat
    reserve: np.ndarray  # int64[4]: traders in front of each seat
    bag: np.ndarray  # int64[4]: tiles per type in the bag
    display: np.ndarray  # int64[4, 4]: tiles per type above scored position p
    held: np.ndarray  # int64[4, 4]: tiles per type held by each seat
    discarded: np.ndarray  # int64[4]: discarded tiles per type
    counters: np.ndarray  # int64[4, N_CNT]


def new_state() -> np.ndarray:
    return np.zeros(STATE_SIZE, dtype=np.int64)


def view(s: np.ndarray) -> State:
    """Named numpy views on the flat state s."""
    P, T = MAX_PLAYERS, N_TYPES
    return State(
        scal=s[:N_SCAL],
        loc=s[O_LOC : O_LOC + N_LOCS],
        order=s[O_ORDER : O_ORDER + N_STATES],
        pos=s[O_POS : O_POS + N_STATES],
        cnt=s[O_CNT : O_CNT + N_STATES * P].reshape(N_STATES, P),
        towns=s[O_TOWNS : O_TOWNS + N_STATES * P].reshape(N_STATES, P),
        reserve=s[O_RESERVE : O_RESERVE + P],
        bag=s[O_BAGT : O_BAGT + T],
        display=s[O_DISPLAY : O_DISPLAY + MAX_SCORED * T].reshape(MAX_SCORED, T),
        held=s[O_HELD : O_HELD + P * T].reshape(P, T),
        discarded=s[O_DISC : O_DISC + T],
        counters=s[O_SCNT : O_SCNT + P * N_CNT].reshape(P, N_CNT),
    )


# ---------------------------------------------------------------------------------------
# Trace buffer: one int32 array. Header, then action records, then state snapshots.

# Record kinds (a record: decision, seat, kind, then fields a..f).
A_PLACE = 0  # location (setup placement), state, new position, swapped state (-1 none)
A_ADD = 1  # location, state, new position of the state, state swapped with (-1 none)
A_MOVE = 2  # from, to, jumped (0/1), destination's new position, swapped state,
#             source's new position (move_shifts_source; -1 when unchanged)
A_REMOVE = 3  # location, state, new position, swapped state (-1 none)
A_CONTROL = 4  # position, state, controller (-1 none), second (-1 none), tiles there
A_TAKE = 5  # position, seat, type, chosen (1 a player's choice, 0 automatic)
A_RECEIVE = 6  # position, seat (second place), type, count
A_DISCARD = 7  # position, type, count
A_NEW_ROUND = 8  # next round's first player, the player made last
A_DRAW = 9  # position, type counts e, m, p, r
A_GAME_END = 10  # end reason, winner, win mask, error
ACTION_WIDTH = 9


def whole_states(snaps: np.ndarray) -> np.ndarray:
    """The recorded states (int64[n, SNAP_SIZE]) as whole states, int64[n, STATE_SIZE], the
    seats' masks rebuilt from the locations (states the kernels can play on)."""
    out = np.zeros((snaps.shape[0], STATE_SIZE), dtype=np.int64)
    out[:, :SNAP_SIZE] = snaps
    loc = snaps[:, O_LOC : O_LOC + N_LOCS]
    bits = np.left_shift(np.int64(1), np.arange(N_LOCS, dtype=np.int64))
    for seat in range(MAX_PLAYERS):
        out[:, O_MASK + seat] = np.where(loc == seat, bits, 0).sum(axis=1)
    return out


# a buffer for up to n decisions: TRACE.new(n, enabled); TRACE.snapshots(tr): whole states
TRACE = tracebuf.TraceShape(ACTION_WIDTH, SNAP_SIZE, actions_per_turn=8, whole=whole_states)


# ---------------------------------------------------------------------------------------
# Scratch space of the players (the shared driver's x, reused from game to game and zeroed
# before each, never copied). The fields before X_ZEROED must start at 0; the others are
# written before being read.
X_STAMP = 0  # search generation counter (marks below equal to it are 'seen')
X_MREAD = 1  # bitmask of the locations whose occupancy the last move search read
# Heuristic players (policies.py): per-decision keys and masks, recomputed by `prepare_keys`
# (a control key: engine_round.control_key; the player is "my", the other seats "opponents").
X_MY_LOCATIONS = 2  # bitmask of the locations holding one of the player's traders
X_EMPTY_LOCATIONS = 3  # bitmask of the empty locations
# The trained player's ranking, kept for the play that follows it (search.play_candidate): the
# decision it was made at (S_DECISION + 1; 0 none), the seat, and the candidates kept
X_RANKED_AT = 4
X_RANKED_SEAT = 5
X_RANKED_N = 6
X_OPP_BEST_KEY = 8  # [8] per city-state: the opponents' best control key there, -1 none
X_OPP_SECOND_KEY = X_OPP_BEST_KEY + N_STATES  # [8] the opponents' second best key, -1 none
# [8] per city-state: the player's own control key there (its traders' part plus its turn
# order; a key only when X_MY_TRADERS there is > 0, else the base its arrivals add to)
X_MY_KEY = X_OPP_SECOND_KEY + N_STATES
X_MY_TRADERS = X_MY_KEY + N_STATES  # [8] per city-state: the player's traders there
X_ESEEN = X_MY_TRADERS + N_STATES  # [56 x MAX_DEG] directed-route marks of the move search
# Move-target cache of the heuristic players: per location, the destinations of a trader on
# it and the occupancy they depend on (valid while the read locations keep their occupancy).
MOVE_CACHE_CAP = 16  # destinations kept per location (longer lists are not cached)
# one location's row: valid flag (1), read mask (X_MREAD of its search), occupancy of the
# read locations, count, then up to MOVE_CACHE_CAP destinations
MOVE_CACHE_ROW = 4 + MOVE_CACHE_CAP
X_MOVE_CACHE = X_ESEEN + N_LOCS * MAX_DEG  # [56 x MOVE_CACHE_ROW] one row per location
X_ZEROED = X_MOVE_CACHE + N_LOCS * MOVE_CACHE_ROW
X_OPTS = X_ZEROED  # [64] option lists
X_DEST = X_OPTS + 64  # [56] move destinations
X_STACK = X_DEST + N_LOCS  # [8192] directed routes to follow (q * MAX_DEG + j)
X_MOVES = X_STACK + 8192  # [2 x 1024] (from, to) pairs of a seat's moves
X_SIZE = X_MOVES + 2 * 1024
# Float scratch of the heuristic players (policies.py).
XF_SIZE = 256


def new_scratch() -> np.ndarray:
    return np.zeros(X_SIZE, dtype=np.int64)
