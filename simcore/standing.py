"""How a game felt (issue #26): lead changes, drama, decisiveness and the half-time leader and
last, tracked online from each seat's standing after every completed turn.

Every game defines a `standing(s, r, seat) -> int64` hook (higher is better; its play.py, and
docs/rules-<game>.md "Standing (experience metrics)"). The shared turn loop
(simcore.skeleton.play_turns) takes the standings of all seats after each completed turn of
the real game (never inside the search player's simulations) and folds them into a small
accumulator (`standing_turn`); at the end of the game `standing_row` writes the columns
STANDING_COLUMNS into the result row. Nothing is stored per turn in the rows.

The accumulator works in **runs**: maximal stretches of consecutive turns after which every
seat's standing is the same (in most turns nobody scores). A turn that changes nothing costs
nothing here (a run's length is only taken when it closes: the turn that closes it minus its
first turn); a turn that changes a standing closes the run (its drama terms, its length times
each seat's ratio) and opens a new one (leader, last, lead change, ratios). The shared loop
keeps T itself and looks at the standings only after a turn that may have changed one (the
game's optional `standing_version` hook, simcore.skeleton). It lives in the players' int and
float scratch, behind everything else (offsets `xm`, `xf0`):

    M_T        turns completed so far (T at the end; play_turns writes it when the game ends)
    M_CHANGES  lead changes so far
    M_PREV     the most recent unique leader (-1: none yet)
    M_STREAK   the unique leader of the current run (-1: a tie for the lead)
    M_SINCE    the first turn of the current stretch of runs with M_STREAK as unique leader
    M_START    the first turn of the current run (1 before the first run)
    M_NRUNS    runs begun
    M_V        [MAX_SEATS] the standings of the current run
    M_BEHIND   [MAX_SEATS] turns of the closed runs after which the seat stood strictly behind
    M_RUNS     [RUN_CAP] a ring of the last RUN_CAP runs begun: first turn * 64 + (leader +
               1) + 8 * (last + 1). The half-time turn ceil(T/2) is only known at the end;
               the runs that begin after it are at most T/2, so the ring still holds the run
               that holds it in every game of up to MAX_TURNS turns (every game under the
               default caps), and in longer games as long as fewer than RUN_CAP runs began
               after it; otherwise half_leader and half_last are -2 (out of reach)
    F_DRAMA    (float scratch) [MAX_SEATS] the sum over the closed runs in which the seat stood
               strictly behind of (run length) * (max - v) / (max - min)
    F_RATIO    (float scratch) [MAX_SEATS] that ratio in the current run (0: not behind)

The columns (all int64; docs/experience-metrics.md has the definitions with their sources),
for T completed turns, v_t the standings after turn t and w the row's winner:

    lead_changes    turns t after which there is a unique leader that differs from the most
                    recent unique leader before t (ties never change the lead)
    drama_ppm       1e6 x the mean over the turns with v_t[w] < max_t of
                    (max_t - v_t[w]) / (max_t - min_t), rounded half up; 0 if no such turn;
                    -1 with no outright winner (w = -1) or no turn
    decisive_ppm    1e6 x t_w / T rounded half up, t_w the last turn after which w was not the
                    unique leader (0 if it led after every turn); -1 as drama
    half_leader     the unique leader after turn ceil(T/2); -1 on a tie or with no turn (-2:
                    out of the ring's reach, only in games longer than MAX_TURNS)
    half_last       the unique last after turn ceil(T/2); -1 as half_leader
    standing_turns  T

With one player nothing is tracked but T: lead_changes 0, the others -1.
"""

from __future__ import annotations

import math

from simcore.jit import kernel
from simcore.metrics import STANDING_COLUMNS as STANDING_COLUMNS  # named once, numba-free

MAX_SEATS = 7  # seats a game may have (a seat + 1 takes 3 bits in a run's entry)
RUN_CAP = 2048  # runs the ring holds (16 KB of the players' scratch)
MAX_TURNS = 2 * RUN_CAP - 1  # the longest game whose half-time run the ring always holds
PPM = 1_000_000

M_T = 0
M_CHANGES = 1
M_PREV = 2
M_STREAK = 3
M_SINCE = 4
M_START = 5
M_NRUNS = 6
M_V = 7
M_BEHIND = M_V + MAX_SEATS
M_RUNS = M_BEHIND + MAX_SEATS
M_SIZE = M_RUNS + RUN_CAP
F_DRAMA = 0
F_RATIO = MAX_SEATS
F_SIZE = 2 * MAX_SEATS


@kernel(inline="always")
def standing_start(x, xm, xf, xf0, players=MAX_SEATS):
    """Reset the accumulator before a game of `players` seats (the standings and the ring
    need no reset: the first turn always begins a run, and a run's entry is written before it
    is read; nothing reads a seat's sums beyond `players`)."""
    for k in range(M_V):
        x[xm + k] = 0
    x[xm + M_PREV] = -1
    x[xm + M_STREAK] = -1
    x[xm + M_START] = 1
    for k in range(players):
        x[xm + M_BEHIND + k] = 0
        xf[xf0 + F_DRAMA + k] = 0.0
        xf[xf0 + F_RATIO + k] = 0.0


@kernel(inline="always")
def close_run(x, xm, xf, xf0, players, t):
    """Add the current run's drama terms: its length (the turns before turn t since its first
    turn) times each seat's ratio."""
    n = t - x[xm + M_START]
    for k in range(players):
        q = xf[xf0 + F_RATIO + k]
        if q > 0.0:
            xf[xf0 + F_DRAMA + k] += float(n) * q
            x[xm + M_BEHIND + k] += n


@kernel
def begin_run(x, xm, xf, xf0, players, t):
    """begin_run_in, called (the shared loop of a game that looks at the standings after
    every turn keeps it out of the loop's code)."""
    begin_run_in(x, xm, xf, xf0, players, t)


@kernel(inline="always")
def begin_run_in(x, xm, xf, xf0, players, t):
    """Turn t changed a standing (or is the first turn): close the run before it and begin
    one with the standings x[xm + M_V + seat]."""
    close_run(x, xm, xf, xf0, players, t)
    v = xm + M_V
    hi = x[v]
    lo = hi
    top = 0
    bottom = 0
    n_hi = 1
    n_lo = 1
    for k in range(1, players):
        a = x[v + k]
        if a > hi:
            hi, top, n_hi = a, k, 1
        elif a == hi:
            n_hi += 1
        if a < lo:
            lo, bottom, n_lo = a, k, 1
        elif a == lo:
            n_lo += 1
    leader = top if n_hi == 1 else -1
    last = bottom if n_lo == 1 else -1
    if leader >= 0:
        prev = x[xm + M_PREV]
        if prev >= 0 and prev != leader:
            x[xm + M_CHANGES] += 1
        x[xm + M_PREV] = leader
    if leader != x[xm + M_STREAK]:
        x[xm + M_STREAK] = leader
        x[xm + M_SINCE] = t
    span = float(hi - lo)
    for k in range(players):
        a = x[v + k]
        xf[xf0 + F_RATIO + k] = float(hi - a) / span if a < hi else 0.0
    nr = x[xm + M_NRUNS]
    x[xm + M_RUNS + nr % RUN_CAP] = t * 64 + (leader + 1) + 8 * (last + 1)
    x[xm + M_NRUNS] = nr + 1
    x[xm + M_START] = t


@kernel(inline="always")
def standing_turn(x, xm, xf, xf0, players, changed):
    """One more completed turn; the caller has written the standings after it into
    x[xm + M_V + seat], changed: whether one of them differs from the turn before. With one
    player only the turn is counted. No allocation; O(1) when nothing changed."""
    t = x[xm + M_T] + 1
    x[xm + M_T] = t
    if players > 1 and (changed or t == 1):
        begin_run(x, xm, xf, xf0, players, t)


@kernel
def run_at(x, xm, t):
    """The ring entry of the run that holds turn t (1 <= t <= T): the last run begun at or
    before t, by bisection over the runs the ring still holds; -1 when the ring no longer
    holds it."""
    n = x[xm + M_NRUNS]
    lo = n - RUN_CAP if n > RUN_CAP else 0
    if x[xm + M_RUNS + lo % RUN_CAP] // 64 > t:
        return -1  # the oldest run held began after t
    hi = n - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if x[xm + M_RUNS + mid % RUN_CAP] // 64 <= t:
            lo = mid
        else:
            hi = mid - 1
    return x[xm + M_RUNS + lo % RUN_CAP]


@kernel(inline="always")
def standing_row(x, xm, xf, xf0, players, winner, rows, i, c0):
    """Write the STANDING_COLUMNS of a finished game into rows[i, c0 : c0 + 6] (winner: the
    row's winner, -1 for none); closes the last run."""
    t_n = x[xm + M_T]
    rows[i, c0 + 5] = t_n
    if players < 2:
        rows[i, c0] = 0
        for k in range(1, 5):
            rows[i, c0 + k] = -1
        return
    close_run(x, xm, xf, xf0, players, t_n + 1)
    rows[i, c0] = x[xm + M_CHANGES]
    rows[i, c0 + 3] = -1
    rows[i, c0 + 4] = -1
    if t_n > 0:
        e = run_at(x, xm, (t_n + 1) // 2)
        rows[i, c0 + 3] = (e % 8) - 1 if e >= 0 else -2
        rows[i, c0 + 4] = ((e % 64) // 8) - 1 if e >= 0 else -2
    if winner < 0 or t_n == 0:
        rows[i, c0 + 1] = -1
        rows[i, c0 + 2] = -1
        return
    n = x[xm + M_BEHIND + winner]
    drama = 0
    if n > 0:
        drama = math.floor(xf[xf0 + F_DRAMA + winner] / n * 1e6 + 0.5)
    rows[i, c0 + 1] = drama
    t_w = x[xm + M_SINCE] - 1 if x[xm + M_STREAK] == winner else t_n
    rows[i, c0 + 2] = (2 * PPM * t_w + t_n) // (2 * t_n)
