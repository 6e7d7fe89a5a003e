"""The Sunken City hooks of the `search` player (simcore.frame.search): its candidates are the cards
in its hand, each completed by the base player (docs/policies-sunken-city.md). Sunken City
hides nothing from a player (every piece, hand and treasure lies open; the die is the only
chance, and the simulations roll their own), so the search needs no `search_hide`."""

from __future__ import annotations

import numpy as np

from simcore.frame.jit import driver, kernel
from simcore.games.sunken_city import rules as R
from simcore.games.sunken_city import state as S
from simcore.games.sunken_city.engine import treasure, treasure_value
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


CARRIED_WORTH = 0.6  # a carried treasure counts as this much of a banked one (it may be lost)
SHARPNESS = 1.0  # how much one treasure of lead is worth in the evaluation (log-odds)


@kernel
def potential(s, r, seat):
    """The seat's treasures as the evaluation counts them: banked, plus CARRIED_WORTH of each
    carried; in treasures ('count' scoring) or in values / 6 ('value' scoring, so that one
    treasure weighs about the same)."""
    v = 0.0
    for t in range(R.N_TREASURES):
        st = treasure(s, seat, t)
        w = 1.0 if r[R.P_SCORING] == 0 else treasure_value(t) / 6.0
        if st == S.BANKED:
            v += w
        elif st == S.CARRIED:
            v += CARRIED_WORTH * w
    return v


@kernel
def search_eval(s, r, seat, lead):
    """The value for `seat` of a simulation cut at the horizon: its share of the win estimated
    from the treasures banked and carried (exp(SHARPNESS * potential), normalised over the
    seats), plus `lead` times its potential lead over the best other seat scaled into -1..1
    (as simcore.frame.search.search_value does with the scores)."""
    n = r[R.P_PLAYERS]
    mine = potential(s, r, seat)
    total = 0.0
    best = -1e18
    for k in range(n):
        p = potential(s, r, k)
        total += np.exp(SHARPNESS * (p - mine))
        if k != seat and p > best:
            best = p
    v = 1.0 / total
    if n > 1 and lead > 0.0:
        v += lead * (mine - best) / (abs(mine) + abs(best) + 1.0)
    return v
