"""The `optimal` player's policy: Pig solved by value iteration (Neller & Presser, "Optimal
Play of the Dice Game Pig", 2004), computed once per (target, die) in numpy and cached in
memory and on disk beside the numba cache.

P(i, j, k) is the probability that the player to move wins with its score i, the other's score
j and its turn total k. Holding at k > 0 is worth 1 - P(j, i + k, 0) (the other moves next), 1
once i + k reaches the target; rolling is worth p1 * (1 - P(j, i, 0)) + sum_f p_f P(i, j, k + f)
over the die's faces (p1: the chance of the pig face, the 1). At k = 0 the player must roll
(rules: a turn begins with a roll). P is the fixed point of P = max(roll, hold).

The method: the states are solved in layers of equal score sum i + j, from the highest down (a
hold moves to a higher layer, already solved; a roll stays in the layer). In a layer, value
iteration: from P(., ., 0) = 1/2, each sweep computes every P(i, j, k) of the layer backwards
from the highest k, then P(i, j, 0) anew, until no P(i, j, 0) moves by more than TOL (every
fourth sweep is replaced by Aitken's delta-squared step, which only speeds the approach:
the stop is still a sweep that moves nothing by more than TOL; 3 s for the target 100). The
policy is then the argmax of the last sweep: roll where rolling is worth more than holding
(a tie holds). Every operation is elementwise numpy in a fixed order, so the table is the same
bit for bit with numba on or off.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np

TOL = 1e-12  # a layer is solved when no P(i, j, 0) moves by more than this in a sweep
_MEMO: dict[tuple[int, tuple[int, ...]], tuple[np.ndarray, np.ndarray]] = {}


def face_odds(faces: tuple[int, ...]) -> tuple[float, list[tuple[int, float]]]:
    """(the pig face's chance, [(face, chance)] of the other faces, smallest first)."""
    n = len(faces)
    others = sorted(set(f for f in faces if f != 1))
    return faces.count(1) / n, [(f, faces.count(f) / n) for f in others]


def solve(target: int, faces: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """(P0, rolls): P0[i, j] = P(i, j, 0), float64[T, T]; rolls[i, j, k] whether the optimal
    player rolls at (i, j, k), bool[T, T, T] (k = 0: always; i + k >= T: never)."""
    t = target
    p1, odds = face_odds(faces)
    top = max([f for f, _ in odds], default=0)
    p0 = np.zeros((t, t))
    rolls = np.zeros((t, t, t), dtype=bool)
    ks = np.arange(t)
    for s in range(2 * t - 2, -1, -1):
        i = np.arange(max(0, s - t + 1), min(s, t - 1) + 1)
        j = s - i
        # holding at k > 0 (1 once i + k reaches the target): fixed in the layer
        at = i[None, :] + ks[:, None]
        hold = np.where(at < t, 1.0 - p0[j[None, :], np.minimum(at, t - 1)], 1.0)
        a = np.full(i.size, 0.5)
        seen = [a]
        while True:
            new = _sweep(t, a[::-1], hold, p1, odds, top)[0]
            done = np.max(np.abs(new - a)) <= TOL
            a = new
            if done:
                break
            seen.append(a)
            if len(seen) == 5:
                a = _extrapolate(seen[0], seen[2], seen[4])
                seen = [a]
        w = _sweep(t, a[::-1], hold, p1, odds, top)
        p0[i, j] = w[0]
        rolls[i, j, 1:] = (w[t + 1 :] > hold[1:]).T
        rolls[i, j, 0] = True
    return p0, rolls


def _sweep(t, other, hold, p1, odds, top):
    """One sweep of a layer: W[k] = P(i, j, k) for every k < t (rows; 1 beyond), given other
    = P(j, i, 0) and hold[k] = the value of holding; W[t + k] for k < t: the value of rolling
    at k (where it is not the max, the policy holds)."""
    m = other.size
    w = np.ones((2 * t + top, m))
    lose = p1 * (1.0 - other)
    for k in range(t - 1, -1, -1):
        roll = lose
        for f, p in odds:
            roll = roll + p * w[k + f]
        w[t + top + k] = roll
        w[k] = roll if k == 0 else np.maximum(roll, hold[k])
    return np.concatenate([w[:t], w[t + top :]])


def _extrapolate(x0, x1, x2):
    """Aitken's delta-squared step on every second sweep's values (a sweep maps P(i, j, 0)
    through P(j, i, 0), so every second one is the same map of each value): the limit of a
    geometric approach, where the step is defined and lands in [0, 1]; x2 elsewhere."""
    d = x2 - 2.0 * x1 + x0
    with np.errstate(divide="ignore", invalid="ignore"):
        e = x2 - (x2 - x1) * (x2 - x1) / d
    ok = (d != 0.0) & (e >= 0.0) & (e <= 1.0)
    return np.where(ok, e, x2)


def cache_path(target: int, faces: tuple[int, ...]) -> Path:
    """The table's file: under NUMBA_CACHE_DIR or ~/.cache/balance-numba (as simcore.frame.jit),
    named by the rules and this module's source (a change of the method is a new file)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        base = Path(os.environ["NUMBA_CACHE_DIR"])
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "balance-numba"
    h = hashlib.sha256(Path(__file__).read_bytes())
    h.update(repr((target, tuple(faces), TOL)).encode())
    return base / "pig-optimal" / f"{h.hexdigest()[:16]}.npz"


def table(target: int, faces: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """solve(target, faces), from memory, else from the disk cache, else computed (and saved;
    a cache that cannot be written or read is only a cost)."""
    key = (int(target), tuple(int(f) for f in faces))
    if key in _MEMO:
        return _MEMO[key]
    path = cache_path(*key)
    got = None
    try:
        with np.load(path) as z:
            got = (z["p0"], z["rolls"])
    except (OSError, KeyError, ValueError):
        got = solve(*key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")
            np.savez_compressed(tmp, p0=got[0], rolls=got[1])
            os.replace(tmp, path)
        except OSError:
            pass
    _MEMO[key] = got
    return got


def first_player_wins(target: int, faces: tuple[int, ...]) -> float:
    """The optimal first player's chance to win against an optimal player: P(0, 0, 0)."""
    return float(table(target, faces)[0][0, 0])


def policy_words(target: int, faces: tuple[int, ...]) -> np.ndarray:
    """The roll/hold decisions as a bitset of int64 words: bit (i * T + j) * T + k, least
    significant first, is 1 where the optimal player rolls."""
    bits = table(target, faces)[1].reshape(-1)
    pad = (-bits.size) % 64
    packed = np.packbits(np.concatenate([bits, np.zeros(pad, dtype=bool)]), bitorder="little")
    return packed.view("<u8").astype(np.uint64).view(np.int64)
