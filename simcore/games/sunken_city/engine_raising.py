"""Sunken City engine, raising: the action blocks of action_order=blocks, where streets and
houses may appear, and raising them (seed 000, "Streets and Houses Appear"). Imports only
engine.py of the engine modules (see its docstring for the order).

Arguments: s = flat state (int64, layout in state.py), r = packed rules (int64, rules.py),
tr = trace buffer (int32, state.py), x = scratch (int64, state.py), rng = uint64[1].
"""

from __future__ import annotations

from simcore.frame.jit import kernel
from simcore.games.sunken_city import board as B
from simcore.games.sunken_city import engine as E
from simcore.games.sunken_city import rules as R
from simcore.games.sunken_city import state as S

# ---------------------------------------------------------------------------------------
# Action blocks (action_order=blocks keeps each of the three actions whole)


@kernel
def block_ok(s, r, blk):
    """May an action of block `blk` be taken now?"""
    if r[R.P_INTERLEAVE] == 1:
        return True
    cur = s[S.S_ACTION_BLOCK]
    if cur == blk:
        return True
    if s[S.S_BLOCKS_BEGUN] & (1 << blk):
        return False
    # the raising block may not be left while pieces must still be raised
    if cur == S.BLOCK_BUILD and raising_owed(s, r):
        return False
    return True


@kernel(inline="always")
def enter_block(s, blk):
    s[S.S_ACTION_BLOCK] = blk
    s[S.S_BLOCKS_BEGUN] |= 1 << blk


# ---------------------------------------------------------------------------------------
# Raising streets and houses (seed 000, "Streets and Houses Appear")


@kernel(inline="always")
def street_square_ok(s, r, q):
    """Free, and not the centre: "They can appear on any free space of the lake, except the
    space in the middle"."""
    return (
        0 <= q < B.N_SQUARES and s[S.O_SQUARE_PIECE + q] == S.WATER and r[R.R_KIND + q] != R.CENTRE
    )


@kernel
def street_spot_ok(s, r, a, b):
    """A street may cover free squares a and b (b = -1 for a 1-square street), which share an
    edge; light and dark squares both take streets."""
    if not street_square_ok(s, r, a):
        return False
    if r[R.P_STREET_SQUARES] == 1:
        return b == -1
    if not street_square_ok(s, r, b):
        return False
    for j in range(4):
        if B.ORTH[a, j] == b:
            return True
    return False


@kernel(inline="always")
def house_spot_ok(s, r, q):
    """ "Houses ... can only appear on the dark spaces of the lake. They may not touch each
    other, not even at the corners." (The centre takes houses only.)"""
    if (
        q < 0
        or q >= B.N_SQUARES
        or s[S.O_SQUARE_PIECE + q] != S.WATER
        or r[R.R_KIND + q] == R.LIGHT
    ):
        return False
    return s[S.O_NEAR_HOUSES + q] == 0


@kernel(inline="always")
def house_in_grotto(s, r, h):
    return E.house_in_play(r, h) and E.psq(s, S.HOUSE_BASE + h - 1, 0) < 0


@kernel(inline="always")
def spot_free(s, r, k):
    """Street spot k of the board (rules R_SPOTS) has all its squares free."""
    a = r[R.R_SPOTS + 2 * k]
    b = r[R.R_SPOTS + 2 * k + 1]
    return s[S.O_SQUARE_PIECE + a] == S.WATER and (b < 0 or s[S.O_SQUARE_PIECE + b] == S.WATER)


@kernel
def any_street_spot(s, r):
    for k in range(r[R.P_N_SPOTS]):
        if spot_free(s, r, k):
            return True
    return False


@kernel
def any_house_spot(s, r):
    for k in range(r[R.P_N_HOUSE_SQ]):
        if house_spot_ok(s, r, r[R.R_HOUSE_SQ + k]):
            return True
    return False


@kernel(inline="always")
def house_raisable(s, r, h):
    """House h may be raised now: it is in the grotto, and in the advanced game it is the
    house of the spirit's grotto space during the raising phase (seed 001: "May only raise
    the building next to which Neptune is standing (in the grotto)")."""
    if not house_in_grotto(s, r, h):
        return False
    if r[R.P_ADVANCED] == 0:
        return True
    return s[S.S_PHASE] == S.PHASE_RAISING and h == s[S.S_GROTTO_SPACE]


@kernel
def grotto_has_house(s, r):
    if r[R.P_ADVANCED] == 1:
        g = s[S.S_GROTTO_SPACE]
        return 1 <= g <= 10 and house_raisable(s, r, g)
    for h in range(1, 11):
        if house_in_grotto(s, r, h):
            return True
    return False


@kernel
def can_build_any(s, r):
    """Could one more piece be raised now (pieces left on the card aside)? "Exactly as many
    pieces must be placed as the card indicates": fewer only when no legal spot or no street
    is left (GAME-DATA ruling; seed 000 "The Streets Run Out")."""
    if E.street_available(s) and any_street_spot(s, r):
        return True
    return s[S.S_HOUSE_RAISED] == 0 and grotto_has_house(s, r) and any_house_spot(s, r)


@kernel
def raising_owed(s, r):
    """Must more pieces be raised before the turn ends? "Exactly as many pieces must be placed
    as the card indicates", but "while streets are missing, the action ... is not a mandatory
    action" (seed 000, "The Streets Run Out"), and fewer are placed only when no legal spot is
    left (GAME-DATA ruling)."""
    if (
        r[R.P_INTERLEAVE] == 0
        and s[S.S_BLOCKS_BEGUN] & (1 << S.BLOCK_BUILD)
        and (s[S.S_ACTION_BLOCK] != S.BLOCK_BUILD)
    ):
        # action_order=blocks: the raising action, once left (when nothing was owed), is over
        return False
    return s[S.S_RAISE_LEFT] > 0 and E.street_available(s) and can_build_any(s, r)


@kernel
def list_street_spots(s, r, x, o):
    """Write every legal street spot as pairs (a, b or -1) into x[o:]; return the count."""
    n = 0
    for k in range(r[R.P_N_SPOTS]):
        if spot_free(s, r, k):
            x[o + 2 * n] = r[R.R_SPOTS + 2 * k]
            x[o + 2 * n + 1] = r[R.R_SPOTS + 2 * k + 1]
            n += 1
    return n


@kernel
def list_house_squares(s, r, x, o):
    """Write every square a house may appear on into x[o:]; return the count."""
    n = 0
    for k in range(r[R.P_N_HOUSE_SQ]):
        q = r[R.R_HOUSE_SQ + k]
        if house_spot_ok(s, r, q):
            x[o + n] = q
            n += 1
    return n


@kernel
def can_place_now(s, r):
    return (
        s[S.S_CARD] >= 0
        and s[S.S_SPIRIT_ACTIVE] == 0
        and s[S.S_RAISE_LEFT] > 0
        and block_ok(s, r, S.BLOCK_BUILD)
        and can_build_any(s, r)
    )


@kernel
def do_street(s, r, tr, a, b):
    """Raise a street on squares a, b: "taking the top street from the stack"."""
    if not (
        s[S.S_CARD] >= 0
        and s[S.S_SPIRIT_ACTIVE] == 0
        and s[S.S_RAISE_LEFT] > 0
        and block_ok(s, r, S.BLOCK_BUILD)
        and E.street_available(s)
        and street_spot_ok(s, r, a, b)
    ):
        return E.ERR_ILLEGAL
    slot = -1
    for k in range(r[R.P_TOTAL_STREETS]):
        if E.psq(s, k, 0) < 0:
            slot = k
            break
    if slot < 0:
        return E.ERR_ILLEGAL
    enter_block(s, S.BLOCK_BUILD)
    d = s[S.S_DRAW_SPACE]
    s[S.O_STACKS + d] -= 1
    s[S.O_PIECE_SQUARES + 2 * slot] = a
    s[S.O_SQUARE_PIECE + a] = slot
    if b >= 0:
        s[S.O_PIECE_SQUARES + 2 * slot + 1] = b
        s[S.O_SQUARE_PIECE + b] = slot
    s[S.S_RAISE_LEFT] -= 1
    s[S.S_STREETS_PLACED] += 1
    E.record(tr, s, S.A_STREET, a, b, d, slot)
    emptied = s[S.O_STACKS + d] == 0
    E.settle_draw_space(s, r, tr)
    if emptied and r[R.P_ADVANCED] == 1:
        # seed 001: "Switch to Sinking Phase immediately when the last street from the
        # current street space is used"
        E.begin_sinking(s, r, tr)
    return 0


@kernel
def do_house(s, r, tr, h, q):
    """Raise house h, "taking any house from the grotto", on square q: "only one house can
    appear per turn"."""
    if not (
        s[S.S_CARD] >= 0
        and s[S.S_SPIRIT_ACTIVE] == 0
        and s[S.S_RAISE_LEFT] > 0
        and s[S.S_HOUSE_RAISED] == 0
        and 1 <= h <= 10
        and block_ok(s, r, S.BLOCK_BUILD)
        and house_raisable(s, r, h)
        and house_spot_ok(s, r, q)
    ):
        return E.ERR_ILLEGAL
    enter_block(s, S.BLOCK_BUILD)
    slot = S.HOUSE_BASE + h - 1
    s[S.O_PIECE_SQUARES + 2 * slot] = q
    s[S.O_SQUARE_PIECE + q] = slot
    E.mark_house(s, q, 1)
    s[S.S_RAISE_LEFT] -= 1
    s[S.S_HOUSE_RAISED] = 1
    s[S.S_HOUSES_PLACED] += 1
    E.record(tr, s, S.A_HOUSE, h, q)
    return 0
