"""Sunken City players as compiled functions. A player drives a whole turn through the
engine's do_* functions (the same legal-action path for every player) and returns 0, or an
error code when the engine refused an action (or, in checked mode, an invariant broke).

Only the `random` baseline lives here for now: it chooses uniformly among the legal options at
every decision (card; kind of action; each piece and its spot; each step; chip use; whether to
move the spirit and each spirit step; when to end the turn).
"""

from __future__ import annotations

import numpy as np

from simcore.bits import trailing_zeros
from simcore.jit import kernel
from simcore.rng import rand_below, rand_float
from simcore.sunken_city.board import (
    N_SQUARES,
    ORTH,
    SIZE,
)
from simcore.sunken_city.engine import (
    ERR_ILLEGAL,
    K_BANISH,
    K_CHIP,
    K_END,
    K_PLACE,
    K_SINK,
    K_SPIRIT,
    K_STEP,
    N_KINDS,
    any_house_spot,
    any_street_spot,
    can_build_any,
    can_chip_now,
    can_end_now,
    can_grotto_now,
    can_place_now,
    can_spirit_now,
    check_invariants,
    covers,
    do_banish,
    do_card,
    do_chip,
    do_end_turn,
    do_grotto,
    do_house,
    do_sink_step,
    do_spirit_begin,
    do_spirit_step,
    do_spirit_stop,
    do_step,
    do_street,
    grotto_has_house,
    grotto_ok,
    house_raisable,
    house_side_count,
    house_spot_ok,
    is_house,
    list_house_squares,
    list_street_spots,
    piece_neighbours,
    piece_owner,
    psq,
    raising_owed,
    spirit_targets,
    spot_free,
    step_targets,
    street_available,
    treasure,
    treasure_value,
    turn_options,
)
from simcore.sunken_city.players.scratch import (
    F_BEST_VALUE_BY_POINTS,
    F_CARRIED_VALUE,
    F_CLOSENESS_BY_OPPONENT,
    F_KEY_HOME_DIST,
    F_KEY_THREAT,
    F_KEY_VALUE,
    F_OPPONENTS_CLOSENESS,
    F_ROUTE_VALUE,
    F_SINK_VALUE,
    F_SPIRIT_BEST_BY_LENGTH,
    F_SPIRIT_BEST_UP_TO,
    F_SPIRIT_PATH_VALUE,
    F_SPIRIT_REACH,
    F_SPIRIT_REACH_NEXT,
    F_THREAT_BY_DIST,
    F_URGENCY,
    X_ADJACENT,
    X_ADJACENT_BITS,
    X_ADJACENT_COUNT,
    X_ADVENTURER_TO_KEY_DIST,
    X_BEST_ROUTE,
    X_BFS_QUEUE,
    X_DIST_FROM_ADVENTURER,
    X_DIST_FROM_SPIRIT,
    X_DIST_FROM_VILLAGE,
    X_DIST_SCRATCH,
    X_KEY_HOUSES,
    X_KEY_TO_KEY_DIST,
    X_KEY_TO_VILLAGE_DIST,
    X_MEMO_ADJACENT,
    X_MEMO_ADVENTURER,
    X_MEMO_KEY_COUNT,
    X_MEMO_KEY_HOUSES,
    X_MEMO_REACH,
    X_MEMO_SPIRIT,
    X_MEMO_VILLAGE,
    X_PADDED_COST,
    X_REACH_COST,
    X_ROUTE_BUDGET_LEFT,
    X_ROUTE_CANDIDATES,
    X_ROUTE_NEXT_CANDIDATE,
    X_ROUTE_NODE,
    X_ROUTE_VISITED,
    X_ROW_STREET_BITS,
    X_SAVED_ROUTE,
    X_SEARCH_NEIGHBOURS,
    X_SPIRIT_BEST_PATH,
    X_SPIRIT_FIRST_BEST_ORDER,
    X_SPIRIT_FIRST_BEST_PATH,
    X_SPIRIT_NEIGHBOUR_COUNT,
    X_SPIRIT_NEIGHBOURS,
    X_SPIRIT_NEXT_NEIGHBOUR,
    X_SPIRIT_PATH,
    X_STALE_ADJACENT,
    X_TABLES_LAKE,
    X_WALK_PARENT,
)
from simcore.sunken_city.rules import (
    N_HOUSES,
    N_TREASURES,
    P_ADVANCED,
    P_CENTRE,
    P_CHIPS,
    P_DIE_N,
    P_N_CARDS,
    P_N_HOUSE_SQ,
    P_N_SPOTS,
    P_NEEDS_ICON,
    P_OWNER_LIMIT,
    P_PLAYERS,
    P_STREET_SQUARES,
    R_CARDS,
    R_DIE,
    R_HOUSE_SQ,
    R_SPOTS,
    R_VILLAGE,
)
from simcore.sunken_city.state import (
    CARRIED,
    CHEST,
    HOUSE_BASE,
    HOUSE_SIDE,
    N_SLOTS,
    O_ADVENTURER_SLOT,
    O_CHIPS,
    O_HAND,
    O_PIECE_SQUARES,
    O_SQUARE_PIECE,
    O_STACKS,
    PHASE_RAISING,
    PHASE_SINKING,
    S_CHIP_SUPPLY,
    S_DRAW_SPACE,
    S_END_REASON,
    S_GROTTO_SPACE,
    S_HOURGLASS,
    S_HOUSE_RAISED,
    S_HOUSES_PLACED,
    S_MOVE_LEFT,
    S_PHASE,
    S_PIECES_SUNK,
    S_RAISE_LEFT,
    S_ROUND,
    S_SPIRIT_ACTIVE,
    S_SPIRIT_SLOT,
    S_SPIRIT_STEPS_LEFT,
    S_STREETS_PLACED,
    VILLAGE,
    WATER,
    X_HOUSE_SQUARES,
    X_NEIGHBOURS,
    X_OPTIONS,
    X_STREET_SPOTS,
)

# Policy ids (the registry in simcore/sunken_city/__init__.py maps names to these).
POL_RANDOM = 0

MAX_ACTIONS_PER_TURN = 10_000


@kernel
def after(s, r, checked, err):
    """After an action: the engine's verdict, then (checked mode) the invariants."""
    if err != 0:
        return err
    if checked:
        return check_invariants(s, r)
    return 0


@kernel
def random_street(s, r, tr, rng, x):
    """A street on a uniformly chosen legal spot: rejection sampling over the board's spots
    (uniform over the legal ones), falling back to listing them when the lake is crowded."""
    n = r[P_N_SPOTS]
    for _ in range(24):
        k = rand_below(rng, n)
        if spot_free(s, r, k):
            return do_street(s, r, tr, r[R_SPOTS + 2 * k], r[R_SPOTS + 2 * k + 1])
    ns = list_street_spots(s, r, x, X_STREET_SPOTS)
    i = rand_below(rng, ns)
    return do_street(s, r, tr, x[X_STREET_SPOTS + 2 * i], x[X_STREET_SPOTS + 2 * i + 1])


@kernel
def random_house(s, r, tr, rng, x):
    """A uniformly chosen house from the grotto on a uniformly chosen legal square."""
    n = 0
    for h in range(1, 11):
        if house_raisable(s, r, h):
            x[X_OPTIONS + n] = h
            n += 1
    h = x[X_OPTIONS + rand_below(rng, n)]
    m = r[P_N_HOUSE_SQ]
    for _ in range(16):
        q = r[R_HOUSE_SQ + rand_below(rng, m)]
        if house_spot_ok(s, r, q):
            return do_house(s, r, tr, h, q)
    nh = list_house_squares(s, r, x, X_HOUSE_SQUARES)
    return do_house(s, r, tr, h, x[X_HOUSE_SQUARES + rand_below(rng, nh)])


@kernel
def random_place(s, r, tr, rng, x):
    """Raise one piece: street or house, uniform among the kinds possible now (a coin picks
    the kind to try first; the other is taken when the first is impossible)."""
    house_first = rand_below(rng, 2) == 1
    for attempt in range(2):
        if house_first == (attempt == 0):
            if s[S_HOUSE_RAISED] == 0 and grotto_has_house(s, r) and any_house_spot(s, r):
                return random_house(s, r, tr, rng, x)
        elif street_available(s) and any_street_spot(s, r):
            return random_street(s, r, tr, rng, x)
    return ERR_ILLEGAL


@kernel
def random_spirit(s, r, tr, seat, rng, checked, x):
    """Move the spirit: begin (the die may be rolled), then at each point stop or step to a
    uniformly chosen neighbouring piece."""
    err = after(s, r, checked, do_spirit_begin(s, r, tr, seat, rng, x))
    while err == 0 and s[S_SPIRIT_ACTIVE] == 1:
        m = spirit_targets(s, x, X_NEIGHBOURS)
        k = rand_below(rng, m + 1)
        if k == m:
            err = do_spirit_stop(s, r, tr, seat)
        else:
            err = do_spirit_step(s, r, tr, seat, x[X_NEIGHBOURS + k], x)
        err = after(s, r, checked, err)
    return err


@kernel
def random_turn(s, r, tr, seat, rng, checked, x):
    """Play one whole turn for `seat`, choosing uniformly among legal options at each
    decision. Returns 0 or an error code."""
    n = 0
    for c in range(r[P_N_CARDS]):
        if s[O_HAND + seat] & (1 << c):
            x[X_OPTIONS + n] = c
            n += 1
    err = after(s, r, checked, do_card(s, r, tr, seat, x[X_OPTIONS + rand_below(rng, n)]))
    for _ in range(MAX_ACTIONS_PER_TURN):
        if err != 0:
            return err
        m = turn_options(s, r, seat, x)
        n = 0
        for k in range(N_KINDS):
            if m & (1 << k):
                x[X_OPTIONS + n] = k
                n += 1
        if n == 0:
            return ERR_ILLEGAL
        k = x[X_OPTIONS + rand_below(rng, n)]
        if k == K_END:
            return after(s, r, checked, do_end_turn(s, r, tr))
        if k == K_PLACE:
            err = random_place(s, r, tr, rng, x)
        elif k == K_STEP:
            m = step_targets(s, r, seat, x, X_NEIGHBOURS)
            err = do_step(s, r, tr, seat, x[X_NEIGHBOURS + rand_below(rng, m)], x)
        elif k == K_CHIP:
            err = do_chip(s, r, tr, seat)
        elif k == K_SPIRIT:
            err = random_spirit(s, r, tr, seat, rng, checked, x)
        elif k == K_SINK:
            m = spirit_targets(s, x, X_NEIGHBOURS)
            err = do_sink_step(s, r, tr, seat, x[X_NEIGHBOURS + rand_below(rng, m)], x)
        elif k == K_BANISH:
            err = do_banish(s, r, tr, seat, random_grotto(s, r, rng, 0, x), x)
        else:
            # moving the spirit to another grotto space is optional: half the time it stays
            # (for now; the right lasts the turn)
            if rand_below(rng, 2) == 0:
                err = do_grotto(s, r, tr, seat, random_grotto(s, r, rng, s[S_GROTTO_SPACE], x))
        err = after(s, r, checked, err)
    return ERR_ILLEGAL


@kernel
def random_grotto(s, r, rng, other_than, x):
    """A uniformly chosen grotto space the spirit may be sent to, other than `other_than`."""
    n = 0
    for g in range(1, N_HOUSES + 1):
        if grotto_ok(r, g) and g != other_than:
            x[X_OPTIONS + n] = g
            n += 1
    return x[X_OPTIONS + rand_below(rng, n)]


# =======================================================================================
# Heuristic players. One kernel, driven by a weight vector; the presets (greedy, cautious,
# aggressive, balanced) are weight vectors (simcore/sunken_city/__init__.py). The turn is
# planned in the order raise -> move -> spirit, each step through the engine's do_* actions:
# raising first builds the way the move needs, moving before the spirit takes the adventurer
# out of the spirit's path.

POL_HEURISTIC = 1
W_GREED = 0  # value of recovering treasure (per treasure point, 10 + face value)
W_BANK = 1  # value of bringing carried treasure home
W_CAUTION = 2  # fear for carried treasure within the spirit's likely reach
W_AGGRESSION = 3  # value of sending opponents home with what they carry, and cutting routes
W_BUILD = 4  # value of extending the own routes toward needed houses
W_BLOCK = 5  # reluctance to put needed houses or streets within opponents' reach
W_CHIP = 6  # extra value a chip must bring before it is spent
W_CENTRE = 7  # preference for raising the centre house when the chest is still needed
W_NOISE = 8  # random spread of the card choice, in treasures (0: deterministic, no draw)
W_SEARCH = 9  # orders of key houses a route search may try (its effort; below 1: none)
W_KEYS = 10  # key houses a route search considers, the most promising first (0..MAX_KEYS)
WEIGHT_NAMES = (
    "greed",
    "bank",
    "caution",
    "aggression",
    "build",
    "block",
    "chip",
    "centre",
    "noise",
    "search",
    "keys",
)

INF = 999
# a route search's most expansions whatever its weight `search`: more than the 1,956 orders
# of 6 key houses, so a search up to it is complete
MAX_ROUTE_NODES = 2000
MAX_KEYS = 6  # key houses in a route search: the most promising by value per distance


@kernel(inline="always")
def tv(t):
    """What a treasure is worth to a player: count first (10), then its face value."""
    return 10.0 + treasure_value(t)


@kernel(inline="always")
def slot_bit(p):
    """The bit of piece slot p in its word of a set of slots (word p >> 6), an int64 (bit 63
    is then the sign bit, compiled or not: plain Python would make a larger int)."""
    return np.int64(1) << (p & 63)


@kernel
def set_neighbours(s, x, p):
    """X_ADJACENT, X_ADJACENT_COUNT and X_ADJACENT_BITS of piece p (on the lake or not) from the
    lake: the pieces connected to it in the order piece_neighbours lists them."""
    n = 0
    lo = 0
    hi = 0
    a = X_ADJACENT + 8 * p
    for k in range(2):
        q = s[O_PIECE_SQUARES + 2 * p + k]
        if q < 0:
            continue
        for j in range(4):
            nq = ORTH[q, j]
            if nq < 0:
                continue
            o = s[O_SQUARE_PIECE + nq]
            if o == WATER or o == p:
                continue
            b = slot_bit(o)
            if o < 64:
                if lo & b:
                    continue
                lo |= b
            else:
                if hi & b:
                    continue
                hi |= b
            x[a + n] = o
            n += 1
    x[X_ADJACENT_COUNT + p] = n
    x[X_ADJACENT_BITS + 2 * p] = lo
    x[X_ADJACENT_BITS + 2 * p + 1] = hi
    x[X_STALE_ADJACENT + (p >> 6)] &= ~slot_bit(p)


@kernel(inline="always")
def adjacent(s, x, p):
    """The number of pieces connected to piece p, its list X_ADJACENT brought up to date first
    when it is stale (appeared leaves the lists of the pieces beside a new one stale)."""
    if x[X_STALE_ADJACENT + (p >> 6)] & slot_bit(p):
        set_neighbours(s, x, p)
    return x[X_ADJACENT_COUNT + p]


@kernel
def appeared(s, x, p):
    """Piece p appeared on free squares of the lake the tables describe: its own tables from
    the lake, and p added to the bit sets (X_ADJACENT_BITS) of the pieces beside it. Their ordered
    lists (X_ADJACENT) are marked stale instead of listed again: the searches that read them
    (adjacent) list a stale one when they reach it. The tables are then those relink would
    give for the squares that changed."""
    for k in range(2):
        q = s[O_PIECE_SQUARES + 2 * p + k]
        if q >= 0:
            x[X_TABLES_LAKE + q] = s[O_SQUARE_PIECE + q]
    set_neighbours(s, x, p)
    b = slot_bit(p)
    for v in range(2):  # the words of p's bit set: slots 0..63, 64..69
        m = x[X_ADJACENT_BITS + 2 * p + v]
        while m != 0:
            o = 64 * v + trailing_zeros(m)
            m &= m - 1
            x[X_ADJACENT_BITS + 2 * o + (p >> 6)] |= b
            x[X_STALE_ADJACENT + v] |= slot_bit(o)


@kernel(inline="always")
def with_slot(lo, hi, o):
    """The set of slots (lo: 0..63, hi: 64..69) with slot o added (o < 0: unchanged)."""
    if o >= 64:
        hi |= slot_bit(o)
    elif o >= 0:
        lo |= slot_bit(o)
    return lo, hi


@kernel(inline="always")
def has_slot(lo, hi, o):
    """Whether slot o (>= 0) is in the set of slots (lo: 0..63, hi: 64..69)."""
    return ((hi if o >= 64 else lo) & slot_bit(o)) != 0


@kernel
def square_changed(s, x, q, lo, hi):
    """Square q of the lake changed: X_TABLES_LAKE[q] takes its new content, and the pieces on it
    (before and now) and beside it join the set (lo, hi) of pieces to relink."""
    lo, hi = with_slot(lo, hi, x[X_TABLES_LAKE + q])
    o = s[O_SQUARE_PIECE + q]
    x[X_TABLES_LAKE + q] = o
    lo, hi = with_slot(lo, hi, o)
    for j in range(4):
        nq = ORTH[q, j]
        if nq >= 0:
            lo, hi = with_slot(lo, hi, s[O_SQUARE_PIECE + nq])
    return lo, hi


@kernel
def relink(s, x, lo, hi):
    """set_neighbours for every piece slot in the set (lo, hi)."""
    m = lo
    while m != 0:
        set_neighbours(s, x, trailing_zeros(m))
        m &= m - 1
    m = hi
    while m != 0:
        set_neighbours(s, x, 64 + trailing_zeros(m))
        m &= m - 1


@kernel
def piece_graph(s, x):
    """X_ADJACENT / X_ADJACENT_COUNT: the pieces connected to each piece, in the order
    piece_neighbours lists them, which is the order a search over the squares meets them in (so the
    searches below give the same distances and parents as one over the squares); X_ADJACENT_BITS:
    the same as bit sets. Brought up to date only when the lake changed, and then only for the
    pieces on or beside the squares that changed since (X_TABLES_LAKE holds the lake the tables
    describe): a piece's connections depend on nothing else. After our own pieces (raised, appeared)
    the lists of the pieces beside a new one may be stale (X_STALE_ADJACENT); read them through
    adjacent."""
    key = board_signature(s) + 1  # > 0: the memo starts at 0
    if x[X_MEMO_ADJACENT] == key:
        return
    if x[X_MEMO_ADJACENT] != 0:
        lo = 0
        hi = 0
        for q in range(N_SQUARES):
            if s[O_SQUARE_PIECE + q] != x[X_TABLES_LAKE + q]:
                lo, hi = square_changed(s, x, q, lo, hi)
        relink(s, x, lo, hi)
        x[X_MEMO_ADJACENT] = key
        return
    for q in range(N_SQUARES):
        x[X_TABLES_LAKE + q] = s[O_SQUARE_PIECE + q]
    for p in range(N_SLOTS):
        set_neighbours(s, x, p)
    x[X_MEMO_ADJACENT] = key


@kernel
def field(s, r, seat, src, x, od, want_lo, want_hi):
    """Movement-point distances from src (a piece slot, or VILLAGE: the seat's village) to
    every piece slot into x[od + slot] (INF unreachable): a breadth-first search over bit
    sets of slots, one level at a time (the distances of bfs, without parents). With a
    wanted set of slots (want_lo, want_hi: slots 0..63, 64..69) the search stops once all
    of them are reached; the other entries may then be incomplete."""
    piece_graph(s, x)
    for k in range(N_SLOTS):
        x[od + k] = INF
    level = 0
    if src == VILLAGE:
        src = s[O_SQUARE_PIECE + r[R_VILLAGE + seat]]
        if src == WATER:
            return
        level = 1
    x[od + src] = level
    vlo = 0
    vhi = 0
    if src < 64:
        vlo = slot_bit(src)
    else:
        vhi = slot_bit(src)
    flo = vlo
    fhi = vhi
    while flo != 0 or fhi != 0:
        if (vlo & want_lo) == want_lo and (vhi & want_hi) == want_hi and (want_lo | want_hi):
            return
        level += 1
        nlo = 0
        nhi = 0
        m = flo
        while m != 0:
            p = trailing_zeros(m)
            m &= m - 1
            nlo |= x[X_ADJACENT_BITS + 2 * p]
            nhi |= x[X_ADJACENT_BITS + 2 * p + 1]
        m = fhi
        while m != 0:
            p = trailing_zeros(m) + 64
            m &= m - 1
            nlo |= x[X_ADJACENT_BITS + 2 * p]
            nhi |= x[X_ADJACENT_BITS + 2 * p + 1]
        nlo &= ~vlo
        nhi &= ~vhi
        vlo |= nlo
        vhi |= nhi
        m = nlo
        while m != 0:
            x[od + trailing_zeros(m)] = level
            m &= m - 1
        m = nhi
        while m != 0:
            x[od + 64 + trailing_zeros(m)] = level
            m &= m - 1
        flo = nlo
        fhi = nhi


@kernel
def bfs(s, r, seat, src, x, op, goal):
    """Breadth-first search over the pieces from src (a piece slot, or VILLAGE: the seat's
    village) until it reaches piece `goal`, with the BFS parent of every piece it reaches in
    x[op + slot] (-1 = entered from the village; the parents of pieces not reached, and src's
    own, are not written). Returns 1 when the goal was reached, else 0. The pieces reached are
    kept as two bit sets (slots 0..63, 64..69), so no table is cleared first."""
    piece_graph(s, x)
    if src == VILLAGE:
        q = s[O_SQUARE_PIECE + r[R_VILLAGE + seat]]
        if q == WATER:
            return 0
        x[op + q] = -1
        src = q
    if src == goal:
        return 1
    x[X_BFS_QUEUE] = src
    vlo, vhi = with_slot(0, 0, src)
    head = 0
    tail = 1
    while head < tail:
        p = x[X_BFS_QUEUE + head]
        head += 1
        a = X_ADJACENT + 8 * p
        for i in range(adjacent(s, x, p)):
            nb = x[a + i]
            if not has_slot(vlo, vhi, nb):
                vlo, vhi = with_slot(vlo, vhi, nb)
                x[op + nb] = p
                x[X_BFS_QUEUE + tail] = nb
                tail += 1
                if nb == goal:
                    return 1
    return 0


@kernel
def spirit_origin(s):
    """The piece the spirit stands on; in the advanced game, while it is in the grotto, the
    house it would appear at when a sinking phase begins (the house of its grotto space, else
    the highest-numbered house on the lake), -1 when there is none."""
    sp = s[S_SPIRIT_SLOT]
    if sp >= 0:
        return sp
    g = s[S_GROTTO_SPACE]
    if 1 <= g <= N_HOUSES and s[O_PIECE_SQUARES + 2 * (HOUSE_BASE + g - 1)] >= 0:
        return HOUSE_BASE + g - 1
    for h in range(N_HOUSES, 0, -1):
        if s[O_PIECE_SQUARES + 2 * (HOUSE_BASE + h - 1)] >= 0:
            return HOUSE_BASE + h - 1
    return -1


@kernel
def spirit_field(s, r, x):
    """Spirit distances: x[X_DIST_FROM_SPIRIT + slot] = steps for the spirit to reach each piece
    (from spirit_origin; all INF when it has none)."""
    sp = spirit_origin(s)
    if sp < 0:
        for k in range(N_SLOTS):
            x[X_DIST_FROM_SPIRIT + k] = INF
        return
    field(s, r, 0, sp, x, X_DIST_FROM_SPIRIT, 0, 0)


@kernel
def threat_table(s, r, seat, xf):
    """F_THREAT_BY_DIST[d]: chance that an opponent's spirit move sinks a piece at spirit distance d
    before our next turn: the spirit must reach it and leave it (die faces above d, or the
    owner's limit when the spirit stands in an opponent's territory)."""
    if r[P_ADVANCED] == 1:
        advanced_threat_table(s, r, seat, xf)
        return
    n = r[P_DIE_N]
    owner = piece_owner(s, r, s[S_SPIRIT_SLOT])
    for d in range(8):
        hit = 0
        for k in range(n):
            if r[R_DIE + k] > d:
                hit += 1
        t = hit / n
        if owner >= 0 and owner != seat and r[P_OWNER_LIMIT] > d:
            t = 1.0
        xf[F_THREAT_BY_DIST + d] = 0.7 * t


@kernel
def advanced_threat_table(s, r, seat, xf):
    """F_THREAT_BY_DIST[d] in the advanced game: the chance that the spirit, moved by the opponents'
    forced points before our next turn, passes a piece at distance d from where it stands
    (or, in the raising phase, from the house it will appear at when the draw stack runs
    out). Each opponent in turn plays a card of its hand (uniformly): its top number raises
    streets until the stack is used up, then moves the spirit. F_SPIRIT_REACH[0..31] holds the
    distribution: index k < 16 = raising with k streets used, 16 + j = sinking, j steps."""
    players = r[P_PLAYERS]
    left = s[O_STACKS + s[S_DRAW_SPACE]]
    for k in range(32):
        xf[F_SPIRIT_REACH + k] = 0.0
    if s[S_PHASE] == PHASE_SINKING:
        xf[F_SPIRIT_REACH + 16] = 1.0
    elif left >= 16:
        for d in range(8):
            xf[F_THREAT_BY_DIST + d] = 0.0
        return
    else:
        xf[F_SPIRIT_REACH + 0] = 1.0
    for i in range(1, players):
        o = (seat + i) % players
        hand = s[O_HAND + o]
        n = 0
        for c in range(r[P_N_CARDS]):
            if hand & (1 << c):
                n += 1
        if n == 0:
            continue
        for k in range(32):
            xf[F_SPIRIT_REACH_NEXT + k] = 0.0
        for k in range(32):
            pk = xf[F_SPIRIT_REACH + k]
            if pk == 0.0:
                continue
            for c in range(r[P_N_CARDS]):
                if not (hand & (1 << c)):
                    continue
                top = r[R_CARDS + 3 * c]
                if k < 16:
                    u = k + top
                    if u < left:
                        nk = u
                    else:
                        j = u - left
                        nk = 16 + (j if j < 15 else 15)
                else:
                    j = k - 16 + top
                    nk = 16 + (j if j < 15 else 15)
                xf[F_SPIRIT_REACH_NEXT + nk] += pk / n
        for k in range(32):
            xf[F_SPIRIT_REACH + k] = xf[F_SPIRIT_REACH_NEXT + k]
    for d in range(8):
        hit = 0.0
        for j in range(d + 1, 16):
            hit += xf[F_SPIRIT_REACH + 16 + j]
        xf[F_THREAT_BY_DIST + d] = 0.7 * hit


@kernel(inline="always")
def threat(slot, x, xf):
    """Threat to the piece under `slot` (threat_table must be current)."""
    if slot == VILLAGE:
        return 0.0
    d = x[X_DIST_FROM_SPIRIT + slot]
    if d >= INF:
        return 0.0
    return xf[F_THREAT_BY_DIST + (d if d < 7 else 7)]


@kernel
def carried_value(s, seat):
    v = 0.0
    for t in range(N_TREASURES):
        if treasure(s, seat, t) == CARRIED:
            v += tv(t)
    return v


@kernel
def house_value(s, r, seat, slot, on_centre):
    """Treasure value of entering house `slot` for the seat (its own treasure and, in the
    centre, the chest)."""
    h = slot - HOUSE_BASE
    v = 0.0
    if treasure(s, seat, h) == HOUSE_SIDE:
        v += tv(h)
    if on_centre and treasure(s, seat, CHEST) == HOUSE_SIDE:
        v += tv(CHEST)
    return v


@kernel
def position_square(s, r, seat):
    """A square for the seat's adventurer: its piece's square, or its village's corner."""
    a = s[O_ADVENTURER_SLOT + seat]
    if a == VILLAGE:
        return r[R_VILLAGE + seat]
    return psq(s, a, 0)


# Row and column of each square, and 1 / (1 + d) for the Manhattan distances d of the lake
# (numpy's division is the same IEEE operation as the kernels': the same values).
ROW = np.arange(N_SQUARES, dtype=np.int64) // SIZE
COL = np.arange(N_SQUARES, dtype=np.int64) % SIZE
INV1 = 1.0 / (1.0 + np.arange(2 * SIZE, dtype=np.float64))
PAD = (ROW + 1) * (SIZE + 2) + COL + 1  # each square's place in a grid with a border
INV_COST = 1.0 / (1.0 + np.arange(1000, dtype=np.float64))  # 1 / (1 + c), c < 1000


@kernel(inline="always")
def manhattan(a, b):
    return abs(ROW[a] - ROW[b]) + abs(COL[a] - COL[b])


@kernel(inline="always")
def key_limit(w):
    """The weight `keys` as a number of key houses, 0..MAX_KEYS (the parser rejects others;
    a seat's weights do not change during a game, so the keys' memo holds per seat)."""
    return min(max(int(w[W_KEYS]), 0), MAX_KEYS)


@kernel
def key_houses(s, r, seat, w, x, xf):
    """Collect the houses on the lake worth entering (reachable per X_DIST_FROM_ADVENTURER), at most
    `keys` (weight, at most MAX_KEYS) of them, the most valuable per movement point first, into
    X_KEY_HOUSES with values F_KEY_VALUE; and their distances (pairwise, to the village, from the
    adventurer). Returns their number."""
    # the same lake, seat and position as the last call (the card choice, then the move
    # when nothing was raised): the keys and their distances still hold
    need = 0
    for t in range(N_TREASURES):
        if treasure(s, seat, t) == HOUSE_SIDE:
            need |= 1 << t
    memo = ((board_signature(s) * 8 + seat) * 128 + s[O_ADVENTURER_SLOT + seat] + 2) * 2048 + need
    if x[X_MEMO_KEY_HOUSES] == memo:
        return x[X_MEMO_KEY_COUNT]
    k = 0
    lim = key_limit(w)
    centre = r[P_CENTRE]
    for h in range(N_HOUSES):
        slot = HOUSE_BASE + h
        q = psq(s, slot, 0)
        if q < 0 or x[X_DIST_FROM_ADVENTURER + slot] >= INF:
            continue
        v = house_value(s, r, seat, slot, q == centre)
        if v <= 0.0:
            continue
        score = v / (1.0 + x[X_DIST_FROM_ADVENTURER + slot])
        if k < lim:
            pos = k
            k += 1
        else:
            # replace the weakest key when this one promises more
            pos = -1
            worst = score
            for j in range(k):
                sj = xf[F_KEY_VALUE + j] / (1.0 + x[X_ADVENTURER_TO_KEY_DIST + j])
                if sj < worst:
                    worst = sj
                    pos = j
            if pos < 0:
                continue
        x[X_KEY_HOUSES + pos] = slot
        xf[F_KEY_VALUE + pos] = v
        x[X_ADVENTURER_TO_KEY_DIST + pos] = x[X_DIST_FROM_ADVENTURER + slot]
        x[X_KEY_TO_VILLAGE_DIST + pos] = x[X_DIST_FROM_VILLAGE + slot]
    # most promising first (value per movement point): the search meets good routes early
    for i in range(1, k):
        j = i
        while j > 0 and xf[F_KEY_VALUE + j] / (1.0 + x[X_ADVENTURER_TO_KEY_DIST + j]) > xf[
            F_KEY_VALUE + j - 1
        ] / (1.0 + x[X_ADVENTURER_TO_KEY_DIST + j - 1]):
            for base in (X_KEY_HOUSES, X_ADVENTURER_TO_KEY_DIST, X_KEY_TO_VILLAGE_DIST):
                t = x[base + j]
                x[base + j] = x[base + j - 1]
                x[base + j - 1] = t
            tf = xf[F_KEY_VALUE + j]
            xf[F_KEY_VALUE + j] = xf[F_KEY_VALUE + j - 1]
            xf[F_KEY_VALUE + j - 1] = tf
            j -= 1
    key_distances(s, r, k, x)
    x[X_MEMO_KEY_HOUSES] = memo
    x[X_MEMO_KEY_COUNT] = k
    return k


@kernel
def key_distances(s, r, k, x):
    """X_KEY_TO_KEY_DIST[i, j]: movement points between key houses i and j. The pieces' connections
    go both ways, so one search from key i gives row i and column i; it stops once the keys
    after i are all reached."""
    for i in range(k):
        x[X_KEY_TO_KEY_DIST + 13 * i] = 0
    for i in range(k - 1):
        want_lo = 0
        want_hi = 0
        for j in range(i + 1, k):
            p = x[X_KEY_HOUSES + j]
            if p < 64:
                want_lo |= slot_bit(p)
            else:
                want_hi |= slot_bit(p)
        field(s, r, 0, x[X_KEY_HOUSES + i], x, X_DIST_SCRATCH, want_lo, want_hi)
        for j in range(i + 1, k):
            d = x[X_DIST_SCRATCH + x[X_KEY_HOUSES + j]]
            x[X_KEY_TO_KEY_DIST + 12 * i + j] = d
            x[X_KEY_TO_KEY_DIST + 12 * j + i] = d


@kernel(inline="always")
def keep_path(x, dst, stack, depth, last):
    """x[dst : dst + depth + 1] = the path on a search stack (the nodes x[stack + 1 .. stack +
    depth] below the current depth) followed by `last`."""
    for j in range(depth):
        x[dst + j] = x[stack + j + 1]
    x[dst + depth] = last


@kernel
def route_leaf(s, r, seat, w, x, xf, collected, final_slot, banked, carried0):
    """Value of ending a move: treasure recovered, treasure banked, and the risk to what is
    still carried where the adventurer stops."""
    total = carried0 + collected
    urg = xf[F_URGENCY]
    p_end = xf[F_URGENCY + 1]
    if banked:
        return w[W_GREED] * collected + (w[W_BANK] + 1.5 * urg) * total
    d_home = x[X_DIST_FROM_VILLAGE + final_slot] if final_slot != VILLAGE else 0
    if d_home >= INF:
        d_home = 20
    risk = threat(final_slot, x, xf)
    # the end-game terms weigh against greed, so they scale with it
    g = w[W_GREED]
    out_there = (
        g * collected
        - w[W_CAUTION] * total * risk
        - (0.02 * w[W_BANK] + 0.03 * g * urg) * total * d_home  # stay within reach of home
        - 0.16 * g * urg * total
    )
    # if the game may end before our next turn, what we carry is lost with that chance
    return (1.0 - p_end) * out_there - p_end * 0.4 * g * total


@kernel(inline="always")
def route_candidates(x, k, node, left, mask):
    """Bit set of the key houses the route search may go to next from key `node` (-1: from
    where the adventurer stands): not visited yet (mask) and reachable with `left` points.
    With MAX_KEYS keys (the long searches) from X_ROUTE_CANDIDATES (route_candidate_table)."""
    if k == MAX_KEYS:
        return x[X_ROUTE_CANDIDATES + 41 * (node + 1) + left] & ~mask
    cand = 0
    for i in range(k):
        if not mask & (1 << i):
            d = (
                x[X_ADVENTURER_TO_KEY_DIST + i]
                if node < 0
                else x[X_KEY_TO_KEY_DIST + 12 * node + i]
            )
            if d < INF and d <= left:
                cand |= 1 << i
    return cand


@kernel
def route_candidate_table(x, k, budget):
    """X_ROUTE_CANDIDATES[node + 1, L]: the bit set of keys within L movement points (L <= budget)
    of key `node` (-1: of where the adventurer stands)."""
    for node in range(-1, k):
        row = X_ROUTE_CANDIDATES + 41 * (node + 1)
        for left in range(budget + 1):
            x[row + left] = 0
        for i in range(k):
            d = (
                x[X_ADVENTURER_TO_KEY_DIST + i]
                if node < 0
                else x[X_KEY_TO_KEY_DIST + 12 * node + i]
            )
            if d <= budget:
                x[row + d] |= 1 << i
        for left in range(1, budget + 1):
            x[row + left] |= x[row + left - 1]


@kernel
def plan_route(s, r, seat, w, budget, x, xf, ob, k):
    """Search the orders of key houses (and whether to end in the village) reachable with
    `budget` movement points; the best route goes to X_BEST_ROUTE (key indices, -2 village, -1
    end). xf[ob + c] receives the best value of a route using at most c points (c <= budget
    <= 40). Returns the best value. X_DIST_FROM_ADVENTURER, X_DIST_FROM_VILLAGE, X_DIST_FROM_SPIRIT,
    the threat table (threat_table) and the k key houses (key_houses) must be current."""
    carried0 = carried_value(s, seat)
    adv = s[O_ADVENTURER_SLOT + seat]
    for c in range(budget + 1):
        xf[ob + c] = -1e18
    stay = route_leaf(s, r, seat, w, x, xf, 0.0, adv, adv == VILLAGE and carried0 > 0, carried0)
    if adv == VILLAGE:
        stay = 0.0
    xf[ob + 0] = stay
    best = stay
    x[X_BEST_ROUTE] = -1
    d_home_start = 0 if adv == VILLAGE else x[X_DIST_FROM_VILLAGE + adv]
    # going straight home
    if adv != VILLAGE and d_home_start <= budget:
        v = route_leaf(s, r, seat, w, x, xf, 0.0, VILLAGE, True, carried0)
        if v > xf[ob + d_home_start]:
            xf[ob + d_home_start] = v
        if v > best:
            best = v
            x[X_BEST_ROUTE] = -2
            x[X_BEST_ROUTE + 1] = -1
    # route_leaf's terms that do not depend on the route, computed once with the same
    # operations in the same order (the values are bit for bit those of route_leaf)
    urg = xf[F_URGENCY]
    p_end = xf[F_URGENCY + 1]
    g = w[W_GREED]
    caution = w[W_CAUTION]
    bank_w = w[W_BANK] + 1.5 * urg
    home_w = 0.02 * w[W_BANK] + 0.03 * g * urg
    late_w = 0.16 * g * urg
    stay_w = 1.0 - p_end
    lost_w = p_end * 0.4 * g
    for i in range(k):
        slot = x[X_KEY_HOUSES + i]
        d_home = x[X_DIST_FROM_VILLAGE + slot]
        if d_home >= INF:
            d_home = 20
        xf[F_KEY_HOME_DIST + i] = d_home
        xf[F_KEY_THREAT + i] = threat(slot, x, xf)
    # depth-first search over orders of key houses; X_ROUTE_NEXT_CANDIDATE[depth] holds the keys
    # still to try from the node at that depth (not visited, within the budget left), tried in key
    # order
    depth = 0
    x[X_ROUTE_NODE] = -1
    if k == MAX_KEYS:
        route_candidate_table(x, k, budget)
    x[X_ROUTE_NEXT_CANDIDATE] = route_candidates(x, k, -1, budget, 0)
    x[X_ROUTE_BUDGET_LEFT] = budget
    x[X_ROUTE_VISITED] = 0
    xf[F_ROUTE_VALUE] = 0.0
    expansions = 0
    cap = 0  # the player's effort (keys are tried best first: good routes come early)
    if w[W_SEARCH] >= 1.0:
        cap = int(min(w[W_SEARCH], 1e9))
    while depth >= 0 and expansions < MAX_ROUTE_NODES:  # (a constant bound: faster code)
        if expansions >= cap:
            break
        cand = x[X_ROUTE_NEXT_CANDIDATE + depth]
        if cand == 0:
            depth -= 1
            continue
        i = trailing_zeros(cand)
        x[X_ROUTE_NEXT_CANDIDATE + depth] = cand & (cand - 1)
        node = x[X_ROUTE_NODE + depth]
        d = x[X_ADVENTURER_TO_KEY_DIST + i] if node < 0 else x[X_KEY_TO_KEY_DIST + 12 * node + i]
        left = x[X_ROUTE_BUDGET_LEFT + depth] - d
        expansions += 1
        val = xf[F_ROUTE_VALUE + depth] + xf[F_KEY_VALUE + i]
        used = budget - left
        total = carried0 + val
        # stop at this house (route_leaf, not banked)
        out_there = (
            g * val
            - caution * total * xf[F_KEY_THREAT + i]
            - home_w * total * xf[F_KEY_HOME_DIST + i]
            - late_w * total
        )
        v = stay_w * out_there - lost_w * total
        c = xf[ob + used]
        xf[ob + used] = v if v > c else c  # (a select, not a branch the CPU must guess)
        if v > best:
            best = v
            keep_path(x, X_BEST_ROUTE, X_ROUTE_NODE, depth, i)
            x[X_BEST_ROUTE + depth + 1] = -1
        # or go home from here (route_leaf, banked)
        dv = x[X_KEY_TO_VILLAGE_DIST + i]
        if dv < INF and dv <= left:
            v = g * val + bank_w * total
            c = xf[ob + used + dv]
            xf[ob + used + dv] = v if v > c else c
            if v > best:
                best = v
                keep_path(x, X_BEST_ROUTE, X_ROUTE_NODE, depth, i)
                x[X_BEST_ROUTE + depth + 1] = -2
                x[X_BEST_ROUTE + depth + 2] = -1
        if depth + 1 < 12:
            depth += 1
            mask = x[X_ROUTE_VISITED + depth - 1] | (1 << i)
            x[X_ROUTE_NODE + depth] = i
            x[X_ROUTE_NEXT_CANDIDATE + depth] = route_candidates(x, k, i, left, mask)
            x[X_ROUTE_BUDGET_LEFT + depth] = left
            x[X_ROUTE_VISITED + depth] = mask
            xf[F_ROUTE_VALUE + depth] = val
    for c in range(1, budget + 1):
        if xf[ob + c - 1] > xf[ob + c]:
            xf[ob + c] = xf[ob + c - 1]
    return best


@kernel
def walk_to(s, r, tr, seat, target, x):
    """Walk the adventurer along a shortest path to piece `target` (VILLAGE: home)."""
    adv = s[O_ADVENTURER_SLOT + seat]
    if target == adv:
        return 0
    goal = target
    if target == VILLAGE:
        goal = s[O_SQUARE_PIECE + r[R_VILLAGE + seat]]
        if goal == WATER:
            return 0
    op = X_WALK_PARENT
    if bfs(s, r, seat, adv, x, op, goal) == 0:
        return 0
    # path back from the goal (reusing the route-stack region: 64 entries)
    n = 0
    p = goal
    while p != adv and p >= 0 and n < 64:
        x[X_ROUTE_NODE + n] = p
        n += 1
        p = x[op + p]
    for j in range(n - 1, -1, -1):
        if s[S_MOVE_LEFT] <= 0:
            return 0
        err = do_step(s, r, tr, seat, x[X_ROUTE_NODE + j], x)
        if err != 0:
            return err
    if target == VILLAGE and s[S_MOVE_LEFT] > 0:
        return do_step(s, r, tr, seat, VILLAGE, x)
    return 0


@kernel(inline="always")
def board_signature(s):
    """Changes whenever a piece appears or sinks (the counters only grow)."""
    return s[S_STREETS_PLACED] + 1000 * s[S_HOUSES_PLACED] + 1000000 * s[S_PIECES_SUNK]


@kernel(inline="always")
def adventurer_key(sig, seat, adv):
    """Memo key of X_DIST_FROM_ADVENTURER: the lake's signature, the seat and where its adventurer
    stands (> 0)."""
    return (sig * 8 + seat) * 128 + adv + 2


@kernel(inline="always")
def village_key(sig, seat):
    """Memo key of X_DIST_FROM_VILLAGE: the lake's signature and the seat (> 0)."""
    return sig * 8 + seat + 1


@kernel(inline="always")
def spirit_key(sig, spirit):
    """Memo key of X_DIST_FROM_SPIRIT: the lake's signature and the spirit's piece (> 0; the
    advanced game's spirit origin may be -1)."""
    return sig * 128 + spirit + 2


@kernel
def adventurer_field(s, r, seat, x):
    """X_DIST_FROM_ADVENTURER from the seat's adventurer, recomputed only when the lake, the seat or
    its position changed."""
    key = adventurer_key(board_signature(s), seat, s[O_ADVENTURER_SLOT + seat])
    if x[X_MEMO_ADVENTURER] != key:
        field(s, r, seat, s[O_ADVENTURER_SLOT + seat], x, X_DIST_FROM_ADVENTURER, 0, 0)
        x[X_MEMO_ADVENTURER] = key


@kernel
def village_field(s, r, seat, x):
    """X_DIST_FROM_VILLAGE from the seat's village, recomputed only when the lake or the seat
    changed."""
    key = village_key(board_signature(s), seat)
    if x[X_MEMO_VILLAGE] != key:
        field(s, r, seat, VILLAGE, x, X_DIST_FROM_VILLAGE, 0, 0)
        x[X_MEMO_VILLAGE] = key


@kernel
def spirit_field_memo(s, r, x):
    """X_DIST_FROM_SPIRIT, recomputed only when the lake or the spirit's piece changed."""
    key = spirit_key(board_signature(s), spirit_origin(s))
    if x[X_MEMO_SPIRIT] != key:
        spirit_field(s, r, x)
        x[X_MEMO_SPIRIT] = key


@kernel
def grow_field(s, r, seat, x, od, src, p):
    """Bring the distance field x[od:] from src (a slot, or VILLAGE) up to date after piece p
    appeared (X_ADJACENT_BITS current): distances only fall, from p outward; the result is the field
    a new search would give. Returns how many pieces got nearer; they are X_BFS_QUEUE[0..n) (a piece
    that gets nearer is reached first by its shortest way from p, so each is there once; the
    order of the neighbours does not change which)."""
    d = INF
    if src == VILLAGE and covers(s, p, r[R_VILLAGE + seat]):
        d = 1
    for w in range(2):
        m = x[X_ADJACENT_BITS + 2 * p + w]
        while m != 0:
            nd = x[od + 64 * w + trailing_zeros(m)] + 1
            m &= m - 1
            d = nd if nd < d else d
    x[od + p] = d
    if d >= INF:
        return 0
    x[X_BFS_QUEUE] = p
    head = 0
    tail = 1
    while head < tail:
        u = x[X_BFS_QUEUE + head]
        head += 1
        nd = x[od + u] + 1
        for w in range(2):
            m = x[X_ADJACENT_BITS + 2 * u + w]
            while m != 0:
                v = 64 * w + trailing_zeros(m)
                m &= m - 1
                if nd < x[od + v]:
                    x[od + v] = nd
                    x[X_BFS_QUEUE + tail] = v
                    tail += 1
    return tail


@kernel
def raised(s, r, seat, x, p, sig0):
    """After we raised piece p on the lake of signature sig0: the connection tables,
    X_DIST_FROM_ADVENTURER, X_DIST_FROM_VILLAGE, X_DIST_FROM_SPIRIT and (while building points are
    left) X_REACH_COST that were current just before are updated in place instead of computed
    again."""
    if x[X_MEMO_ADJACENT] == sig0 + 1:
        appeared(s, x, p)
        x[X_MEMO_ADJACENT] = board_signature(s) + 1
    else:
        piece_graph(s, x)
    sig = board_signature(s)
    adv = s[O_ADVENTURER_SLOT + seat]
    old_da = x[X_MEMO_ADVENTURER] == adventurer_key(sig0, seat, adv)
    old_dv = x[X_MEMO_VILLAGE] == village_key(sig0, seat)
    # X_REACH_COST is read only to choose the next piece: with no building point left it is not
    # kept (its memo key no longer matches the lake, so reach_costs_memo computes it afresh
    # should this turn raise again, e.g. after a banishment)
    reach = (
        old_da
        and old_dv
        and s[S_RAISE_LEFT] > 0
        and x[X_MEMO_REACH] == adventurer_key(sig0, seat, adv)
    )
    if reach:
        # p's squares are taken; every piece that got nearer (p among them) offers its new
        # distance + 1 to the free squares beside it: the costs only fall
        for k in range(2):
            q = s[O_PIECE_SQUARES + 2 * p + k]
            if q >= 0:
                x[X_REACH_COST + q] = INF
    if old_da:
        n = grow_field(s, r, seat, x, X_DIST_FROM_ADVENTURER, adv, p)
        x[X_MEMO_ADVENTURER] = adventurer_key(sig, seat, adv)
        if reach:
            for i in range(n):
                u = x[X_BFS_QUEUE + i]
                c = x[X_DIST_FROM_ADVENTURER + u] + 1
                for k in range(2):
                    q = s[O_PIECE_SQUARES + 2 * u + k]
                    if q < 0:
                        continue
                    for j in range(4):
                        nq = ORTH[q, j]
                        if nq >= 0 and s[O_SQUARE_PIECE + nq] == WATER and c < x[X_REACH_COST + nq]:
                            x[X_REACH_COST + nq] = c
    if old_dv:
        grow_field(s, r, seat, x, X_DIST_FROM_VILLAGE, VILLAGE, p)
        x[X_MEMO_VILLAGE] = village_key(sig, seat)
    if reach:
        home = 0 if adv == VILLAGE else x[X_DIST_FROM_VILLAGE + adv]
        corner = r[R_VILLAGE + seat]
        if (
            s[O_SQUARE_PIECE + corner] == WATER
            and home < INF
            and home + 1 < x[X_REACH_COST + corner]
        ):
            x[X_REACH_COST + corner] = home + 1
        x[X_MEMO_REACH] = adventurer_key(sig, seat, adv)
    sp = spirit_origin(s)  # (the advanced game's origin may move when a house appears:
    #                          then the keys differ and the field is searched anew)
    if sp >= 0 and x[X_MEMO_SPIRIT] == spirit_key(sig0, sp):
        grow_field(s, r, seat, x, X_DIST_FROM_SPIRIT, sp, p)
        x[X_MEMO_SPIRIT] = spirit_key(sig, sp)


@kernel
def distance_fields(s, r, seat, x):
    adventurer_field(s, r, seat, x)
    village_field(s, r, seat, x)
    spirit_field_memo(s, r, x)


@kernel
def reach_costs(s, r, seat, x):
    """X_REACH_COST[q]: movement points for the own adventurer to stand on a piece raised on free
    square q (via a neighbouring piece, or via the village for its corner); INF otherwise.
    X_PADDED_COST holds each square's X_DIST_FROM_ADVENTURER (INF on water and on the border around
    the lake), so a free square's cost is 1 + the least of its four neighbours, capped at INF."""
    for i in range((SIZE + 2) * (SIZE + 2)):
        x[X_PADDED_COST + i] = INF
    for q in range(N_SQUARES):
        o = s[O_SQUARE_PIECE + q]
        d = x[X_DIST_FROM_ADVENTURER + (o if o >= 0 else 0)]
        x[X_PADDED_COST + PAD[q]] = d if o >= 0 else INF
    for q in range(N_SQUARES):
        i = X_PADDED_COST + PAD[q]
        c = min(min(x[i - 1], x[i + 1]), min(x[i - SIZE - 2], x[i + SIZE + 2])) + 1
        x[X_REACH_COST + q] = c if (c < INF and s[O_SQUARE_PIECE + q] == WATER) else INF
    adv = s[O_ADVENTURER_SLOT + seat]
    home = 0 if adv == VILLAGE else x[X_DIST_FROM_VILLAGE + adv]
    corner = r[R_VILLAGE + seat]
    if s[O_SQUARE_PIECE + corner] == WATER and home < INF and home + 1 < x[X_REACH_COST + corner]:
        x[X_REACH_COST + corner] = home + 1


@kernel
def reach_costs_memo(s, r, seat, x):
    """X_REACH_COST, recomputed only when the lake, the seat or its adventurer's place changed
    (X_DIST_FROM_ADVENTURER and X_DIST_FROM_VILLAGE must be current; raised() keeps it current after
    our own pieces)."""
    key = adventurer_key(board_signature(s), seat, s[O_ADVENTURER_SLOT + seat])
    if x[X_MEMO_REACH] != key:
        reach_costs(s, r, seat, x)
        x[X_MEMO_REACH] = key


@kernel
def closeness_fields(s, r, seat, xf):
    """F_CLOSENESS_BY_OPPONENT[o, q] = 1 / (1 + Manhattan distance from opponent o's adventurer to
    q) and F_OPPONENTS_CLOSENESS[q] their sum over the opponents."""
    for q in range(N_SQUARES):
        xf[F_OPPONENTS_CLOSENESS + q] = 0.0
    for o in range(r[P_PLAYERS]):
        pos = position_square(s, r, o)
        for q in range(N_SQUARES):
            c = 0.0 if o == seat else INV1[manhattan(q, pos)]
            xf[F_CLOSENESS_BY_OPPONENT + N_SQUARES * o + q] = c
            xf[F_OPPONENTS_CLOSENESS + q] += c


@kernel
def place_best_house(s, r, tr, seat, w, x, xf, rng):
    """Raise the house worth most to us near our reach and away from opponents who need it;
    returns 1 when a house was raised, 0 when none is worth it, or an error code < 0."""
    if s[S_HOUSE_RAISED] == 1 or not any_house_spot(s, r):
        return 0
    centre = r[P_CENTRE]
    best = 0.0
    bh = -1
    bq = -1
    here = position_square(s, r, seat)
    off = rand_below(rng, 1024)  # one draw: equal squares, no side of the lake preferred
    # the houses worth something: those we need (on any square), and on the centre while
    # we need the chest, every house in the grotto (others are worth 0 and never chosen)
    grotto = 0
    needed = 0
    for h in range(1, 11):
        if house_raisable(s, r, h):  # (advanced game: only the grotto space's house)
            grotto |= 1 << h
            if treasure(s, seat, h - 1) == HOUSE_SIDE:
                needed |= 1 << h
    chest = treasure(s, seat, CHEST) == HOUSE_SIDE
    if needed == 0 and not (chest and grotto != 0):
        return 0  # no square has a house worth something to us (the draw above is kept)
    # the opponents who still need each house (4 bits per house)
    players = r[P_PLAYERS]
    others = 0
    for h in range(1, 11):
        for o in range(players):
            if o != seat and treasure(s, o, h - 1) == HOUSE_SIDE:
                others |= 1 << (4 * h + o)
    # With the greed and block weights >= 0 a house off the centre scores at most
    # greed * (value of the best house we need) * near + jitter (the block term takes away
    # >= 0; float products and sums are monotone): a square whose bound does not beat the
    # best so far is not scored.
    bounded = w[W_GREED] >= 0.0 and w[W_BLOCK] >= 0.0
    top_v = 0.0
    if needed != 0:
        h = 0
        m = needed
        while m != 0:
            h = trailing_zeros(m)
            m &= m - 1
        top_v = w[W_GREED] * tv(h - 1)  # the highest house needed is worth the most
    for k in range(r[P_N_HOUSE_SQ]):
        q = r[R_HOUSE_SQ + k]
        on_centre = q == centre
        cands = grotto if (on_centre and chest) else needed
        if cands == 0 or not house_spot_ok(s, r, q):
            continue
        cost = x[X_REACH_COST + q]
        if cost >= INF:
            cost = 12 + manhattan(q, here)
        near = INV_COST[cost]  # 1.0 / (1.0 + cost)
        jitter = 1e-6 * ((q * 40503 + off) % 1024)
        if bounded and not on_centre and top_v * near + jitter <= best:
            continue
        hs = cands
        while hs != 0:
            h = trailing_zeros(hs)
            hs &= hs - 1
            # house_value, then the centre's bonus, in the same order of operations
            v = 0.0
            if needed & (1 << h):
                v += tv(h - 1)
            if on_centre and chest:
                v += tv(CHEST)
                v += w[W_CENTRE] * tv(CHEST)
            if v <= 0.0:
                continue
            opp = 0.0  # how close those opponents are to q (closeness_fields)
            m = others >> (4 * h)
            for o in range(players):
                if m & (1 << o):
                    opp += xf[F_CLOSENESS_BY_OPPONENT + N_SQUARES * o + q]
            score = w[W_GREED] * v * near - w[W_BLOCK] * v * opp + jitter
            better = score > best
            best = score if better else best
            bh = h if better else bh
            bq = q if better else bq
    if bh < 0:
        return 0
    sig0 = board_signature(s)
    err = do_house(s, r, tr, bh, bq)
    if err != 0:
        return -err
    raised(s, r, seat, x, HOUSE_BASE + bh - 1, sig0)
    return 1


@kernel
def street_target(s, r, seat, x):
    """The square our streets should grow toward: the needed house on the lake that is worth
    most per Manhattan step, else the centre."""
    here = position_square(s, r, seat)
    best = -1.0
    tq = r[P_CENTRE]
    for h in range(N_HOUSES):
        slot = HOUSE_BASE + h
        q = psq(s, slot, 0)
        if q < 0:
            continue
        v = house_value(s, r, seat, slot, q == r[P_CENTRE])
        if v <= 0.0 or x[X_DIST_FROM_ADVENTURER + slot] < INF:
            continue
        score = v / (1.0 + manhattan(here, q))
        if score > best:
            best = score
            tq = q
    return tq


@kernel(inline="always")
def street_score(x, xf, a, b, target, off, build, block):
    """A street spot's score (place_best_street): toward the target, connected to what we
    reach, away from opponents, and a side-free tie-break. b = a for a 1-square spot."""
    ca = x[X_REACH_COST + a]
    cb = x[X_REACH_COST + b]
    c = ca if ca < cb else cb
    da = manhattan(a, target)
    db = manhattan(b, target)
    dist = da if da < db else db
    score = build * dist
    score -= 30.0 if c >= INF else 0.2 * c  # 30: not connected to anything we reach
    score -= block * xf[F_OPPONENTS_CLOSENESS + a]
    score += 1e-6 * ((a * 40503 + off) & 1023)  # equal spots: no side preferred
    return score


@kernel
def place_best_street(s, r, tr, seat, w, x, xf, rng):
    """Raise a street that extends our reach toward the target, away from opponents; returns
    1 when one was raised, 0 when none could be, or an error code < 0. The best score wins,
    among equal ones the first spot of the board's list (R_SPOTS)."""
    if not street_available(s):
        return 0
    target = street_target(s, r, seat, x)
    off = rand_below(rng, 1024)  # one draw per decision for the tie-break
    best = -1e18
    build = -w[W_BUILD]
    block = w[W_BLOCK] * 3.0
    # With the build and block weights >= 0, a spot not connected to anything we reach
    # scores at most -30 + 0.0011 (its distance and block terms are <= 0, its tie-break
    # < 0.0011): once a connected spot scores more, such spots cannot win.
    cutoff = -29.99 if (build <= 0.0 and block >= 0.0) else 1e300
    if r[P_STREET_SQUARES] == 1:
        bk = -1
        for k in range(r[P_N_SPOTS]):
            a = r[R_SPOTS + 2 * k]
            if s[O_SQUARE_PIECE + a] != WATER:
                continue  # not free (spot_free)
            score = street_score(x, xf, a, a, target, off, build, block)
            if score > best:
                best = score
                bk = k
        if bk < 0:
            return 0
        a = r[R_SPOTS + 2 * bk]
        b = -1
    else:
        # 2-square spots are the pairs of edge-adjacent squares without the centre, listed
        # by their first square, the one to the right before the one below: spot code
        # 2 * a + (0 right, 1 below) follows that order. Per row, bit sets of the free
        # squares (X_ROW_STREET_BITS) and of those next to what we reach (X_ROW_STREET_BITS + 10)
        # give the free spots; the connected ones are scored first, the others only when they could
        # win.
        centre = r[P_CENTRE]
        for row in range(SIZE):
            fr = 0
            cr = 0
            for col in range(SIZE):
                q = row * SIZE + col
                if s[O_SQUARE_PIECE + q] == WATER and q != centre:
                    fr |= 1 << col
                if x[X_REACH_COST + q] < INF:
                    cr |= 1 << col
            x[X_ROW_STREET_BITS + row] = fr
            x[X_ROW_STREET_BITS + SIZE + 1 + row] = cr
        x[X_ROW_STREET_BITS + SIZE] = 0
        x[X_ROW_STREET_BITS + 2 * SIZE + 1] = 0
        bcode = -1
        for rnd in range(2):
            if rnd == 1 and best > cutoff:
                break
            for row in range(SIZE):
                fr = x[X_ROW_STREET_BITS + row]
                cr = x[X_ROW_STREET_BITS + SIZE + 1 + row]
                right = fr & (fr >> 1)  # bit c: c and c + 1 free
                below = fr & x[X_ROW_STREET_BITS + row + 1]
                near_r = right & (cr | (cr >> 1))
                near_b = below & (cr | x[X_ROW_STREET_BITS + SIZE + 2 + row])
                if rnd == 0:
                    right = near_r
                    below = near_b
                else:
                    right &= ~near_r
                    below &= ~near_b
                m = right | below
                while m != 0:
                    col = trailing_zeros(m)
                    m &= m - 1
                    a = row * SIZE + col
                    for d in range(2):
                        if d == 0:
                            if not (right >> col) & 1:
                                continue
                            b = a + 1
                        else:
                            if not (below >> col) & 1:
                                continue
                            b = a + SIZE
                        score = street_score(x, xf, a, b, target, off, build, block)
                        code = 2 * a + d
                        # selects rather than branches (the outcome is hard to guess)
                        better = (score > best) | ((score == best) & (code < bcode))
                        best = score if better else best
                        bcode = code if better else bcode
        if bcode < 0:
            return 0
        a = bcode >> 1
        b = a + 1 if bcode & 1 == 0 else a + SIZE
    sig0 = board_signature(s)
    err = do_street(s, r, tr, a, b)
    if err != 0:
        return -err
    raised(s, r, seat, x, s[O_SQUARE_PIECE + a], sig0)
    return 1


@kernel
def heuristic_build(s, r, tr, seat, w, x, xf, rng):
    """Raise the card's pieces: a needed house first when one is worth it, then streets toward
    our target; whatever is still owed afterwards is raised at random legal spots."""
    while s[S_RAISE_LEFT] > 0 and can_build_any(s, r):
        adventurer_field(s, r, seat, x)
        village_field(s, r, seat, x)
        reach_costs_memo(s, r, seat, x)
        res = place_best_house(s, r, tr, seat, w, x, xf, rng)
        if res == 0:
            res = place_best_street(s, r, tr, seat, w, x, xf, rng)
        if res == 0:
            if not raising_owed(s, r):
                break  # only an optional piece is left and none is worth raising
            res = -random_place(s, r, tr, rng, x)
            if res == 0:
                res = 1
        if res < 0:
            return -res
    return 0


@kernel
def sink_value(s, r, seat, w, x, xf, slot):
    """Value for `seat` of the spirit leaving piece `slot`, which sinks (F_CARRIED_VALUE and
    X_DIST_FROM_ADVENTURER must be current)."""
    v = 0.0
    chips = r[P_CHIPS] == 1 and s[S_CHIP_SUPPLY] > 0
    for o in range(r[P_PLAYERS]):
        if s[O_ADVENTURER_SLOT + o] != slot:
            continue
        if o == seat:
            v -= (1.0 + w[W_CAUTION]) * (xf[F_CARRIED_VALUE + o] + 5.0)
        else:
            v += w[W_AGGRESSION] * (xf[F_CARRIED_VALUE + o] + 5.0)
            if chips:
                v -= 3.0
    if is_house(slot):
        h = slot - HOUSE_BASE
        if treasure(s, seat, h) == HOUSE_SIDE and x[X_DIST_FROM_ADVENTURER + slot] < INF:
            v -= 0.5 * w[W_GREED] * tv(h)
        for o in range(r[P_PLAYERS]):
            if o != seat and treasure(s, o, h) == HOUSE_SIDE:
                v += (
                    0.2
                    * w[W_AGGRESSION]
                    * tv(h)
                    / (1.0 + manhattan(psq(s, slot, 0), position_square(s, r, o)))
                )
    if x[X_DIST_FROM_ADVENTURER + slot] < INF and x[X_DIST_FROM_ADVENTURER + slot] <= 3:
        v -= w[W_BUILD] * 2.0  # a piece of our own way
    # cutting an opponent's way home while they carry treasure
    q = psq(s, slot, 0)
    for o in range(r[P_PLAYERS]):
        if o != seat and s[O_ADVENTURER_SLOT + o] != VILLAGE and s[O_ADVENTURER_SLOT + o] != slot:
            cv = xf[F_CARRIED_VALUE + o]
            if cv > 0.0 and manhattan(q, position_square(s, r, o)) <= 2:
                v += w[W_AGGRESSION] * 0.1 * cv
    return v


@kernel
def sink_values(s, r, seat, w, lim, x, xf):
    """F_SINK_VALUE[slot] = sink_value for every piece the spirit can reach in fewer than lim steps.
    A street without an adventurer gets only sink_value's last two terms (its own way, and
    cutting an opponent's way home), computed here with the same operations in the same
    order (the values are bit for bit sink_value's) and what does not depend on the piece
    worked out once: which opponents carry treasure out on the lake."""
    players = r[P_PLAYERS]
    adv_lo = 0  # the pieces holding an adventurer (slots 0..63, 64..69)
    adv_hi = 0
    cut = 0  # the opponents whose way home a sinking may cut (bit per seat)
    for o in range(players):
        adv_lo, adv_hi = with_slot(adv_lo, adv_hi, s[O_ADVENTURER_SLOT + o])
        if o != seat and s[O_ADVENTURER_SLOT + o] != VILLAGE and xf[F_CARRIED_VALUE + o] > 0.0:
            cut |= 1 << o
    build2 = w[W_BUILD] * 2.0
    aggr = w[W_AGGRESSION] * 0.1
    for p in range(N_SLOTS):
        if x[X_DIST_FROM_SPIRIT + p] >= lim:
            continue
        if is_house(p) or has_slot(adv_lo, adv_hi, p):
            xf[F_SINK_VALUE + p] = sink_value(s, r, seat, w, x, xf, p)
            continue
        v = 0.0
        if x[X_DIST_FROM_ADVENTURER + p] < INF and x[X_DIST_FROM_ADVENTURER + p] <= 3:
            v -= build2
        if cut != 0:
            q = psq(s, p, 0)
            for o in range(players):
                if (cut >> o) & 1 and manhattan(q, position_square(s, r, o)) <= 2:
                    v += aggr * xf[F_CARRIED_VALUE + o]
        xf[F_SINK_VALUE + p] = v


@kernel(inline="always")
def on_spirit_path(x, depth, p):
    """Whether piece p is on the spirit search's path so far (X_SPIRIT_PATH[0..depth])."""
    for j in range(depth + 1):
        if x[X_SPIRIT_PATH + j] == p:
            return True
    return False


@kernel
def best_spirit_path(s, r, seat, w, limit, x, xf):
    """Depth-first search over the spirit's simple paths of at most `limit` steps. Returns
    the best value (0 = not moving), leaves the best path in X_SPIRIT_BEST_PATH (its length in
    X_SPIRIT_BEST_PATH + 7) and xf[F_SPIRIT_BEST_UP_TO + d] = the best value of a path of at most d
    steps. Per length it also keeps the first best path (F_SPIRIT_BEST_BY_LENGTH,
    X_SPIRIT_FIRST_BEST_PATH, X_SPIRIT_FIRST_BEST_ORDER) for spirit_path_for_limit."""
    lim = limit if limit < 7 else 7
    for d in range(8):
        xf[F_SPIRIT_BEST_UP_TO + d] = 0.0
    best = 0.0
    x[X_SPIRIT_BEST_PATH + 7] = 0
    if lim <= 0:
        return 0.0
    sink_values(s, r, seat, w, lim, x, xf)
    piece_graph(
        s, x
    )  # the neighbours of the piece at each depth: X_ADJACENT of X_SPIRIT_PATH[depth]
    x[X_SPIRIT_PATH] = s[S_SPIRIT_SLOT]
    xf[F_SPIRIT_PATH_VALUE] = 0.0
    x[X_SPIRIT_NEIGHBOUR_COUNT] = adjacent(s, x, s[S_SPIRIT_SLOT])
    x[X_SPIRIT_NEXT_NEIGHBOUR] = 0
    depth = 0
    my_pos = s[O_ADVENTURER_SLOT + seat]
    mine = xf[F_CARRIED_VALUE + seat]
    seq = 0
    while depth >= 0:
        i = x[X_SPIRIT_NEXT_NEIGHBOUR + depth]
        if i >= x[X_SPIRIT_NEIGHBOUR_COUNT + depth]:
            depth -= 1
            continue
        x[X_SPIRIT_NEXT_NEIGHBOUR + depth] = i + 1
        nxt = x[X_ADJACENT + 8 * x[X_SPIRIT_PATH + depth] + i]
        if on_spirit_path(x, depth, nxt):
            continue  # a simple path: never back onto a piece already left (it has sunk)
        cur = x[X_SPIRIT_PATH + depth]
        v = xf[F_SPIRIT_PATH_VALUE + depth] + xf[F_SINK_VALUE + cur]
        end = v
        if my_pos == nxt:
            end -= 0.3 * w[W_CAUTION] * mine  # stopping on our own adventurer
        end += 1e-4 * (nxt % 7)  # a fixed, side-free tie-break between equal paths
        steps = depth + 1
        if end > xf[F_SPIRIT_BEST_UP_TO + steps]:
            xf[F_SPIRIT_BEST_UP_TO + steps] = end
            keep_path(x, X_SPIRIT_FIRST_BEST_PATH + 8 * steps, X_SPIRIT_PATH, depth, nxt)
            x[X_SPIRIT_FIRST_BEST_ORDER + steps] = seq
        seq += 1
        if end > best:
            best = end
            keep_path(x, X_SPIRIT_BEST_PATH, X_SPIRIT_PATH, depth, nxt)
            x[X_SPIRIT_BEST_PATH + 7] = steps
        if steps < lim:
            depth += 1
            x[X_SPIRIT_PATH + depth] = nxt
            xf[F_SPIRIT_PATH_VALUE + depth] = v
            x[X_SPIRIT_NEIGHBOUR_COUNT + depth] = adjacent(s, x, nxt)
            x[X_SPIRIT_NEXT_NEIGHBOUR + depth] = 0
    for d in range(8):
        xf[F_SPIRIT_BEST_BY_LENGTH + d] = xf[F_SPIRIT_BEST_UP_TO + d]
    for d in range(1, 8):
        if xf[F_SPIRIT_BEST_UP_TO + d - 1] > xf[F_SPIRIT_BEST_UP_TO + d]:
            xf[F_SPIRIT_BEST_UP_TO + d] = xf[F_SPIRIT_BEST_UP_TO + d - 1]
    return best


@kernel
def spirit_path_for_limit(x, xf, limit):
    """best_spirit_path's path for a smaller limit, from the last search's first best path
    per length (the lake, the spirit and the values unchanged since): every path of at most
    `limit` steps was met in that search in the same order, and the best is the first of
    the highest value above 0 (not moving)."""
    lim = limit if limit < 7 else 7
    best = 0.0
    bd = 0
    for d in range(1, lim + 1):
        v = xf[F_SPIRIT_BEST_BY_LENGTH + d]
        if v > best or (
            v == best
            and bd > 0
            and x[X_SPIRIT_FIRST_BEST_ORDER + d] < x[X_SPIRIT_FIRST_BEST_ORDER + bd]
        ):
            best = v
            bd = d
    for j in range(bd):
        x[X_SPIRIT_BEST_PATH + j] = x[X_SPIRIT_FIRST_BEST_PATH + 8 * bd + j]
    x[X_SPIRIT_BEST_PATH + 7] = bd


@kernel
def heuristic_spirit(s, r, tr, seat, w, rng, checked, x, xf):
    """Decide whether to move the spirit (expected value over the die faces, or the fixed
    limit in our own territory), then move it along the best path for the limit given."""
    if not can_spirit_now(s, r, seat, x):
        return 0
    adventurer_field(s, r, seat, x)
    spirit_field_memo(s, r, x)
    for o in range(r[P_PLAYERS]):
        xf[F_CARRIED_VALUE + o] = carried_value(s, o)
    owner = piece_owner(s, r, s[S_SPIRIT_SLOT])
    if owner == seat:
        top = r[P_OWNER_LIMIT]
        ev = best_spirit_path(s, r, seat, w, top, x, xf)
    else:
        # one search up to the largest face; the expected value over the faces
        top = 0
        n = r[P_DIE_N]
        for k in range(n):
            if r[R_DIE + k] > top:
                top = r[R_DIE + k]
        best_spirit_path(s, r, seat, w, top, x, xf)
        ev = 0.0
        for k in range(n):
            f = r[R_DIE + k]
            ev += xf[F_SPIRIT_BEST_UP_TO + (f if f < 7 else 7)]
        ev /= n
    if ev <= 0.5:
        return 0
    err = after(s, r, checked, do_spirit_begin(s, r, tr, seat, rng, x))
    if err != 0 or s[S_SPIRIT_ACTIVE] == 0:
        return err
    if s[S_SPIRIT_STEPS_LEFT] <= top:
        # nothing moved since the search above, which covered this limit
        spirit_path_for_limit(x, xf, s[S_SPIRIT_STEPS_LEFT])
    else:
        best_spirit_path(s, r, seat, w, s[S_SPIRIT_STEPS_LEFT], x, xf)
    steps = x[X_SPIRIT_BEST_PATH + 7]
    for j in range(steps):
        if s[S_SPIRIT_ACTIVE] == 0:
            break
        err = after(s, r, checked, do_spirit_step(s, r, tr, seat, x[X_SPIRIT_BEST_PATH + j], x))
        if err != 0:
            return err
    if s[S_SPIRIT_ACTIVE] == 1:
        err = after(s, r, checked, do_spirit_stop(s, r, tr, seat))
    return err


@kernel
def urgency(s, r):
    """How close the end is, 0..1: the streets left before the hourglass against the streets
    raised per round so far (about two per seat before the first round is over); 1 once the
    hourglass shows."""
    if s[S_HOURGLASS] == 1:
        return 1.0
    left = 0
    for k in range(s[S_DRAW_SPACE], 5):
        left += s[O_STACKS + k]
    rate = 2.0 * r[P_PLAYERS]
    if s[S_ROUND] > 0:
        rate = s[S_STREETS_PLACED] / s[S_ROUND]
        if rate < 1.0:
            rate = 1.0
    rounds_left = left / rate
    u = 1.0 - rounds_left / 3.0
    if u < 0.0:
        return 0.0
    return u if u < 1.0 else 1.0


@kernel
def last_turn_chance(s, r, seat):
    """Chance that this is the seat's last turn: the game ends with the round, so it is
    when an end condition is already met, or when the seats after us in this round can use
    up the street spaces up to space 5 before our next turn."""
    if s[S_END_REASON] >= 0:
        return 1.0
    after = r[P_PLAYERS] - 1 - seat
    if after <= 0:
        return 0.0
    left = 0
    for k in range(s[S_DRAW_SPACE], 5):
        left += s[O_STACKS + k]
    rate = 2.0 * r[P_PLAYERS]
    if s[S_ROUND] > 0:
        rate = s[S_STREETS_PLACED] / s[S_ROUND]
    e = rate * after / r[P_PLAYERS]  # streets the seats after us draw this round
    if e <= 0.0:
        return 0.0
    p = (1.5 * e - left) / e
    if p < 0.0:
        return 0.0
    return p if p < 1.0 else 1.0


@kernel
def noise_level(r, w):
    """The player's noise weight (negative values count as 0)."""
    nz = w[W_NOISE]
    return nz if nz > 0.0 else 0.0


@kernel
def choose_card(s, r, seat, w, x, xf, rng):
    """The card whose movement points buy the best route now (with a chip when one would
    be spent), plus the value of its pieces and of its spirit icon; with a noise weight, a
    random spread on each card's value (no draw at all when the noise is 0). With one card
    left in the hand there is nothing to choose (basic game: nothing computed here is needed
    later, the other phases compute what they read)."""
    hand = s[O_HAND + seat]
    if r[P_ADVANCED] == 0 and hand & (hand - 1) == 0:
        return trailing_zeros(hand)
    nz = noise_level(r, w)
    distance_fields(s, r, seat, x)
    maxb = 0
    for c in range(r[P_N_CARDS]):
        if s[O_HAND + seat] & (1 << c) and r[R_CARDS + 3 * c + 1] > maxb:
            maxb = r[R_CARDS + 3 * c + 1]
    extra = 0
    if r[P_CHIPS] == 1 and s[O_CHIPS + seat] > 0:
        extra = house_side_count(s, seat)
    top = maxb + extra
    if top > 40:
        top = 40
    plan_route(s, r, seat, w, top, x, xf, F_BEST_VALUE_BY_POINTS, key_houses(s, r, seat, w, x, xf))
    need = 0.3
    for h in range(1, 11):
        if treasure(s, seat, h - 1) == HOUSE_SIDE:
            slot = HOUSE_BASE + h - 1
            if psq(s, slot, 0) < 0 or x[X_DIST_FROM_ADVENTURER + slot] >= INF:
                need = 1.0
    aggro = 0.0
    for o in range(r[P_PLAYERS]):
        a = s[O_ADVENTURER_SLOT + o]
        if o != seat and a != VILLAGE and x[X_DIST_FROM_SPIRIT + a] <= 3:
            aggro += carried_value(s, o)
    best = -1e18
    bc = -1
    for c in range(r[P_N_CARDS]):
        if not (s[O_HAND + seat] & (1 << c)):
            continue
        m = r[R_CARDS + 3 * c + 1]
        v = xf[F_BEST_VALUE_BY_POINTS + min(m, top)]
        if extra > 0:
            vc = xf[F_BEST_VALUE_BY_POINTS + min(m + extra, top)] - w[W_CHIP]
            if vc > v:
                v = vc
        if r[P_ADVANCED] == 1:
            # seed 001: the top number is building points or (sinking) forced spirit points
            top = r[R_CARDS + 3 * c]
            if s[S_PHASE] == PHASE_SINKING:
                v += forced_value(s, r, seat, w, top, x, xf)
            else:
                v += w[W_BUILD] * need * 2.0 * top
        else:
            v += w[W_BUILD] * need * 2.0 * r[R_CARDS + 3 * c]
            if r[R_CARDS + 3 * c + 2] == 1 or r[P_NEEDS_ICON] == 0:
                v += w[W_AGGRESSION] * 0.3 * aggro
        if nz > 0.0:
            # a spread like a person's: about +-nz treasures of value (greed-weighted)
            v += nz * w[W_GREED] * 15.0 * (rand_float(rng) + rand_float(rng) - 1.0)
        if v > best:
            best = v
            bc = c
    return bc


@kernel
def heuristic_move(s, r, tr, seat, w, x, xf):
    """Plan the route for the movement points we have (and with a chip when it gains at
    least the chip weight), then walk it."""
    if s[S_MOVE_LEFT] <= 0:
        return 0
    if r[P_ADVANCED] == 1:
        # the advanced game's threat depends on the stacks and the phase, which raising
        # may have changed since the card was chosen
        threat_table(s, r, seat, xf)
    distance_fields(s, r, seat, x)
    k = key_houses(s, r, seat, w, x, xf)
    budget = s[S_MOVE_LEFT]
    v0 = plan_route(s, r, seat, w, budget, x, xf, F_BEST_VALUE_BY_POINTS, k)
    if can_chip_now(s, r, seat):
        for j in range(16):
            x[X_SAVED_ROUTE + j] = x[X_BEST_ROUTE + j]
        b2 = budget + house_side_count(s, seat)
        if b2 > 40:
            b2 = 40
        v1 = plan_route(s, r, seat, w, b2, x, xf, F_BEST_VALUE_BY_POINTS, k)
        if v1 - v0 >= w[W_CHIP]:
            err = do_chip(s, r, tr, seat)
            if err != 0:
                return err
        else:
            for j in range(16):
                x[X_BEST_ROUTE + j] = x[X_SAVED_ROUTE + j]
    # walk the best route (X_BEST_ROUTE); the key slots are still in X_KEY_HOUSES
    for j in range(16):
        node = x[X_BEST_ROUTE + j]
        if node == -1:
            break
        target = VILLAGE if node == -2 else x[X_KEY_HOUSES + node]
        err = walk_to(s, r, tr, seat, target, x)
        if err != 0:
            return err
    return 0


@kernel
def heuristic_turn(s, r, tr, seat, w, rng, checked, x, xf):
    """One whole turn of a heuristic player: card, raising, move, spirit, end."""
    xf[F_URGENCY] = urgency(s, r)
    xf[F_URGENCY + 1] = last_turn_chance(s, r, seat)
    threat_table(s, r, seat, xf)  # the spirit stays where it is until our own spirit move
    c = choose_card(s, r, seat, w, x, xf, rng)
    err = after(s, r, checked, do_card(s, r, tr, seat, c))
    if err != 0:
        return err
    if w[W_BLOCK] != 0.0:
        # only the block terms read the closeness fields; with a block weight of 0 they add
        # 0.0 whatever the (finite) fields hold
        closeness_fields(s, r, seat, xf)
    err = heuristic_build(s, r, tr, seat, w, x, xf, rng)
    if err == 0 and checked:
        err = check_invariants(s, r)
    if err == 0:
        err = after(s, r, checked, heuristic_move(s, r, tr, seat, w, x, xf))
    if err == 0:
        err = heuristic_spirit(s, r, tr, seat, w, rng, checked, x, xf)
    if err == 0 and r[P_ADVANCED] == 1:
        err = advanced_rest(s, r, tr, seat, w, rng, checked, x, xf)
    # whatever is still owed (a sunk street may have come back onto space 6)
    for _ in range(MAX_ACTIONS_PER_TURN):
        if err != 0 or can_end_now(s, r):
            break
        if can_place_now(s, r):
            err = after(s, r, checked, random_place(s, r, tr, rng, x))
        else:
            return ERR_ILLEGAL
    if err != 0:
        return err
    return after(s, r, checked, do_end_turn(s, r, tr))


# =======================================================================================
# The advanced game's decisions (seed 001): the forced spirit moves of the sinking phase,
# banishment, and where to send the spirit (banishment or a visit to its house).


@kernel
def forced_spirit_path(s, r, seat, w, pts, x, xf):
    """Best way to spend `pts` forced spirit points (sinking phase): a simple path of exactly
    min(pts, 7) steps, or a shorter one into a dead end followed by banishment (1 point; the
    last piece sinks too, the points left turn into building points). Returns the value,
    leaves the path in X_SPIRIT_BEST_PATH (length in X_SPIRIT_BEST_PATH + 7) and X_SPIRIT_BEST_PATH
    + 6 = 1 when it ends with a banishment. X_DIST_FROM_ADVENTURER, X_DIST_FROM_SPIRIT and
    F_CARRIED_VALUE must be current."""
    x[X_SPIRIT_BEST_PATH + 7] = 0
    x[X_SPIRIT_BEST_PATH + 6] = 0
    if pts <= 0:
        return 0.0
    lim = pts if pts < 6 else 6
    sink_values(s, r, seat, w, lim + 1, x, xf)
    sp = s[S_SPIRIT_SLOT]
    if sp < 0:
        x[X_SPIRIT_BEST_PATH + 6] = 1
        return 0.2 * w[W_BUILD] * (pts - 1)
    best = -1e18
    x[X_SPIRIT_PATH] = sp
    xf[F_SPIRIT_PATH_VALUE] = 0.0
    x[X_SPIRIT_NEIGHBOUR_COUNT] = piece_neighbours(s, sp, x, X_SPIRIT_NEIGHBOURS)
    x[X_SPIRIT_NEXT_NEIGHBOUR] = 0
    if x[X_SPIRIT_NEIGHBOUR_COUNT] == 0:
        # isolated at once: banish, the piece under the spirit sinks
        x[X_SPIRIT_BEST_PATH + 6] = 1
        return xf[F_SINK_VALUE + sp] + 0.2 * w[W_BUILD] * (pts - 1)
    depth = 0
    my_pos = s[O_ADVENTURER_SLOT + seat]
    mine = xf[F_CARRIED_VALUE + seat]
    while depth >= 0:
        i = x[X_SPIRIT_NEXT_NEIGHBOUR + depth]
        if i >= x[X_SPIRIT_NEIGHBOUR_COUNT + depth]:
            depth -= 1
            continue
        x[X_SPIRIT_NEXT_NEIGHBOUR + depth] = i + 1
        nxt = x[X_SPIRIT_NEIGHBOURS + 8 * depth + i]
        if on_spirit_path(x, depth, nxt):
            continue
        cur = x[X_SPIRIT_PATH + depth]
        v = xf[F_SPIRIT_PATH_VALUE + depth] + xf[F_SINK_VALUE + cur]
        steps = depth + 1
        # neighbours of nxt not yet left (pieces left have sunk)
        n = piece_neighbours(s, nxt, x, X_SEARCH_NEIGHBOURS)
        m = 0
        for j in range(n):
            nb = x[X_SEARCH_NEIGHBOURS + j]
            gone = False
            for k in range(depth + 1):
                if x[X_SPIRIT_PATH + k] == nb:
                    gone = True
            if not gone and m < 8:
                x[X_SPIRIT_NEIGHBOURS + 8 * (depth + 1) + m] = nb
                m += 1
        complete = steps == lim or m == 0
        if complete:
            end = v
            banish = 0
            if m == 0 and steps < pts:
                # dead end with points left: banished, the last piece sinks too
                end += sink_value(s, r, seat, w, x, xf, nxt) + 0.2 * w[W_BUILD] * (pts - steps - 1)
                banish = 1
            elif my_pos == nxt:
                end -= 0.3 * w[W_CAUTION] * mine  # stopping on our own adventurer
            end += 1e-4 * (nxt % 7)
            if end > best:
                best = end
                keep_path(x, X_SPIRIT_BEST_PATH, X_SPIRIT_PATH, depth, nxt)
                x[X_SPIRIT_BEST_PATH + 7] = steps
                x[X_SPIRIT_BEST_PATH + 6] = banish
        else:
            depth += 1
            x[X_SPIRIT_PATH + depth] = nxt
            xf[F_SPIRIT_PATH_VALUE + depth] = v
            x[X_SPIRIT_NEIGHBOUR_COUNT + depth] = m
            x[X_SPIRIT_NEXT_NEIGHBOUR + depth] = 0
    return best


@kernel
def forced_value(s, r, seat, w, pts, x, xf):
    """Value of having to move the spirit `pts` points now (card choice, sinking phase)."""
    if pts <= 0:
        return 0.0
    adventurer_field(s, r, seat, x)
    spirit_field_memo(s, r, x)
    for o in range(r[P_PLAYERS]):
        xf[F_CARRIED_VALUE + o] = carried_value(s, o)
    return forced_spirit_path(s, r, seat, w, pts, x, xf)


@kernel
def grotto_value(s, r, seat, w, g, build_after, x, xf):
    """What sending the spirit to grotto space g is worth to us: its house can be raised
    next (by us when we still have building points, else by the next seats, who place it
    for themselves); a house already on the lake blocks every raising of houses until
    someone enters it."""
    slot = HOUSE_BASE + g - 1
    on_centre_free = s[O_SQUARE_PIECE + r[P_CENTRE]] == WATER
    mine = house_value(s, r, seat, slot, on_centre_free)
    theirs = 0.0
    for o in range(r[P_PLAYERS]):
        if o != seat:
            theirs += house_value(s, r, o, slot, on_centre_free)
    if psq(s, slot, 0) < 0:
        if build_after > 0 and any_house_spot(s, r):
            return w[W_GREED] * 0.5 * mine - 0.2 * w[W_BLOCK] * theirs
        return 0.15 * w[W_GREED] * mine - 0.3 * theirs / (r[P_PLAYERS] - 1)
    # on the lake: houses stay blocked until its house is entered; good when we are nearest
    d = x[X_DIST_FROM_ADVENTURER + slot]
    near = 1.0 / (1.0 + d) if d < INF else 0.0
    return 0.5 * near


@kernel
def best_grotto(s, r, seat, w, build_after, other_than, x, xf):
    """The grotto space worth most to us (other than `other_than`); value in
    xf[F_SPIRIT_PATH_VALUE]."""
    best = -1e18
    bg = -1
    for g in range(1, N_HOUSES + 1):
        if g == other_than or not grotto_ok(r, g):
            continue
        v = grotto_value(s, r, seat, w, g, build_after, x, xf) + 1e-6 * g
        if v > best:
            best = v
            bg = g
    xf[F_SPIRIT_PATH_VALUE] = best
    return bg


@kernel
def advanced_spirit(s, r, tr, seat, w, checked, x, xf):
    """Spend the forced spirit points of the sinking phase along the best path; banish the
    spirit where it does us most good when it is isolated with points left."""
    for _ in range(64):
        if not (s[S_PHASE] == PHASE_SINKING and s[S_SPIRIT_STEPS_LEFT] > 0):
            return 0
        adventurer_field(s, r, seat, x)
        spirit_field_memo(s, r, x)
        for o in range(r[P_PLAYERS]):
            xf[F_CARRIED_VALUE + o] = carried_value(s, o)
        if spirit_targets(s, x, X_NEIGHBOURS) == 0:
            g = best_grotto(s, r, seat, w, s[S_SPIRIT_STEPS_LEFT] - 1, 0, x, xf)
            err = after(s, r, checked, do_banish(s, r, tr, seat, g, x))
            if err != 0:
                return err
            continue
        forced_spirit_path(s, r, seat, w, s[S_SPIRIT_STEPS_LEFT], x, xf)
        steps = x[X_SPIRIT_BEST_PATH + 7]
        if steps == 0:
            return ERR_ILLEGAL
        for j in range(steps):
            err = after(s, r, checked, do_sink_step(s, r, tr, seat, x[X_SPIRIT_BEST_PATH + j], x))
            if err != 0:
                return err
    return ERR_ILLEGAL


@kernel
def advanced_rest(s, r, tr, seat, w, rng, checked, x, xf):
    """The advanced game's part of a heuristic turn, after raising and moving: use the right
    to send the spirit to another grotto space when that pays, spend the forced spirit
    points, and raise what banishment turned into building points."""
    if can_grotto_now(s, r, seat):
        adventurer_field(s, r, seat, x)
        cur = grotto_value(s, r, seat, w, s[S_GROTTO_SPACE], s[S_RAISE_LEFT], x, xf)
        g = best_grotto(s, r, seat, w, s[S_RAISE_LEFT], s[S_GROTTO_SPACE], x, xf)
        if g > 0 and xf[F_SPIRIT_PATH_VALUE] > cur + 0.5:
            err = after(s, r, checked, do_grotto(s, r, tr, seat, g))
            if err != 0:
                return err
            if s[S_RAISE_LEFT] > 0:
                closeness_fields(s, r, seat, xf)
                err = heuristic_build(s, r, tr, seat, w, x, xf, rng)
                if err != 0:
                    return err
    # forced spirit points; banishment turns the rest into building points, and raising
    # may run the next stack out again
    for _ in range(16):
        if s[S_PHASE] == PHASE_SINKING and s[S_SPIRIT_STEPS_LEFT] > 0:
            err = advanced_spirit(s, r, tr, seat, w, checked, x, xf)
        elif s[S_PHASE] == PHASE_RAISING and s[S_RAISE_LEFT] > 0 and can_build_any(s, r):
            before = s[S_RAISE_LEFT]
            closeness_fields(s, r, seat, xf)
            err = heuristic_build(s, r, tr, seat, w, x, xf, rng)
            if err == 0 and s[S_RAISE_LEFT] == before and s[S_PHASE] == PHASE_RAISING:
                break  # nothing worth raising and nothing owed
        else:
            break
        if err == 0 and checked:
            err = check_invariants(s, r)
        if err != 0:
            return err
    return 0
