"""The Sunken City hooks of the `search` player (simcore.frame.search): its candidates are the cards
in its hand, each completed by the base player (docs/policies-sunken-city.md). Sunken City
hides nothing from a player (every piece, hand and treasure lies open; the die is the only
chance, and the simulations roll their own), so the search needs no `search_hide`."""

from __future__ import annotations

from simcore.frame.jit import driver, kernel
from simcore.games.sunken_city import rules as R
from simcore.games.sunken_city import state as S
from simcore.games.sunken_city.players.random import POL_RANDOM, random_rest
from simcore.games.sunken_city.players.turn import heuristic_prepare, heuristic_rest


@kernel
def search_options(s, r, seat, x, at):
    """The cards in the seat's hand, into x[at:]."""
    n = 0
    for c in range(r[R.P_N_CARDS]):
        if s[S.O_HAND + seat] & (1 << c):
            x[at + n] = c
            n += 1
    return n


@driver
def search_play(s, r, tr, seat, card, pol, wts, rng, checked, x, xf, tab):
    """The seat's whole turn: `card`, then the rest as policy `pol` plays it with the seat's
    weights (a driver, as play.play_turn: the heuristic reads its weights as a row)."""
    if pol == POL_RANDOM:
        return random_rest(s, r, tr, seat, card, rng, checked, x)
    heuristic_prepare(s, r, seat, xf)
    return heuristic_rest(s, r, tr, seat, card, wts[seat], rng, checked, x, xf)
