"""The balance metrics, each defined once: what a game's result row says about balance (a
shared win, the first player's advantage, the largest seat gap), the per-game metrics a
comparison follows (`Metric`, `metric_list`, `game_metrics`) and their running sums
(`ArmMoments`), which chunks of games merge exactly.

The simulator's comparison chunks compute the per-game values (simcore.studies.compare); the
summaries of simcore.run.chunks count shared wins with `shared_win`; analysis.stats derives the
intervals of the same quantities from merged summaries. Only numpy and pandas: no compiled code.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from simcore.base.standing_columns import STANDING_COLUMNS


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
    kind: str  # 'rate' (a share of games, in points), 'mean' (per game), 'part' (not shown)
    more: str = "higher"  # word for an increase: 'longer', 'more', 'higher'
    less: str = "lower"
    unit: str = ""  # after the number: 'rounds', 'per game'
    # a ratio metric (the feel metrics): sum over games of num . x over the sum of x[den],
    # x the per-game part columns; num: (column, coefficient) pairs, den '' for every game.
    # Such a metric is not a column of the metric matrix itself.
    num: tuple[tuple[str, float], ...] = ()
    den: str = ""

    def vectors(self, index: dict[str, int]) -> tuple[np.ndarray, np.ndarray | None]:
        """A ratio metric's numerator and denominator as coefficient vectors over the metric
        matrix's columns (`index`: column name -> position); the denominator None when the
        metric is a mean over every game."""
        num = np.zeros(len(index))
        for name, coef in self.num:
            num[index[name]] += coef
        if not self.den:
            return num, None
        den = np.zeros(len(index))
        den[index[self.den]] = 1.0
        return num, den


# the largest seat gap is not a per-game metric (its seats are chosen from the totals): the
# comparison table computes it from the seats' win columns, and words it with this
LARGEST_GAP = Metric("largest_gap", "largest seat gap", "rate", "wider", "narrower")


def metric_list(spec: Any, players: int) -> list[Metric]:
    """The columns of a game's metric matrix: wins per seat, shared wins, first-player
    advantage, length, scores, the game's counters (spec.game_counters, and spec.seat_counters
    summed over the seats, unless a game counter of that name holds the total) and, when the
    game records
    its standing, the feel metrics' part columns (kind 'part': not shown themselves;
    shown_metrics lists what a table shows)."""
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
        if c in spec.game_counters:  # the game counts the total itself (Secrets: dives, ...)
            continue
        m.append(
            Metric(c, c.replace("_", " ") + " (all seats)", "mean", "more", "fewer", "per game")
        )
    if has_feel(spec.columns, players):
        m += [Metric(c, c, "part") for c in FEEL_PARTS]
    return m


def shown_metrics(columns: list[Metric]) -> list[Metric]:
    """What a comparison table shows of a metric matrix's columns, in order: every column but
    the parts, the largest seat gap after the first-player advantage (when there is one), and
    the feel metrics when their parts are there."""
    out = [m for m in columns if m.kind != "part"]
    names = [m.name for m in out]
    if "fpa" in names:
        out.insert(names.index("fpa") + 1, LARGEST_GAP)
    if FEEL_PARTS[0] in [m.name for m in columns]:
        out += FEEL_METRICS
    return out


def game_metrics(rows: pd.DataFrame, metrics: list[Metric], players: int) -> np.ndarray:
    """Result rows -> float64[n_games, n_metrics], one column per metric of `metrics`."""
    winner = rows["winner"].to_numpy()
    out = np.zeros((len(rows), len(metrics)), dtype=np.float64)
    parts = None
    for j, m in enumerate(metrics):
        name = m.name
        if m.kind == "part":
            if parts is None:
                parts = feel_parts(lambda c: rows[c].to_numpy(), players)
            out[:, j] = parts[:, FEEL_PARTS.index(name)]
        elif name.startswith("win_"):
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


# --------------------------------------------------------------------------- how it feels
# The row columns of a game's standing (STANDING_COLUMNS, simcore.base.standing_columns), written
# by simcore.frame.standing (the analysis never imports numba); docs/experience-metrics.md and
# docs/rules-<game>.md define the standing, docs/comparisons.md each metric. Per-game values,
# not counters.
PPM = 1_000_000  # drama_ppm and decisive_ppm are shares times PPM, rounded in the kernel
SPLIT = 1_000  # a ppm value is kept as thousands and units (ppm = SPLIT * hi + lo): every
# product of two part values is then at most 10**6 and every sum of them exact
# The part columns: whole numbers of 0 or more per game, from which every feel metric is a
# ratio (Metric.num over Metric.den). 'outright': the game has an outright winner.
FEEL_PARTS = (
    "feel.lead_changes",
    "feel.outright",
    "feel.drama_hi",
    "feel.drama_lo",
    "feel.decisive_hi",
    "feel.decisive_lo",
    "feel.leader_known",
    "feel.leader_won",
    "feel.last_known",
    "feel.last_won",
    "feel.margin",
    "feel.played",
    "feel.opening_hi",
    "feel.opening_lo",
)


def _ppm(name: str) -> tuple[tuple[str, float], ...]:
    return ((f"feel.{name}_hi", SPLIT / PPM), (f"feel.{name}_lo", 1 / PPM))


# how the game feels (Browne 2008; Ludii's metrics), each a mean over the games it rests on
FEEL_METRICS = (
    Metric(
        "lead_changes",
        "lead changes",
        "mean",
        "more",
        "fewer",
        "per game",
        (("feel.lead_changes", 1.0),),
    ),
    Metric("drama", "drama", "mean", "higher", "lower", "", _ppm("drama"), "feel.outright"),
    Metric(
        "decisiveness",
        "decisiveness",
        "mean",
        "later",
        "earlier",
        "",
        _ppm("decisive"),
        "feel.outright",
    ),
    Metric(
        "runaway",
        "runaway leader (half-time leader wins)",
        "rate",
        "higher",
        "lower",
        "",
        (("feel.leader_won", 1.0),),
        "feel.leader_known",
    ),
    Metric(
        "comeback",
        "comeback (last at half-time wins)",
        "rate",
        "higher",
        "lower",
        "",
        (("feel.last_won", 1.0),),
        "feel.last_known",
    ),
    Metric(
        "margin",
        "winning margin",
        "mean",
        "wider",
        "narrower",
        "points",
        (("feel.margin", 1.0),),
        "feel.outright",
    ),
    # what the half-time and decisiveness metrics rest on (issue #35): where nobody leads
    # alone for a long opening, "the half-time leader" often does not exist and the winner
    # "leads for good" late only because somebody leads at all late
    Metric(
        "half_known",
        "unique leader at half-time",
        "rate",
        "more often",
        "less often",
        "",
        (("feel.leader_known", 1.0),),
        "feel.played",
    ),
    Metric(
        "opening",
        "tied opening (share of turns before a lone leader)",
        "mean",
        "longer",
        "shorter",
        "",
        _ppm("opening"),
        "feel.played",
    ),
)
# the feel metrics whose effect may come from a longer or shorter tied opening (their wording
# says so when the opening changes with them: analysis.compare.opening_notes)
REST_ON_OPENING = ("drama", "decisiveness", "runaway", "comeback", "lead_changes")


def has_feel(columns, players: int) -> bool:
    """Whether games of this many players with these row columns have feel metrics: the
    standing columns are there and there are at least two players (a solo game has no one to
    lead or trail)."""
    return players > 1 and all(c in columns for c in STANDING_COLUMNS)


def feel_parts(col, players: int) -> np.ndarray:
    """The part columns (FEEL_PARTS) of a batch of games: int64[n, len(FEEL_PARTS)].

    col(name) -> the row column `name` as an int64 array (of a DataFrame or a row matrix).
    Games without an outright winner count only in lead changes, the half-time parts and the
    tied opening ('played': the game had a turn, the opening's denominator); the winner's
    margin is its score minus the best score of the other seats. ValueError when
    a row breaks the columns' contract (a share outside 0..PPM, a negative margin)."""
    winner = np.asarray(col("winner"))
    n = len(winner)
    out = np.zeros((n, len(FEEL_PARTS)), dtype=np.int64)
    outright = winner >= 0
    w = np.where(outright, winner, 0)
    out[:, 0] = col("lead_changes")
    out[:, 1] = outright
    for k, name in ((2, "drama_ppm"), (4, "decisive_ppm")):
        v = np.where(outright, col(name), 0)
        if n and (v.min() < 0 or v.max() > PPM):
            raise ValueError(f"{name} outside 0..{PPM} in a game with an outright winner")
        out[:, k], out[:, k + 1] = np.divmod(v, SPLIT)
    for k, name in ((6, "half_leader"), (8, "half_last")):
        seat = np.asarray(col(name))
        out[:, k] = seat >= 0
        out[:, k + 1] = (seat >= 0) & (seat == winner)
    scores = np.stack([np.asarray(col(f"score_{s}")) for s in range(players)], axis=1)
    rows = np.arange(n)
    best = scores[rows, w]
    others = scores.copy()
    others[rows, w] = np.iinfo(np.int64).min
    margin = np.where(outright, best - others.max(axis=1), 0)
    if n and margin.min() < 0:
        raise ValueError("a winner scored less than another seat: its margin would be negative")
    out[:, 10] = margin
    opening = np.asarray(col("opening_ppm"))
    played = opening >= 0
    if n and opening.max() > PPM:
        raise ValueError(f"opening_ppm above {PPM}")
    out[:, 11] = played
    out[:, 12], out[:, 13] = np.divmod(np.where(played, opening, 0), SPLIT)
    return out


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
        for a in range(x.shape[0]):  # products by BLAS: exact on whole numbers below 2**53
            self.within[a] += x[a].T @ x[a]
            self.cross[a] += x[a].T @ x[0]
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

    @classmethod
    def of_one_arm(cls, n: int, sums: np.ndarray, products: np.ndarray) -> ArmMoments:
        """The running sums of one arm from its totals (a simulation's summary): n games, the
        sums of the per-game values and of their products (whole numbers)."""
        out = cls(1, len(sums))
        out.n = int(n)
        out.sums[0] = sums
        out.within[0] = products
        out.cross[0] = products
        return out

    def ratio(self, a: int, num: np.ndarray, den: np.ndarray | None) -> tuple[float, float, float]:
        """A ratio metric of arm a: (sum of num . x over sum of den . x, its standard error by
        the delta method, the games it rests on: the sum of den . x). den None: the mean of
        num . x over every game. NaN estimate and error when it rests on no game."""
        if den is None:
            m, se = self.linear(a, num)
            return m, se, float(self.n)
        c, r, games = self._ratio_vector(a, num, den)
        if c is None:
            return math.nan, math.nan, games
        return r, self.linear(a, c)[1], games

    def ratio_paired(
        self, a: int, num: np.ndarray, den: np.ndarray | None, paired: bool = True
    ) -> tuple[float, float]:
        """The difference of a ratio metric between arm a and arm 0 on the same games, and its
        standard error by the delta method (each ratio linearised around its estimate, the
        per-game difference of the linearised values paired as for means). NaN when either
        arm's ratio rests on no game."""
        fn = self.paired if paired else self.unpaired
        if den is None:
            return fn(a, num)
        c, r, _ = self._ratio_vector(a, num, den)
        c0, r0, _ = self._ratio_vector(0, num, den)
        if c is None or c0 is None:
            return math.nan, math.nan
        return r - r0, fn(a, c, c0)[1]

    def _ratio_vector(self, a: int, num: np.ndarray, den: np.ndarray):
        """(the linearised ratio's coefficients (num - r den) / mean(den . x) or None, the
        ratio r, the games it rests on) of arm a."""
        mean = self.mean(a)
        d = float(den @ mean)
        games = d * self.n
        if d <= 0:
            return None, math.nan, games
        r = float(num @ mean) / d
        return (num - r * den) / d, r, games

    def _difference(self, a: int, c, c0, paired: bool) -> tuple[float, float]:
        c0 = c if c0 is None else c0
        v = float(c @ self.cov(a) @ c + c0 @ self.cov(0) @ c0)
        if paired:
            v -= float(2 * c @ self.cov(a, 0) @ c0)
        d = float(c @ self.mean(a) - c0 @ self.mean(0))
        return d, math.sqrt(max(v, 0.0) / self.n)
