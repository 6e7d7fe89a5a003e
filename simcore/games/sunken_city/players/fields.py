"""Distance fields of the heuristic players: which pieces connect to which (kept up to date
piece by piece), breadth-first distances from the adventurer, the village and the spirit,
memoised by the lake's signature, the reach cost of each free square, the spirit's threat
table and the opponents' closeness to each square."""

from __future__ import annotations

from simcore.frame.bits import trailing_zeros
from simcore.frame.jit import kernel
from simcore.games.sunken_city import board as B
from simcore.games.sunken_city import rules as R
from simcore.games.sunken_city import state as S
from simcore.games.sunken_city.engine import (
    covers,
    piece_neighbours,
    piece_owner,
)
from simcore.games.sunken_city.players.common import (
    INF,
    INV1,
    PAD,
    board_signature,
    has_slot,
    manhattan,
    position_square,
    slot_bit,
    with_slot,
)
from simcore.games.sunken_city.players.scratch import (
    X_ADJACENT,
    X_ADJACENT_BITS,
    X_ADJACENT_COUNT,
    X_BFS_QUEUE,
    X_DIST_FROM_ADVENTURER,
    X_DIST_FROM_SPIRIT,
    X_DIST_FROM_VILLAGE,
    X_MEMO_ADJACENT,
    X_MEMO_ADVENTURER,
    X_MEMO_REACH,
    X_MEMO_SPIRIT,
    X_MEMO_VILLAGE,
    X_PADDED_COST,
    X_REACH_COST,
    X_STALE_ADJACENT,
    X_TABLES_LAKE,
    XF_CLOSENESS_BY_OPPONENT,
    XF_OPPONENTS_CLOSENESS,
    XF_SPIRIT_REACH,
    XF_SPIRIT_REACH_NEXT,
    XF_THREAT_BY_DIST,
)


@kernel
def set_neighbours(s, x, p):
    """X_ADJACENT, X_ADJACENT_COUNT and X_ADJACENT_BITS of piece p (on the lake or not) from the
    lake: the pieces connected to it in the order piece_neighbours lists them."""
    a = X_ADJACENT + 8 * p
    n = piece_neighbours(s, p, x, a)
    lo = 0
    hi = 0
    for m in range(n):
        if x[a + m] < 64:
            lo |= slot_bit(x[a + m])
        else:
            hi |= slot_bit(x[a + m])
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
        q = s[S.O_PIECE_SQUARES + 2 * p + k]
        if q >= 0:
            x[X_TABLES_LAKE + q] = s[S.O_SQUARE_PIECE + q]
    set_neighbours(s, x, p)
    b = slot_bit(p)
    for v in range(2):  # the words of p's bit set: slots 0..63, 64..69
        m = x[X_ADJACENT_BITS + 2 * p + v]
        while m != 0:
            o = 64 * v + trailing_zeros(m)
            m &= m - 1
            x[X_ADJACENT_BITS + 2 * o + (p >> 6)] |= b
            x[X_STALE_ADJACENT + v] |= slot_bit(o)


@kernel
def square_changed(s, x, q, lo, hi):
    """Square q of the lake changed: X_TABLES_LAKE[q] takes its new content, and the pieces on it
    (before and now) and beside it join the set (lo, hi) of pieces to relink."""
    lo, hi = with_slot(lo, hi, x[X_TABLES_LAKE + q])
    o = s[S.O_SQUARE_PIECE + q]
    x[X_TABLES_LAKE + q] = o
    lo, hi = with_slot(lo, hi, o)
    for j in range(4):
        nq = B.ORTH[q, j]
        if nq >= 0:
            lo, hi = with_slot(lo, hi, s[S.O_SQUARE_PIECE + nq])
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
        for q in range(B.N_SQUARES):
            if s[S.O_SQUARE_PIECE + q] != x[X_TABLES_LAKE + q]:
                lo, hi = square_changed(s, x, q, lo, hi)
        relink(s, x, lo, hi)
        x[X_MEMO_ADJACENT] = key
        return
    for q in range(B.N_SQUARES):
        x[X_TABLES_LAKE + q] = s[S.O_SQUARE_PIECE + q]
    for p in range(S.N_SLOTS):
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
    for k in range(S.N_SLOTS):
        x[od + k] = INF
    level = 0
    if src == S.VILLAGE:
        src = s[S.O_SQUARE_PIECE + r[R.R_VILLAGE + seat]]
        if src == S.WATER:
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
    if src == S.VILLAGE:
        q = s[S.O_SQUARE_PIECE + r[R.R_VILLAGE + seat]]
        if q == S.WATER:
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
    sp = s[S.S_SPIRIT_SLOT]
    if sp >= 0:
        return sp
    g = s[S.S_GROTTO_SPACE]
    if 1 <= g <= R.N_HOUSES and s[S.O_PIECE_SQUARES + 2 * (S.HOUSE_BASE + g - 1)] >= 0:
        return S.HOUSE_BASE + g - 1
    for h in range(R.N_HOUSES, 0, -1):
        if s[S.O_PIECE_SQUARES + 2 * (S.HOUSE_BASE + h - 1)] >= 0:
            return S.HOUSE_BASE + h - 1
    return -1


@kernel
def spirit_field(s, r, x):
    """Spirit distances: x[X_DIST_FROM_SPIRIT + slot] = steps for the spirit to reach each piece
    (from spirit_origin; all INF when it has none)."""
    sp = spirit_origin(s)
    if sp < 0:
        for k in range(S.N_SLOTS):
            x[X_DIST_FROM_SPIRIT + k] = INF
        return
    field(s, r, 0, sp, x, X_DIST_FROM_SPIRIT, 0, 0)


@kernel
def threat_table(s, r, seat, xf):
    """XF_THREAT_BY_DIST[d]: chance that an opponent's spirit move sinks a piece at spirit
    distance d before our next turn: the spirit must reach it and leave it (die faces above d,
    or the owner's limit when the spirit stands in an opponent's territory)."""
    if r[R.P_ADVANCED] == 1:
        advanced_threat_table(s, r, seat, xf)
        return
    n = r[R.P_DIE_N]
    owner = piece_owner(s, r, s[S.S_SPIRIT_SLOT])
    for d in range(8):
        hit = 0
        for k in range(n):
            if r[R.R_DIE + k] > d:
                hit += 1
        t = hit / n
        if owner >= 0 and owner != seat and r[R.P_OWNER_LIMIT] > d:
            t = 1.0
        xf[XF_THREAT_BY_DIST + d] = 0.7 * t


@kernel
def advanced_threat_table(s, r, seat, xf):
    """XF_THREAT_BY_DIST[d] in the advanced game: the chance that the spirit, moved by the
    opponents' forced points before our next turn, passes a piece at distance d from where it stands
    (or, in the raising phase, from the house it will appear at when the draw stack runs
    out). Each opponent in turn plays a card of its hand (uniformly): its top number raises
    streets until the stack is used up, then moves the spirit. XF_SPIRIT_REACH[0..31] holds the
    distribution: index k < 16 = raising with k streets used, 16 + j = sinking, j steps."""
    players = r[R.P_PLAYERS]
    left = s[S.O_STACKS + s[S.S_DRAW_SPACE]]
    for k in range(32):
        xf[XF_SPIRIT_REACH + k] = 0.0
    if s[S.S_PHASE] == S.PHASE_SINKING:
        xf[XF_SPIRIT_REACH + 16] = 1.0
    elif left >= 16:
        for d in range(8):
            xf[XF_THREAT_BY_DIST + d] = 0.0
        return
    else:
        xf[XF_SPIRIT_REACH + 0] = 1.0
    for i in range(1, players):
        o = (seat + i) % players
        hand = s[S.O_HAND + o]
        n = 0
        for c in range(r[R.P_N_CARDS]):
            if hand & (1 << c):
                n += 1
        if n == 0:
            continue
        for k in range(32):
            xf[XF_SPIRIT_REACH_NEXT + k] = 0.0
        for k in range(32):
            pk = xf[XF_SPIRIT_REACH + k]
            if pk == 0.0:
                continue
            for c in range(r[R.P_N_CARDS]):
                if not (hand & (1 << c)):
                    continue
                top = r[R.R_CARDS + 3 * c]
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
                xf[XF_SPIRIT_REACH_NEXT + nk] += pk / n
        for k in range(32):
            xf[XF_SPIRIT_REACH + k] = xf[XF_SPIRIT_REACH_NEXT + k]
    for d in range(8):
        hit = 0.0
        for j in range(d + 1, 16):
            hit += xf[XF_SPIRIT_REACH + 16 + j]
        xf[XF_THREAT_BY_DIST + d] = 0.7 * hit


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
    key = adventurer_key(board_signature(s), seat, s[S.O_ADVENTURER_SLOT + seat])
    if x[X_MEMO_ADVENTURER] != key:
        field(s, r, seat, s[S.O_ADVENTURER_SLOT + seat], x, X_DIST_FROM_ADVENTURER, 0, 0)
        x[X_MEMO_ADVENTURER] = key


@kernel
def village_field(s, r, seat, x):
    """X_DIST_FROM_VILLAGE from the seat's village, recomputed only when the lake or the seat
    changed."""
    key = village_key(board_signature(s), seat)
    if x[X_MEMO_VILLAGE] != key:
        field(s, r, seat, S.VILLAGE, x, X_DIST_FROM_VILLAGE, 0, 0)
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
    if src == S.VILLAGE and covers(s, p, r[R.R_VILLAGE + seat]):
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


@kernel(inline="always")
def reach_via_village(s, r, seat, x, adv):
    """The seat's village corner, when free, is reached through the village: its X_REACH_COST
    is at most the adventurer's distance (adv: its slot or VILLAGE) to the village + 1."""
    home = 0 if adv == S.VILLAGE else x[X_DIST_FROM_VILLAGE + adv]
    corner = r[R.R_VILLAGE + seat]
    if (
        s[S.O_SQUARE_PIECE + corner] == S.WATER
        and home < INF
        and home + 1 < x[X_REACH_COST + corner]
    ):
        x[X_REACH_COST + corner] = home + 1


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
    adv = s[S.O_ADVENTURER_SLOT + seat]
    old_da = x[X_MEMO_ADVENTURER] == adventurer_key(sig0, seat, adv)
    old_dv = x[X_MEMO_VILLAGE] == village_key(sig0, seat)
    # X_REACH_COST is read only to choose the next piece: with no building point left it is not
    # kept (its memo key no longer matches the lake, so reach_costs_memo computes it afresh
    # should this turn raise again, e.g. after a banishment)
    reach = (
        old_da
        and old_dv
        and s[S.S_RAISE_LEFT] > 0
        and x[X_MEMO_REACH] == adventurer_key(sig0, seat, adv)
    )
    if reach:
        # p's squares are taken; every piece that got nearer (p among them) offers its new
        # distance + 1 to the free squares beside it: the costs only fall
        for k in range(2):
            q = s[S.O_PIECE_SQUARES + 2 * p + k]
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
                    q = s[S.O_PIECE_SQUARES + 2 * u + k]
                    if q < 0:
                        continue
                    for j in range(4):
                        nq = B.ORTH[q, j]
                        if (
                            nq >= 0
                            and s[S.O_SQUARE_PIECE + nq] == S.WATER
                            and c < x[X_REACH_COST + nq]
                        ):
                            x[X_REACH_COST + nq] = c
    if old_dv:
        grow_field(s, r, seat, x, X_DIST_FROM_VILLAGE, S.VILLAGE, p)
        x[X_MEMO_VILLAGE] = village_key(sig, seat)
    if reach:
        reach_via_village(s, r, seat, x, adv)
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
    for i in range((B.SIZE + 2) * (B.SIZE + 2)):
        x[X_PADDED_COST + i] = INF
    for q in range(B.N_SQUARES):
        o = s[S.O_SQUARE_PIECE + q]
        d = x[X_DIST_FROM_ADVENTURER + (o if o >= 0 else 0)]
        x[X_PADDED_COST + PAD[q]] = d if o >= 0 else INF
    for q in range(B.N_SQUARES):
        i = X_PADDED_COST + PAD[q]
        c = min(min(x[i - 1], x[i + 1]), min(x[i - B.SIZE - 2], x[i + B.SIZE + 2])) + 1
        x[X_REACH_COST + q] = c if (c < INF and s[S.O_SQUARE_PIECE + q] == S.WATER) else INF
    reach_via_village(s, r, seat, x, s[S.O_ADVENTURER_SLOT + seat])


@kernel
def reach_costs_memo(s, r, seat, x):
    """X_REACH_COST, recomputed only when the lake, the seat or its adventurer's place changed
    (X_DIST_FROM_ADVENTURER and X_DIST_FROM_VILLAGE must be current; raised() keeps it current after
    our own pieces)."""
    key = adventurer_key(board_signature(s), seat, s[S.O_ADVENTURER_SLOT + seat])
    if x[X_MEMO_REACH] != key:
        reach_costs(s, r, seat, x)
        x[X_MEMO_REACH] = key


@kernel
def closeness_fields(s, r, seat, xf):
    """XF_CLOSENESS_BY_OPPONENT[o, q] = 1 / (1 + Manhattan distance from opponent o's adventurer to
    q) and XF_OPPONENTS_CLOSENESS[q] their sum over the opponents."""
    for q in range(B.N_SQUARES):
        xf[XF_OPPONENTS_CLOSENESS + q] = 0.0
    for o in range(r[R.P_PLAYERS]):
        pos = position_square(s, r, o)
        for q in range(B.N_SQUARES):
            c = 0.0 if o == seat else INV1[manhattan(q, pos)]
            xf[XF_CLOSENESS_BY_OPPONENT + B.N_SQUARES * o + q] = c
            xf[XF_OPPONENTS_CLOSENESS + q] += c
