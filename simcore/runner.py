"""The batch driver every game uses: games are played in chunks of consecutive indices by the
game's prange kernel, each chunk folded into a mergeable Summary (counts, histograms, sums and
sums of squares), so memory stays flat however many games are played. Rows are kept only when
asked. Game i always uses the random stream of (seed, i): results do not depend on threads or
chunking.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import Any

import numba
import numpy as np
import pandas as pd

from simcore.games import GameSpec, SeatPolicy, get_game
from simcore.rulesbase import RulesError, rules_hash

DEFAULT_CHUNK = 16_384
HIST_BINS = 4096  # rounds / turns histograms (longer games land in the last bin)
SCORE_BINS = 256  # score histograms per seat (higher scores land in the last bin)


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
    score_hist: np.ndarray = field(default=None)  # type: ignore[assignment]  # [seat, score]
    tiebreak_sum: np.ndarray = field(default=None)  # type: ignore[assignment]
    counter_sum: np.ndarray = field(default=None)  # type: ignore[assignment]
    counter_sq: np.ndarray = field(default=None)  # type: ignore[assignment]
    errors: int = 0

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

    @classmethod
    def empty_like(cls, other: Summary) -> Summary:
        return cls(other.players, other.n_policies, other.n_end_reasons, list(other.counter_names))

    def add_rows(self, rows: np.ndarray, col: dict[str, int]) -> None:
        """Fold a chunk of result rows (int64[n, cols]) into the summary."""
        n = self.players
        self.games += rows.shape[0]
        winner = rows[:, col["winner"]]
        mask = rows[:, col["win_mask"]]
        # a shared win: several seats share first place; no winner at all (a solo game that
        # missed its target) counts in no_winner
        several = (mask & (mask - 1)) != 0
        self.shared_wins += int(np.count_nonzero((winner < 0) & several))
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
            self.score_hist[s] += np.bincount(
                np.clip(score, 0, SCORE_BINS - 1), minlength=SCORE_BINS
            )
            self.score_sq[s] += int((score * score).sum())
            self.tiebreak_sum[s] += int(rows[:, col[f"tiebreak_{s}"]].sum())
        self.rounds_hist += np.bincount(
            np.minimum(rows[:, col["rounds"]], HIST_BINS - 1), minlength=HIST_BINS
        )
        self.turns_hist += np.bincount(
            np.minimum(rows[:, col["turns"]], HIST_BINS - 1), minlength=HIST_BINS
        )
        self.end_reasons += np.bincount(rows[:, col["end_reason"]], minlength=self.n_end_reasons)[
            : self.n_end_reasons
        ]
        # sums and sums of squares of every column in two passes over the chunk, then the
        # counters' columns (a fancy-indexed copy of those columns cost twice as much)
        idx = [col[c] for c in self.counter_names]
        self.counter_sum += rows.sum(axis=0)[idx]
        self.counter_sq += np.einsum("ij,ij->j", rows, rows)[idx]
        self.errors += int(np.count_nonzero(rows[:, col["error"]]))

    def merge(self, other: Summary) -> Summary:
        """A new summary of both runs (the two must come from the same setting)."""
        out = Summary.empty_like(self)
        out.games = self.games + other.games
        out.shared_wins = self.shared_wins + other.shared_wins
        out.no_winner = self.no_winner + other.no_winner
        out.errors = self.errors + other.errors
        for name in (
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
        ):
            setattr(out, name, getattr(self, name) + getattr(other, name))
        return out

    def equals(self, other: Summary) -> bool:
        names = (
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
        )
        return (
            self.games == other.games
            and self.shared_wins == other.shared_wins
            and self.no_winner == other.no_winner
            and self.errors == other.errors
            and all(np.array_equal(getattr(self, k), getattr(other, k)) for k in names)
        )


@dataclass
class SimResult:
    """What simulate returns: the setting, the merged summary and (when asked) the rows."""

    game: str
    players: int
    games: int
    seed: int
    rules: Any
    resolved_rules: dict
    rules_hash: str
    policies: list[str]
    rotate_seats: bool
    summary: Summary
    rows: pd.DataFrame | None
    elapsed_s: float
    threads: int
    end_reasons: tuple[str, ...]
    checked: bool = False
    games_requested: int = 0
    precision: float | None = None
    partial: bool = False
    backend: str = "local"

    @property
    def max_half_width(self) -> float:
        return max_half_width(self.summary)

    @property
    def games_per_s(self) -> float:
        return self.games / self.elapsed_s if self.elapsed_s > 0 else float("inf")


def max_half_width(summary: Summary) -> float:
    """The largest 95% Wilson half-width over the seats' outright win rates."""
    from statsmodels.stats.proportion import proportion_confint

    if summary.games == 0:
        return float("inf")
    lo, hi = proportion_confint(summary.seat_wins, summary.games, alpha=0.05, method="wilson")
    return float(np.max((np.asarray(hi) - np.asarray(lo)) / 2))


def _check_threads(threads: int | None) -> int:
    limit = numba.config.NUMBA_NUM_THREADS
    if threads is None:
        return limit
    if not isinstance(threads, int) or threads < 1:
        raise RulesError(f"--threads must be at least 1, not {threads}")
    if threads > limit:
        raise RulesError(
            f"--threads {threads} is more than the {limit} this machine allows (NUMBA_NUM_THREADS)"
        )
    return threads


class Progress:
    """A one-line progress bar on stderr (games/s, ETA); silent unless enabled."""

    def __init__(self, total: int, enabled: bool):
        self.total = total
        self.enabled = enabled
        self.t0 = time.perf_counter()
        self.last = 0.0

    def update(self, done: int, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if not force and now - self.last < 0.2:
            return
        self.last = now
        dt = max(now - self.t0, 1e-9)
        rate = done / dt
        eta = (self.total - done) / rate if rate > 0 else float("inf")
        frac = done / self.total if self.total else 1.0
        bar = "#" * int(frac * 30)
        sys.stderr.write(
            f"\r[{bar:<30}] {frac:6.1%} {done:,}/{self.total:,} games "
            f"{rate:,.0f} games/s ETA {eta:,.0f}s "
        )
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")
            sys.stderr.flush()


class Interrupted(Exception):
    """A run stopped by Ctrl-C or SIGTERM: .result holds the summary of the chunks completed
    (result.partial is True); with a checkpoint, `resume` continues from there."""

    def __init__(self, result: SimResult):
        super().__init__(f"interrupted after {result.games:,} of {result.games_requested:,} games")
        self.result = result


def chunk_plan(start: int, games: int, chunk: int) -> list[tuple[int, int]]:
    """The chunks of consecutive game indices: (first index, number of games)."""
    return [(start + k, min(chunk, games - k)) for k in range(0, games, chunk)]


def new_summary(spec: GameSpec, players: int, n_policies: int) -> Summary:
    counter_names = spec.game_counters + [
        f"{c}_{s}" for c in spec.seat_counters for s in range(players)
    ]
    return Summary(players, n_policies, len(spec.end_reasons), counter_names)


def play_chunk(
    game: str,
    players: int,
    rules: Any,
    seats: list[SeatPolicy],
    seed: int,
    first: int,
    n: int,
    rotate: bool,
    checked: bool,
    keep_rows: bool,
    threads: int | None = None,
):
    """Play games first .. first + n - 1 and summarise them: (first, Summary, rows or None).
    The unit of work of every backend (a Dask worker runs exactly this)."""
    spec = get_game(game)
    if threads is not None:
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    r = spec.pack(rules, players)
    ids, w = spec.policy_arrays(seats)
    rows = np.zeros((n, len(spec.columns)), dtype=np.int64)
    spec.play_batch(r, ids, w, np.uint64(seed), np.int64(first), rotate, checked, rows)
    summary = new_summary(spec, players, len(seats))
    summary.add_rows(rows, {c: i for i, c in enumerate(spec.columns)})
    return first, summary, (rows if keep_rows else None)


def simulate(
    game: str | GameSpec,
    players: int,
    games: int,
    *,
    variants: list[str] | tuple[str, ...] = (),
    overrides: dict[str, Any] | None = None,
    rules_file: str | None = None,
    policies: str | list[SeatPolicy] | None = None,
    seed: int = 0,
    threads: int | None = None,
    rotate_seats: bool = False,
    checked: bool = False,
    keep_rows: bool = False,
    chunk_size: int | None = None,
    start: int = 0,
    progress: bool = False,
    version: str = "",
    precision: float | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    workers: int | None = None,
    checkpoint: str | None = None,
    resume: bool = False,
) -> SimResult:
    """Play `games` games (indices start .. start + games - 1) and summarise them.

    variants: names (composable with '+'); overrides: rules field -> value (strings are parsed
    as on the command line); policies: 'random,random,random' style text or parsed entries.
    precision: play in chunks until every seat's 95% Wilson half-width is at most this, with
    `games` as the upper bound (result.games says how many were played).
    backend: 'local' (numba threads) or 'dask' (an existing cluster at `scheduler`, or a local
    cluster of `workers` processes); the result is the same for every backend and chunking.
    checkpoint: a file where the summary of the completed chunks is saved atomically as the
    run goes; resume=True continues from it. Ctrl-C or SIGTERM raise Interrupted, carrying
    the partial result.
    """
    spec = get_game(game) if isinstance(game, str) else game
    spec.check_players(players)
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise RulesError(f"the number of games must be a whole number of at least 1, not {games}")
    if not isinstance(seed, (int, np.integer)) or seed < 0:
        raise RulesError(f"--seed must be a whole number of 0 or more, not {seed}")
    if precision is not None and not (0 < precision < 0.5):
        raise RulesError(f"--precision must lie between 0 and 0.5, not {precision}")
    if backend not in ("local", "dask"):
        raise RulesError(f"--backend must be local or dask, not '{backend}'")
    if backend == "local" and (scheduler or workers):
        raise RulesError("--scheduler and --workers go with --backend dask")
    if workers is not None and workers < 1:
        raise RulesError(f"--workers must be at least 1, not {workers}")
    if resume and not checkpoint:
        raise RulesError("--resume needs --checkpoint FILE")
    if checkpoint and keep_rows:
        raise RulesError("--checkpoint keeps summaries only; it cannot be combined with --out")
    nthreads = _check_threads(threads)
    rules = spec.resolve_rules(variants, overrides, rules_file, players)
    seats = policies if isinstance(policies, list) else spec.parse_policies(policies, players)
    chunk = chunk_size or min(DEFAULT_CHUNK, max(games, 1))
    if chunk < 1:
        raise RulesError("chunk size must be at least 1")
    resolved = spec.resolved(rules, players)
    plan = chunk_plan(start, games, chunk)
    fingerprint = {
        "game": spec.name,
        "players": players,
        "games": int(games),
        "seed": int(seed),
        "start": int(start),
        "chunk": int(chunk),
        "rules_hash": rules_hash(resolved),
        "policies": [[p.label, list(p.weights)] for p in seats],
        "rotate": bool(rotate_seats),
        "checked": bool(checked),
        "precision": precision,
    }
    summary = new_summary(spec, players, len(seats))
    done_chunks = 0
    if checkpoint:
        from simcore.checkpoint import load_checkpoint

        done_chunks, loaded = load_checkpoint(checkpoint, fingerprint, resume, summary)
        if loaded is not None:
            summary = loaded
    kept: dict[int, np.ndarray] = {}
    bar = Progress(games, progress)
    bar.update(summary.games, force=True)

    def result(partial: bool, elapsed: float) -> SimResult:
        df = None
        if keep_rows and kept:
            df = rows_frame(spec, np.concatenate([kept[k] for k in sorted(kept)]), players)
        return SimResult(
            game=spec.name,
            players=players,
            games=summary.games,
            games_requested=games,
            precision=precision,
            seed=int(seed),
            rules=rules,
            resolved_rules=resolved,
            rules_hash=rules_hash(resolved),
            policies=[p.label for p in seats],
            rotate_seats=rotate_seats,
            summary=summary,
            rows=df,
            elapsed_s=elapsed,
            threads=nthreads,
            end_reasons=spec.end_reasons,
            checked=checked,
            partial=partial,
            backend=backend,
        )

    todo = list(enumerate(plan))[done_chunks:]
    state = {"next": done_chunks, "stop": False}

    def fold(i: int, chunk_summary: Summary, rows: np.ndarray | None) -> bool:
        """Merge chunk i (in plan order); save the checkpoint; True when the run may stop."""
        nonlocal summary
        summary = summary.merge(chunk_summary)
        if rows is not None:
            kept[i] = rows
        state["next"] = i + 1
        if checkpoint:
            from simcore.checkpoint import save_checkpoint

            save_checkpoint(checkpoint, fingerprint, i + 1, summary)
        bar.update(summary.games)
        return precision is not None and max_half_width(summary) <= precision

    import signal
    import threading

    old_term = None
    if threading.current_thread() is threading.main_thread():

        def _term(signum, frame):
            raise KeyboardInterrupt

        old_term = signal.signal(signal.SIGTERM, _term)
    if backend == "local":
        # compile (or load from the cache) before the clock starts: an empty batch
        prev = numba.get_num_threads()
        numba.set_num_threads(nthreads)
        spec.play_batch(
            spec.pack(rules, players),
            *spec.policy_arrays(seats),
            np.uint64(seed),
            np.int64(0),
            rotate_seats,
            checked,
            np.zeros((0, len(spec.columns)), dtype=np.int64),
        )
        numba.set_num_threads(prev)
    t0 = time.perf_counter()
    try:
        if backend == "local":
            _run_local(
                spec,
                players,
                rules,
                seats,
                seed,
                todo,
                rotate_seats,
                checked,
                keep_rows,
                nthreads,
                fold,
            )
        else:
            from simcore.distributed import run_dask

            run_dask(
                spec.name,
                players,
                rules,
                seats,
                int(seed),
                todo,
                rotate_seats,
                checked,
                keep_rows,
                fold,
                scheduler=scheduler,
                workers=workers,
            )
    except KeyboardInterrupt:
        bar.close()
        raise Interrupted(result(True, time.perf_counter() - t0)) from None
    finally:
        if old_term is not None:
            signal.signal(signal.SIGTERM, old_term)
    elapsed = time.perf_counter() - t0
    bar.update(summary.games, force=True)
    bar.close()
    return result(False, elapsed)


def _run_local(
    spec, players, rules, seats, seed, todo, rotate, checked, keep_rows, nthreads, fold
) -> None:
    """The local backend: chunks in order on this process's numba threads."""
    prev = numba.get_num_threads()
    numba.set_num_threads(nthreads)
    try:
        for i, (first, n) in todo:
            _, chunk_summary, rows = play_chunk(
                spec.name, players, rules, seats, seed, first, n, rotate, checked, keep_rows
            )
            if fold(i, chunk_summary, rows):
                return
    finally:
        numba.set_num_threads(prev)


def rows_frame(spec: GameSpec, rows: np.ndarray, players: int) -> pd.DataFrame:
    """Result rows as a DataFrame, without the columns of unused seats."""
    df = pd.DataFrame(rows, columns=spec.columns)
    drop = [
        c
        for c in spec.columns
        if c.rsplit("_", 1)[-1].isdigit() and int(c.rsplit("_", 1)[-1]) >= players
    ]
    return df.drop(columns=drop)
