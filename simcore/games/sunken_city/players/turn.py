"""The heuristic players' turn: one compiled kernel driven by a weight vector (weights.py; the
presets are in presets.py). The turn is planned in the order raise -> move -> spirit, each step
through the engine's do_* actions: raising first builds the way the move needs, moving before
the spirit takes the adventurer out of the spirit's path. The card is chosen first, by the
value of the best route each card allows."""

from __future__ import annotations

from simcore.frame.bits import trailing_zeros
from simcore.frame.jit import kernel
from simcore.frame.rng import rand_float
from simcore.games.sunken_city import rules as R
from simcore.games.sunken_city import state as S
from simcore.games.sunken_city.engine import ERR_ILLEGAL, psq, treasure
from simcore.games.sunken_city.engine_invariants import check_invariants
from simcore.games.sunken_city.engine_moves import can_chip_now, do_chip, house_side_count
from simcore.games.sunken_city.engine_raising import can_place_now
from simcore.games.sunken_city.engine_turn import can_end_now, do_card, do_end_turn
from simcore.games.sunken_city.players.advanced import advanced_rest, forced_value
from simcore.games.sunken_city.players.common import INF, MAX_ACTIONS_PER_TURN, after, carried_value
from simcore.games.sunken_city.players.fields import closeness_fields, distance_fields, threat_table
from simcore.games.sunken_city.players.raising import heuristic_build
from simcore.games.sunken_city.players.random import random_place
from simcore.games.sunken_city.players.routes import key_houses, plan_route, walk_to
from simcore.games.sunken_city.players.scratch import (
    X_BEST_ROUTE,
    X_DIST_FROM_ADVENTURER,
    X_DIST_FROM_SPIRIT,
    X_KEY_HOUSES,
    X_SAVED_ROUTE,
    XF_BEST_VALUE_BY_POINTS,
    XF_URGENCY,
)
from simcore.games.sunken_city.players.spirit import heuristic_spirit
from simcore.games.sunken_city.players.weights import (
    W_AGGRESSION,
    W_BLOCK,
    W_BUILD,
    W_CHIP,
    W_GREED,
    W_NOISE,
)

POL_HEURISTIC = 1


@kernel(inline="always")
def streets_to_hourglass(s):
    """The streets left on the street spaces up to space 5, from the one drawn from now."""
    left = 0
    for k in range(s[S.S_DRAW_SPACE], 5):
        left += s[S.O_STACKS + k]
    return left


@kernel(inline="always")
def streets_per_round(s, r):
    """The streets raised per round so far (about two per seat before the first round is
    over)."""
    if s[S.S_ROUND] > 0:
        return s[S.S_STREETS_PLACED] / s[S.S_ROUND]
    return 2.0 * r[R.P_PLAYERS]


@kernel
def urgency(s, r):
    """How close the end is, 0..1: the streets left before the hourglass against the streets
    raised per round so far (about two per seat before the first round is over); 1 once the
    hourglass shows."""
    if s[S.S_HOURGLASS] == 1:
        return 1.0
    rate = streets_per_round(s, r)
    if rate < 1.0:
        rate = 1.0
    rounds_left = streets_to_hourglass(s) / rate
    u = 1.0 - rounds_left / 3.0
    if u < 0.0:
        return 0.0
    return u if u < 1.0 else 1.0


@kernel
def last_turn_chance(s, r, seat):
    """Chance that this is the seat's last turn: the game ends with the round, so it is
    when an end condition is already met, or when the seats after us in this round can use
    up the street spaces up to space 5 before our next turn."""
    if s[S.S_END_REASON] >= 0:
        return 1.0
    after = r[R.P_PLAYERS] - 1 - seat
    if after <= 0:
        return 0.0
    left = streets_to_hourglass(s)
    # the streets the seats after us draw this round
    e = streets_per_round(s, r) * after / r[R.P_PLAYERS]
    if e <= 0.0:
        return 0.0
    p = (1.5 * e - left) / e
    if p < 0.0:
        return 0.0
    return p if p < 1.0 else 1.0


@kernel
def noise_level(r, w):
    """The player's noise weight (negative values count as 0)."""
    nz = w[W_NOISE]
    return nz if nz > 0.0 else 0.0


@kernel
def choose_card(s, r, seat, w, x, xf, rng):
    """The card whose movement points buy the best route now (with a chip when one would
    be spent), plus the value of its pieces and of its spirit icon; with a noise weight, a
    random spread on each card's value (no draw at all when the noise is 0). With one card
    left in the hand there is nothing to choose (basic game: nothing computed here is needed
    later, the other phases compute what they read)."""
    hand = s[S.O_HAND + seat]
    if r[R.P_ADVANCED] == 0 and hand & (hand - 1) == 0:
        return trailing_zeros(hand)
    nz = noise_level(r, w)
    distance_fields(s, r, seat, x)
    maxb = 0
    for c in range(r[R.P_N_CARDS]):
        if s[S.O_HAND + seat] & (1 << c) and r[R.R_CARDS + 3 * c + 1] > maxb:
            maxb = r[R.R_CARDS + 3 * c + 1]
    extra = 0
    if r[R.P_CHIPS] == 1 and s[S.O_CHIPS + seat] > 0:
        extra = house_side_count(s, seat)
    top = maxb + extra
    if top > 40:
        top = 40
    plan_route(s, r, seat, w, top, x, xf, XF_BEST_VALUE_BY_POINTS, key_houses(s, r, seat, w, x, xf))
    need = 0.3
    for h in range(1, 11):
        if treasure(s, seat, h - 1) == S.HOUSE_SIDE:
            slot = S.HOUSE_BASE + h - 1
            if psq(s, slot, 0) < 0 or x[X_DIST_FROM_ADVENTURER + slot] >= INF:
                need = 1.0
    aggro = 0.0
    for o in range(r[R.P_PLAYERS]):
        a = s[S.O_ADVENTURER_SLOT + o]
        if o != seat and a != S.VILLAGE and x[X_DIST_FROM_SPIRIT + a] <= 3:
            aggro += carried_value(s, o)
    best = -1e18
    bc = -1
    for c in range(r[R.P_N_CARDS]):
        if not (s[S.O_HAND + seat] & (1 << c)):
            continue
        m = r[R.R_CARDS + 3 * c + 1]
        v = xf[XF_BEST_VALUE_BY_POINTS + min(m, top)]
        if extra > 0:
            vc = xf[XF_BEST_VALUE_BY_POINTS + min(m + extra, top)] - w[W_CHIP]
            if vc > v:
                v = vc
        if r[R.P_ADVANCED] == 1:
            # seed 001: the top number is building points or (sinking) forced spirit points
            top = r[R.R_CARDS + 3 * c]
            if s[S.S_PHASE] == S.PHASE_SINKING:
                v += forced_value(s, r, seat, w, top, x, xf)
            else:
                v += w[W_BUILD] * need * 2.0 * top
        else:
            v += w[W_BUILD] * need * 2.0 * r[R.R_CARDS + 3 * c]
            if r[R.R_CARDS + 3 * c + 2] == 1 or r[R.P_NEEDS_ICON] == 0:
                v += w[W_AGGRESSION] * 0.3 * aggro
        if nz > 0.0:
            # a spread like a person's: about +-nz treasures of value (greed-weighted)
            v += nz * w[W_GREED] * 15.0 * (rand_float(rng) + rand_float(rng) - 1.0)
        if v > best:
            best = v
            bc = c
    return bc


@kernel
def heuristic_move(s, r, tr, seat, w, x, xf):
    """Plan the route for the movement points we have (and with a chip when it gains at
    least the chip weight), then walk it."""
    if s[S.S_MOVE_LEFT] <= 0:
        return 0
    if r[R.P_ADVANCED] == 1:
        # the advanced game's threat depends on the stacks and the phase, which raising
        # may have changed since the card was chosen
        threat_table(s, r, seat, xf)
    distance_fields(s, r, seat, x)
    k = key_houses(s, r, seat, w, x, xf)
    budget = s[S.S_MOVE_LEFT]
    v0 = plan_route(s, r, seat, w, budget, x, xf, XF_BEST_VALUE_BY_POINTS, k)
    if can_chip_now(s, r, seat):
        for j in range(16):
            x[X_SAVED_ROUTE + j] = x[X_BEST_ROUTE + j]
        b2 = budget + house_side_count(s, seat)
        if b2 > 40:
            b2 = 40
        v1 = plan_route(s, r, seat, w, b2, x, xf, XF_BEST_VALUE_BY_POINTS, k)
        if v1 - v0 >= w[W_CHIP]:
            err = do_chip(s, r, tr, seat)
            if err != 0:
                return err
        else:
            for j in range(16):
                x[X_BEST_ROUTE + j] = x[X_SAVED_ROUTE + j]
    # walk the best route (X_BEST_ROUTE); the key slots are still in X_KEY_HOUSES
    for j in range(16):
        node = x[X_BEST_ROUTE + j]
        if node == -1:
            break
        target = S.VILLAGE if node == -2 else x[X_KEY_HOUSES + node]
        err = walk_to(s, r, tr, seat, target, x)
        if err != 0:
            return err
    return 0


@kernel
def heuristic_turn(s, r, tr, seat, w, rng, checked, x, xf):
    """One whole turn of a heuristic player: card, raising, move, spirit, end."""
    heuristic_prepare(s, r, seat, xf)
    c = choose_card(s, r, seat, w, x, xf, rng)
    return heuristic_rest(s, r, tr, seat, c, w, rng, checked, x, xf)


@kernel
def heuristic_prepare(s, r, seat, xf):
    """What the heuristic turn computes before its card: the urgency of the end and the
    spirit's threat (it stays where it is until the player's own spirit move)."""
    xf[XF_URGENCY] = urgency(s, r)
    xf[XF_URGENCY + 1] = last_turn_chance(s, r, seat)
    threat_table(s, r, seat, xf)


@kernel
def heuristic_rest(s, r, tr, seat, c, w, rng, checked, x, xf):
    """Play card `c`, then the rest of the heuristic turn: raising, move, spirit, end (after
    heuristic_prepare; the search completes its candidate cards so)."""
    err = after(s, r, checked, do_card(s, r, tr, seat, c))
    if err != 0:
        return err
    if w[W_BLOCK] != 0.0:
        # only the block terms read the closeness fields; with a block weight of 0 they add
        # 0.0 whatever the (finite) fields hold
        closeness_fields(s, r, seat, xf)
    err = heuristic_build(s, r, tr, seat, w, x, xf, rng)
    if err == 0 and checked:
        err = check_invariants(s, r)
    if err == 0:
        err = after(s, r, checked, heuristic_move(s, r, tr, seat, w, x, xf))
    if err == 0:
        err = heuristic_spirit(s, r, tr, seat, w, rng, checked, x, xf)
    if err == 0 and r[R.P_ADVANCED] == 1:
        err = advanced_rest(s, r, tr, seat, w, rng, checked, x, xf)
    # whatever is still owed (a sunk street may have come back onto space 6)
    for _ in range(MAX_ACTIONS_PER_TURN):
        if err != 0 or can_end_now(s, r):
            break
        if can_place_now(s, r):
            err = after(s, r, checked, random_place(s, r, tr, rng, x))
        else:
            return ERR_ILLEGAL
    if err != 0:
        return err
    return after(s, r, checked, do_end_turn(s, r, tr))
