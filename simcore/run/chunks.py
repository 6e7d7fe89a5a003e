"""The unit of work of every backend: a chunk of consecutive game indices played by the game's
prange kernel and folded into a mergeable Summary (counts, histograms, sums and sums of
squares), so memory stays flat however many games are played. Game i always uses the random
stream of (seed, i): a chunk's result does not depend on threads, chunking or backend.

The local backend (simcore.run.jobs) and the Dask workers (simcore.run.distributed) both import this
module; it imports neither.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numba
import numpy as np
import pandas as pd

from simcore.base.metrics import FEEL_PARTS, feel_parts, has_feel, shared_win
from simcore.frame.registry import GameSpec, SeatPolicy, get_game
from simcore.frame.seats import population_arrays

POPULATION = (
    "population"  # the seating of a pool of players (simcore.frame.seats): rotate=POPULATION
)

DEFAULT_CHUNK = 16_384
HIST_BINS = 4096  # rounds / turns histograms (longer games land in the last bin)
# score histograms per seat: SCORE_BINS bins of score_width points each, bin k holding the
# scores k * score_width .. (k + 1) * score_width - 1. The width starts at 1 and grows tenfold
# (ten neighbouring bins merged) whenever a score would not fit: it is the smallest power of ten
# with every score below SCORE_BINS * width. Sunken City, Sumeria and Secrets of the Sea score
# below 1,000 (bins of one point: the exact distribution); Sunken Treasure's dollars (multiples
# of $1,000, in the tens of thousands) get bins of $100, each holding one possible score. The width
# depends only on the largest score played and the merging is nested, so every chunking and
# every order of merging gives the same histogram.
SCORE_BINS = 1000
SCORE_WIDEN = 10  # the factor by which the bins grow
# the fields of a Summary that two chunks add up: whole numbers, then arrays
COUNT_FIELDS = ("games", "shared_wins", "no_winner", "errors")
ARRAY_FIELDS = (
    "seat_wins",
    "seat_first",
    "policy_games",
    "policy_wins",
    "policy_score",
    "rounds_hist",
    "turns_hist",
    "end_reasons",
    "score_sum",
    "score_sq",
    "tiebreak_sum",
    "counter_sum",
    "counter_sq",
    "feel_sum",
    "feel_prod",
)
HIST_FIELDS = ("score_hist", "margin_hist")  # score histograms: bins of score_width points


@dataclass
class Summary:
    """Mergeable per-run statistics of result rows (all plain counts and sums)."""

    players: int
    n_policies: int
    n_end_reasons: int
    counter_names: list[str]
    games: int = 0
    seat_wins: np.ndarray = field(default=None)  # type: ignore[assignment]
    seat_first: np.ndarray = field(default=None)  # type: ignore[assignment]  # in win_mask
    shared_wins: int = 0
    no_winner: int = 0
    policy_games: np.ndarray = field(default=None)  # type: ignore[assignment]
    policy_wins: np.ndarray = field(default=None)  # type: ignore[assignment]
    policy_score: np.ndarray = field(default=None)  # type: ignore[assignment]
    rounds_hist: np.ndarray = field(default=None)  # type: ignore[assignment]
    turns_hist: np.ndarray = field(default=None)  # type: ignore[assignment]
    end_reasons: np.ndarray = field(default=None)  # type: ignore[assignment]
    score_sum: np.ndarray = field(default=None)  # type: ignore[assignment]
    score_sq: np.ndarray = field(default=None)  # type: ignore[assignment]
    score_hist: np.ndarray = field(default=None)  # type: ignore[assignment]  # [seat, bin]
    score_width: int = 1  # points per bin of score_hist (a power of ten)
    tiebreak_sum: np.ndarray = field(default=None)  # type: ignore[assignment]
    counter_sum: np.ndarray = field(default=None)  # type: ignore[assignment]
    counter_sq: np.ndarray = field(default=None)  # type: ignore[assignment]
    errors: int = 0
    # how the game feels (simcore.base.metrics.FEEL_PARTS; none in a solo game or a game without a
    # standing): the sums of the per-game part values and of their products, and the winners'
    # margins in bins of score_width points (games with an outright winner)
    n_feel: int = 0
    feel_sum: np.ndarray = field(default=None)  # type: ignore[assignment]
    feel_prod: np.ndarray = field(default=None)  # type: ignore[assignment]  # [part, part]
    margin_hist: np.ndarray = field(default=None)  # type: ignore[assignment]  # [1, bin]

    def __post_init__(self) -> None:
        n, p, c = self.players, self.n_policies, len(self.counter_names)
        z = np.zeros
        self.seat_wins = z(n, np.int64) if self.seat_wins is None else self.seat_wins
        self.seat_first = z(n, np.int64) if self.seat_first is None else self.seat_first
        self.policy_games = z(p, np.int64) if self.policy_games is None else self.policy_games
        self.policy_wins = z(p, np.int64) if self.policy_wins is None else self.policy_wins
        self.policy_score = z(p, np.int64) if self.policy_score is None else self.policy_score
        self.rounds_hist = z(HIST_BINS, np.int64) if self.rounds_hist is None else self.rounds_hist
        self.turns_hist = z(HIST_BINS, np.int64) if self.turns_hist is None else self.turns_hist
        self.end_reasons = (
            z(self.n_end_reasons, np.int64) if self.end_reasons is None else self.end_reasons
        )
        self.score_sum = z(n, np.int64) if self.score_sum is None else self.score_sum
        self.score_sq = z(n, np.int64) if self.score_sq is None else self.score_sq
        self.score_hist = (
            z((n, SCORE_BINS), np.int64) if self.score_hist is None else self.score_hist
        )
        self.tiebreak_sum = z(n, np.int64) if self.tiebreak_sum is None else self.tiebreak_sum
        self.counter_sum = z(c, np.int64) if self.counter_sum is None else self.counter_sum
        self.counter_sq = z(c, np.int64) if self.counter_sq is None else self.counter_sq
        f = self.n_feel
        self.feel_sum = z(f, np.int64) if self.feel_sum is None else self.feel_sum
        self.feel_prod = z((f, f), np.int64) if self.feel_prod is None else self.feel_prod
        if self.margin_hist is None:
            self.margin_hist = z((1 if f else 0, SCORE_BINS), np.int64)

    @classmethod
    def empty_like(cls, other: Summary) -> Summary:
        return cls(
            other.players,
            other.n_policies,
            other.n_end_reasons,
            list(other.counter_names),
            n_feel=other.n_feel,
        )

    def add_rows(self, rows: np.ndarray, col: dict[str, int]) -> None:
        """Fold a chunk of result rows (int64[n, cols]) into the summary."""
        n = self.players
        self.games += rows.shape[0]
        winner = rows[:, col["winner"]]
        mask = rows[:, col["win_mask"]]
        # no winner at all (a solo game that missed its target) counts in no_winner
        self.shared_wins += int(np.count_nonzero(shared_win(winner, mask)))
        self.no_winner += int(np.count_nonzero(mask == 0))
        self.seat_wins += np.bincount(winner[winner >= 0], minlength=n)[:n]
        for s in range(n):
            self.seat_first[s] += int(np.count_nonzero(mask & (1 << s)))
            pol = rows[:, col[f"policy_{s}"]]
            score = rows[:, col[f"score_{s}"]]
            self.policy_games += np.bincount(pol, minlength=self.n_policies)
            self.policy_wins += np.bincount(pol[winner == s], minlength=self.n_policies)
            self.policy_score += np.bincount(pol, weights=score, minlength=self.n_policies).astype(
                np.int64
            )
            self.score_sum[s] += int(score.sum())
            self.score_sq[s] += int((score * score).sum())
            self.tiebreak_sum[s] += int(rows[:, col[f"tiebreak_{s}"]].sum())
        self.rounds_hist += np.bincount(
            np.minimum(rows[:, col["rounds"]], HIST_BINS - 1), minlength=HIST_BINS
        )
        self.turns_hist += np.bincount(
            np.minimum(rows[:, col["turns"]], HIST_BINS - 1), minlength=HIST_BINS
        )
        self.add_scores(np.stack([rows[:, col[f"score_{s}"]] for s in range(n)]))
        if self.n_feel:
            self.add_feel(feel_parts(lambda c: rows[:, col[c]], n))
        self.end_reasons += np.bincount(rows[:, col["end_reason"]], minlength=self.n_end_reasons)[
            : self.n_end_reasons
        ]
        # sums and sums of squares of every column in two passes over the chunk, then the
        # counters' columns (a fancy-indexed copy of those columns cost twice as much)
        idx = [col[c] for c in self.counter_names]
        self.counter_sum += rows.sum(axis=0)[idx]
        self.counter_sq += np.einsum("ij,ij->j", rows, rows)[idx]
        self.errors += int(np.count_nonzero(rows[:, col["error"]]))

    def add_feel(self, parts: np.ndarray) -> None:
        """Fold the feel parts of a chunk of games (int64[n, part]) into the sums; the margins
        (after add_scores: every margin is below the highest score) into margin_hist. The
        products are summed in float64 (BLAS), exact while a chunk's sums stay below 2**53."""
        x = parts.astype(np.float64)
        prod = x.T @ x
        if prod.max(initial=0.0) >= 2.0**53:
            raise ValueError("a chunk too large for exact sums of the feel parts")
        self.feel_sum += parts.sum(axis=0)
        self.feel_prod += prod.astype(np.int64)
        margin = parts[:, FEEL_PARTS.index("feel.margin")]
        won = parts[:, FEEL_PARTS.index("feel.outright")] == 1
        self.margin_hist[0] += np.bincount(margin[won] // self.score_width, minlength=SCORE_BINS)

    def add_scores(self, scores: np.ndarray) -> None:
        """Count final scores (int64[seat, game], every score 0 or more) in score_hist."""
        if scores.size == 0:
            return
        if scores.min() < 0:
            raise ValueError("a final score below 0: score histograms start at 0")
        width = max(self.score_width, _score_width(int(scores.max())))
        for name in HIST_FIELDS:
            setattr(self, name, _widened(getattr(self, name), self.score_width, width))
        self.score_width = width
        for s in range(self.players):
            self.score_hist[s] += np.bincount(scores[s] // width, minlength=SCORE_BINS)

    def merge(self, other: Summary) -> Summary:
        """A new summary of both runs (the two must come from the same setting)."""
        out = Summary.empty_like(self)
        for name in COUNT_FIELDS:
            setattr(out, name, getattr(self, name) + getattr(other, name))
        for name in ARRAY_FIELDS:
            setattr(out, name, getattr(self, name) + getattr(other, name))
        width = max(self.score_width, other.score_width)
        out.score_width = width
        for name in HIST_FIELDS:
            mine = _widened(getattr(self, name), self.score_width, width)
            setattr(out, name, mine + _widened(getattr(other, name), other.score_width, width))
        return out

    def equals(self, other: Summary) -> bool:
        return all(
            getattr(self, k) == getattr(other, k) for k in COUNT_FIELDS + ("score_width",)
        ) and all(
            np.array_equal(getattr(self, k), getattr(other, k)) for k in ARRAY_FIELDS + HIST_FIELDS
        )


def _score_width(top: int) -> int:
    """The smallest power of ten w with top < SCORE_BINS * w."""
    w = 1
    while top >= SCORE_BINS * w:
        w *= SCORE_WIDEN
    return w


def _widened(hist: np.ndarray, width: int, to: int) -> np.ndarray:
    """A score histogram of bins `width` wide as bins `to` wide (both powers of ten, to >=
    width): each ten neighbouring bins merged into one, the bins above left empty."""
    hist = hist.copy()
    while width < to:
        merged = hist.reshape(hist.shape[0], SCORE_BINS // SCORE_WIDEN, SCORE_WIDEN).sum(axis=2)
        hist = np.zeros_like(hist)
        hist[:, : merged.shape[1]] = merged
        width *= SCORE_WIDEN
    return hist


class LazyList(Sequence):
    """A read-only list whose item k is computed when asked for (`item`), of `__len__` items:
    indexing (negative too), slices (as lists) and iteration."""

    def item(self, k: int) -> Any:
        raise NotImplementedError

    def __getitem__(self, k):  # type: ignore[override]
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        if k < 0:
            k += len(self)
        if not 0 <= k < len(self):
            raise IndexError(k)
        return self.item(k)

    def __iter__(self):
        for k in range(len(self)):
            yield self.item(k)


class ChunkPlan(LazyList):
    """The chunks of consecutive game indices, (first index, number of games), computed when
    asked for: the plan of 2**62 games takes no more memory than that of 100."""

    def __init__(self, start: int, games: int, chunk: int):
        self.start, self.games, self.chunk = start, games, chunk

    def __len__(self) -> int:
        return -(-self.games // self.chunk)

    def item(self, k: int) -> tuple[int, int]:
        first = k * self.chunk
        return (self.start + first, min(self.chunk, self.games - first))

    def games_in(self, k: int) -> int:
        """Games in the first k chunks."""
        return min(k * self.chunk, self.games)


def chunk_plan(start: int, games: int, chunk: int) -> ChunkPlan:
    """The chunks of consecutive game indices: (first index, number of games), lazily."""
    return ChunkPlan(start, games, chunk)


def new_summary(spec: GameSpec, players: int, n_policies: int) -> Summary:
    counter_names = spec.game_counters + [
        f"{c}_{s}" for c in spec.seat_counters for s in range(players)
    ]
    feel = len(FEEL_PARTS) if has_feel(spec.columns, players) else 0
    return Summary(players, n_policies, len(spec.end_reasons), counter_names, n_feel=feel)


def task_game(name: str) -> GameSpec:
    """The game of a task, from the name the task carries (a task is pickled to a Dask worker,
    another process, which resolves the game here): the one place a task's game is resolved.
    The API itself takes GameSpecs, resolved once by its caller (cli.py, or get_game in a
    notebook)."""
    return get_game(name)


def play_chunk(game: str, *args: Any, **kw: Any):
    """Play games first .. first + n - 1 and summarise them: (first, Summary, rows or None).
    The unit of work of every backend (a Dask worker runs exactly this): play_games, with the
    game's name in place of its spec (resolved by task_game)."""
    return play_games(task_game(game), *args, **kw)


def play_games(
    spec: GameSpec,
    players: int,
    rules: Any,
    seats: list[SeatPolicy],
    seed: int,
    first: int,
    n: int,
    rotate: bool | str,
    checked: bool,
    keep_rows: bool,
    threads: int | None = None,
):
    """Play games first .. first + n - 1 of the game `spec` and summarise them (the studies'
    tasks, which resolved it; play_chunk for a task that carries the game's name). rotate:
    False, True (seats rotated) or POPULATION (seats is a pool each game draws its lineup
    from)."""
    if threads is not None:
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    r = spec.pack(rules, players)
    ids, w, rotate = seat_arrays(spec, seats, rotate)
    rows = np.zeros((n, len(spec.columns)), dtype=np.int64)
    spec.play_batch(r, ids, w, np.uint64(seed), np.int64(first), rotate, checked, rows)
    summary = new_summary(spec, players, len(seats))
    summary.add_rows(rows, {c: i for i, c in enumerate(spec.columns)})
    return first, summary, (rows if keep_rows else None)


def seat_arrays(spec: GameSpec, seats: list[SeatPolicy], rotate: bool | str):
    """(ids, weights, rotate flag) for the batch kernel: the policy list as arrays, as a
    population list (simcore.frame.seats) when rotate is POPULATION."""
    ids, w = spec.policy_arrays(seats)
    if rotate == POPULATION:
        return (*population_arrays(ids, w), False)
    return ids, w, bool(rotate)


def kernels_cached(spec: GameSpec) -> bool:
    """The game's batch kernel is compiled in this process or found in numba's disk cache."""
    disp = spec.play_batch
    if getattr(disp, "signatures", None):
        return True
    cache_file = getattr(getattr(disp, "_cache", None), "_cache_file", None)
    index = getattr(cache_file, "_index_path", None)
    return index is None or os.path.exists(index)


def warm_kernels(
    spec: GameSpec, players: int, rules: Any, seats, rotate: bool | str, checked: bool
):
    """Compile (or load from the cache) the game's batch kernel: an empty batch. A cold
    start says so on stderr (a terminal or a log) before the minute of compiling."""
    if not kernels_cached(spec):
        name = spec.title.split(" (")[0]
        sys.stderr.write(f"compiling the {name} kernels, first run only: about a minute\n")
        sys.stderr.flush()
    ids, w, rotate = seat_arrays(spec, seats, rotate)
    spec.play_batch(
        spec.pack(rules, players),
        ids,
        w,
        np.uint64(0),
        np.int64(0),
        rotate,
        checked,
        np.zeros((0, len(spec.columns)), dtype=np.int64),
    )


def rows_frame(spec: GameSpec, rows: np.ndarray, players: int) -> pd.DataFrame:
    """Result rows as a DataFrame, without the columns of unused seats."""
    df = pd.DataFrame(rows, columns=spec.columns)
    drop = [
        c
        for c in spec.columns
        if c.rsplit("_", 1)[-1].isdigit() and int(c.rsplit("_", 1)[-1]) >= players
    ]
    return df.drop(columns=drop)
