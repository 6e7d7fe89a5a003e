"""How a game felt (issue #26): lead changes, drama, decisiveness and the half-time leader and
last, tracked online from each seat's standing after every completed turn.

Every game defines a `standing(s, r, seat) -> int64` hook (higher is better; its play.py, and
docs/rules-<game>.md "Standing (experience metrics)"). The shared turn loop
(simcore.skeleton.play_turns) computes the standings of all seats after each completed turn of
the real game (never inside the search player's simulations) and folds them into a small
accumulator (`standing_turn`); at the end of the game `standing_row` writes the columns
STANDING_COLUMNS into the result row. Nothing is stored per turn in the rows; the accumulator
lives in the players' int and float scratch, behind everything else (offsets `xm`, `xf0`):

    M_T        turns completed so far (T at the end)
    M_CHANGES  lead changes so far
    M_PREV     the most recent unique leader (-1: none yet)
    M_STREAK   the unique leader after the latest turn (-1: a tie for the lead)
    M_SINCE    the first turn of the current run of turns with M_STREAK as unique leader
    M_V        [MAX_SEATS] the standings after the current turn (filled by the caller)
    M_BEHIND   [MAX_SEATS] turns after which the seat stood strictly behind the leader
    M_RING     [RING_WORDS] the unique leader and unique last after each turn, packed 8 turns
               a word (7 bits a turn: leader + 1, and last + 1 times 8), in a ring: the
               half-time turn ceil(T/2) is only known at the end, and every turn before the
               current half-time can be forgotten, so a ring of RING turns serves games of
               up to 2 * RING - 1 turns (far more than any rules allow: MAX_TURNS)
    F_DRAMA    (float scratch) [MAX_SEATS] the sum over the turns the seat stood strictly
               behind of (max - v) / (max - min)

The columns (all int64; docs/experience-metrics.md has the definitions with their sources),
for T completed turns, v_t the standings after turn t and w the row's winner:

    lead_changes    turns t after which there is a unique leader that differs from the most
                    recent unique leader before t (ties never change the lead)
    drama_ppm       1e6 x the mean over the turns with v_t[w] < max_t of
                    (max_t - v_t[w]) / (max_t - min_t), rounded half up; 0 if no such turn;
                    -1 with no outright winner (w = -1) or no turn
    decisive_ppm    1e6 x t_w / T rounded half up, t_w the last turn after which w was not the
                    unique leader (0 if it led after every turn); -1 as drama
    half_leader     the unique leader after turn ceil(T/2); -1 on a tie or with no turn
    half_last       the unique last after turn ceil(T/2); -1 on a tie or with no turn
    standing_turns  T

With one player nothing is tracked but T: lead_changes 0, the others -1.
"""

from __future__ import annotations

import math

from simcore.jit import kernel

STANDING_COLUMNS = (
    "lead_changes",
    "drama_ppm",
    "decisive_ppm",
    "half_leader",
    "half_last",
    "standing_turns",
)
MAX_SEATS = 7  # seats a game may have (a seat + 1 takes 3 bits in the ring)
PER_WORD = 8  # turns packed in one ring word
RING_WORDS = 1 << 14
RING = RING_WORDS * PER_WORD  # turns the ring holds
MAX_TURNS = 2 * RING - 1  # the longest game whose half-time turn the ring still holds

M_T = 0
M_CHANGES = 1
M_PREV = 2
M_STREAK = 3
M_SINCE = 4
M_V = 5
M_BEHIND = M_V + MAX_SEATS
M_RING = M_BEHIND + MAX_SEATS
M_SIZE = M_RING + RING_WORDS
F_DRAMA = 0
F_SIZE = MAX_SEATS
PPM = 1_000_000


@kernel
def standing_start(x, xm, xf, xf0):
    """Reset the accumulator before a game (the ring needs no reset: a turn's entry is
    written before it is read)."""
    x[xm + M_T] = 0
    x[xm + M_CHANGES] = 0
    x[xm + M_PREV] = -1
    x[xm + M_STREAK] = -1
    x[xm + M_SINCE] = 0
    for k in range(MAX_SEATS):
        x[xm + M_BEHIND + k] = 0
        xf[xf0 + F_DRAMA + k] = 0.0


@kernel
def standing_turn(x, xm, xf, xf0, players):
    """Fold the standings x[xm + M_V + seat] after one more completed turn into the
    accumulator (with one player only the turn is counted). O(players), no allocation."""
    t = x[xm + M_T] + 1
    x[xm + M_T] = t
    if players < 2:
        return
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
    if hi > lo:
        span = float(hi - lo)
        for k in range(players):
            a = x[v + k]
            if a < hi:
                xf[xf0 + F_DRAMA + k] += float(hi - a) / span
                x[xm + M_BEHIND + k] += 1
    w = xm + M_RING + ((t // PER_WORD) % RING_WORDS)
    shift = (t % PER_WORD) * 7
    entry = (leader + 1) + 8 * (last + 1)
    x[w] = (x[w] & ~(127 << shift)) | (entry << shift)


@kernel
def ring_entry(x, xm, t):
    """(unique leader, unique last) after turn t (-1: a tie), from the ring."""
    w = xm + M_RING + ((t // PER_WORD) % RING_WORDS)
    e = (x[w] >> ((t % PER_WORD) * 7)) & 127
    return (e % 8) - 1, (e // 8) - 1


@kernel
def standing_row(x, xm, xf, xf0, players, winner, rows, i, c0):
    """Write the STANDING_COLUMNS of a finished game into rows[i, c0 : c0 + 6] (winner: the
    row's winner, -1 for none)."""
    t_n = x[xm + M_T]
    rows[i, c0 + 5] = t_n
    if players < 2:
        rows[i, c0] = 0
        for k in range(1, 5):
            rows[i, c0 + k] = -1
        return
    rows[i, c0] = x[xm + M_CHANGES]
    if t_n == 0:
        rows[i, c0 + 3] = -1
        rows[i, c0 + 4] = -1
    else:
        lead, last = ring_entry(x, xm, (t_n + 1) // 2)
        rows[i, c0 + 3] = lead
        rows[i, c0 + 4] = last
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
