"""Sunken City rules as compiled kernels, part 1: error codes, accessors of the flat state,
the trace records, setup, the street stacks, the pieces' connections, the advanced game's phase
switches, scores and winners.

The rules are split over the engine modules in one import direction: engine.py (this module)
-> engine_raising.py (action blocks, raising streets and houses) -> engine_moves.py (the
adventurer and the chips) -> engine_spirit.py (the water spirit, sinking, sending home) ->
engine_advanced.py (the advanced game's sinking phase, banishment, grotto moves) ->
engine_turn.py (cards, the kinds of action open, the end of a turn) -> engine_invariants.py
(checked mode). No policy logic lives in any of them. Every ``do_*`` function checks the
legality of its action and returns 0, or ERR_ILLEGAL without changing anything, so every player
(random or heuristic) goes through the same legal-action path. Quotes are from seed 000 (the
publisher's rulebook) unless they say otherwise; rulings are from ../shared/GAME-DATA.md
(docs/rules-sunken-city.md).

Arguments: s = flat state (int64, layout in state.py), r = packed rules (int64, rules.py),
tr = trace buffer (int32, state.py), x = scratch (int64, state.py), rng = uint64[1].
"""

from __future__ import annotations

from simcore.frame.jit import kernel
from simcore.frame.skeleton import winners_by_score
from simcore.frame.tracebuf import trace_kernels
from simcore.games.sunken_city import board as B
from simcore.games.sunken_city import rules as R
from simcore.games.sunken_city import state as S

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
    return s[S.O_SQUARE_PIECE + q]


@kernel(inline="always")
def psq(s, slot, k):
    return s[S.O_PIECE_SQUARES + 2 * slot + k]


@kernel(inline="always")
def treasure(s, seat, t):
    return s[S.O_TREASURE + seat * R.N_TREASURES + t]


@kernel(inline="always")
def set_treasure(s, seat, t, v):
    s[S.O_TREASURE + seat * R.N_TREASURES + t] = v


@kernel(inline="always")
def count(s, seat, c, n=1):
    s[S.O_COUNTERS + seat * S.N_COUNTERS + c] += n


@kernel(inline="always")
def card_value(r, card, j):
    """Card `card`: j = 0 pieces raised, 1 movement points, 2 spirit icon."""
    return r[R.R_CARDS + 3 * card + j]


@kernel(inline="always")
def is_house(slot):
    return slot >= S.HOUSE_BASE


@kernel(inline="always")
def house_number(slot):
    return slot - S.HOUSE_BASE + 1


@kernel(inline="always")
def house_in_play(r, h):
    """House h (1..10) is used: all but house 1 in the 'short' variant."""
    return h != 1 or r[R.P_USE_HOUSE_1] == 1


@kernel(inline="always")
def treasure_value(t):
    """Points of treasure index t: 1..10, and 12 for the chest."""
    return 12 if t == S.CHEST else t + 1


@kernel(inline="always")
def advanced(r):
    return r[R.P_ADVANCED] == 1


@kernel(inline="always")
def sinking(s, r):
    """The advanced game is in its sinking phase (pieces only sink)."""
    return r[R.P_ADVANCED] == 1 and s[S.S_PHASE] == S.PHASE_SINKING


@kernel(inline="always")
def covers(s, slot, q):
    return psq(s, slot, 0) == q or psq(s, slot, 1) == q


@kernel
def mark_house(s, q, d):
    """A house appears (d = 1) or sinks (d = -1) on square q: update the nearby-house counts
    of q and the 8 squares around it."""
    s[S.O_NEAR_HOUSES + q] += d
    for j in range(8):
        nq = B.RING[q, j]
        if nq >= 0:
            s[S.O_NEAR_HOUSES + nq] += d


@kernel
def recount_near(s):
    """Recompute every nearby-house count from the houses on the lake."""
    for q in range(B.N_SQUARES):
        s[S.O_NEAR_HOUSES + q] = 0
    for h in range(R.N_HOUSES):
        q = psq(s, S.HOUSE_BASE + h, 0)
        if q >= 0:
            mark_house(s, q, 1)


# ---------------------------------------------------------------------------------------
# Trace recording


record, snapshot = trace_kernels(__name__, S.ACTION_WIDTH, S.S_TURN, S.S_SEAT, S.STATE_SIZE)


# ---------------------------------------------------------------------------------------
# Setup (seed 000, "Setup")


@kernel
def setup(s, r, tr):
    """Fill s with the starting position for r (players, streets, houses, spirit, hands)."""
    players = r[R.P_PLAYERS]
    s[:] = 0
    for q in range(B.N_SQUARES):
        s[S.O_SQUARE_PIECE + q] = S.WATER
    for k in range(2 * S.N_SLOTS):
        s[S.O_PIECE_SQUARES + k] = -1
    full_hand = (1 << r[R.P_N_CARDS]) - 1
    for seat in range(R.MAX_PLAYERS):
        s[S.O_ADVENTURER_SLOT + seat] = S.VILLAGE  # "The adventurer is placed in their village."
        for t in range(R.N_TREASURES):
            # "The treasures are placed on the adventurer board with the house side face up"
            set_treasure(s, seat, t, S.HOUSE_SIDE if seat < players else S.OUT)
        if seat < players:
            s[S.O_HAND + seat] = full_hand  # "Each player takes their movement cards"
            if r[R.P_USE_HOUSE_1] == 0:
                set_treasure(s, seat, 0, S.OUT)  # 'short': treasure 1 is not used
    # "On street space 1, place 20/23/26 streets ... one street ... on each of street spaces
    # 2 to 5. Space 6 remains empty. Any remaining streets go back into the box."
    s[S.O_STACKS] = r[R.P_STREETS1]
    for k in range(1, 5):
        s[S.O_STACKS + k] = r[R.P_FACEDOWN]
    s[S.S_STREETS_IN_BOX] = r[R.P_TOTAL_STREETS] - r[R.P_STREETS1] - 4 * r[R.P_FACEDOWN]
    s[S.S_CHIP_SUPPLY] = r[R.P_CHIP_SUPPLY]  # "The 8 water spirit chips are placed ready"
    for seat in range(players):  # compensation (seat_chips): chips from the supply
        s[S.O_CHIPS + seat] = r[R.R_SEAT_CHIPS + seat]
        s[S.S_CHIP_SUPPLY] -= r[R.R_SEAT_CHIPS + seat]
    if r[R.P_ADVANCED] == 1:
        # seed 001: "Place all 10 numbered buildings in their grotto spaces ... Place Neptune
        # next to building 10; he is also considered to be in grotto space 10"; "Game starts
        # in Raising Phase"
        s[S.S_SPIRIT_SLOT] = -1
        s[S.S_GROTTO_SPACE] = 10
        s[S.S_PHASE] = S.PHASE_RAISING
    else:
        # "House 10 is placed on the space in the middle ... The water spirit is placed on
        # house 10."
        centre = r[R.P_CENTRE]
        slot = S.HOUSE_BASE + 9
        s[S.O_PIECE_SQUARES + 2 * slot] = centre
        s[S.O_SQUARE_PIECE + centre] = slot
        mark_house(s, centre, 1)
        s[S.S_SPIRIT_SLOT] = slot
    s[S.S_END_REASON] = -1
    s[S.S_CARD] = -1
    s[S.S_SPIRIT_ROLL] = -1
    settle_draw_space(s, r, tr)  # a setup with an empty space 1 turns the next one up


# ---------------------------------------------------------------------------------------
# Street stacks (seed 000, "End of Game")


@kernel(inline="always")
def street_available(s):
    """A street can be drawn from the face-up stack."""
    return s[S.O_STACKS + s[S.S_DRAW_SPACE]] > 0


@kernel(inline="always")
def discard_space(s):
    """Street space (0-based) sunk streets go onto: the one after the draw stack; after the
    hourglass space 6 serves both ("likewise place submerging streets on space 6")."""
    d = s[S.S_DRAW_SPACE]
    return d + 1 if d < R.N_SPACES - 1 else R.N_SPACES - 1


@kernel
def settle_draw_space(s, r, tr):
    """ "Once the stack ... is used up, the stack of submerged streets is immediately turned
    face up ... even in the middle of a player's turn." When space 5 is used up the hourglass
    shows and space 6 serves the rest of the round; an empty space 6 means the streets have
    run out until some submerge."""
    while s[S.O_STACKS + s[S.S_DRAW_SPACE]] == 0:
        d = s[S.S_DRAW_SPACE]
        if d == R.N_SPACES - 1:
            return
        s[S.S_DRAW_SPACE] = d + 1
        if d == R.N_SPACES - 2:
            if s[S.S_HOURGLASS] == 0:
                s[S.S_HOURGLASS] = 1
                # seed 001: "the last Sinking Phase begins; game ends when this Phase is
                # over" (end_sinking sets the end there)
                if s[S.S_END_REASON] < 0 and r[R.P_ADVANCED] == 0:
                    s[S.S_END_REASON] = S.END_HOURGLASS
                record(tr, s, S.A_HOURGLASS)
            record(tr, s, S.A_STACK_TURN, d + 1)
            return
        record(tr, s, S.A_STACK_TURN, d + 1)


# ---------------------------------------------------------------------------------------
# Pieces and connections


@kernel(inline="always")
def piece_beside(s, q, j, slot):
    """The piece on the square beside square q in direction j (board.ORTH), or WATER when
    there is none: off the lake, open water, or `slot` itself (not beside itself)."""
    nq = B.ORTH[q, j]
    if nq < 0:
        return S.WATER
    other = s[S.O_SQUARE_PIECE + nq]
    return S.WATER if other == slot else other


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
            other = piece_beside(s, q, j, slot)
            if other == S.WATER:
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
        if q >= 0 and r[R.R_OWNER + q] >= 0:
            o = r[R.R_OWNER + q]
    return o


# ---------------------------------------------------------------------------------------
# The advanced game's phase switches (seed 001, "Turn Sequence (Advanced Game)",
# "Timing, Game End (Advanced Game)")


@kernel
def begin_sinking(s, r, tr):
    """Switch to the sinking phase: "unused Building Points immediately become Neptune
    Movement Points"; "Neptune immediately appears at the building of the grotto space he is
    located in; if that building has not been raised, he appears at the highest numbered
    raised building" (ruling: with no house on the lake he stays in the grotto, isolated)."""
    pts = s[S.S_RAISE_LEFT]
    s[S.S_PHASE] = S.PHASE_SINKING
    s[S.S_SPIRIT_STEPS_LEFT] = pts
    s[S.S_RAISE_LEFT] = 0
    s[S.S_RAISE_TO_SPIRIT_POINTS] += pts
    s[S.S_GROTTO_MOVE_ALLOWED] = 0
    s[S.S_SINKING_PHASES] += 1
    g = s[S.S_GROTTO_SPACE]
    slot = -1
    if 1 <= g <= 10 and psq(s, S.HOUSE_BASE + g - 1, 0) >= 0:
        slot = S.HOUSE_BASE + g - 1
    else:
        for h in range(R.N_HOUSES, 0, -1):
            if psq(s, S.HOUSE_BASE + h - 1, 0) >= 0:
                slot = S.HOUSE_BASE + h - 1
                break
    if slot >= 0:
        s[S.S_SPIRIT_SLOT] = slot
        s[S.S_GROTTO_SPACE] = 0
    else:
        s[S.S_SINKING_WITHOUT_HOUSE] += 1
    record(tr, s, S.A_PHASE, S.PHASE_SINKING, pts, s[S.S_SPIRIT_SLOT], s[S.S_GROTTO_SPACE])


@kernel
def end_sinking(s, r, tr):
    """Back to the raising phase ("when Neptune is returned to a grotto space"): "unused
    Neptune Movement Points immediately become Building Points". After the last sinking
    phase (the hourglass shows) the end condition is met: "game ends when this Phase is
    over", at the end of the round."""
    pts = s[S.S_SPIRIT_STEPS_LEFT]
    s[S.S_PHASE] = S.PHASE_RAISING
    s[S.S_RAISE_LEFT] = pts
    s[S.S_SPIRIT_STEPS_LEFT] = 0
    s[S.S_SPIRIT_TO_RAISE_POINTS] += pts
    if s[S.S_HOURGLASS] == 1 and s[S.S_END_REASON] < 0:
        s[S.S_END_REASON] = S.END_HOURGLASS
    record(tr, s, S.A_PHASE, S.PHASE_RAISING, pts, s[S.S_SPIRIT_SLOT], s[S.S_GROTTO_SPACE])


# ---------------------------------------------------------------------------------------
# Scores and winners (seed 000, "End of Game")


@kernel
def scores(s, r, score, tiebreak):
    """Fill score[seat], tiebreak[seat]. 'count': "whoever has the most treasures in their
    village", tie-break "the values of the treasures in the village are added up"; 'value'
    (seed 001): the sum only. The compensation (seat_points to the score, seat_value to the
    values banked) is added."""
    for seat in range(r[R.P_PLAYERS]):
        cnt = 0
        val = 0
        for t in range(R.N_TREASURES):
            if treasure(s, seat, t) == S.BANKED:
                cnt += 1
                val += treasure_value(t)
        val += r[R.R_SEAT_VALUE + seat]
        if r[R.P_SCORING] == 0:
            score[seat] = cnt + r[R.R_SEAT_POINTS + seat]
            tiebreak[seat] = val
        else:
            score[seat] = val + r[R.R_SEAT_POINTS + seat]
            tiebreak[seat] = 0


@kernel
def winners(s, r, score, tiebreak):
    """(winner seat or -1 for a shared win, bitmask of the seats sharing first place): the
    rulebook's order (simcore.frame.skeleton.winners_by_score: the most treasures, then the
    values, else a shared win); the compensation seat_tiebreak then gives a tie in both to the
    highest tie rank among the tied seats (equal ranks still share it). At the default (every
    rank 0) nothing changes."""
    w, mask = winners_by_score(r[R.P_PLAYERS], score, tiebreak)
    if w >= 0:
        return w, mask
    top = -1
    for seat in range(r[R.P_PLAYERS]):
        if (mask >> seat) & 1 and r[R.R_SEAT_TIE + seat] > top:
            top = r[R.R_SEAT_TIE + seat]
    best = -1
    ranked = 0
    n = 0
    for seat in range(r[R.P_PLAYERS]):
        if (mask >> seat) & 1 and r[R.R_SEAT_TIE + seat] == top:
            ranked |= 1 << seat
            best = seat
            n += 1
    return (best if n == 1 else -1), ranked
