"""Sunken City engine, the water spirit: where it may step, its limit, sinking the piece it
leaves and sending adventurers home (seed 000, "Move the Water Spirit", "Streets and Houses
Submerge", "Adventurers Must Return to Their Village").

Arguments: s = flat state (int64, layout in state.py), r = packed rules (int64, rules.py),
tr = trace buffer (int32, state.py), x = scratch (int64, state.py), rng = uint64[1].
"""

from __future__ import annotations

from simcore.jit import kernel
from simcore.rng import rand_below
from simcore.sunken_city.engine import (
    ERR_ILLEGAL,
    card_value,
    count,
    discard_space,
    house_number,
    is_house,
    mark_house,
    piece_neighbours,
    piece_owner,
    psq,
    record,
    set_treasure,
    settle_draw_space,
    treasure,
)
from simcore.sunken_city.engine_raising import block_ok, enter_block
from simcore.sunken_city.rules import (
    N_TREASURES,
    P_ADVANCED,
    P_CHIPS,
    P_DIE_N,
    P_NEEDS_ICON,
    P_OWNER_LIMIT,
    P_PLAYERS,
    P_SELF_CHIP,
    R_DIE,
)
from simcore.sunken_city.state import (
    A_SEND_HOME,
    A_SPIRIT_BEGIN,
    A_SPIRIT_END,
    A_SPIRIT_STEP,
    BLOCK_SPIRIT,
    C_CHIPS_GAINED,
    C_CHIPS_MISSED,
    C_SENT_HOME,
    C_SENT_OTHERS,
    C_SPIRIT_MOVES,
    C_TREASURES_LOST,
    CARRIED,
    HOUSE_SIDE,
    O_ADVENTURER_SLOT,
    O_CHIPS,
    O_PIECE_SQUARES,
    O_SQUARE_PIECE,
    O_STACKS,
    S_CARD,
    S_CHIP_SUPPLY,
    S_PIECES_SUNK,
    S_SEAT,
    S_SPIRIT_ACTIVE,
    S_SPIRIT_BEGUN,
    S_SPIRIT_MOVES,
    S_SPIRIT_ROLL,
    S_SPIRIT_SLOT,
    S_SPIRIT_STEPS_LEFT,
    S_SPIRIT_STEPS_TAKEN,
    VILLAGE,
    WATER,
    X_NEIGHBOURS,
)


@kernel
def spirit_targets(s, x, o):
    """Pieces the spirit can move onto next: connected pieces ("It may not move into the
    adventurers' villages": villages are no pieces). None while it is in the grotto."""
    if s[S_SPIRIT_SLOT] < 0:
        return 0
    return piece_neighbours(s, s[S_SPIRIT_SLOT], x, o)


@kernel
def spirit_can_reach(s, x, to):
    """`to` is a piece the spirit can move onto next."""
    n = spirit_targets(s, x, X_NEIGHBOURS)
    for k in range(n):
        if x[X_NEIGHBOURS + k] == to:
            return True
    return False


@kernel
def can_spirit_now(s, r, seat, x):
    c = s[S_CARD]
    if c < 0 or s[S_SPIRIT_BEGUN] == 1 or s[S_SPIRIT_ACTIVE] == 1 or r[P_ADVANCED] == 1:
        return False  # (the advanced game moves the spirit only in its sinking phase)
    # ruling: the spirit moves only with a card showing its icon ("A card's water-spirit icon
    # shows the water spirit being moved"; seed 001: "if present, may move Neptune")
    if r[P_NEEDS_ICON] == 1 and card_value(r, c, 2) == 0:
        return False
    if not block_ok(s, r, BLOCK_SPIRIT):
        return False
    # "If the water spirit is standing on a piece that has no connection ... it cannot be moved."
    return spirit_targets(s, x, X_NEIGHBOURS) > 0


@kernel
def spirit_limit(s, r, seat, rng):
    """(limit, die roll or -1, territory owner). "If the water spirit is within a player's
    territory, that player may move it up to 3 spaces (... 4 with 2 players)"; otherwise "the
    player rolls the die" and may move it "by the number rolled, or any lesser number"."""
    owner = piece_owner(s, r, s[S_SPIRIT_SLOT])
    if owner == seat:
        return r[P_OWNER_LIMIT], -1, owner
    roll = r[R_DIE + rand_below(rng, r[P_DIE_N])]
    return roll, roll, owner


@kernel
def send_home(s, r, tr, seat, mover):
    """ "Every adventurer standing on a piece that is currently submerging must return to their
    village"; its treasure-side treasures turn back to the house side; "as compensation, the
    player receives 1 water spirit chip" unless they moved the spirit themselves (no chip with
    chips off, or when the supply is empty: ruling)."""
    s[O_ADVENTURER_SLOT + seat] = VILLAGE
    lost = 0
    for t in range(N_TREASURES):
        if treasure(s, seat, t) == CARRIED:
            set_treasure(s, seat, t, HOUSE_SIDE)
            lost |= 1 << t
            count(s, seat, C_TREASURES_LOST)
    count(s, seat, C_SENT_HOME)
    chip = 0
    if mover != seat:
        count(s, mover, C_SENT_OTHERS)
    if mover != seat or r[P_SELF_CHIP] == 1:
        if r[P_CHIPS] == 1:
            if s[S_CHIP_SUPPLY] > 0:
                s[S_CHIP_SUPPLY] -= 1
                s[O_CHIPS + seat] += 1
                count(s, seat, C_CHIPS_GAINED)
                chip = 1
            else:
                count(s, seat, C_CHIPS_MISSED)
    record(tr, s, A_SEND_HOME, seat, lost, chip, mover)


@kernel
def sink_piece(s, r, tr, slot, mover, to):
    """ "All streets and houses that the water spirit leaves ... submerge": a house goes back to
    its grotto, a street face down onto the discard space; adventurers on it go home."""
    a = psq(s, slot, 0)
    b = psq(s, slot, 1)
    s[O_SQUARE_PIECE + a] = WATER
    if b >= 0:
        s[O_SQUARE_PIECE + b] = WATER
    s[O_PIECE_SQUARES + 2 * slot] = -1
    s[O_PIECE_SQUARES + 2 * slot + 1] = -1
    kind = 1 if is_house(slot) else 0
    space = -1
    if kind == 1:
        mark_house(s, a, -1)
    if kind == 0:
        space = discard_space(s)
        s[O_STACKS + space] += 1
    s[S_PIECES_SUNK] += 1
    sent = 0
    for seat in range(r[P_PLAYERS]):
        if s[O_ADVENTURER_SLOT + seat] == slot:
            sent |= 1 << seat
    record(
        tr,
        s,
        A_SPIRIT_STEP,
        slot,
        to,
        kind,
        house_number(slot) if kind == 1 else 0,
        sent,
        0,
        a,
        b,
        space,
    )
    for seat in range(r[P_PLAYERS]):
        if sent & (1 << seat):
            send_home(s, r, tr, seat, mover)
    if kind == 0:
        settle_draw_space(s, r, tr)  # a street sunk onto an empty space 6 can be drawn again


@kernel
def do_spirit_begin(s, r, tr, seat, rng, x):
    """Decide to move the spirit; the limit is fixed now (ruling: the die is rolled only when
    the player decides to move it outside their own territory). A limit of 0 ends the move."""
    if seat != s[S_SEAT] or not can_spirit_now(s, r, seat, x):
        return ERR_ILLEGAL
    enter_block(s, BLOCK_SPIRIT)
    limit, roll, owner = spirit_limit(s, r, seat, rng)
    s[S_SPIRIT_BEGUN] = 1
    s[S_SPIRIT_ACTIVE] = 1
    s[S_SPIRIT_STEPS_LEFT] = limit
    s[S_SPIRIT_ROLL] = roll
    s[S_SPIRIT_STEPS_TAKEN] = 0
    record(tr, s, A_SPIRIT_BEGIN, limit, roll, owner, s[S_SPIRIT_SLOT])
    if limit == 0:
        do_spirit_stop(s, r, tr, seat)
    return 0


@kernel
def do_spirit_step(s, r, tr, seat, to, x):
    """Move the spirit one piece; the piece it leaves submerges at once, "this also includes
    the piece it started from". The move ends by itself at the limit or when cut off."""
    if seat != s[S_SEAT] or s[S_SPIRIT_ACTIVE] == 0 or s[S_SPIRIT_STEPS_LEFT] <= 0:
        return ERR_ILLEGAL
    if not spirit_can_reach(s, x, to):
        return ERR_ILLEGAL
    frm = s[S_SPIRIT_SLOT]
    s[S_SPIRIT_SLOT] = to
    s[S_SPIRIT_STEPS_LEFT] -= 1
    s[S_SPIRIT_STEPS_TAKEN] += 1
    sink_piece(s, r, tr, frm, seat, to)
    if s[S_SPIRIT_STEPS_LEFT] == 0 or spirit_targets(s, x, X_NEIGHBOURS) == 0:
        do_spirit_stop(s, r, tr, seat)
    return 0


@kernel
def do_spirit_stop(s, r, tr, seat):
    """End the spirit's move (it "can be moved by the number rolled, or any lesser number").
    "As long as the water spirit's move ends on the piece the adventurer is standing on,
    nothing happens to the adventurer"."""
    if s[S_SPIRIT_ACTIVE] == 0:
        return ERR_ILLEGAL
    s[S_SPIRIT_ACTIVE] = 0
    steps = s[S_SPIRIT_STEPS_TAKEN]
    if steps > 0:
        s[S_SPIRIT_MOVES] += 1
        count(s, seat, C_SPIRIT_MOVES)
    record(tr, s, A_SPIRIT_END, steps)
    s[S_SPIRIT_STEPS_TAKEN] = 0
    return 0
