"""The Sunken Treasure hooks of the `search` player (simcore.frame.search); the method and its
measured strength are in docs/policies-sunken-treasure.md.

A turn is one action (search, claim, attempt, Safety, surface, dive, bank, steal), perhaps
after giving up a trapped lock or a theft, which is free. The candidates are the turn's legal
options (engine_options.list_options, giving up included): an action ends the turn at once;
after giving up, the base player plays the rest of the turn.

What a seat cannot see is the order of the three decks (Item, Attempt, Treasure): search_hide
shuffles each deck's cards again. The discard piles, the cards held (containers and Safety
cards: the rulebook says "keep it", nothing hides them), the attempt cards on a lock and the
treasure carried are open; banked treasure was face up before it was banked, so its value is
known too (with three or more players a stolen card is seen only by the thief and its victim:
the one thing a third seat could not know, which the search treats as known)."""

from __future__ import annotations

from simcore.frame.jit import kernel
from simcore.games.sunken_treasure import state as S
from simcore.games.sunken_treasure.engine import shuffle
from simcore.games.sunken_treasure.engine_locks import do_abandon
from simcore.games.sunken_treasure.engine_options import K_ABANDON, do_option, list_options
from simcore.games.sunken_treasure.policies import POL_RANDOM, after, heuristic_turn, random_turn


@kernel
def search_options(s, r, seat, x, at):
    """The legal option codes of the seat's turn (giving up first, when it may), into x[at:]."""
    return list_options(s, r, seat, x, at, True)


@kernel
def search_play(s, r, tr, seat, opt, pol, wts, rng, checked, x, xf, tab):
    """The seat's whole turn: option `opt`; after giving up (which does not end the turn), the
    rest of the turn as policy `pol` plays it (weights wts[seat]; tab: the lock table)."""
    if opt // 8 != K_ABANDON:
        return after(s, r, checked, do_option(s, r, tr, rng, seat, opt))
    err = after(s, r, checked, do_abandon(s, r, tr, seat))
    if err != 0:
        return err
    if pol == POL_RANDOM:
        return random_turn(s, r, tr, seat, rng, checked, x)
    return heuristic_turn(s, r, tr, seat, wts, rng, checked, tab)


@kernel
def search_hide(s, r, seat, rng):
    """Shuffle the cards left in each deck (their order is all the seat cannot see)."""
    shuffle(s, S.O_ITEM_DECK, s[S.S_ITEM_N], rng)
    shuffle(s, S.O_ATT_DECK, s[S.S_ATT_N], rng)
    shuffle(s, S.O_TRE_DECK, s[S.S_TRE_N], rng)


HOOKS = (search_options, search_play, search_hide)
