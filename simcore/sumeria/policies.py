"""Sumeria players as compiled functions. A player makes one decision (a setup placement, an
action on its turn, or a tile choice) through the engine's do_* functions and returns 0, or
the engine's error code.

`random` chooses uniformly among the legal options at each decision (for a turn: uniformly
among the possible kinds of action, add / move / remove, then uniformly among that kind's
options). The heuristic players (one kernel, presets = weight vectors, see __init__.py) score
every candidate action by the change it makes to an estimate of the tiles each player will
win, trying the action on the state and undoing it (no copies):

  value = sum over the city-states at importance positions 0 .. 2k-1 (k = states scored per
          round) of  weight(position) * (my expected tiles there
                                         - deny * the opponents' expected tiles / (players-1))
          + city * (cities I hold) + reserve * (traders in my reserve) + noise * U(0, 1)

where weight = now * (1 + late * fraction of the round played) for the k states scored at
this round's end, next for the k states scored next round, and 0 beyond. Expected tiles come
from the control ranking of the rulebook (most traders, city, towns, turn order): the
controller's share and the second place's share of the tiles above the position, each tile
valued 1 + sets * (tiles of its type I already hold), the marginal value of the triangular
table when sets = 1. Tile choice: the type with the highest value to me plus deny times its
value to the second-place player (who gets what is left).
"""

from __future__ import annotations

from simcore.jit import kernel
from simcore.rng import rand_below, rand_float
from simcore.sumeria.board import (
    CITY,
    LOC_KIND,
    LOC_STATE,
    LOCS_PER_STATE,
    N_LOCS,
    N_STATES,
    N_TYPES,
)
from simcore.sumeria.engine import (
    ERR_ILLEGAL,
    display,
    do_add,
    do_choose,
    do_move,
    do_place,
    do_remove,
    held,
    lift_trader,
    move_targets,
    put_trader,
    ranking,
)
from simcore.sumeria.rules import (
    P_MOVE_SHIFTS_SOURCE,
    P_N_SCORED,
    P_PLAYERS,
    P_SCORING,
    P_SETUP_SHIFTS,
    P_TURNS,
    R_TILES,
)
from simcore.sumeria.state import (
    EMPTY,
    O_DISPLAY,
    O_LOC,
    O_ORDER,
    O_POS,
    O_RESERVE,
    PH_CHOOSE,
    PH_SETUP,
    PH_TURN,
    S_CHOOSE_POS,
    S_IN_TURN,
    S_PHASE,
    S_SECOND,
    S_TURN,
    X_DEST,
    X_MOVES,
    X_OPTS,
)

# Policy ids (the registry in simcore/sumeria/__init__.py maps names to these).
POL_RANDOM = 0
POL_HEURISTIC = 1

# Weight vector of the heuristic players.
W_NOW, W_NEXT, W_DENY, W_CITY, W_RESERVE, W_SETS, W_NOISE, W_LATE = range(8)
WEIGHT_NAMES = ("now", "next", "deny", "city", "reserve", "sets", "noise", "late")

# Float scratch (xf, float64[XF_SIZE] from state.py).
XF_VF = 0  # [8] my value of first place at each importance position
XF_VS = 8  # [8] my value of second place
XF_OF = 16  # [8] value (<= 0) of an opponent's first place
XF_OS = 24  # [8] value (<= 0) of an opponent's second place
XF_CONTRIB = 32  # [8] current contribution of each city-state (by state)

NEG = -1.0e18


# ---------------------------------------------------------------------------------------
# random


@kernel
def random_empty(s, rng, x):
    """A uniformly chosen empty location (rejection sampling, then a list)."""
    for _ in range(16):
        q = rand_below(rng, N_LOCS)
        if s[O_LOC + q] == EMPTY:
            return q
    n = 0
    for q in range(N_LOCS):
        if s[O_LOC + q] == EMPTY:
            x[X_OPTS + n] = q
            n += 1
    return x[X_OPTS + rand_below(rng, n)]


@kernel
def list_moves(s, r, seat, x):
    """All (from, to) moves of `seat` into x[X_MOVES:]; returns how many."""
    n = 0
    for q in range(N_LOCS):
        if s[O_LOC + q] != seat:
            continue
        m = move_targets(s, r, q, x, X_DEST)
        for i in range(m):
            x[X_MOVES + 2 * n] = q
            x[X_MOVES + 2 * n + 1] = x[X_DEST + i]
            n += 1
    return n


@kernel
def random_own(s, seat, rng, x):
    """A uniformly chosen location holding a trader of `seat`, -1 when none."""
    n = 0
    for q in range(N_LOCS):
        if s[O_LOC + q] == seat:
            x[X_OPTS + n] = q
            n += 1
    if n == 0:
        return -1
    return x[X_OPTS + rand_below(rng, n)]


@kernel
def random_decision(s, r, tr, seat, rng, x):
    """One decision, uniform among the legal options."""
    ph = s[S_PHASE]
    if ph == PH_SETUP:
        return do_place(s, r, tr, seat, random_empty(s, rng, x))
    if ph == PH_CHOOSE:
        p = s[S_CHOOSE_POS]
        n = 0
        for t in range(N_TYPES):
            if display(s, p, t) > 0:
                x[X_OPTS + n] = t
                n += 1
        if n == 0:
            return ERR_ILLEGAL
        return do_choose(s, r, tr, seat, x[X_OPTS + rand_below(rng, n)])
    if ph != PH_TURN:
        return ERR_ILLEGAL
    # kinds: 0 add, 1 move, 2 remove; a kind without options is dropped and redrawn
    mask = 2
    if s[O_RESERVE + seat] > 0:
        mask |= 1
    own = 0
    for q in range(N_LOCS):
        if s[O_LOC + q] == seat:
            own += 1
    if own > 0:
        mask |= 4
    for _ in range(3):
        n = 0
        for k in range(3):
            if mask & (1 << k):
                n += 1
        if n == 0:
            return ERR_ILLEGAL
        pick = rand_below(rng, n)
        kind = 0
        for k in range(3):
            if mask & (1 << k):
                if pick == 0:
                    kind = k
                    break
                pick -= 1
        if kind == 0:
            return do_add(s, r, tr, seat, random_empty(s, rng, x))
        if kind == 2:
            return do_remove(s, r, tr, seat, random_own(s, seat, rng, x))
        m = list_moves(s, r, seat, x)
        if m > 0:
            i = rand_below(rng, m)
            return do_move(s, r, tr, seat, x[X_MOVES + 2 * i], x[X_MOVES + 2 * i + 1], x)
        mask &= ~2
    return ERR_ILLEGAL


# ---------------------------------------------------------------------------------------
# heuristic


@kernel(inline="always")
def tile_value(s, r, seat, t, w):
    """1 + sets * (tiles of type t already held): the triangular table's marginal points
    when sets = 1 (1 under linear scoring)."""
    if r[P_SCORING] == 1:
        return 1.0
    return 1.0 + w[W_SETS] * held(s, seat, t)


@kernel
def prepare(s, r, me, w, xf):
    """Fill the per-position values (XF_VF .. XF_OS) and the current contribution of every
    city-state (XF_CONTRIB) for player `me`."""
    players = r[P_PLAYERS]
    k = r[P_N_SCORED]
    turns = r[P_TURNS]
    progress = (s[S_TURN] * players + s[S_IN_TURN]) / (turns * players)
    now = w[W_NOW] * (1.0 + w[W_LATE] * progress)
    opp = w[W_DENY] / (players - 1)
    mean_val = 0.0
    for t in range(N_TYPES):
        mean_val += tile_value(s, r, me, t, w)
    mean_val /= N_TYPES
    for p in range(N_STATES):
        vf = 0.0
        vs = 0.0
        nf = 0.0
        ns = 0.0
        if p < k:
            total = 0
            for t in range(N_TYPES):
                total += display(s, p, t)
            kp = r[R_TILES + p]
            picks = kp - 1 if kp >= 2 else kp
            if picks > total:
                picks = total
            # my best `picks` tiles when I control (taken out of the display for the
            # count, then put back), the rest when I am second
            allv = 0.0
            for t in range(N_TYPES):
                allv += display(s, p, t) * tile_value(s, r, me, t, w)
            taken = 0.0
            undo = 0  # tiles taken out, 8 bits per type
            for _ in range(picks):
                bt = -1
                bv = -1.0
                for t in range(N_TYPES):
                    if display(s, p, t) > 0:
                        v = tile_value(s, r, me, t, w)
                        if v > bv:
                            bv = v
                            bt = t
                taken += bv
                s[O_DISPLAY + p * N_TYPES + bt] -= 1
                undo += 1 << (8 * bt)
            for t in range(N_TYPES):
                s[O_DISPLAY + p * N_TYPES + t] += (undo >> (8 * t)) & 255
            vf = now * taken
            vs = now * (allv - taken) if total > picks else 0.0
            nf = -opp * now * picks
            ns = -opp * now * (total - picks)
        elif p < 2 * k:
            kp = r[R_TILES + p - k]
            picks = kp - 1 if kp >= 2 else kp
            vf = w[W_NEXT] * picks * mean_val
            vs = w[W_NEXT] * (kp - picks) * mean_val
            nf = -opp * w[W_NEXT] * picks
            ns = -opp * w[W_NEXT] * (kp - picks)
        xf[XF_VF + p] = vf
        xf[XF_VS + p] = vs
        xf[XF_OF + p] = nf
        xf[XF_OS + p] = ns
    for st in range(N_STATES):
        xf[XF_CONTRIB + st] = contrib(s, r, me, st, xf)


@kernel(inline="always")
def contrib(s, r, me, st, xf):
    """The value of city-state `st` to `me` at its present position and ranking."""
    p = s[O_POS + st]
    if p >= 2 * r[P_N_SCORED]:
        return 0.0
    f, sec = ranking(s, r, st)
    v = 0.0
    if f == me:
        v += xf[XF_VF + p]
    elif f >= 0:
        v += xf[XF_OF + p]
    if sec == me:
        v += xf[XF_VS + p]
    elif sec >= 0:
        v += xf[XF_OS + p]
    return v


@kernel(inline="always")
def vswap(s, p, p2):
    """Swap the tiles at importance positions p and p2 (a trial, not counted)."""
    a = s[O_ORDER + p]
    b = s[O_ORDER + p2]
    s[O_ORDER + p] = b
    s[O_ORDER + p2] = a
    s[O_POS + a] = p2
    s[O_POS + b] = p


@kernel
def changed_value(s, r, me, xf, a, b, c, d):
    """Sum over the distinct city-states among a, b, c, d (-1 = none) of the change of their
    contribution."""
    v = 0.0
    if a >= 0:
        v += contrib(s, r, me, a, xf) - xf[XF_CONTRIB + a]
    if b >= 0 and b != a:
        v += contrib(s, r, me, b, xf) - xf[XF_CONTRIB + b]
    if c >= 0 and c != a and c != b:
        v += contrib(s, r, me, c, xf) - xf[XF_CONTRIB + c]
    if d >= 0 and d != a and d != b and d != c:
        v += contrib(s, r, me, d, xf) - xf[XF_CONTRIB + d]
    return v


@kernel
def eval_add(s, r, me, q, shift, w, xf):
    """Value change of a trader of `me` appearing on q (its tile swapping left if shift)."""
    st = LOC_STATE[q]
    p = s[O_POS + st]
    other = -1
    put_trader(s, q, me)
    if shift and p > 0:
        other = s[O_ORDER + p - 1]
        vswap(s, p, p - 1)
    v = changed_value(s, r, me, xf, st, other, -1, -1)
    if other >= 0:
        vswap(s, p, p - 1)
    lift_trader(s, q)
    if LOC_KIND[q] == CITY:
        v += w[W_CITY]
    return v - w[W_RESERVE]


@kernel
def eval_remove(s, r, me, q, w, xf):
    st = LOC_STATE[q]
    p = s[O_POS + st]
    other = -1
    lift_trader(s, q)
    if p < N_STATES - 1:
        other = s[O_ORDER + p + 1]
        vswap(s, p, p + 1)
    v = changed_value(s, r, me, xf, st, other, -1, -1)
    if other >= 0:
        vswap(s, p, p + 1)
    put_trader(s, q, me)
    if LOC_KIND[q] == CITY:
        v -= w[W_CITY]
    return v + w[W_RESERVE]


@kernel
def eval_move(s, r, me, frm, to, w, xf):
    src = LOC_STATE[frm]
    dst = LOC_STATE[to]
    lift_trader(s, frm)
    put_trader(s, to, me)
    o1 = -1
    o2 = -1
    ps = -1
    pd = -1
    if src != dst:
        if r[P_MOVE_SHIFTS_SOURCE] == 1:
            ps = s[O_POS + src]
            if ps < N_STATES - 1:
                o1 = s[O_ORDER + ps + 1]
                vswap(s, ps, ps + 1)
        pd = s[O_POS + dst]
        if pd > 0:
            o2 = s[O_ORDER + pd - 1]
            vswap(s, pd, pd - 1)
    v = changed_value(s, r, me, xf, src, dst, o1, o2)
    if o2 >= 0:
        vswap(s, pd, pd - 1)
    if o1 >= 0:
        vswap(s, ps, ps + 1)
    lift_trader(s, to)
    put_trader(s, frm, me)
    if LOC_KIND[to] == CITY:
        v += w[W_CITY]
    if LOC_KIND[frm] == CITY:
        v -= w[W_CITY]
    return v


@kernel
def best_empty_in(s, st):
    """The most important empty location of city-state st (city, town, village), -1 none."""
    for k in range(LOCS_PER_STATE):
        q = st * LOCS_PER_STATE + k
        if s[O_LOC + q] == EMPTY:
            return q
    return -1


@kernel
def least_own_in(s, st, me):
    """The least important location of st holding a trader of `me`, -1 none."""
    for k in range(LOCS_PER_STATE - 1, -1, -1):
        q = st * LOCS_PER_STATE + k
        if s[O_LOC + q] == me:
            return q
    return -1


@kernel
def heuristic_decision(s, r, tr, me, w, rng, x, xf):
    """One decision of a heuristic player (weights w: float64[8], names WEIGHT_NAMES)."""
    ph = s[S_PHASE]
    noise = w[W_NOISE]
    if ph == PH_CHOOSE:
        p = s[S_CHOOSE_POS]
        second = s[S_SECOND]
        bt = -1
        bv = NEG
        for t in range(N_TYPES):
            if display(s, p, t) == 0:
                continue
            v = tile_value(s, r, me, t, w)
            if second >= 0:
                v += w[W_DENY] * tile_value(s, r, second, t, w)
            v += noise * rand_float(rng)
            if v > bv:
                bv = v
                bt = t
        return do_choose(s, r, tr, me, bt)
    prepare(s, r, me, w, xf)
    if ph == PH_SETUP:
        bq = -1
        bv = NEG
        shift = r[P_SETUP_SHIFTS] == 1
        for st in range(N_STATES):
            q = best_empty_in(s, st)
            if q < 0:
                continue
            v = eval_add(s, r, me, q, shift, w, xf) + noise * rand_float(rng)
            if v > bv:
                bv = v
                bq = q
        return do_place(s, r, tr, me, bq)
    if ph != PH_TURN:
        return ERR_ILLEGAL
    kind = -1
    ba = -1
    bb = -1
    bv = NEG
    if s[O_RESERVE + me] > 0:
        for st in range(N_STATES):
            q = best_empty_in(s, st)
            if q < 0:
                continue
            v = eval_add(s, r, me, q, True, w, xf) + noise * rand_float(rng)
            if v > bv:
                bv = v
                kind = 0
                ba = q
    for st in range(N_STATES):
        q = least_own_in(s, st, me)
        if q < 0:
            continue
        v = eval_remove(s, r, me, q, w, xf) + noise * rand_float(rng)
        if v > bv:
            bv = v
            kind = 2
            ba = q
    for q in range(N_LOCS):
        if s[O_LOC + q] != me:
            continue
        m = move_targets(s, r, q, x, X_DEST)
        for i in range(m):
            to = x[X_DEST + i]
            v = eval_move(s, r, me, q, to, w, xf) + noise * rand_float(rng)
            if v > bv:
                bv = v
                kind = 1
                ba = q
                bb = to
    if kind == 0:
        return do_add(s, r, tr, me, ba)
    if kind == 2:
        return do_remove(s, r, tr, me, ba)
    if kind == 1:
        return do_move(s, r, tr, me, ba, bb, x)
    return ERR_ILLEGAL


@kernel
def decide(s, r, tr, seat, pol, w, rng, x, xf):
    """Let policy `pol` make the decision in front of `seat`."""
    if pol == POL_RANDOM:
        return random_decision(s, r, tr, seat, rng, x)
    if pol == POL_HEURISTIC:
        return heuristic_decision(s, r, tr, seat, w, rng, x, xf)
    return ERR_ILLEGAL
