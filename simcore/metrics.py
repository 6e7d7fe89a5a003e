"""The balance metrics, each defined once: what a game's result row says about balance (a
shared win, the first player's advantage, the largest seat gap), the per-game metrics a
comparison follows (`Metric`, `metric_list`, `game_metrics`) and their running sums
(`ArmMoments`), which chunks of games merge exactly.

The simulator's comparison chunks compute the per-game values (simcore.arms); the summaries
of simcore.chunks count shared wins with `shared_win`; analysis.stats derives the intervals
of the same quantities from merged summaries. Only numpy and pandas: no compiled code.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd


# --------------------------------------------------------------------------- balance
def shared_win(winner, win_mask):
    """Whether each game was won by several seats together: no outright winner (winner -1) and
    more than one seat in first place (win_mask: a bit per seat)."""
    return (winner < 0) & ((win_mask & (win_mask - 1)) != 0)


def fair_share(outright_wins, games, players):
    """The share of the games each seat would win if the outright wins were split evenly."""
    return outright_wins / games / players


def first_player_advantage(seat0_wins, outright_wins, games, players):
    """Seat 0's win rate minus its fair share of the outright wins. With games = 1 and the
    indicators of one game (seat 0 won, someone won outright) it is the per-game value whose
    mean is the advantage."""
    return seat0_wins / games - fair_share(outright_wins, games, players)


def largest_gap_seats(wins) -> tuple[int, int]:
    """(best, worst): the seats with the most and the fewest outright wins (the first of
    equals); the largest seat gap is the difference of their win rates."""
    w = np.asarray(wins)
    return int(np.argmax(w)), int(np.argmin(w))


# --------------------------------------------------------------------------- per game
@dataclass(frozen=True)
class Metric:
    """A per-game metric (the mean over games is what is compared)."""

    name: str  # column of the metric matrix: win_0, shared, fpa, rounds, a counter's name
    label: str  # words for a designer: "seat 0 win rate"
    kind: str  # 'rate' (a share of games, shown in points), 'mean' (a count per game)
    more: str = "higher"  # word for an increase: 'longer', 'more', 'higher'
    less: str = "lower"
    unit: str = ""  # after the number: 'rounds', 'per game'


# the largest seat gap is not a per-game metric (its seats are chosen from the totals): the
# comparison table computes it from the seats' win columns, and words it with this
LARGEST_GAP = Metric("largest_gap", "largest seat gap", "rate", "wider", "narrower")


def metric_list(spec: Any, players: int) -> list[Metric]:
    """The per-game metrics of a game: wins per seat, shared wins, first-player advantage,
    length, scores and the game's counters (spec.game_counters, and spec.seat_counters summed
    over the seats)."""
    m: list[Metric] = []
    for s in range(players):
        m.append(Metric(f"win_{s}", f"seat {s} win rate", "rate"))
    if players > 1:
        m.append(Metric("shared", "shared-win rate", "rate"))
        m.append(Metric("fpa", "first-player advantage", "rate", "larger", "smaller"))
    m.append(Metric("rounds", "length", "mean", "longer", "shorter", "rounds"))
    m.append(Metric("turns", "length in turns", "mean", "longer", "shorter", "turns"))
    for s in range(players):
        m.append(Metric(f"score_{s}", f"seat {s} mean score", "mean"))
    for c in spec.game_counters:
        m.append(Metric(c, c.replace("_", " "), "mean", "more", "fewer", "per game"))
    for c in spec.seat_counters:
        m.append(
            Metric(c, c.replace("_", " ") + " (all seats)", "mean", "more", "fewer", "per game")
        )
    return m


def game_metrics(rows: pd.DataFrame, metrics: list[Metric], players: int) -> np.ndarray:
    """Result rows -> float64[n_games, n_metrics], one column per metric of `metrics`."""
    winner = rows["winner"].to_numpy()
    out = np.zeros((len(rows), len(metrics)), dtype=np.float64)
    for j, m in enumerate(metrics):
        name = m.name
        if name.startswith("win_"):
            out[:, j] = winner == int(name[4:])
        elif name == "shared":
            out[:, j] = shared_win(winner, rows["win_mask"].to_numpy())
        elif name == "fpa":
            out[:, j] = first_player_advantage(winner == 0, winner >= 0, 1, players)
        elif name in rows.columns:
            out[:, j] = rows[name].to_numpy()
        else:  # a seat counter: summed over the seats
            out[:, j] = sum(rows[f"{name}_{s}"].to_numpy() for s in range(players))
    return out


def metric_scale(metrics: list[Metric], players: int) -> np.ndarray:
    """Per-metric multipliers that make every per-game value a whole number: the first-player
    advantage is a multiple of 1/players, every other metric already is whole."""
    return np.array([float(players) if m.name == "fpa" else 1.0 for m in metrics])


# --------------------------------------------------------------------------- running sums
class ArmMoments:
    """Running sums of per-game metric vectors of A arms (K metrics each), enough for every
    paired interval against arm 0, every linear combination within an arm, and the paired
    interval between any two arms of combinations of the pair metrics.

    sums: float64[A, K]; within: float64[A, K, K] (sum of x_a x_a^T); cross: float64[A, K, K]
    (sum of x_a x_0^T over the same games); pairs: float64[A, A, P, P] (sum of x_a[P] x_b[P]^T
    for every two arms, P = pair_metrics, the indices of a few metrics such as the seats' win
    indicators), all of the scaled values x * scale.

    scale (float64[K], from metric_scale): when given, the scaled values are whole numbers and
    every sum is exact (whole numbers below 2**53 are exact in float64, whatever the order of
    the additions), so chunks merge to the same bits in any chunking and any order."""

    def __init__(self, arms: int, metrics: int, scale: np.ndarray | None = None, pair_metrics=()):
        self.n = 0
        self.exact = scale is not None
        self.scale = np.ones(metrics) if scale is None else np.asarray(scale, dtype=np.float64)
        self.sums = np.zeros((arms, metrics))
        self.within = np.zeros((arms, metrics, metrics))
        self.cross = np.zeros((arms, metrics, metrics))
        self.pair_metrics = np.asarray(pair_metrics, dtype=np.int64)
        p = len(self.pair_metrics)
        self.pairs = np.zeros((arms, arms, p, p))

    def add(self, x: np.ndarray) -> None:
        """x: float64[A, n, K], the same n games in every arm."""
        if self.exact:
            x = np.rint(x * self.scale)
        self.n += x.shape[1]
        self.sums += x.sum(axis=1)
        self.within += np.einsum("ank,anl->akl", x, x)
        self.cross += np.einsum("ank,nl->akl", x, x[0])
        if len(self.pair_metrics):
            a, n, p = x.shape[0], x.shape[1], len(self.pair_metrics)
            flat = x[:, :, self.pair_metrics].transpose(0, 2, 1).reshape(a * p, n)
            self.pairs += (flat @ flat.T).reshape(a, p, a, p).transpose(0, 2, 1, 3)

    def merge(self, other: ArmMoments) -> None:
        """Add the sums of other games (the same arms and metrics) to these."""
        self.n += other.n
        self.sums += other.sums
        self.within += other.within
        self.cross += other.cross
        self.pairs += other.pairs

    def count(self, a: int, j: int) -> float:
        """The sum of metric j over arm a's games (a count, for rates)."""
        return float(self.sums[a, j] / self.scale[j])

    def mean(self, a: int) -> np.ndarray:
        return self.sums[a] / self.n / self.scale

    def cov(self, a: int, b: int | None = None) -> np.ndarray:
        """Sample covariance within arm a (b None) or between arm a and arm 0 (b == 0)."""
        n = self.n
        ma = self.sums[a] / n
        if b is None or b == a:
            s = self.within[a]
            mb = ma
        elif b == 0:
            s = self.cross[a]
            mb = self.sums[0] / n
        else:
            raise ValueError("cross moments are kept only against arm 0")
        return (s - n * np.outer(ma, mb)) / max(n - 1, 1) / np.outer(self.scale, self.scale)

    def linear(self, a: int, c: np.ndarray) -> tuple[float, float]:
        """Mean and standard error of c . x within arm a."""
        v = float(c @ self.cov(a) @ c)
        return float(c @ self.mean(a)), math.sqrt(max(v, 0.0) / self.n)

    def paired(self, a: int, c: np.ndarray, c0: np.ndarray | None = None) -> tuple[float, float]:
        """Mean and standard error of the per-game difference c . x_a - c0 . x_0."""
        return self._difference(a, c, c0, paired=True)

    def unpaired(self, a: int, c: np.ndarray, c0: np.ndarray | None = None) -> tuple[float, float]:
        """As paired, but ignoring that the games share their random numbers (the standard
        error two independent runs of this size would give)."""
        return self._difference(a, c, c0, paired=False)

    def between(self, a: int, b: int, ca: np.ndarray, cb: np.ndarray) -> tuple[float, float]:
        """Mean and standard error of the per-game difference ca . x_a - cb . x_b of any two
        arms (paired: the same games), for ca and cb zero outside the pair metrics."""
        idx = self.pair_metrics
        outside = np.ones(len(self.scale), dtype=bool)
        outside[idx] = False
        if np.any(ca[outside]) or np.any(cb[outside]):
            raise ValueError("between() combines only the pair metrics")
        n, sc = self.n, self.scale[idx]
        m = self.sums[:, idx] / n

        def cov(i: int, j: int) -> np.ndarray:
            s = self.pairs[i, j] - n * np.outer(m[i], m[j])
            return s / max(n - 1, 1) / np.outer(sc, sc)

        u, v = ca[idx], cb[idx]
        var = u @ cov(a, a) @ u + v @ cov(b, b) @ v - 2 * u @ cov(a, b) @ v
        d = float(u @ self.mean(a)[idx] - v @ self.mean(b)[idx])
        return d, math.sqrt(max(float(var), 0.0) / n)

    def _difference(self, a: int, c, c0, paired: bool) -> tuple[float, float]:
        c0 = c if c0 is None else c0
        v = float(c @ self.cov(a) @ c + c0 @ self.cov(0) @ c0)
        if paired:
            v -= float(2 * c @ self.cov(a, 0) @ c0)
        d = float(c @ self.mean(a) - c0 @ self.mean(0))
        return d, math.sqrt(max(v, 0.0) / self.n)
