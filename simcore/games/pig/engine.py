"""Pig's engine: the deal, the two actions (roll, hold), scores and winners, the standing and
the invariants checked in checked mode. Every action goes through `roll` or `hold`, which
refuse what the rules forbid."""

from __future__ import annotations

from simcore.frame.jit import kernel
from simcore.frame.rng import rand_below
from simcore.frame.skeleton import ahead_if_won
from simcore.frame.tracebuf import trace_kernels
from simcore.games.pig import state as S
from simcore.games.pig.rules import P_MAX_TURNS, P_N_FACES, P_TARGET, R_FACES

record, snapshot = trace_kernels(
    __name__, S.ACTION_WIDTH, S.S_TURN, S.S_SEAT, S.STATE_SIZE, inline="always"
)


@kernel
def setup(s, r, tr, rng):
    """The start: both scores 0 (the state is zeroed), seat 0 to play, the game running."""
    s[S.S_END_REASON] = -1
    s[S.S_WINNER] = -1


@kernel(inline="always")
def end_turn(s, r):
    """The turn passes to the other seat; after max_turns turns the game ends (no winner)."""
    s[S.S_TOTAL] = 0
    s[S.S_TURN] += 1
    s[S.S_SEAT] = 1 - s[S.S_SEAT]
    if s[S.S_TURN] >= r[P_MAX_TURNS]:
        s[S.S_GAME_OVER] = 1
        s[S.S_END_REASON] = S.END_TURN_LIMIT


@kernel(inline="always")
def roll(s, r, tr, rng):
    """Roll the die: the pig (a 1) loses the turn total and ends the turn; another face adds
    its value to the turn total."""
    seat = s[S.S_SEAT]
    face = r[R_FACES + rand_below(rng, r[P_N_FACES])]
    s[S.S_ROLLS] += 1
    s[S.seat_field(seat, S.F_ROLLS)] += 1
    if face == 1:
        lost = s[S.S_TOTAL]
        record(tr, s, S.A_PIG, face, lost)
        s[S.seat_field(seat, S.F_PIGS)] += 1
        s[S.seat_field(seat, S.F_LOST)] += lost
        end_turn(s, r)
    else:
        s[S.S_TOTAL] += face
        record(tr, s, S.A_ROLL, face, s[S.S_TOTAL])
    return 0


@kernel(inline="always")
def hold(s, r, tr):
    """Bank the turn total (a turn begins with a roll: no hold at turn total 0); reaching the
    target ends the game at once, won by the seat that held."""
    seat = s[S.S_SEAT]
    total = s[S.S_TOTAL]
    if total <= 0:
        return S.ERR_ILLEGAL
    at = S.seat_field(seat, S.F_SCORE)
    s[at] += total
    record(tr, s, S.A_HOLD, total, s[at])
    s[S.S_HOLDS] += 1
    s[S.seat_field(seat, S.F_HOLDS)] += 1
    if total > s[S.seat_field(seat, S.F_BEST)]:
        s[S.seat_field(seat, S.F_BEST)] = total
    if s[at] >= r[P_TARGET]:
        s[S.S_TOTAL] = 0
        s[S.S_TURN] += 1
        s[S.S_WINNER] = seat
        s[S.S_GAME_OVER] = 1
        s[S.S_END_REASON] = S.END_TARGET
    else:
        end_turn(s, r)
    return 0


@kernel
def scores(s, r, score, tiebreak):
    """Each seat's points banked (no tie-break)."""
    for k in range(S.MAX_PLAYERS):
        score[k] = s[S.seat_field(k, S.F_SCORE)]
        tiebreak[k] = 0


@kernel
def winners(s, r, score, tiebreak):
    """The seat that reached the target; nobody at the turn limit (the scores do not decide)."""
    w = s[S.S_WINNER]
    if s[S.S_END_REASON] == S.END_TARGET and w >= 0:
        return w, 1 << w
    return -1, 0


@kernel(inline="always")
def standing(s, r, seat):
    """The seat's standing: (won, points banked) as won * 2**40 + points."""
    return ahead_if_won(s[S.seat_field(seat, S.F_SCORE)], s[S.S_WINNER] == seat, 40)


@kernel(inline="always")
def standing_version(s, r, t):
    """Changes only when a standing may have changed: at a hold (a pig loses no banked
    points)."""
    return s[S.S_HOLDS]


@kernel
def check_invariants(s, r):
    """0, or the code of the first broken invariant."""
    over = s[S.S_GAME_OVER]
    turn = s[S.S_TURN]
    if over == 0 and (s[S.S_SEAT] != turn % 2 or s[S.S_END_REASON] != -1):
        return S.ERR_SEAT
    if s[S.S_TOTAL] < 0 or (over == 1 and s[S.S_TOTAL] != 0):
        return S.ERR_POINTS
    rolls = 0
    holds = 0
    for k in range(S.MAX_PLAYERS):
        score = s[S.seat_field(k, S.F_SCORE)]
        if score < 0 or (score >= r[P_TARGET] and s[S.S_WINNER] != k):
            return S.ERR_POINTS
        rolls += s[S.seat_field(k, S.F_ROLLS)]
        holds += s[S.seat_field(k, S.F_HOLDS)]
        ended = s[S.seat_field(k, S.F_HOLDS)] + s[S.seat_field(k, S.F_PIGS)]
        if ended != (turn + 1 - k) // 2:  # seat 0 plays turns 0, 2, 4 ...
            return S.ERR_COUNTS
    if rolls != s[S.S_ROLLS] or holds != s[S.S_HOLDS]:
        return S.ERR_COUNTS
    w = s[S.S_WINNER]
    if over == 1:
        reason = s[S.S_END_REASON]
        if reason == S.END_TARGET:
            if w < 0 or s[S.seat_field(w, S.F_SCORE)] < r[P_TARGET]:
                return S.ERR_END
        elif reason != S.END_TURN_LIMIT or w >= 0 or turn < r[P_MAX_TURNS]:
            return S.ERR_END
    elif w >= 0:
        return S.ERR_END
    return 0
