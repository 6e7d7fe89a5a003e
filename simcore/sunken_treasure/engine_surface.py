"""Sunken Treasure rules, surfacing and the boat: flipping the Diver card up (by choice,
after a second Trapped card or in a shark attack), the sharks discarded once every player is
up, banking, diving again, and stealing from a diver below.

Imports engine.py only of the engine modules; engine.py's docstring gives the order of the
modules and the arguments.
"""

from __future__ import annotations

from simcore.jit import kernel
from simcore.rng import rand_below
from simcore.sunken_treasure.board import (
    CRACKED,
    FAIL,
    OPEN,
    SHARK,
    TRAPPED,
)
from simcore.sunken_treasure.engine import (
    ERR_ILLEGAL,
    attempts_left,
    banked_value,
    check_target,
    count,
    discard,
    discard_hand,
    diver_may_act,
    draw_attempt,
    end_lock,
    end_theft,
    fld,
    is_up,
    lose_unbanked,
    n_banked,
    n_carried,
    on_turn,
    record,
    stack,
    turn_done,
)
from simcore.sunken_treasure.rules import (
    P_BANK_ON_SURFACE,
    P_KEEP_SAFETY,
    P_N_TKINDS,
    P_PLAYERS,
    P_STEAL_TRAP_DISCARDS,
    R_TVALUE,
)
from simcore.sunken_treasure.state import (
    A_BANK,
    A_DIVE,
    A_SHARKS_CLEARED,
    A_SURFACE,
    A_THEFT,
    A_THEFT_ENDED,
    C_BANKS,
    C_ROBBED,
    C_SURFACED,
    C_THEFTS,
    C_THEFTS_WON,
    C_TRAP_SURFACED,
    F_BANKED,
    F_BVAL,
    F_CARRIED,
    F_CVAL,
    F_NBANK,
    F_NCAR,
    F_STACK,
    F_STEAL,
    F_STEAL_USED,
    F_UP,
    O_FAILED,
    O_GOES_ON,
    O_ITEM_DISC,
    O_OPENED,
    O_TRAPPED_OUT,
    S_ITEM_DN,
    S_SHARKS,
    S_SHARKS_CLEARED,
    UP_CHOICE,
    UP_TRAP,
)

# ---------------------------------------------------------------------------------------
# Surfacing, the sharks cleared, banking


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


# ---------------------------------------------------------------------------------------
# Legality queries


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


# ---------------------------------------------------------------------------------------
# Actions (each completes the turn)


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
