"""The advanced game's decisions (seed 001) for the heuristic players: the forced spirit moves
of the sinking phase, banishment, and where to send the spirit (banishment or a visit to its
house)."""

from __future__ import annotations

from simcore.frame.jit import kernel
from simcore.games.sunken_city import rules as R
from simcore.games.sunken_city import state as S
from simcore.games.sunken_city.engine import ERR_ILLEGAL, piece_neighbours, psq
from simcore.games.sunken_city.engine_advanced import (
    can_grotto_now,
    do_banish,
    do_grotto,
    do_sink_step,
    grotto_ok,
)
from simcore.games.sunken_city.engine_invariants import check_invariants
from simcore.games.sunken_city.engine_raising import any_house_spot, can_build_any
from simcore.games.sunken_city.engine_spirit import spirit_targets
from simcore.games.sunken_city.players.common import (
    INF,
    after,
    carried_value,
    house_value,
    keep_path,
)
from simcore.games.sunken_city.players.fields import (
    adventurer_field,
    closeness_fields,
    spirit_field_memo,
)
from simcore.games.sunken_city.players.raising import heuristic_build
from simcore.games.sunken_city.players.scratch import (
    X_DIST_FROM_ADVENTURER,
    X_SEARCH_NEIGHBOURS,
    X_SPIRIT_BEST_PATH,
    X_SPIRIT_NEIGHBOUR_COUNT,
    X_SPIRIT_NEIGHBOURS,
    X_SPIRIT_NEXT_NEIGHBOUR,
    X_SPIRIT_PATH,
    XF_CARRIED_VALUE,
    XF_SINK_VALUE,
    XF_SPIRIT_PATH_VALUE,
)
from simcore.games.sunken_city.players.spirit import (
    next_branch,
    on_spirit_path,
    sink_value,
    sink_values,
)
from simcore.games.sunken_city.players.weights import W_BLOCK, W_BUILD, W_CAUTION, W_GREED


@kernel
def forced_spirit_path(s, r, seat, w, pts, x, xf):
    """Best way to spend `pts` forced spirit points (sinking phase): a simple path of exactly
    min(pts, 7) steps, or a shorter one into a dead end followed by banishment (1 point; the
    last piece sinks too, the points left turn into building points). Returns the value,
    leaves the path in X_SPIRIT_BEST_PATH (length in X_SPIRIT_BEST_PATH + 7) and X_SPIRIT_BEST_PATH
    + 6 = 1 when it ends with a banishment. X_DIST_FROM_ADVENTURER, X_DIST_FROM_SPIRIT and
    XF_CARRIED_VALUE must be current."""
    x[X_SPIRIT_BEST_PATH + 7] = 0
    x[X_SPIRIT_BEST_PATH + 6] = 0
    if pts <= 0:
        return 0.0
    lim = pts if pts < 6 else 6
    sink_values(s, r, seat, w, lim + 1, x, xf)
    sp = s[S.S_SPIRIT_SLOT]
    if sp < 0:
        x[X_SPIRIT_BEST_PATH + 6] = 1
        return 0.2 * w[W_BUILD] * (pts - 1)
    best = -1e18
    x[X_SPIRIT_PATH] = sp
    xf[XF_SPIRIT_PATH_VALUE] = 0.0
    x[X_SPIRIT_NEIGHBOUR_COUNT] = piece_neighbours(s, sp, x, X_SPIRIT_NEIGHBOURS)
    x[X_SPIRIT_NEXT_NEIGHBOUR] = 0
    if x[X_SPIRIT_NEIGHBOUR_COUNT] == 0:
        # isolated at once: banish, the piece under the spirit sinks
        x[X_SPIRIT_BEST_PATH + 6] = 1
        return xf[XF_SINK_VALUE + sp] + 0.2 * w[W_BUILD] * (pts - 1)
    depth = 0
    my_pos = s[S.O_ADVENTURER_SLOT + seat]
    mine = xf[XF_CARRIED_VALUE + seat]
    while depth >= 0:
        i = next_branch(x, depth)
        if i < 0:
            depth -= 1
            continue
        nxt = x[X_SPIRIT_NEIGHBOURS + 8 * depth + i]
        if on_spirit_path(x, depth, nxt):
            continue
        cur = x[X_SPIRIT_PATH + depth]
        v = xf[XF_SPIRIT_PATH_VALUE + depth] + xf[XF_SINK_VALUE + cur]
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
            xf[XF_SPIRIT_PATH_VALUE + depth] = v
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
    for o in range(r[R.P_PLAYERS]):
        xf[XF_CARRIED_VALUE + o] = carried_value(s, o)
    return forced_spirit_path(s, r, seat, w, pts, x, xf)


@kernel
def grotto_value(s, r, seat, w, g, build_after, x, xf):
    """What sending the spirit to grotto space g is worth to us: its house can be raised
    next (by us when we still have building points, else by the next seats, who place it
    for themselves); a house already on the lake blocks every raising of houses until
    someone enters it."""
    slot = S.HOUSE_BASE + g - 1
    on_centre_free = s[S.O_SQUARE_PIECE + r[R.P_CENTRE]] == S.WATER
    mine = house_value(s, r, seat, slot, on_centre_free)
    theirs = 0.0
    for o in range(r[R.P_PLAYERS]):
        if o != seat:
            theirs += house_value(s, r, o, slot, on_centre_free)
    if psq(s, slot, 0) < 0:
        if build_after > 0 and any_house_spot(s, r):
            return w[W_GREED] * 0.5 * mine - 0.2 * w[W_BLOCK] * theirs
        return 0.15 * w[W_GREED] * mine - 0.3 * theirs / (r[R.P_PLAYERS] - 1)
    # on the lake: houses stay blocked until its house is entered; good when we are nearest
    d = x[X_DIST_FROM_ADVENTURER + slot]
    near = 1.0 / (1.0 + d) if d < INF else 0.0
    return 0.5 * near


@kernel
def best_grotto(s, r, seat, w, build_after, other_than, x, xf):
    """The grotto space worth most to us (other than `other_than`); value in
    xf[XF_SPIRIT_PATH_VALUE]."""
    best = -1e18
    bg = -1
    for g in range(1, R.N_HOUSES + 1):
        if g == other_than or not grotto_ok(r, g):
            continue
        v = grotto_value(s, r, seat, w, g, build_after, x, xf) + 1e-6 * g
        if v > best:
            best = v
            bg = g
    xf[XF_SPIRIT_PATH_VALUE] = best
    return bg


@kernel
def advanced_spirit(s, r, tr, seat, w, checked, x, xf):
    """Spend the forced spirit points of the sinking phase along the best path; banish the
    spirit where it does us most good when it is isolated with points left."""
    for _ in range(64):
        if not (s[S.S_PHASE] == S.PHASE_SINKING and s[S.S_SPIRIT_STEPS_LEFT] > 0):
            return 0
        adventurer_field(s, r, seat, x)
        spirit_field_memo(s, r, x)
        for o in range(r[R.P_PLAYERS]):
            xf[XF_CARRIED_VALUE + o] = carried_value(s, o)
        if spirit_targets(s, x, S.X_NEIGHBOURS) == 0:
            g = best_grotto(s, r, seat, w, s[S.S_SPIRIT_STEPS_LEFT] - 1, 0, x, xf)
            err = after(s, r, checked, do_banish(s, r, tr, seat, g, x))
            if err != 0:
                return err
            continue
        forced_spirit_path(s, r, seat, w, s[S.S_SPIRIT_STEPS_LEFT], x, xf)
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
        cur = grotto_value(s, r, seat, w, s[S.S_GROTTO_SPACE], s[S.S_RAISE_LEFT], x, xf)
        g = best_grotto(s, r, seat, w, s[S.S_RAISE_LEFT], s[S.S_GROTTO_SPACE], x, xf)
        if g > 0 and xf[XF_SPIRIT_PATH_VALUE] > cur + 0.5:
            err = after(s, r, checked, do_grotto(s, r, tr, seat, g))
            if err != 0:
                return err
            if s[S.S_RAISE_LEFT] > 0:
                closeness_fields(s, r, seat, xf)
                err = heuristic_build(s, r, tr, seat, w, x, xf, rng)
                if err != 0:
                    return err
    # forced spirit points; banishment turns the rest into building points, and raising
    # may run the next stack out again
    for _ in range(16):
        if s[S.S_PHASE] == S.PHASE_SINKING and s[S.S_SPIRIT_STEPS_LEFT] > 0:
            err = advanced_spirit(s, r, tr, seat, w, checked, x, xf)
        elif s[S.S_PHASE] == S.PHASE_RAISING and s[S.S_RAISE_LEFT] > 0 and can_build_any(s, r):
            before = s[S.S_RAISE_LEFT]
            closeness_fields(s, r, seat, xf)
            err = heuristic_build(s, r, tr, seat, w, x, xf, rng)
            if err == 0 and s[S.S_RAISE_LEFT] == before and s[S.S_PHASE] == S.PHASE_RAISING:
                break  # nothing worth raising and nothing owed
        else:
            break
        if err == 0 and checked:
            err = check_invariants(s, r)
        if err != 0:
            return err
    return 0
