"""Sunken City engine, the advanced game (seed 001, "Turn Sequence (Advanced Game)", "Details
(Advanced Game)"): the spirit's forced steps of the sinking phase, banishment to a grotto space,
and moving the spirit to another grotto space by a visit to its house. The phase switches
themselves are in engine.py.

Arguments: s = flat state (int64, layout in state.py), r = packed rules (int64, rules.py),
tr = trace buffer (int32, state.py), x = scratch (int64, state.py), rng = uint64[1].
"""

from __future__ import annotations

from simcore.frame.jit import kernel
from simcore.games.sunken_city import engine as E
from simcore.games.sunken_city import rules as R
from simcore.games.sunken_city import state as S
from simcore.games.sunken_city.engine_spirit import (
    sink_piece,
    spirit_can_reach,
    spirit_step,
    spirit_targets,
)


@kernel(inline="always")
def own_turn_in_phase(s, r, seat, phase):
    """Advanced game: the seat's turn, its card played, in phase `phase`."""
    return (
        r[R.P_ADVANCED] == 1 and seat == s[S.S_SEAT] and s[S.S_CARD] >= 0 and s[S.S_PHASE] == phase
    )


@kernel(inline="always")
def sinking_points_owed(s, r, seat):
    """The seat's turn in a sinking phase, with spirit points still to spend."""
    return own_turn_in_phase(s, r, seat, S.PHASE_SINKING) and s[S.S_SPIRIT_STEPS_LEFT] > 0


@kernel
def can_sink_step_now(s, r, seat, x):
    return sinking_points_owed(s, r, seat) and spirit_targets(s, x, S.X_NEIGHBOURS) > 0


@kernel
def do_sink_step(s, r, tr, seat, to, x):
    """Sinking phase: move the spirit one piece for one spirit point ("Same as player
    movement", "Use 1 Neptune Movement Point per space"); the piece it leaves sinks."""
    if not can_sink_step_now(s, r, seat, x):
        return E.ERR_ILLEGAL
    if not spirit_can_reach(s, x, to):
        return E.ERR_ILLEGAL
    frm = spirit_step(s, to)
    s[S.S_SINK_STEPS] += 1
    if s[S.S_SPIRIT_STEPS_TAKEN] == 0:
        # a turn's sinking steps count as one spirit move of the seat
        s[S.S_SPIRIT_MOVES] += 1
        E.count(s, seat, S.C_SPIRIT_MOVES)
    s[S.S_SPIRIT_STEPS_TAKEN] += 1
    E.record(tr, s, S.A_SINK_STEP, frm, to, s[S.S_SPIRIT_STEPS_LEFT])
    sink_piece(s, r, tr, frm, seat, to)
    return 0


@kernel(inline="always")
def grotto_ok(r, g):
    """A grotto space the spirit may be sent to: one whose house is in play (ruling: the
    'short' game has no house 1, so no grotto space 1)."""
    return 1 <= g <= R.N_HOUSES and E.house_in_play(r, g)


@kernel
def can_banish_now(s, r, seat, x):
    return sinking_points_owed(s, r, seat) and spirit_targets(s, x, S.X_NEIGHBOURS) == 0


@kernel
def do_banish(s, r, tr, seat, g, x):
    """ "If Neptune becomes isolated (cannot move) and has Neptune Movement Point(s) left:
    Spend 1 Neptune Movement Point to banish Neptune to any grotto space. Sinking Phase ends;
    begin a new Raising Phase." The piece he stood on sinks ("including when he is
    banished")."""
    if not can_banish_now(s, r, seat, x) or not grotto_ok(r, g):
        return E.ERR_ILLEGAL
    frm = s[S.S_SPIRIT_SLOT]
    s[S.S_SPIRIT_STEPS_LEFT] -= 1
    s[S.S_BANISHMENTS] += 1
    E.record(tr, s, S.A_BANISH, frm, g, s[S.S_SPIRIT_STEPS_LEFT])
    s[S.S_SPIRIT_SLOT] = -1
    s[S.S_GROTTO_SPACE] = g
    if frm >= 0:
        sink_piece(s, r, tr, frm, seat, -2)
    E.end_sinking(s, r, tr)
    return 0


@kernel
def can_grotto_now(s, r, seat):
    return own_turn_in_phase(s, r, seat, S.PHASE_RAISING) and s[S.S_GROTTO_MOVE_ALLOWED] == 1


@kernel
def do_grotto(s, r, tr, seat, g):
    """Raising phase, after entering the house of the spirit's grotto space: "you may move
    Neptune to a different grotto space"."""
    if not can_grotto_now(s, r, seat) or not grotto_ok(r, g) or g == s[S.S_GROTTO_SPACE]:
        return E.ERR_ILLEGAL
    E.record(tr, s, S.A_GROTTO, s[S.S_GROTTO_SPACE], g)
    s[S.S_GROTTO_SPACE] = g
    s[S.S_GROTTO_MOVE_ALLOWED] = 0
    s[S.S_GROTTO_MOVES] += 1
    return 0
