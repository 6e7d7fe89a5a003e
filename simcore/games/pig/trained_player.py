"""Pig's hook of the `trained` player (simcore.frame.trained): the features of a candidate, ROLL
or HOLD, from the deciding seat's view (docs/trained-players.md). Scores are scaled by the
target, so a model sees the race, not the points: own score i, the other's j, the turn total k.
"""

from __future__ import annotations

from simcore.frame.jit import kernel
from simcore.games.pig import state as S
from simcore.games.pig.players import HOLD
from simcore.games.pig.rules import P_TARGET

# a candidate's features, in order
F_OWN = 0  # i / target: own points banked
F_OTHER = 1  # j / target: the other seat's points banked
F_TOTAL = 2  # k / target: the turn total
F_AT_STAKE = 3  # (i + k) / target: own points if the turn total were banked
F_HOLD = 4  # 1 for HOLD, 0 for ROLL
F_WINS = 5  # 1 for a HOLD that reaches the target (wins at once)
TRAINED_WIDTH = 6


@kernel
def trained_features(s, r, seat, x, at, n, xf, out):
    """The TRAINED_WIDTH features of each of the n candidates x[at : at + n] into
    xf[out + i * TRAINED_WIDTH ...] (float64)."""
    t = float(r[P_TARGET])
    own = s[S.seat_field(seat, S.F_SCORE)]
    other = s[S.seat_field(1 - seat, S.F_SCORE)]
    total = s[S.S_TOTAL]
    for i in range(n):
        o = out + i * TRAINED_WIDTH
        hold = x[at + i] == HOLD
        xf[o + F_OWN] = own / t
        xf[o + F_OTHER] = other / t
        xf[o + F_TOTAL] = total / t
        xf[o + F_AT_STAKE] = (own + total) / t
        xf[o + F_HOLD] = 1.0 if hold else 0.0
        xf[o + F_WINS] = 1.0 if hold and own + total >= t else 0.0
