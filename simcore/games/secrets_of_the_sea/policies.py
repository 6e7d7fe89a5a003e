"""Secrets of the Sea players as compiled functions. A player drives a whole turn through the
engine's do_* functions (the same legal-action path for every player) and returns 0, or an
error code when the engine refused an action (or, in checked mode, an invariant broke).

What a player may see: the board's empty spaces, the kind of every tile the lamp has shown
(O_KNOWN), the fronts of monsters that stayed after a fight, all tiles in front of the players,
the wreck tiles, the bonus tiles -- never the value of a tile still face down. The hidden-tile
tables of the state (per region and kind: how many tiles nobody has seen the front of, and the
sum of their values) are public knowledge: the starting mix minus the tiles turned over.

Players (docs/policies-secrets-of-the-sea.md):
- random: uniform among the legal options at each decision.
- balanced: takes a lit tile when its expected value reaches a threshold that is lower with
  one die left than with two; prefers moves that land on tiles, deep.
- ev: risk-neutral: the expected points of diving on, from a dynamic program over the
  column below the lamp, against the expected points of taking now.
- stop-at-value: takes the first lit tile whose expected value reaches `target`.
- stop-at-depth: takes the first tile at row `depth` or deeper.
"""

from __future__ import annotations

import numpy as np

from simcore.frame.bits import trailing_zeros
from simcore.frame.jit import kernel
from simcore.frame.playerkit import bind_after
from simcore.frame.rng import rand_below
from simcore.games.secrets_of_the_sea import board as B
from simcore.games.secrets_of_the_sea import rules as R
from simcore.games.secrets_of_the_sea import state as S
from simcore.games.secrets_of_the_sea.engine import (
    ERR_ILLEGAL,
    bonus_needed,
    can_stop,
    dice_available,
    do_exchange,
    do_fight,
    do_move,
    do_roll,
    do_stop,
    do_take,
    do_wreck,
    draw_index,
    exchange_ok,
    front_kind,
    lamp_kind,
    move_target,
    space_at,
    tile_value,
    usable_die,
)
from simcore.games.secrets_of_the_sea.engine_invariants import check_invariants

# Policy ids (the registry in simcore/games/secrets_of_the_sea/__init__.py maps names to these).
POL_RANDOM = 0
POL_BALANCED = 1
POL_EV = 2
POL_VALUE = 3
POL_DEPTH = 4

MAX_ACTIONS_PER_TURN = 64

# Weight vectors (w[seat, W_*]: each preset's weights in the order of its PolicySpec in
# __init__.py). balanced: take2, take1, per_row; stop-at-value: target; stop-at-depth: depth.
W_TAKE2 = 0  # balanced: take a lit tile worth at least this with two dice free
W_TAKE1 = 1  # balanced: ... with one die free
W_PER_ROW = 2  # balanced: the threshold lowered by this for each row below row 1
W_TARGET = 0  # stop-at-value: take the first lit tile worth at least this
W_DEPTH = 0  # stop-at-depth: take the first tile at this row or deeper

# Float scratch of the ev player (the shared driver's xf: XF_SIZE float64, zeroed before each
# game). "Dice free": the dice not set aside by an X, 1 or 2 (index nd - 1). A row: 0 the boat,
# 1..10 a space of the column, 11 the wreck. Values are expected points of the seat on turn.
# [2 regions x 9 lamp kinds x 2 dice free] the take value of a lit tile (kind_value), filled
# once per turn by fill_kind_values
XF_KIND_TAKE_VALUE = 0
# [12 rows x 2 dice free] W: the value of the lamp arriving at each row of the column being
# valued, playing on risk-neutrally (arrival_value, filled by column_values)
XF_ARRIVAL_VALUE = XF_KIND_TAKE_VALUE + 2 * 9 * 2
# [12 rows x 2 dice free] D: the expected value of rolling on from each row (dive_value)
XF_DIVE_VALUE = XF_ARRIVAL_VALUE + 12 * 2
XF_SIZE = XF_DIVE_VALUE + 12 * 2


# After an action: the engine's verdict, then (checked mode) the invariants.
after = bind_after(__name__, check_invariants)


# ---------------------------------------------------------------------------------------
# What a tile is worth to the seat (public information only)


@kernel
def p_face_at_least(r, pips):
    """Probability that one die shows a number of at least `pips`."""
    n = 0
    for k in range(r[R.P_DIE_N]):
        f = r[R.R_DIE + k]
        if f != R.X and f >= pips:
            n += 1
    return n / r[R.P_DIE_N]


@kernel
def p_fight(r, pips, nd):
    """Probability of beating `pips` monsters with nd free dice: 1 - (1 - p)^nd."""
    q = 1.0 - p_face_at_least(r, pips)
    return 1.0 - q**nd


@kernel
def bonus_gain(s, r, seat, b):
    """Points of bonus b that one more tile of its kind would bring the seat now."""
    if b < 0 or s[S.O_BONUS + b] >= 0:
        return 0.0
    if s[S.O_HELD + seat * R.N_BONUS + b] + 1 >= bonus_needed(r, seat, b):
        return float(r[R.P_BONUS_POINTS])
    return 0.0


@kernel
def fight_value(s, r, seat, pips, nd):
    """Expected points of a fight against `pips` monsters with nd free dice."""
    return p_fight(r, pips, nd) * (pips + bonus_gain(s, r, seat, R.BONUS_MONSTER))


@kernel
def mean_hidden(s, g, c):
    """Mean value of the hidden tiles of category c in region g (0 when there are none)."""
    n = s[S.O_HID_N + g * S.N_HC + c]
    if n == 0:
        return 0.0
    return s[S.O_HID_SUM + g * S.N_HC + c] / n


@kernel
def monster_value(s, r, seat, g, nd, cave):
    """Expected points of meeting a hidden monster of region g (cave: one in a cave): the
    fight chance at each hidden monster's pips, averaged over them (the pips of the hidden
    monsters are public: the mix minus the monsters seen)."""
    c = S.HC_CAVE_MONSTER if cave else R.MONSTER
    n = s[S.O_HID_N + g * S.N_HC + c]
    if n == 0:
        return 0.0
    # the pips of hidden monsters: iterate the region's spaces (few tiles, public multiset)
    tot = 0.0
    for q in range(g * 5, 50, 10):
        for k in range(5):
            qq = q + k
            t = s[S.O_SPACE + qq]
            if t == S.EMPTY or s[S.O_KNOWN + qq] == S.FRONT:
                continue
            if front_kind(r, t) != R.MONSTER or (lamp_kind(r, t) == R.CAVE) != cave:
                continue
            tot += fight_value(s, r, seat, tile_value(r, t), nd)
    return tot / n


@kernel
def best_steal(s, r, seat):
    """The best tile an exchange could take: (points gained, target seat, tile), or
    (-1, -1, -1) when no opponent holds a treasure or wreck tile."""
    best = -1.0
    bt = -1
    bo = -1
    m = s[S.S_HELD_TREASURES]  # the treasure tiles in front of the players, ascending ids
    while m != 0:
        t = trailing_zeros(m)
        m &= m - 1
        o = s[S.O_OWNER + t]
        if o == seat:
            continue
        v = tile_value(r, t) + bonus_gain(s, r, seat, front_kind(r, t))
        if v > best:
            best = v
            bt = t
            bo = o
    return best, bo, bt


@kernel
def cave_value(s, r, seat, g, nd):
    """Expected points of opening a cave of region g whose front nobody has seen."""
    n1 = s[S.O_HID_N + g * S.N_HC + S.HC_CAVE]
    n2 = s[S.O_HID_N + g * S.N_HC + S.HC_CAVE_MONSTER]
    if n1 + n2 == 0:
        return 0.0
    v = s[S.O_HID_SUM + g * S.N_HC + S.HC_CAVE]
    if r[R.P_CAVE_FIGHT] == 1:
        m = monster_value(s, r, seat, g, nd, True) * n2
    else:
        m = s[S.O_HID_SUM + g * S.N_HC + S.HC_CAVE_MONSTER] + n2 * bonus_gain(
            s, r, seat, R.BONUS_MONSTER
        )
    return (v + m) / (n1 + n2)


@kernel
def kind_value(s, r, seat, g, kind, nd):
    """Expected points of taking a lit tile of this lamp kind in region g, front unseen."""
    if kind < R.N_TYPES:
        return mean_hidden(s, g, kind) + bonus_gain(s, r, seat, kind)
    if kind == R.SEAGRASS:
        return bonus_gain(s, r, seat, R.BONUS_SEAGRASS)
    if kind == R.EXCHANGE:
        st, _, _ = best_steal(s, r, seat)
        keep = mean_hidden(s, g, R.EXCHANGE)
        return st if st > keep else keep
    if kind == R.CAVE:
        return cave_value(s, r, seat, g, nd)
    return monster_value(s, r, seat, g, nd, False)


@kernel(inline="always")
def lit_value(s, r, seat, nd):
    """Expected points of taking the lit tile under the lamp (its kind and, for a monster
    that stayed, its front are known)."""
    t = s[S.S_TILE]
    q = space_at(s[S.S_COL], s[S.S_POS])
    if s[S.O_KNOWN + q] == S.FRONT:
        if r[R.P_CAVE_FIGHT] == 1 or lamp_kind(r, t) == R.MONSTER:
            return fight_value(s, r, seat, tile_value(r, t), nd)
        return tile_value(r, t) + bonus_gain(s, r, seat, R.BONUS_MONSTER)
    return kind_value(s, r, seat, B.SPACE_REGION[q], lamp_kind(r, t), nd)


@kernel
def best_wreck(s, r, seat):
    """(wreck tile worth most to the seat, its points), (-1, -1) when none is left."""
    best = -1.0
    bt = -1
    for t in range(R.WRECK_BASE, r[R.P_N_TILES]):
        if s[S.O_OWNER + t] != S.ON_BOARD:
            continue
        from_bonus = 0.0
        if r[R.P_WRECK_BONUS] == 1:  # the wreck tile counts for its type's bonus
            from_bonus = bonus_gain(s, r, seat, front_kind(r, t))
        v = tile_value(r, t) + from_bonus
        if v > best:
            best = v
            bt = t
    return bt, best


# ---------------------------------------------------------------------------------------
# The risk-neutral dive value (ev): a dynamic program over one column


@kernel
def fill_kind_values(s, r, seat, xf):
    """xf[XF_KIND_TAKE_VALUE]: the take value of a lit tile of each lamp kind, per region and
    dice free."""
    for g in range(2):
        for k in range(9):
            for nd in range(1, R.N_DICE + 1):
                xf[XF_KIND_TAKE_VALUE + (g * 9 + k) * 2 + nd - 1] = kind_value(s, r, seat, g, k, nd)


@kernel
def kind_take_value(xf, g, k, nd):
    """The take value of a lit tile of lamp kind k in region g with nd dice free (filled)."""
    return xf[XF_KIND_TAKE_VALUE + (g * 9 + k) * 2 + nd - 1]


@kernel
def arrival_value(s, r, seat, col, q, nd, xf):
    """W: the value of the lamp arriving at row q of column col with nd dice free, playing on
    risk-neutrally (needs xf[XF_DIVE_VALUE] for row q)."""
    if q >= B.WRECK_ROW:
        _, v = best_wreck(s, r, seat)
        return v if v > 0.0 else 0.0
    dive = xf[XF_DIVE_VALUE + q * 2 + nd - 1]
    sp = space_at(col, q)
    t = s[S.O_SPACE + sp]
    if t == S.EMPTY:
        if r[R.P_EMPTY_STOP] == 1 and dive < 0.0:
            return 0.0
        return dive
    g = B.SPACE_REGION[sp]
    known = s[S.O_KNOWN + sp]
    lamp = lamp_kind(r, t)
    if known == S.FRONT:
        if lamp == R.MONSTER:
            return fight_value(s, r, seat, tile_value(r, t), nd)
        take = fight_value(s, r, seat, tile_value(r, t), nd)
        return take if take > dive else dive
    if known != S.UNLIT:
        if lamp == R.MONSTER:
            return kind_take_value(xf, g, R.MONSTER, nd)
        take = kind_take_value(xf, g, lamp, nd)
        return take if take > dive else dive
    # unlit: the kinds of the region's unlit tiles, weighted by their numbers
    tot = 0.0
    n = 0
    for c in range(S.N_HC):
        u = s[S.O_UNLIT + g * S.N_HC + c]
        if u == 0:
            continue
        n += u
        k = R.CAVE if c >= S.HC_CAVE else c
        if k == R.MONSTER:
            tot += u * kind_take_value(xf, g, R.MONSTER, nd)
        else:
            take = kind_take_value(xf, g, k, nd)
            tot += u * (take if take > dive else dive)
    if n == 0:
        return dive
    return tot / n


@kernel
def dive_value(s, r, pos, nd, xf):
    """D: the expected value of rolling the nd free dice at row pos (needs xf[XF_ARRIVAL_VALUE]
    below)."""
    nf = r[R.P_DIE_N]
    exact = r[R.P_OVERSHOOT] == 0
    tot = 0.0
    if nd == 1:
        for a in range(nf):
            fa = r[R.R_DIE + a]
            if fa == R.X or (exact and pos + fa > B.WRECK_ROW):
                continue
            q = pos + fa if pos + fa < B.WRECK_ROW else B.WRECK_ROW
            tot += xf[XF_ARRIVAL_VALUE + q * 2]
        return tot / nf
    for a in range(nf):
        fa = r[R.R_DIE + a]
        for b in range(nf):
            fb = r[R.R_DIE + b]
            if fa == R.X and fb == R.X:
                continue
            nd2 = 2 if (fa != R.X and fb != R.X) else 1
            best = -1.0e9
            for f in (fa, fb):
                if f == R.X or (exact and pos + f > B.WRECK_ROW):
                    continue
                q = pos + f if pos + f < B.WRECK_ROW else B.WRECK_ROW
                v = xf[XF_ARRIVAL_VALUE + q * 2 + nd2 - 1]
                if v > best:
                    best = v
            if best > -1.0e8:
                tot += best
    return tot / (nf * nf)


@kernel
def column_values(s, r, seat, col, xf, top=0):
    """Fill xf[XF_ARRIVAL_VALUE], xf[XF_DIVE_VALUE] for column col, from the wreck up to row
    `top` (0: the boat). Each row needs only the rows below it, so a decision at row p
    computes rows p.. only."""
    for nd in range(1, R.N_DICE + 1):
        xf[XF_DIVE_VALUE + B.WRECK_ROW * 2 + nd - 1] = 0.0
        xf[XF_ARRIVAL_VALUE + B.WRECK_ROW * 2 + nd - 1] = arrival_value(
            s, r, seat, col, B.WRECK_ROW, nd, xf
        )
    for q in range(B.ROWS, top - 1, -1):
        for nd in range(1, R.N_DICE + 1):
            xf[XF_DIVE_VALUE + q * 2 + nd - 1] = dive_value(s, r, q, nd, xf)
        if q >= 1:
            for nd in range(1, R.N_DICE + 1):
                xf[XF_ARRIVAL_VALUE + q * 2 + nd - 1] = arrival_value(s, r, seat, col, q, nd, xf)


# ---------------------------------------------------------------------------------------
# Shared decisions


@kernel
def take_or_exchange(s, r, tr, seat):
    """Take the lit tile; an exchange tile is given away when a steal is worth more than the
    2 points of keeping it."""
    t = s[S.S_TILE]
    if lamp_kind(r, t) == R.EXCHANGE:
        v, o, bt = best_steal(s, r, seat)
        if v > tile_value(r, t) and exchange_ok(s, r, o, bt):
            return do_exchange(s, r, tr, o, bt)
    return do_take(s, r, tr)


@kernel
def take_wreck(s, r, tr, seat):
    t, _ = best_wreck(s, r, seat)
    return do_wreck(s, r, tr, t)


@kernel(inline="always")
def landing_score(s, r, col, q):
    """A quick score of the lamp landing at row q of col: deeper is better, an empty space
    (-3) or a known monster (-8) much worse, the wreck best (100). Whole numbers, computed
    without branches (the tile under the lamp is as good as random: a branch on it is
    mispredicted half the time)."""
    if q >= B.WRECK_ROW:
        return 100
    sp = space_at(col, q)
    t = s[S.O_SPACE + sp]
    k = s[S.O_KNOWN + sp]
    lamp = r[R.R_LAMP + t]  # t = EMPTY (-1) reads the entry before the table: masked below
    empty = np.int64(t == S.EMPTY)
    bad = np.int64(k == S.FRONT) | (np.int64(k != S.UNLIT) & np.int64(lamp == R.MONSTER))
    return q - 3 * empty - 8 * (bad & (1 - empty))


@kernel(inline="always")
def better_landing(s, r, col, q, die, best, bd, bc):
    """(best, die, column) after trying die `die` landing on row q (-1: not usable) of column
    col: the landing replaces the best so far only when its landing_score is higher."""
    if q >= 0:
        v = landing_score(s, r, col, q)
        if v > best:
            return v, die, col
    return best, bd, bc


@kernel(inline="always")
def choose_landing(s, r, tr, rng):
    """Choose the die and (first move) the buoy with the best landing_score; ties go to the
    first found (columns in order from a random starting column, so seats do not all favour
    buoy 0; die 0 before die 1)."""
    best = -(10**9)
    bd = -1
    bc = -1
    fixed = s[S.S_COL]
    if fixed < 0:
        c0 = draw_index(r, R.R_COL_T, rng)  # rand_below(rng, COLS)
        n = B.COLS
    else:
        c0 = fixed
        n = 1
    q0 = move_target(s, r, 0) if usable_die(s, r, 0) else -1
    q1 = move_target(s, r, 1) if usable_die(s, r, 1) else -1
    for k in range(n):
        col = c0 + k
        if col >= B.COLS:
            col -= B.COLS
        best, bd, bc = better_landing(s, r, col, q0, 0, best, bd, bc)
        best, bd, bc = better_landing(s, r, col, q1, 1, best, bd, bc)
    return do_move(s, r, tr, bd, bc)


# ---------------------------------------------------------------------------------------
# The players


@kernel
def random_step(s, r, tr, seat, rng):
    """One uniformly random legal decision."""
    ph = s[S.S_PHASE]
    if ph == S.PH_FIGHT:
        return do_fight(s, r, tr, rng)
    if ph == S.PH_CHOOSE:
        n = 0
        for i in range(R.N_DICE):
            if usable_die(s, r, i):
                n += 1
        k = rand_below(rng, n)
        for i in range(R.N_DICE):
            if usable_die(s, r, i):
                if k == 0:
                    col = s[S.S_COL] if s[S.S_COL] >= 0 else rand_below(rng, B.COLS)
                    return do_move(s, r, tr, i, col)
                k -= 1
        return ERR_ILLEGAL
    if ph == S.PH_WRECK:
        n = 0
        for t in range(R.WRECK_BASE, r[R.P_N_TILES]):
            if s[S.O_OWNER + t] == S.ON_BOARD:
                n += 1
        k = rand_below(rng, n)
        for t in range(R.WRECK_BASE, r[R.P_N_TILES]):
            if s[S.O_OWNER + t] == S.ON_BOARD:
                if k == 0:
                    return do_wreck(s, r, tr, t)
                k -= 1
        return ERR_ILLEGAL
    if ph == S.PH_EMPTY:
        if can_stop(s, r) and rand_below(rng, 2) == 0:
            return do_stop(s, r, tr)
    elif ph != S.PH_ROLL:
        # PH_LIT: take, dive, or (exchange tile) give it for one of the legal tiles
        n_ex = 0
        if lamp_kind(r, s[S.S_TILE]) == R.EXCHANGE:
            for t in range(r[R.P_N_TILES]):
                o = s[S.O_OWNER + t]
                if o >= 0 and exchange_ok(s, r, o, t):
                    n_ex += 1
        k = rand_below(rng, 2 + (1 if n_ex > 0 else 0))
        if k == 0:
            return do_take(s, r, tr)
        if k == 2:
            j = rand_below(rng, n_ex)
            for t in range(r[R.P_N_TILES]):
                o = s[S.O_OWNER + t]
                if o >= 0 and exchange_ok(s, r, o, t):
                    if j == 0:
                        return do_exchange(s, r, tr, o, t)
                    j -= 1
            return ERR_ILLEGAL
    # the first roll, diving on over an empty space or a lit tile: one call site of the roll
    # (compiled inline)
    return do_roll(s, r, tr, rng)


@kernel(inline="always")
def threshold_takes(s, r, seat, pol, w):
    """balanced, stop-at-value, stop-at-depth over a lit tile: take it (rather than dive on)."""
    nd = dice_available(s)
    if pol == POL_DEPTH:
        return s[S.S_POS] >= w[seat, W_DEPTH]
    v = lit_value(s, r, seat, nd)
    if pol == POL_VALUE:
        return v >= w[seat, W_TARGET]
    # balanced: take2 with two dice free, take1 with one; per_row less for each row below row 1
    take = w[seat, W_TAKE2] if nd == 2 else w[seat, W_TAKE1]
    target = take - w[seat, W_PER_ROW] * (s[S.S_POS] - 1)
    return v >= target


@kernel(inline="always")
def threshold_step(s, r, tr, seat, rng, pol, w):
    """balanced, stop-at-value, stop-at-depth: one decision (weights w[seat])."""
    ph = s[S.S_PHASE]
    if ph == S.PH_FIGHT:
        return do_fight(s, r, tr, rng)
    if ph == S.PH_CHOOSE:
        return choose_landing(s, r, tr, rng)
    if ph == S.PH_WRECK:
        return take_wreck(s, r, tr, seat)
    if ph != S.PH_ROLL and ph != S.PH_EMPTY:
        # PH_LIT: take, or dive on
        if threshold_takes(s, r, seat, pol, w):
            return take_or_exchange(s, r, tr, seat)
    # the first roll, always diving on over an empty space, or not taking: one call site of
    # the roll (compiled inline)
    return do_roll(s, r, tr, rng)


@kernel
def ev_choose(s, r, tr, seat, xf):
    """Choose the die (and buoy) whose landing has the highest value W."""
    nd = dice_available(s)
    best = -1.0e9
    bd = -1
    bc = -1
    fixed = s[S.S_COL]
    for col in range(B.COLS):
        if fixed >= 0 and col != fixed:
            continue
        column_values(s, r, seat, col, xf, s[S.S_POS] + 1)  # the landing rows lie below
        for i in range(R.N_DICE):
            if not usable_die(s, r, i):
                continue
            v = xf[XF_ARRIVAL_VALUE + move_target(s, r, i) * 2 + nd - 1]
            if v > best:
                best = v
                bd = i
                bc = col
    return do_move(s, r, tr, bd, bc)


@kernel
def ev_step(s, r, tr, seat, rng, xf):
    """The risk-neutral player: one decision."""
    ph = s[S.S_PHASE]
    if ph == S.PH_FIGHT:
        return do_fight(s, r, tr, rng)
    if ph == S.PH_WRECK:
        return take_wreck(s, r, tr, seat)
    if ph == S.PH_CHOOSE:
        return ev_choose(s, r, tr, seat, xf)
    if ph != S.PH_ROLL and ev_ends_dive(s, r, seat, xf):
        if ph == S.PH_EMPTY:
            return do_stop(s, r, tr)
        return take_or_exchange(s, r, tr, seat)
    # the first roll, or diving on: one call site of the roll (compiled inline)
    return do_roll(s, r, tr, rng)


@kernel
def ev_ends_dive(s, r, seat, xf):
    """ev over a lit tile or an empty space: end the dive (take the tile, or stop) rather than
    dive on. xf: fill_kind_values done for this turn."""
    nd = dice_available(s)
    column_values(s, r, seat, s[S.S_COL], xf, s[S.S_POS])
    dive = xf[XF_DIVE_VALUE + s[S.S_POS] * 2 + nd - 1]
    if s[S.S_PHASE] == S.PH_EMPTY:
        return dive <= 0.0 and can_stop(s, r)
    return lit_value(s, r, seat, nd) >= dive


@kernel(inline="always")
def play_turn(s, r, tr, seat, pol, w, rng, checked, xf):
    """Let policy `pol` play the seat's whole turn with the weights w[seat] (w: float64[4, W],
    the whole matrix rather than a row view: no reference counting per turn). xf: float64
    scratch of XF_SIZE. Returns 0 or an error code."""
    return plan_turn(s, r, tr, seat, pol, w, rng, checked, xf)


@kernel
def plan_turn(s, r, tr, seat, pol, w, rng, checked, xf):
    """play_turn's body, one compiled function (not inlined into every caller: the run loop
    and the search's simulations, simcore/games/secrets_of_the_sea/search_player.py, call it): the
    seat's turn from wherever it stands to its end."""
    turn = s[S.S_TURN]
    if pol == POL_EV:
        fill_kind_values(s, r, seat, xf)
    for _ in range(MAX_ACTIONS_PER_TURN):
        if s[S.S_TURN] != turn or s[S.S_GAME_OVER] == 1:
            return 0
        if pol == POL_RANDOM:
            err = random_step(s, r, tr, seat, rng)
        elif pol == POL_EV:
            err = ev_step(s, r, tr, seat, rng, xf)
        elif pol == POL_BALANCED or pol == POL_VALUE or pol == POL_DEPTH:
            err = threshold_step(s, r, tr, seat, rng, pol, w)
        else:
            return ERR_ILLEGAL
        err = after(s, r, checked, err)
        if err != 0:
            return err
    return ERR_ILLEGAL
