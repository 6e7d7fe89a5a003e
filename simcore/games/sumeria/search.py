"""The Sumeria hooks of the `search` player (simcore.frame.search; docs/policies-sumeria.md): the
candidates of a decision and how one is played.

A Sumeria turn is one decision, so a candidate is a whole turn and the base player has nothing
to complete. At a setup placement or an action the candidates are the base player's WIDTH best
actions by its own evaluation (the heuristic's candidate set: per city-state its most important
empty location to add or place on, its least important own trader to remove, and every move),
ranked with the seat's weights, without noise, earlier candidates first among equals. The
search's hook search_options has no weights, so a candidate's code is its rank (0 = the base
player's own choice, noise aside): search_options only counts the candidates, and
play_candidate ranks them with the weights search_play is given. The ranking uses the
heuristic's fast evaluation of policies.py (fast_add, fast_remove, fast_move: the floats of the
reference evaluation, each trial made on the state and undone, at half its cost; the same
rankings, so the search's rows are unchanged). At a tile choice the candidates are the tile
types on display.

Hidden information: none is in the state. The bag is kept as counts of each type (what a
player can work out from the tiles in sight), never as an order; a tile is drawn from the
random stream when it comes out, and a simulation draws its tiles from its own stream
(simcore.frame.search.simulate). So the search needs no `search_hide`.
"""

from __future__ import annotations

from simcore.frame.jit import kernel
from simcore.games.sumeria import board as B
from simcore.games.sumeria import engine as E
from simcore.games.sumeria import policies as P
from simcore.games.sumeria import state as S
from simcore.games.sumeria.engine_round import do_choose
from simcore.games.sumeria.rules import P_MOVE_SHIFTS_SOURCE, P_SETUP_SHIFTS

WIDTH = 8  # candidates per setup placement or action: the base player's best WIDTH
XF_RANK = P.XF_USED  # [WIDTH] the values of the kept candidates (float scratch)
assert XF_RANK + WIDTH <= S.XF_SIZE


def horizon_for(turns_per_round: int) -> int:
    """The default `horizon` of a Sumeria search (decisions simulated after the candidate):
    about two rounds of a 4-player game, 8 actions per turn of a round plus 6 tile choices (30
    under the rulebook's 3 turns), so that a simulation always takes in the next scoring; its
    value is then the scores so far (docs/policies-sumeria.md, search)."""
    return 8 * turns_per_round + 6


# a candidate action as one code: kind * N_LOCS**2 + a * N_LOCS + b
ADD, MOVE, REMOVE = 0, 1, 2
NN = B.N_LOCS * B.N_LOCS


@kernel
def offer(x, xf, n, code, v):
    """Keep candidate `code` of value v in the best-first list of at most WIDTH (codes in
    x[X_OPTS:], values in xf[XF_RANK:], n kept so far) when it beats the last; it goes behind
    the candidates of equal value. Returns the new length."""
    if n == WIDTH and not v > xf[XF_RANK + n - 1]:
        return n
    i = n if n < WIDTH else WIDTH - 1
    while i > 0 and v > xf[XF_RANK + i - 1]:
        x[S.X_OPTS + i] = x[S.X_OPTS + i - 1]
        xf[XF_RANK + i] = xf[XF_RANK + i - 1]
        i -= 1
    x[S.X_OPTS + i] = code
    xf[XF_RANK + i] = v
    return n + 1 if n < WIDTH else n


@kernel
def count_candidates(s, r, me, x):
    """How many candidate actions the decision in front of `me` has (setup or turn), at most
    WIDTH: the heuristic's candidate set (module docstring), counted in its order."""
    P.prepare_keys(s, r, me, x)
    ph = s[S.S_PHASE]
    n = 0
    if ph == S.PH_SETUP or s[S.O_RESERVE + me] > 0:
        for st in range(B.N_STATES):
            if P.first_empty_in(x, st) >= 0:
                n += 1
    if ph != S.PH_TURN:
        return min(n, WIDTH)
    for st in range(B.N_STATES):
        if P.last_own_in(x, st) >= 0:
            n += 1
    for q in range(B.N_LOCS):
        if n >= WIDTH:
            break
        if s[S.O_LOC + q] == me:
            _, m = P.cached_targets(s, r, q, x)
            n += m
    return min(n, WIDTH)


@kernel
def rank_candidates(s, r, me, w, x, xf):
    """The base player's best WIDTH candidate actions (weights w, no noise) into x[X_OPTS:],
    best first; returns their number (count_candidates)."""
    x[S.X_RANKED_AT] = 0
    ph = s[S.S_PHASE]
    shift = ph == S.PH_TURN or r[P_SETUP_SHIFTS] == 1
    P.prepare(s, r, me, w, x, xf, shift)
    n = 0
    if ph == S.PH_SETUP or s[S.O_RESERVE + me] > 0:
        for st in range(B.N_STATES):
            q = P.first_empty_in(x, st)
            if q >= 0:
                v = P.fast_add(s, x, xf, w, q, shift)
                n = offer(x, xf, n, ADD * NN + q * B.N_LOCS, v)
    if ph != S.PH_TURN:
        return n
    for st in range(B.N_STATES):
        q = P.last_own_in(x, st)
        if q >= 0:
            n = offer(x, xf, n, REMOVE * NN + q * B.N_LOCS, P.fast_remove(s, x, xf, w, q))
    generic = r[P_MOVE_SHIFTS_SOURCE] == 1
    for q in range(B.N_LOCS):
        if s[S.O_LOC + q] != me:
            continue
        ps, base, ks, t_src, right = P.move_source(s, x, xf, q)
        o, m = P.cached_targets(s, r, q, x)
        for i in range(m):
            to = x[o + i]
            v = P.fast_move(s, r, me, x, xf, w, q, to, generic, ps, base, ks, t_src, right)
            n = offer(x, xf, n, MOVE * NN + q * B.N_LOCS + to, v)
    return n


@kernel
def search_options(s, r, seat, x, at):
    """The candidates of the decision in front of `seat` into x[at:]: ranks 0 .. n-1 at a
    setup placement or an action, the tile types on display at a tile choice."""
    ph = s[S.S_PHASE]
    if ph == S.PH_CHOOSE:
        n = 0
        for t in range(B.N_TYPES):
            if E.display(s, s[S.S_CHOOSE_POS], t) > 0:
                x[at + n] = t
                n += 1
        return n
    if ph != S.PH_SETUP and ph != S.PH_TURN:
        return 0
    n = count_candidates(s, r, seat, x)
    for i in range(n):
        x[at + i] = i
    return n


@kernel
def play_candidate(s, r, tr, seat, opt, w, x, xf):
    """Make the decision in front of `seat` as candidate `opt` of search_options (ranked with
    the weights w): 0 or the engine's error code."""
    ph = s[S.S_PHASE]
    if ph == S.PH_CHOOSE:
        return do_choose(s, r, tr, seat, opt)
    if ph != S.PH_SETUP and ph != S.PH_TURN:
        return E.ERR_ILLEGAL
    if x[S.X_RANKED_AT] == s[S.S_DECISION] + 1 and x[S.X_RANKED_SEAT] == seat:
        n = x[S.X_RANKED_N]  # ranked for this decision by the trained player's features
        x[S.X_RANKED_AT] = 0
    else:
        n = rank_candidates(s, r, seat, w, x, xf)
    if opt < 0 or opt >= n:
        return E.ERR_ILLEGAL
    code = x[S.X_OPTS + opt]
    kind = code // NN
    a = (code // B.N_LOCS) % B.N_LOCS
    if ph == S.PH_SETUP:
        return E.do_place(s, r, tr, seat, a)
    if kind == ADD:
        return E.do_add(s, r, tr, seat, a)
    if kind == REMOVE:
        return E.do_remove(s, r, tr, seat, a)
    return E.do_listed_move(s, r, tr, seat, a, code % B.N_LOCS)
