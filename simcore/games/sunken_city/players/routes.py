"""Route search of the heuristic players: the key houses worth entering, their distances, a
depth-first search over orders of them within the movement points (plan_route), and the walk
that follows the chosen route (walk_to)."""

from __future__ import annotations

from simcore.frame.bits import trailing_zeros
from simcore.frame.jit import kernel
from simcore.games.sunken_city import rules as R
from simcore.games.sunken_city import state as S
from simcore.games.sunken_city.engine import psq, treasure
from simcore.games.sunken_city.engine_moves import do_step
from simcore.games.sunken_city.players.common import (
    INF,
    board_signature,
    carried_value,
    house_value,
    keep_path,
    slot_bit,
    threat,
)
from simcore.games.sunken_city.players.fields import bfs, field
from simcore.games.sunken_city.players.scratch import (
    X_ADVENTURER_TO_KEY_DIST,
    X_BEST_ROUTE,
    X_DIST_FROM_ADVENTURER,
    X_DIST_FROM_VILLAGE,
    X_DIST_SCRATCH,
    X_KEY_HOUSES,
    X_KEY_TO_KEY_DIST,
    X_KEY_TO_VILLAGE_DIST,
    X_MEMO_KEY_COUNT,
    X_MEMO_KEY_HOUSES,
    X_ROUTE_BUDGET_LEFT,
    X_ROUTE_CANDIDATES,
    X_ROUTE_NEXT_CANDIDATE,
    X_ROUTE_NODE,
    X_ROUTE_VISITED,
    X_WALK_PARENT,
    XF_KEY_HOME_DIST,
    XF_KEY_THREAT,
    XF_KEY_VALUE,
    XF_ROUTE_VALUE,
    XF_URGENCY,
)
from simcore.games.sunken_city.players.weights import W_BANK, W_CAUTION, W_GREED, W_KEYS, W_SEARCH

# a route search's most expansions whatever its weight `search`: more than the 1,956 orders
# of 6 key houses, so a search up to it is complete
MAX_ROUTE_NODES = 2000

MAX_KEYS = 6  # key houses in a route search: the most promising by value per distance


@kernel(inline="always")
def key_limit(w):
    """The weight `keys` as a number of key houses, 0..MAX_KEYS (the parser rejects others;
    a seat's weights do not change during a game, so the keys' memo holds per seat)."""
    return min(max(int(w[W_KEYS]), 0), MAX_KEYS)


@kernel
def key_houses(s, r, seat, w, x, xf):
    """Collect the houses on the lake worth entering (reachable per X_DIST_FROM_ADVENTURER), at most
    `keys` (weight, at most MAX_KEYS) of them, the most valuable per movement point first, into
    X_KEY_HOUSES with values XF_KEY_VALUE; and their distances (pairwise, to the village, from the
    adventurer). Returns their number."""
    # the same lake, seat and position as the last call (the card choice, then the move
    # when nothing was raised): the keys and their distances still hold
    need = 0
    for t in range(R.N_TREASURES):
        if treasure(s, seat, t) == S.HOUSE_SIDE:
            need |= 1 << t
    memo = ((board_signature(s) * 8 + seat) * 128 + s[S.O_ADVENTURER_SLOT + seat] + 2) * 2048 + need
    if x[X_MEMO_KEY_HOUSES] == memo:
        return x[X_MEMO_KEY_COUNT]
    k = 0
    lim = key_limit(w)
    centre = r[R.P_CENTRE]
    for h in range(R.N_HOUSES):
        slot = S.HOUSE_BASE + h
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
                sj = xf[XF_KEY_VALUE + j] / (1.0 + x[X_ADVENTURER_TO_KEY_DIST + j])
                if sj < worst:
                    worst = sj
                    pos = j
            if pos < 0:
                continue
        x[X_KEY_HOUSES + pos] = slot
        xf[XF_KEY_VALUE + pos] = v
        x[X_ADVENTURER_TO_KEY_DIST + pos] = x[X_DIST_FROM_ADVENTURER + slot]
        x[X_KEY_TO_VILLAGE_DIST + pos] = x[X_DIST_FROM_VILLAGE + slot]
    # most promising first (value per movement point): the search meets good routes early
    for i in range(1, k):
        j = i
        while j > 0 and xf[XF_KEY_VALUE + j] / (1.0 + x[X_ADVENTURER_TO_KEY_DIST + j]) > xf[
            XF_KEY_VALUE + j - 1
        ] / (1.0 + x[X_ADVENTURER_TO_KEY_DIST + j - 1]):
            for base in (X_KEY_HOUSES, X_ADVENTURER_TO_KEY_DIST, X_KEY_TO_VILLAGE_DIST):
                t = x[base + j]
                x[base + j] = x[base + j - 1]
                x[base + j - 1] = t
            tf = xf[XF_KEY_VALUE + j]
            xf[XF_KEY_VALUE + j] = xf[XF_KEY_VALUE + j - 1]
            xf[XF_KEY_VALUE + j - 1] = tf
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


@kernel
def route_leaf(s, r, seat, w, x, xf, collected, final_slot, banked, carried0):
    """Value of ending a move: treasure recovered, treasure banked, and the risk to what is
    still carried where the adventurer stops."""
    total = carried0 + collected
    urg = xf[XF_URGENCY]
    p_end = xf[XF_URGENCY + 1]
    if banked:
        return w[W_GREED] * collected + (w[W_BANK] + 1.5 * urg) * total
    d_home = x[X_DIST_FROM_VILLAGE + final_slot] if final_slot != S.VILLAGE else 0
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
    adv = s[S.O_ADVENTURER_SLOT + seat]
    for c in range(budget + 1):
        xf[ob + c] = -1e18
    stay = route_leaf(s, r, seat, w, x, xf, 0.0, adv, adv == S.VILLAGE and carried0 > 0, carried0)
    if adv == S.VILLAGE:
        stay = 0.0
    xf[ob + 0] = stay
    best = stay
    x[X_BEST_ROUTE] = -1
    d_home_start = 0 if adv == S.VILLAGE else x[X_DIST_FROM_VILLAGE + adv]
    # going straight home
    if adv != S.VILLAGE and d_home_start <= budget:
        v = route_leaf(s, r, seat, w, x, xf, 0.0, S.VILLAGE, True, carried0)
        if v > xf[ob + d_home_start]:
            xf[ob + d_home_start] = v
        if v > best:
            best = v
            x[X_BEST_ROUTE] = -2
            x[X_BEST_ROUTE + 1] = -1
    # route_leaf's terms that do not depend on the route, computed once with the same
    # operations in the same order (the values are bit for bit those of route_leaf)
    urg = xf[XF_URGENCY]
    p_end = xf[XF_URGENCY + 1]
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
        xf[XF_KEY_HOME_DIST + i] = d_home
        xf[XF_KEY_THREAT + i] = threat(slot, x, xf)
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
    xf[XF_ROUTE_VALUE] = 0.0
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
        val = xf[XF_ROUTE_VALUE + depth] + xf[XF_KEY_VALUE + i]
        used = budget - left
        total = carried0 + val
        # stop at this house (route_leaf, not banked)
        out_there = (
            g * val
            - caution * total * xf[XF_KEY_THREAT + i]
            - home_w * total * xf[XF_KEY_HOME_DIST + i]
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
            xf[XF_ROUTE_VALUE + depth] = val
    for c in range(1, budget + 1):
        if xf[ob + c - 1] > xf[ob + c]:
            xf[ob + c] = xf[ob + c - 1]
    return best


@kernel
def walk_to(s, r, tr, seat, target, x):
    """Walk the adventurer along a shortest path to piece `target` (VILLAGE: home)."""
    adv = s[S.O_ADVENTURER_SLOT + seat]
    if target == adv:
        return 0
    goal = target
    if target == S.VILLAGE:
        goal = s[S.O_SQUARE_PIECE + r[R.R_VILLAGE + seat]]
        if goal == S.WATER:
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
        if s[S.S_MOVE_LEFT] <= 0:
            return 0
        err = do_step(s, r, tr, seat, x[X_ROUTE_NODE + j], x)
        if err != 0:
            return err
    if target == S.VILLAGE and s[S.S_MOVE_LEFT] > 0:
        return do_step(s, r, tr, seat, S.VILLAGE, x)
    return 0
