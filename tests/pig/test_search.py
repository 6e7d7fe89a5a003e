"""Pig's `search` hooks (simcore/games/pig/search_player.py) on positions: the candidates, one
decision in the real game, and a simulated turn that stops where the turn stops (the other
seat's turn is the other seat's player's, not the searcher's base player's)."""

from __future__ import annotations

import numpy as np

from simcore.frame.rng import new_stream
from simcore.games.pig import search_player as sp
from simcore.games.pig import state as S
from simcore.games.pig.players import HOLD, POL_HOLD_AT, ROLL
from tests.pig.test_rules import position


def run(hook, s, r, opt, pol=POL_HOLD_AT, n=20):
    w = np.zeros((2, 13))
    w[:, 0] = n
    tr = np.zeros(8, dtype=np.int32)
    x = np.zeros(4, dtype=np.int64)
    xf = np.zeros(1)
    return hook(s, r, tr, 0, opt, pol, w, new_stream(5, 0), True, x, xf, xf)


def test_candidates_are_roll_then_hold_and_roll_alone_at_zero():
    x = np.zeros(4, dtype=np.int64)
    s, r = position(total=0)
    assert sp.search_options(s, r, 0, x, 1) == 1 and x[1] == ROLL
    s, r = position(total=7)
    assert sp.search_options(s, r, 0, x, 1) == 2 and list(x[1:3]) == [ROLL, HOLD]


def test_a_step_is_one_decision_and_more_follow_while_the_turn_goes_on():
    s, r = position(total=7, face=4)
    assert run(sp.search_step, s, r, ROLL) == 0
    assert s[S.S_TOTAL] == 11 and s[S.S_ROLLS] == 1
    assert sp.search_more(s, r, 0, 0)
    assert run(sp.search_step, s, r, HOLD) == 0
    assert not sp.search_more(s, r, 0, 0)


def test_a_simulated_hold_ends_the_searchers_turn_and_plays_no_more():
    s, r = position(score0=10, total=7, face=4)
    assert run(sp.search_play, s, r, HOLD) == 0
    assert s[S.field(0, S.F_SCORE)] == 17 and s[S.S_SEAT] == 1
    assert s[S.S_ROLLS] == 0 and s[S.S_TOTAL] == 0


def test_a_simulated_roll_is_completed_by_the_base_player():
    s, r = position(total=7, face=4)
    assert run(sp.search_play, s, r, ROLL, n=20) == 0
    # 7, 11, 15, 19, 23: hold-at-20 holds at 23 after four rolls
    assert s[S.field(0, S.F_SCORE)] == 23 and s[S.S_ROLLS] == 4 and s[S.S_SEAT] == 1
