"""Sunken Treasure rules, the containers: claiming an unlocked box or chest, breaking a
lock one Attempt card per turn (Open, Cracked, No Effect, Fail, Trapped), and giving up the
lock or theft under attempt (free: the turn goes on).

Imports engine.py and engine_surface.py (a second Trapped card surfaces the diver); engine.py's
docstring gives the order of the modules and the arguments.
"""

from __future__ import annotations

from simcore.jit import kernel
from simcore.sunken_treasure.board import (
    CRACKED,
    FAIL,
    LOCKED_BOX,
    LOCKED_SAFE,
    OPEN,
    TRAPPED,
    UNLOCKED_BOX,
    UNLOCKED_CHEST,
)
from simcore.sunken_treasure.engine import (
    ERR_ILLEGAL,
    attempts_left,
    count,
    discard,
    diver_may_act,
    draw_attempt,
    end_lock,
    end_theft,
    fld,
    hand,
    on_turn,
    record,
    stack,
    take_treasure,
    turn_done,
)
from simcore.sunken_treasure.engine_surface import (
    clear_sharks_if_all_up,
    go_up,
)
from simcore.sunken_treasure.rules import (
    P_ABANDON_NEEDS_TRAP,
    P_SECOND_CRACKED_FULL,
    R_BAGS,
)
from simcore.sunken_treasure.state import (
    A_ABANDON,
    A_ATTEMPT,
    A_CLAIM,
    C_ABANDONED,
    C_LOCKS_FAILED,
    C_OPENED,
    C_TRAP_SURFACED,
    F_HAND,
    F_LOCK,
    F_STACK,
    F_STEAL,
    O_FAILED,
    O_GOES_ON,
    O_ITEM_DISC,
    O_OPENED,
    O_TRAPPED_OUT,
    S_ITEM_DN,
    UP_TRAP,
)

# ---------------------------------------------------------------------------------------
# Legality queries


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
