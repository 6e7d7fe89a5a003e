"""Sunken City engine, the water spirit: where it may step, its limit, sinking the piece it
leaves and sending adventurers home (seed 000, "Move the Water Spirit", "Streets and Houses
Submerge", "Adventurers Must Return to Their Village").

Arguments: s = flat state (int64, layout in state.py), r = packed rules (int64, rules.py),
tr = trace buffer (int32, state.py), x = scratch (int64, state.py), rng = uint64[1].
"""

from __future__ import annotations

from simcore.frame.jit import kernel
from simcore.frame.rng import rand_below
from simcore.games.sunken_city import engine as E
from simcore.games.sunken_city import rules as R
from simcore.games.sunken_city import state as S
from simcore.games.sunken_city.engine_raising import block_ok, enter_block


@kernel
def spirit_targets(s, x, o):
    """Pieces the spirit can move onto next: connected pieces ("It may not move into the
    adventurers' villages": villages are no pieces). None while it is in the grotto."""
    if s[S.S_SPIRIT_SLOT] < 0:
        return 0
    return E.piece_neighbours(s, s[S.S_SPIRIT_SLOT], x, o)


@kernel
def spirit_can_reach(s, x, to):
    """`to` is a piece the spirit can move onto next."""
    n = spirit_targets(s, x, S.X_NEIGHBOURS)
    for k in range(n):
        if x[S.X_NEIGHBOURS + k] == to:
            return True
    return False


@kernel
def can_spirit_now(s, r, seat, x):
    c = s[S.S_CARD]
    if c < 0 or s[S.S_SPIRIT_BEGUN] == 1 or s[S.S_SPIRIT_ACTIVE] == 1 or r[R.P_ADVANCED] == 1:
        return False  # (the advanced game moves the spirit only in its sinking phase)
    # ruling: the spirit moves only with a card showing its icon ("A card's water-spirit icon
    # shows the water spirit being moved"; seed 001: "if present, may move Neptune")
    if r[R.P_NEEDS_ICON] == 1 and E.card_value(r, c, 2) == 0:
        return False
    if not block_ok(s, r, S.BLOCK_SPIRIT):
        return False
    # "If the water spirit is standing on a piece that has no connection ... it cannot be moved."
    return spirit_targets(s, x, S.X_NEIGHBOURS) > 0


@kernel
def spirit_limit(s, r, seat, rng):
    """(limit, die roll or -1, territory owner). "If the water spirit is within a player's
    territory, that player may move it up to 3 spaces (... 4 with 2 players)"; otherwise "the
    player rolls the die" and may move it "by the number rolled, or any lesser number"."""
    owner = E.piece_owner(s, r, s[S.S_SPIRIT_SLOT])
    if owner == seat:
        return r[R.P_OWNER_LIMIT], -1, owner
    roll = r[R.R_DIE + rand_below(rng, r[R.P_DIE_N])]
    return roll, roll, owner


@kernel
def send_home(s, r, tr, seat, mover):
    """ "Every adventurer standing on a piece that is currently submerging must return to their
    village"; its treasure-side treasures turn back to the house side; "as compensation, the
    player receives 1 water spirit chip" unless they moved the spirit themselves (no chip with
    chips off, or when the supply is empty: ruling)."""
    s[S.O_ADVENTURER_SLOT + seat] = S.VILLAGE
    lost = 0
    for t in range(R.N_TREASURES):
        if E.treasure(s, seat, t) == S.CARRIED:
            E.set_treasure(s, seat, t, S.HOUSE_SIDE)
            lost |= 1 << t
            E.count(s, seat, S.C_TREASURES_LOST)
    E.count(s, seat, S.C_SENT_HOME)
    chip = 0
    if mover != seat:
        E.count(s, mover, S.C_SENT_OTHERS)
    if mover != seat or r[R.P_SELF_CHIP] == 1:
        if r[R.P_CHIPS] == 1:
            if s[S.S_CHIP_SUPPLY] > 0:
                s[S.S_CHIP_SUPPLY] -= 1
                s[S.O_CHIPS + seat] += 1
                E.count(s, seat, S.C_CHIPS_GAINED)
                chip = 1
            else:
                E.count(s, seat, S.C_CHIPS_MISSED)
    E.record(tr, s, S.A_SEND_HOME, seat, lost, chip, mover)


@kernel
def sink_piece(s, r, tr, slot, mover, to):
    """ "All streets and houses that the water spirit leaves ... submerge": a house goes back to
    its grotto, a street face down onto the discard space; adventurers on it go home."""
    a = E.psq(s, slot, 0)
    b = E.psq(s, slot, 1)
    s[S.O_SQUARE_PIECE + a] = S.WATER
    if b >= 0:
        s[S.O_SQUARE_PIECE + b] = S.WATER
    s[S.O_PIECE_SQUARES + 2 * slot] = -1
    s[S.O_PIECE_SQUARES + 2 * slot + 1] = -1
    kind = 1 if E.is_house(slot) else 0
    space = -1
    if kind == 1:
        E.mark_house(s, a, -1)
    if kind == 0:
        space = E.discard_space(s)
        s[S.O_STACKS + space] += 1
    s[S.S_PIECES_SUNK] += 1
    sent = 0
    for seat in range(r[R.P_PLAYERS]):
        if s[S.O_ADVENTURER_SLOT + seat] == slot:
            sent |= 1 << seat
    E.record(
        tr,
        s,
        S.A_SPIRIT_STEP,
        slot,
        to,
        kind,
        E.house_number(slot) if kind == 1 else 0,
        sent,
        0,
        a,
        b,
        space,
    )
    for seat in range(r[R.P_PLAYERS]):
        if sent & (1 << seat):
            send_home(s, r, tr, seat, mover)
    if kind == 0:
        E.settle_draw_space(s, r, tr)  # a street sunk onto an empty space 6 can be drawn again


@kernel
def do_spirit_begin(s, r, tr, seat, rng, x):
    """Decide to move the spirit; the limit is fixed now (ruling: the die is rolled only when
    the player decides to move it outside their own territory). A limit of 0 ends the move."""
    if seat != s[S.S_SEAT] or not can_spirit_now(s, r, seat, x):
        return E.ERR_ILLEGAL
    enter_block(s, S.BLOCK_SPIRIT)
    limit, roll, owner = spirit_limit(s, r, seat, rng)
    s[S.S_SPIRIT_BEGUN] = 1
    s[S.S_SPIRIT_ACTIVE] = 1
    s[S.S_SPIRIT_STEPS_LEFT] = limit
    s[S.S_SPIRIT_ROLL] = roll
    s[S.S_SPIRIT_STEPS_TAKEN] = 0
    E.record(tr, s, S.A_SPIRIT_BEGIN, limit, roll, owner, s[S.S_SPIRIT_SLOT])
    if limit == 0:
        do_spirit_stop(s, r, tr, seat)
    return 0


@kernel(inline="always")
def spirit_step(s, to):
    """Move the spirit onto piece `to` for one spirit point; return the piece it left."""
    frm = s[S.S_SPIRIT_SLOT]
    s[S.S_SPIRIT_SLOT] = to
    s[S.S_SPIRIT_STEPS_LEFT] -= 1
    return frm


@kernel
def do_spirit_step(s, r, tr, seat, to, x):
    """Move the spirit one piece; the piece it leaves submerges at once, "this also includes
    the piece it started from". The move ends by itself at the limit or when cut off."""
    if seat != s[S.S_SEAT] or s[S.S_SPIRIT_ACTIVE] == 0 or s[S.S_SPIRIT_STEPS_LEFT] <= 0:
        return E.ERR_ILLEGAL
    if not spirit_can_reach(s, x, to):
        return E.ERR_ILLEGAL
    frm = spirit_step(s, to)
    s[S.S_SPIRIT_STEPS_TAKEN] += 1
    sink_piece(s, r, tr, frm, seat, to)
    if s[S.S_SPIRIT_STEPS_LEFT] == 0 or spirit_targets(s, x, S.X_NEIGHBOURS) == 0:
        do_spirit_stop(s, r, tr, seat)
    return 0


@kernel
def do_spirit_stop(s, r, tr, seat):
    """End the spirit's move (it "can be moved by the number rolled, or any lesser number").
    "As long as the water spirit's move ends on the piece the adventurer is standing on,
    nothing happens to the adventurer"."""
    if s[S.S_SPIRIT_ACTIVE] == 0:
        return E.ERR_ILLEGAL
    s[S.S_SPIRIT_ACTIVE] = 0
    steps = s[S.S_SPIRIT_STEPS_TAKEN]
    if steps > 0:
        s[S.S_SPIRIT_MOVES] += 1
        E.count(s, seat, S.C_SPIRIT_MOVES)
    E.record(tr, s, S.A_SPIRIT_END, steps)
    s[S.S_SPIRIT_STEPS_TAKEN] = 0
    return 0
