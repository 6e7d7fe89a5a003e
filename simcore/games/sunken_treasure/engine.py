"""Sunken Treasure rules as compiled kernels, part 1: error codes, accessors of the flat
state, the trace records, the decks, setup, the cards an action takes or gives up, the end of a
turn, and scores and winners.

The rules are split over the engine modules in one import direction: engine.py (this module)
-> engine_surface.py (surfacing, the sharks cleared, banking, diving again, stealing) ->
engine_dive.py (searching, a shark attack, Safety cards) and engine_locks.py (claiming
containers, breaking locks, giving up an attempt) -> engine_options.py (a turn's legal options
as codes, applying one) -> engine_invariants.py (checked mode). No policy logic lives in any of
them. Every ``do_*`` function checks the legality of its action and returns 0, or ERR_ILLEGAL
without changing anything, so every player (random or heuristic) goes through the same
legal-action path. Every turn action completes the turn (seed 004: "You may not pass on any
turn", "Once the card is flipped, your turn is over", "Banking Treasure completes a turn", a
Safety card "completes the turn"); only ``do_abandon`` (giving up a trapped lock or theft) is
free. Quotes are from seed 004; rulings are named rules fields (rules.py,
docs/rules-sunken-treasure.md).

Arguments: s = flat state (int64, layout in state.py), r = packed rules (int64, rules.py),
tr = trace buffer (int32, state.py), x = scratch (int64, state.py), rng = uint64[1].

The legality queries, the draws and the actions most turns take (search, surface, dive, bank)
are compiled with inline="always": a call between kernels passes each array argument as seven
words on the stack, about a quarter of a turn before (docs/performance.md). The heuristic
player calls each action from one place only, so each is compiled inline once there.
"""

from __future__ import annotations

from simcore.frame.jit import kernel
from simcore.frame.rng import rand_below
from simcore.frame.tracebuf import trace_kernels
from simcore.games.sunken_treasure import board as B
from simcore.games.sunken_treasure import rules as R
from simcore.games.sunken_treasure import state as S

# Error codes: 0 = fine. ERR_ILLEGAL is returned by do_* for an illegal action; ERR_TRACE by
# play.py when the trace buffer overflows; the others come from check_invariants (checked
# mode, engine_invariants.py).
ERR_ILLEGAL = 1
ERR_ITEMS = 2  # item cards not conserved over deck, discard, hands, locks and the sharks row
ERR_ATTEMPTS = 3  # attempt cards not conserved over deck, discard and the attempt stacks
ERR_TREASURES = 4  # treasure cards not conserved over deck, discard, carried and banked
ERR_SEAT = 5  # a seat's cards contradict its side of the Diver card
ERR_STACK = 6  # an attempt stack that cannot happen (two Cracked, an Open left lying, ...)
ERR_SHARKS = 7  # sharks on the board that should have gone (attack or all up)
ERR_THEFT = 8  # a theft aimed at a surfaced player or by a diver
ERR_TRACE = 9  # the trace buffer overflowed
ERR_NAMES = (
    "ok",
    "illegal action",
    "item cards not conserved",
    "attempt cards not conserved",
    "treasure cards not conserved",
    "seat inconsistent",
    "attempt stack impossible",
    "sharks misplaced",
    "theft inconsistent",
    "trace overflow",
)


# ---------------------------------------------------------------------------------------
# Small accessors (inlined)


@kernel(inline="always")
def fld(seat, f):
    """Index of seat field f in the flat state."""
    return S.O_SEATS + seat * S.SEAT_W + f


@kernel(inline="always")
def count(s, seat, c, n=1):
    s[fld(seat, S.F_CNT + c)] += n


@kernel(inline="always")
def is_up(s, seat):
    return s[fld(seat, S.F_UP)] == 1


@kernel(inline="always")
def hand(s, seat, kind):
    return s[fld(seat, S.F_HAND + kind)]


@kernel(inline="always")
def stack(s, seat, kind):
    return s[fld(seat, S.F_STACK + kind)]


@kernel(inline="always")
def carried_value(s, r, seat):
    """Dollars of the seat's face-up (unbanked) treasure cards (kept up to date)."""
    return s[fld(seat, S.F_CVAL)]


@kernel(inline="always")
def banked_value(s, r, seat):
    """Dollars of the seat's face-down (banked) treasure cards (kept up to date)."""
    return s[fld(seat, S.F_BVAL)]


@kernel(inline="always")
def head_start(r, seat):
    """Dollars the seat started with banked (compensation, seat_thousands; 0 by the rules)."""
    return r[R.R_SEAT_DOLLARS + seat]


@kernel(inline="always")
def n_banked(s, r, seat):
    """How many treasure cards the seat has banked (kept up to date)."""
    return s[fld(seat, S.F_NBANK)]


@kernel
def recount_totals(s, r, seat):
    """(carried dollars, banked dollars, carried cards, banked cards) of the seat, counted
    from its treasure cards."""
    cv = 0
    bv = 0
    nc = 0
    nb = 0
    b = S.O_SEATS + seat * S.SEAT_W
    for k in range(r[R.P_N_TKINDS]):
        cv += s[b + S.F_CARRIED + k] * r[R.R_TVALUE + k]
        bv += s[b + S.F_BANKED + k] * r[R.R_TVALUE + k]
        nc += s[b + S.F_CARRIED + k]
        nb += s[b + S.F_BANKED + k]
    return cv, bv, nc, nb


@kernel
def recount(s, r, seat):
    """Set the seat's kept totals (F_CVAL, F_BVAL, F_NCAR, F_NBANK) from its treasure cards
    (for a state edited by hand, as the rules tests do)."""
    cv, bv, nc, nb = recount_totals(s, r, seat)
    b = S.O_SEATS + seat * S.SEAT_W
    s[b + S.F_CVAL] = cv
    s[b + S.F_BVAL] = bv
    s[b + S.F_NCAR] = nc
    s[b + S.F_NBANK] = nb
    s[S.S_STANDINGS] += 1


@kernel
def recount_ok(s, r, seat):
    """True when the seat's kept totals equal a recount of its treasure cards."""
    cv, bv, nc, nb = recount_totals(s, r, seat)
    b = S.O_SEATS + seat * S.SEAT_W
    if cv != s[b + S.F_CVAL] or bv != s[b + S.F_BVAL]:
        return False
    return nc == s[b + S.F_NCAR] and nb == s[b + S.F_NBANK]


# ---------------------------------------------------------------------------------------
# Trace


record, snapshot = trace_kernels(
    __name__, S.ACTION_WIDTH, S.S_TURN, S.S_SEAT, S.STATE_SIZE, inline="always"
)


# ---------------------------------------------------------------------------------------
# Decks (seed 004, "Preparation": "Separate and shuffle each of the card decks ... Leave room
# for a discard pile above each deck")


@kernel
def shuffle(s, off, n, rng):
    """Fisher-Yates shuffle of s[off : off + n]."""
    for i in range(n - 1, 0, -1):
        j = rand_below(rng, i + 1)
        t = s[off + i]
        s[off + i] = s[off + j]
        s[off + j] = t


@kernel(inline="always")
def refill(s, tr, rng, deck, disc, n_idx, dn_idx, deck_id):
    """The discard pile, shuffled, becomes the (empty) deck: "the discards are shuffled and
    made into a new pile"."""
    m = s[dn_idx]
    for k in range(m):
        s[deck + k] = s[disc + k]
    s[n_idx] = m
    s[dn_idx] = 0
    shuffle(s, deck, m, rng)
    s[S.S_RESHUFFLES + deck_id] += 1
    record(tr, s, S.A_RESHUFFLE, deck_id, m)


@kernel(inline="always")
def draw(s, r, tr, rng, deck, disc, n_idx, dn_idx, deck_id):
    """The top card of a deck, or -1 when deck and discard are both empty. "When the Attempt
    Cards pile is depleted, the discards are shuffled and made into a new pile" (the same for
    the other decks; rules field `reshuffle`): with "when-depleted" the draw that takes the
    last card shuffles the discards into a new pile at once, before the card drawn or any
    later card is discarded; with "when-needed" an empty deck takes its discards only when the
    next card is drawn. Either way an empty deck whose discards were empty when it ran out
    takes them when a card is next needed."""
    if s[n_idx] == 0:
        if s[dn_idx] == 0:
            return -1
        refill(s, tr, rng, deck, disc, n_idx, dn_idx, deck_id)
    n = s[n_idx] - 1
    s[n_idx] = n
    card = s[deck + n]
    if (n == 0) & (s[dn_idx] > 0) & (r[R.P_RESHUFFLE] == R.RESHUFFLE_WHEN_DEPLETED):
        refill(s, tr, rng, deck, disc, n_idx, dn_idx, deck_id)
    return card


@kernel(inline="always")
def discard(s, disc, dn_idx, card, n=1):
    """Put n cards of one kind on a discard pile."""
    for _ in range(n):
        s[disc + s[dn_idx]] = card
        s[dn_idx] += 1


@kernel(inline="always")
def draw_item(s, r, tr, rng):
    return draw(s, r, tr, rng, S.O_ITEM_DECK, S.O_ITEM_DISC, S.S_ITEM_N, S.S_ITEM_DN, B.ITEM_DECK)


@kernel(inline="always")
def draw_attempt(s, r, tr, rng):
    return draw(s, r, tr, rng, S.O_ATT_DECK, S.O_ATT_DISC, S.S_ATT_N, S.S_ATT_DN, B.ATTEMPT_DECK)


@kernel(inline="always")
def draw_treasure(s, r, tr, rng):
    return draw(s, r, tr, rng, S.O_TRE_DECK, S.O_TRE_DISC, S.S_TRE_N, S.S_TRE_DN, B.TREASURE_DECK)


@kernel(inline="always")
def items_left(s):
    return s[S.S_ITEM_N] + s[S.S_ITEM_DN]


@kernel(inline="always")
def attempts_left(s):
    return s[S.S_ATT_N] + s[S.S_ATT_DN]


# ---------------------------------------------------------------------------------------
# Setup (seed 004, "Preparation")


@kernel(inline="always")
def lay_deck(s, deck, r, counts, kinds):
    """Lay out a deck from s[deck], kind by kind: r[counts + k] cards of each kind k < kinds.
    Return its number of cards."""
    n = 0
    for kind in range(kinds):
        for _ in range(r[counts + kind]):
            s[deck + n] = kind
            n += 1
    return n


@kernel
def setup(s, r, tr, rng):
    """Fill s with the starting position: the three decks shuffled, every player a diver
    ("All players turn their Diver Card to the 'Diver Down' side"), nothing held. The six
    piles are not cleared: every pile is read below its count only, and each pile is written
    up to its count before it is read (the scalars and the seats' blocks are zeroed; a new
    scratch is all zeros, so a traced game's snapshots hold zeros beyond the counts)."""
    for k in range(S.N_SCAL):
        s[k] = 0
    for k in range(S.O_SEATS, S.STATE_SIZE):
        s[k] = 0
    s[S.S_ITEM_N] = lay_deck(s, S.O_ITEM_DECK, r, R.R_ITEM_COUNTS, B.N_ITEM_KINDS)
    # compensation (seat_boxes): Unlocked Boxes from the Item deck before it is shuffled (the
    # laid deck begins with its Unlocked Boxes, the first kind: the rest moves down)
    dealt = 0
    for seat in range(r[R.P_PLAYERS]):
        s[fld(seat, S.F_HAND + B.UNLOCKED_BOX)] = r[R.R_SEAT_BOXES + seat]
        dealt += r[R.R_SEAT_BOXES + seat]
    if dealt > 0:
        s[S.S_ITEM_N] -= dealt
        for i in range(s[S.S_ITEM_N]):
            s[S.O_ITEM_DECK + i] = s[S.O_ITEM_DECK + i + dealt]
    s[S.S_ATT_N] = lay_deck(s, S.O_ATT_DECK, r, R.R_ATTEMPT_COUNTS, B.N_ATTEMPT_KINDS)
    s[S.S_TRE_N] = lay_deck(s, S.O_TRE_DECK, r, R.R_TCOUNT, r[R.P_N_TKINDS])
    shuffle(s, S.O_ITEM_DECK, s[S.S_ITEM_N], rng)
    shuffle(s, S.O_ATT_DECK, s[S.S_ATT_N], rng)
    shuffle(s, S.O_TRE_DECK, s[S.S_TRE_N], rng)
    for seat in range(B.MAX_PLAYERS):
        s[fld(seat, S.F_LOCK)] = -1
        s[fld(seat, S.F_STEAL)] = -1
    s[S.S_END_REASON] = -1
    s[S.S_WINNER] = -1


# ---------------------------------------------------------------------------------------
# The cards an action takes or gives up


@kernel
def take_treasure(s, r, tr, rng, seat, n):
    """The seat takes n Treasure cards face up ("taking and keeping one or more Treasure
    Cards"). When deck and discard are both empty the rest is not paid (ruling; counted)."""
    for _ in range(n):
        t = draw_treasure(s, r, tr, rng)
        if t < 0:
            record(tr, s, S.A_SHORT, 1)
            s[S.S_SHORT] += 1
            continue
        s[fld(seat, S.F_CARRIED + t)] += 1
        s[fld(seat, S.F_CVAL)] += r[R.R_TVALUE + t]
        s[fld(seat, S.F_NCAR)] += 1
        count(s, seat, S.C_CARDS_TAKEN)
        record(tr, s, S.A_TREASURE, t, r[R.R_TVALUE + t], seat)


@kernel
def clear_stack(s, seat):
    """'After an attempt is complete, all the Attempt Cards used are discarded.'"""
    for k in range(B.N_ATTEMPT_KINDS):
        i = fld(seat, S.F_STACK + k)
        discard(s, S.O_ATT_DISC, S.S_ATT_DN, k, s[i])
        s[i] = 0


@kernel
def end_lock(s, seat):
    """The container under attempt and its attempt cards are discarded."""
    c = s[fld(seat, S.F_LOCK)]
    if c >= 0:
        discard(s, S.O_ITEM_DISC, S.S_ITEM_DN, c)
        s[fld(seat, S.F_LOCK)] = -1
    clear_stack(s, seat)


@kernel
def end_theft(s, seat):
    """The theft under attempt ends; its attempt cards are discarded."""
    s[fld(seat, S.F_STEAL)] = -1
    clear_stack(s, seat)


@kernel
def discard_hand(s, r, seat, keep_safety):
    """Discard the item cards held (containers; Safety cards unless keep_safety)."""
    for kind in range(B.N_ITEM_KINDS):
        if kind == B.SAFETY and keep_safety:
            continue
        i = fld(seat, S.F_HAND + kind)
        discard(s, S.O_ITEM_DISC, S.S_ITEM_DN, kind, s[i])
        s[i] = 0


@kernel
def lose_unbanked(s, r, seat):
    """'discard all their cards except any banked treasure': items, the lock or theft with its
    attempt cards, and the face-up treasure. Returns the dollars of treasure lost."""
    discard_hand(s, r, seat, False)
    end_lock(s, seat)
    end_theft(s, seat)
    lost = 0
    for k in range(r[R.P_N_TKINDS]):
        i = fld(seat, S.F_CARRIED + k)
        lost += s[i] * r[R.R_TVALUE + k]
        discard(s, S.O_TRE_DISC, S.S_TRE_DN, k, s[i])
        s[i] = 0
    s[fld(seat, S.F_CVAL)] = 0
    s[fld(seat, S.F_NCAR)] = 0
    count(s, seat, S.C_VALUE_LOST, lost)
    return lost


# ---------------------------------------------------------------------------------------
# Turn order and the end


@kernel
def check_target(s, r, seat):
    """'The game ends when a player has $20,000 or more in treasure banked' (at the end of
    that turn: every action completes the turn, so the game is over when it returns)."""
    if s[S.S_END_REASON] < 0 and banked_value(s, r, seat) + head_start(r, seat) >= r[R.P_TARGET]:
        s[S.S_END_REASON] = S.END_TARGET
        s[S.S_WINNER] = seat
        s[S.S_GAME_OVER] = 1
        s[S.S_STANDINGS] += 1


@kernel
def end_turn(s, r, tr):
    """The seat's turn is over (end_turn_in, called)."""
    end_turn_in(s, r, tr)


@kernel(inline="always")
def end_turn_in(s, r, tr):
    """The seat's turn is over; the next seat plays. One player: the turn limit (ruling).
    The round cap is a safety net the rulebook does not have."""
    record(tr, s, S.A_END_TURN)
    players = r[R.P_PLAYERS]
    s[fld(s[S.S_SEAT], S.F_PLAYED)] = 1
    s[S.S_TURN] += 1
    seat = s[S.S_SEAT] + 1
    if seat == players:
        seat = 0
        s[S.S_ROUND] += 1
    s[S.S_SEAT] = seat
    if s[S.S_END_REASON] >= 0:
        s[S.S_GAME_OVER] = 1
    elif players == 1 and s[S.S_TURN] >= r[R.P_SOLO_TURNS]:
        s[S.S_END_REASON] = S.END_SOLO_LIMIT
        s[S.S_GAME_OVER] = 1
    elif s[S.S_ROUND] >= r[R.P_MAX_ROUNDS]:
        s[S.S_END_REASON] = S.END_ROUND_LIMIT
        s[S.S_GAME_OVER] = 1


@kernel(inline="always")
def turn_done(s, r, tr, err):
    """What the do_* actions return: act_*'s result err, after the end of the turn when it
    succeeded (every action but abandon completes the turn)."""
    if err == 0:
        end_turn(s, r, tr)
    return err


@kernel(inline="always")
def on_turn(s, seat):
    return s[S.S_GAME_OVER] == 0 and s[S.S_SEAT] == seat


@kernel(inline="always")
def diver_may_act(s, seat):
    """A diver past the first play ('On your first play, search for an Item')."""
    return on_turn(s, seat) and not is_up(s, seat) and s[fld(seat, S.F_PLAYED)] == 1


# ---------------------------------------------------------------------------------------
# Scores and winners


@kernel
def scores(s, r, score, tiebreak):
    """score[seat] = dollars banked (with the seat's head start); tiebreak[seat] = dollars
    carried face up."""
    for seat in range(r[R.P_PLAYERS]):
        score[seat] = banked_value(s, r, seat) + head_start(r, seat)
        tiebreak[seat] = carried_value(s, r, seat)


@kernel
def winners(s, r, score, tiebreak):
    """(winner seat or -1, bitmask): the seat that banked the target; nobody otherwise (one
    player past the turn limit, or the round cap). The scores do not decide."""
    w = s[S.S_WINNER]
    if s[S.S_END_REASON] == S.END_TARGET and w >= 0:
        return w, 1 << w
    return -1, 0
