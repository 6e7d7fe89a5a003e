"""The state layout of Sunken City, the trace buffer and the engine's scratch layout.

The kernels keep a position in ONE flat int64 array, each field at a named offset below, its
encoding commented at the field. Why not a NamedTuple of arrays: numba reference-counts every
array passed to a compiled call, so a tuple of nine arrays costs ~80 ns per call against ~10 ns
for two flat arrays (measured; docs/performance.md). `view(s)` gives Python code (tests,
traces) the same state as a NamedTuple of numpy views on the flat array, no copy.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simcore.frame import tracebuf
from simcore.frame.tracebuf import T_CAPA, T_CAPS, T_HEADER, T_NA, T_NS, T_ON  # noqa: F401 (re-exported)
from simcore.games.sunken_city.rules import (
    MAX_PLAYERS,
    N_HOUSES,
    N_SPACES,
    N_SQUARES,
    N_TREASURES,
)

MAX_STREETS = 60
HOUSE_BASE = MAX_STREETS  # piece slot of house h is HOUSE_BASE + h - 1
N_SLOTS = MAX_STREETS + N_HOUSES
VILLAGE = -1  # adventurer position: in its village
WATER = -1  # square content: no piece
CHEST = N_TREASURES - 1  # treasure index of the chest (worth 12)

# Treasure status.
HOUSE_SIDE, CARRIED, BANKED, OUT = 0, 1, 2, 3

# ---------------------------------------------------------------------------------------
# Scalars: s[S_*].
S_SEAT = 0  # seat on turn
S_TURN = 1  # turns begun so far (0-based index of the current turn)
S_ROUND = 2  # current round, 0-based
S_DRAW_SPACE = 3  # street space (0..5 = spaces 1..6) streets are drawn from
S_STREETS_IN_BOX = 4  # streets in the box (out of play)
S_CHIP_SUPPLY = 5  # chips in the supply
S_SPIRIT_SLOT = 6  # piece slot the water spirit stands on
S_HOURGLASS = 7  # 1 once the stack on space 5 is used up
S_END_REASON = 8  # first end condition met: -1 none, else an END_* reason
S_CARD = 9  # card played this turn, -1 before it is chosen
S_RAISE_LEFT = 10  # pieces still to raise this turn
S_MOVE_LEFT = 11  # movement points left this turn
S_HOUSE_RAISED = 12  # 1 when a house was raised this turn
S_CHIP_USED = 13  # 1 when a chip was used this turn
S_SPIRIT_BEGUN = 14  # 1 when the spirit's move was begun this turn
S_SPIRIT_STEPS_LEFT = 15  # steps the spirit may still take in the move under way
S_SPIRIT_ACTIVE = 16  # 1 while a spirit move is under way
S_SPIRIT_ROLL = 17  # die roll of the move under way, -1 when the owner's limit applies
S_ACTION_BLOCK = 18  # the action block under way (BLOCK_*; binding under action_order=blocks)
S_BLOCKS_BEGUN = 19  # bitmask of blocks begun this turn (1 << BLOCK_*; every action order)
S_GAME_OVER = 20  # 1 when the game is over
S_ERROR = 21  # first error (engine ERR_* code), 0 none
S_SPIRIT_MOVES = 22  # spirit moves made (with at least one step)
S_PIECES_SUNK = 23  # pieces sunk
S_STREETS_PLACED = 24  # streets raised
S_HOUSES_PLACED = 25  # houses raised
S_STARVED_TURNS = 26  # turns that ended with pieces unraised because no street was left
S_SPIRIT_STEPS_TAKEN = 27  # steps of the spirit move under way
# Advanced game (seed 001); all 0 in the basic game.
S_PHASE = 28  # PHASE_RAISING or PHASE_SINKING
S_GROTTO_SPACE = 29  # grotto space (1..10) the spirit is in; 0 while it stands on the lake
S_GROTTO_MOVE_ALLOWED = 30  # 1 when the seat on turn has entered the house of the spirit's grotto
#                       space this turn (raising phase) and may move the spirit to another
S_SINKING_PHASES = 31  # sinking phases begun
N_SCALARS = 32

# Fields (offsets into the flat state array).
O_SQUARE_PIECE = N_SCALARS  # [81] square -> WATER (-1) or the piece slot covering it
O_PIECE_SQUARES = (
    O_SQUARE_PIECE + N_SQUARES
)  # [70 x 2] slot -> its squares; -1 -1 off the board; second -1 for a
#                            one-square piece. Slots 0..59 streets, 60..69 houses 1..10
O_ADVENTURER_SLOT = (
    O_PIECE_SQUARES + 2 * N_SLOTS
)  # [4] slot each seat's adventurer stands on, VILLAGE (-1) at home
O_TREASURE = (
    O_ADVENTURER_SLOT + MAX_PLAYERS
)  # [4 x 11] HOUSE_SIDE/CARRIED/BANKED/OUT; index 10 = the chest
O_CHIPS = O_TREASURE + MAX_PLAYERS * N_TREASURES  # [4] chips each seat holds
O_HAND = O_CHIPS + MAX_PLAYERS  # [4] bitmask of the cards in each seat's hand
O_STACKS = O_HAND + MAX_PLAYERS  # [6] streets on street spaces 1..6
O_COUNTERS = O_STACKS + N_SPACES  # [4 x N_COUNTERS] per-seat counters, C_* indices
# Per-seat counters.
C_SENT_HOME = 0  # times this seat's adventurer was sent home
C_CHIPS_GAINED = 1
C_CHIPS_USED = 2
C_CHIPS_MISSED = 3  # sent home by another player while the supply was empty
C_TREASURES_RECOVERED = 4  # treasures turned to the treasure side
C_TREASURES_LOST = 5  # carried treasures turned back when sent home
C_SPIRIT_MOVES = 6  # spirit moves made by this seat
C_SENT_OTHERS = 7  # opponents' adventurers this seat sent home
C_MOVE_POINTS_SPENT = 8  # adventurer movement points spent
N_COUNTERS = 9
O_NEAR_HOUSES = (
    O_COUNTERS + MAX_PLAYERS * N_COUNTERS
)  # [81] houses on the square or touching it (corners
#                                        included): a house may appear only where this is 0
O_ADVANCED_COUNTERS = (
    O_NEAR_HOUSES + N_SQUARES
)  # [8] advanced-game counters (absolute offsets S_* below)
S_BANISHMENTS = O_ADVANCED_COUNTERS + 0  # banishments of the spirit
S_GROTTO_MOVES = (
    O_ADVANCED_COUNTERS + 1
)  # spirit moved to another grotto space by a visit to its house
S_RAISE_TO_SPIRIT_POINTS = (
    O_ADVANCED_COUNTERS + 2
)  # building points turned into spirit points at a switch
S_SPIRIT_TO_RAISE_POINTS = (
    O_ADVANCED_COUNTERS + 3
)  # spirit points turned into building points at a switch
S_SINK_STEPS = O_ADVANCED_COUNTERS + 4  # spirit steps of the sinking phases
S_SINKING_WITHOUT_HOUSE = (
    O_ADVANCED_COUNTERS + 5
)  # sinking phases that began with no house on the lake
STATE_SIZE = O_ADVANCED_COUNTERS + 8

# Phases of the advanced game.
PHASE_RAISING, PHASE_SINKING = 0, 1
PHASE_NAMES = ("raising", "sinking")

# Action blocks (binding under action_order=blocks).
BLOCK_NONE, BLOCK_BUILD, BLOCK_MOVE, BLOCK_SPIRIT = 0, 1, 2, 3

# End reasons.
END_ALL_BANKED = 0
END_HOURGLASS = 1
END_ROUND_LIMIT = 2
END_ERROR = 3
END_REASONS = ("all-banked", "hourglass", "round-limit", "error")


class State(NamedTuple):
    """Python view of a flat state (numpy views, no copies; writes go to the flat array)."""

    scal: np.ndarray  # int64[N_SCALARS]: scalars, S_* indices
    sq_piece: np.ndarray  # int64[81]: WATER or the piece slot covering the square
    piece_sq: np.ndarray  # int64[70, 2]: squares of each slot (-1 off the board)
    adv: np.ndarray  # int64[4]: adventurer's slot, VILLAGE (-1) at home
    treasure: np.ndarray  # int64[4, 11]: HOUSE_SIDE, CARRIED, BANKED, OUT
    chips: np.ndarray  # int64[4]
    hand: np.ndarray  # int64[4]: bitmask of cards in hand
    stacks: np.ndarray  # int64[6]: streets on spaces 1..6
    counters: np.ndarray  # int64[4, N_COUNTERS]
    near: np.ndarray  # int64[81]: houses on or touching each square


def new_state() -> np.ndarray:
    return np.zeros(STATE_SIZE, dtype=np.int64)


def view(s: np.ndarray) -> State:
    """Named numpy views on the flat state s."""
    return State(
        scal=s[:N_SCALARS],
        sq_piece=s[O_SQUARE_PIECE : O_SQUARE_PIECE + N_SQUARES],
        piece_sq=s[O_PIECE_SQUARES : O_PIECE_SQUARES + 2 * N_SLOTS].reshape(N_SLOTS, 2),
        adv=s[O_ADVENTURER_SLOT : O_ADVENTURER_SLOT + MAX_PLAYERS],
        treasure=s[O_TREASURE : O_TREASURE + MAX_PLAYERS * N_TREASURES].reshape(
            MAX_PLAYERS, N_TREASURES
        ),
        chips=s[O_CHIPS : O_CHIPS + MAX_PLAYERS],
        hand=s[O_HAND : O_HAND + MAX_PLAYERS],
        stacks=s[O_STACKS : O_STACKS + N_SPACES],
        counters=s[O_COUNTERS : O_COUNTERS + MAX_PLAYERS * N_COUNTERS].reshape(
            MAX_PLAYERS, N_COUNTERS
        ),
        near=s[O_NEAR_HOUSES : O_NEAR_HOUSES + N_SQUARES],
    )


# ---------------------------------------------------------------------------------------
# Trace buffer: one int32 array. Header, then action records, then state snapshots.

# Action kinds (a record: turn, seat, kind, then fields a..i).
A_CARD = 0  # card index, raise, move, icon
A_STREET = 1  # square 1, square 2 (-1 for 1-square), street space drawn from (0-based), slot
A_HOUSE = 2  # house number, square
A_CHIP = 3  # extra movement points
A_STEP = 4  # from slot (-1 village), to slot (-1 village), to square, recovered mask,
#             banked mask, movement points left
A_SPIRIT_BEGIN = 5  # limit, die roll (-1 owner's limit), territory owner (-1 none), start slot
A_SPIRIT_STEP = 6  # from slot, to slot, sunk kind (0 street, 1 house), house no., sent-home
#                    seat mask, 0, sunk square 1, sunk square 2, discard space (street)
A_SPIRIT_END = 7  # steps taken
A_STACK_TURN = 8  # new draw space (0-based)
A_HOURGLASS = 9  # (no fields)
A_END_TURN = 10  # pieces left unraised, movement points left
A_GAME_END = 11  # end reason, winner, win mask, error
A_SEND_HOME = 12  # seat sent home, treasures lost mask, chip given (0/1), mover
# advanced game
A_PHASE = 13  # new phase, points converted, spirit slot (-1 in the grotto), grotto space
A_SINK_STEP = 14  # (sinking phase) from slot, to slot, spirit points left; the piece left
#                   sinks: an A_SPIRIT_STEP record follows
A_BANISH = 15  # from slot (-1: it was in the grotto), grotto space, spirit points left; an
#                A_SPIRIT_STEP (to = -2) follows when a piece sinks, then A_PHASE
A_GROTTO = 16  # from grotto space, to grotto space
ACTION_WIDTH = 12


TRACE = tracebuf.TraceShape(ACTION_WIDTH, STATE_SIZE, actions_per_turn=96)


# ---------------------------------------------------------------------------------------
# Scratch space of one game (one int64 array, allocated once per game, never copied). The
# engine uses the first X_ENGINE_SIZE entries; the heuristic players' scratch follows them
# (simcore/games/sunken_city/players/scratch.py, which also gives the whole size).
X_NEIGHBOURS = 0  # [16] neighbour / target lists (engine)
X_OPTIONS = 16  # [16] option lists (cards, action kinds, houses)
X_HOUSE_SQUARES = 32  # [81] house squares
X_STREET_SPOTS = X_HOUSE_SQUARES + N_SQUARES  # [2 x 162] street spots (square a, square b)
X_ENGINE_SIZE = X_STREET_SPOTS + 2 * 2 * N_SQUARES
