"""Sunken Treasure rules, the containers: claiming an unlocked box or chest, breaking a
lock one Attempt card per turn (Open, Cracked, No Effect, Fail, Trapped), and giving up the
lock or theft under attempt (free: the turn goes on).

Imports engine.py and engine_surface.py (a second Trapped card surfaces the diver); engine.py's
docstring gives the order of the modules and the arguments.
"""

from __future__ import annotations

from simcore.frame.jit import kernel
from simcore.games.sunken_treasure import board as B
from simcore.games.sunken_treasure import engine as E
from simcore.games.sunken_treasure import rules as R
from simcore.games.sunken_treasure import state as S
from simcore.games.sunken_treasure.engine_surface import clear_sharks_if_all_up, go_up

# ---------------------------------------------------------------------------------------
# Legality queries


@kernel(inline="always")
def can_claim(s, seat, kind):
    """An unlocked container held: 'you can claim the treasure by taking ... Treasure Cards'."""
    if kind != B.UNLOCKED_BOX and kind != B.UNLOCKED_CHEST:
        return False
    return E.diver_may_act(s, seat) and E.hand(s, seat, kind) > 0


@kernel(inline="always")
def can_attempt(s, seat, kind):
    """One attempt card per turn on a locked container; 'You can only attempt to unlock one
    box at a time': with a lock under attempt, only that one."""
    if kind < B.LOCKED_BOX or kind > B.LOCKED_SAFE:
        return False
    if not E.diver_may_act(s, seat) or E.attempts_left(s) == 0:
        return False
    lock = s[E.fld(seat, S.F_LOCK)]
    if lock >= 0:
        return kind == lock
    return E.hand(s, seat, kind) > 0


@kernel(inline="always")
def can_abandon(s, r, seat):
    """Trapped: 'You can discard the treasure or make another attempt on another turn'
    (abandon_needs_trap=False: any lock or theft under attempt may be given up)."""
    if not E.on_turn(s, seat):
        return False
    if s[E.fld(seat, S.F_LOCK)] < 0 and s[E.fld(seat, S.F_STEAL)] < 0:
        return False
    return r[R.P_ABANDON_NEEDS_TRAP] == 0 or E.stack(s, seat, B.TRAPPED) > 0


# ---------------------------------------------------------------------------------------
# Actions (each completes the turn, except do_abandon)


@kernel
def act_claim(s, r, tr, rng, seat, kind):
    """Claim an unlocked box or chest: its bags of Treasure cards; the item is discarded."""
    if not can_claim(s, seat, kind):
        return E.ERR_ILLEGAL
    s[E.fld(seat, S.F_HAND + kind)] -= 1
    E.discard(s, S.O_ITEM_DISC, S.S_ITEM_DN, kind)
    E.record(tr, s, S.A_CLAIM, kind, r[R.R_BAGS + kind])
    E.take_treasure(s, r, tr, rng, seat, r[R.R_BAGS + kind])
    E.count(s, seat, S.C_OPENED)
    return 0


@kernel(inline="always")
def do_claim(s, r, tr, rng, seat, kind):
    """act_claim, then the end of the turn."""
    return E.turn_done(s, r, tr, act_claim(s, r, tr, rng, seat, kind))


@kernel
def open_lock(s, r, tr, rng, seat, n):
    """The lock is open: take n Treasure cards 'in the same turn'; the attempt is complete."""
    c = s[E.fld(seat, S.F_LOCK)]
    E.end_lock(s, seat)
    E.count(s, seat, S.C_OPENED)
    E.take_treasure(s, r, tr, rng, seat, n)
    return c


@kernel
def act_attempt(s, r, tr, rng, seat, kind):
    """'take one card per turn from the Attempt Cards deck and place it over the item you are
    attempting to unlock': Open, Cracked (a second opens), Fail (discard the item), Trapped (a
    second forces surfacing as a Shark Attack), No Effect."""
    if not can_attempt(s, seat, kind):
        return E.ERR_ILLEGAL
    if s[E.fld(seat, S.F_LOCK)] < 0:
        s[E.fld(seat, S.F_HAND + kind)] -= 1
        s[E.fld(seat, S.F_LOCK)] = kind
    card = E.draw_attempt(s, r, tr, rng)
    s[E.fld(seat, S.F_STACK + card)] += 1
    bags = r[R.R_BAGS + kind]
    outcome = S.O_GOES_ON
    paid = 0
    if card == B.OPEN:
        outcome, paid = S.O_OPENED, bags
    elif card == B.CRACKED and E.stack(s, seat, B.CRACKED) >= 2:
        outcome = S.O_OPENED
        paid = bags if r[R.P_SECOND_CRACKED_FULL] == 1 else 1
    elif card == B.FAIL:
        outcome = S.O_FAILED
    elif card == B.TRAPPED and E.stack(s, seat, B.TRAPPED) >= 2:
        outcome = S.O_TRAPPED_OUT
    E.record(tr, s, S.A_ATTEMPT, kind, card, outcome, paid)
    if outcome == S.O_OPENED:
        open_lock(s, r, tr, rng, seat, paid)
    elif outcome == S.O_FAILED:
        # "Fail: The lock cannot be opened. You must immediately discard the Item Card."
        E.end_lock(s, seat)
        E.count(s, seat, S.C_LOCKS_FAILED)
    elif outcome == S.O_TRAPPED_OUT:
        E.count(s, seat, S.C_TRAP_SURFACED)
        go_up(s, r, tr, seat, S.UP_TRAP)
        clear_sharks_if_all_up(s, r, tr)
    return 0


@kernel(inline="always")
def do_attempt(s, r, tr, rng, seat, kind):
    """act_attempt, then the end of the turn."""
    return E.turn_done(s, r, tr, act_attempt(s, r, tr, rng, seat, kind))


@kernel
def do_abandon(s, r, tr, seat):
    """Give up the lock or theft under attempt: the container and the attempt cards are
    discarded. Free: the turn goes on (ruling)."""
    if not can_abandon(s, r, seat):
        return E.ERR_ILLEGAL
    lock = s[E.fld(seat, S.F_LOCK)]
    if lock >= 0:
        E.end_lock(s, seat)
        E.record(tr, s, S.A_ABANDON, 0, lock)
    else:
        target = s[E.fld(seat, S.F_STEAL)]
        E.end_theft(s, seat)
        E.record(tr, s, S.A_ABANDON, 1, target)
    E.count(s, seat, S.C_ABANDONED)
    return 0
