"""The batch driver every game uses: games are played in chunks of consecutive indices by the
game's prange kernel, each chunk folded into a mergeable Summary (counts, histograms, sums and
sums of squares), so memory stays flat however many games are played. Rows are kept only when
asked. Game i always uses the random stream of (seed, i): results do not depend on threads or
chunking.
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, NamedTuple

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
    """A one-line progress bar on stderr (games/s, ETA); silent unless enabled. `start`: games
    already done before the clock started (a resumed run): counted in the bar, not the rate."""

    def __init__(self, total: int, enabled: bool, start: int = 0):
        self.total = total
        self.enabled = enabled
        self.start = start
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
        rate = (done - self.start) / dt
        eta = (self.total - done) / rate if rate > 0 else float("inf")
        frac = done / self.total if self.total else 1.0
        bar = "#" * int(frac * 30)
        sys.stderr.write(
            f"\r[{bar:<30}] {frac:6.1%} {done:,}/{self.total:,} games "
            f"{rate:,.0f} games/s ETA {eta:,.0f}s "
        )
        sys.stderr.flush()

    def restart(self, done: int) -> None:
        """Start the clock again (work begins now, e.g. once a cluster is up)."""
        self.t0 = time.perf_counter()
        self.start = done

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


def warm_kernels(spec: GameSpec, players: int, rules: Any, seats, rotate: bool, checked: bool):
    """Compile (or load from the cache) the game's batch kernel: an empty batch."""
    spec.play_batch(
        spec.pack(rules, players),
        *spec.policy_arrays(seats),
        np.uint64(0),
        np.int64(0),
        rotate,
        checked,
        np.zeros((0, len(spec.columns)), dtype=np.int64),
    )


# ------------------------------------------------------------------------ jobs and backends
BACKENDS = ("local", "dask")
# the options of run_jobs / run_plans (the rest of a call's keywords describe the work)
RUN_OPTIONS = ("backend", "scheduler", "workers", "threads", "progress")


def check_backend(backend: str, scheduler: str | None, workers: int | None) -> None:
    """Reject a bad --backend / --scheduler / --workers combination before any work."""
    if backend not in BACKENDS:
        raise RulesError(f"--backend must be local or dask, not '{backend}'")
    if backend == "local" and (scheduler or workers is not None):
        raise RulesError("--scheduler and --workers go with --backend dask")
    if workers is not None and (
        isinstance(workers, bool) or not isinstance(workers, (int, np.integer)) or workers < 1
    ):
        raise RulesError(f"--workers must be at least 1, not {workers}")
    if scheduler and workers is not None:
        raise RulesError(
            "give --scheduler (a running cluster) or --workers (a local one), not both"
        )
    if backend == "dask":
        import importlib.util

        if importlib.util.find_spec("distributed") is None:
            raise RulesError(
                "--backend dask needs the 'distributed' extra: "
                "pip install 'balance-analyser[distributed]'"
            )


def split_run_options(kw: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Keywords -> (the run options of run_plans, the rest)."""
    run = {k: v for k, v in kw.items() if k in RUN_OPTIONS}
    return run, {k: v for k, v in kw.items() if k not in RUN_OPTIONS}


class Task(NamedTuple):
    """One unit of work: fn(*args, threads=T) on some worker; `games` it plays (progress)."""

    fn: Callable[..., Any]
    args: tuple
    games: int


class Job:
    """One setting played in chunks of game indices. A backend runs `tasks()` (anywhere, in
    any order) and hands each result to `fold` in plan order; fold returns True to stop."""

    game: str
    players: int
    total_games: int = 0  # games the job plays when it runs to the end (the progress bar)
    done_games: int = 0  # of those, already played before the run (a resumed checkpoint)
    elapsed_s: float = 0.0  # set by the backend

    def tasks(self, backend: str) -> list[tuple[int, Task]]:
        """(plan index, task) of every chunk still to play, in plan order."""
        raise NotImplementedError

    def warm(self) -> None:
        """Compile or load the kernels in this process (the local backend, before the clock)."""

    def fold(self, i: int, result: Any) -> bool:
        raise NotImplementedError


@dataclass
class Plan:
    """The jobs of one analysis and how to turn them, once played, into its result."""

    jobs: list[Job]
    finish: Callable[[], Any]


@contextmanager
def _sigterm_as_interrupt():
    """SIGTERM stops a run like Ctrl-C (KeyboardInterrupt), where signals can be caught."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def _term(signum, frame):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGTERM, _term)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


def run_jobs(
    jobs: list[Job],
    *,
    backend: str = "local",
    scheduler: str | None = None,
    workers: int | None = None,
    threads: int | None = None,
    progress: bool = False,
) -> None:
    """Play every chunk of every job and fold each job's chunks in its plan order.

    backend 'local': the jobs one after the other, chunk by chunk, on `threads` numba threads.
    backend 'dask': every chunk of every job submitted at once to one cluster (a running one
    at `scheduler`, or a local one of `workers` processes started and stopped here); each
    job's results are folded in plan order as they arrive, so the results are the local ones.
    One progress bar counts the games of all jobs. Ctrl-C or SIGTERM raise KeyboardInterrupt
    (the jobs keep what was folded so far)."""
    check_backend(backend, scheduler, workers)
    nthreads = _check_threads(threads)
    todo = [job.tasks(backend) for job in jobs]
    done = sum(job.done_games for job in jobs)
    bar = Progress(sum(job.total_games for job in jobs), progress, start=done)
    bar.update(done, force=True)
    t0 = time.perf_counter()

    def task_done(games: int) -> None:
        nonlocal done
        done += games
        bar.update(done)

    with _sigterm_as_interrupt():
        try:
            if backend == "local":
                _run_local(jobs, todo, nthreads, task_done)
            else:
                from simcore.distributed import run_dask

                def fold(j: int, i: int, result: Any) -> bool:
                    stop = jobs[j].fold(i, result)
                    jobs[j].elapsed_s = time.perf_counter() - t0
                    return stop

                run_dask(
                    jobs,
                    todo,
                    fold,
                    task_done,
                    scheduler=scheduler,
                    workers=workers,
                    on_start=lambda: bar.restart(done),
                )
            bar.update(done, force=True)
        finally:
            bar.close()


def _run_local(jobs: list[Job], todo, nthreads: int, task_done: Callable[[int], None]) -> None:
    """The local backend: the jobs in order, chunk by chunk, on this process's numba threads.
    A job's elapsed_s is the time spent on its chunks (compiling excluded)."""
    prev = numba.get_num_threads()
    numba.set_num_threads(nthreads)
    try:
        for job in jobs:
            job.warm()
        for job, tasks in zip(jobs, todo):
            for i, task in tasks:
                t = time.perf_counter()
                stop = job.fold(i, task.fn(*task.args))
                job.elapsed_s += time.perf_counter() - t
                task_done(task.games)
                if stop:
                    break
    finally:
        numba.set_num_threads(prev)


def run_plans(plans: list[Plan], **run_options: Any) -> list[Any]:
    """Run the jobs of every plan together (one cluster, one progress bar), then finish each
    plan; run_options as run_jobs."""
    run_jobs([job for p in plans for job in p.jobs], **run_options)
    return [p.finish() for p in plans]


# ------------------------------------------------------------------------ simulate
class SimJob(Job):
    """One setting of `simulate`: its chunks' summaries merged in plan order (rows kept when
    asked), the merged summary saved to the checkpoint after every chunk when one is given."""

    def __init__(
        self,
        spec: GameSpec,
        players: int,
        games: int,
        rules: Any,
        seats: list[SeatPolicy],
        seed: int,
        *,
        rotate_seats: bool = False,
        checked: bool = False,
        keep_rows: bool = False,
        chunk: int = DEFAULT_CHUNK,
        start: int = 0,
        precision: float | None = None,
        threads: int = 1,
        checkpoint: str | None = None,
        resume: bool = False,
    ):
        self.spec, self.game, self.players = spec, spec.name, players
        self.games, self.rules, self.seats, self.seed = games, rules, seats, int(seed)
        self.rotate, self.checked, self.keep_rows = rotate_seats, checked, keep_rows
        self.precision, self.threads, self.checkpoint = precision, threads, checkpoint
        self.resolved = spec.resolved(rules, players)
        self.plan = chunk_plan(start, games, chunk)
        self.fingerprint = {
            "game": spec.name,
            "players": players,
            "games": int(games),
            "seed": int(seed),
            "start": int(start),
            "chunk": int(chunk),
            "rules_hash": rules_hash(self.resolved),
            "policies": [[p.label, list(p.weights)] for p in seats],
            "rotate": bool(rotate_seats),
            "checked": bool(checked),
            "precision": precision,
        }
        self.summary = new_summary(spec, players, len(seats))
        self.done_chunks = 0
        if checkpoint:
            from simcore.checkpoint import load_checkpoint

            self.done_chunks, loaded = load_checkpoint(
                checkpoint, self.fingerprint, resume, self.summary
            )
            if loaded is not None:
                self.summary = loaded
        self.kept: dict[int, np.ndarray] = {}
        self.total_games = games
        self.done_games = self.summary.games
        self.backend = "local"

    def tasks(self, backend: str) -> list[tuple[int, Task]]:
        self.backend = backend
        args = (self.game, self.players, self.rules, self.seats, self.seed)
        flags = (self.rotate, self.checked, self.keep_rows)
        return [
            (i, Task(play_chunk, (*args, first, n, *flags), n))
            for i, (first, n) in enumerate(self.plan)
        ][self.done_chunks :]

    def warm(self) -> None:
        warm_kernels(self.spec, self.players, self.rules, self.seats, self.rotate, self.checked)

    def fold(self, i: int, result: Any) -> bool:
        _, chunk_summary, rows = result
        return self.add(i, chunk_summary, rows)

    def add(self, i: int, chunk_summary: Summary, rows: np.ndarray | None = None) -> bool:
        """Merge chunk i (in plan order); save the checkpoint; True when the run may stop."""
        self.summary = self.summary.merge(chunk_summary)
        if rows is not None:
            self.kept[i] = rows
        if self.checkpoint:
            from simcore.checkpoint import save_checkpoint

            save_checkpoint(self.checkpoint, self.fingerprint, i + 1, self.summary)
        return self.precision is not None and max_half_width(self.summary) <= self.precision

    def result(self, partial: bool = False) -> SimResult:
        df = None
        if self.keep_rows and self.kept:
            rows = np.concatenate([self.kept[k] for k in sorted(self.kept)])
            df = rows_frame(self.spec, rows, self.players)
        return SimResult(
            game=self.spec.name,
            players=self.players,
            games=self.summary.games,
            games_requested=self.games,
            precision=self.precision,
            seed=self.seed,
            rules=self.rules,
            resolved_rules=self.resolved,
            rules_hash=rules_hash(self.resolved),
            policies=[p.label for p in self.seats],
            rotate_seats=self.rotate,
            summary=self.summary,
            rows=df,
            elapsed_s=self.elapsed_s,
            threads=self.threads,
            end_reasons=self.spec.end_reasons,
            checked=self.checked,
            partial=partial,
            backend=self.backend,
        )


def prepare_simulation(
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
    version: str = "",
    precision: float | None = None,
    checkpoint: str | None = None,
    resume: bool = False,
) -> SimJob:
    """Validate and resolve a simulation (the arguments of `simulate`) into a SimJob, without
    playing it: `run_jobs` plays it, `job.result()` gives the SimResult."""
    spec = get_game(game) if isinstance(game, str) else game
    spec.check_players(players)
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise RulesError(f"the number of games must be a whole number of at least 1, not {games}")
    if not isinstance(seed, (int, np.integer)) or seed < 0:
        raise RulesError(f"--seed must be a whole number of 0 or more, not {seed}")
    if precision is not None and not (0 < precision < 0.5):
        raise RulesError(f"--precision must lie between 0 and 0.5, not {precision}")
    if resume and not checkpoint:
        raise RulesError("--resume needs --checkpoint FILE")
    if checkpoint and keep_rows:
        raise RulesError("--checkpoint keeps summaries only; it cannot be combined with --out")
    nthreads = _check_threads(threads)
    rules = spec.resolve_rules(variants, overrides, rules_file, players)
    seats = policies if isinstance(policies, list) else spec.parse_policies(policies, players)
    seats = spec.resolve_seats(seats, rules)
    chunk = chunk_size or min(DEFAULT_CHUNK, max(games, 1))
    if chunk < 1:
        raise RulesError("chunk size must be at least 1")
    return SimJob(
        spec,
        players,
        int(games),
        rules,
        seats,
        int(seed),
        rotate_seats=rotate_seats,
        checked=checked,
        keep_rows=keep_rows,
        chunk=chunk,
        start=start,
        precision=precision,
        threads=nthreads,
        checkpoint=checkpoint,
        resume=resume,
    )


def simulation_plan(game: str | GameSpec, players: int, games: int, **kw: Any) -> Plan:
    """A simulation to run together with others (run_plans); kw as prepare_simulation."""
    job = prepare_simulation(game, players, games, **kw)
    return Plan([job], job.result)


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
    check_backend(backend, scheduler, workers)
    job = prepare_simulation(
        game,
        players,
        games,
        variants=variants,
        overrides=overrides,
        rules_file=rules_file,
        policies=policies,
        seed=seed,
        threads=threads,
        rotate_seats=rotate_seats,
        checked=checked,
        keep_rows=keep_rows,
        chunk_size=chunk_size,
        start=start,
        precision=precision,
        checkpoint=checkpoint,
        resume=resume,
    )
    try:
        run_jobs(
            [job],
            backend=backend,
            scheduler=scheduler,
            workers=workers,
            threads=threads,
            progress=progress,
        )
    except KeyboardInterrupt:
        raise Interrupted(job.result(partial=True)) from None
    return job.result()


def rows_frame(spec: GameSpec, rows: np.ndarray, players: int) -> pd.DataFrame:
    """Result rows as a DataFrame, without the columns of unused seats."""
    df = pd.DataFrame(rows, columns=spec.columns)
    drop = [
        c
        for c in spec.columns
        if c.rsplit("_", 1)[-1].isdigit() and int(c.rsplit("_", 1)[-1]) >= players
    ]
    return df.drop(columns=drop)
