"""Raising pieces for the heuristic players: which house to raise and where, which street and
where (toward the own routes, away from the opponents), and the raising part of a turn."""

from __future__ import annotations

from simcore.frame.bits import trailing_zeros
from simcore.frame.jit import kernel
from simcore.frame.rng import rand_below
from simcore.games.sunken_city import board as B
from simcore.games.sunken_city import rules as R
from simcore.games.sunken_city import state as S
from simcore.games.sunken_city.engine import psq, street_available, treasure
from simcore.games.sunken_city.engine_raising import (
    any_house_spot,
    can_build_any,
    do_house,
    do_street,
    house_raisable,
    house_spot_ok,
    raising_owed,
)
from simcore.games.sunken_city.players.common import (
    INF,
    INV_COST,
    board_signature,
    house_value,
    manhattan,
    position_square,
    tv,
)
from simcore.games.sunken_city.players.fields import (
    adventurer_field,
    raised,
    reach_costs_memo,
    village_field,
)
from simcore.games.sunken_city.players.random import random_place
from simcore.games.sunken_city.players.scratch import (
    X_DIST_FROM_ADVENTURER,
    X_REACH_COST,
    X_ROW_STREET_BITS,
    XF_CLOSENESS_BY_OPPONENT,
    XF_OPPONENTS_CLOSENESS,
)
from simcore.games.sunken_city.players.weights import W_BLOCK, W_BUILD, W_CENTRE, W_GREED


@kernel
def place_best_house(s, r, tr, seat, w, x, xf, rng):
    """Raise the house worth most to us near our reach and away from opponents who need it;
    returns 1 when a house was raised, 0 when none is worth it, or an error code < 0."""
    if s[S.S_HOUSE_RAISED] == 1 or not any_house_spot(s, r):
        return 0
    centre = r[R.P_CENTRE]
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
            if treasure(s, seat, h - 1) == S.HOUSE_SIDE:
                needed |= 1 << h
    chest = treasure(s, seat, S.CHEST) == S.HOUSE_SIDE
    if needed == 0 and not (chest and grotto != 0):
        return 0  # no square has a house worth something to us (the draw above is kept)
    # the opponents who still need each house (4 bits per house)
    players = r[R.P_PLAYERS]
    others = 0
    for h in range(1, 11):
        for o in range(players):
            if o != seat and treasure(s, o, h - 1) == S.HOUSE_SIDE:
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
    for k in range(r[R.P_N_HOUSE_SQ]):
        q = r[R.R_HOUSE_SQ + k]
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
                v += tv(S.CHEST)
                v += w[W_CENTRE] * tv(S.CHEST)
            if v <= 0.0:
                continue
            opp = 0.0  # how close those opponents are to q (closeness_fields)
            m = others >> (4 * h)
            for o in range(players):
                if m & (1 << o):
                    opp += xf[XF_CLOSENESS_BY_OPPONENT + B.N_SQUARES * o + q]
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
    raised(s, r, seat, x, S.HOUSE_BASE + bh - 1, sig0)
    return 1


@kernel
def street_target(s, r, seat, x):
    """The square our streets should grow toward: the needed house on the lake that is worth
    most per Manhattan step, else the centre."""
    here = position_square(s, r, seat)
    best = -1.0
    tq = r[R.P_CENTRE]
    for h in range(R.N_HOUSES):
        slot = S.HOUSE_BASE + h
        q = psq(s, slot, 0)
        if q < 0:
            continue
        v = house_value(s, r, seat, slot, q == r[R.P_CENTRE])
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
    score -= block * xf[XF_OPPONENTS_CLOSENESS + a]
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
    if r[R.P_STREET_SQUARES] == 1:
        bk = -1
        for k in range(r[R.P_N_SPOTS]):
            a = r[R.R_SPOTS + 2 * k]
            if s[S.O_SQUARE_PIECE + a] != S.WATER:
                continue  # not free (spot_free)
            score = street_score(x, xf, a, a, target, off, build, block)
            if score > best:
                best = score
                bk = k
        if bk < 0:
            return 0
        a = r[R.R_SPOTS + 2 * bk]
        b = -1
    else:
        # 2-square spots are the pairs of edge-adjacent squares without the centre, listed
        # by their first square, the one to the right before the one below: spot code
        # 2 * a + (0 right, 1 below) follows that order. Per row, bit sets of the free
        # squares (X_ROW_STREET_BITS) and of those next to what we reach (X_ROW_STREET_BITS + 10)
        # give the free spots; the connected ones are scored first, the others only when they could
        # win.
        centre = r[R.P_CENTRE]
        for row in range(B.SIZE):
            fr = 0
            cr = 0
            for col in range(B.SIZE):
                q = row * B.SIZE + col
                if s[S.O_SQUARE_PIECE + q] == S.WATER and q != centre:
                    fr |= 1 << col
                if x[X_REACH_COST + q] < INF:
                    cr |= 1 << col
            x[X_ROW_STREET_BITS + row] = fr
            x[X_ROW_STREET_BITS + B.SIZE + 1 + row] = cr
        x[X_ROW_STREET_BITS + B.SIZE] = 0
        x[X_ROW_STREET_BITS + 2 * B.SIZE + 1] = 0
        bcode = -1
        for rnd in range(2):
            if rnd == 1 and best > cutoff:
                break
            for row in range(B.SIZE):
                fr = x[X_ROW_STREET_BITS + row]
                cr = x[X_ROW_STREET_BITS + B.SIZE + 1 + row]
                right = fr & (fr >> 1)  # bit c: c and c + 1 free
                below = fr & x[X_ROW_STREET_BITS + row + 1]
                near_r = right & (cr | (cr >> 1))
                near_b = below & (cr | x[X_ROW_STREET_BITS + B.SIZE + 2 + row])
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
                    a = row * B.SIZE + col
                    for d in range(2):
                        if d == 0:
                            if not (right >> col) & 1:
                                continue
                            b = a + 1
                        else:
                            if not (below >> col) & 1:
                                continue
                            b = a + B.SIZE
                        score = street_score(x, xf, a, b, target, off, build, block)
                        code = 2 * a + d
                        # selects rather than branches (the outcome is hard to guess)
                        better = (score > best) | ((score == best) & (code < bcode))
                        best = score if better else best
                        bcode = code if better else bcode
        if bcode < 0:
            return 0
        a = bcode >> 1
        b = a + 1 if bcode & 1 == 0 else a + B.SIZE
    sig0 = board_signature(s)
    err = do_street(s, r, tr, a, b)
    if err != 0:
        return -err
    raised(s, r, seat, x, s[S.O_SQUARE_PIECE + a], sig0)
    return 1


@kernel
def heuristic_build(s, r, tr, seat, w, x, xf, rng):
    """Raise the card's pieces: a needed house first when one is worth it, then streets toward
    our target; whatever is still owed afterwards is raised at random legal spots."""
    while s[S.S_RAISE_LEFT] > 0 and can_build_any(s, r):
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
