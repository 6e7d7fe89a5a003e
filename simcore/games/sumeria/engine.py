"""Sumeria rules as compiled kernels: setup, legal actions, applying actions. The end of a
round (control and tiles, the next first player, the order shift) and the scores are in
engine_round.py, checked mode in engine_invariants.py.

No policy logic lives here. Every ``do_*`` function checks the legality of its decision and
returns 0, or ERR_ILLEGAL without changing anything. The automatic steps between decisions
(end-of-round scoring up to the next tile choice, the new round's draw) run in
``engine_round.advance``.
Quotes are from seed 002 (the rulebook); rulings are rules fields (docs/rules-sumeria.md).

Arguments: s = flat state (int64, layout in state.py), r = packed rules (int64, rules.py),
tr = trace buffer (int32, state.py), x = scratch (int64, state.py), rng = uint64[1].
"""

from __future__ import annotations

from simcore.frame.jit import kernel
from simcore.frame.rng import rand_below
from simcore.frame.tracebuf import put_record, write_snapshot
from simcore.games.sumeria import board as B
from simcore.games.sumeria import rules as R
from simcore.games.sumeria import state as S

ALL_LOCS = (1 << B.N_LOCS) - 1  # bitmask of every location

# Error codes: 0 = fine. ERR_ILLEGAL is returned by do_* for an illegal decision; the others
# come from engine_invariants.check_invariants (checked mode).
ERR_ILLEGAL = 1
ERR_BOARD = 2  # per-state counts disagree with the locations
ERR_TRADERS = 3  # traders not conserved (board + reserve)
ERR_ORDER = 4  # the city-state order is not a permutation
ERR_TILES = 5  # influence tiles not conserved
ERR_COUNTS = 6  # a counter or phase out of range
ERR_TRACE = 7  # the trace buffer overflowed
ERR_NAMES = (
    "ok",
    "illegal action",
    "board counts inconsistent",
    "traders not conserved",
    "order broken",
    "tiles not conserved",
    "counter out of range",
    "trace overflow",
)


# ---------------------------------------------------------------------------------------
# Small accessors (inlined)


@kernel(inline="always")
def nb(r, q, j):
    """The j-th neighbour of location q on the map."""
    return r[R.R_ADJ + q * B.MAX_DEG + j]


@kernel(inline="always")
def degree(r, q):
    return r[R.R_DEG + q]


@kernel(inline="always")
def count(s, seat, c):
    s[S.O_SCNT + seat * S.N_CNT + c] += 1


@kernel(inline="always")
def cnt(s, st, seat):
    """Traders of `seat` in city-state `st`."""
    return s[S.O_CNT + st * R.MAX_PLAYERS + seat]


@kernel(inline="always")
def towns(s, st, seat):
    return s[S.O_TOWNS + st * R.MAX_PLAYERS + seat]


@kernel(inline="always")
def city_holder(s, st):
    """Seat of the trader in the city of `st`, EMPTY (-1) when none."""
    return s[S.O_LOC + st * B.LOCS_PER_STATE]


@kernel(inline="always")
def display(s, p, t):
    return s[S.O_DISPLAY + p * B.N_TYPES + t]


@kernel(inline="always")
def held(s, seat, t):
    return s[S.O_HELD + seat * B.N_TYPES + t]


@kernel(inline="always")
def turn_index(s, r, seat):
    """Place of `seat` in this round's turn order (0 = the first player)."""
    d = seat - s[S.S_FIRST]
    return d + r[R.P_PLAYERS] if d < 0 else d


# ---------------------------------------------------------------------------------------
# Trace recording


@kernel
def record(tr, s, kind, a=0, b=0, c=0, d=0, e=0, f=0):
    """Append one record (decision, seat, kind, a..f) when tracing is on."""
    put_record(tr, S.ACTION_WIDTH, s[S.S_DECISION], s[S.S_SEAT], kind, a, b, c, d, e, f, 0, 0, 0)


@kernel
def snapshot(tr, s):
    """Append the state (before a decision) to the trace when tracing is on: up to SNAP_SIZE,
    the masks are rebuilt by state.TRACE.snapshots."""
    write_snapshot(tr, s, S.ACTION_WIDTH, S.SNAP_SIZE)


# ---------------------------------------------------------------------------------------
# Traders on locations and the order of the city-states


@kernel(inline="always")
def count_trader(s, q, seat, d):
    """Add d (1: a trader put, -1: lifted) to the seat's traders and towns in q's city-state."""
    st = B.LOC_STATE[q]
    s[S.O_CNT + st * R.MAX_PLAYERS + seat] += d
    if B.LOC_KIND[q] == B.TOWN:
        s[S.O_TOWNS + st * R.MAX_PLAYERS + seat] += d


@kernel
def put_trader(s, q, seat):
    s[S.O_LOC + q] = seat
    s[S.O_MASK + seat] |= 1 << q
    count_trader(s, q, seat, 1)


@kernel
def lift_trader(s, q):
    seat = s[S.O_LOC + q]
    s[S.O_LOC + q] = S.EMPTY
    s[S.O_MASK + seat] &= ~(1 << q)
    count_trader(s, q, seat, -1)


@kernel(inline="always")
def empty_mask(s):
    """Bitmask of the empty locations (from the seats' masks)."""
    occ = s[S.O_MASK] | s[S.O_MASK + 1] | s[S.O_MASK + 2] | s[S.O_MASK + 3]
    return ALL_LOCS & ~occ


@kernel
def recount(s):
    """Recompute the per-state counts and the seats' masks from the locations (position
    builders)."""
    for k in range(B.N_STATES * R.MAX_PLAYERS):
        s[S.O_CNT + k] = 0
        s[S.O_TOWNS + k] = 0
    for seat in range(R.MAX_PLAYERS):
        s[S.O_MASK + seat] = 0
    for q in range(B.N_LOCS):
        seat = s[S.O_LOC + q]
        if seat != S.EMPTY:
            s[S.O_LOC + q] = S.EMPTY
            put_trader(s, q, seat)


@kernel(inline="always")
def exchange_positions(s, p, p2):
    """Swap the city-state tiles at importance positions p and p2 (the players' trials use
    this directly: not counted)."""
    a = s[S.O_ORDER + p]
    b = s[S.O_ORDER + p2]
    s[S.O_ORDER + p] = b
    s[S.O_ORDER + p2] = a
    s[S.O_POS + a] = p2
    s[S.O_POS + b] = p


@kernel
def swap_positions(s, p, p2):
    """Swap the tiles at importance positions p and p2, counted in S_SWAPS."""
    exchange_positions(s, p, p2)
    s[S.S_SWAPS] += 1


@kernel
def gain_influence(s, st):
    """ "The tile of this City-State is then swapped with the one to its left, in order of
    importance (if possible)." Returns the city-state it swapped with, -1 when leftmost."""
    p = s[S.O_POS + st]
    if p == 0:
        return -1
    other = s[S.O_ORDER + p - 1]
    swap_positions(s, p, p - 1)
    return other


@kernel
def lose_influence(s, st):
    """ "The tile of this City-State is swapped with the one to its right, in order of
    importance (if possible)." Returns the city-state it swapped with, -1 when rightmost."""
    p = s[S.O_POS + st]
    if p == B.N_STATES - 1:
        return -1
    other = s[S.O_ORDER + p + 1]
    swap_positions(s, p, p + 1)
    return other


# ---------------------------------------------------------------------------------------
# Setup (seed 002, "Setup")


@kernel
def draw_tile(s, rng):
    """One tile drawn at random from the bag: its type, or -1 when the bag is empty."""
    n = s[S.S_BAG]
    if n == 0:
        return -1
    k = rand_below(rng, n)
    for t in range(B.N_TYPES):
        if k < s[S.O_BAGT + t]:
            s[S.O_BAGT + t] -= 1
            s[S.S_BAG] -= 1
            return t
        k -= s[S.O_BAGT + t]
    return -1


@kernel
def draw_display(s, r, tr, rng, rec):
    """ "Put all the Influence tiles in the bag and draw 6": 3, 2 and 1 above the three
    leftmost city-states (tiles_per_state). An empty bag leaves spaces empty. rec: record
    the draw in the trace (not at setup: the first state shows it)."""
    for p in range(r[R.P_N_SCORED]):
        for _ in range(r[R.R_TILES + p]):
            t = draw_tile(s, rng)
            if t >= 0:
                s[S.O_DISPLAY + p * B.N_TYPES + t] += 1
        if rec:
            record(
                tr,
                s,
                S.A_DRAW,
                p,
                display(s, p, 0),
                display(s, p, 1),
                display(s, p, 2),
                display(s, p, 3),
            )


@kernel
def next_placer(s, r, seat):
    """Setup: the first seat from `seat` on (in turn order) that has traders left to place
    (initial_traders, and its seat_traders: a designer's compensation). Some seat has while
    the setup lasts."""
    players = r[R.P_PLAYERS]
    for k in range(players):
        q = (seat + k) % players
        if r[R.P_TRADERS] - s[S.O_RESERVE + q] < r[R.R_SEAT_SETUP + q]:
            return q
    return seat


@kernel
def setup(s, r, tr, rng):
    """Fill s with the starting position: random city-state order, 6 tiles drawn, a random
    first player, every trader in reserve; the initial placement follows (PH_SETUP)."""
    players = r[R.P_PLAYERS]
    for k in range(S.STATE_SIZE):
        s[k] = 0
    for q in range(B.N_LOCS):
        s[S.O_LOC + q] = S.EMPTY
    s[S.S_END_REASON] = -1
    s[S.S_SECOND] = -1
    # "Place the 8 City-State tiles in random order" (Fisher-Yates)
    for p in range(B.N_STATES):
        s[S.O_ORDER + p] = p
    for p in range(B.N_STATES - 1, 0, -1):
        j = rand_below(rng, p + 1)
        a = s[S.O_ORDER + p]
        s[S.O_ORDER + p] = s[S.O_ORDER + j]
        s[S.O_ORDER + j] = a
    for p in range(B.N_STATES):
        s[S.O_POS + s[S.O_ORDER + p]] = p
    for t in range(B.N_TYPES):
        s[S.O_BAGT + t] = r[R.P_TILES_PER_TYPE]
    s[S.S_BAG] = B.N_TYPES * r[R.P_TILES_PER_TYPE]
    # "14 for a 3-player game, 10 for a 4-player game"
    for seat in range(players):
        s[S.O_RESERVE + seat] = r[R.P_TRADERS]
    # "A first player is designated at random"
    first = rand_below(rng, players)
    s[S.S_FIRST] = first
    s[S.S_SEAT] = first
    count(s, first, S.C_FIRST_ROUNDS)
    draw_display(s, r, tr, rng, False)
    if r[R.P_SETUP_TOTAL] > 0:
        s[S.S_PHASE] = S.PH_SETUP
        s[S.S_SEAT] = next_placer(s, r, first)
    else:
        s[S.S_PHASE] = S.PH_TURN


# ---------------------------------------------------------------------------------------
# Decisions: placement at setup, and the three actions


@kernel
def do_place(s, r, tr, seat, q):
    """Setup: "Starting with the first player, players place one of their traders in a city,
    town, or village ... Each location may hold only a single trader." Repeated in turn order
    until each has placed initial_traders (and its seat_traders, skipping the seats that have
    placed all theirs). Moves no tile unless setup_shifts_order."""
    if s[S.S_PHASE] != S.PH_SETUP or seat != s[S.S_SEAT] or q < 0 or q >= B.N_LOCS:
        return ERR_ILLEGAL
    if s[S.O_LOC + q] != S.EMPTY or s[S.O_RESERVE + seat] == 0:
        return ERR_ILLEGAL
    put_trader(s, q, seat)
    s[S.O_RESERVE + seat] -= 1
    st = B.LOC_STATE[q]
    other = -1
    if r[R.P_SETUP_SHIFTS] == 1:
        other = gain_influence(s, st)
    record(tr, s, S.A_PLACE, q, st, s[S.O_POS + st], other)
    s[S.S_PLACED] += 1
    if s[S.S_PLACED] >= r[R.P_SETUP_TOTAL]:
        s[S.S_PHASE] = S.PH_TURN
        s[S.S_SEAT] = s[S.S_FIRST]
    else:
        s[S.S_SEAT] = next_placer(s, r, (seat + 1) % r[R.P_PLAYERS])
    return 0


@kernel
def end_action(s, r):
    """After an action: the next player; after every player's turn the turn marker
    advances; after the last turn of the round the scoring begins (PH_SCORE)."""
    players = r[R.P_PLAYERS]
    s[S.S_ACTIONS] += 1
    s[S.S_IN_TURN] += 1
    if s[S.S_IN_TURN] == players:
        s[S.S_IN_TURN] = 0
        s[S.S_TURN] += 1
        if s[S.S_TURN] == r[R.P_TURNS]:
            s[S.S_PHASE] = S.PH_SCORE
            s[S.S_CHOOSE_POS] = 0
            return
    s[S.S_SEAT] = (s[S.S_FIRST] + s[S.S_IN_TURN]) % players


@kernel(inline="always")
def on_turn(s, seat):
    return s[S.S_PHASE] == S.PH_TURN and seat == s[S.S_SEAT]


@kernel
def do_add(s, r, tr, seat, q):
    """ "Add one of your traders to the board": from the reserve to an empty location; "This
    City-State has now gained influence" (its tile swaps left). "If all of a player's traders
    are already on the board, this option is not available.\""""
    if not on_turn(s, seat) or q < 0 or q >= B.N_LOCS:
        return ERR_ILLEGAL
    if s[S.O_LOC + q] != S.EMPTY or s[S.O_RESERVE + seat] == 0:
        return ERR_ILLEGAL
    put_trader(s, q, seat)
    s[S.O_RESERVE + seat] -= 1
    st = B.LOC_STATE[q]
    other = gain_influence(s, st)
    record(tr, s, S.A_ADD, q, st, s[S.O_POS + st], other)
    count(s, seat, S.C_ADDS)
    end_action(s, r)
    return 0


@kernel
def move_targets(s, r, frm, x, o):
    """List in x[o:] the locations the trader on `frm` can move to; returns how many.

    "moves ... along any stretch of a trade route to the next location in that direction.
    You may jump over any traders ... but must stop at the first empty location. When you
    arrive at an occupied city, you may continue along any trade route leaving that city."
    Ruling (GAME-DATA.md): over an occupied location the trader goes on along the routes
    leaving it other than the one it came by (one route at a town or village of the default
    map: straight on; any of the others at a city). A path that comes back to the start
    ends there and is no move. Depth-first over directed routes, each followed once.
    x[X_MREAD] gets the bitmask of the locations whose occupancy was read: the list depends on
    nothing else (the players' move-target cache)."""
    return move_targets_in(r, frm, empty_mask(s), x, o)


@kernel
def move_targets_in(r, frm, empty, x, o):
    """move_targets with the empty locations given as a bitmask (search_in, called)."""
    return search_in(r, frm, empty, x, o)


@kernel(inline="always")
def search_in(r, frm, empty, x, o):
    """move_targets_in, inlined into its caller (the players' cached search).

    The depth-first search over directed routes, run by run (board.straight_runs): a route
    into a location with 2 routes can only be reached from the route before it, so only the
    first route of a run needs a mark; within a run the search stops at the first empty
    location (a destination) or at the start (no move), else it goes on along the routes
    leaving the run's last location, pushed in route order (the last pushed followed first).
    The same destinations in the same order as a route-by-route search."""
    x[S.X_STAMP] += 1
    stamp = x[S.X_STAMP]
    stop = empty | (1 << frm)
    n = 0
    top = 0
    read = 0
    found = 0  # bitmask of the locations listed
    for j in range(degree(r, frm)):
        x[S.X_STACK + top] = frm * B.MAX_DEG + j
        top += 1
    while top > 0:
        top -= 1
        e = x[S.X_STACK + top]
        if x[S.X_ESEEN + e] == stamp:
            continue
        x[S.X_ESEEN + e] = stamp
        run = R.R_RUNS + e * R.RUN_W
        whole = r[run + R.RUN_ALL]
        if stop & whole == 0:  # over them all: on along the routes leaving the last
            read |= whole
            for k in range(r[run + R.RUN_NOUT]):
                x[S.X_STACK + top] = r[run + R.RUN_OUT + k]
                top += 1
            continue
        locs = r[run + R.RUN_LOCS]
        b = locs & 63  # on to the first location of the run that stops the search
        read |= 1 << b
        while (stop >> b) & 1 == 0:
            locs >>= 6
            b = locs & 63
            read |= 1 << b
        bit = 1 << b
        if b != frm and found & bit == 0:
            found |= bit
            x[o + n] = b
            n += 1
    x[S.X_MREAD] = read
    return n


@kernel
def adjacent(r, a, b):
    for j in range(degree(r, a)):
        if nb(r, a, j) == b:
            return True
    return False


@kernel
def do_move(s, r, tr, seat, frm, to, x):
    """ "Move one of your traders on the board" (move_targets). "If a trader ends its move in
    a City-State different from the one it left, the destination City-State gains influence."
    With move_shifts_source (a ruling option) the state it left loses influence first."""
    if not on_turn(s, seat) or frm < 0 or frm >= B.N_LOCS or to < 0 or to >= B.N_LOCS:
        return ERR_ILLEGAL
    if s[S.O_LOC + frm] != seat or s[S.O_LOC + to] != S.EMPTY:
        return ERR_ILLEGAL
    n = move_targets(s, r, frm, x, S.X_DEST)
    ok = False
    for i in range(n):
        if x[S.X_DEST + i] == to:
            ok = True
    if not ok:
        return ERR_ILLEGAL
    return do_listed_move(s, r, tr, seat, frm, to)


@kernel
def do_listed_move(s, r, tr, seat, frm, to):
    """do_move for a destination the caller took from move_targets on this very position (a
    player's own search): the same checks but the search."""
    if not on_turn(s, seat) or frm < 0 or frm >= B.N_LOCS or to < 0 or to >= B.N_LOCS:
        return ERR_ILLEGAL
    if s[S.O_LOC + frm] != seat or s[S.O_LOC + to] != S.EMPTY:
        return ERR_ILLEGAL
    lift_trader(s, frm)
    put_trader(s, to, seat)
    jumped = 0 if adjacent(r, frm, to) else 1
    src = B.LOC_STATE[frm]
    dst = B.LOC_STATE[to]
    other = -1
    src_pos = -1
    if src != dst:
        if r[R.P_MOVE_SHIFTS_SOURCE] == 1:
            lose_influence(s, src)
            src_pos = s[S.O_POS + src]
        other = gain_influence(s, dst)
        if src_pos >= 0:
            src_pos = s[S.O_POS + src]
    record(tr, s, S.A_MOVE, frm, to, jumped, s[S.O_POS + dst], other, src_pos)
    count(s, seat, S.C_MOVES)
    if jumped:
        count(s, seat, S.C_JUMPS)
        s[S.S_JUMPS] += 1
    end_action(s, r)
    return 0


@kernel
def do_remove(s, r, tr, seat, q):
    """ "Remove one of your traders from the board": back to the reserve; "This City-State then
    loses influence" (its tile swaps right)."""
    if not on_turn(s, seat) or q < 0 or q >= B.N_LOCS or s[S.O_LOC + q] != seat:
        return ERR_ILLEGAL
    lift_trader(s, q)
    s[S.O_RESERVE + seat] += 1
    st = B.LOC_STATE[q]
    other = lose_influence(s, st)
    record(tr, s, S.A_REMOVE, q, st, s[S.O_POS + st], other)
    count(s, seat, S.C_REMOVES)
    end_action(s, r)
    return 0
