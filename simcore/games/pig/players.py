"""Pig's players: `hold-at` (weight n), `optimal` (the value-iteration policy packed in the
rules array, optimal.py) and `random`; docs/policies-pig.md. A decision is ROLL or HOLD."""

from __future__ import annotations

from simcore.frame.jit import kernel
from simcore.frame.rng import rand_below
from simcore.games.pig import state as S
from simcore.games.pig.engine import check_invariants, hold, roll
from simcore.games.pig.rules import P_TARGET, R_POLICY

POL_HOLD_AT = 0
POL_OPTIMAL = 1
POL_RANDOM = 2
W_N = 0  # hold-at's weight: hold at a turn total of n or more
ROLL = 0
HOLD = 1


@kernel(inline="always")
def optimal_rolls(r, i, j, k):
    """Whether the optimal player rolls at own score i, other's score j, turn total k: always
    at k = 0, never once holding wins, else the packed bit (i * T + j) * T + k."""
    t = r[P_TARGET]
    if k == 0:
        return True
    if i + k >= t:
        return False
    b = (i * t + j) * t + k
    return (r[R_POLICY + (b >> 6)] >> (b & 63)) & 1 == 1


@kernel(inline="always")
def fixed_choice(s, r, seat, pol, wts):
    """The decision of a player without chance (hold-at, optimal) for the seat on turn: ROLL
    or HOLD, -1 for another policy. Every player rolls at turn total 0, where holding is not
    allowed."""
    k = s[S.S_TOTAL]
    if k == 0:
        return ROLL
    own = s[S.seat_field(seat, S.F_SCORE)]
    if pol == POL_HOLD_AT:
        return HOLD if k >= wts[seat, W_N] or own + k >= r[P_TARGET] else ROLL
    if pol == POL_OPTIMAL:
        other = s[S.seat_field(1 - seat, S.F_SCORE)]
        return ROLL if optimal_rolls(r, own, other, k) else HOLD
    return -1


@kernel(inline="always")
def choice(s, r, seat, pol, wts, rng):
    """The decision of policy `pol`: random rolls at turn total 0 and otherwise tosses a
    coin (hold with chance 1/2, even when holding wins); the others: fixed_choice."""
    if pol == POL_RANDOM:
        if s[S.S_TOTAL] == 0:
            return ROLL
        return HOLD if rand_below(rng, 2) == 1 else ROLL
    return fixed_choice(s, r, seat, pol, wts)


@kernel(inline="always")
def act(s, r, tr, rng, checked, decision):
    """Play one decision through the engine (checked: then the invariants)."""
    if decision == ROLL:
        err = roll(s, r, tr, rng)
    elif decision == HOLD:
        err = hold(s, r, tr)
    else:
        err = S.ERR_ILLEGAL
    if err == 0 and checked:
        err = check_invariants(s, r)
    return err


@kernel(inline="always")
def finish_turn(s, r, tr, seat, pol, wts, rng, checked):
    """Policy `pol` plays the seat's turn on from where it stands, to its end."""
    turn = s[S.S_TURN]
    err = 0
    while err == 0 and s[S.S_TURN] == turn and s[S.S_GAME_OVER] == 0:
        err = act(s, r, tr, rng, checked, choice(s, r, seat, pol, wts, rng))
    return err
