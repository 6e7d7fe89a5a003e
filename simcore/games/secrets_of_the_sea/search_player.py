"""The Secrets of the Sea hooks of the `search` player (simcore.frame.search); the method and its
measured strength are in docs/policies-secrets-of-the-sea.md.

A turn is one dive: the first roll, the buoy and die, then a run of take-or-dive-on decisions
at every lit tile or empty space, each after more dice. The search decides each of those
(search_more: while the dive goes on), after seeing the dice and the lamp: take the tile, dive
on, stop (an empty space), or give an exchange tile to an opponent for their best tile (one
candidate per opponent). The other decisions of the turn -- the roll, the fight, the die and
buoy, the wreck tile -- are the base player's (one candidate: nothing to search). A candidate
is completed by the base player to the end of the turn; then the random stream restarts from
a value derived from the stream at the decision, so that in simulation j every candidate is
followed by the same dice (common random numbers for the rest of the game too, not only for
the dive).

What a seat cannot see is where the face-down tiles lie: search_hide deals the region's
unseen tiles again over its unseen spaces, uniformly among the deals that agree with what
the lamp has shown (a lit space keeps a tile of the kind it showed). Nothing else is hidden:
held tiles, wreck tiles and bonus tiles lie face up, and the dice are rolled in the
simulation's own stream."""

from __future__ import annotations

import numpy as np

from simcore.frame.jit import kernel
from simcore.frame.rng import rand_below, stream_for
from simcore.games.secrets_of_the_sea import board as B
from simcore.games.secrets_of_the_sea import rules as R
from simcore.games.secrets_of_the_sea import state as S
from simcore.games.secrets_of_the_sea.engine import (
    can_stop,
    do_exchange,
    do_roll,
    do_stop,
    do_take,
    exchange_ok,
    front_kind,
    lamp_kind,
    recount,
    space_at,
    tile_value,
)
from simcore.games.secrets_of_the_sea.policies import (
    POL_EV,
    POL_RANDOM,
    after,
    best_steal,
    bonus_gain,
    ev_ends_dive,
    ev_step,
    fill_kind_values,
    plan_turn,
    random_step,
    threshold_step,
    threshold_takes,
)

# The candidates at a decision (codes in x): the base player's own next action (a decision
# not searched), take the lit tile (an exchange tile: keep it), dive on, stop over an empty
# space, or OPT_GIVE + tile * MAX_SEATS + target: give the exchange tile to `target` for
# their `tile`.
OPT_BASE = 0
OPT_TAKE = 1
OPT_DIVE = 2
OPT_STOP = 3
OPT_GIVE = 4
MAX_SEATS = 8


@kernel
def best_from(s, r, seat, target):
    """The tile of `target` an exchange would best take for `seat` (its points plus the bonus
    it would complete; ties: the lowest tile id), or -1 when none may be taken."""
    best = -1.0
    bt = -1
    for t in range(r[R.P_N_TILES]):
        if s[S.O_OWNER + t] == target and exchange_ok(s, r, target, t):
            v = tile_value(r, t) + bonus_gain(s, r, seat, front_kind(r, t))
            if v > best:
                best = v
                bt = t
    return bt


@kernel
def search_options(s, r, seat, x, at):
    """The candidates of the decision under way into x[at:]: over a lit tile take / dive on
    (/ give an exchange tile to each opponent holding a tile it may take), over an empty
    space dive on / stop; any other decision is the base player's (one candidate)."""
    ph = s[S.S_PHASE]
    if s[S.S_GAME_OVER] == 1 or (ph != S.PH_LIT and ph != S.PH_EMPTY):
        x[at] = OPT_BASE
        return 1
    n = 0
    if ph == S.PH_LIT:
        x[at] = OPT_TAKE
        n = 1
        if lamp_kind(r, s[S.S_TILE]) == R.EXCHANGE:
            for o in range(r[R.P_PLAYERS]):
                if o != seat:
                    t = best_from(s, r, seat, o)
                    if t >= 0:
                        x[at + n] = OPT_GIVE + t * MAX_SEATS + o
                        n += 1
    elif can_stop(s, r):
        x[at] = OPT_STOP
        n = 1
    x[at + n] = OPT_DIVE
    return n + 1


@kernel
def base_choice(s, r, seat, pol, wts, xf):
    """The base player's own decision over a lit tile or an empty space, as a candidate code
    (-1 for the random player: no choice of its own)."""
    ph = s[S.S_PHASE]
    if pol == POL_EV:
        fill_kind_values(s, r, seat, xf)
        end = ev_ends_dive(s, r, seat, xf)
    elif pol == POL_RANDOM:
        return -1
    else:
        end = ph == S.PH_LIT and threshold_takes(s, r, seat, pol, wts)
    if not end:
        return OPT_DIVE
    if ph == S.PH_EMPTY:
        return OPT_STOP
    t = s[S.S_TILE]
    if lamp_kind(r, t) == R.EXCHANGE:
        v, o, bt = best_steal(s, r, seat)
        if v > tile_value(r, t) and exchange_ok(s, r, o, bt):
            return OPT_GIVE + bt * MAX_SEATS + o
    return OPT_TAKE


@kernel
def search_prefer(s, r, seat, base, wts, x, xf, at, n):
    """Which of the candidates x[at : at + n] the base player would choose (the first when
    it is not among them)."""
    c = base_choice(s, r, seat, base, wts, xf)
    for i in range(n):
        if x[at + i] == c:
            return i
    return 0


@kernel
def base_step(s, r, tr, seat, pol, wts, rng, xf):
    """One decision of the base player `pol` (its own, as in its turn)."""
    if pol == POL_RANDOM:
        return random_step(s, r, tr, seat, rng)
    if pol == POL_EV:
        fill_kind_values(s, r, seat, xf)
        return ev_step(s, r, tr, seat, rng, xf)
    return threshold_step(s, r, tr, seat, rng, pol, wts)


@kernel
def search_step(s, r, tr, seat, opt, pol, wts, rng, checked, x, xf, tab):
    """Decision `opt` only (OPT_BASE: the base player's)."""
    if opt == OPT_BASE:
        err = base_step(s, r, tr, seat, pol, wts, rng, xf)
    elif opt == OPT_TAKE:
        err = do_take(s, r, tr)
    elif opt == OPT_DIVE:
        err = do_roll(s, r, tr, rng)
    elif opt == OPT_STOP:
        err = do_stop(s, r, tr)
    else:
        g = opt - OPT_GIVE
        err = do_exchange(s, r, tr, g % MAX_SEATS, g // MAX_SEATS)
    return after(s, r, checked, err)


@kernel
def search_more(s, r, seat, turn):
    """The seat's dive goes on (another decision to make in this turn)."""
    return s[S.S_TURN] == turn and s[S.S_GAME_OVER] == 0


@kernel
def search_play(s, r, tr, seat, opt, pol, wts, rng, checked, x, xf, tab):
    """Decision `opt`, then the rest of the turn by policy `pol` (weights wts[seat]); then the
    stream goes on from a fixed function of its state at the decision."""
    at = rng[0]
    err = search_step(s, r, tr, seat, opt, pol, wts, rng, checked, x, xf, tab)
    if err == 0:
        err = plan_turn(s, r, tr, seat, pol, wts, rng, checked, xf)
    stream_for(at, np.uint64(1), rng)
    return err


@kernel(inline="always")
def unseen(s, q):
    """Space q holds a tile whose front nobody has seen (face down, lit or not)."""
    return s[S.O_SPACE + q] != S.EMPTY and s[S.O_KNOWN + q] != S.FRONT


@kernel(inline="always")
def dealable(s, r, g, a, b, kind):
    """While dealing the a-th space of region g (lit, showing `kind`): the tile on its b-th
    space may be dealt there (a tile of that kind on an unlit space, on a lit space not yet
    dealt, or already there)."""
    q = B.REGION_SPACES[g, b]
    if not unseen(s, q) or lamp_kind(r, s[S.O_SPACE + q]) != kind:
        return False
    return b >= a or s[S.O_KNOWN + q] == S.UNLIT


@kernel
def search_hide(s, r, seat, rng):
    """Deal each region's unseen tiles again over its unseen spaces, uniformly among the deals
    that give every lit space a tile of the kind the lamp showed there: first each lit space
    in turn draws its tile among those of its kind not yet dealt to a lit space (they lie on
    lit spaces not yet dealt or on unlit spaces; a swap keeps every space's kind right), then
    the tiles left on the unlit spaces are shuffled among them. The hidden-tile tables are
    then recounted (which unlit tiles are caves hiding a monster may have changed), and in
    the middle of a dive the tile under the lamp is the one now on its space."""
    for g in range(2):
        # lit spaces, in region order: draw among the tiles of its kind still free
        for a in range(B.PER_REGION):
            qa = B.REGION_SPACES[g, a]
            if not unseen(s, qa) or s[S.O_KNOWN + qa] != S.LIT:
                continue
            kind = lamp_kind(r, s[S.O_SPACE + qa])
            n = 0
            for b in range(B.PER_REGION):
                if dealable(s, r, g, a, b, kind):
                    n += 1
            k = rand_below(rng, n)
            for b in range(B.PER_REGION):
                if dealable(s, r, g, a, b, kind):
                    if k == 0:
                        qb = B.REGION_SPACES[g, b]
                        t = s[S.O_SPACE + qa]
                        s[S.O_SPACE + qa] = s[S.O_SPACE + qb]
                        s[S.O_SPACE + qb] = t
                        break
                    k -= 1
        # the unlit spaces: a Fisher-Yates shuffle of their tiles
        m = 0
        for b in range(B.PER_REGION):
            q = B.REGION_SPACES[g, b]
            if unseen(s, q) and s[S.O_KNOWN + q] == S.UNLIT:
                m += 1
        while m > 1:
            j = rand_below(rng, m)
            # the m-th and the j-th unlit spaces (0-based, in region order)
            qm = -1
            qj = -1
            c = 0
            for b in range(B.PER_REGION):
                q = B.REGION_SPACES[g, b]
                if unseen(s, q) and s[S.O_KNOWN + q] == S.UNLIT:
                    if c == j:
                        qj = q
                    if c == m - 1:
                        qm = q
                    c += 1
            t = s[S.O_SPACE + qm]
            s[S.O_SPACE + qm] = s[S.O_SPACE + qj]
            s[S.O_SPACE + qj] = t
            m -= 1
    recount(s, r)
    # the lit tile under the lamp (a decision in the middle of a dive) is now the one dealt
    # to its space: a tile of the kind the lamp showed there
    ph = s[S.S_PHASE]
    if ph == S.PH_LIT or ph == S.PH_FIGHT:
        s[S.S_TILE] = s[S.O_SPACE + space_at(s[S.S_COL], s[S.S_POS])]


HOOKS = (search_options, search_play, search_step, search_hide, search_more, search_prefer)
