"""Each rule sentence of Pig (docs/rules-pig.md) checked on the engine's kernels, one action
at a time, and the rules' validation."""

from __future__ import annotations

import numpy as np
import pytest

from simcore.base.rulesbase import RulesError
from simcore.frame.rng import new_stream
from simcore.games.pig import engine, players
from simcore.games.pig import state as S
from simcore.games.pig.rules import P_N_FACES, R_FACES, PigRules, pack
from tests.conformance.cases import checked_frame


def position(score0=0, score1=0, total=0, seat=0, target=100, max_turns=5000, face=None):
    """A running game (the invariants hold) and its rules; face: the die shows only it."""
    r = pack(PigRules(target=target, max_turns=max_turns), 2)
    if face is not None:
        r[P_N_FACES] = 1
        r[R_FACES] = face
    s = np.zeros(S.STATE_SIZE, dtype=np.int64)
    engine.setup(s, r, np.zeros(8, dtype=np.int32), new_stream(1, 0))
    s[S.S_SEAT] = seat
    s[S.S_TURN] = seat  # seat 1 plays turn 1 after seat 0's pig
    if seat == 1:
        s[S.field(0, S.F_PIGS)] = 1
    s[S.field(0, S.F_SCORE)] = score0
    s[S.field(1, S.F_SCORE)] = score1
    s[S.S_TOTAL] = total
    assert engine.check_invariants(s, r) == 0
    return s, r


def roll(s, r):
    return engine.roll(s, r, np.zeros(8, dtype=np.int32), new_stream(1, 0))


def hold(s, r):
    return engine.hold(s, r, np.zeros(8, dtype=np.int32))


def test_a_one_loses_the_turn_total_and_ends_the_turn():
    s, r = position(score0=30, total=17, face=1)
    assert roll(s, r) == 0
    assert s[S.field(0, S.F_SCORE)] == 30 and s[S.S_TOTAL] == 0
    assert s[S.S_SEAT] == 1 and s[S.S_TURN] == 1
    assert s[S.field(0, S.F_LOST)] == 17 and s[S.field(0, S.F_PIGS)] == 1


def test_another_face_adds_to_the_turn_total_and_the_turn_goes_on():
    s, r = position(total=4, face=5)
    assert roll(s, r) == 0
    assert s[S.S_TOTAL] == 9 and s[S.S_SEAT] == 0 and s[S.S_TURN] == 0


def test_hold_banks_the_turn_total_and_passes_the_turn():
    s, r = position(score0=10, total=12)
    assert hold(s, r) == 0
    assert s[S.field(0, S.F_SCORE)] == 22 and s[S.S_TOTAL] == 0
    assert s[S.S_SEAT] == 1 and s[S.S_GAME_OVER] == 0


def test_a_hold_at_turn_total_zero_is_refused():
    s, r = position()
    assert hold(s, r) == S.ERR_ILLEGAL


def test_holding_to_the_target_ends_the_game_at_once_won_by_the_holder():
    s, r = position(score0=90, score1=99, total=10, seat=0)
    assert hold(s, r) == 0
    assert s[S.S_GAME_OVER] == 1 and s[S.S_END_REASON] == S.END_TARGET
    assert s[S.S_WINNER] == 0 and engine.check_invariants(s, r) == 0
    score = np.zeros(2, dtype=np.int64)
    assert engine.winners(s, r, score, score.copy()) == (0, 1)


def test_a_turn_total_past_the_target_wins_only_when_held():
    s, r = position(score0=95, total=4, face=6)
    assert roll(s, r) == 0
    assert s[S.S_GAME_OVER] == 0 and s[S.S_TOTAL] == 10
    r[R_FACES] = 1
    assert roll(s, r) == 0
    assert s[S.S_GAME_OVER] == 0 and s[S.field(0, S.F_SCORE)] == 95


def test_the_turn_limit_ends_the_game_without_a_winner():
    s, r = position(max_turns=1, total=3, face=1)
    assert roll(s, r) == 0
    assert s[S.S_GAME_OVER] == 1 and s[S.S_END_REASON] == S.END_TURN_LIMIT
    assert engine.check_invariants(s, r) == 0
    score = np.zeros(2, dtype=np.int64)
    assert engine.winners(s, r, score, score.copy()) == (-1, 0)
    frame, _ = checked_frame("pig", 2, overrides={"max_turns": 3}, games=200)
    assert (frame["end_reason"] == S.END_REASONS.index("turn-limit")).any()
    assert (frame["winner"][frame["end_reason"] == 1] == -1).all()


def test_the_faces_are_equally_likely():
    frame, _ = checked_frame("pig", 2, policy="hold-at", games=20_000)
    rolls = frame[["seat_rolls_0", "seat_rolls_1"]].to_numpy().sum()
    pigs = frame[["pig_outs_0", "pig_outs_1"]].to_numpy().sum()
    n = int(rolls)
    assert abs(pigs / n - 1 / 6) < 3.29 * (5 / 36 / n) ** 0.5


def test_the_die_is_a_rules_field():
    frame, _ = checked_frame("pig", 2, overrides={"die": (1, 2)}, policy="hold-at", games=500)
    assert ((frame["best_turn_0"] % 2) == 0).all()  # only 2s score


@pytest.mark.parametrize(
    "change, message",
    [
        ({"die": ()}, "die needs 1 to 20 faces"),
        ({"die": (1,) * 21}, "die needs 1 to 20 faces"),
        ({"die": (1, 1)}, "die needs a face that is not 1"),
        ({"die": (0, 2)}, "each value of die must be 1 to 100"),
        ({"target": 0}, "target must be 1 to 200"),
        ({"max_turns": 0}, "max_turns must be 1 to 1000000"),
    ],
)
def test_bad_rules_are_one_sentence(change, message):
    with pytest.raises(RulesError, match=message):
        PigRules(**change).validate(2)


def test_pig_is_for_two_players():
    with pytest.raises(RulesError, match="pig is for 2 to 2 players, not 3"):
        PigRules().validate(3)


def test_hold_at_holds_at_n_or_when_holding_wins():
    w = np.zeros((2, 8))
    w[0, players.W_N] = 20
    s, r = position(score0=10, total=19)
    assert players.fixed_choice(s, r, 0, players.POL_HOLD_AT, w) == players.ROLL
    s[S.S_TOTAL] = 20
    assert players.fixed_choice(s, r, 0, players.POL_HOLD_AT, w) == players.HOLD
    s, r = position(score0=95, total=5)
    assert players.fixed_choice(s, r, 0, players.POL_HOLD_AT, w) == players.HOLD


def test_every_player_rolls_at_turn_total_zero():
    s, r = position(score0=99)
    w = np.zeros((2, 8))
    for pol in (players.POL_HOLD_AT, players.POL_OPTIMAL, players.POL_RANDOM):
        for k in range(50):
            assert players.choice(s, r, 0, pol, w, new_stream(3, k)) == players.ROLL
