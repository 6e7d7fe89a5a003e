"""The heuristic players' scratch: named offsets into the game's int64 scratch `x` (after the
engine's own part, state.X_ENGINE_SIZE) and into the float64 scratch `xf`.

Both arrays are allocated once per game and never copied; a piece slot is an index 0..69
(state.N_SLOTS), a square an index 0..80. "Key houses" are the houses a route search considers
(at most 12 entries, routes.MAX_KEYS in use). The layout (offsets and sizes) is part of the
compiled players: changing it changes nothing in the games, but keep every size as written.
"""

from __future__ import annotations

import numpy as np

from simcore.games.sunken_city.board import N_SQUARES, SIZE
from simcore.games.sunken_city.state import N_SLOTS, X_ENGINE_SIZE

# ---------------------------------------------------------------------------------------
# int64 scratch x[X_*]
X_SEARCH_NEIGHBOURS = X_ENGINE_SIZE  # [16] neighbour lists of the players' searches
X_BFS_QUEUE = X_SEARCH_NEIGHBOURS + 16  # [80] breadth-first search queue
# [70] distance (movement points) from the own adventurer to each piece slot (999 unreachable)
X_DIST_FROM_ADVENTURER = X_BFS_QUEUE + 80
# [70] unused (was: breadth-first parent of each slot from the adventurer); kept for the layout
X_PARENT_FROM_ADVENTURER = X_DIST_FROM_ADVENTURER + N_SLOTS
X_DIST_FROM_VILLAGE = X_PARENT_FROM_ADVENTURER + N_SLOTS  # [70] distance from the own village
# [70] steps the spirit needs to reach each piece (the pieces it can reach)
X_DIST_FROM_SPIRIT = X_DIST_FROM_VILLAGE + N_SLOTS
X_DIST_SCRATCH = X_DIST_FROM_SPIRIT + N_SLOTS  # [70] temporary breadth-first distances
X_WALK_PARENT = X_DIST_SCRATCH + N_SLOTS  # [70] breadth-first parents of the walk (bfs)
X_KEY_HOUSES = X_WALK_PARENT + N_SLOTS  # [12] the route search's key houses (their slots)
X_KEY_TO_KEY_DIST = X_KEY_HOUSES + 12  # [12 x 12] distances between key houses
X_KEY_TO_VILLAGE_DIST = X_KEY_TO_KEY_DIST + 144  # [12] distance from each key house home
X_ADVENTURER_TO_KEY_DIST = X_KEY_TO_VILLAGE_DIST + 12  # [12] adventurer -> each key house
X_ROUTE_NODE = X_ADVENTURER_TO_KEY_DIST + 12  # [16] route search stack: node (key, -1 start)
X_ROUTE_NEXT_CANDIDATE = X_ROUTE_NODE + 16  # [16] route search stack: next candidate
X_ROUTE_BUDGET_LEFT = X_ROUTE_NEXT_CANDIDATE + 16  # [16] route search stack: budget left
X_ROUTE_VISITED = X_ROUTE_BUDGET_LEFT + 16  # [16] route search stack: visited key mask
X_BEST_ROUTE = X_ROUTE_VISITED + 16  # [16] best route: key indices, -2 = the village
X_SPIRIT_NEIGHBOURS = X_BEST_ROUTE + 16  # [8 x 8] spirit search: neighbours per depth
X_SPIRIT_NEIGHBOUR_COUNT = X_SPIRIT_NEIGHBOURS + 64  # [8] spirit search: neighbours per depth
X_SPIRIT_NEXT_NEIGHBOUR = X_SPIRIT_NEIGHBOUR_COUNT + 8  # [8] spirit search: next per depth
X_SPIRIT_PATH = X_SPIRIT_NEXT_NEIGHBOUR + 8  # [8] spirit search: the path being tried
X_SPIRIT_BEST_PATH = X_SPIRIT_PATH + 8  # [8] spirit search: the best path
X_REACH_COST = X_SPIRIT_BEST_PATH + 8  # [81] cost for the own adventurer to reach each square
X_SAVED_ROUTE = X_REACH_COST + N_SQUARES  # [16] a saved best route
# [8 + 16] keys of the memoised tables (X_MEMO_* below; board signature and seat mixed in)
X_MEMO_KEYS = X_SAVED_ROUTE + 16
X_MEMO_ADVENTURER = X_MEMO_KEYS + 0  # X_DIST_FROM_ADVENTURER
X_MEMO_VILLAGE = X_MEMO_KEYS + 1  # X_DIST_FROM_VILLAGE
X_MEMO_SPIRIT = X_MEMO_KEYS + 2  # X_DIST_FROM_SPIRIT
X_MEMO_KEY_HOUSES = X_MEMO_KEYS + 3  # X_KEY_HOUSES and their distances
X_MEMO_KEY_COUNT = X_MEMO_KEYS + 4  # (not a key) the number of key houses found
X_MEMO_ADJACENT = X_MEMO_KEYS + 5  # X_ADJACENT (the board signature + 1)
X_MEMO_REACH = X_MEMO_KEYS + 6  # X_REACH_COST
# [70 x 8] the pieces connected to each piece (engine.piece_neighbours order)
X_ADJACENT = X_MEMO_KEYS + 8 + 16
X_ADJACENT_COUNT = X_ADJACENT + 8 * N_SLOTS  # [70] their number (0 for a piece off the lake)
# [70 x 2] the same as bit sets: slots 0..63, slots 64..69
X_ADJACENT_BITS = X_ADJACENT_COUNT + N_SLOTS
X_TABLES_LAKE = X_ADJACENT_BITS + 2 * N_SLOTS  # [81] the lake (O_SQUARE_PIECE) they describe
# [11 x 11] a distance per square with a border around the lake (reach costs)
X_PADDED_COST = X_TABLES_LAKE + N_SQUARES
# [2 x 10] per row, bit sets of squares (the street choice: free squares, squares beside them)
X_ROW_STREET_BITS = X_PADDED_COST + (SIZE + 2) * (SIZE + 2)
# [8 x 8] spirit search: per length, the first best path of that length
X_SPIRIT_FIRST_BEST_PATH = X_ROW_STREET_BITS + 2 * (SIZE + 1)
# [8] ... and that path's order number in the search
X_SPIRIT_FIRST_BEST_ORDER = X_SPIRIT_FIRST_BEST_PATH + 64
# [7 x 41] route search: the key houses within L points of a node (6 keys)
X_ROUTE_CANDIDATES = X_SPIRIT_FIRST_BEST_ORDER + 8
# [2] bit sets of the pieces whose X_ADJACENT list is stale (X_ADJACENT_BITS is not)
X_STALE_ADJACENT = X_ROUTE_CANDIDATES + 7 * 41
X_SIZE = X_STALE_ADJACENT + 2

# ---------------------------------------------------------------------------------------
# float64 scratch xf[XF_*]
XF_ROUTE_VALUE = 0  # [16] route search stack: value so far
XF_SPIRIT_PATH_VALUE = 16  # [8] spirit search: value so far per depth
XF_KEY_VALUE = 24  # [12] treasure value of each key house
XF_BEST_VALUE_BY_POINTS = 40  # [48] best route value per movement points used
XF_CARRIED_VALUE = 88  # [4] carried treasure value of each seat
XF_SPIRIT_BEST_UP_TO = 92  # [8] spirit search: best value of a path of at most d steps
# [81] closeness of the opponents to each square (sum of 1 / (1 + distance))
XF_OPPONENTS_CLOSENESS = 100
# [4 x 81] closeness of each opponent to each square
XF_CLOSENESS_BY_OPPONENT = XF_OPPONENTS_CLOSENESS + N_SQUARES
# [70] value for us of the spirit sinking each piece
XF_SINK_VALUE = XF_CLOSENESS_BY_OPPONENT + 4 * N_SQUARES
XF_URGENCY = XF_SINK_VALUE + N_SLOTS  # [2] end-game urgency 0..1; chance this is our last turn
XF_THREAT_BY_DIST = XF_URGENCY + 2  # [8] spirit threat to a piece at spirit distance d (0..7)
XF_KEY_THREAT = XF_THREAT_BY_DIST + 8  # [12] route search: the threat to each key house
# [12] route search: each key house's distance home (20 when cut off)
XF_KEY_HOME_DIST = XF_KEY_THREAT + 12
# [32] advanced game: distribution of the spirit's reach (the threat table)
XF_SPIRIT_REACH = XF_KEY_HOME_DIST + 12
XF_SPIRIT_REACH_NEXT = XF_SPIRIT_REACH + 32  # [32] ... its next step
# [8] spirit search: per length, the best value of a path of that length
XF_SPIRIT_BEST_BY_LENGTH = XF_SPIRIT_REACH_NEXT + 32
XF_SIZE = XF_SPIRIT_BEST_BY_LENGTH + 8


def new_scratch() -> np.ndarray:
    """A zeroed int64 scratch of one game (engine and players)."""
    return np.zeros(X_SIZE, dtype=np.int64)


def new_fscratch() -> np.ndarray:
    """A zeroed float64 scratch of the players."""
    return np.zeros(XF_SIZE, dtype=np.float64)
