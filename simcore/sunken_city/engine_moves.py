"""Sunken City engine, the adventurer: its steps, recovering and banking treasures (seed 000,
"Move Adventurer", "Recovering Treasures ..."), and the water-spirit chips that add steps
("Water Spirit Chip").

Arguments: s = flat state (int64, layout in state.py), r = packed rules (int64, rules.py),
tr = trace buffer (int32, state.py), x = scratch (int64, state.py), rng = uint64[1].
"""

from __future__ import annotations

from simcore.jit import kernel
from simcore.sunken_city.board import ORTH
from simcore.sunken_city.engine import (
    ERR_ILLEGAL,
    count,
    covers,
    house_number,
    is_house,
    piece_neighbours,
    psq,
    record,
    set_treasure,
    treasure,
)
from simcore.sunken_city.engine_raising import block_ok, enter_block
from simcore.sunken_city.rules import N_TREASURES, P_ADVANCED, P_CENTRE, P_CHIPS, R_VILLAGE
from simcore.sunken_city.state import (
    A_CHIP,
    A_STEP,
    BANKED,
    BLOCK_MOVE,
    C_CHIPS_USED,
    C_MOVE_POINTS_SPENT,
    C_TREASURES_RECOVERED,
    CARRIED,
    CHEST,
    END_ALL_BANKED,
    HOUSE_SIDE,
    O_ADVENTURER_SLOT,
    O_CHIPS,
    O_SQUARE_PIECE,
    OUT,
    PHASE_RAISING,
    S_CARD,
    S_CHIP_SUPPLY,
    S_CHIP_USED,
    S_END_REASON,
    S_GROTTO_MOVE_ALLOWED,
    S_GROTTO_SPACE,
    S_MOVE_LEFT,
    S_PHASE,
    S_SEAT,
    S_SPIRIT_ACTIVE,
    VILLAGE,
    WATER,
    X_NEIGHBOURS,
)

# ---------------------------------------------------------------------------------------
# The adventurer (seed 000, "Move Adventurer", "Recovering Treasures ...")


@kernel
def step_targets(s, r, seat, x, o):
    """Where the seat's adventurer can go for one movement point: connected pieces, or its own
    village from the piece covering the village's corner square ("reaches the lake only through
    its corner square"). Writes slots (VILLAGE for the village) into x[o:]; returns the count."""
    v = r[R_VILLAGE + seat]
    pos = s[O_ADVENTURER_SLOT + seat]
    if pos == VILLAGE:
        q = s[O_SQUARE_PIECE + v]
        if q == WATER:
            return 0
        x[o] = q
        return 1
    n = piece_neighbours(s, pos, x, o)
    if covers(s, pos, v):
        x[o + n] = VILLAGE
        n += 1
    return n


@kernel
def can_step_now(s, r, seat, x):
    return (
        s[S_CARD] >= 0
        and s[S_SPIRIT_ACTIVE] == 0
        and s[S_MOVE_LEFT] > 0
        and block_ok(s, r, BLOCK_MOVE)
        and step_targets(s, r, seat, x, X_NEIGHBOURS) > 0
    )


@kernel
def all_banked(s, seat):
    for t in range(N_TREASURES):
        v = treasure(s, seat, t)
        if v != BANKED and v != OUT:
            return False
    return True


@kernel
def recover_at(s, r, seat, slot):
    """ "As soon as a house has been entered, the player turns the matching treasure over";
    the centre house also gives the chest, and "if the treasure of this house is already lying
    open ... or in the village, only treasure 12 is turned". Returns the recovered mask."""
    mask = 0
    h = house_number(slot)
    if treasure(s, seat, h - 1) == HOUSE_SIDE:
        set_treasure(s, seat, h - 1, CARRIED)
        mask |= 1 << (h - 1)
    if psq(s, slot, 0) == r[P_CENTRE] and treasure(s, seat, CHEST) == HOUSE_SIDE:
        set_treasure(s, seat, CHEST, CARRIED)
        mask |= 1 << CHEST
    return mask


@kernel
def bank(s, seat):
    """Reaching the village brings every recovered treasure to safety. Returns the mask."""
    mask = 0
    for t in range(N_TREASURES):
        if treasure(s, seat, t) == CARRIED:
            set_treasure(s, seat, t, BANKED)
            mask |= 1 << t
    return mask


@kernel(inline="always")
def can_step_to(s, r, seat, to):
    """Whether `to` is one of step_targets (a connected piece, or the village from the piece
    covering its corner; from the village, the piece on that corner), tested directly."""
    v = r[R_VILLAGE + seat]
    pos = s[O_ADVENTURER_SLOT + seat]
    if pos == VILLAGE:
        q = s[O_SQUARE_PIECE + v]
        return q != WATER and to == q
    if to == VILLAGE:
        return covers(s, pos, v)
    if to < 0 or to == pos:
        return False
    for k in range(2):
        q = psq(s, pos, k)
        if q < 0:
            continue
        for j in range(4):
            nq = ORTH[q, j]
            if nq >= 0 and s[O_SQUARE_PIECE + nq] == to:
                return True
    return False


@kernel
def do_step(s, r, tr, seat, to, x):
    """Move the adventurer one movement point onto slot `to` (VILLAGE: its village). "Within
    one move, an adventurer can move forwards and backwards"; after a house or the village
    "they may immediately continue moving"."""
    if not (
        seat == s[S_SEAT]
        and s[S_CARD] >= 0
        and s[S_SPIRIT_ACTIVE] == 0
        and s[S_MOVE_LEFT] > 0
        and block_ok(s, r, BLOCK_MOVE)
    ):
        return ERR_ILLEGAL
    if not can_step_to(s, r, seat, to):
        return ERR_ILLEGAL
    enter_block(s, BLOCK_MOVE)
    frm = s[O_ADVENTURER_SLOT + seat]
    s[O_ADVENTURER_SLOT + seat] = to
    s[S_MOVE_LEFT] -= 1
    count(s, seat, C_MOVE_POINTS_SPENT)
    rec_mask = 0
    bank_mask = 0
    to_sq = -1
    if to == VILLAGE:
        bank_mask = bank(s, seat)
        if all_banked(s, seat) and s[S_END_REASON] < 0:
            s[S_END_REASON] = (
                END_ALL_BANKED  # "A player has brought all the treasures ... to safety"
            )
    else:
        to_sq = psq(s, to, 0)
        if is_house(to):
            rec_mask = recover_at(s, r, seat, to)
            for t in range(N_TREASURES):
                if rec_mask & (1 << t):
                    count(s, seat, C_TREASURES_RECOVERED)
            # seed 001: "In Raising Phase, when you move your pawn onto/over the building
            # whose grotto space Neptune is currently in, you may move Neptune to a different
            # grotto space" (ruling: the right lasts until used or the turn ends)
            if (
                r[P_ADVANCED] == 1
                and s[S_PHASE] == PHASE_RAISING
                and house_number(to) == s[S_GROTTO_SPACE]
            ):
                s[S_GROTTO_MOVE_ALLOWED] = 1
    record(tr, s, A_STEP, frm, to, to_sq, rec_mask, bank_mask, s[S_MOVE_LEFT])
    return 0


# ---------------------------------------------------------------------------------------
# Water-spirit chips (seed 000, "Water Spirit Chip")


@kernel
def house_side_count(s, seat):
    """ "The number of houses (not treasures!) that are on their adventurer board" (the chest,
    still house side up, counts: the rulebook's example gives 9 for treasures 3 banked and 5
    carried)."""
    n = 0
    for t in range(N_TREASURES):
        if treasure(s, seat, t) == HOUSE_SIDE:
            n += 1
    return n


@kernel
def can_chip_now(s, r, seat):
    return (
        r[P_CHIPS] == 1
        and s[S_CARD] >= 0
        and s[S_SPIRIT_ACTIVE] == 0
        and s[S_CHIP_USED] == 0
        and s[O_CHIPS + seat] > 0
        and block_ok(s, r, BLOCK_MOVE)
    )


@kernel
def do_chip(s, r, tr, seat):
    """Use a chip: extra movement points equal to the house-side treasures now (ruling: counted
    when the chip is played, normally before the move starts); "may use only one chip per turn.
    The chip used is then returned to the supply"."""
    if seat != s[S_SEAT] or not can_chip_now(s, r, seat):
        return ERR_ILLEGAL
    enter_block(s, BLOCK_MOVE)
    extra = house_side_count(s, seat)
    s[O_CHIPS + seat] -= 1
    s[S_CHIP_SUPPLY] += 1
    s[S_MOVE_LEFT] += extra
    s[S_CHIP_USED] = 1
    count(s, seat, C_CHIPS_USED)
    record(tr, s, A_CHIP, extra)
    return 0
