"""A floor for the cost of a Secrets of the Sea game (issue #9; docs/performance.md, "Secrets of
the Sea: the floor").

Not the game: a skeleton that keeps only what any faithful engine with the `balanced` players
must do in a turn -- the shuffle, the random draws, and the branches that depend on them: is a
die an X, which die and buoy land best (the same branch-free landing score), what lies under
the lamp (empty, monster, tile), take or dive on (a mean value per region and kind against the
balanced thresholds), the fight, the wreck, the end check. Everything else the engine does is
left out: bonus tiles, exchanges, caves' fronts, the legality checks, the phase machine, the
per-seat counters, the result row. The tile mix is the reconstruction the measurements of
docs/performance.md were made with (25 light and 25 dark tiles, 7 wreck tiles; dark monsters of
4, 5, 5, 6 pips and a 6-pip cave monster, today's `unbeatable-monsters` variant), the die
1-2-3-4-X-X, 4 players.

    .venv/bin/python tools/secrets_floor.py [games]

prints games per CPU-second of one thread and ns per turn for the dice drawn as the engine
draws them (one draw per die) and with both dice from one 64-bit draw.
"""

from __future__ import annotations

import sys
import time

import numpy as np
from numba import njit, uint64

G = uint64(0x9E3779B97F4A7C15)
M1 = uint64(0xBF58476D1CE4E5B9)
M2 = uint64(0x94D049BB133111EB)
INV53 = 1.0 / 9007199254740992.0

# lamp kinds 0-4 treasures, 5 seagrass, 6 exchange, 7 monster, 8 cave; values (monster: pips)
KIND = np.array(
    [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 5, 6, 6, 7, 7, 8, 8]
    + [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 6, 6, 7, 7, 7, 7, 8, 8],
    dtype=np.int64,
)
VALUE = np.array(
    [1, 1, 2] * 5 + [0] * 4 + [2, 2, 2, 3, 0, 2] + [2, 3, 4] * 5 + [0, 0, 2, 2, 4, 5, 5, 6, 6, 4],
    dtype=np.int64,
)
FACES = np.array([1, 2, 3, 4, 0, 0], dtype=np.int64)
WRECK = 11


@njit(inline="always")
def draw(st):
    st[0] += G
    z = st[0]
    z = (z ^ (z >> uint64(30))) * M1
    z = (z ^ (z >> uint64(27))) * M2
    return z ^ (z >> uint64(31))


@njit(inline="always")
def below(st, n):
    return np.int64(float(draw(st) >> uint64(11)) * INV53 * n)


@njit(inline="always")
def roll(st, blocked, one_draw):
    """Faces of the free dice (-1 for a die set aside) and the new set-aside mask."""
    if one_draw:
        x = draw(st)
        d0 = FACES[np.int64((x & uint64(0xFFFFFFFF)) * uint64(6) >> uint64(32))]
        d1 = FACES[np.int64((x >> uint64(32)) * uint64(6) >> uint64(32))]
        d0 = d0 if (blocked & 1) == 0 else -1
        d1 = d1 if (blocked & 2) == 0 else -1
        return d0, d1, blocked | np.int64(d0 == 0) | (np.int64(d1 == 0) << 1)
    d0 = -1
    d1 = -1
    if (blocked & 1) == 0:
        d0 = FACES[below(st, 6)]
        if d0 == 0:
            blocked |= 1
    if (blocked & 2) == 0:
        d1 = FACES[below(st, 6)]
        if d1 == 0:
            blocked |= 2
    return d0, d1, blocked


@njit(cache=True)
def game(st, board, known, hid_n, hid_sum, thr, one_draw):
    """One 4-player game; returns its number of turns."""
    for g in range(2):
        for k in range(25):
            board[g * 25 + k] = g * 25 + k
        for k in range(24, 0, -1):
            j = below(st, k + 1)
            a = board[g * 25 + k]
            board[g * 25 + k] = board[g * 25 + j]
            board[g * 25 + j] = a
    for q in range(50):
        known[q] = 0
    for i in range(18):
        hid_n[i] = 0
        hid_sum[i] = 0
    for t in range(50):
        hid_n[(t // 25) * 9 + KIND[t]] += 1
        hid_sum[(t // 25) * 9 + KIND[t]] += VALUE[t]
    left = np.array([25, 25])  # tiles left per region
    wreck = 7
    turns = 0
    while True:
        turns += 1
        blocked = 0
        pos = 0
        col = -1
        taken = -1  # the space whose tile the diver takes, -1 none
        while True:
            d0, d1, blocked = roll(st, blocked, one_draw)
            if blocked == 3:
                break  # both dice X: the turn is over
            if col < 0:
                c0 = below(st, 5)
                n = 5
            else:
                c0 = col
                n = 1
            q0 = pos + d0 if d0 > 0 else -1
            q1 = pos + d1 if d1 > 0 else -1
            best = -1000
            bq = -1
            bc = -1
            for k in range(n):
                c = c0 + k
                if c >= 5:
                    c -= 5
                for qq in (q0, q1):
                    if qq < 0:
                        continue
                    if qq >= WRECK:
                        v = 100
                    else:
                        e = np.int64(board[c * 10 + qq - 1] < 0)
                        v = qq - 3 * e - 8 * (1 - e) * np.int64(known[c * 10 + qq - 1] == 2)
                    if v > best:
                        best = v
                        bq = qq
                        bc = c
            col = bc
            pos = bq if bq < WRECK else WRECK
            if pos == WRECK:
                wreck -= 1
                break
            sp = col * 10 + pos - 1
            t = board[sp]
            if t < 0:
                continue  # an empty space: dive on
            if KIND[t] == 7:  # a monster: fight with the free dice, then the turn is over
                won = False
                if (blocked & 1) == 0 and FACES[below(st, 6)] >= VALUE[t]:
                    won = True
                if (blocked & 2) == 0 and FACES[below(st, 6)] >= VALUE[t]:
                    won = True
                if won:
                    taken = sp
                else:
                    known[sp] = 2
                break
            known[sp] = 1
            h = (sp % 10 >= 5) * 9 + KIND[t]
            v = hid_sum[h] / hid_n[h] if hid_n[h] > 0 else 0.0
            nd = 2 - (blocked & 1) - (blocked >> 1)
            if v >= thr[nd - 1] - 0.5 * (pos - 1):
                taken = sp
                break
        if taken >= 0:
            t = board[taken]
            g = np.int64(taken % 10 >= 5)
            hid_n[g * 9 + KIND[t]] -= 1
            hid_sum[g * 9 + KIND[t]] -= VALUE[t]
            board[taken] = -1
            known[taken] = 0
            left[g] -= 1
        if left[0] == 0 or left[1] == 0 or wreck == 0 or turns >= 2000:
            return turns


@njit(cache=True)
def batch(n, seed, one_draw):
    st = np.zeros(1, dtype=np.uint64)
    board = np.zeros(50, dtype=np.int64)
    known = np.zeros(50, dtype=np.int64)
    hid_n = np.zeros(18, dtype=np.int64)
    hid_sum = np.zeros(18, dtype=np.int64)
    thr = np.array([3.0, 2.0])
    tot = 0
    for i in range(n):
        st[0] = uint64(seed) * G + uint64(i) * M1
        tot += game(st, board, known, hid_n, hid_sum, thr, one_draw)
    return tot


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    for one_draw, label in ((False, "one draw per die"), (True, "one draw per roll")):
        batch(100, 0, one_draw)
        best = 1e9
        for k in range(5):
            t = time.process_time()
            turns = batch(n, k + 1, one_draw)
            best = min(best, time.process_time() - t)
        print(
            f"{label}: {n / best:,.0f} games/CPU-s, {best / n * 1e6:.2f} us/game, "
            f"{turns / n:.1f} turns/game, {best / turns * 1e9:.1f} ns/turn"
        )


if __name__ == "__main__":
    main()
