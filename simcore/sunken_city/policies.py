"""Sunken City players as compiled functions. A player drives a whole turn through the
engine's do_* functions (the same legal-action path for every player) and returns 0, or an
error code when the engine refused an action (or, in checked mode, an invariant broke).

Only the `random` baseline lives here for now: it chooses uniformly among the legal options at
every decision (card; kind of action; each piece and its spot; each step; chip use; whether to
move the spirit and each spirit step; when to end the turn).
"""

from __future__ import annotations

from numba import njit

from simcore.rng import rand_below
from simcore.sunken_city.engine import (
    ERR_ILLEGAL,
    any_house_spot,
    any_street_spot,
    can_chip_now,
    can_end_now,
    can_place_now,
    can_spirit_now,
    can_step_now,
    check_invariants,
    do_card,
    do_chip,
    do_end_turn,
    do_house,
    do_spirit_begin,
    do_spirit_step,
    do_spirit_stop,
    do_step,
    do_street,
    grotto_has_house,
    house_in_grotto,
    list_house_squares,
    list_street_spots,
    spirit_targets,
    step_targets,
    street_available,
)
from simcore.sunken_city.rules import P_N_CARDS
from simcore.sunken_city.state import (
    O_HAND,
    S_HOUSE_DONE,
    S_SPIRIT_ACTIVE,
    X_HSQ,
    X_NB,
    X_OPTS,
    X_SPOTS,
)

# Policy ids (the registry in simcore/sunken_city/__init__.py maps names to these).
POL_RANDOM = 0

# Kinds of action a turn offers.
K_PLACE, K_STEP, K_CHIP, K_SPIRIT, K_END = 0, 1, 2, 3, 4
MAX_ACTIONS_PER_TURN = 10_000


@njit(cache=True)
def after(s, r, checked, err):
    """After an action: the engine's verdict, then (checked mode) the invariants."""
    if err != 0:
        return err
    if checked:
        return check_invariants(s, r)
    return 0


@njit(cache=True)
def random_place(s, r, tr, rng, x):
    """Raise one piece: street or house (uniform among the kinds possible now), then a uniform
    spot (and a uniform house from the grotto)."""
    street_ok = street_available(s) and any_street_spot(s, r)
    house_ok = s[S_HOUSE_DONE] == 0 and grotto_has_house(s, r) and any_house_spot(s, r)
    if street_ok and (not house_ok or rand_below(rng, 2) == 0):
        ns = list_street_spots(s, r, x, X_SPOTS)
        i = rand_below(rng, ns)
        return do_street(s, r, tr, x[X_SPOTS + 2 * i], x[X_SPOTS + 2 * i + 1])
    if not house_ok:
        return ERR_ILLEGAL
    nh = list_house_squares(s, r, x, X_HSQ)
    n = 0
    for h in range(1, 11):
        if house_in_grotto(s, r, h):
            x[X_OPTS + n] = h
            n += 1
    h = x[X_OPTS + rand_below(rng, n)]
    return do_house(s, r, tr, h, x[X_HSQ + rand_below(rng, nh)])


@njit(cache=True)
def random_spirit(s, r, tr, seat, rng, checked, x):
    """Move the spirit: begin (the die may be rolled), then at each point stop or step to a
    uniformly chosen neighbouring piece."""
    err = after(s, r, checked, do_spirit_begin(s, r, tr, seat, rng, x))
    while err == 0 and s[S_SPIRIT_ACTIVE] == 1:
        m = spirit_targets(s, x, X_NB)
        k = rand_below(rng, m + 1)
        if k == m:
            err = do_spirit_stop(s, r, tr, seat)
        else:
            err = do_spirit_step(s, r, tr, seat, x[X_NB + k], x)
        err = after(s, r, checked, err)
    return err


@njit(cache=True)
def random_turn(s, r, tr, seat, rng, checked, x):
    """Play one whole turn for `seat`, choosing uniformly among legal options at each
    decision. Returns 0 or an error code."""
    n = 0
    for c in range(r[P_N_CARDS]):
        if s[O_HAND + seat] & (1 << c):
            x[X_OPTS + n] = c
            n += 1
    err = after(s, r, checked, do_card(s, r, tr, seat, x[X_OPTS + rand_below(rng, n)]))
    for _ in range(MAX_ACTIONS_PER_TURN):
        if err != 0:
            return err
        n = 0
        if can_place_now(s, r):
            x[X_OPTS + n] = K_PLACE
            n += 1
        if can_step_now(s, r, seat, x):
            x[X_OPTS + n] = K_STEP
            n += 1
        if can_chip_now(s, r, seat):
            x[X_OPTS + n] = K_CHIP
            n += 1
        if can_spirit_now(s, r, seat, x):
            x[X_OPTS + n] = K_SPIRIT
            n += 1
        if can_end_now(s, r):
            x[X_OPTS + n] = K_END
            n += 1
        if n == 0:
            return ERR_ILLEGAL
        k = x[X_OPTS + rand_below(rng, n)]
        if k == K_END:
            return after(s, r, checked, do_end_turn(s, r, tr))
        if k == K_PLACE:
            err = random_place(s, r, tr, rng, x)
        elif k == K_STEP:
            m = step_targets(s, r, seat, x, X_NB)
            err = do_step(s, r, tr, seat, x[X_NB + rand_below(rng, m)], x)
        elif k == K_CHIP:
            err = do_chip(s, r, tr, seat)
        else:
            err = random_spirit(s, r, tr, seat, rng, checked, x)
        err = after(s, r, checked, err)
    return ERR_ILLEGAL
