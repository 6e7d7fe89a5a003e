"""The water spirit for the heuristic players: what sinking each piece is worth to us, the
best path of the spirit within its limit, and the spirit part of a turn."""

from __future__ import annotations

from simcore.frame.jit import kernel
from simcore.games.sunken_city import rules as R
from simcore.games.sunken_city import state as S
from simcore.games.sunken_city.engine import is_house, piece_owner, psq, treasure
from simcore.games.sunken_city.engine_spirit import (
    can_spirit_now,
    do_spirit_begin,
    do_spirit_step,
    do_spirit_stop,
)
from simcore.games.sunken_city.players.common import (
    INF,
    after,
    carried_value,
    has_slot,
    keep_path,
    manhattan,
    position_square,
    tv,
    with_slot,
)
from simcore.games.sunken_city.players.fields import (
    adjacent,
    adventurer_field,
    piece_graph,
    spirit_field_memo,
)
from simcore.games.sunken_city.players.scratch import (
    X_ADJACENT,
    X_DIST_FROM_ADVENTURER,
    X_DIST_FROM_SPIRIT,
    X_SPIRIT_BEST_PATH,
    X_SPIRIT_FIRST_BEST_ORDER,
    X_SPIRIT_FIRST_BEST_PATH,
    X_SPIRIT_NEIGHBOUR_COUNT,
    X_SPIRIT_NEXT_NEIGHBOUR,
    X_SPIRIT_PATH,
    XF_CARRIED_VALUE,
    XF_SINK_VALUE,
    XF_SPIRIT_BEST_BY_LENGTH,
    XF_SPIRIT_BEST_UP_TO,
    XF_SPIRIT_PATH_VALUE,
)
from simcore.games.sunken_city.players.weights import W_AGGRESSION, W_BUILD, W_CAUTION, W_GREED


@kernel
def sink_value(s, r, seat, w, x, xf, slot):
    """Value for `seat` of the spirit leaving piece `slot`, which sinks (XF_CARRIED_VALUE and
    X_DIST_FROM_ADVENTURER must be current)."""
    v = 0.0
    chips = r[R.P_CHIPS] == 1 and s[S.S_CHIP_SUPPLY] > 0
    for o in range(r[R.P_PLAYERS]):
        if s[S.O_ADVENTURER_SLOT + o] != slot:
            continue
        if o == seat:
            v -= (1.0 + w[W_CAUTION]) * (xf[XF_CARRIED_VALUE + o] + 5.0)
        else:
            v += w[W_AGGRESSION] * (xf[XF_CARRIED_VALUE + o] + 5.0)
            if chips:
                v -= 3.0
    if is_house(slot):
        h = slot - S.HOUSE_BASE
        if treasure(s, seat, h) == S.HOUSE_SIDE and x[X_DIST_FROM_ADVENTURER + slot] < INF:
            v -= 0.5 * w[W_GREED] * tv(h)
        for o in range(r[R.P_PLAYERS]):
            if o != seat and treasure(s, o, h) == S.HOUSE_SIDE:
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
    for o in range(r[R.P_PLAYERS]):
        if (
            o != seat
            and s[S.O_ADVENTURER_SLOT + o] != S.VILLAGE
            and s[S.O_ADVENTURER_SLOT + o] != slot
        ):
            cv = xf[XF_CARRIED_VALUE + o]
            if cv > 0.0 and manhattan(q, position_square(s, r, o)) <= 2:
                v += w[W_AGGRESSION] * 0.1 * cv
    return v


@kernel
def sink_values(s, r, seat, w, lim, x, xf):
    """XF_SINK_VALUE[slot] = sink_value for every piece the spirit can reach in fewer than lim
    steps. A street without an adventurer gets only sink_value's last two terms (its own way, and
    cutting an opponent's way home), computed here with the same operations in the same
    order (the values are bit for bit sink_value's) and what does not depend on the piece
    worked out once: which opponents carry treasure out on the lake."""
    players = r[R.P_PLAYERS]
    adv_lo = 0  # the pieces holding an adventurer (slots 0..63, 64..69)
    adv_hi = 0
    cut = 0  # the opponents whose way home a sinking may cut (bit per seat)
    for o in range(players):
        adv_lo, adv_hi = with_slot(adv_lo, adv_hi, s[S.O_ADVENTURER_SLOT + o])
        if o != seat and s[S.O_ADVENTURER_SLOT + o] != S.VILLAGE and xf[XF_CARRIED_VALUE + o] > 0.0:
            cut |= 1 << o
    build2 = w[W_BUILD] * 2.0
    aggr = w[W_AGGRESSION] * 0.1
    for p in range(S.N_SLOTS):
        if x[X_DIST_FROM_SPIRIT + p] >= lim:
            continue
        if is_house(p) or has_slot(adv_lo, adv_hi, p):
            xf[XF_SINK_VALUE + p] = sink_value(s, r, seat, w, x, xf, p)
            continue
        v = 0.0
        if x[X_DIST_FROM_ADVENTURER + p] < INF and x[X_DIST_FROM_ADVENTURER + p] <= 3:
            v -= build2
        if cut != 0:
            q = psq(s, p, 0)
            for o in range(players):
                if (cut >> o) & 1 and manhattan(q, position_square(s, r, o)) <= 2:
                    v += aggr * xf[XF_CARRIED_VALUE + o]
        xf[XF_SINK_VALUE + p] = v


@kernel(inline="always")
def next_branch(x, depth):
    """The spirit path search's next neighbour to try at `depth`: its index in that depth's
    list (the depth's counter moves on), or -1 when every one has been tried."""
    i = x[X_SPIRIT_NEXT_NEIGHBOUR + depth]
    if i >= x[X_SPIRIT_NEIGHBOUR_COUNT + depth]:
        return -1
    x[X_SPIRIT_NEXT_NEIGHBOUR + depth] = i + 1
    return i


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
    X_SPIRIT_BEST_PATH + 7) and xf[XF_SPIRIT_BEST_UP_TO + d] = the best value of a path of at most d
    steps. Per length it also keeps the first best path (XF_SPIRIT_BEST_BY_LENGTH,
    X_SPIRIT_FIRST_BEST_PATH, X_SPIRIT_FIRST_BEST_ORDER) for spirit_path_for_limit."""
    lim = limit if limit < 7 else 7
    for d in range(8):
        xf[XF_SPIRIT_BEST_UP_TO + d] = 0.0
    best = 0.0
    x[X_SPIRIT_BEST_PATH + 7] = 0
    if lim <= 0:
        return 0.0
    sink_values(s, r, seat, w, lim, x, xf)
    piece_graph(
        s, x
    )  # the neighbours of the piece at each depth: X_ADJACENT of X_SPIRIT_PATH[depth]
    x[X_SPIRIT_PATH] = s[S.S_SPIRIT_SLOT]
    xf[XF_SPIRIT_PATH_VALUE] = 0.0
    x[X_SPIRIT_NEIGHBOUR_COUNT] = adjacent(s, x, s[S.S_SPIRIT_SLOT])
    x[X_SPIRIT_NEXT_NEIGHBOUR] = 0
    depth = 0
    my_pos = s[S.O_ADVENTURER_SLOT + seat]
    mine = xf[XF_CARRIED_VALUE + seat]
    seq = 0
    while depth >= 0:
        i = next_branch(x, depth)
        if i < 0:
            depth -= 1
            continue
        nxt = x[X_ADJACENT + 8 * x[X_SPIRIT_PATH + depth] + i]
        if on_spirit_path(x, depth, nxt):
            continue  # a simple path: never back onto a piece already left (it has sunk)
        cur = x[X_SPIRIT_PATH + depth]
        v = xf[XF_SPIRIT_PATH_VALUE + depth] + xf[XF_SINK_VALUE + cur]
        end = v
        if my_pos == nxt:
            end -= 0.3 * w[W_CAUTION] * mine  # stopping on our own adventurer
        end += 1e-4 * (nxt % 7)  # a fixed, side-free tie-break between equal paths
        steps = depth + 1
        if end > xf[XF_SPIRIT_BEST_UP_TO + steps]:
            xf[XF_SPIRIT_BEST_UP_TO + steps] = end
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
            xf[XF_SPIRIT_PATH_VALUE + depth] = v
            x[X_SPIRIT_NEIGHBOUR_COUNT + depth] = adjacent(s, x, nxt)
            x[X_SPIRIT_NEXT_NEIGHBOUR + depth] = 0
    for d in range(8):
        xf[XF_SPIRIT_BEST_BY_LENGTH + d] = xf[XF_SPIRIT_BEST_UP_TO + d]
    for d in range(1, 8):
        if xf[XF_SPIRIT_BEST_UP_TO + d - 1] > xf[XF_SPIRIT_BEST_UP_TO + d]:
            xf[XF_SPIRIT_BEST_UP_TO + d] = xf[XF_SPIRIT_BEST_UP_TO + d - 1]
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
        v = xf[XF_SPIRIT_BEST_BY_LENGTH + d]
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
    for o in range(r[R.P_PLAYERS]):
        xf[XF_CARRIED_VALUE + o] = carried_value(s, o)
    owner = piece_owner(s, r, s[S.S_SPIRIT_SLOT])
    if owner == seat:
        top = r[R.P_OWNER_LIMIT]
        ev = best_spirit_path(s, r, seat, w, top, x, xf)
    else:
        # one search up to the largest face; the expected value over the faces
        top = 0
        n = r[R.P_DIE_N]
        for k in range(n):
            if r[R.R_DIE + k] > top:
                top = r[R.R_DIE + k]
        best_spirit_path(s, r, seat, w, top, x, xf)
        ev = 0.0
        for k in range(n):
            f = r[R.R_DIE + k]
            ev += xf[XF_SPIRIT_BEST_UP_TO + (f if f < 7 else 7)]
        ev /= n
    if ev <= 0.5:
        return 0
    err = after(s, r, checked, do_spirit_begin(s, r, tr, seat, rng, x))
    if err != 0 or s[S.S_SPIRIT_ACTIVE] == 0:
        return err
    if s[S.S_SPIRIT_STEPS_LEFT] <= top:
        # nothing moved since the search above, which covered this limit
        spirit_path_for_limit(x, xf, s[S.S_SPIRIT_STEPS_LEFT])
    else:
        best_spirit_path(s, r, seat, w, s[S.S_SPIRIT_STEPS_LEFT], x, xf)
    steps = x[X_SPIRIT_BEST_PATH + 7]
    for j in range(steps):
        if s[S.S_SPIRIT_ACTIVE] == 0:
            break
        err = after(s, r, checked, do_spirit_step(s, r, tr, seat, x[X_SPIRIT_BEST_PATH + j], x))
        if err != 0:
            return err
    if s[S.S_SPIRIT_ACTIVE] == 1:
        err = after(s, r, checked, do_spirit_stop(s, r, tr, seat))
    return err
