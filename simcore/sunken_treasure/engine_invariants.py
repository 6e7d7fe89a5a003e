"""Sunken Treasure rules, checked mode: check_invariants, which the players run after every
action when checking is on (tests, fuzzing): the three decks conserved kind by kind, each
seat's cards agreeing with its side of the Diver card, attempt stacks that can happen, the
sharks, the winner.

Imports engine.py only (the error codes and the accessors).
"""

from __future__ import annotations

from simcore.jit import kernel
from simcore.sunken_treasure.board import (
    CRACKED,
    FAIL,
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
)
from simcore.sunken_treasure.engine import (
    ERR_ATTEMPTS,
    ERR_ITEMS,
    ERR_SEAT,
    ERR_SHARKS,
    ERR_STACK,
    ERR_THEFT,
    ERR_TREASURES,
    banked_value,
    fld,
    hand,
    is_up,
    recount_ok,
    stack,
)
from simcore.sunken_treasure.rules import (
    P_KEEP_SAFETY,
    P_N_ATTEMPTS,
    P_N_ITEMS,
    P_N_TKINDS,
    P_N_TREASURES,
    P_PLAYERS,
    P_SHARKS,
    P_TARGET,
    R_ATTEMPT_COUNTS,
    R_ITEM_COUNTS,
    R_TCOUNT,
)
from simcore.sunken_treasure.state import (
    END_TARGET,
    F_BANKED,
    F_CARRIED,
    F_LOCK,
    F_STEAL,
    F_STEAL_USED,
    F_UP,
    O_ATT_DECK,
    O_ATT_DISC,
    O_ITEM_DECK,
    O_ITEM_DISC,
    O_TRE_DECK,
    O_TRE_DISC,
    S_ATT_DN,
    S_ATT_N,
    S_END_REASON,
    S_ITEM_DN,
    S_ITEM_N,
    S_SHARKS,
    S_TRE_DN,
    S_TRE_N,
    S_WINNER,
)


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
    if s[S_END_REASON] == END_TARGET:
        w = s[S_WINNER]
        if w < 0 or w >= players or banked_value(s, r, w) < r[P_TARGET]:
            return ERR_SEAT
    return 0
