"""Sunken Treasure rules, checked mode: check_invariants, which the players run after every
action when checking is on (tests, fuzzing): the three decks conserved kind by kind, each
seat's cards agreeing with its side of the Diver card, attempt stacks that can happen, the
sharks, the winner.

Imports engine.py only (the error codes and the accessors).
"""

from __future__ import annotations

from simcore.frame.jit import kernel
from simcore.games.sunken_treasure import board as B
from simcore.games.sunken_treasure import engine as E
from simcore.games.sunken_treasure import rules as R
from simcore.games.sunken_treasure import state as S


@kernel(inline="always")
def in_piles(s, deck, n, discard, dn, kind):
    """The cards of `kind` in a deck (n cards from s[deck]) and its discard pile (dn cards from
    s[discard])."""
    c = 0
    for k in range(n):
        if s[deck + k] == kind:
            c += 1
    for k in range(dn):
        if s[discard + k] == kind:
            c += 1
    return c


@kernel
def check_invariants(s, r):
    """Return 0 when every invariant holds, else the ERR_* code of the first one broken."""
    players = r[R.P_PLAYERS]
    nt = r[R.P_N_TKINDS]
    # deck sizes within their arrays
    if s[S.S_ITEM_N] < 0 or s[S.S_ITEM_DN] < 0 or s[S.S_ITEM_N] + s[S.S_ITEM_DN] > B.MAX_ITEMS:
        return E.ERR_ITEMS
    if s[S.S_ATT_N] < 0 or s[S.S_ATT_DN] < 0 or s[S.S_ATT_N] + s[S.S_ATT_DN] > B.MAX_ATTEMPTS:
        return E.ERR_ATTEMPTS
    if s[S.S_TRE_N] < 0 or s[S.S_TRE_DN] < 0 or s[S.S_TRE_N] + s[S.S_TRE_DN] > B.MAX_TREASURES:
        return E.ERR_TREASURES
    # item cards conserved, kind by kind
    n_items = 0
    for kind in range(B.N_ITEM_KINDS):
        c = in_piles(s, S.O_ITEM_DECK, s[S.S_ITEM_N], S.O_ITEM_DISC, s[S.S_ITEM_DN], kind)
        for seat in range(B.MAX_PLAYERS):
            h = E.hand(s, seat, kind)
            if h < 0 or (h > 0 and (seat >= players or kind == B.JUNK or kind == B.SHARK)):
                return E.ERR_ITEMS
            c += h
            if s[E.fld(seat, S.F_LOCK)] == kind:
                c += 1
        if kind == B.SHARK:
            c += s[S.S_SHARKS]
        if c != r[R.R_ITEM_COUNTS + kind]:
            return E.ERR_ITEMS
        n_items += c
    if n_items != r[R.P_N_ITEMS]:
        return E.ERR_ITEMS
    # attempt cards conserved
    for kind in range(B.N_ATTEMPT_KINDS):
        c = in_piles(s, S.O_ATT_DECK, s[S.S_ATT_N], S.O_ATT_DISC, s[S.S_ATT_DN], kind)
        for seat in range(B.MAX_PLAYERS):
            if E.stack(s, seat, kind) < 0:
                return E.ERR_ATTEMPTS
            c += E.stack(s, seat, kind)
        if c != r[R.R_ATTEMPT_COUNTS + kind]:
            return E.ERR_ATTEMPTS
    if s[S.S_ATT_N] + s[S.S_ATT_DN] > r[R.P_N_ATTEMPTS]:
        return E.ERR_ATTEMPTS
    # treasure cards conserved
    for t in range(B.MAX_TREASURE_KINDS):
        c = in_piles(s, S.O_TRE_DECK, s[S.S_TRE_N], S.O_TRE_DISC, s[S.S_TRE_DN], t)
        for seat in range(B.MAX_PLAYERS):
            a = s[E.fld(seat, S.F_CARRIED + t)]
            b = s[E.fld(seat, S.F_BANKED + t)]
            if a < 0 or b < 0 or ((a > 0 or b > 0) and seat >= players):
                return E.ERR_TREASURES
            c += a + b
        want = r[R.R_TCOUNT + t] if t < nt else 0
        if c != want:
            return E.ERR_TREASURES
    for seat in range(B.MAX_PLAYERS):
        if not E.recount_ok(s, r, seat):
            return E.ERR_TREASURES
    if s[S.S_TRE_N] + s[S.S_TRE_DN] > r[R.P_N_TREASURES]:
        return E.ERR_TREASURES
    # each seat: its cards agree with its side of the Diver card
    everyone_up = True
    for seat in range(players):
        up = s[E.fld(seat, S.F_UP)]
        lock = s[E.fld(seat, S.F_LOCK)]
        theft = s[E.fld(seat, S.F_STEAL)]
        if up != 0 and up != 1:
            return E.ERR_SEAT
        if up == 0:
            everyone_up = False
        if lock != -1 and (lock < B.LOCKED_BOX or lock > B.LOCKED_SAFE):
            return E.ERR_SEAT
        if up == 1:
            # "must discard all Item Cards and Attempt Cards after surfacing"
            if lock != -1:
                return E.ERR_SEAT
            for kind in range(B.N_CONTAINERS):
                if E.hand(s, seat, kind) != 0:
                    return E.ERR_SEAT
            if E.hand(s, seat, B.SAFETY) != 0 and r[R.P_KEEP_SAFETY] == 0:
                return E.ERR_SEAT
        else:
            if theft != -1:
                return E.ERR_THEFT
        if theft != -1:
            if theft < 0 or theft >= players or theft == seat or E.is_up(s, theft):
                return E.ERR_THEFT
            if s[E.fld(seat, S.F_STEAL_USED)] != 1:
                return E.ERR_THEFT
        # attempt stacks: only under a lock or theft; Open and Fail never lie; at most one
        # Cracked and one Trapped (the second ends the attempt)
        n_stack = 0
        for kind in range(B.N_ATTEMPT_KINDS):
            n_stack += E.stack(s, seat, kind)
        if n_stack > 0 and lock == -1 and theft == -1:
            return E.ERR_STACK
        if lock != -1 and theft != -1:
            return E.ERR_STACK
        if E.stack(s, seat, B.OPEN) != 0 or E.stack(s, seat, B.FAIL) != 0:
            return E.ERR_STACK
        if E.stack(s, seat, B.CRACKED) > 1 or E.stack(s, seat, B.TRAPPED) > 1:
            return E.ERR_STACK
        if E.stack(s, seat, B.NO_EFFECT) > r[R.R_ATTEMPT_COUNTS + B.NO_EFFECT]:
            return E.ERR_STACK
    for seat in range(players, B.MAX_PLAYERS):
        if s[E.fld(seat, S.F_LOCK)] != -1 or s[E.fld(seat, S.F_STEAL)] != -1:
            return E.ERR_SEAT
    # sharks: fewer than an attack needs; none while everyone is up
    if s[S.S_SHARKS] < 0 or s[S.S_SHARKS] >= r[R.P_SHARKS]:
        return E.ERR_SHARKS
    if everyone_up and s[S.S_SHARKS] != 0:
        return E.ERR_SHARKS
    # the end: a winner has the target banked
    if s[S.S_END_REASON] == S.END_TARGET:
        w = s[S.S_WINNER]
        if w < 0 or w >= players or E.banked_value(s, r, w) + E.head_start(r, w) < r[R.P_TARGET]:
            return E.ERR_SEAT
    return 0
