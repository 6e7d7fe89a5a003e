"""Pig's hooks of the `search` player (simcore.frame.search): every roll-or-hold decision of a
turn is searched (search_more), the candidates being ROLL and HOLD (ROLL alone at turn total
0). Nothing is hidden: the die has no memory."""

from __future__ import annotations

from simcore.frame.jit import kernel
from simcore.games.pig import state as S
from simcore.games.pig.players import HOLD, POL_RANDOM, ROLL, act, finish_turn, fixed_choice


@kernel
def search_options(s, r, seat, x, at):
    """ROLL, then HOLD when the turn total is above 0."""
    x[at] = ROLL
    if s[S.S_TOTAL] == 0:
        return 1
    x[at + 1] = HOLD
    return 2


@kernel
def search_step(s, r, tr, seat, opt, pol, wts, rng, checked, x, xf, tab):
    """Only decision `opt` (the real game's searched decision)."""
    return act(s, r, tr, rng, checked, opt)


@kernel
def search_play(s, r, tr, seat, opt, pol, wts, rng, checked, x, xf, tab):
    """Decision `opt`, then the rest of the turn (if it goes on) as policy `pol` plays it."""
    turn = s[S.S_TURN]
    err = act(s, r, tr, rng, checked, opt)
    if err != 0 or s[S.S_TURN] != turn:
        return err
    return finish_turn(s, r, tr, seat, pol, wts, rng, checked)


@kernel
def search_more(s, r, seat, turn):
    """The seat's turn goes on (no pig, no hold yet)."""
    return s[S.S_TURN] == turn and s[S.S_GAME_OVER] == 0


@kernel
def search_prefer(s, r, seat, base, wts, x, xf, at, n):
    """The base player's candidate (z > 0): hold-at's and optimal's own choice; the random
    player's is taken to be ROLL (its coin is not tossed here)."""
    if base == POL_RANDOM:
        return 0
    return 1 if fixed_choice(s, r, seat, base, wts) == HOLD else 0


HOOKS = (search_options, search_play, search_step, search_more, search_prefer)
