"""Sunken Treasure players as compiled functions. A player plays its whole turn through the
engine's legal-action path, the same for every player: an option code applied by
engine_options.do_option (the heuristic applies act_option and ends the turn itself, so that
the actions are compiled inline once), and engine_locks.do_abandon. It returns 0, or an error
code when the engine refused an action (or, in checked mode, an invariant broke).

`random` chooses uniformly among the legal options of the turn (giving up a trapped lock or
theft counts as one option; after it the turn's options are listed again). The heuristics
share one decision procedure, `heuristic_turn`, driven by a weight vector (W_* below); the
named players (balanced, banker, lockbreaker, thief) are its default weight settings
(simcore/games/sunken_treasure/__init__.py), docs/policies-sunken-treasure.md explains them.
"""

from __future__ import annotations

from simcore.frame.jit import kernel
from simcore.frame.playerkit import bind_after
from simcore.frame.rng import rand_below
from simcore.games.sunken_treasure import board as B
from simcore.games.sunken_treasure import rules as R
from simcore.games.sunken_treasure import state as S
from simcore.games.sunken_treasure.engine import (
    ERR_ILLEGAL,
    banked_value,
    carried_value,
    end_turn_in,
    fld,
    hand,
    head_start,
    is_up,
    stack,
)
from simcore.games.sunken_treasure.engine_dive import can_safety, can_search
from simcore.games.sunken_treasure.engine_invariants import check_invariants
from simcore.games.sunken_treasure.engine_locks import (
    can_abandon,
    can_attempt,
    can_claim,
    do_abandon,
)
from simcore.games.sunken_treasure.engine_options import (
    K_ATTEMPT,
    K_BANK,
    K_CLAIM,
    K_DIVE,
    K_SAFETY,
    K_SEARCH,
    K_STEAL,
    K_SURFACE,
    act_option,
    do_option,
    list_options,
)
from simcore.games.sunken_treasure.engine_surface import can_bank, can_steal

# Policy ids (the registry in simcore/games/sunken_treasure/__init__.py maps names to these).
POL_RANDOM = 0
POL_BALANCED = 1
POL_BANKER = 2
POL_LOCKBREAKER = 3
POL_THIEF = 4

# The heuristic's weights (one vector layout for every heuristic player).
W_BANK_AT = 0  # surface once this many $1000 of treasure are carried face up
W_MARGIN = 1  # danger when sharks >= sharks_to_attack - margin (0: never afraid)
W_SAFETY = 2  # > 0: in danger, play a Safety card before surfacing
W_LOCK_MIN = 3  # work on a lock only when its expected payout is >= this many $1000
W_STEAL_AT = 4  # rob a diver with >= this many $1000 banked; < 0: never steal
W_TRAP_QUIT = 5  # > 0: give up a trapped lock when going on is worth less than nothing
W_HUNT = 6  # > 0: a diver carrying nothing surfaces to rob a diver worth robbing
W_RISK = 7  # weight of the carried treasure a second Trapped would cost, in a lock's value


# After an action: the engine's verdict, then (checked mode) the invariants.
after = bind_after(__name__, check_invariants, inline="always")


@kernel
def random_turn(s, r, tr, seat, rng, checked, x):
    """One whole turn for `seat`, uniform among the legal options."""
    n = list_options(s, r, seat, x, S.X_OPTS, True)
    if n == 0:
        return ERR_ILLEGAL
    code = x[S.X_OPTS + rand_below(rng, n)]
    err = after(s, r, checked, do_option(s, r, tr, rng, seat, code))
    if err != 0 or code // 8 != 8:  # every option but K_ABANDON completes the turn
        return err
    n = list_options(s, r, seat, x, S.X_OPTS, False)
    if n == 0:
        return ERR_ILLEGAL
    code = x[S.X_OPTS + rand_below(rng, n)]
    return after(s, r, checked, do_option(s, r, tr, rng, seat, code))


# ---------------------------------------------------------------------------------------
# Valuing a lock: the chance it opens and the chance a second Trapped ends it badly, from the
# attempt deck's composition (No Effect cards only delay; "Cracked" twice opens).


@kernel
def lock_odds(r, cracked, trapped):
    """(P(the lock opens), P(a second Trapped)) from a lock with `cracked` / `trapped` cards
    already on it, drawing from the full attempt deck's mix (Fail ends it with nothing)."""
    o = float(r[R.R_ATTEMPT_COUNTS + B.OPEN])
    c = float(r[R.R_ATTEMPT_COUNTS + B.CRACKED])
    f = float(r[R.R_ATTEMPT_COUNTS + B.FAIL])
    t = float(r[R.R_ATTEMPT_COUNTS + B.TRAPPED])
    q = o + c + f + t
    if q <= 0.0:
        return 0.0, 0.0
    o /= q
    c /= q
    t /= q
    s11 = o + c
    d11 = t
    if cracked >= 1 and trapped >= 1:
        return s11, d11
    s10 = o + c + t * s11
    d10 = t * d11
    if cracked >= 1:
        return s10, d10
    s01 = o + c * s11
    d01 = t + c * d11
    if trapped >= 1:
        return s01, d01
    return o + c * s10 + t * s01, c * d10 + t * d01


@kernel
def mean_treasure(r):
    """Mean dollar value of a Treasure card."""
    v = 0.0
    n = 0.0
    for k in range(r[R.P_N_TKINDS]):
        v += r[R.R_TVALUE + k] * r[R.R_TCOUNT + k]
        n += r[R.R_TCOUNT + k]
    return v / n if n > 0 else 0.0


LT_SIZE = 9  # lock table: (P(open), P(second Trapped)) by (cracked >= 1, trapped >= 1), mean card


@kernel
def lock_table(r, lt):
    """Fill lt (float64[LT_SIZE]) once per rules pack: lt[2 * i], lt[2 * i + 1] = lock_odds
    with i = 2 * (cracked >= 1) + (trapped >= 1); lt[8] = mean_treasure (the same values the
    heuristic computed on every decision before)."""
    for c in range(2):
        for t in range(2):
            p_open, p_trap = lock_odds(r, c, t)
            lt[2 * (2 * c + t)] = p_open
            lt[2 * (2 * c + t) + 1] = p_trap
    lt[8] = mean_treasure(r)


@kernel(inline="always")
def lock_value(s, r, seat, kind, cracked, trapped, w, lt):
    """Expected dollars of working on a locked container: P(open) x bags x mean card, less
    P(second Trapped) x risk x the treasure carried (lost when forced up); lt: lock_table."""
    i = 0
    if cracked >= 1:
        i = 4
    if trapped >= 1:
        i += 2
    gain = lt[i] * r[R.R_BAGS + kind] * lt[8]
    return gain - lt[i + 1] * w[seat, W_RISK] * carried_value(s, r, seat)


@kernel(inline="always")
def best_victim(s, r, seat, w):
    """The diver with the most banked treasure, if it is at least steal_at, that the seat may
    rob now; -1 none."""
    if w[seat, W_STEAL_AT] < 0:
        return -1
    best = -1
    best_v = w[seat, W_STEAL_AT] * 1000.0
    for t in range(r[R.P_PLAYERS]):
        if t == seat or is_up(s, t):
            continue
        v = banked_value(s, r, t)
        if v >= best_v and v > 0:
            best = t
            best_v = v
    return best


# ---------------------------------------------------------------------------------------
# The heuristic player


@kernel(inline="always")
def heuristic_diver(s, r, tr, seat, w, checked, lt):
    """A diver's turn: bank a winning load, flee (or fight) sharks, bank at the threshold,
    claim, work on the best lock, hunt, else search. Returns (the option code of the turn's
    action, 0), or (-1, the error of giving up a trapped lock, which is free and done here)."""
    if s[fld(seat, S.F_PLAYED)] == 0:
        return K_SEARCH * 8, 0  # "On your first play, search for an Item"
    carried = carried_value(s, r, seat)
    banked = banked_value(s, r, seat) + head_start(r, seat)
    margin = w[seat, W_MARGIN]
    danger = margin > 0 and s[S.S_SHARKS] >= r[R.P_SHARKS] - margin
    if carried > 0 and banked + carried >= r[R.P_TARGET]:
        return K_SURFACE * 8, 0
    if danger and carried > 0:
        if w[seat, W_SAFETY] > 0 and can_safety(s, seat):
            return K_SAFETY * 8, 0
        return K_SURFACE * 8, 0
    if carried >= w[seat, W_BANK_AT] * 1000.0:
        return K_SURFACE * 8, 0
    lock = s[fld(seat, S.F_LOCK)]
    if lock >= 0 and w[seat, W_TRAP_QUIT] > 0 and stack(s, seat, B.TRAPPED) > 0:
        v = lock_value(s, r, seat, lock, stack(s, seat, B.CRACKED), 1, w, lt)
        if v < 0 and can_abandon(s, r, seat):
            err = after(s, r, checked, do_abandon(s, r, tr, seat))
            if err != 0:
                return -1, err
            lock = -1
    if can_claim(s, seat, B.UNLOCKED_CHEST):
        return K_CLAIM * 8 + B.UNLOCKED_CHEST, 0
    if can_claim(s, seat, B.UNLOCKED_BOX):
        return K_CLAIM * 8 + B.UNLOCKED_BOX, 0
    need = w[seat, W_LOCK_MIN] * 1000.0
    if lock >= 0:
        v = lock_value(
            s, r, seat, lock, stack(s, seat, B.CRACKED), stack(s, seat, B.TRAPPED), w, lt
        )
        if v >= need and can_attempt(s, seat, lock):
            return K_ATTEMPT * 8 + lock, 0
    else:
        best = -1
        for kind in range(B.LOCKED_SAFE, B.LOCKED_BOX - 1, -1):
            if hand(s, seat, kind) > 0:
                v = lock_value(s, r, seat, kind, 0, 0, w, lt)
                if v >= need:
                    best = kind
                    need = v
        if best >= 0 and can_attempt(s, seat, best):
            return K_ATTEMPT * 8 + best, 0
    if w[seat, W_HUNT] > 0 and carried == 0 and best_victim(s, r, seat, w) >= 0:
        return K_SURFACE * 8, 0
    if can_search(s, seat):
        return K_SEARCH * 8, 0
    return K_SURFACE * 8, 0


@kernel(inline="always")
def heuristic_surfaced(s, r, seat, w):
    """A surfaced turn: bank, else go on with (or begin) a theft worth it, else dive. Returns
    the option code of the action."""
    if can_bank(s, r, seat):
        return K_BANK * 8
    theft = s[fld(seat, S.F_STEAL)]
    if theft >= 0:
        if can_steal(s, r, seat, theft):
            return K_STEAL * 8 + theft
    else:
        v = best_victim(s, r, seat, w)
        if v >= 0 and can_steal(s, r, seat, v):
            return K_STEAL * 8 + v
    return K_DIVE * 8


@kernel(inline="always")
def heuristic_turn(s, r, tr, seat, w, rng, checked, lt):
    """One whole turn of a heuristic player; its weights are w[seat] (w: float64[4, W], W_*
    layout; lt: lock_table). The player chooses an option code, played here: one call site
    per action (the common actions are compiled inline, once)."""
    if is_up(s, seat):
        code = heuristic_surfaced(s, r, seat, w)
    else:
        code, err = heuristic_diver(s, r, tr, seat, w, checked, lt)
        if err != 0:
            return err
    err = act_option(s, r, tr, rng, seat, code)
    if err == 0:
        end_turn_in(s, r, tr)  # the actions' end of turn, compiled inline here once
    return after(s, r, checked, err)
