"""Sunken Treasure rules as compiled kernels: setup, decks, legal options, actions, end checks.

No policy logic lives here. Every ``do_*`` function checks the legality of its action and
returns 0, or ERR_ILLEGAL without changing anything, so every player (random or heuristic)
goes through the same legal-action path. Every turn action completes the turn (seed 004: "You
may not pass on any turn", "Once the card is flipped, your turn is over", "Banking Treasure
completes a turn", a Safety card "completes the turn"); only ``do_abandon`` (giving up a
trapped lock or theft) is free. Quotes are from seed 004; rulings are named rules fields
(rules.py, docs/rules-sunken-treasure.md).

Arguments: s = flat state (int64, layout in state.py), r = packed rules (int64, rules.py),
tr = trace buffer (int32, state.py), x = scratch (int64, state.py), rng = uint64[1].

The legality queries, the draws and the actions most turns take (search, surface, dive, bank)
are compiled with inline="always": a call between kernels passes each array argument as seven
words on the stack, about a quarter of a turn before (docs/performance.md). The heuristic
player calls each action from one place only, so each is compiled inline once there.
"""

from __future__ import annotations

import numpy as np

from simcore.jit import kernel
from simcore.rng import rand_below
from simcore.sunken_treasure.board import (
    ATTEMPT_DECK,
    CRACKED,
    FAIL,
    ITEM_DECK,
    JUNK,
    LOCKED_BOX,
    LOCKED_SAFE,
    MAX_ATTEMPTS,
    MAX_ITEMS,
    MAX_PLAYERS,
    MAX_TREASURE_KINDS,
    MAX_TREASURES,
    N_ATTEMPT_KINDS,
    N_CONTAINERS,
    N_ITEM_KINDS,
    NO_EFFECT,
    OPEN,
    SAFETY,
    SHARK,
    TRAPPED,
    TREASURE_DECK,
    UNLOCKED_BOX,
    UNLOCKED_CHEST,
)
from simcore.sunken_treasure.rules import (
    P_ABANDON_NEEDS_TRAP,
    P_BANK_ON_SURFACE,
    P_KEEP_SAFETY,
    P_MAX_ROUNDS,
    P_N_ATTEMPTS,
    P_N_ITEMS,
    P_N_TKINDS,
    P_N_TREASURES,
    P_PLAYERS,
    P_SECOND_CRACKED_FULL,
    P_SHARKS,
    P_SOLO_TURNS,
    P_STEAL_TRAP_DISCARDS,
    P_TARGET,
    R_ATTEMPT_COUNTS,
    R_BAGS,
    R_ITEM_COUNTS,
    R_TCOUNT,
    R_TVALUE,
)
from simcore.sunken_treasure.state import (
    A_ABANDON,
    A_ATTEMPT,
    A_BANK,
    A_CLAIM,
    A_DIVE,
    A_END_TURN,
    A_RESHUFFLE,
    A_SAFETY,
    A_SEARCH,
    A_SHARK_ATTACK,
    A_SHARKS_CLEARED,
    A_SHORT,
    A_SURFACE,
    A_THEFT,
    A_THEFT_ENDED,
    A_TREASURE,
    ACTION_WIDTH,
    C_ABANDONED,
    C_ATTACKED,
    C_BANKS,
    C_CARDS_TAKEN,
    C_LOCKS_FAILED,
    C_OPENED,
    C_ROBBED,
    C_SAFETY,
    C_SURFACED,
    C_THEFTS,
    C_THEFTS_WON,
    C_TRAP_SURFACED,
    C_VALUE_LOST,
    END_ROUND_LIMIT,
    END_SOLO_LIMIT,
    END_TARGET,
    F_BANKED,
    F_BVAL,
    F_CARRIED,
    F_CNT,
    F_CVAL,
    F_HAND,
    F_LOCK,
    F_NBANK,
    F_NCAR,
    F_PLAYED,
    F_STACK,
    F_STEAL,
    F_STEAL_USED,
    F_UP,
    O_ATT_DECK,
    O_ATT_DISC,
    O_FAILED,
    O_GOES_ON,
    O_ITEM_DECK,
    O_ITEM_DISC,
    O_OPENED,
    O_SEATS,
    O_TRAPPED_OUT,
    O_TRE_DECK,
    O_TRE_DISC,
    S_ATT_DN,
    S_ATT_N,
    S_ATTACKS,
    S_END,
    S_ITEM_DN,
    S_ITEM_N,
    S_OVER,
    S_RESHUFFLES,
    S_ROUND,
    S_SAFETY_PLAYED,
    S_SEAT,
    S_SHARKS,
    S_SHARKS_CLEARED,
    S_SHARKS_DRAWN,
    S_SHORT,
    S_TRE_DN,
    S_TRE_N,
    S_TURN,
    S_WINNER,
    SEAT_W,
    STATE_SIZE,
    UP_CHOICE,
    UP_SHARKS,
    UP_TRAP,
)
from simcore.tracebuf import put_record, write_snapshot

# Error codes: 0 = fine. ERR_ILLEGAL is returned by do_* for an illegal action; the others
# come from check_invariants (checked mode).
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

# Option codes of the legal-option lists: kind * 8 + argument.
K_SEARCH = 0  # take an Item card
K_CLAIM = 1  # claim an unlocked container (argument: UNLOCKED_BOX / UNLOCKED_CHEST)
K_ATTEMPT = 2  # draw an Attempt card on a locked container (argument: the container)
K_SAFETY = 3  # play a Safety card on a shark
K_SURFACE = 4  # flip to Diver Up
K_DIVE = 5  # flip to Diver Down
K_BANK = 6  # turn carried treasure face down
K_STEAL = 7  # draw an Attempt card on a diver's safe (argument: the target seat)
K_ABANDON = 8  # give up the lock or theft under attempt (free: the turn goes on)
OPTION_NAMES = (
    "search",
    "claim",
    "attempt",
    "safety",
    "surface",
    "dive",
    "bank",
    "steal",
    "abandon",
)


# ---------------------------------------------------------------------------------------
# Small accessors (inlined)


@kernel(inline="always")
def fld(seat, f):
    """Index of seat field f in the flat state."""
    return O_SEATS + seat * SEAT_W + f


@kernel(inline="always")
def count(s, seat, c, n=1):
    s[O_SEATS + seat * SEAT_W + F_CNT + c] += n


@kernel(inline="always")
def is_up(s, seat):
    return s[O_SEATS + seat * SEAT_W + F_UP] == 1


@kernel(inline="always")
def hand(s, seat, kind):
    return s[O_SEATS + seat * SEAT_W + F_HAND + kind]


@kernel(inline="always")
def stack(s, seat, kind):
    return s[O_SEATS + seat * SEAT_W + F_STACK + kind]


@kernel(inline="always")
def carried_value(s, r, seat):
    """Dollars of the seat's face-up (unbanked) treasure cards (kept up to date)."""
    return s[O_SEATS + seat * SEAT_W + F_CVAL]


@kernel(inline="always")
def banked_value(s, r, seat):
    """Dollars of the seat's face-down (banked) treasure cards (kept up to date)."""
    return s[O_SEATS + seat * SEAT_W + F_BVAL]


@kernel(inline="always")
def n_carried(s, r, seat):
    return s[O_SEATS + seat * SEAT_W + F_NCAR]


@kernel(inline="always")
def n_banked(s, r, seat):
    return s[O_SEATS + seat * SEAT_W + F_NBANK]


@kernel
def recount_totals(s, r, seat):
    """(carried dollars, banked dollars, carried cards, banked cards) of the seat, counted
    from its treasure cards."""
    cv = 0
    bv = 0
    nc = 0
    nb = 0
    b = O_SEATS + seat * SEAT_W
    for k in range(r[P_N_TKINDS]):
        cv += s[b + F_CARRIED + k] * r[R_TVALUE + k]
        bv += s[b + F_BANKED + k] * r[R_TVALUE + k]
        nc += s[b + F_CARRIED + k]
        nb += s[b + F_BANKED + k]
    return cv, bv, nc, nb


@kernel
def recount(s, r, seat):
    """Set the seat's kept totals (F_CVAL, F_BVAL, F_NCAR, F_NBANK) from its treasure cards
    (for a state edited by hand, as the rules tests do)."""
    cv, bv, nc, nb = recount_totals(s, r, seat)
    b = O_SEATS + seat * SEAT_W
    s[b + F_CVAL] = cv
    s[b + F_BVAL] = bv
    s[b + F_NCAR] = nc
    s[b + F_NBANK] = nb


@kernel
def recount_ok(s, r, seat):
    """True when the seat's kept totals equal a recount of its treasure cards."""
    cv, bv, nc, nb = recount_totals(s, r, seat)
    b = O_SEATS + seat * SEAT_W
    if cv != s[b + F_CVAL] or bv != s[b + F_BVAL]:
        return False
    return nc == s[b + F_NCAR] and nb == s[b + F_NBANK]


# ---------------------------------------------------------------------------------------
# Trace


@kernel(inline="always")
def record(tr, s, kind, a=0, b=0, c=0, d=0, e=0, f=0, g=0, h=0, i=0):
    """Append one action record (turn, seat, kind, a..i) when tracing is on."""
    put_record(tr, ACTION_WIDTH, s[S_TURN], s[S_SEAT], kind, a, b, c, d, e, f, g, h, i)


@kernel
def snapshot(tr, s):
    """Append the whole state (before a turn) to the trace when tracing is on."""
    write_snapshot(tr, s, ACTION_WIDTH, STATE_SIZE)


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
def draw(s, tr, rng, deck, disc, n_idx, dn_idx, deck_id):
    """The top card of a deck, or -1 when deck and discard are both empty. An empty deck
    first takes its discard pile, shuffled ("When the Attempt Cards pile is depleted, the
    discards are shuffled and made into a new pile"; the same for the other decks)."""
    if s[n_idx] == 0:
        m = s[dn_idx]
        if m == 0:
            return -1
        for k in range(m):
            s[deck + k] = s[disc + k]
        s[n_idx] = m
        s[dn_idx] = 0
        shuffle(s, deck, m, rng)
        s[S_RESHUFFLES + deck_id] += 1
        record(tr, s, A_RESHUFFLE, deck_id, m)
    n = s[n_idx] - 1
    s[n_idx] = n
    return s[deck + n]


@kernel(inline="always")
def discard(s, disc, dn_idx, card, n=1):
    """Put n cards of one kind on a discard pile."""
    for _ in range(n):
        s[disc + s[dn_idx]] = card
        s[dn_idx] += 1


@kernel(inline="always")
def draw_item(s, tr, rng):
    return draw(s, tr, rng, O_ITEM_DECK, O_ITEM_DISC, S_ITEM_N, S_ITEM_DN, ITEM_DECK)


@kernel(inline="always")
def draw_attempt(s, tr, rng):
    return draw(s, tr, rng, O_ATT_DECK, O_ATT_DISC, S_ATT_N, S_ATT_DN, ATTEMPT_DECK)


@kernel(inline="always")
def draw_treasure(s, tr, rng):
    return draw(s, tr, rng, O_TRE_DECK, O_TRE_DISC, S_TRE_N, S_TRE_DN, TREASURE_DECK)


@kernel(inline="always")
def items_left(s):
    return s[S_ITEM_N] + s[S_ITEM_DN]


@kernel(inline="always")
def attempts_left(s):
    return s[S_ATT_N] + s[S_ATT_DN]


# ---------------------------------------------------------------------------------------
# Setup (seed 004, "Preparation")


@kernel
def setup(s, r, tr, rng):
    """Fill s with the starting position: the three decks shuffled, every player a diver
    ("All players turn their Diver Card to the 'Diver Down' side"), nothing held."""
    s[:] = 0
    n = 0
    for kind in range(N_ITEM_KINDS):
        for _ in range(r[R_ITEM_COUNTS + kind]):
            s[O_ITEM_DECK + n] = kind
            n += 1
    s[S_ITEM_N] = n
    n = 0
    for kind in range(N_ATTEMPT_KINDS):
        for _ in range(r[R_ATTEMPT_COUNTS + kind]):
            s[O_ATT_DECK + n] = kind
            n += 1
    s[S_ATT_N] = n
    n = 0
    for kind in range(r[P_N_TKINDS]):
        for _ in range(r[R_TCOUNT + kind]):
            s[O_TRE_DECK + n] = kind
            n += 1
    s[S_TRE_N] = n
    shuffle(s, O_ITEM_DECK, s[S_ITEM_N], rng)
    shuffle(s, O_ATT_DECK, s[S_ATT_N], rng)
    shuffle(s, O_TRE_DECK, s[S_TRE_N], rng)
    for seat in range(MAX_PLAYERS):
        s[fld(seat, F_LOCK)] = -1
        s[fld(seat, F_STEAL)] = -1
    s[S_END] = -1
    s[S_WINNER] = -1


# ---------------------------------------------------------------------------------------
# Treasure, attempts, surfacing: the helpers the actions share


@kernel
def take_treasure(s, r, tr, rng, seat, n):
    """The seat takes n Treasure cards face up ("taking and keeping one or more Treasure
    Cards"). When deck and discard are both empty the rest is not paid (ruling; counted)."""
    for _ in range(n):
        t = draw_treasure(s, tr, rng)
        if t < 0:
            record(tr, s, A_SHORT, 1)
            s[S_SHORT] += 1
            continue
        s[fld(seat, F_CARRIED + t)] += 1
        s[fld(seat, F_CVAL)] += r[R_TVALUE + t]
        s[fld(seat, F_NCAR)] += 1
        count(s, seat, C_CARDS_TAKEN)
        record(tr, s, A_TREASURE, t, r[R_TVALUE + t], seat)


@kernel
def clear_stack(s, seat):
    """'After an attempt is complete, all the Attempt Cards used are discarded.'"""
    for k in range(N_ATTEMPT_KINDS):
        i = fld(seat, F_STACK + k)
        discard(s, O_ATT_DISC, S_ATT_DN, k, s[i])
        s[i] = 0


@kernel
def end_lock(s, seat):
    """The container under attempt and its attempt cards are discarded."""
    c = s[fld(seat, F_LOCK)]
    if c >= 0:
        discard(s, O_ITEM_DISC, S_ITEM_DN, c)
        s[fld(seat, F_LOCK)] = -1
    clear_stack(s, seat)


@kernel
def end_theft(s, seat):
    """The theft under attempt ends; its attempt cards are discarded."""
    s[fld(seat, F_STEAL)] = -1
    clear_stack(s, seat)


@kernel
def discard_hand(s, r, seat, keep_safety):
    """Discard the item cards held (containers; Safety cards unless keep_safety)."""
    for kind in range(N_ITEM_KINDS):
        if kind == SAFETY and keep_safety:
            continue
        i = fld(seat, F_HAND + kind)
        discard(s, O_ITEM_DISC, S_ITEM_DN, kind, s[i])
        s[i] = 0


@kernel
def lose_unbanked(s, r, seat):
    """'discard all their cards except any banked treasure': items, the lock or theft with its
    attempt cards, and the face-up treasure. Returns the dollars of treasure lost."""
    discard_hand(s, r, seat, False)
    end_lock(s, seat)
    end_theft(s, seat)
    lost = 0
    for k in range(r[P_N_TKINDS]):
        i = fld(seat, F_CARRIED + k)
        lost += s[i] * r[R_TVALUE + k]
        discard(s, O_TRE_DISC, S_TRE_DN, k, s[i])
        s[i] = 0
    s[fld(seat, F_CVAL)] = 0
    s[fld(seat, F_NCAR)] = 0
    count(s, seat, C_VALUE_LOST, lost)
    return lost


@kernel
def end_thefts_on(s, r, tr, victim):
    """'If the diver under attack surfaces before the attacker can successfully steal any
    treasure, the attempt must be abandoned and all Attempt Cards used discarded.'"""
    for seat in range(r[P_PLAYERS]):
        if s[fld(seat, F_STEAL)] == victim:
            end_theft(s, seat)
            record(tr, s, A_THEFT_ENDED, seat, victim)


@kernel(inline="always")
def all_up(s, r):
    for seat in range(r[P_PLAYERS]):
        if not is_up(s, seat):
            return False
    return True


@kernel
def clear_sharks_if_all_up(s, r, tr):
    """'If all players surface, all Sharks currently on the board are discarded.'"""
    if s[S_SHARKS] > 0 and all_up(s, r):
        record(tr, s, A_SHARKS_CLEARED, s[S_SHARKS])
        discard(s, O_ITEM_DISC, S_ITEM_DN, SHARK, s[S_SHARKS])
        s[S_SHARKS] = 0
        s[S_SHARKS_CLEARED] += 1


@kernel
def check_target(s, r, seat):
    """'The game ends when a player has $20,000 or more in treasure banked' (at the end of
    that turn: every action completes the turn, so the game is over when it returns)."""
    if s[S_END] < 0 and banked_value(s, r, seat) >= r[P_TARGET]:
        s[S_END] = END_TARGET
        s[S_WINNER] = seat
        s[S_OVER] = 1


@kernel
def bank(s, r, seat):
    """Turn the carried treasure face down; returns the dollars banked."""
    v = 0
    for k in range(r[P_N_TKINDS]):
        i = fld(seat, F_CARRIED + k)
        v += s[i] * r[R_TVALUE + k]
        s[fld(seat, F_BANKED + k)] += s[i]
        s[i] = 0
    s[fld(seat, F_BVAL)] += v
    s[fld(seat, F_NBANK)] += s[fld(seat, F_NCAR)]
    s[fld(seat, F_CVAL)] = 0
    s[fld(seat, F_NCAR)] = 0
    check_target(s, r, seat)
    return v


@kernel
def go_up(s, r, tr, seat, reason):
    """Flip the Diver card to Diver Up. 'You cannot, however, take any chests or boxes with
    you and must discard all Item Cards and Attempt Cards after surfacing.' Reasons UP_SHARKS
    and UP_TRAP also discard the face-up treasure ('except any banked treasure')."""
    lost = 0
    if reason == UP_CHOICE:
        discard_hand(s, r, seat, r[P_KEEP_SAFETY] == 1)
        end_lock(s, seat)
    else:
        lost = lose_unbanked(s, r, seat)
    s[fld(seat, F_UP)] = 1
    s[fld(seat, F_STEAL_USED)] = 0  # "Stealing may only be attempted once per surface."
    record(tr, s, A_SURFACE, seat, reason, lost)
    end_thefts_on(s, r, tr, seat)
    if r[P_BANK_ON_SURFACE] == 1:
        v = bank(s, r, seat)
        if v > 0:
            record(tr, s, A_BANK, v, banked_value(s, r, seat))


@kernel
def shark_attack(s, r, tr):
    """'If a third Shark Card is placed on the board, divers in the water are under attack and
    must immediately surface and discard all their cards except any banked treasure.' Every
    player is then up, so the sharks are discarded."""
    mask = 0
    for seat in range(r[P_PLAYERS]):
        if not is_up(s, seat):
            mask |= 1 << seat
    s[S_ATTACKS] += 1
    record(tr, s, A_SHARK_ATTACK, mask)
    for seat in range(r[P_PLAYERS]):
        if mask & (1 << seat):
            count(s, seat, C_ATTACKED)
            go_up(s, r, tr, seat, UP_SHARKS)
    clear_sharks_if_all_up(s, r, tr)


# ---------------------------------------------------------------------------------------
# Turn order and the end


@kernel
def end_turn(s, r, tr):
    """The seat's turn is over (end_turn_in, called)."""
    end_turn_in(s, r, tr)


@kernel(inline="always")
def end_turn_in(s, r, tr):
    """The seat's turn is over; the next seat plays. One player: the turn limit (ruling).
    The round cap is a safety net the rulebook does not have."""
    record(tr, s, A_END_TURN)
    players = r[P_PLAYERS]
    s[fld(s[S_SEAT], F_PLAYED)] = 1
    s[S_TURN] += 1
    seat = s[S_SEAT] + 1
    if seat == players:
        seat = 0
        s[S_ROUND] += 1
    s[S_SEAT] = seat
    if s[S_END] >= 0:
        s[S_OVER] = 1
    elif players == 1 and s[S_TURN] >= r[P_SOLO_TURNS]:
        s[S_END] = END_SOLO_LIMIT
        s[S_OVER] = 1
    elif s[S_ROUND] >= r[P_MAX_ROUNDS]:
        s[S_END] = END_ROUND_LIMIT
        s[S_OVER] = 1


@kernel(inline="always")
def on_turn(s, seat):
    return s[S_OVER] == 0 and s[S_SEAT] == seat


@kernel(inline="always")
def diver_may_act(s, seat):
    """A diver past the first play ('On your first play, search for an Item')."""
    return on_turn(s, seat) and not is_up(s, seat) and s[fld(seat, F_PLAYED)] == 1


# ---------------------------------------------------------------------------------------
# Legality queries


@kernel(inline="always")
def can_search(s, seat):
    """'Take an Item Card from deck' (a diver; the only choice on the first play)."""
    return on_turn(s, seat) and not is_up(s, seat) and items_left(s) > 0


@kernel(inline="always")
def can_claim(s, seat, kind):
    """An unlocked container held: 'you can claim the treasure by taking ... Treasure Cards'."""
    if kind != UNLOCKED_BOX and kind != UNLOCKED_CHEST:
        return False
    return diver_may_act(s, seat) and hand(s, seat, kind) > 0


@kernel(inline="always")
def can_attempt(s, seat, kind):
    """One attempt card per turn on a locked container; 'You can only attempt to unlock one
    box at a time': with a lock under attempt, only that one."""
    if kind < LOCKED_BOX or kind > LOCKED_SAFE:
        return False
    if not diver_may_act(s, seat) or attempts_left(s) == 0:
        return False
    lock = s[fld(seat, F_LOCK)]
    if lock >= 0:
        return kind == lock
    return hand(s, seat, kind) > 0


@kernel(inline="always")
def can_safety(s, seat):
    """'play one Safety Card from your hand and eliminate one Shark Card' (a diver; ruling:
    'While surfaced, you can only dive again, bank treasure, or attempt to steal')."""
    return diver_may_act(s, seat) and hand(s, seat, SAFETY) > 0 and s[S_SHARKS] > 0


@kernel(inline="always")
def can_surface(s, seat):
    return diver_may_act(s, seat)


@kernel(inline="always")
def can_dive(s, seat):
    return on_turn(s, seat) and is_up(s, seat)


@kernel(inline="always")
def can_bank(s, r, seat):
    """'Once on the boat, you can bank any captured treasure.'"""
    return on_turn(s, seat) and is_up(s, seat) and n_carried(s, r, seat) > 0


@kernel(inline="always")
def can_steal(s, r, seat, target):
    """'If you are on the surface and another player is still below, you can attempt to break
    into their safe'; once per surfacing; a theft under way goes on against its target only.
    A new theft needs banked cards to take (ruling: nothing else can be stolen)."""
    if target < 0 or target >= r[P_PLAYERS] or target == seat:
        return False
    if not (on_turn(s, seat) and is_up(s, seat)) or is_up(s, target):
        return False
    if attempts_left(s) == 0:
        return False
    cur = s[fld(seat, F_STEAL)]
    if cur >= 0:
        return target == cur
    return s[fld(seat, F_STEAL_USED)] == 0 and n_banked(s, r, target) > 0


@kernel(inline="always")
def can_abandon(s, r, seat):
    """Trapped: 'You can discard the treasure or make another attempt on another turn'
    (abandon_needs_trap=False: any lock or theft under attempt may be given up)."""
    if not on_turn(s, seat):
        return False
    if s[fld(seat, F_LOCK)] < 0 and s[fld(seat, F_STEAL)] < 0:
        return False
    return r[P_ABANDON_NEEDS_TRAP] == 0 or stack(s, seat, TRAPPED) > 0


# ---------------------------------------------------------------------------------------
# Actions (each completes the turn, except do_abandon)


@kernel(inline="always")
def turn_done(s, r, tr, err):
    """What the do_* actions return: act_*'s result err, after the end of the turn when it
    succeeded (every action but abandon completes the turn)."""
    if err == 0:
        end_turn(s, r, tr)
    return err


@kernel(inline="always")
def act_search(s, r, tr, rng, seat):
    """'Take an Item Card from deck. If it is a Treasure card or Safety card, keep it. If it
    is Junk, discard it. If it is a Shark card, place it on the board.'"""
    if not can_search(s, seat):
        return ERR_ILLEGAL
    card = draw_item(s, tr, rng)
    # Without branches on the card drawn (a branch on a random card is mispredicted often):
    # Junk goes on the discard pile (the card is written there in any case, one place past
    # the pile when it is not Junk, where nothing is read), a Shark on the board, the rest
    # in the hand (adding 0 to the hand's Junk or Shark count otherwise).
    junk = np.int64(card == JUNK)
    shark = np.int64(card == SHARK)
    dn = s[S_ITEM_DN]
    s[O_ITEM_DISC + dn] = card
    s[S_ITEM_DN] = dn + junk
    s[S_SHARKS] += shark
    s[S_SHARKS_DRAWN] += shark
    s[fld(seat, F_HAND + card)] += 1 - junk - shark
    record(tr, s, A_SEARCH, card, s[S_SHARKS])
    if (card == SHARK) & (s[S_SHARKS] >= r[P_SHARKS]):
        shark_attack(s, r, tr)
    return 0


@kernel(inline="always")
def do_search(s, r, tr, rng, seat):
    """act_search, then the end of the turn."""
    return turn_done(s, r, tr, act_search(s, r, tr, rng, seat))


@kernel
def act_claim(s, r, tr, rng, seat, kind):
    """Claim an unlocked box or chest: its bags of Treasure cards; the item is discarded."""
    if not can_claim(s, seat, kind):
        return ERR_ILLEGAL
    s[fld(seat, F_HAND + kind)] -= 1
    discard(s, O_ITEM_DISC, S_ITEM_DN, kind)
    record(tr, s, A_CLAIM, kind, r[R_BAGS + kind])
    take_treasure(s, r, tr, rng, seat, r[R_BAGS + kind])
    count(s, seat, C_OPENED)
    return 0


@kernel(inline="always")
def do_claim(s, r, tr, rng, seat, kind):
    """act_claim, then the end of the turn."""
    return turn_done(s, r, tr, act_claim(s, r, tr, rng, seat, kind))


@kernel
def open_lock(s, r, tr, rng, seat, n):
    """The lock is open: take n Treasure cards 'in the same turn'; the attempt is complete."""
    c = s[fld(seat, F_LOCK)]
    end_lock(s, seat)
    count(s, seat, C_OPENED)
    take_treasure(s, r, tr, rng, seat, n)
    return c


@kernel
def act_attempt(s, r, tr, rng, seat, kind):
    """'take one card per turn from the Attempt Cards deck and place it over the item you are
    attempting to unlock': Open, Cracked (a second opens), Fail (discard the item), Trapped (a
    second forces surfacing as a Shark Attack), No Effect."""
    if not can_attempt(s, seat, kind):
        return ERR_ILLEGAL
    if s[fld(seat, F_LOCK)] < 0:
        s[fld(seat, F_HAND + kind)] -= 1
        s[fld(seat, F_LOCK)] = kind
    card = draw_attempt(s, tr, rng)
    s[fld(seat, F_STACK + card)] += 1
    bags = r[R_BAGS + kind]
    outcome = O_GOES_ON
    paid = 0
    if card == OPEN:
        outcome, paid = O_OPENED, bags
    elif card == CRACKED and stack(s, seat, CRACKED) >= 2:
        outcome = O_OPENED
        paid = bags if r[P_SECOND_CRACKED_FULL] == 1 else 1
    elif card == FAIL:
        outcome = O_FAILED
    elif card == TRAPPED and stack(s, seat, TRAPPED) >= 2:
        outcome = O_TRAPPED_OUT
    record(tr, s, A_ATTEMPT, kind, card, outcome, paid)
    if outcome == O_OPENED:
        open_lock(s, r, tr, rng, seat, paid)
    elif outcome == O_FAILED:
        # "Fail: The lock cannot be opened. You must immediately discard the Item Card."
        end_lock(s, seat)
        count(s, seat, C_LOCKS_FAILED)
    elif outcome == O_TRAPPED_OUT:
        count(s, seat, C_TRAP_SURFACED)
        go_up(s, r, tr, seat, UP_TRAP)
        clear_sharks_if_all_up(s, r, tr)
    return 0


@kernel(inline="always")
def do_attempt(s, r, tr, rng, seat, kind):
    """act_attempt, then the end of the turn."""
    return turn_done(s, r, tr, act_attempt(s, r, tr, rng, seat, kind))


@kernel
def act_safety(s, r, tr, seat):
    """'play one Safety Card from your hand and eliminate one Shark Card. Both cards are
    discarded. Only one Safety Card can be played per turn and completes the turn.'"""
    if not can_safety(s, seat):
        return ERR_ILLEGAL
    s[fld(seat, F_HAND + SAFETY)] -= 1
    s[S_SHARKS] -= 1
    discard(s, O_ITEM_DISC, S_ITEM_DN, SAFETY)
    discard(s, O_ITEM_DISC, S_ITEM_DN, SHARK)
    s[S_SAFETY_PLAYED] += 1
    count(s, seat, C_SAFETY)
    record(tr, s, A_SAFETY, s[S_SHARKS])
    return 0


@kernel(inline="always")
def do_safety(s, r, tr, seat):
    """act_safety, then the end of the turn."""
    return turn_done(s, r, tr, act_safety(s, r, tr, seat))


@kernel(inline="always")
def act_surface(s, r, tr, seat):
    """'You can surface to your boat by flipping over the Diver Down card on your turn ...
    Once the card is flipped, your turn is over.'"""
    if not can_surface(s, seat):
        return ERR_ILLEGAL
    count(s, seat, C_SURFACED)
    go_up(s, r, tr, seat, UP_CHOICE)
    clear_sharks_if_all_up(s, r, tr)
    return 0


@kernel(inline="always")
def do_surface(s, r, tr, seat):
    """act_surface, then the end of the turn."""
    return turn_done(s, r, tr, act_surface(s, r, tr, seat))


@kernel(inline="always")
def act_dive(s, r, tr, seat):
    """'To dive again, turn over your Diver Up card.' A theft under way ends (ruling: the
    thief has left the surface)."""
    if not can_dive(s, seat):
        return ERR_ILLEGAL
    target = s[fld(seat, F_STEAL)]
    if target >= 0:
        end_theft(s, seat)
        record(tr, s, A_THEFT_ENDED, seat, target)
    s[fld(seat, F_UP)] = 0
    record(tr, s, A_DIVE)
    return 0


@kernel(inline="always")
def do_dive(s, r, tr, seat):
    """act_dive, then the end of the turn."""
    return turn_done(s, r, tr, act_dive(s, r, tr, seat))


@kernel(inline="always")
def act_bank(s, r, tr, seat):
    """'bank any captured treasure by turning your Treasure Cards face down ... Banking
    Treasure completes a turn.'"""
    if not can_bank(s, r, seat):
        return ERR_ILLEGAL
    v = bank(s, r, seat)
    count(s, seat, C_BANKS)
    record(tr, s, A_BANK, v, banked_value(s, r, seat))
    return 0


@kernel(inline="always")
def do_bank(s, r, tr, seat):
    """act_bank, then the end of the turn."""
    return turn_done(s, r, tr, act_bank(s, r, tr, seat))


@kernel
def steal_card(s, r, rng, seat, target):
    """'randomly collect one of their face down banked treasure cards' (uniform over the
    cards); the card is banked by the thief (ruling: it is on the boat). Returns its kind, or
    -1 when the target has none left."""
    n = n_banked(s, r, target)
    if n == 0:
        return -1
    k = rand_below(rng, n)
    for t in range(r[P_N_TKINDS]):
        c = s[fld(target, F_BANKED + t)]
        if k < c:
            s[fld(target, F_BANKED + t)] -= 1
            s[fld(seat, F_BANKED + t)] += 1
            s[fld(target, F_BVAL)] -= r[R_TVALUE + t]
            s[fld(seat, F_BVAL)] += r[R_TVALUE + t]
            s[fld(target, F_NBANK)] -= 1
            s[fld(seat, F_NBANK)] += 1
            count(s, target, C_ROBBED)
            return t
        k -= c
    return -1


@kernel
def act_steal(s, r, tr, rng, seat, target):
    """'using the same process as Breaking A Lock. Take an Attempt Card and turn it over. If
    successful, you can randomly collect one of their face down banked treasure cards.'"""
    if not can_steal(s, r, seat, target):
        return ERR_ILLEGAL
    if s[fld(seat, F_STEAL)] < 0:
        s[fld(seat, F_STEAL)] = target
        s[fld(seat, F_STEAL_USED)] = 1
        count(s, seat, C_THEFTS)
    card = draw_attempt(s, tr, rng)
    s[fld(seat, F_STACK + card)] += 1
    outcome = O_GOES_ON
    if card == OPEN or (card == CRACKED and stack(s, seat, CRACKED) >= 2):
        outcome = O_OPENED
    elif card == FAIL:
        outcome = O_FAILED
    elif card == TRAPPED and stack(s, seat, TRAPPED) >= 2:
        outcome = O_TRAPPED_OUT
    stolen = -1
    value = 0
    if outcome == O_OPENED:
        stolen = steal_card(s, r, rng, seat, target)
        if stolen >= 0:
            value = r[R_TVALUE + stolen]
            count(s, seat, C_THEFTS_WON)
    record(tr, s, A_THEFT, target, card, outcome, stolen, value)
    if outcome != O_GOES_ON:
        end_theft(s, seat)
    if outcome == O_TRAPPED_OUT:
        count(s, seat, C_TRAP_SURFACED)
        if r[P_STEAL_TRAP_DISCARDS] == 1:
            lost = lose_unbanked(s, r, seat)
            record(tr, s, A_SURFACE, seat, UP_TRAP, lost)
    if outcome == O_OPENED:
        check_target(s, r, seat)
    return 0


@kernel(inline="always")
def do_steal(s, r, tr, rng, seat, target):
    """act_steal, then the end of the turn."""
    return turn_done(s, r, tr, act_steal(s, r, tr, rng, seat, target))


@kernel
def do_abandon(s, r, tr, seat):
    """Give up the lock or theft under attempt: the container and the attempt cards are
    discarded. Free: the turn goes on (ruling)."""
    if not can_abandon(s, r, seat):
        return ERR_ILLEGAL
    lock = s[fld(seat, F_LOCK)]
    if lock >= 0:
        end_lock(s, seat)
        record(tr, s, A_ABANDON, 0, lock)
    else:
        target = s[fld(seat, F_STEAL)]
        end_theft(s, seat)
        record(tr, s, A_ABANDON, 1, target)
    count(s, seat, C_ABANDONED)
    return 0


# ---------------------------------------------------------------------------------------
# Legal options as codes (kind * 8 + argument), and applying one


@kernel
def list_options(s, r, seat, x, o, with_abandon):
    """Write the legal option codes of the seat's turn into x[o:]; returns how many."""
    n = 0
    if with_abandon and can_abandon(s, r, seat):
        x[o + n] = K_ABANDON * 8
        n += 1
    if is_up(s, seat):
        if can_dive(s, seat):
            x[o + n] = K_DIVE * 8
            n += 1
        if can_bank(s, r, seat):
            x[o + n] = K_BANK * 8
            n += 1
        for t in range(r[P_PLAYERS]):
            if can_steal(s, r, seat, t):
                x[o + n] = K_STEAL * 8 + t
                n += 1
        return n
    if can_search(s, seat):
        x[o + n] = K_SEARCH * 8
        n += 1
    if s[fld(seat, F_PLAYED)] == 0:
        return n
    for kind in range(UNLOCKED_BOX, UNLOCKED_CHEST + 1):
        if can_claim(s, seat, kind):
            x[o + n] = K_CLAIM * 8 + kind
            n += 1
    for kind in range(LOCKED_BOX, LOCKED_SAFE + 1):
        if can_attempt(s, seat, kind):
            x[o + n] = K_ATTEMPT * 8 + kind
            n += 1
    if can_safety(s, seat):
        x[o + n] = K_SAFETY * 8
        n += 1
    if can_surface(s, seat):
        x[o + n] = K_SURFACE * 8
        n += 1
    return n


@kernel(inline="always")
def act_option(s, r, tr, rng, seat, code):
    """The turn action of an option code (act_*: without the end of the turn); 0 or
    ERR_ILLEGAL. The most frequent actions are tested first."""
    k = code // 8
    a = code % 8
    if k == K_SEARCH:
        return act_search(s, r, tr, rng, seat)
    if k == K_SURFACE:
        return act_surface(s, r, tr, seat)
    if k == K_BANK:
        return act_bank(s, r, tr, seat)
    if k == K_DIVE:
        return act_dive(s, r, tr, seat)
    if k == K_ATTEMPT:
        return act_attempt(s, r, tr, rng, seat, a)
    if k == K_STEAL:
        return act_steal(s, r, tr, rng, seat, a)
    if k == K_CLAIM:
        return act_claim(s, r, tr, rng, seat, a)
    if k == K_SAFETY:
        return act_safety(s, r, tr, seat)
    return ERR_ILLEGAL


@kernel
def do_option(s, r, tr, rng, seat, code):
    """Apply one option code; 0 or ERR_ILLEGAL. Every action but abandon ends the turn."""
    if code // 8 == K_ABANDON:
        return do_abandon(s, r, tr, seat)
    return turn_done(s, r, tr, act_option(s, r, tr, rng, seat, code))


# ---------------------------------------------------------------------------------------
# Scores and winners


@kernel
def scores(s, r, score, tiebreak):
    """score[seat] = dollars banked; tiebreak[seat] = dollars carried face up."""
    for seat in range(r[P_PLAYERS]):
        score[seat] = banked_value(s, r, seat)
        tiebreak[seat] = carried_value(s, r, seat)


@kernel
def winners(s, r, score, tiebreak):
    """(winner seat or -1, bitmask): the seat that banked the target; nobody otherwise (one
    player past the turn limit, or the round cap). The scores do not decide."""
    w = s[S_WINNER]
    if s[S_END] == END_TARGET and w >= 0:
        return w, 1 << w
    return -1, 0


# ---------------------------------------------------------------------------------------
# Checked mode


@kernel
def check_invariants(s, r):
    """Return 0 when every invariant holds, else the ERR_* code of the first one broken."""
    players = r[P_PLAYERS]
    nt = r[P_N_TKINDS]
    # deck sizes within their arrays
    if s[S_ITEM_N] < 0 or s[S_ITEM_DN] < 0 or s[S_ITEM_N] + s[S_ITEM_DN] > MAX_ITEMS:
        return ERR_ITEMS
    if s[S_ATT_N] < 0 or s[S_ATT_DN] < 0 or s[S_ATT_N] + s[S_ATT_DN] > MAX_ATTEMPTS:
        return ERR_ATTEMPTS
    if s[S_TRE_N] < 0 or s[S_TRE_DN] < 0 or s[S_TRE_N] + s[S_TRE_DN] > MAX_TREASURES:
        return ERR_TREASURES
    # item cards conserved, kind by kind
    n_items = 0
    for kind in range(N_ITEM_KINDS):
        c = 0
        for k in range(s[S_ITEM_N]):
            if s[O_ITEM_DECK + k] == kind:
                c += 1
        for k in range(s[S_ITEM_DN]):
            if s[O_ITEM_DISC + k] == kind:
                c += 1
        for seat in range(MAX_PLAYERS):
            h = hand(s, seat, kind)
            if h < 0 or (h > 0 and (seat >= players or kind == JUNK or kind == SHARK)):
                return ERR_ITEMS
            c += h
            if s[fld(seat, F_LOCK)] == kind:
                c += 1
        if kind == SHARK:
            c += s[S_SHARKS]
        if c != r[R_ITEM_COUNTS + kind]:
            return ERR_ITEMS
        n_items += c
    if n_items != r[P_N_ITEMS]:
        return ERR_ITEMS
    # attempt cards conserved
    for kind in range(N_ATTEMPT_KINDS):
        c = 0
        for k in range(s[S_ATT_N]):
            if s[O_ATT_DECK + k] == kind:
                c += 1
        for k in range(s[S_ATT_DN]):
            if s[O_ATT_DISC + k] == kind:
                c += 1
        for seat in range(MAX_PLAYERS):
            if stack(s, seat, kind) < 0:
                return ERR_ATTEMPTS
            c += stack(s, seat, kind)
        if c != r[R_ATTEMPT_COUNTS + kind]:
            return ERR_ATTEMPTS
    if s[S_ATT_N] + s[S_ATT_DN] > r[P_N_ATTEMPTS]:
        return ERR_ATTEMPTS
    # treasure cards conserved
    for t in range(MAX_TREASURE_KINDS):
        c = 0
        for k in range(s[S_TRE_N]):
            if s[O_TRE_DECK + k] == t:
                c += 1
        for k in range(s[S_TRE_DN]):
            if s[O_TRE_DISC + k] == t:
                c += 1
        for seat in range(MAX_PLAYERS):
            a = s[fld(seat, F_CARRIED + t)]
            b = s[fld(seat, F_BANKED + t)]
            if a < 0 or b < 0 or ((a > 0 or b > 0) and seat >= players):
                return ERR_TREASURES
            c += a + b
        want = r[R_TCOUNT + t] if t < nt else 0
        if c != want:
            return ERR_TREASURES
    for seat in range(MAX_PLAYERS):
        if not recount_ok(s, r, seat):
            return ERR_TREASURES
    if s[S_TRE_N] + s[S_TRE_DN] > r[P_N_TREASURES]:
        return ERR_TREASURES
    # each seat: its cards agree with its side of the Diver card
    everyone_up = True
    for seat in range(players):
        up = s[fld(seat, F_UP)]
        lock = s[fld(seat, F_LOCK)]
        theft = s[fld(seat, F_STEAL)]
        if up != 0 and up != 1:
            return ERR_SEAT
        if up == 0:
            everyone_up = False
        if lock != -1 and (lock < LOCKED_BOX or lock > LOCKED_SAFE):
            return ERR_SEAT
        if up == 1:
            # "must discard all Item Cards and Attempt Cards after surfacing"
            if lock != -1:
                return ERR_SEAT
            for kind in range(N_CONTAINERS):
                if hand(s, seat, kind) != 0:
                    return ERR_SEAT
            if hand(s, seat, SAFETY) != 0 and r[P_KEEP_SAFETY] == 0:
                return ERR_SEAT
        else:
            if theft != -1:
                return ERR_THEFT
        if theft != -1:
            if theft < 0 or theft >= players or theft == seat or is_up(s, theft):
                return ERR_THEFT
            if s[fld(seat, F_STEAL_USED)] != 1:
                return ERR_THEFT
        # attempt stacks: only under a lock or theft; Open and Fail never lie; at most one
        # Cracked and one Trapped (the second ends the attempt)
        n_stack = 0
        for kind in range(N_ATTEMPT_KINDS):
            n_stack += stack(s, seat, kind)
        if n_stack > 0 and lock == -1 and theft == -1:
            return ERR_STACK
        if lock != -1 and theft != -1:
            return ERR_STACK
        if stack(s, seat, OPEN) != 0 or stack(s, seat, FAIL) != 0:
            return ERR_STACK
        if stack(s, seat, CRACKED) > 1 or stack(s, seat, TRAPPED) > 1:
            return ERR_STACK
        if stack(s, seat, NO_EFFECT) > r[R_ATTEMPT_COUNTS + NO_EFFECT]:
            return ERR_STACK
    for seat in range(players, MAX_PLAYERS):
        if s[fld(seat, F_LOCK)] != -1 or s[fld(seat, F_STEAL)] != -1:
            return ERR_SEAT
    # sharks: fewer than an attack needs; none while everyone is up
    if s[S_SHARKS] < 0 or s[S_SHARKS] >= r[P_SHARKS]:
        return ERR_SHARKS
    if everyone_up and s[S_SHARKS] != 0:
        return ERR_SHARKS
    # the end: a winner has the target banked
    if s[S_END] == END_TARGET:
        w = s[S_WINNER]
        if w < 0 or w >= players or banked_value(s, r, w) < r[P_TARGET]:
            return ERR_SEAT
    return 0
