"""Sunken City engine, the adventurer: its steps, recovering and banking treasures (seed 000,
"Move Adventurer", "Recovering Treasures ..."), and the water-spirit chips that add steps
("Water Spirit Chip").

Arguments: s = flat state (int64, layout in state.py), r = packed rules (int64, rules.py),
tr = trace buffer (int32, state.py), x = scratch (int64, state.py), rng = uint64[1].
"""

from __future__ import annotations

from simcore.frame.jit import kernel
from simcore.games.sunken_city import board as B
from simcore.games.sunken_city import engine as E
from simcore.games.sunken_city import rules as R
from simcore.games.sunken_city import state as S
from simcore.games.sunken_city.engine_raising import block_ok, enter_block

# ---------------------------------------------------------------------------------------
# The adventurer (seed 000, "Move Adventurer", "Recovering Treasures ...")


@kernel
def step_targets(s, r, seat, x, o):
    """Where the seat's adventurer can go for one movement point: connected pieces, or its own
    village from the piece covering the village's corner square ("reaches the lake only through
    its corner square"). Writes slots (VILLAGE for the village) into x[o:]; returns the count."""
    v = r[R.R_VILLAGE + seat]
    pos = s[S.O_ADVENTURER_SLOT + seat]
    if pos == S.VILLAGE:
        q = s[S.O_SQUARE_PIECE + v]
        if q == S.WATER:
            return 0
        x[o] = q
        return 1
    n = E.piece_neighbours(s, pos, x, o)
    if E.covers(s, pos, v):
        x[o + n] = S.VILLAGE
        n += 1
    return n


@kernel
def can_step_now(s, r, seat, x):
    return (
        s[S.S_CARD] >= 0
        and s[S.S_SPIRIT_ACTIVE] == 0
        and s[S.S_MOVE_LEFT] > 0
        and block_ok(s, r, S.BLOCK_MOVE)
        and step_targets(s, r, seat, x, S.X_NEIGHBOURS) > 0
    )


@kernel
def all_banked(s, seat):
    for t in range(R.N_TREASURES):
        v = E.treasure(s, seat, t)
        if v != S.BANKED and v != S.OUT:
            return False
    return True


@kernel
def recover_at(s, r, seat, slot):
    """ "As soon as a house has been entered, the player turns the matching treasure over";
    the centre house also gives the chest, and "if the treasure of this house is already lying
    open ... or in the village, only treasure 12 is turned". Returns the recovered mask."""
    mask = 0
    h = E.house_number(slot)
    if E.treasure(s, seat, h - 1) == S.HOUSE_SIDE:
        E.set_treasure(s, seat, h - 1, S.CARRIED)
        mask |= 1 << (h - 1)
    if E.psq(s, slot, 0) == r[R.P_CENTRE] and E.treasure(s, seat, S.CHEST) == S.HOUSE_SIDE:
        E.set_treasure(s, seat, S.CHEST, S.CARRIED)
        mask |= 1 << S.CHEST
    return mask


@kernel
def bank(s, seat):
    """Reaching the village brings every recovered treasure to safety. Returns the mask."""
    mask = 0
    for t in range(R.N_TREASURES):
        if E.treasure(s, seat, t) == S.CARRIED:
            E.set_treasure(s, seat, t, S.BANKED)
            mask |= 1 << t
    return mask


@kernel(inline="always")
def can_step_to(s, r, seat, to):
    """Whether `to` is one of step_targets (a connected piece, or the village from the piece
    covering its corner; from the village, the piece on that corner), tested directly."""
    v = r[R.R_VILLAGE + seat]
    pos = s[S.O_ADVENTURER_SLOT + seat]
    if pos == S.VILLAGE:
        q = s[S.O_SQUARE_PIECE + v]
        return q != S.WATER and to == q
    if to == S.VILLAGE:
        return E.covers(s, pos, v)
    if to < 0 or to == pos:
        return False
    for k in range(2):
        q = E.psq(s, pos, k)
        if q < 0:
            continue
        for j in range(4):
            nq = B.ORTH[q, j]
            if nq >= 0 and s[S.O_SQUARE_PIECE + nq] == to:
                return True
    return False


@kernel
def do_step(s, r, tr, seat, to, x):
    """Move the adventurer one movement point onto slot `to` (VILLAGE: its village). "Within
    one move, an adventurer can move forwards and backwards"; after a house or the village
    "they may immediately continue moving"."""
    if not (
        seat == s[S.S_SEAT]
        and s[S.S_CARD] >= 0
        and s[S.S_SPIRIT_ACTIVE] == 0
        and s[S.S_MOVE_LEFT] > 0
        and block_ok(s, r, S.BLOCK_MOVE)
    ):
        return E.ERR_ILLEGAL
    if not can_step_to(s, r, seat, to):
        return E.ERR_ILLEGAL
    enter_block(s, S.BLOCK_MOVE)
    frm = s[S.O_ADVENTURER_SLOT + seat]
    s[S.O_ADVENTURER_SLOT + seat] = to
    s[S.S_MOVE_LEFT] -= 1
    E.count(s, seat, S.C_MOVE_POINTS_SPENT)
    rec_mask = 0
    bank_mask = 0
    to_sq = -1
    if to == S.VILLAGE:
        bank_mask = bank(s, seat)
        if all_banked(s, seat) and s[S.S_END_REASON] < 0:
            s[S.S_END_REASON] = (
                S.END_ALL_BANKED  # "A player has brought all the treasures ... to safety"
            )
    else:
        to_sq = E.psq(s, to, 0)
        if E.is_house(to):
            rec_mask = recover_at(s, r, seat, to)
            for t in range(R.N_TREASURES):
                if rec_mask & (1 << t):
                    E.count(s, seat, S.C_TREASURES_RECOVERED)
            # seed 001: "In Raising Phase, when you move your pawn onto/over the building
            # whose grotto space Neptune is currently in, you may move Neptune to a different
            # grotto space" (ruling: the right lasts until used or the turn ends)
            if (
                r[R.P_ADVANCED] == 1
                and s[S.S_PHASE] == S.PHASE_RAISING
                and E.house_number(to) == s[S.S_GROTTO_SPACE]
            ):
                s[S.S_GROTTO_MOVE_ALLOWED] = 1
    E.record(tr, s, S.A_STEP, frm, to, to_sq, rec_mask, bank_mask, s[S.S_MOVE_LEFT])
    return 0


# ---------------------------------------------------------------------------------------
# Water-spirit chips (seed 000, "Water Spirit Chip")


@kernel
def house_side_count(s, seat):
    """ "The number of houses (not treasures!) that are on their adventurer board" (the chest,
    still house side up, counts: the rulebook's example gives 9 for treasures 3 banked and 5
    carried)."""
    n = 0
    for t in range(R.N_TREASURES):
        if E.treasure(s, seat, t) == S.HOUSE_SIDE:
            n += 1
    return n


@kernel(inline="always")
def moved_this_turn(s):
    """Has the adventurer taken a step this turn? (The move block is begun by a step or a
    chip; with no chip played yet, only a step can have begun it.)"""
    return s[S.S_CHIP_USED] == 0 and (s[S.S_BLOCKS_BEGUN] & (1 << S.BLOCK_MOVE)) != 0


@kernel
def can_chip_now(s, r, seat):
    """A chip may be played on one's turn, one per turn; seed 000's example counts its points
    "from the treasures that, before their move, were showing the house side up", so it is
    played before the adventurer's first step (chip_timing=before-move; any-time: also later)."""
    return (
        r[R.P_CHIPS] == 1
        and s[S.S_CARD] >= 0
        and s[S.S_SPIRIT_ACTIVE] == 0
        and s[S.S_CHIP_USED] == 0
        and s[S.O_CHIPS + seat] > 0
        and (r[R.P_CHIP_ANY_TIME] == 1 or not moved_this_turn(s))
        and block_ok(s, r, S.BLOCK_MOVE)
    )


@kernel
def do_chip(s, r, tr, seat):
    """Use a chip: extra movement points equal to the house-side treasures now, that is before
    the move (chip_timing=before-move; under any-time counted when the chip is played); "may use
    only one chip per turn. The chip used is then returned to the supply"."""
    if seat != s[S.S_SEAT] or not can_chip_now(s, r, seat):
        return E.ERR_ILLEGAL
    enter_block(s, S.BLOCK_MOVE)
    extra = house_side_count(s, seat)
    s[S.O_CHIPS + seat] -= 1
    s[S.S_CHIP_SUPPLY] += 1
    s[S.S_MOVE_LEFT] += extra
    s[S.S_CHIP_USED] = 1
    E.count(s, seat, S.C_CHIPS_USED)
    E.record(tr, s, S.A_CHIP, extra)
    return 0
