"""Sunken Treasure rules, in the water: searching for items, a shark attack when a search
puts the last Shark card on the board, and Safety cards.

Imports engine.py and engine_surface.py (a shark attack surfaces the divers); engine.py's
docstring gives the order of the modules and the arguments.
"""

from __future__ import annotations

import numpy as np

from simcore.frame.jit import kernel
from simcore.games.sunken_treasure import board as B
from simcore.games.sunken_treasure import engine as E
from simcore.games.sunken_treasure import rules as R
from simcore.games.sunken_treasure import state as S
from simcore.games.sunken_treasure.engine_surface import clear_sharks_if_all_up, go_up

# ---------------------------------------------------------------------------------------
# Sharks


@kernel
def shark_attack(s, r, tr):
    """'If a third Shark Card is placed on the board, divers in the water are under attack and
    must immediately surface and discard all their cards except any banked treasure.' Every
    player is then up, so the sharks are discarded."""
    mask = 0
    for seat in range(r[R.P_PLAYERS]):
        if not E.is_up(s, seat):
            mask |= 1 << seat
    s[S.S_ATTACKS] += 1
    E.record(tr, s, S.A_SHARK_ATTACK, mask)
    for seat in range(r[R.P_PLAYERS]):
        if mask & (1 << seat):
            E.count(s, seat, S.C_ATTACKED)
            go_up(s, r, tr, seat, S.UP_SHARKS)
    clear_sharks_if_all_up(s, r, tr)


# ---------------------------------------------------------------------------------------
# Legality queries


@kernel(inline="always")
def can_search(s, seat):
    """'Take an Item Card from deck' (a diver; the only choice on the first play)."""
    return E.on_turn(s, seat) and not E.is_up(s, seat) and E.items_left(s) > 0


@kernel(inline="always")
def can_safety(s, seat):
    """'play one Safety Card from your hand and eliminate one Shark Card' (a diver; ruling:
    'While surfaced, you can only dive again, bank treasure, or attempt to steal')."""
    return E.diver_may_act(s, seat) and E.hand(s, seat, B.SAFETY) > 0 and s[S.S_SHARKS] > 0


# ---------------------------------------------------------------------------------------
# Actions (each completes the turn)


@kernel(inline="always")
def act_search(s, r, tr, rng, seat):
    """'Take an Item Card from deck. If it is a Treasure card or Safety card, keep it. If it
    is Junk, discard it. If it is a Shark card, place it on the board.'"""
    if not can_search(s, seat):
        return E.ERR_ILLEGAL
    card = E.draw_item(s, r, tr, rng)
    # Without branches on the card drawn (a branch on a random card is mispredicted often):
    # Junk goes on the discard pile (the card is written there in any case, one place past
    # the pile when it is not Junk, where nothing is read), a Shark on the board, the rest
    # in the hand (adding 0 to the hand's Junk or Shark count otherwise).
    junk = np.int64(card == B.JUNK)
    shark = np.int64(card == B.SHARK)
    dn = s[S.S_ITEM_DN]
    s[S.O_ITEM_DISC + dn] = card
    s[S.S_ITEM_DN] = dn + junk
    s[S.S_SHARKS] += shark
    s[S.S_SHARKS_DRAWN] += shark
    s[E.fld(seat, S.F_HAND + card)] += 1 - junk - shark
    E.record(tr, s, S.A_SEARCH, card, s[S.S_SHARKS])
    if (card == B.SHARK) & (s[S.S_SHARKS] >= r[R.P_SHARKS]):
        shark_attack(s, r, tr)
    return 0


@kernel(inline="always")
def do_search(s, r, tr, rng, seat):
    """act_search, then the end of the turn."""
    return E.turn_done(s, r, tr, act_search(s, r, tr, rng, seat))


@kernel
def act_safety(s, r, tr, seat):
    """'play one Safety Card from your hand and eliminate one Shark Card. Both cards are
    discarded. Only one Safety Card can be played per turn and completes the turn.'"""
    if not can_safety(s, seat):
        return E.ERR_ILLEGAL
    s[E.fld(seat, S.F_HAND + B.SAFETY)] -= 1
    s[S.S_SHARKS] -= 1
    E.discard(s, S.O_ITEM_DISC, S.S_ITEM_DN, B.SAFETY)
    E.discard(s, S.O_ITEM_DISC, S.S_ITEM_DN, B.SHARK)
    s[S.S_SAFETY_PLAYED] += 1
    E.count(s, seat, S.C_SAFETY)
    E.record(tr, s, S.A_SAFETY, s[S.S_SHARKS])
    return 0


@kernel(inline="always")
def do_safety(s, r, tr, seat):
    """act_safety, then the end of the turn."""
    return E.turn_done(s, r, tr, act_safety(s, r, tr, seat))
