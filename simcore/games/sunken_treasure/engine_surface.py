"""Sunken Treasure rules, surfacing and the boat: flipping the Diver card up (by choice,
after a second Trapped card or in a shark attack), the sharks discarded once every player is
up, banking, diving again, and stealing from a diver below.

Imports engine.py only of the engine modules; engine.py's docstring gives the order of the
modules and the arguments.
"""

from __future__ import annotations

from simcore.frame.jit import kernel
from simcore.frame.rng import rand_below
from simcore.games.sunken_treasure import board as B
from simcore.games.sunken_treasure import engine as E
from simcore.games.sunken_treasure import rules as R
from simcore.games.sunken_treasure import state as S

# ---------------------------------------------------------------------------------------
# Surfacing, the sharks cleared, banking


@kernel
def end_thefts_on(s, r, tr, victim):
    """'If the diver under attack surfaces before the attacker can successfully steal any
    treasure, the attempt must be abandoned and all Attempt Cards used discarded.'"""
    for seat in range(r[R.P_PLAYERS]):
        if s[E.fld(seat, S.F_STEAL)] == victim:
            E.end_theft(s, seat)
            E.record(tr, s, S.A_THEFT_ENDED, seat, victim)


@kernel(inline="always")
def all_up(s, r):
    for seat in range(r[R.P_PLAYERS]):
        if not E.is_up(s, seat):
            return False
    return True


@kernel
def clear_sharks_if_all_up(s, r, tr):
    """'If all players surface, all Sharks currently on the board are discarded.'"""
    if s[S.S_SHARKS] > 0 and all_up(s, r):
        E.record(tr, s, S.A_SHARKS_CLEARED, s[S.S_SHARKS])
        E.discard(s, S.O_ITEM_DISC, S.S_ITEM_DN, B.SHARK, s[S.S_SHARKS])
        s[S.S_SHARKS] = 0
        s[S.S_SHARKS_CLEARED] += 1


@kernel
def bank(s, r, seat):
    """Turn the carried treasure face down; returns the dollars banked."""
    v = 0
    for k in range(r[R.P_N_TKINDS]):
        i = E.fld(seat, S.F_CARRIED + k)
        v += s[i] * r[R.R_TVALUE + k]
        s[E.fld(seat, S.F_BANKED + k)] += s[i]
        s[i] = 0
    s[E.fld(seat, S.F_BVAL)] += v
    s[S.S_STANDINGS] += 1
    s[E.fld(seat, S.F_NBANK)] += s[E.fld(seat, S.F_NCAR)]
    s[E.fld(seat, S.F_CVAL)] = 0
    s[E.fld(seat, S.F_NCAR)] = 0
    E.check_target(s, r, seat)
    return v


@kernel
def go_up(s, r, tr, seat, reason):
    """Flip the Diver card to Diver Up. 'You cannot, however, take any chests or boxes with
    you and must discard all Item Cards and Attempt Cards after surfacing.' Reasons UP_SHARKS
    and UP_TRAP also discard the face-up treasure ('except any banked treasure')."""
    lost = 0
    if reason == S.UP_CHOICE:
        E.discard_hand(s, r, seat, r[R.P_KEEP_SAFETY] == 1)
        E.end_lock(s, seat)
    else:
        lost = E.lose_unbanked(s, r, seat)
    s[E.fld(seat, S.F_UP)] = 1
    s[E.fld(seat, S.F_STEAL_USED)] = 0  # "Stealing may only be attempted once per surface."
    E.record(tr, s, S.A_SURFACE, seat, reason, lost)
    end_thefts_on(s, r, tr, seat)
    if r[R.P_BANK_ON_SURFACE] == 1:
        v = bank(s, r, seat)
        if v > 0:
            E.record(tr, s, S.A_BANK, v, E.banked_value(s, r, seat))


# ---------------------------------------------------------------------------------------
# Legality queries


@kernel(inline="always")
def can_surface(s, seat):
    return E.diver_may_act(s, seat)


@kernel(inline="always")
def can_dive(s, seat):
    return E.on_turn(s, seat) and E.is_up(s, seat)


@kernel(inline="always")
def can_bank(s, r, seat):
    """'Once on the boat, you can bank any captured treasure.'"""
    return E.on_turn(s, seat) and E.is_up(s, seat) and s[E.fld(seat, S.F_NCAR)] > 0


@kernel(inline="always")
def can_steal(s, r, seat, target):
    """'If you are on the surface and another player is still below, you can attempt to break
    into their safe'; once per surfacing; a theft under way goes on against its target only.
    A new theft needs banked cards to take (ruling: nothing else can be stolen)."""
    if target < 0 or target >= r[R.P_PLAYERS] or target == seat:
        return False
    if not (E.on_turn(s, seat) and E.is_up(s, seat)) or E.is_up(s, target):
        return False
    if E.attempts_left(s) == 0:
        return False
    cur = s[E.fld(seat, S.F_STEAL)]
    if cur >= 0:
        return target == cur
    return s[E.fld(seat, S.F_STEAL_USED)] == 0 and E.n_banked(s, r, target) > 0


# ---------------------------------------------------------------------------------------
# Actions (each completes the turn)


@kernel(inline="always")
def act_surface(s, r, tr, seat):
    """'You can surface to your boat by flipping over the Diver Down card on your turn ...
    Once the card is flipped, your turn is over.'"""
    if not can_surface(s, seat):
        return E.ERR_ILLEGAL
    E.count(s, seat, S.C_SURFACED)
    go_up(s, r, tr, seat, S.UP_CHOICE)
    clear_sharks_if_all_up(s, r, tr)
    return 0


@kernel(inline="always")
def act_dive(s, r, tr, seat):
    """'To dive again, turn over your Diver Up card.' A theft under way ends (ruling: the
    thief has left the surface)."""
    if not can_dive(s, seat):
        return E.ERR_ILLEGAL
    target = s[E.fld(seat, S.F_STEAL)]
    if target >= 0:
        E.end_theft(s, seat)
        E.record(tr, s, S.A_THEFT_ENDED, seat, target)
    s[E.fld(seat, S.F_UP)] = 0
    E.record(tr, s, S.A_DIVE)
    return 0


@kernel(inline="always")
def act_bank(s, r, tr, seat):
    """'bank any captured treasure by turning your Treasure Cards face down ... Banking
    Treasure completes a turn.'"""
    if not can_bank(s, r, seat):
        return E.ERR_ILLEGAL
    v = bank(s, r, seat)
    E.count(s, seat, S.C_BANKS)
    E.record(tr, s, S.A_BANK, v, E.banked_value(s, r, seat))
    return 0


@kernel
def steal_card(s, r, rng, seat, target):
    """'randomly collect one of their face down banked treasure cards' (uniform over the
    cards); the card is banked by the thief (ruling: it is on the boat). Returns its kind, or
    -1 when the target has none left."""
    n = E.n_banked(s, r, target)
    if n == 0:
        return -1
    k = rand_below(rng, n)
    for t in range(r[R.P_N_TKINDS]):
        c = s[E.fld(target, S.F_BANKED + t)]
        if k < c:
            s[E.fld(target, S.F_BANKED + t)] -= 1
            s[E.fld(seat, S.F_BANKED + t)] += 1
            s[E.fld(target, S.F_BVAL)] -= r[R.R_TVALUE + t]
            s[E.fld(seat, S.F_BVAL)] += r[R.R_TVALUE + t]
            s[S.S_STANDINGS] += 1
            s[E.fld(target, S.F_NBANK)] -= 1
            s[E.fld(seat, S.F_NBANK)] += 1
            E.count(s, target, S.C_ROBBED)
            return t
        k -= c
    return -1


@kernel
def act_steal(s, r, tr, rng, seat, target):
    """'using the same process as Breaking A Lock. Take an Attempt Card and turn it over. If
    successful, you can randomly collect one of their face down banked treasure cards.'"""
    if not can_steal(s, r, seat, target):
        return E.ERR_ILLEGAL
    if s[E.fld(seat, S.F_STEAL)] < 0:
        s[E.fld(seat, S.F_STEAL)] = target
        s[E.fld(seat, S.F_STEAL_USED)] = 1
        E.count(s, seat, S.C_THEFTS)
    card = E.draw_attempt(s, r, tr, rng)
    s[E.fld(seat, S.F_STACK + card)] += 1
    outcome = S.O_GOES_ON
    if card == B.OPEN or (card == B.CRACKED and E.stack(s, seat, B.CRACKED) >= 2):
        outcome = S.O_OPENED
    elif card == B.FAIL:
        outcome = S.O_FAILED
    elif card == B.TRAPPED and E.stack(s, seat, B.TRAPPED) >= 2:
        outcome = S.O_TRAPPED_OUT
    stolen = -1
    value = 0
    if outcome == S.O_OPENED:
        stolen = steal_card(s, r, rng, seat, target)
        if stolen >= 0:
            value = r[R.R_TVALUE + stolen]
            E.count(s, seat, S.C_THEFTS_WON)
    E.record(tr, s, S.A_THEFT, target, card, outcome, stolen, value)
    if outcome != S.O_GOES_ON:
        E.end_theft(s, seat)
    if outcome == S.O_TRAPPED_OUT:
        E.count(s, seat, S.C_TRAP_SURFACED)
        if r[R.P_STEAL_TRAP_DISCARDS] == 1:
            lost = E.lose_unbanked(s, r, seat)
            E.record(tr, s, S.A_SURFACE, seat, S.UP_TRAP, lost)
    if outcome == S.O_OPENED:
        E.check_target(s, r, seat)
    return 0
