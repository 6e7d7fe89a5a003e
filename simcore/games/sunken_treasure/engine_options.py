"""Sunken Treasure rules, the legal options of a turn as codes (kind * 8 + argument): the
players list them and apply one (the random player draws among them; the heuristic chooses a
code and applies it through act_option).

Imports the action modules (engine_surface.py, engine_dive.py, engine_locks.py).
"""

from __future__ import annotations

from simcore.frame.jit import kernel
from simcore.games.sunken_treasure import board as B
from simcore.games.sunken_treasure import engine as E
from simcore.games.sunken_treasure import rules as R
from simcore.games.sunken_treasure import state as S
from simcore.games.sunken_treasure.engine_dive import act_safety, act_search, can_safety, can_search
from simcore.games.sunken_treasure.engine_locks import (
    act_attempt,
    act_claim,
    can_abandon,
    can_attempt,
    can_claim,
    do_abandon,
)
from simcore.games.sunken_treasure.engine_surface import (
    act_bank,
    act_dive,
    act_steal,
    act_surface,
    can_bank,
    can_dive,
    can_steal,
    can_surface,
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
# Legal options as codes, and applying one


@kernel
def list_options(s, r, seat, x, o, with_abandon):
    """Write the legal option codes of the seat's turn into x[o:]; returns how many."""
    n = 0
    if with_abandon and can_abandon(s, r, seat):
        x[o + n] = K_ABANDON * 8
        n += 1
    if E.is_up(s, seat):
        if can_dive(s, seat):
            x[o + n] = K_DIVE * 8
            n += 1
        if can_bank(s, r, seat):
            x[o + n] = K_BANK * 8
            n += 1
        for t in range(r[R.P_PLAYERS]):
            if can_steal(s, r, seat, t):
                x[o + n] = K_STEAL * 8 + t
                n += 1
        return n
    if can_search(s, seat):
        x[o + n] = K_SEARCH * 8
        n += 1
    if s[E.fld(seat, S.F_PLAYED)] == 0:
        return n
    for kind in range(B.UNLOCKED_BOX, B.UNLOCKED_CHEST + 1):
        if can_claim(s, seat, kind):
            x[o + n] = K_CLAIM * 8 + kind
            n += 1
    for kind in range(B.LOCKED_BOX, B.LOCKED_SAFE + 1):
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
    return E.ERR_ILLEGAL


@kernel
def do_option(s, r, tr, rng, seat, code):
    """Apply one option code; 0 or ERR_ILLEGAL. Every action but abandon ends the turn."""
    if code // 8 == K_ABANDON:
        return do_abandon(s, r, tr, seat)
    return E.turn_done(s, r, tr, act_option(s, r, tr, rng, seat, code))
