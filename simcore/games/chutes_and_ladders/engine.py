"""The engine of Chutes and Ladders: setup, one spin, the end of the game, scores and winners,
the trace records and the invariants of checked mode. A turn is one spin of the seat to play;
nothing in the game is a decision."""

from __future__ import annotations

from simcore.frame.jit import kernel
from simcore.frame.rng import rand_below
from simcore.frame.tracebuf import trace_kernels
from simcore.games.chutes_and_ladders import state as S
from simcore.games.chutes_and_ladders.board import FINISH, N_SQUARES
from simcore.games.chutes_and_ladders.rules import P_FACES, P_MAX_ROUNDS, P_PLAYERS, R_DEST, R_FACES

# Error codes: 0 = fine. ERR_ILLEGAL: a policy the game does not know; ERR_TRACE: the trace
# buffer is full; the others are check_invariants' (the first broken invariant).
ERR_ILLEGAL = 1
ERR_TRACE = 2
ERR_SEAT = 3  # the seat to play is not the turn's seat (turn modulo players)
ERR_SQUARE = 4  # a piece off the squares 0 to 100, or resting on the start of a link
ERR_PATH = 5  # a piece's square is not its squares advanced + climbed - slid
ERR_SPINS = 6  # a seat's spins are not its share of the turns played
ERR_WINNER = 7  # a piece on 100 that is not the winner, or a winner not on 100
ERR_OVER = 8  # the game over flag, the end reason and the winner disagree
ERR_LIMIT = 9  # more turns played than the round limit allows

record, snapshot = trace_kernels(
    __name__, S.ACTION_WIDTH, S.S_TURN, S.S_SEAT, S.STATE_SIZE, inline="always"
)


@kernel(inline="always")
def fld(seat, f):
    """The offset of a seat's field F_* (or F_CNT + C_*)."""
    return S.O_SEATS + seat * S.SEAT_W + f


@kernel
def setup(s, r, tr, rng):
    """Every piece off the board (square 0, the zeroed state), seat 0 to spin first."""
    s[S.S_SEAT] = 0
    s[S.S_END_REASON] = -1
    s[S.S_WINNER] = -1


@kernel(inline="always")
def spin(s, r, tr, seat, rng):
    """The seat spins and moves: each face equally likely; a spin that would pass 100 leaves
    the piece where it is; a piece that lands on the start of a ladder or chute ends on its
    other end; landing on 100 wins and ends the game at once. Then the next seat's turn, or
    the end by the round limit. Returns 0."""
    face = r[R_FACES + rand_below(rng, r[P_FACES])]
    sq = fld(seat, S.F_SQUARE)
    cnt = fld(seat, S.F_CNT)
    at = s[sq]
    s[cnt + S.C_SPINS] += 1
    to = at + face
    if to > FINISH:
        s[cnt + S.C_STAYED] += 1
        record(tr, s, S.A_SPIN, face, -1, at)
    else:
        s[cnt + S.C_ADVANCED] += face
        end = r[R_DEST + to]
        if end > to:
            s[cnt + S.C_LADDERS] += 1
            s[cnt + S.C_CLIMBED] += end - to
        elif end < to:
            s[cnt + S.C_CHUTES] += 1
            s[cnt + S.C_SLID] += to - end
        s[sq] = end
        record(tr, s, S.A_SPIN, face, to, end)
        if end == FINISH:
            s[S.S_WINNER] = seat
            s[S.S_BY_LADDER] = 1 if to != FINISH else 0
            s[S.S_END_REASON] = S.END_FINISH
            s[S.S_GAME_OVER] = 1
    s[S.S_TURN] += 1
    if s[S.S_GAME_OVER] == 0:
        players = r[P_PLAYERS]
        if s[S.S_TURN] >= r[P_MAX_ROUNDS] * players:
            s[S.S_END_REASON] = S.END_ROUND_LIMIT
            s[S.S_GAME_OVER] = 1
        else:
            s[S.S_SEAT] = (seat + 1) % players
    return 0


@kernel
def scores(s, r, score, tiebreak):
    """Each seat's score: its piece's square (100 for the winner); no tie-break."""
    for seat in range(r[P_PLAYERS]):
        score[seat] = s[fld(seat, S.F_SQUARE)]
        tiebreak[seat] = 0


@kernel
def winners(s, r, score, tiebreak):
    """The seat that landed on 100 wins alone; a game ended by the round limit has no winner
    (win mask 0), whatever the squares."""
    w = s[S.S_WINNER]
    if w >= 0:
        return w, 1 << w
    return -1, 0


@kernel
def check_invariants(s, r):
    """0, or the code of the first broken invariant (ERR_* above)."""
    players = r[P_PLAYERS]
    turn = s[S.S_TURN]
    over = s[S.S_GAME_OVER]
    if turn < 0 or turn > r[P_MAX_ROUNDS] * players:
        return ERR_LIMIT
    seat = s[S.S_SEAT]
    if over == 0 and seat != turn % players:
        return ERR_SEAT
    if over == 1 and turn > 0 and seat != (turn - 1) % players:
        return ERR_SEAT
    on_finish = -1
    for k in range(players):
        sq = s[fld(k, S.F_SQUARE)]
        if sq < 0 or sq >= N_SQUARES or r[R_DEST + sq] != sq:
            return ERR_SQUARE
        cnt = fld(k, S.F_CNT)
        if sq != s[cnt + S.C_ADVANCED] + s[cnt + S.C_CLIMBED] - s[cnt + S.C_SLID]:
            return ERR_PATH
        if s[cnt + S.C_SPINS] != (turn - k + players - 1) // players:
            return ERR_SPINS
        if sq == FINISH:
            if on_finish >= 0:
                return ERR_WINNER
            on_finish = k
    if on_finish != s[S.S_WINNER]:
        return ERR_WINNER
    reason = s[S.S_END_REASON]
    if over == 0 and reason != -1:
        return ERR_OVER
    if over == 1:
        if reason == S.END_FINISH and on_finish < 0:
            return ERR_OVER
        if reason == S.END_ROUND_LIMIT and (on_finish >= 0 or turn != r[P_MAX_ROUNDS] * players):
            return ERR_OVER
        if reason != S.END_FINISH and reason != S.END_ROUND_LIMIT and reason != S.END_ERROR:
            return ERR_OVER
    return 0
