"""Sunken City players as compiled functions. A player drives a whole turn through the
engine's do_* functions (the same legal-action path for every player) and returns 0, or an
error code when the engine refused an action (or, in checked mode, an invariant broke).

Only the `random` baseline lives here for now: it chooses uniformly among the legal options at
every decision (card; kind of action; each piece and its spot; each step; chip use; whether to
move the spirit and each spirit step; when to end the turn).
"""

from __future__ import annotations

from simcore.jit import kernel
from simcore.rng import rand_below
from simcore.sunken_city.engine import (
    ERR_ILLEGAL,
    K_CHIP,
    K_END,
    K_PLACE,
    K_STEP,
    any_house_spot,
    any_street_spot,
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
    house_spot_ok,
    list_house_squares,
    list_street_spots,
    spirit_targets,
    spot_free,
    step_targets,
    street_available,
    turn_options,
)
from simcore.sunken_city.rules import P_N_CARDS, P_N_HOUSE_SQ, P_N_SPOTS, R_HOUSE_SQ, R_SPOTS
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

MAX_ACTIONS_PER_TURN = 10_000


@kernel
def after(s, r, checked, err):
    """After an action: the engine's verdict, then (checked mode) the invariants."""
    if err != 0:
        return err
    if checked:
        return check_invariants(s, r)
    return 0


@kernel
def random_street(s, r, tr, rng, x):
    """A street on a uniformly chosen legal spot: rejection sampling over the board's spots
    (uniform over the legal ones), falling back to listing them when the lake is crowded."""
    n = r[P_N_SPOTS]
    for _ in range(24):
        k = rand_below(rng, n)
        if spot_free(s, r, k):
            return do_street(s, r, tr, r[R_SPOTS + 2 * k], r[R_SPOTS + 2 * k + 1])
    ns = list_street_spots(s, r, x, X_SPOTS)
    i = rand_below(rng, ns)
    return do_street(s, r, tr, x[X_SPOTS + 2 * i], x[X_SPOTS + 2 * i + 1])


@kernel
def random_house(s, r, tr, rng, x):
    """A uniformly chosen house from the grotto on a uniformly chosen legal square."""
    n = 0
    for h in range(1, 11):
        if house_in_grotto(s, r, h):
            x[X_OPTS + n] = h
            n += 1
    h = x[X_OPTS + rand_below(rng, n)]
    m = r[P_N_HOUSE_SQ]
    for _ in range(16):
        q = r[R_HOUSE_SQ + rand_below(rng, m)]
        if house_spot_ok(s, r, q):
            return do_house(s, r, tr, h, q)
    nh = list_house_squares(s, r, x, X_HSQ)
    return do_house(s, r, tr, h, x[X_HSQ + rand_below(rng, nh)])


@kernel
def random_place(s, r, tr, rng, x):
    """Raise one piece: street or house, uniform among the kinds possible now (a coin picks
    the kind to try first; the other is taken when the first is impossible)."""
    house_first = rand_below(rng, 2) == 1
    for attempt in range(2):
        if house_first == (attempt == 0):
            if s[S_HOUSE_DONE] == 0 and grotto_has_house(s, r) and any_house_spot(s, r):
                return random_house(s, r, tr, rng, x)
        elif street_available(s) and any_street_spot(s, r):
            return random_street(s, r, tr, rng, x)
    return ERR_ILLEGAL


@kernel
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


@kernel
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
        m = turn_options(s, r, seat, x)
        n = 0
        for k in range(5):
            if m & (1 << k):
                x[X_OPTS + n] = k
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
