"""Sunken City rules as compiled kernels: setup, legal actions, applying actions, end checks.

No policy logic lives here. Every ``do_*`` function checks the legality of its action and
returns 0, or ERR_ILLEGAL without changing anything, so every player (random or heuristic)
goes through the same legal-action path. Quotes are from seed 000 (the publisher's rulebook)
unless they say otherwise; rulings are from ../shared/GAME-DATA.md (docs/rules-sunken-city.md).

Arguments: s = flat state (int64, layout in state.py), r = packed rules (int64, rules.py),
tr = trace buffer (int32, state.py), x = scratch (int64, state.py), rng = uint64[1].
"""

from __future__ import annotations

from simcore.jit import kernel
from simcore.rng import rand_below
from simcore.sunken_city.board import ORTH, RING
from simcore.sunken_city.rules import (
    CENTRE,
    LIGHT,
    MAX_PLAYERS,
    N_HOUSES,
    N_SPACES,
    N_SQUARES,
    N_TREASURES,
    P_ADVANCED,
    P_CENTRE,
    P_CHIP_SUPPLY,
    P_CHIPS,
    P_DIE_N,
    P_FACEDOWN,
    P_INTERLEAVE,
    P_MAX_ROUNDS,
    P_N_CARDS,
    P_N_HOUSE_SQ,
    P_N_SPOTS,
    P_NEEDS_ICON,
    P_OWNER_LIMIT,
    P_PLAYERS,
    P_SCORING,
    P_SELF_CHIP,
    P_STREET_SQUARES,
    P_STREETS1,
    P_TOTAL_STREETS,
    P_USE_HOUSE_1,
    R_CARDS,
    R_DIE,
    R_HOUSE_SQ,
    R_KIND,
    R_OWNER,
    R_SPOTS,
    R_VILLAGE,
)
from simcore.sunken_city.state import (
    A_BANISH,
    A_CARD,
    A_CHIP,
    A_END_TURN,
    A_GROTTO,
    A_HOURGLASS,
    A_HOUSE,
    A_PHASE,
    A_SEND_HOME,
    A_SINK_STEP,
    A_SPIRIT_BEGIN,
    A_SPIRIT_END,
    A_SPIRIT_STEP,
    A_STACK_TURN,
    A_STEP,
    A_STREET,
    ACTION_WIDTH,
    BANKED,
    BLOCK_BUILD,
    BLOCK_MOVE,
    BLOCK_NONE,
    BLOCK_SPIRIT,
    C_CHIPS_GAINED,
    C_CHIPS_MISSED,
    C_CHIPS_USED,
    C_MOVE_POINTS_SPENT,
    C_SENT_HOME,
    C_SENT_OTHERS,
    C_SPIRIT_MOVES,
    C_TREASURES_LOST,
    C_TREASURES_RECOVERED,
    CARRIED,
    CHEST,
    END_ALL_BANKED,
    END_HOURGLASS,
    END_ROUND_LIMIT,
    HOUSE_BASE,
    HOUSE_SIDE,
    MAX_STREETS,
    N_COUNTERS,
    N_SLOTS,
    O_ADVENTURER_SLOT,
    O_CHIPS,
    O_COUNTERS,
    O_HAND,
    O_NEAR_HOUSES,
    O_PIECE_SQUARES,
    O_SQUARE_PIECE,
    O_STACKS,
    O_TREASURE,
    OUT,
    PHASE_RAISING,
    PHASE_SINKING,
    S_ACTION_BLOCK,
    S_BANISHMENTS,
    S_BLOCKS_BEGUN,
    S_CARD,
    S_CHIP_SUPPLY,
    S_CHIP_USED,
    S_DRAW_SPACE,
    S_END_REASON,
    S_GAME_OVER,
    S_GROTTO_MOVE_ALLOWED,
    S_GROTTO_MOVES,
    S_GROTTO_SPACE,
    S_HOURGLASS,
    S_HOUSE_RAISED,
    S_HOUSES_PLACED,
    S_MOVE_LEFT,
    S_PHASE,
    S_PIECES_SUNK,
    S_RAISE_LEFT,
    S_RAISE_TO_SPIRIT_POINTS,
    S_ROUND,
    S_SEAT,
    S_SINK_STEPS,
    S_SINKING_PHASES,
    S_SINKING_WITHOUT_HOUSE,
    S_SPIRIT_ACTIVE,
    S_SPIRIT_BEGUN,
    S_SPIRIT_MOVES,
    S_SPIRIT_ROLL,
    S_SPIRIT_SLOT,
    S_SPIRIT_STEPS_LEFT,
    S_SPIRIT_STEPS_TAKEN,
    S_SPIRIT_TO_RAISE_POINTS,
    S_STARVED_TURNS,
    S_STREETS_IN_BOX,
    S_STREETS_PLACED,
    S_TURN,
    STATE_SIZE,
    VILLAGE,
    WATER,
    X_NEIGHBOURS,
)
from simcore.tracebuf import reserve_record, write_snapshot

# Error codes: 0 = fine. ERR_ILLEGAL is returned by do_* for an illegal action; the others
# come from check_invariants (checked mode).
ERR_ILLEGAL = 1
ERR_STREETS = 2  # streets not conserved over board, stacks and box
ERR_BOARD = 3  # squares and pieces disagree
ERR_HOUSE = 4  # a house not in play on the board
ERR_TOUCH = 5  # two houses touch
ERR_SQUARE = 6  # a piece on a square it may not occupy
ERR_ADV = 7  # an adventurer off the pieces and out of its village
ERR_TREASURE = 8  # treasure states broken
ERR_CHIPS = 9  # chips not conserved
ERR_SPIRIT = 10  # the spirit is not on a piece
ERR_COUNTS = 11  # a counter out of range
ERR_TRACE = 12  # the trace buffer overflowed
ERR_PHASE = 13  # advanced game: phase, points or the spirit's place inconsistent
ERR_NAMES = (
    "ok",
    "illegal action",
    "streets not conserved",
    "board inconsistent",
    "house misplaced",
    "houses touch",
    "piece on a forbidden square",
    "adventurer misplaced",
    "treasures broken",
    "chips not conserved",
    "spirit misplaced",
    "counter out of range",
    "trace overflow",
    "phase inconsistent",
)


# ---------------------------------------------------------------------------------------
# Small accessors (inlined)


@kernel(inline="always")
def sq_piece(s, q):
    return s[O_SQUARE_PIECE + q]


@kernel(inline="always")
def psq(s, slot, k):
    return s[O_PIECE_SQUARES + 2 * slot + k]


@kernel(inline="always")
def treasure(s, seat, t):
    return s[O_TREASURE + seat * N_TREASURES + t]


@kernel(inline="always")
def set_treasure(s, seat, t, v):
    s[O_TREASURE + seat * N_TREASURES + t] = v


@kernel(inline="always")
def count(s, seat, c, n=1):
    s[O_COUNTERS + seat * N_COUNTERS + c] += n


@kernel(inline="always")
def card_value(r, card, j):
    """Card `card`: j = 0 pieces raised, 1 movement points, 2 spirit icon."""
    return r[R_CARDS + 3 * card + j]


@kernel(inline="always")
def is_house(slot):
    return slot >= HOUSE_BASE


@kernel(inline="always")
def house_number(slot):
    return slot - HOUSE_BASE + 1


@kernel(inline="always")
def house_in_play(r, h):
    """House h (1..10) is used: all but house 1 in the 'short' variant."""
    return h != 1 or r[P_USE_HOUSE_1] == 1


@kernel(inline="always")
def treasure_value(t):
    """Points of treasure index t: 1..10, and 12 for the chest."""
    return 12 if t == CHEST else t + 1


@kernel(inline="always")
def advanced(r):
    return r[P_ADVANCED] == 1


@kernel(inline="always")
def sinking(s, r):
    """The advanced game is in its sinking phase (pieces only sink)."""
    return r[P_ADVANCED] == 1 and s[S_PHASE] == PHASE_SINKING


@kernel(inline="always")
def covers(s, slot, q):
    return psq(s, slot, 0) == q or psq(s, slot, 1) == q


@kernel
def mark_house(s, q, d):
    """A house appears (d = 1) or sinks (d = -1) on square q: update the nearby-house counts
    of q and the 8 squares around it."""
    s[O_NEAR_HOUSES + q] += d
    for j in range(8):
        nq = RING[q, j]
        if nq >= 0:
            s[O_NEAR_HOUSES + nq] += d


@kernel
def recount_near(s):
    """Recompute every nearby-house count from the houses on the lake."""
    for q in range(N_SQUARES):
        s[O_NEAR_HOUSES + q] = 0
    for h in range(N_HOUSES):
        q = psq(s, HOUSE_BASE + h, 0)
        if q >= 0:
            mark_house(s, q, 1)


# ---------------------------------------------------------------------------------------
# Trace recording


@kernel
def record(tr, s, kind, a=0, b=0, c=0, d=0, e=0, f=0, g=0, h=0, i=0):
    """Append one action record (turn, seat, kind, a..i) when tracing is on."""
    o = reserve_record(tr, ACTION_WIDTH)
    if o < 0:
        return
    tr[o] = s[S_TURN]
    tr[o + 1] = s[S_SEAT]
    tr[o + 2] = kind
    tr[o + 3] = a
    tr[o + 4] = b
    tr[o + 5] = c
    tr[o + 6] = d
    tr[o + 7] = e
    tr[o + 8] = f
    tr[o + 9] = g
    tr[o + 10] = h
    tr[o + 11] = i


@kernel
def snapshot(tr, s):
    """Append the whole state (before a turn) to the trace when tracing is on."""
    write_snapshot(tr, s, ACTION_WIDTH, STATE_SIZE)


# ---------------------------------------------------------------------------------------
# Setup (seed 000, "Setup")


@kernel
def setup(s, r, tr):
    """Fill s with the starting position for r (players, streets, houses, spirit, hands)."""
    players = r[P_PLAYERS]
    s[:] = 0
    for q in range(N_SQUARES):
        s[O_SQUARE_PIECE + q] = WATER
    for k in range(2 * N_SLOTS):
        s[O_PIECE_SQUARES + k] = -1
    full_hand = (1 << r[P_N_CARDS]) - 1
    for seat in range(MAX_PLAYERS):
        s[O_ADVENTURER_SLOT + seat] = VILLAGE  # "The adventurer is placed in their village."
        for t in range(N_TREASURES):
            # "The treasures are placed on the adventurer board with the house side face up"
            set_treasure(s, seat, t, HOUSE_SIDE if seat < players else OUT)
        if seat < players:
            s[O_HAND + seat] = full_hand  # "Each player takes their movement cards"
            if r[P_USE_HOUSE_1] == 0:
                set_treasure(s, seat, 0, OUT)  # 'short': treasure 1 is not used
    # "On street space 1, place 20/23/26 streets ... one street ... on each of street spaces
    # 2 to 5. Space 6 remains empty. Any remaining streets go back into the box."
    s[O_STACKS] = r[P_STREETS1]
    for k in range(1, 5):
        s[O_STACKS + k] = r[P_FACEDOWN]
    s[S_STREETS_IN_BOX] = r[P_TOTAL_STREETS] - r[P_STREETS1] - 4 * r[P_FACEDOWN]
    s[S_CHIP_SUPPLY] = r[P_CHIP_SUPPLY]  # "The 8 water spirit chips are placed ready"
    if r[P_ADVANCED] == 1:
        # seed 001: "Place all 10 numbered buildings in their grotto spaces ... Place Neptune
        # next to building 10; he is also considered to be in grotto space 10"; "Game starts
        # in Raising Phase"
        s[S_SPIRIT_SLOT] = -1
        s[S_GROTTO_SPACE] = 10
        s[S_PHASE] = PHASE_RAISING
    else:
        # "House 10 is placed on the space in the middle ... The water spirit is placed on
        # house 10."
        centre = r[P_CENTRE]
        slot = HOUSE_BASE + 9
        s[O_PIECE_SQUARES + 2 * slot] = centre
        s[O_SQUARE_PIECE + centre] = slot
        mark_house(s, centre, 1)
        s[S_SPIRIT_SLOT] = slot
    s[S_END_REASON] = -1
    s[S_CARD] = -1
    s[S_SPIRIT_ROLL] = -1
    settle_draw_space(s, r, tr)  # a setup with an empty space 1 turns the next one up


# ---------------------------------------------------------------------------------------
# Street stacks (seed 000, "End of Game")


@kernel(inline="always")
def street_available(s):
    """A street can be drawn from the face-up stack."""
    return s[O_STACKS + s[S_DRAW_SPACE]] > 0


@kernel(inline="always")
def discard_space(s):
    """Street space (0-based) sunk streets go onto: the one after the draw stack; after the
    hourglass space 6 serves both ("likewise place submerging streets on space 6")."""
    d = s[S_DRAW_SPACE]
    return d + 1 if d < N_SPACES - 1 else N_SPACES - 1


@kernel
def settle_draw_space(s, r, tr):
    """ "Once the stack ... is used up, the stack of submerged streets is immediately turned
    face up ... even in the middle of a player's turn." When space 5 is used up the hourglass
    shows and space 6 serves the rest of the round; an empty space 6 means the streets have
    run out until some submerge."""
    while s[O_STACKS + s[S_DRAW_SPACE]] == 0:
        d = s[S_DRAW_SPACE]
        if d == N_SPACES - 1:
            return
        s[S_DRAW_SPACE] = d + 1
        if d == N_SPACES - 2:
            if s[S_HOURGLASS] == 0:
                s[S_HOURGLASS] = 1
                # seed 001: "the last Sinking Phase begins; game ends when this Phase is
                # over" (end_sinking sets the end there)
                if s[S_END_REASON] < 0 and r[P_ADVANCED] == 0:
                    s[S_END_REASON] = END_HOURGLASS
                record(tr, s, A_HOURGLASS)
            record(tr, s, A_STACK_TURN, d + 1)
            return
        record(tr, s, A_STACK_TURN, d + 1)


# ---------------------------------------------------------------------------------------
# Pieces and connections


@kernel
def piece_neighbours(s, slot, x, o):
    """Write the distinct slots connected to `slot` (sharing a square edge) into x[o:]; return
    their count. "If streets touch only at their corners, they are not connected"."""
    n = 0
    for k in range(2):
        q = psq(s, slot, k)
        if q < 0:
            continue
        for j in range(4):
            nq = ORTH[q, j]
            if nq < 0:
                continue
            other = s[O_SQUARE_PIECE + nq]
            if other == WATER or other == slot:
                continue
            dup = False
            for m in range(n):
                if x[o + m] == other:
                    dup = True
            if not dup:
                x[o + n] = other
                n += 1
    return n


@kernel
def piece_owner(s, r, slot):
    """Seat whose territory holds the piece, -1 none: "If the water spirit is standing on a
    street that lies only partly within a player's territory, this still counts"."""
    o = -1
    for k in range(2):
        q = psq(s, slot, k)
        if q >= 0 and r[R_OWNER + q] >= 0:
            o = r[R_OWNER + q]
    return o


# ---------------------------------------------------------------------------------------
# Action blocks (interleave=False keeps each of the three actions in one piece)


@kernel
def block_ok(s, r, blk):
    """May an action of block `blk` be taken now?"""
    if r[P_INTERLEAVE] == 1:
        return True
    cur = s[S_ACTION_BLOCK]
    if cur == blk:
        return True
    if s[S_BLOCKS_BEGUN] & (1 << blk):
        return False
    # the raising block may not be left while pieces must still be raised
    if cur == BLOCK_BUILD and raising_owed(s, r):
        return False
    return True


@kernel(inline="always")
def enter_block(s, blk):
    s[S_ACTION_BLOCK] = blk
    s[S_BLOCKS_BEGUN] |= 1 << blk


# ---------------------------------------------------------------------------------------
# Raising streets and houses (seed 000, "Streets and Houses Appear")


@kernel(inline="always")
def street_square_ok(s, r, q):
    """Free, and not the centre: "They can appear on any free space of the lake, except the
    space in the middle"."""
    return 0 <= q < N_SQUARES and s[O_SQUARE_PIECE + q] == WATER and r[R_KIND + q] != CENTRE


@kernel
def street_spot_ok(s, r, a, b):
    """A street may cover free squares a and b (b = -1 for a 1-square street), which share an
    edge; light and dark squares both take streets."""
    if not street_square_ok(s, r, a):
        return False
    if r[P_STREET_SQUARES] == 1:
        return b == -1
    if not street_square_ok(s, r, b):
        return False
    for j in range(4):
        if ORTH[a, j] == b:
            return True
    return False


@kernel(inline="always")
def house_spot_ok(s, r, q):
    """ "Houses ... can only appear on the dark spaces of the lake. They may not touch each
    other, not even at the corners." (The centre takes houses only.)"""
    if q < 0 or q >= N_SQUARES or s[O_SQUARE_PIECE + q] != WATER or r[R_KIND + q] == LIGHT:
        return False
    return s[O_NEAR_HOUSES + q] == 0


@kernel(inline="always")
def house_in_grotto(s, r, h):
    return house_in_play(r, h) and psq(s, HOUSE_BASE + h - 1, 0) < 0


@kernel(inline="always")
def spot_free(s, r, k):
    """Street spot k of the board (rules R_SPOTS) has all its squares free."""
    a = r[R_SPOTS + 2 * k]
    b = r[R_SPOTS + 2 * k + 1]
    return s[O_SQUARE_PIECE + a] == WATER and (b < 0 or s[O_SQUARE_PIECE + b] == WATER)


@kernel
def any_street_spot(s, r):
    for k in range(r[P_N_SPOTS]):
        if spot_free(s, r, k):
            return True
    return False


@kernel
def any_house_spot(s, r):
    for k in range(r[P_N_HOUSE_SQ]):
        if house_spot_ok(s, r, r[R_HOUSE_SQ + k]):
            return True
    return False


@kernel(inline="always")
def house_raisable(s, r, h):
    """House h may be raised now: it is in the grotto, and in the advanced game it is the
    house of the spirit's grotto space during the raising phase (seed 001: "May only raise
    the building next to which Neptune is standing (in the grotto)")."""
    if not house_in_grotto(s, r, h):
        return False
    if r[P_ADVANCED] == 0:
        return True
    return s[S_PHASE] == PHASE_RAISING and h == s[S_GROTTO_SPACE]


@kernel
def grotto_has_house(s, r):
    if r[P_ADVANCED] == 1:
        g = s[S_GROTTO_SPACE]
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
    if street_available(s) and any_street_spot(s, r):
        return True
    return s[S_HOUSE_RAISED] == 0 and grotto_has_house(s, r) and any_house_spot(s, r)


@kernel
def raising_owed(s, r):
    """Must more pieces be raised before the turn ends? "Exactly as many pieces must be placed
    as the card indicates", but "while streets are missing, the action ... is not a mandatory
    action" (seed 000, "The Streets Run Out"), and fewer are placed only when no legal spot is
    left (GAME-DATA ruling)."""
    if (
        r[P_INTERLEAVE] == 0
        and s[S_BLOCKS_BEGUN] & (1 << BLOCK_BUILD)
        and (s[S_ACTION_BLOCK] != BLOCK_BUILD)
    ):
        # interleave=False: the raising action, once left (when nothing was owed), is over
        return False
    return s[S_RAISE_LEFT] > 0 and street_available(s) and can_build_any(s, r)


@kernel
def list_street_spots(s, r, x, o):
    """Write every legal street spot as pairs (a, b or -1) into x[o:]; return the count."""
    n = 0
    for k in range(r[P_N_SPOTS]):
        if spot_free(s, r, k):
            x[o + 2 * n] = r[R_SPOTS + 2 * k]
            x[o + 2 * n + 1] = r[R_SPOTS + 2 * k + 1]
            n += 1
    return n


@kernel
def list_house_squares(s, r, x, o):
    """Write every square a house may appear on into x[o:]; return the count."""
    n = 0
    for k in range(r[P_N_HOUSE_SQ]):
        q = r[R_HOUSE_SQ + k]
        if house_spot_ok(s, r, q):
            x[o + n] = q
            n += 1
    return n


@kernel
def can_place_now(s, r):
    return (
        s[S_CARD] >= 0
        and s[S_SPIRIT_ACTIVE] == 0
        and s[S_RAISE_LEFT] > 0
        and block_ok(s, r, BLOCK_BUILD)
        and can_build_any(s, r)
    )


@kernel
def do_street(s, r, tr, a, b):
    """Raise a street on squares a, b: "taking the top street from the stack"."""
    if not (
        s[S_CARD] >= 0
        and s[S_SPIRIT_ACTIVE] == 0
        and s[S_RAISE_LEFT] > 0
        and block_ok(s, r, BLOCK_BUILD)
        and street_available(s)
        and street_spot_ok(s, r, a, b)
    ):
        return ERR_ILLEGAL
    slot = -1
    for k in range(r[P_TOTAL_STREETS]):
        if psq(s, k, 0) < 0:
            slot = k
            break
    if slot < 0:
        return ERR_ILLEGAL
    enter_block(s, BLOCK_BUILD)
    d = s[S_DRAW_SPACE]
    s[O_STACKS + d] -= 1
    s[O_PIECE_SQUARES + 2 * slot] = a
    s[O_SQUARE_PIECE + a] = slot
    if b >= 0:
        s[O_PIECE_SQUARES + 2 * slot + 1] = b
        s[O_SQUARE_PIECE + b] = slot
    s[S_RAISE_LEFT] -= 1
    s[S_STREETS_PLACED] += 1
    record(tr, s, A_STREET, a, b, d, slot)
    emptied = s[O_STACKS + d] == 0
    settle_draw_space(s, r, tr)
    if emptied and r[P_ADVANCED] == 1:
        # seed 001: "Switch to Sinking Phase immediately when the last street from the
        # current street space is used"
        begin_sinking(s, r, tr)
    return 0


@kernel
def do_house(s, r, tr, h, q):
    """Raise house h, "taking any house from the grotto", on square q: "only one house can
    appear per turn"."""
    if not (
        s[S_CARD] >= 0
        and s[S_SPIRIT_ACTIVE] == 0
        and s[S_RAISE_LEFT] > 0
        and s[S_HOUSE_RAISED] == 0
        and 1 <= h <= 10
        and block_ok(s, r, BLOCK_BUILD)
        and house_raisable(s, r, h)
        and house_spot_ok(s, r, q)
    ):
        return ERR_ILLEGAL
    enter_block(s, BLOCK_BUILD)
    slot = HOUSE_BASE + h - 1
    s[O_PIECE_SQUARES + 2 * slot] = q
    s[O_SQUARE_PIECE + q] = slot
    mark_house(s, q, 1)
    s[S_RAISE_LEFT] -= 1
    s[S_HOUSE_RAISED] = 1
    s[S_HOUSES_PLACED] += 1
    record(tr, s, A_HOUSE, h, q)
    return 0


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


# ---------------------------------------------------------------------------------------
# The water spirit (seed 000, "Move the Water Spirit", "Streets and Houses Submerge",
# "Adventurers Must Return to Their Village")


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


# ---------------------------------------------------------------------------------------
# The advanced game's phases (seed 001, "Turn Sequence (Advanced Game)", "Details (Advanced
# Game)", "Timing, Game End (Advanced Game)")


@kernel
def begin_sinking(s, r, tr):
    """Switch to the sinking phase: "unused Building Points immediately become Neptune
    Movement Points"; "Neptune immediately appears at the building of the grotto space he is
    located in; if that building has not been raised, he appears at the highest numbered
    raised building" (ruling: with no house on the lake he stays in the grotto, isolated)."""
    pts = s[S_RAISE_LEFT]
    s[S_PHASE] = PHASE_SINKING
    s[S_SPIRIT_STEPS_LEFT] = pts
    s[S_RAISE_LEFT] = 0
    s[S_RAISE_TO_SPIRIT_POINTS] += pts
    s[S_GROTTO_MOVE_ALLOWED] = 0
    s[S_SINKING_PHASES] += 1
    g = s[S_GROTTO_SPACE]
    slot = -1
    if 1 <= g <= 10 and psq(s, HOUSE_BASE + g - 1, 0) >= 0:
        slot = HOUSE_BASE + g - 1
    else:
        for h in range(N_HOUSES, 0, -1):
            if psq(s, HOUSE_BASE + h - 1, 0) >= 0:
                slot = HOUSE_BASE + h - 1
                break
    if slot >= 0:
        s[S_SPIRIT_SLOT] = slot
        s[S_GROTTO_SPACE] = 0
    else:
        s[S_SINKING_WITHOUT_HOUSE] += 1
    record(tr, s, A_PHASE, PHASE_SINKING, pts, s[S_SPIRIT_SLOT], s[S_GROTTO_SPACE])


@kernel
def end_sinking(s, r, tr):
    """Back to the raising phase ("when Neptune is returned to a grotto space"): "unused
    Neptune Movement Points immediately become Building Points". After the last sinking
    phase (the hourglass shows) the end condition is met: "game ends when this Phase is
    over", at the end of the round."""
    pts = s[S_SPIRIT_STEPS_LEFT]
    s[S_PHASE] = PHASE_RAISING
    s[S_RAISE_LEFT] = pts
    s[S_SPIRIT_STEPS_LEFT] = 0
    s[S_SPIRIT_TO_RAISE_POINTS] += pts
    if s[S_HOURGLASS] == 1 and s[S_END_REASON] < 0:
        s[S_END_REASON] = END_HOURGLASS
    record(tr, s, A_PHASE, PHASE_RAISING, pts, s[S_SPIRIT_SLOT], s[S_GROTTO_SPACE])


@kernel(inline="always")
def own_turn_in_phase(s, r, seat, phase):
    """Advanced game: the seat's turn, its card played, in phase `phase`."""
    return r[P_ADVANCED] == 1 and seat == s[S_SEAT] and s[S_CARD] >= 0 and s[S_PHASE] == phase


@kernel(inline="always")
def sinking_points_owed(s, r, seat):
    """The seat's turn in a sinking phase, with spirit points still to spend."""
    return own_turn_in_phase(s, r, seat, PHASE_SINKING) and s[S_SPIRIT_STEPS_LEFT] > 0


@kernel
def can_sink_step_now(s, r, seat, x):
    return sinking_points_owed(s, r, seat) and spirit_targets(s, x, X_NEIGHBOURS) > 0


@kernel
def do_sink_step(s, r, tr, seat, to, x):
    """Sinking phase: move the spirit one piece for one spirit point ("Same as player
    movement", "Use 1 Neptune Movement Point per space"); the piece it leaves sinks."""
    if not can_sink_step_now(s, r, seat, x):
        return ERR_ILLEGAL
    if not spirit_can_reach(s, x, to):
        return ERR_ILLEGAL
    frm = s[S_SPIRIT_SLOT]
    s[S_SPIRIT_SLOT] = to
    s[S_SPIRIT_STEPS_LEFT] -= 1
    s[S_SINK_STEPS] += 1
    if s[S_SPIRIT_STEPS_TAKEN] == 0:
        # a turn's sinking steps count as one spirit move of the seat
        s[S_SPIRIT_MOVES] += 1
        count(s, seat, C_SPIRIT_MOVES)
    s[S_SPIRIT_STEPS_TAKEN] += 1
    record(tr, s, A_SINK_STEP, frm, to, s[S_SPIRIT_STEPS_LEFT])
    sink_piece(s, r, tr, frm, seat, to)
    return 0


@kernel(inline="always")
def grotto_ok(r, g):
    """A grotto space the spirit may be sent to: one whose house is in play (ruling: the
    'short' game has no house 1, so no grotto space 1)."""
    return 1 <= g <= N_HOUSES and house_in_play(r, g)


@kernel
def can_banish_now(s, r, seat, x):
    return sinking_points_owed(s, r, seat) and spirit_targets(s, x, X_NEIGHBOURS) == 0


@kernel
def do_banish(s, r, tr, seat, g, x):
    """ "If Neptune becomes isolated (cannot move) and has Neptune Movement Point(s) left:
    Spend 1 Neptune Movement Point to banish Neptune to any grotto space. Sinking Phase ends;
    begin a new Raising Phase." The piece he stood on sinks ("including when he is
    banished")."""
    if not can_banish_now(s, r, seat, x) or not grotto_ok(r, g):
        return ERR_ILLEGAL
    frm = s[S_SPIRIT_SLOT]
    s[S_SPIRIT_STEPS_LEFT] -= 1
    s[S_BANISHMENTS] += 1
    record(tr, s, A_BANISH, frm, g, s[S_SPIRIT_STEPS_LEFT])
    s[S_SPIRIT_SLOT] = -1
    s[S_GROTTO_SPACE] = g
    if frm >= 0:
        sink_piece(s, r, tr, frm, seat, -2)
    end_sinking(s, r, tr)
    return 0


@kernel
def can_grotto_now(s, r, seat):
    return own_turn_in_phase(s, r, seat, PHASE_RAISING) and s[S_GROTTO_MOVE_ALLOWED] == 1


@kernel
def do_grotto(s, r, tr, seat, g):
    """Raising phase, after entering the house of the spirit's grotto space: "you may move
    Neptune to a different grotto space"."""
    if not can_grotto_now(s, r, seat) or not grotto_ok(r, g) or g == s[S_GROTTO_SPACE]:
        return ERR_ILLEGAL
    record(tr, s, A_GROTTO, s[S_GROTTO_SPACE], g)
    s[S_GROTTO_SPACE] = g
    s[S_GROTTO_MOVE_ALLOWED] = 0
    s[S_GROTTO_MOVES] += 1
    return 0


# ---------------------------------------------------------------------------------------
# Cards, turns, the end (seed 000, "Playing a Movement Card", "A Turn Ends", "End of Game")


@kernel
def do_card(s, r, tr, seat, card):
    """Play a card from the hand. "Played cards remain face up ... until they have no cards
    left in hand. Only then does the player take all the cards back"."""
    if seat != s[S_SEAT] or s[S_CARD] >= 0 or s[S_GAME_OVER] == 1:
        return ERR_ILLEGAL
    if card < 0 or card >= r[P_N_CARDS] or (s[O_HAND + seat] & (1 << card)) == 0:
        return ERR_ILLEGAL
    s[O_HAND + seat] &= ~(1 << card)
    if s[O_HAND + seat] == 0:
        s[O_HAND + seat] = (1 << r[P_N_CARDS]) - 1
    s[S_CARD] = card
    s[S_RAISE_LEFT] = card_value(r, card, 0)
    s[S_MOVE_LEFT] = card_value(r, card, 1)
    s[S_GROTTO_MOVE_ALLOWED] = 0
    if sinking(s, r):
        # seed 001: "Top Number ... in the Sinking Phase, Neptune Movement Points"
        s[S_SPIRIT_STEPS_LEFT] = s[S_RAISE_LEFT]
        s[S_RAISE_LEFT] = 0
    s[S_HOUSE_RAISED] = 0
    s[S_CHIP_USED] = 0
    s[S_SPIRIT_BEGUN] = 0
    s[S_SPIRIT_ACTIVE] = 0
    s[S_SPIRIT_ROLL] = -1
    s[S_ACTION_BLOCK] = BLOCK_NONE
    s[S_BLOCKS_BEGUN] = 0
    s[S_SPIRIT_STEPS_TAKEN] = 0
    record(
        tr, s, A_CARD, card, card_value(r, card, 0), card_value(r, card, 1), card_value(r, card, 2)
    )
    return 0


@kernel
def can_end_now(s, r):
    """The turn may end once the mandatory raising is done, or cannot be done."""
    if s[S_CARD] < 0 or s[S_SPIRIT_ACTIVE] == 1:
        return False
    if sinking(s, r) and s[S_SPIRIT_STEPS_LEFT] > 0:
        return False  # seed 001: Neptune "must use all points on played Action Card"
    return not raising_owed(s, r)


# Kinds of action (bits of turn_options); the last three are the advanced game's.
K_PLACE, K_STEP, K_CHIP, K_SPIRIT, K_END, K_SINK, K_BANISH, K_GROTTO = 0, 1, 2, 3, 4, 5, 6, 7
N_KINDS = 8


@kernel
def turn_options(s, r, seat, x):
    """Bitmask (1 << K_*) of the kinds of action legal now, with can_build_any evaluated once:
    the same answers as can_place_now, can_step_now, can_chip_now, can_spirit_now and
    can_end_now."""
    if s[S_CARD] < 0 or s[S_SPIRIT_ACTIVE] == 1:
        return 0
    m = 0
    build_any = s[S_RAISE_LEFT] > 0 and can_build_any(s, r)
    owed = build_any and street_available(s)
    if (
        r[P_INTERLEAVE] == 0
        and s[S_BLOCKS_BEGUN] & (1 << BLOCK_BUILD)
        and (s[S_ACTION_BLOCK] != BLOCK_BUILD)
    ):
        owed = False
    if build_any and block_ok(s, r, BLOCK_BUILD):
        m |= 1 << K_PLACE
    if (
        s[S_MOVE_LEFT] > 0
        and block_ok(s, r, BLOCK_MOVE)
        and step_targets(s, r, seat, x, X_NEIGHBOURS) > 0
    ):
        m |= 1 << K_STEP
    if can_chip_now(s, r, seat):
        m |= 1 << K_CHIP
    if can_spirit_now(s, r, seat, x):
        m |= 1 << K_SPIRIT
    if r[P_ADVANCED] == 1:
        if s[S_PHASE] == PHASE_SINKING and s[S_SPIRIT_STEPS_LEFT] > 0:
            owed = True
            if spirit_targets(s, x, X_NEIGHBOURS) > 0:
                m |= 1 << K_SINK
            else:
                m |= 1 << K_BANISH
        if can_grotto_now(s, r, seat):
            m |= 1 << K_GROTTO
    if not owed:
        m |= 1 << K_END
    return m


@kernel
def do_end_turn(s, r, tr):
    """End the turn; "afterward it is their left-hand neighbor's turn". After the last seat
    of a round in which an end condition occurred, the game is over ("a round already in
    progress is still played to the end")."""
    if not can_end_now(s, r):
        return ERR_ILLEGAL
    if s[S_RAISE_LEFT] > 0 and not street_available(s):
        s[S_STARVED_TURNS] += 1
    record(tr, s, A_END_TURN, s[S_RAISE_LEFT], s[S_MOVE_LEFT])
    s[S_CARD] = -1
    s[S_RAISE_LEFT] = 0
    s[S_MOVE_LEFT] = 0
    s[S_GROTTO_MOVE_ALLOWED] = 0
    seat = s[S_SEAT] + 1
    s[S_TURN] += 1
    if seat == r[P_PLAYERS]:
        seat = 0
        s[S_ROUND] += 1
        if s[S_END_REASON] >= 0:
            s[S_GAME_OVER] = 1
        elif s[S_ROUND] >= r[P_MAX_ROUNDS]:
            s[S_END_REASON] = END_ROUND_LIMIT
            s[S_GAME_OVER] = 1
    s[S_SEAT] = seat
    return 0


@kernel
def scores(s, r, score, tiebreak):
    """Fill score[seat], tiebreak[seat]. 'count': "whoever has the most treasures in their
    village", tie-break "the values of the treasures in the village are added up"; 'value'
    (seed 001): the sum only."""
    for seat in range(r[P_PLAYERS]):
        cnt = 0
        val = 0
        for t in range(N_TREASURES):
            if treasure(s, seat, t) == BANKED:
                cnt += 1
                val += treasure_value(t)
        if r[P_SCORING] == 0:
            score[seat] = cnt
            tiebreak[seat] = val
        else:
            score[seat] = val
            tiebreak[seat] = 0


@kernel
def winners(r, score, tiebreak):
    """(winner seat or -1 for a shared win, bitmask of the seats sharing first place)."""
    players = r[P_PLAYERS]
    best = 0
    for seat in range(1, players):
        if score[seat] > score[best] or (
            score[seat] == score[best] and tiebreak[seat] > tiebreak[best]
        ):
            best = seat
    mask = 0
    n = 0
    for seat in range(players):
        if score[seat] == score[best] and tiebreak[seat] == tiebreak[best]:
            mask |= 1 << seat
            n += 1
    return (best if n == 1 else -1), mask


# ---------------------------------------------------------------------------------------
# Checked mode


@kernel
def check_invariants(s, r):
    """Return 0 when every invariant holds, else the ERR_* code of the first one broken."""
    players = r[P_PLAYERS]
    total = r[P_TOTAL_STREETS]
    # 30 streets conserved over board, stacks and box
    on_board = 0
    for k in range(MAX_STREETS):
        if psq(s, k, 0) >= 0:
            if k >= total:
                return ERR_STREETS
            on_board += 1
    stacked = 0
    for k in range(N_SPACES):
        if s[O_STACKS + k] < 0:
            return ERR_STREETS
        stacked += s[O_STACKS + k]
    if s[S_STREETS_IN_BOX] < 0 or on_board + stacked + s[S_STREETS_IN_BOX] != total:
        return ERR_STREETS
    # squares and pieces agree
    for q in range(N_SQUARES):
        p = s[O_SQUARE_PIECE + q]
        if p == WATER:
            continue
        if p < 0 or p >= N_SLOTS or not covers(s, p, q):
            return ERR_BOARD
    for p in range(N_SLOTS):
        a = psq(s, p, 0)
        b = psq(s, p, 1)
        if a < 0:
            if b >= 0:
                return ERR_BOARD
            continue
        if s[O_SQUARE_PIECE + a] != p or (b >= 0 and s[O_SQUARE_PIECE + b] != p):
            return ERR_BOARD
        if p < HOUSE_BASE:
            # streets never on the centre; two squares sharing an edge
            if r[R_KIND + a] == CENTRE or (b >= 0 and r[R_KIND + b] == CENTRE):
                return ERR_SQUARE
            if r[P_STREET_SQUARES] == 2:
                adj = False
                for j in range(4):
                    if b >= 0 and ORTH[a, j] == b:
                        adj = True
                if not adj:
                    return ERR_BOARD
            elif b >= 0:
                return ERR_BOARD
        else:
            # each house once (a slot has one square), only dark squares, never touching
            if b >= 0:
                return ERR_BOARD
            if r[R_KIND + a] == LIGHT:
                return ERR_SQUARE
            if not house_in_play(r, house_number(p)):
                return ERR_HOUSE
            for j in range(8):
                nq = RING[a, j]
                if nq >= 0 and s[O_SQUARE_PIECE + nq] >= HOUSE_BASE:
                    return ERR_TOUCH
    # the nearby-house counts match the houses on the lake
    for q in range(N_SQUARES):
        n = 1 if s[O_SQUARE_PIECE + q] >= HOUSE_BASE else 0
        for j in range(8):
            nq = RING[q, j]
            if nq >= 0 and s[O_SQUARE_PIECE + nq] >= HOUSE_BASE:
                n += 1
        if s[O_NEAR_HOUSES + q] != n:
            return ERR_BOARD
    # adventurers only on pieces or in their villages
    for seat in range(players):
        pos = s[O_ADVENTURER_SLOT + seat]
        if pos != VILLAGE and (pos < 0 or pos >= N_SLOTS or psq(s, pos, 0) < 0):
            return ERR_ADV
    # each player's 11 treasures: one valid state each; OUT only when not in play; nothing
    # carried while the adventurer is in its village
    for seat in range(players):
        for t in range(N_TREASURES):
            v = treasure(s, seat, t)
            if v < HOUSE_SIDE or v > OUT:
                return ERR_TREASURE
            should_be_out = t == 0 and r[P_USE_HOUSE_1] == 0
            if (v == OUT) != should_be_out:
                return ERR_TREASURE
            if v == CARRIED and s[O_ADVENTURER_SLOT + seat] == VILLAGE:
                return ERR_TREASURE
    # chips conserved
    held = 0
    for seat in range(players):
        if s[O_CHIPS + seat] < 0:
            return ERR_CHIPS
        held += s[O_CHIPS + seat]
    if s[S_CHIP_SUPPLY] < 0 or held + s[S_CHIP_SUPPLY] != r[P_CHIP_SUPPLY]:
        return ERR_CHIPS
    # the spirit stands on a piece (advanced game: or waits in a grotto space)
    sp = s[S_SPIRIT_SLOT]
    if r[P_ADVANCED] == 1:
        ph = s[S_PHASE]
        if ph != PHASE_RAISING and ph != PHASE_SINKING:
            return ERR_PHASE
        if sp < 0:
            if sp != -1 or not grotto_ok(r, s[S_GROTTO_SPACE]):
                return ERR_SPIRIT
        elif s[S_GROTTO_SPACE] != 0:
            return ERR_SPIRIT
        if ph == PHASE_RAISING:
            # raising: the spirit is in the grotto, no spirit points in play
            if sp >= 0 or s[S_SPIRIT_STEPS_LEFT] != 0:
                return ERR_PHASE
        elif s[S_RAISE_LEFT] != 0 or s[S_GROTTO_MOVE_ALLOWED] != 0:
            # sinking: nothing is raised
            return ERR_PHASE
        if s[S_SPIRIT_ACTIVE] != 0:
            return ERR_PHASE
        if s[S_GROTTO_MOVE_ALLOWED] == 1 and s[S_CARD] < 0:
            return ERR_PHASE
    elif s[S_PHASE] != 0 or s[S_GROTTO_SPACE] != 0 or s[S_GROTTO_MOVE_ALLOWED] != 0:
        return ERR_PHASE
    if sp >= 0 and (sp >= N_SLOTS or psq(s, sp, 0) < 0):
        return ERR_SPIRIT
    if sp < 0 and r[P_ADVANCED] == 0:
        return ERR_SPIRIT
    if s[S_DRAW_SPACE] < 0 or s[S_DRAW_SPACE] >= N_SPACES:
        return ERR_COUNTS
    if s[S_RAISE_LEFT] < 0 or s[S_MOVE_LEFT] < 0 or s[S_SPIRIT_STEPS_LEFT] < 0:
        return ERR_COUNTS
    for seat in range(players):
        if s[O_HAND + seat] == 0:
            return ERR_COUNTS
    return 0
