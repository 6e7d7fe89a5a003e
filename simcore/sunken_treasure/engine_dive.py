"""Sunken Treasure rules, in the water: searching for items, a shark attack when a search
puts the last Shark card on the board, and Safety cards.

Imports engine.py and engine_surface.py (a shark attack surfaces the divers); engine.py's
docstring gives the order of the modules and the arguments.
"""

from __future__ import annotations

import numpy as np

from simcore.jit import kernel
from simcore.sunken_treasure.board import (
    JUNK,
    SAFETY,
    SHARK,
)
from simcore.sunken_treasure.engine import (
    ERR_ILLEGAL,
    count,
    discard,
    diver_may_act,
    draw_item,
    fld,
    hand,
    is_up,
    items_left,
    on_turn,
    record,
    turn_done,
)
from simcore.sunken_treasure.engine_surface import (
    clear_sharks_if_all_up,
    go_up,
)
from simcore.sunken_treasure.rules import (
    P_PLAYERS,
    P_SHARKS,
)
from simcore.sunken_treasure.state import (
    A_SAFETY,
    A_SEARCH,
    A_SHARK_ATTACK,
    C_ATTACKED,
    C_SAFETY,
    F_HAND,
    O_ITEM_DISC,
    S_ATTACKS,
    S_ITEM_DN,
    S_SAFETY_PLAYED,
    S_SHARKS,
    S_SHARKS_DRAWN,
    UP_SHARKS,
)

# ---------------------------------------------------------------------------------------
# Sharks


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
# Legality queries


@kernel(inline="always")
def can_search(s, seat):
    """'Take an Item Card from deck' (a diver; the only choice on the first play)."""
    return on_turn(s, seat) and not is_up(s, seat) and items_left(s) > 0


@kernel(inline="always")
def can_safety(s, seat):
    """'play one Safety Card from your hand and eliminate one Shark Card' (a diver; ruling:
    'While surfaced, you can only dive again, bank treasure, or attempt to steal')."""
    return diver_may_act(s, seat) and hand(s, seat, SAFETY) > 0 and s[S_SHARKS] > 0


# ---------------------------------------------------------------------------------------
# Actions (each completes the turn)


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
