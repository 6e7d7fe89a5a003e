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

How the values are computed (docs/performance.md, Sumeria): a trial action changes only my
own control key in at most three city-states and their positions, so `prepare` computes once
per decision the opponents' two best keys per city-state, my keys, and a table of each
position's value in each ranking case; a candidate's value is then a few table lookups summed
in the order of the reference evaluation (eval_add, eval_remove, eval_move: the trial made on
the state and undone), which gives the same floats. Move destinations come from the engine's
search through a per-location cache valid while the locations the search read keep their
occupancy. tests/sumeria/test_sumeria_players.py checks the decisions against the reference.
"""

from __future__ import annotations

import numpy as np

from simcore.frame.jit import kernel
from simcore.frame.rng import rand_below, rand_float
from simcore.games.sumeria import board as B
from simcore.games.sumeria import rules as R
from simcore.games.sumeria import state as S
from simcore.games.sumeria.engine import (
    ERR_ILLEGAL,
    display,
    do_add,
    do_listed_move,
    do_place,
    do_remove,
    empty_mask,
    exchange_positions,
    held,
    lift_trader,
    move_targets_in,
    put_trader,
    search_in,
)
from simcore.games.sumeria.engine_round import (
    do_choose,
    ranking,
)
from simcore.games.sumeria.rules import P_SETUP_SHIFTS  # by name: the players' test reads it here

# Policy ids (the registry in simcore/games/sumeria/__init__.py maps names to these).
POL_RANDOM = 0
POL_HEURISTIC = 1

# Weight vector of the heuristic players.
W_NOW, W_NEXT, W_DENY, W_CITY, W_RESERVE, W_SETS, W_NOISE, W_LATE = range(8)
WEIGHT_NAMES = ("now", "next", "deny", "city", "reserve", "sets", "noise", "late")

# Float scratch (xf, float64[XF_SIZE] from state.py), filled by `prepare` for the player on
# turn ("my"; "an opponent" any other seat). A position is an importance position (0 = scored
# first); a value is the weighted expected tiles of the module docstring's formula.
XF_MY_FIRST_VALUE = 0  # [8] per position: my value of first place (control) there
XF_MY_SECOND_VALUE = 8  # [8] per position: my value of second place there
XF_OPP_FIRST_VALUE = 16  # [8] per position: value (<= 0) to me of an opponent's first place
XF_OPP_SECOND_VALUE = 24  # [8] per position: value (<= 0) to me of an opponent's second place
XF_CONTRIBUTION = 32  # [8] per city-state: its present value to me (`contrib`)
# [8 x 16] per position p and ranking case (rank_case): a city-state's value there
XF_CASE_VALUES = 40
# [8 x 3] per city-state and location kind (city, town, village): the change of its value when
# a trader of mine arrives there and its tile swaps one place left (prepare_arrivals)
XF_ARRIVAL_CHANGE = XF_CASE_VALUES + B.N_STATES * 16
# [8] per city-state: the change of the city-state its tile swaps with on such an arrival
XF_PUSHED_CHANGE = XF_ARRIVAL_CHANGE + B.N_STATES * 3
# [8] per city-state: the change of its value when its tile moves one place left (keys kept)
XF_LEFT_CHANGE = XF_PUSHED_CHANGE + B.N_STATES
XF_RIGHT_CHANGE = XF_LEFT_CHANGE + B.N_STATES  # [8] the same, one place right
XF_USED = XF_RIGHT_CHANGE + B.N_STATES
assert XF_USED <= S.XF_SIZE

NEG = -1.0e18

# How a trader changes its owner's control key (engine_round.control_key): 64 per trader, 8
# more on a town, 32 more on the city; by location kind (CITY, TOWN, VILLAGE) and by location.
KIND_STEP = np.zeros(3, dtype=np.int64)
KIND_STEP[B.CITY], KIND_STEP[B.TOWN], KIND_STEP[B.VILLAGE] = 64 + 32, 64 + 8, 64
KEY_STEP = KIND_STEP[B.LOC_KIND]
# Where the arrival term (XF_ARRIVAL_CHANGE) of a trader arriving on each location is.
ARRIVE_AT = (XF_ARRIVAL_CHANGE + 3 * B.LOC_STATE + B.LOC_KIND).astype(np.int64)
# The part of a control key made by a seat's traders in one city-state, by their 7 bits (bit
# 0 the city, 1-3 the towns, 4-6 the villages): 64 each, 8 more each on a town, 32 on the
# city; and their number.
COUNT7 = np.array([bin(m).count("1") for m in range(128)], dtype=np.int64)
KEY7 = np.array(
    [64 * bin(m).count("1") + 8 * bin(m & 14).count("1") + 32 * (m & 1) for m in range(128)],
    dtype=np.int64,
)
# Lowest and highest set bit of a 7-bit mask (the locations of one city-state), -1 for none.
LOW7 = np.array([-1] + [(m & -m).bit_length() - 1 for m in range(1, 128)], dtype=np.int64)
HIGH7 = np.array([-1] + [m.bit_length() - 1 for m in range(1, 128)], dtype=np.int64)


# ---------------------------------------------------------------------------------------
# random


@kernel
def random_empty(s, rng, x):
    """A uniformly chosen empty location (rejection sampling, then a list)."""
    for _ in range(16):
        q = rand_below(rng, B.N_LOCS)
        if s[S.O_LOC + q] == S.EMPTY:
            return q
    n = 0
    for q in range(B.N_LOCS):
        if s[S.O_LOC + q] == S.EMPTY:
            x[S.X_OPTS + n] = q
            n += 1
    return x[S.X_OPTS + rand_below(rng, n)]


@kernel
def list_moves(s, r, seat, x):
    """All (from, to) moves of `seat` into x[X_MOVES:]; returns how many."""
    empty = 0
    for q in range(B.N_LOCS):
        empty |= ((s[S.O_LOC + q] >> 63) & 1) << q  # EMPTY is -1
    n = 0
    for q in range(B.N_LOCS):
        if s[S.O_LOC + q] != seat:
            continue
        m = move_targets_in(r, q, empty, x, S.X_DEST)
        for i in range(m):
            x[S.X_MOVES + 2 * n] = q
            x[S.X_MOVES + 2 * n + 1] = x[S.X_DEST + i]
            n += 1
    return n


@kernel
def random_own(s, seat, rng, x):
    """A uniformly chosen location holding a trader of `seat`, -1 when none."""
    n = 0
    for q in range(B.N_LOCS):
        if s[S.O_LOC + q] == seat:
            x[S.X_OPTS + n] = q
            n += 1
    if n == 0:
        return -1
    return x[S.X_OPTS + rand_below(rng, n)]


@kernel
def random_decision(s, r, tr, seat, rng, x):
    """One decision, uniform among the legal options."""
    ph = s[S.S_PHASE]
    if ph == S.PH_SETUP:
        return do_place(s, r, tr, seat, random_empty(s, rng, x))
    if ph == S.PH_CHOOSE:
        p = s[S.S_CHOOSE_POS]
        n = 0
        for t in range(B.N_TYPES):
            if display(s, p, t) > 0:
                x[S.X_OPTS + n] = t
                n += 1
        if n == 0:
            return ERR_ILLEGAL
        return do_choose(s, r, tr, seat, x[S.X_OPTS + rand_below(rng, n)])
    if ph != S.PH_TURN:
        return ERR_ILLEGAL
    # kinds: 0 add, 1 move, 2 remove; a kind without options is dropped and redrawn
    mask = 2
    if s[S.O_RESERVE + seat] > 0:
        mask |= 1
    own = 0
    for q in range(B.N_LOCS):
        if s[S.O_LOC + q] == seat:
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
            return do_listed_move(s, r, tr, seat, x[S.X_MOVES + 2 * i], x[S.X_MOVES + 2 * i + 1])
        mask &= ~2
    return ERR_ILLEGAL


# ---------------------------------------------------------------------------------------
# heuristic


@kernel(inline="always")
def tile_value(s, r, seat, t, w):
    """1 + sets * (tiles of type t already held): the triangular table's marginal points
    when sets = 1 (1 under linear scoring)."""
    if r[R.P_SCORING] == 1:
        return 1.0
    return 1.0 + w[W_SETS] * held(s, seat, t)


@kernel
def prepare_keys(s, r, me, x):
    """The control keys (engine_round.control_key) of this decision: per city-state the best
    two of the opponents (X_OPP_BEST_KEY, X_OPP_SECOND_KEY; -1 none) and my own (X_MY_KEY)
    with my traders there (X_MY_TRADERS); the bitmasks of my locations (X_MY_LOCATIONS) and
    of the empty ones (X_EMPTY_LOCATIONS). My trial actions change only my own key, so the
    ranking after one is a comparison of three numbers (keys are distinct: the turn order is
    part of them). A seat's traders in a city-state are 7 bits of its mask (O_MASK): KEY7
    gives their part of the key, COUNT7 their number."""
    players = r[R.P_PLAYERS]
    first = s[S.S_FIRST]
    mine = s[S.O_MASK + me]
    for st in range(B.N_STATES):
        o1 = -1
        o2 = -1
        sh = B.LOCS_PER_STATE * st
        # every seat: the seats beyond the players have no traders (a fixed count unrolls)
        for seat in range(R.MAX_PLAYERS):
            part = KEY7[(s[S.O_MASK + seat] >> sh) & 127]
            d = seat - first
            ti = d + players if d < 0 else d
            k = part + (players - 1 - ti)
            if seat == me:
                x[S.X_MY_KEY + st] = k
                k = -1
            k = -1 if part == 0 else k
            # the best two keys so far (distinct keys, -1 none): min and max, no branches
            o2 = max(o2, min(o1, k))
            o1 = max(o1, k)
        x[S.X_OPP_BEST_KEY + st] = o1
        x[S.X_OPP_SECOND_KEY + st] = o2
        x[S.X_MY_TRADERS + st] = COUNT7[(mine >> sh) & 127]
    x[S.X_MY_LOCATIONS] = mine
    x[S.X_EMPTY_LOCATIONS] = empty_mask(s)


@kernel(inline="always")
def my_key(x, st):
    """My present control key in city-state st, -1 without traders there."""
    return x[S.X_MY_KEY + st] if x[S.X_MY_TRADERS + st] > 0 else -1


@kernel(inline="always")
def case_value(xf, p, case):
    """The value of a city-state at position p in ranking case `case` (see `rank_case`):
    exactly the sums of `contrib`, in its order (the reference of `fill_cases`)."""
    vf = xf[XF_MY_FIRST_VALUE + p]
    vs = xf[XF_MY_SECOND_VALUE + p]
    of = xf[XF_OPP_FIRST_VALUE + p]
    os = xf[XF_OPP_SECOND_VALUE + p]
    v = 0.0
    if case & 8:  # I am first
        v += vf
        if case & 4:  # an opponent second
            v += os
    elif case & 4:  # an opponent first
        v += of
        if case & 2:  # I am second
            v += vs
        elif case & 1:  # another opponent second
            v += os
    return v


@kernel(inline="always")
def fill_cases(xf, o, vf, vs, of, os, scored):
    """xf[o : o + 16]: case_value of a position with values vf, vs, of, os in each of the 16
    ranking cases, the same sums in the same order (0.0 everywhere when not scored: beyond
    the 2k positions a city-state is worth nothing, `contrib` returns 0.0)."""
    z = 0.0
    a = z + vf  # I am first, nobody second
    b = a + os  # I am first, an opponent second
    c = z + of  # an opponent first, nobody second
    d = c + vs  # an opponent first, I am second
    e = c + os  # an opponent first, another second
    if not scored:
        a = b = c = d = e = z
    # by case: 0-3 no opponent there and me not first; 4 an opponent first alone, 5 and
    # another second, 6-7 and me second; 8-11 me first alone, 12-15 me first and an
    # opponent second
    xf[o + 0] = z
    xf[o + 1] = z
    xf[o + 2] = z
    xf[o + 3] = z
    xf[o + 4] = c
    xf[o + 5] = e
    xf[o + 6] = d
    xf[o + 7] = d
    xf[o + 8] = a
    xf[o + 9] = a
    xf[o + 10] = a
    xf[o + 11] = a
    xf[o + 12] = b
    xf[o + 13] = b
    xf[o + 14] = b
    xf[o + 15] = b


@kernel(inline="always")
def rank_case(x, st, km):
    """Ranking case of city-state st when my key there is km (-1: no trader): bit 8 I beat the
    best opponent, 4 an opponent is there, 2 I beat the second opponent, 1 a second opponent
    is there."""
    o1 = x[S.X_OPP_BEST_KEY + st]
    o2 = x[S.X_OPP_SECOND_KEY + st]
    return (
        (8 if km > o1 else 0)
        + (4 if o1 >= 0 else 0)
        + (2 if km > o2 else 0)
        + (1 if o2 >= 0 else 0)
    )


@kernel(inline="always")
def term(x, xf, st, p, km):
    """Change of the contribution of city-state st when it is at position p and my key there is
    km: `contrib` after the trial minus before, from the case table (identical floats)."""
    return xf[XF_CASE_VALUES + p * 16 + rank_case(x, st, km)] - xf[XF_CONTRIBUTION + st]


@kernel(inline="always")
def better_tile(d, tv, t, bv, bt):
    """(value, type) after trying tile type t (d of them on display, each worth tv to me): it
    replaces the best so far (bv, bt) only when one is there and it is worth more."""
    if d > 0 and tv > bv:
        return tv, t
    return bv, bt


@kernel
def prepare(s, r, me, w, x, xf, arrivals):
    """Fill the control keys (prepare_keys), the per-position values (XF_MY_FIRST_VALUE ..
    XF_OPP_SECOND_VALUE), their case table (XF_CASE_VALUES), the current contribution of every
    city-state (XF_CONTRIBUTION) and its change when its tile moves one place left or right
    (XF_LEFT_CHANGE, XF_RIGHT_CHANGE) for player `me`; with `arrivals` also XF_ARRIVAL_CHANGE
    and XF_PUSHED_CHANGE (prepare_arrivals)."""
    prepare_keys(s, r, me, x)
    players = r[R.P_PLAYERS]
    k = r[R.P_N_SCORED]
    turns = r[R.P_TURNS]
    progress = (s[S.S_TURN] * players + s[S.S_IN_TURN]) / (turns * players)
    now = w[W_NOW] * (1.0 + w[W_LATE] * progress)
    opp = w[W_DENY] / (players - 1)
    # my value of a tile of each type (N_TYPES = 4 values in locals)
    tv0 = tile_value(s, r, me, 0, w)
    tv1 = tile_value(s, r, me, 1, w)
    tv2 = tile_value(s, r, me, 2, w)
    tv3 = tile_value(s, r, me, 3, w)
    mean_val = 0.0
    mean_val += tv0
    mean_val += tv1
    mean_val += tv2
    mean_val += tv3
    mean_val /= B.N_TYPES
    for p in range(B.N_STATES):
        vf = 0.0
        vs = 0.0
        nf = 0.0
        ns = 0.0
        if p < k:
            d0 = display(s, p, 0)
            d1 = display(s, p, 1)
            d2 = display(s, p, 2)
            d3 = display(s, p, 3)
            total = d0 + d1 + d2 + d3
            kp = r[R.R_TILES + p]
            picks = kp - 1 if kp >= 2 else kp
            if picks > total:
                picks = total
            allv = 0.0
            allv += d0 * tv0
            allv += d1 * tv1
            allv += d2 * tv2
            allv += d3 * tv3
            # my best `picks` tiles when I control (the first best type each time), the rest
            # when I am second
            taken = 0.0
            for _ in range(picks):
                bv, bt = better_tile(d0, tv0, 0, -1.0, -1)
                bv, bt = better_tile(d1, tv1, 1, bv, bt)
                bv, bt = better_tile(d2, tv2, 2, bv, bt)
                bv, bt = better_tile(d3, tv3, 3, bv, bt)
                taken += bv
                if bt == 0:
                    d0 -= 1
                elif bt == 1:
                    d1 -= 1
                elif bt == 2:
                    d2 -= 1
                elif bt == 3:
                    d3 -= 1
            vf = now * taken
            vs = now * (allv - taken) if total > picks else 0.0
            nf = -opp * now * picks
            ns = -opp * now * (total - picks)
        elif p < 2 * k:
            kp = r[R.R_TILES + p - k]
            picks = kp - 1 if kp >= 2 else kp
            vf = w[W_NEXT] * picks * mean_val
            vs = w[W_NEXT] * (kp - picks) * mean_val
            nf = -opp * w[W_NEXT] * picks
            ns = -opp * w[W_NEXT] * (kp - picks)
        xf[XF_MY_FIRST_VALUE + p] = vf
        xf[XF_MY_SECOND_VALUE + p] = vs
        xf[XF_OPP_FIRST_VALUE + p] = nf
        xf[XF_OPP_SECOND_VALUE + p] = ns
        fill_cases(xf, XF_CASE_VALUES + p * 16, vf, vs, nf, ns, p < 2 * k)
    for st in range(B.N_STATES):
        p = s[S.O_POS + st]
        o1 = x[S.X_OPP_BEST_KEY + st]
        o2 = x[S.X_OPP_SECOND_KEY + st]
        base = x[S.X_MY_KEY + st]
        km = base if x[S.X_MY_TRADERS + st] > 0 else -1
        # rank_case with the keys in locals: the opponents' part, then mine
        fixed = (4 if o1 >= 0 else 0) + (1 if o2 >= 0 else 0)
        case = fixed + (8 if km > o1 else 0) + (2 if km > o2 else 0)
        cur = xf[XF_CASE_VALUES + p * 16 + case]
        xf[XF_CONTRIBUTION + st] = cur
        # the same case one place left / right: `term` with my key unchanged
        xf[XF_LEFT_CHANGE + st] = xf[XF_CASE_VALUES + (p - 1) * 16 + case] - cur if p > 0 else 0.0
        xf[XF_RIGHT_CHANGE + st] = (
            xf[XF_CASE_VALUES + (p + 1) * 16 + case] - cur if p < B.N_STATES - 1 else 0.0
        )
        if arrivals:
            row = XF_CASE_VALUES + (p - 1 if p > 0 else p) * 16
            for kind in range(3):
                km = base + KIND_STEP[kind]
                case = fixed + (8 if km > o1 else 0) + (2 if km > o2 else 0)
                xf[XF_ARRIVAL_CHANGE + 3 * st + kind] = xf[row + case] - cur
    if arrivals:
        # the city-state at p - 1 moves right when the one at p gains influence
        xf[XF_PUSHED_CHANGE + s[S.O_ORDER]] = 0.0
        for p in range(1, B.N_STATES):
            xf[XF_PUSHED_CHANGE + s[S.O_ORDER + p]] = xf[XF_RIGHT_CHANGE + s[S.O_ORDER + p - 1]]


@kernel
def prepare_arrivals(s, x, xf):
    """XF_ARRIVAL_CHANGE: the change of each city-state when a trader of mine arrives there on
    a city, town or village and its tile swaps left (an Add; a move from another city-state);
    XF_PUSHED_CHANGE: the change of the city-state its tile swaps with (0.0 at the leftmost place,
    where nothing swaps; no term here is -0.0, so adding 0.0 changes no sum). The reference
    of what prepare(..., arrivals=True) fills (tests)."""
    for st in range(B.N_STATES):
        p = s[S.O_POS + st]
        pa = p - 1 if p > 0 else p
        base = x[S.X_MY_KEY + st]
        for kind in range(3):
            xf[XF_ARRIVAL_CHANGE + 3 * st + kind] = term(x, xf, st, pa, base + KIND_STEP[kind])
        if p > 0:
            other = s[S.O_ORDER + p - 1]
            xf[XF_PUSHED_CHANGE + st] = term(x, xf, other, p, my_key(x, other))
        else:
            xf[XF_PUSHED_CHANGE + st] = 0.0


# ---------------------------------------------------------------------------------------
# The reference evaluation: each trial made on the state and undone. The fast evaluation in
# heuristic_decision gives the same floats (tests/sumeria/test_sumeria_players.py compares
# them); the reference is used for the moves when a source city-state loses influence
# (move_shifts_source), where two swaps can meet.


@kernel(inline="always")
def contrib(s, r, me, st, xf):
    """The value of city-state `st` to `me` at its present position and ranking."""
    p = s[S.O_POS + st]
    if p >= 2 * r[R.P_N_SCORED]:
        return 0.0
    f, sec = ranking(s, r, st)
    v = 0.0
    if f == me:
        v += xf[XF_MY_FIRST_VALUE + p]
    elif f >= 0:
        v += xf[XF_OPP_FIRST_VALUE + p]
    if sec == me:
        v += xf[XF_MY_SECOND_VALUE + p]
    elif sec >= 0:
        v += xf[XF_OPP_SECOND_VALUE + p]
    return v


@kernel
def changed_value(s, r, me, xf, a, b, c, d):
    """Sum over the distinct city-states among a, b, c, d (-1 = none) of the change of their
    contribution."""
    v = 0.0
    if a >= 0:
        v += contrib(s, r, me, a, xf) - xf[XF_CONTRIBUTION + a]
    if b >= 0 and b != a:
        v += contrib(s, r, me, b, xf) - xf[XF_CONTRIBUTION + b]
    if c >= 0 and c != a and c != b:
        v += contrib(s, r, me, c, xf) - xf[XF_CONTRIBUTION + c]
    if d >= 0 and d != a and d != b and d != c:
        v += contrib(s, r, me, d, xf) - xf[XF_CONTRIBUTION + d]
    return v


@kernel
def eval_add(s, r, me, q, shift, w, xf):
    """Value change of a trader of `me` appearing on q (its tile swapping left if shift)."""
    st = B.LOC_STATE[q]
    p = s[S.O_POS + st]
    other = -1
    put_trader(s, q, me)
    if shift and p > 0:
        other = s[S.O_ORDER + p - 1]
        exchange_positions(s, p, p - 1)
    v = changed_value(s, r, me, xf, st, other, -1, -1)
    if other >= 0:
        exchange_positions(s, p, p - 1)
    lift_trader(s, q)
    if B.LOC_KIND[q] == B.CITY:
        v += w[W_CITY]
    return v - w[W_RESERVE]


@kernel
def eval_remove(s, r, me, q, w, xf):
    st = B.LOC_STATE[q]
    p = s[S.O_POS + st]
    other = -1
    lift_trader(s, q)
    if p < B.N_STATES - 1:
        other = s[S.O_ORDER + p + 1]
        exchange_positions(s, p, p + 1)
    v = changed_value(s, r, me, xf, st, other, -1, -1)
    if other >= 0:
        exchange_positions(s, p, p + 1)
    put_trader(s, q, me)
    if B.LOC_KIND[q] == B.CITY:
        v -= w[W_CITY]
    return v + w[W_RESERVE]


@kernel(inline="always")
def try_move(s, r, me, frm, to):
    """My trader moved from `frm` to `to` as a trial (traders and city-state tiles, no
    counters): returns (o1, o2, ps, pd), the city-states the source's and the destination's
    tiles swapped with (-1 none) and the positions they swapped at, for undo_move."""
    src = B.LOC_STATE[frm]
    dst = B.LOC_STATE[to]
    lift_trader(s, frm)
    put_trader(s, to, me)
    o1 = -1
    o2 = -1
    ps = -1
    pd = -1
    if src != dst:
        if r[R.P_MOVE_SHIFTS_SOURCE] == 1:
            ps = s[S.O_POS + src]
            if ps < B.N_STATES - 1:
                o1 = s[S.O_ORDER + ps + 1]
                exchange_positions(s, ps, ps + 1)
        pd = s[S.O_POS + dst]
        if pd > 0:
            o2 = s[S.O_ORDER + pd - 1]
            exchange_positions(s, pd, pd - 1)
    return o1, o2, ps, pd


@kernel(inline="always")
def undo_move(s, me, frm, to, o1, o2, ps, pd):
    """Undo try_move (its returns o1, o2, ps, pd)."""
    if o2 >= 0:
        exchange_positions(s, pd, pd - 1)
    if o1 >= 0:
        exchange_positions(s, ps, ps + 1)
    lift_trader(s, to)
    put_trader(s, frm, me)


@kernel
def eval_move(s, r, me, frm, to, w, xf):
    o1, o2, ps, pd = try_move(s, r, me, frm, to)
    v = changed_value(s, r, me, xf, B.LOC_STATE[frm], B.LOC_STATE[to], o1, o2)
    undo_move(s, me, frm, to, o1, o2, ps, pd)
    if B.LOC_KIND[to] == B.CITY:
        v += w[W_CITY]
    if B.LOC_KIND[frm] == B.CITY:
        v -= w[W_CITY]
    return v


# ---------------------------------------------------------------------------------------
# The fast evaluation: the same terms, in the same order, from the keys and the tables.


@kernel(inline="always")
def first_empty_in(x, st):
    """The most important empty location of city-state st (city, town, village), -1 none."""
    k = LOW7[(x[S.X_EMPTY_LOCATIONS] >> (B.LOCS_PER_STATE * st)) & 127]
    return -1 if k < 0 else st * B.LOCS_PER_STATE + k


@kernel(inline="always")
def last_own_in(x, st):
    """The least important location of st holding one of my traders, -1 none."""
    k = HIGH7[(x[S.X_MY_LOCATIONS] >> (B.LOCS_PER_STATE * st)) & 127]
    return -1 if k < 0 else st * B.LOCS_PER_STATE + k


@kernel(inline="always")
def fast_add(s, x, xf, w, q, shift):
    """eval_add: with the swap (shift) from prepare_arrivals, else one term."""
    st = B.LOC_STATE[q]
    v = 0.0
    if shift:
        v += xf[ARRIVE_AT[q]]
        v += xf[XF_PUSHED_CHANGE + st]
    else:
        v += term(x, xf, st, s[S.O_POS + st], x[S.X_MY_KEY + st] + KEY_STEP[q])
    if B.LOC_KIND[q] == B.CITY:
        v += w[W_CITY]
    return v - w[W_RESERVE]


@kernel(inline="always")
def fast_remove(s, x, xf, w, q):
    """eval_remove."""
    st = B.LOC_STATE[q]
    p = s[S.O_POS + st]
    km = x[S.X_MY_KEY + st] - KEY_STEP[q] if x[S.X_MY_TRADERS + st] > 1 else -1
    v = 0.0
    if p < B.N_STATES - 1:
        v += term(x, xf, st, p + 1, km)
        v += xf[XF_LEFT_CHANGE + s[S.O_ORDER + p + 1]]  # the city-state on the right moves left
    else:
        v += term(x, xf, st, p, km)
    if B.LOC_KIND[q] == B.CITY:
        v -= w[W_CITY]
    return v + w[W_RESERVE]


@kernel(inline="always")
def cached_targets(s, r, frm, x):
    """move_targets of the trader on frm through the cache: returns (offset in x, count). A
    cached list is reused while every location its search read keeps its occupancy (the
    search reads nothing else, so the list, in its order, is the one it would build)."""
    c = S.X_MOVE_CACHE + frm * S.MOVE_CACHE_ROW
    occ = ~x[S.X_EMPTY_LOCATIONS]
    if x[c] == 1 and (occ & x[c + 1]) == x[c + 2]:
        return c + 4, x[c + 3]
    m = search_in(
        r, frm, x[S.X_EMPTY_LOCATIONS], x, S.X_DEST
    )  # inlined: called for ~6 traders a turn
    if m <= S.MOVE_CACHE_CAP:
        read = x[S.X_MREAD]
        x[c] = 1
        x[c + 1] = read
        x[c + 2] = occ & read
        x[c + 3] = m
        for i in range(m):
            x[c + 4 + i] = x[S.X_DEST + i]
        return c + 4, m
    x[c] = 0
    return S.X_DEST, m


@kernel(inline="always")
def best_add(s, x, xf, w, shift, noise, rng):
    """The best location to add a trader on (the first empty one of each city-state, valued
    by fast_add plus noise; ties go to the earlier city-state): (location, value), or
    (-1, NEG) when there is none."""
    bq = -1
    bv = NEG
    for st in range(B.N_STATES):
        q = first_empty_in(x, st)
        if q < 0:
            continue
        v = fast_add(s, x, xf, w, q, shift) + noise * rand_float(rng)
        if v > bv:
            bv = v
            bq = q
    return bq, bv


@kernel(inline="always")
def move_source(s, x, xf, q):
    """What every move of my trader on q shares (fast_move's arguments): the position of its
    city-state ps, my key there without it (base) and as a key (ks: -1 when it is my last
    trader there), the source's change when its tile stays (t_src) and the city-state just
    right of it (right, -1 none)."""
    src = B.LOC_STATE[q]
    ps = s[S.O_POS + src]
    base = x[S.X_MY_KEY + src] - KEY_STEP[q]
    ks = base if x[S.X_MY_TRADERS + src] > 1 else -1
    t_src = term(x, xf, src, ps, ks)
    right = s[S.O_ORDER + ps + 1] if ps < B.N_STATES - 1 else -1
    return ps, base, ks, t_src, right


@kernel(inline="always")
def fast_move(s, r, me, x, xf, w, q, to, generic, ps, base, ks, t_src, right):
    """eval_move of my trader from q to `to` (move_source's values for q): the reference
    when the source loses influence (generic: two swaps can meet), else term by term."""
    if generic:
        return eval_move(s, r, me, q, to, w, xf)
    # eval_move: changed_value(src, dst, -1, o2) term by term
    src = B.LOC_STATE[q]
    dst = B.LOC_STATE[to]
    v = 0.0
    if dst == src:
        v += term(x, xf, src, ps, base + KEY_STEP[to])
    else:
        if dst == right:  # dst swaps with the source, just left of it
            v += term(x, xf, src, ps + 1, ks)
            v += xf[ARRIVE_AT[to]]
        else:
            v += t_src
            v += xf[ARRIVE_AT[to]]
            v += xf[XF_PUSHED_CHANGE + dst]
    if B.LOC_KIND[to] == B.CITY:
        v += w[W_CITY]
    if B.LOC_KIND[q] == B.CITY:
        v -= w[W_CITY]
    return v


@kernel
def heuristic_decision(s, r, tr, me, w, rng, x, xf):
    """One decision of a heuristic player (weights w: float64[8], names WEIGHT_NAMES)."""
    ph = s[S.S_PHASE]
    noise = w[W_NOISE]
    if ph == S.PH_CHOOSE:
        p = s[S.S_CHOOSE_POS]
        second = s[S.S_SECOND]
        bt = -1
        bv = NEG
        for t in range(B.N_TYPES):
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
    shift = ph == S.PH_TURN or r[P_SETUP_SHIFTS] == 1
    prepare(s, r, me, w, x, xf, shift)
    if ph == S.PH_SETUP:
        bq, _ = best_add(s, x, xf, w, shift, noise, rng)
        return do_place(s, r, tr, me, bq)
    if ph != S.PH_TURN:
        return ERR_ILLEGAL
    kind = -1
    ba = -1
    bb = -1
    bv = NEG
    if s[S.O_RESERVE + me] > 0:
        ba, bv = best_add(s, x, xf, w, True, noise, rng)
        if ba >= 0:
            kind = 0
    for st in range(B.N_STATES):
        q = last_own_in(x, st)
        if q < 0:
            continue
        v = fast_remove(s, x, xf, w, q) + noise * rand_float(rng)
        if v > bv:
            bv = v
            kind = 2
            ba = q
    generic = r[R.P_MOVE_SHIFTS_SOURCE] == 1
    mine = x[S.X_MY_LOCATIONS]
    for st in range(B.N_STATES):
        left = (mine >> (B.LOCS_PER_STATE * st)) & 127  # my locations in st, ascending
        while left != 0:
            q = B.LOCS_PER_STATE * st + LOW7[left]
            left &= left - 1
            ps, base, ks, t_src, right = move_source(s, x, xf, q)
            o, m = cached_targets(s, r, q, x)
            for i in range(m):
                to = x[o + i]
                v = fast_move(s, r, me, x, xf, w, q, to, generic, ps, base, ks, t_src, right)
                v += noise * rand_float(rng)
                if v > bv:
                    bv = v
                    kind = 1
                    ba = q
                    bb = to
    if kind == 0:
        return do_add(s, r, tr, me, ba)
    if kind == 2:
        return do_remove(s, r, tr, me, ba)
    if kind == 1:  # a destination of the search (cached_targets) on this position
        return do_listed_move(s, r, tr, me, ba, bb)
    return ERR_ILLEGAL


@kernel
def decide(s, r, tr, seat, pol, w, rng, x, xf):
    """Let policy `pol` make the decision in front of `seat`."""
    if pol == POL_RANDOM:
        return random_decision(s, r, tr, seat, rng, x)
    if pol == POL_HEURISTIC:
        return heuristic_decision(s, r, tr, seat, w, rng, x, xf)
    return ERR_ILLEGAL
