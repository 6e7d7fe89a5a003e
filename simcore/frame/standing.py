"""How a game felt (issue #26): lead changes, drama, decisiveness and the half-time leader and
last, tracked online from each seat's standing after every completed turn.

Every game defines a `standing(s, r, seat) -> int64` hook (higher is better; its play.py, and
docs/rules-<game>.md "Standing (experience metrics)"). The shared turn loop
(simcore.frame.skeleton.play_turns) takes the standings of all seats after each completed turn of
the real game (never inside the search player's simulations) into a small accumulator
(`standing_turn` feeds it the same way in tests); at the end of the game `standing_row`
writes the columns STANDING_COLUMNS into the result row. Nothing is stored per turn in the
rows.

The accumulator works in **runs**: maximal stretches of consecutive turns after which every
seat's standing is the same (in most turns nobody scores). After a turn that may have changed
a standing (every turn, or only those whose `standing_version` changed, simcore.frame.skeleton), the
shared loop writes every seat's standing into the next entry of a **log** and compares them
with the current run's (the entry before it), without a branch; the entry becomes a new run
(its first turn and the standings) when one differs, or on the first turn. Nothing else is
done during the game: at its end `standing_row` reads the log's runs once, in order, with the
winner known, so the drama terms are formed for the winner only (`from_log`). A game of more
than LOG_CAP runs folds the full log into per-seat sums and a ring of runs (`fold`, the same
arithmetic in the same order) and is read from those at its end. It lives in the players'
int and float scratch, behind everything else (offsets `xm`, `xf0`), and is never cleared
as a whole (an entry is written before it is read):

    M_T        turns completed so far (T at the end; play_turns writes it when the game ends)
    M_LN       runs in the log
    M_NRUNS    runs folded (0 in a game that never filled the log)
    M_V0       log slot -1: the last run folded (its first turn, then M_V: its standings)
    M_LOG      [LOG_CAP x LW] the runs since the last fold: first turn, every seat's standing
    The fold's sums, reset by the first fold (fold_start):
    M_CHANGES  lead changes so far
    M_PREV     the most recent unique leader (-1: none yet)
    M_STREAK   the unique leader of the current run (-1: a tie for the lead)
    M_SINCE    the first turn of the current stretch of runs with M_STREAK as unique leader
    M_START    the first turn of the current run
    M_FIRST    the first turn after which a seat led alone (0: none yet)
    M_BEHIND   [MAX_SEATS] turns of the closed runs after which the seat stood strictly behind
    M_RUNS     [RUN_CAP] a ring of the last RUN_CAP runs folded: first turn * 64 + (leader +
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
    opening_ppm     1e6 x (t_1 - 1) / T rounded half up, t_1 the first turn after which a seat
                    leads alone (T + 1 if none ever does: 1e6): the share of the game's turns
                    played before anyone led alone (issue #35: what the half-time and
                    decisiveness metrics rest on); -1 with no turn

With one player nothing is tracked but T: lead_changes 0, the others -1.
"""

from __future__ import annotations

import math

from simcore.base.standing_columns import STANDING_COLUMNS as STANDING_COLUMNS  # numba-free
from simcore.frame.jit import kernel

MAX_SEATS = 7  # seats a game may have (a seat + 1 takes 3 bits in a run's entry)
RUN_CAP = 2048  # runs the ring holds (16 KB of the players' scratch)
MAX_TURNS = 2 * RUN_CAP - 1  # the longest game whose half-time run the ring always holds
LOG_CAP = 128  # runs the log holds before they are folded (8 KB of the players' scratch)
LW = 1 + MAX_SEATS  # words of a log entry: its first turn, then every seat's standing
PPM = 1_000_000

M_T = 0
M_CHANGES = 1
M_PREV = 2
M_STREAK = 3
M_SINCE = 4
M_START = 5
M_NRUNS = 6
M_LN = 7
M_FIRST = 8
M_BEHIND = M_FIRST + 1
M_RUNS = M_BEHIND + MAX_SEATS
M_V0 = M_RUNS + RUN_CAP  # log slot -1: the first turn and the standings of the last run folded
M_V = M_V0 + 1  # (or of the turn before the log's first entry)
M_LOG = M_V0 + LW  # [LOG_CAP x LW] the runs begun since the last fold
M_SIZE = M_LOG + LOG_CAP * LW
F_DRAMA = 0
F_RATIO = MAX_SEATS
F_SIZE = 2 * MAX_SEATS


@kernel(inline="always")
def standing_start(x, xm):
    """Reset the accumulator before a game: T and the log's and the folds' counts (the log
    and its slot -1 need no reset: the first turn always begins a run, and an entry is
    written before it is read; the sums are reset by the first fold, fold_start)."""
    x[xm + M_T] = 0
    x[xm + M_LN] = 0
    x[xm + M_NRUNS] = 0


@kernel(inline="always")
def fold_start(x, xm, xf, xf0, players):
    """Before a game's first fold: the sums and the run bookkeeping reset (nothing reads a
    seat's sums beyond `players`)."""
    x[xm + M_CHANGES] = 0
    x[xm + M_PREV] = -1
    x[xm + M_STREAK] = -1
    x[xm + M_SINCE] = 0
    x[xm + M_START] = 1
    x[xm + M_FIRST] = 0
    for k in range(players):
        x[xm + M_BEHIND + k] = 0
        xf[xf0 + F_DRAMA + k] = 0.0
        xf[xf0 + F_RATIO + k] = 0.0


@kernel(inline="always")
def log_slot(x, xm):
    """Where the standings after the turn being looked at go: the log's next entry (its
    first turn at the index returned, seat k's standing at + 1 + k); the entry before it (the
    current run) is LW words lower."""
    return xm + M_LOG + x[xm + M_LN] * LW


@kernel(inline="always")
def log_put(x, e, k, v):
    """Seat k's standing v into the entry at e (log_slot); nonzero when it differs from the
    current run's."""
    x[e + 1 + k] = v
    return v ^ x[e - LW + 1 + k]


@kernel(inline="always")
def log_commit(x, xm, xf, xf0, players, t, e, d):
    """Turn t's standings are in the entry at e (log_slot); d: nonzero when one of them
    differs from the current run's. The entry becomes a run when d != 0 or on the first turn
    (no branch); a full log is folded."""
    x[e] = t
    n = x[xm + M_LN] + ((d != 0) | (t == 1))
    x[xm + M_LN] = n
    if n == LOG_CAP:
        fold(x, xm, xf, xf0, players)


@kernel
def fold(x, xm, xf, xf0, players):
    """Fold the log's runs into the per-seat sums and the ring, in order (only in games of
    more than LOG_CAP runs, and at the end of such a game), and empty it; slot -1 is left
    holding the last run."""
    if x[xm + M_NRUNS] == 0:
        fold_start(x, xm, xf, xf0, players)
    n = x[xm + M_LN]
    for j in range(n):
        e = xm + M_LOG + j * LW
        for k in range(players):
            x[xm + M_V + k] = x[e + 1 + k]
        begin_run_in(x, xm, xf, xf0, players, x[e])
    x[xm + M_LN] = 0


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


@kernel(inline="always")
def top_and_bottom(x, v, players):
    """(highest, its unique seat or -1, lowest, its unique seat or -1) of the standings
    x[v : v + players]."""
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
    return hi, top if n_hi == 1 else -1, lo, bottom if n_lo == 1 else -1


@kernel(inline="always")
def lead_step(leader, t, prev, changes, streak, since):
    """A run whose unique leader is `leader` (-1: a tie for the lead) begins at turn t:
    (the most recent unique leader, lead changes, the current stretch's unique leader, its
    first turn) after it. Ties never change the lead."""
    if leader >= 0:
        if prev >= 0 and prev != leader:
            changes += 1
        prev = leader
    if leader != streak:
        streak = leader
        since = t
    return prev, changes, streak, since


@kernel(inline="always")
def begin_run_in(x, xm, xf, xf0, players, t):
    """Turn t changed a standing (or is the first turn): close the run before it and begin
    one with the standings x[xm + M_V + seat] (the fold of a log entry)."""
    close_run(x, xm, xf, xf0, players, t)
    v = xm + M_V
    hi, leader, lo, last = top_and_bottom(x, v, players)
    if leader >= 0 and x[xm + M_PREV] < 0:
        x[xm + M_FIRST] = t
    prev, changes, streak, since = lead_step(
        leader, t, x[xm + M_PREV], x[xm + M_CHANGES], x[xm + M_STREAK], x[xm + M_SINCE]
    )
    x[xm + M_PREV] = prev
    x[xm + M_CHANGES] = changes
    x[xm + M_STREAK] = streak
    x[xm + M_SINCE] = since
    span = float(hi - lo)
    for k in range(players):
        a = x[v + k]
        xf[xf0 + F_RATIO + k] = float(hi - a) / span if a < hi else 0.0
    nr = x[xm + M_NRUNS]
    x[xm + M_RUNS + nr % RUN_CAP] = t * 64 + (leader + 1) + 8 * (last + 1)
    x[xm + M_NRUNS] = nr + 1
    x[xm + M_START] = t


@kernel
def standing_turn(x, xm, xf, xf0, players, v):
    """One more completed turn with the standings v (int64[players]), fed as the shared turn
    loop feeds them (tests; the loop keeps T in a register and writes the entry itself). No
    allocation; O(1) unless the log is full. With one player only the turn is counted."""
    t = x[xm + M_T] + 1
    x[xm + M_T] = t
    if players > 1:
        e = log_slot(x, xm)
        d = 0
        for k in range(players):
            d |= log_put(x, e, k, v[k])
        log_commit(x, xm, xf, xf0, players, t, e, d)


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
    """Write the STANDING_COLUMNS of a finished game into rows[i, c0 : c0 + 7] (winner: the
    row's winner, -1 for none). A game whose runs all fit in the log (every game of at most
    LOG_CAP runs) is read from the log, the drama for the winner only; a longer one is
    folded to its end and read from the sums and the ring (the same values)."""
    t_n = x[xm + M_T]
    rows[i, c0 + 5] = t_n
    if players < 2:
        rows[i, c0] = 0
        for k in range(1, 5):
            rows[i, c0 + k] = -1
        rows[i, c0 + 6] = -1
        return
    if x[xm + M_NRUNS] == 0:
        from_log(x, xm, players, winner, rows, i, c0)
        return
    fold(x, xm, xf, xf0, players)
    close_run(x, xm, xf, xf0, players, t_n + 1)
    e = run_at(x, xm, (t_n + 1) // 2)  # t_n > LOG_CAP: the log was folded
    half_leader = (e % 8) - 1 if e >= 0 else -2
    half_last = ((e % 64) // 8) - 1 if e >= 0 else -2
    drama = xf[xf0 + F_DRAMA + winner] if winner >= 0 else 0.0
    behind = x[xm + M_BEHIND + winner] if winner >= 0 else 0
    feel_row(
        rows,
        i,
        c0,
        winner,
        t_n,
        x[xm + M_CHANGES],
        half_leader,
        half_last,
        drama,
        behind,
        x[xm + M_STREAK],
        x[xm + M_SINCE],
        x[xm + M_FIRST],
    )


@kernel(inline="always")
def feel_row(
    rows, i, c0, winner, t_n, changes, half_leader, half_last, drama, behind, streak, since, first
):
    """The columns of a game of 2 or more seats from its totals (both readings of
    standing_row): drama = the winner's sum of (run length) * ratio over `behind` turns;
    streak, since: the unique leader of the last stretch of runs and its first turn; first:
    the first turn after which a seat led alone (0: none did)."""
    rows[i, c0] = changes
    rows[i, c0 + 3] = half_leader
    rows[i, c0 + 4] = half_last
    if t_n == 0:
        rows[i, c0 + 6] = -1
    else:
        opening = first - 1 if first > 0 else t_n
        rows[i, c0 + 6] = (2 * PPM * opening + t_n) // (2 * t_n)
    if winner < 0 or t_n == 0:
        rows[i, c0 + 1] = -1
        rows[i, c0 + 2] = -1
        return
    rows[i, c0 + 1] = math.floor(drama / behind * 1e6 + 0.5) if behind > 0 else 0
    t_w = since - 1 if streak == winner else t_n
    rows[i, c0 + 2] = (2 * PPM * t_w + t_n) // (2 * t_n)


@kernel(inline="always")
def from_log(x, xm, players, winner, rows, i, c0):
    """standing_row of a game that never folded: one pass over the log's runs (the same
    arithmetic as the fold, in the same order, for the winner's drama only)."""
    t_n = x[xm + M_T]
    n = x[xm + M_LN]
    half = (t_n + 1) // 2
    changes = 0
    prev = -1
    streak = -1
    since = 0
    half_leader = -1
    half_last = -1
    drama = 0.0
    behind = 0
    first = 0
    for j in range(n):
        e = xm + M_LOG + j * LW
        t0 = x[e]
        t1 = x[e + LW] if j + 1 < n else t_n + 1
        hi, leader, lo, last = top_and_bottom(x, e + 1, players)
        if leader >= 0 and prev < 0:
            first = t0
        prev, changes, streak, since = lead_step(leader, t0, prev, changes, streak, since)
        if t0 <= half:
            half_leader = leader
            half_last = last
        if winner >= 0:
            a = x[e + 1 + winner]
            if a < hi:
                drama += float(t1 - t0) * (float(hi - a) / float(hi - lo))
                behind += t1 - t0
    feel_row(
        rows,
        i,
        c0,
        winner,
        t_n,
        changes,
        half_leader,
        half_last,
        drama,
        behind,
        streak,
        since,
        first,
    )
