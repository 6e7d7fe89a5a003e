"""The state layout of Secrets of the Sea, the trace buffer, and tile names (positions from text
diagrams: positions.py).

The kernels keep a position in ONE flat int64 array, each field at a named offset below, its
encoding commented at the field (one flat array: numba reference-counts every array argument;
see simcore/games/sunken_city/state.py). `view(s)` gives Python code the same state as a NamedTuple
of numpy views, no copy.

Tiles have ids (rules.py): 0..24 light, 25..49 dark, then the wreck tiles. What a tile is
(lamp kind, front, value) lives in the packed rules r; the state says where each tile is.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simcore.frame import tracebuf
from simcore.frame.tracebuf import T_CAPA, T_CAPS, T_HEADER, T_NA, T_NS, T_ON  # noqa: F401 (re-exported)
from simcore.games.secrets_of_the_sea.board import N_SPACES
from simcore.games.secrets_of_the_sea.rules import (
    CAVE,
    KIND_NAMES,
    MAX_PLAYERS,
    MONSTER,
    N_BONUS,
    N_TILES_MAX,
    P_N_TILES,
    R_FRONT,
    R_LAMP,
    R_VALUE,
    WRECK,
)

EMPTY = -1  # space content: no tile
ON_BOARD = -1  # tile owner: still on its space (board tiles) or at the wreck (wreck tiles)
OUT = -2  # tile owner: out of play (test positions only)
UNLIT, LIT, FRONT = 0, 1, 2  # what all players know of a space's tile (O_KNOWN)

# Phases of a turn (S_PHASE): what the diver must do next.
PH_ROLL = 0  # roll the dice (the turn's first roll, or "dive deeper")
PH_CHOOSE = 1  # choose a die showing a number (and, on the first move, the buoy)
PH_LIT = 2  # the lamp shows a tile: take it (or give the exchange tile) or dive deeper
PH_EMPTY = 3  # the lamp stands over an empty space: stop with nothing or dive deeper
PH_FIGHT = 4  # sea monsters: roll the available dice to fight
PH_WRECK = 5  # at the wreck: choose a wreck tile
PHASE_NAMES = ("roll", "choose", "lit", "empty", "fight", "wreck")

# Hidden-tile categories (O_HID_*, O_UNLIT): the front kinds 0..7 of tiles that are not caves,
# then caves whose front is not a monster, then caves hiding a monster.
HC_CAVE = 8
HC_CAVE_MONSTER = 9
N_HC = 10

# ---------------------------------------------------------------------------------------
# Scalars: s[S_*].
S_SEAT = 0  # seat on turn
S_TURN = 1  # turns finished so far (= 0-based index of the turn under way)
S_ROUND = 2  # current round, 0-based
S_GAME_OVER = 3  # 1 when the game is over
S_END_REASON = 4  # end reason (END_*), -1 while no end condition has occurred
S_ERROR = 5  # first error (engine ERR_* code), 0 none
S_PHASE = 6  # PH_* of the turn under way
S_COL = 7  # buoy (column 0..4) of this dive, -1 before the first move
S_POS = 8  # lamp row: 0 the boat, 1..10 a space, 11 the wreck
S_DIE0 = 9  # last roll of die 0: 0 = X, 1.. a number; -1 not rolled / set aside before
S_DIE1 = 10  # last roll of die 1, same encoding
S_BLOCKED = 11  # bitmask of dice set aside (an X was rolled) for the rest of this dive
S_TILE = 12  # tile id under the lamp (PH_LIT, PH_FIGHT), -1 none
S_DIVES = 13  # counter: turns whose first roll allowed a dive
S_BUSTS = 14  # counter: turns ended by X on every available die
S_FIGHTS = 15  # counter: monster fights
S_FIGHTS_WON = 16  # counter: fights won
S_EXCHANGES = 17  # counter: exchange tiles given away for a tile
S_WRECK_TAKEN = 18  # counter: wreck tiles taken
S_EMPTY_STOPS = 19  # counter: dives stopped on an empty space
S_CAVES = 20  # counter: caves opened (taken and turned over)
S_MOVES = 21  # counter: lamp moves
# Kept up to date by the engine (recount() recomputes them), so that the end check and the
# exchange's best steal need no scan: tiles left on each region's spaces, wreck tiles left,
# bonus tiles not yet taken, and a bitmask of the treasure tiles (board or wreck) in front
# of the players (bit t = tile id t; tiles never go back to the board).
S_LIGHT_LEFT = 22
S_DARK_LEFT = 23
S_WRECK_LEFT = 24
S_BONUS_LEFT = 25
S_HELD_TREASURES = 26
N_SCAL = 28

# Fields (offsets into the flat state array).
O_SPACE = N_SCAL  # [50] space -> tile id on it, EMPTY (-1) once taken
O_KNOWN = O_SPACE + N_SPACES  # [50] UNLIT / LIT (kind shown by the lamp) / FRONT (front seen,
#                               the tile stayed: a monster that won its fight); 0 when empty
O_OWNER = O_KNOWN + N_SPACES  # [62] tile id -> ON_BOARD (-1), seat, or OUT (-2)
O_BONUS = O_OWNER + N_TILES_MAX  # [7] bonus tile -> seat holding it, -1 not yet taken
O_HELD = O_BONUS + N_BONUS  # [4 x 7] per seat: tiles counting for each bonus (5 treasure
#                             types, monsters, seagrass)
O_HID_N = O_HELD + MAX_PLAYERS * N_BONUS  # [2 x 10] per region and hidden-tile category: tiles
#                                         on the board whose front nobody has seen (public: the
#                                         mix minus the tiles turned over)
O_HID_SUM = O_HID_N + 2 * N_HC  # [2 x 10] the sum of their values
O_UNLIT = O_HID_SUM + 2 * N_HC  # [2 x 10] of those, the ones whose kind the lamp never showed
O_CNT = O_UNLIT + 2 * N_HC  # [4 x N_CNT] per-seat counters, C_* indices
C_BUSTS = 0  # turns ended by X
C_FIGHTS_WON = 1
C_FIGHTS_LOST = 2
C_EXCHANGES = 3  # exchange tiles given away
C_WRECK = 4  # wreck tiles taken
C_EMPTY_STOPS = 5
C_DIVES = 6
N_CNT = 8
O_POINTS = O_CNT + MAX_PLAYERS * N_CNT  # [4] per seat: its score so far (the points of its
#                                         tiles and bonus tiles, as engine.scores counts them;
#                                         kept up to date, recount() recomputes it): the
#                                         standing of the experience metrics (play.standing)
STATE_SIZE = O_POINTS + MAX_PLAYERS

# End reasons: "the last tile of one tile type (bonus tiles, light blue treasure tiles, dark
# blue treasure tiles, wreck tiles) has been taken".
END_BONUS = 0
END_LIGHT = 1
END_DARK = 2
END_WRECK = 3
END_TURN_LIMIT = 4
END_ERROR = 5
END_REASONS = ("bonus-tiles", "light-tiles", "dark-tiles", "wreck-tiles", "turn-limit", "error")


class State(NamedTuple):
    """Python view of a flat state (numpy views, no copies; writes go to the flat array)."""

    scal: np.ndarray  # int64[N_SCAL]: scalars, S_* indices
    space: np.ndarray  # int64[50]: tile id or EMPTY
    known: np.ndarray  # int64[50]: UNLIT / LIT / FRONT
    owner: np.ndarray  # int64[62]: ON_BOARD, seat, OUT
    bonus: np.ndarray  # int64[7]: seat or -1
    held: np.ndarray  # int64[4, 7]
    hid_n: np.ndarray  # int64[2, 10]
    hid_sum: np.ndarray  # int64[2, 10]
    unlit: np.ndarray  # int64[2, 10]
    counters: np.ndarray  # int64[4, N_CNT]
    points: np.ndarray  # int64[4]


def new_state() -> np.ndarray:
    return np.zeros(STATE_SIZE, dtype=np.int64)


def view(s: np.ndarray) -> State:
    """Named numpy views on the flat state s."""
    return State(
        scal=s[:N_SCAL],
        space=s[O_SPACE : O_SPACE + N_SPACES],
        known=s[O_KNOWN : O_KNOWN + N_SPACES],
        owner=s[O_OWNER : O_OWNER + N_TILES_MAX],
        bonus=s[O_BONUS : O_BONUS + N_BONUS],
        held=s[O_HELD : O_HELD + MAX_PLAYERS * N_BONUS].reshape(MAX_PLAYERS, N_BONUS),
        hid_n=s[O_HID_N : O_HID_N + 2 * N_HC].reshape(2, N_HC),
        hid_sum=s[O_HID_SUM : O_HID_SUM + 2 * N_HC].reshape(2, N_HC),
        unlit=s[O_UNLIT : O_UNLIT + 2 * N_HC].reshape(2, N_HC),
        counters=s[O_CNT : O_CNT + MAX_PLAYERS * N_CNT].reshape(MAX_PLAYERS, N_CNT),
        points=s[O_POINTS : O_POINTS + MAX_PLAYERS],
    )


# ---------------------------------------------------------------------------------------
# Trace buffer: one int32 array. Header, then action records, then state snapshots.

# Action kinds (a record: turn, seat, kind, then fields a..f).
A_ROLL = 0  # die 0, die 1 (-1 set aside), blocked mask after, bust (0/1)
A_MOVE = 1  # die, column, from row, to row, tile id (-1 empty, -2 wreck), lamp kind (-1 empty)
A_TAKE = 2  # tile id, front kind, value, column, row
A_REVEAL = 3  # tile id (a cave turned over: its front must be fought), front kind, value
A_FIGHT = 4  # die 0, die 1 (-1 set aside), pips, won (0/1), tile id
A_EXCHANGE = 5  # receiving seat, tile taken from them, exchange tile id
A_WRECK = 6  # wreck tile id, front kind, value
A_STOP = 7  # (stopped on an empty space) column, row
A_BONUS = 8  # bonus index (BONUS_NAMES), seat
A_END_TURN = 9  # (no fields)
A_GAME_END = 10  # end reason, winner, win mask, error
ACTION_WIDTH = 9


TRACE = tracebuf.TraceShape(ACTION_WIDTH, STATE_SIZE, actions_per_turn=24)


# ---------------------------------------------------------------------------------------
# Tile names (tests, docs, traces).

_TYPE_LETTERS = {"S": 0, "A": 1, "B": 2, "G": 3, "C": 4}  # shell amphora barrel gold chest


def tile_token(r: np.ndarray, t: int) -> str:
    """A tile's short name: S1 A2 B3 G4 C2 (treasures), g (seagrass), E (exchange), M3 (a
    monster of 3 pips), V<front> (a cave, e.g. Vg, VC2, VM6), W<front> (a wreck tile)."""
    lamp, front, value = int(r[R_LAMP + t]), int(r[R_FRONT + t]), int(r[R_VALUE + t])

    def face(kind: int) -> str:
        if kind < 5:
            return "SABGC"[kind] + str(value)
        if kind == 5:
            return "g"
        if kind == 6:
            return "E"
        return f"M{value}"

    if lamp == CAVE:
        return "V" + face(front)
    if lamp == WRECK:
        return "W" + face(front)
    return face(front)


def kind_name(kind: int) -> str:
    return KIND_NAMES[kind] if 0 <= kind < len(KIND_NAMES) else "empty"


def monster_fronts(r: np.ndarray) -> list[int]:
    """Tile ids whose front is a monster (monsters and caves hiding one)."""
    return [t for t in range(int(r[P_N_TILES])) if r[R_FRONT + t] == MONSTER]
