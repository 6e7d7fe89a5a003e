"""The `random` player: uniform among the legal options at every decision (card; kind of action;
each piece and its spot; each step; chip use; whether to move the spirit and each spirit step;
when to end the turn). The baseline for fuzzing; the heuristic player borrows its piece
placement when it has nothing better to raise."""

from __future__ import annotations

from simcore.frame.jit import kernel
from simcore.frame.rng import rand_below
from simcore.games.sunken_city import rules as R
from simcore.games.sunken_city import state as S
from simcore.games.sunken_city.engine import ERR_ILLEGAL, street_available
from simcore.games.sunken_city.engine_advanced import do_banish, do_grotto, do_sink_step, grotto_ok
from simcore.games.sunken_city.engine_moves import do_chip, do_step, step_targets
from simcore.games.sunken_city.engine_raising import (
    any_house_spot,
    any_street_spot,
    do_house,
    do_street,
    grotto_has_house,
    house_raisable,
    house_spot_ok,
    list_house_squares,
    list_street_spots,
    spot_free,
)
from simcore.games.sunken_city.engine_spirit import (
    do_spirit_begin,
    do_spirit_step,
    do_spirit_stop,
    spirit_targets,
)
from simcore.games.sunken_city.engine_turn import (
    K_BANISH,
    K_CHIP,
    K_END,
    K_PLACE,
    K_SINK,
    K_SPIRIT,
    K_STEP,
    N_KINDS,
    do_card,
    do_end_turn,
    turn_options,
)
from simcore.games.sunken_city.players.common import MAX_ACTIONS_PER_TURN, after

# Policy ids (the registry in simcore/games/sunken_city/__init__.py maps names to these).
POL_RANDOM = 0


@kernel
def random_street(s, r, tr, rng, x):
    """A street on a uniformly chosen legal spot: rejection sampling over the board's spots
    (uniform over the legal ones), falling back to listing them when the lake is crowded."""
    n = r[R.P_N_SPOTS]
    for _ in range(24):
        k = rand_below(rng, n)
        if spot_free(s, r, k):
            return do_street(s, r, tr, r[R.R_SPOTS + 2 * k], r[R.R_SPOTS + 2 * k + 1])
    ns = list_street_spots(s, r, x, S.X_STREET_SPOTS)
    i = rand_below(rng, ns)
    return do_street(s, r, tr, x[S.X_STREET_SPOTS + 2 * i], x[S.X_STREET_SPOTS + 2 * i + 1])


@kernel
def random_house(s, r, tr, rng, x):
    """A uniformly chosen house from the grotto on a uniformly chosen legal square."""
    n = 0
    for h in range(1, 11):
        if house_raisable(s, r, h):
            x[S.X_OPTIONS + n] = h
            n += 1
    h = x[S.X_OPTIONS + rand_below(rng, n)]
    m = r[R.P_N_HOUSE_SQ]
    for _ in range(16):
        q = r[R.R_HOUSE_SQ + rand_below(rng, m)]
        if house_spot_ok(s, r, q):
            return do_house(s, r, tr, h, q)
    nh = list_house_squares(s, r, x, S.X_HOUSE_SQUARES)
    return do_house(s, r, tr, h, x[S.X_HOUSE_SQUARES + rand_below(rng, nh)])


@kernel
def random_place(s, r, tr, rng, x):
    """Raise one piece: street or house, uniform among the kinds possible now (a coin picks
    the kind to try first; the other is taken when the first is impossible)."""
    house_first = rand_below(rng, 2) == 1
    for attempt in range(2):
        if house_first == (attempt == 0):
            if s[S.S_HOUSE_RAISED] == 0 and grotto_has_house(s, r) and any_house_spot(s, r):
                return random_house(s, r, tr, rng, x)
        elif street_available(s) and any_street_spot(s, r):
            return random_street(s, r, tr, rng, x)
    return ERR_ILLEGAL


@kernel
def random_spirit(s, r, tr, seat, rng, checked, x):
    """Move the spirit: begin (the die may be rolled), then at each point stop or step to a
    uniformly chosen neighbouring piece."""
    err = after(s, r, checked, do_spirit_begin(s, r, tr, seat, rng, x))
    while err == 0 and s[S.S_SPIRIT_ACTIVE] == 1:
        m = spirit_targets(s, x, S.X_NEIGHBOURS)
        k = rand_below(rng, m + 1)
        if k == m:
            err = do_spirit_stop(s, r, tr, seat)
        else:
            err = do_spirit_step(s, r, tr, seat, x[S.X_NEIGHBOURS + k], x)
        err = after(s, r, checked, err)
    return err


@kernel
def random_turn(s, r, tr, seat, rng, checked, x):
    """Play one whole turn for `seat`, choosing uniformly among legal options at each
    decision. Returns 0 or an error code."""
    n = 0
    for c in range(r[R.P_N_CARDS]):
        if s[S.O_HAND + seat] & (1 << c):
            x[S.X_OPTIONS + n] = c
            n += 1
    return random_rest(s, r, tr, seat, x[S.X_OPTIONS + rand_below(rng, n)], rng, checked, x)


@kernel
def random_rest(s, r, tr, seat, card, rng, checked, x):
    """Play `card`, then the rest of the turn uniformly among the legal options at each
    decision (random_turn after its card; the search completes its candidate cards so)."""
    err = after(s, r, checked, do_card(s, r, tr, seat, card))
    for _ in range(MAX_ACTIONS_PER_TURN):
        if err != 0:
            return err
        m = turn_options(s, r, seat, x)
        n = 0
        for k in range(N_KINDS):
            if m & (1 << k):
                x[S.X_OPTIONS + n] = k
                n += 1
        if n == 0:
            return ERR_ILLEGAL
        k = x[S.X_OPTIONS + rand_below(rng, n)]
        if k == K_END:
            return after(s, r, checked, do_end_turn(s, r, tr))
        if k == K_PLACE:
            err = random_place(s, r, tr, rng, x)
        elif k == K_STEP:
            m = step_targets(s, r, seat, x, S.X_NEIGHBOURS)
            err = do_step(s, r, tr, seat, x[S.X_NEIGHBOURS + rand_below(rng, m)], x)
        elif k == K_CHIP:
            err = do_chip(s, r, tr, seat)
        elif k == K_SPIRIT:
            err = random_spirit(s, r, tr, seat, rng, checked, x)
        elif k == K_SINK:
            m = spirit_targets(s, x, S.X_NEIGHBOURS)
            err = do_sink_step(s, r, tr, seat, x[S.X_NEIGHBOURS + rand_below(rng, m)], x)
        elif k == K_BANISH:
            err = do_banish(s, r, tr, seat, random_grotto(s, r, rng, 0, x), x)
        else:
            # moving the spirit to another grotto space is optional: half the time it stays
            # (for now; the right lasts the turn)
            if rand_below(rng, 2) == 0:
                err = do_grotto(s, r, tr, seat, random_grotto(s, r, rng, s[S.S_GROTTO_SPACE], x))
        err = after(s, r, checked, err)
    return ERR_ILLEGAL


@kernel
def random_grotto(s, r, rng, other_than, x):
    """A uniformly chosen grotto space the spirit may be sent to, other than `other_than`."""
    n = 0
    for g in range(1, R.N_HOUSES + 1):
        if grotto_ok(r, g) and g != other_than:
            x[S.X_OPTIONS + n] = g
            n += 1
    return x[S.X_OPTIONS + rand_below(rng, n)]
