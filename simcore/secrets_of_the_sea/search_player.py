"""The Secrets of the Sea hooks of the `search` player (simcore.search); the method and its
measured strength are in docs/policies-secrets-of-the-sea.md.

A turn is one dive: the first roll, the buoy and die, then a run of take-or-dive-on decisions
at every lit tile or empty space. A candidate is a plan for the whole dive, chosen before the
first roll: a bias (in points) added to the value of taking, which the base player's own
decisions then follow (policies.plan_turn). The plans: the base player as it is (first, so
that ties keep it), more daring (-1) and more cautious (+1). After the dive the random
stream restarts from a value derived from the stream at the start of the turn, so that in
simulation j every plan is followed by the same dice (common random numbers for the rest of
the game too, not only for the dive).

What a seat cannot see is where the face-down tiles lie: search_hide deals the region's
unseen tiles again over its unseen spaces, uniformly among the deals that agree with what
the lamp has shown (a lit space keeps a tile of the kind it showed). Nothing else is hidden:
held tiles, wreck tiles and bonus tiles lie face up, and the dice are rolled in the
simulation's own stream."""

from __future__ import annotations

import numpy as np

from simcore.jit import kernel
from simcore.rng import rand_below, stream_for
from simcore.secrets_of_the_sea import board as B
from simcore.secrets_of_the_sea import state as S
from simcore.secrets_of_the_sea.engine import lamp_kind, recount
from simcore.secrets_of_the_sea.policies import plan_turn

# The plans' biases, in candidate order: the base player itself first.
PLAN_BIAS = np.array([0.0, -1.0, 1.0])
N_PLANS = len(PLAN_BIAS)


@kernel
def search_options(s, r, seat, x, at):
    """The plans, as indices into PLAN_BIAS, into x[at:]."""
    for i in range(N_PLANS):
        x[at + i] = i
    return N_PLANS


@kernel
def search_play(s, r, tr, seat, opt, pol, wts, rng, checked, x, xf, tab):
    """The seat's whole turn: policy `pol` (weights wts[seat]) with plan `opt`'s bias; then the
    stream goes on from a fixed function of its state at the start of the turn."""
    at = rng[0]
    err = plan_turn(s, r, tr, seat, pol, wts, rng, checked, xf, PLAN_BIAS[opt])
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
    then recounted (which unlit tiles are caves hiding a monster may have changed)."""
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
