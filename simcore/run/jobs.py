"""Jobs and backends: a Job is one setting played in chunks of game indices (simulate's
SimJob, a comparison's ArmsJob); a Plan is the jobs of one analysis and how to turn them, once
played, into its result. run_jobs plays every chunk of every job on the local backend (numba
threads, here) or on a Dask cluster (simcore.run.distributed), with one progress bar, and folds
each job's chunks in plan order, so the result is the same on every backend.
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NamedTuple

import numba
import numpy as np

from simcore.base.errors import InputError
from simcore.base.inputs import MAX_GAMES
from simcore.run.chunks import LazyList
from simcore.run.distributed import run_dask


def check_threads(threads: int | None) -> int:
    """The number of numba threads to run on (None: all the machine allows)."""
    limit = numba.config.NUMBA_NUM_THREADS
    if threads is None:
        return limit
    if not isinstance(threads, int) or threads < 1:
        raise InputError(f"--threads must be at least 1, not {threads}")
    if threads > limit:
        raise InputError(
            f"--threads {threads} is more than the {limit} this machine allows (NUMBA_NUM_THREADS)"
        )
    return threads


class Progress:
    """A one-line progress bar on stderr (games/s, ETA); silent unless enabled. `start`: games
    already done before the clock started (a resumed run): counted in the bar, not the rate.
    lines: `line` writes its text as a line of its own, flushed at once (above the bar when
    there is one; alone when stderr is piped into a log)."""

    def __init__(self, total: int, enabled: bool, start: int = 0, lines: bool = False):
        self.total = total
        self.enabled = enabled
        self.lines = lines or enabled
        self.start = start
        self.t0 = time.perf_counter()
        self.last = 0.0
        self.done = start

    def line(self, text: str) -> None:
        """One line on stderr, flushed (the bar drawn again under it)."""
        if not self.lines:
            return
        sys.stderr.write(("\r" + text + " " * 20 if self.enabled else text) + "\n")
        sys.stderr.flush()
        self.update(self.done, force=True)

    def update(self, done: int, force: bool = False) -> None:
        self.done = done
        if not self.enabled:
            return
        now = time.perf_counter()
        if not force and now - self.last < 0.2:
            return
        self.last = now
        dt = max(now - self.t0, 1e-9)
        frac = done / self.total if self.total else 1.0
        bar = "#" * int(frac * 30)
        if done > self.start:  # the rate and ETA once this run has played games
            rate = (done - self.start) / dt
            speed = f"{rate:,.0f} games/s ETA {(self.total - done) / rate:,.0f}s"
        else:
            speed = "starting"
        sys.stderr.write(f"\r[{bar:<30}] {frac:6.1%} {done:,}/{self.total:,} games {speed} ")
        sys.stderr.flush()

    def restart(self, done: int) -> None:
        """Start the clock again (work begins now, e.g. once a cluster is up)."""
        self.t0 = time.perf_counter()
        self.start = done

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")
            sys.stderr.flush()


BACKENDS = ("local", "dask")
LINES = "lines"  # run_jobs' progress: a line per finished job only (stderr piped into a log)
# the options of run_jobs / run_plans (the rest of a call's keywords describe the work)
RUN_OPTIONS = ("backend", "scheduler", "workers", "threads", "progress")


def check_backend(backend: str, scheduler: str | None, workers: int | None) -> None:
    """Reject a bad --backend / --scheduler / --workers combination before any work."""
    if backend not in BACKENDS:
        raise InputError(f"--backend must be local or dask, not '{backend}'")
    if backend == "local" and (scheduler or workers is not None):
        raise InputError("--scheduler and --workers go with --backend dask")
    if workers is not None and (
        isinstance(workers, bool) or not isinstance(workers, (int, np.integer)) or workers < 1
    ):
        raise InputError(f"--workers must be at least 1, not {workers}")
    if scheduler and workers is not None:
        raise InputError(
            "give --scheduler (a running cluster) or --workers (a local one), not both"
        )
    if backend == "dask":
        import importlib.util

        if importlib.util.find_spec("distributed") is None:
            raise InputError(
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


class TaskList(LazyList):
    """(plan index, task) of the chunks of a plan from chunk `skip` on, made when asked for:
    make(first, n) -> the Task of the chunk of games first .. first + n - 1 (memory does not
    grow with the number of chunks)."""

    def __init__(self, plan: Sequence, make: Callable[[int, int], Task], skip: int = 0):
        self.plan, self.make, self.skip = plan, make, skip

    def __len__(self) -> int:
        return max(len(self.plan) - self.skip, 0)

    def item(self, k: int) -> tuple[int, Task]:
        i = self.skip + k
        return i, self.make(*self.plan[i])


class Job:
    """One setting played in chunks of game indices. A backend runs `tasks()` (anywhere, in
    any order) and hands each result to `fold` in plan order; fold returns True to stop."""

    game: str  # the game's name: what a task carries to a worker (simcore.run.chunks.task_game)
    players: int
    label: str = ""  # words for the progress line written when the job finishes ('' none)
    total_games: int = 0  # games the job plays when it runs to the end (the progress bar)
    done_games: int = 0  # of those, already played before the run (a resumed checkpoint)
    elapsed_s: float = 0.0  # set by the backend

    def tasks(self, backend: str) -> Sequence[tuple[int, Task]]:
        """(plan index, task) of every chunk still to play, in plan order (a TaskList)."""
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
    progress: bool | str = False,
) -> None:
    """Play every chunk of every job and fold each job's chunks in its plan order.

    backend 'local': the jobs one after the other, chunk by chunk, on `threads` numba threads.
    backend 'dask': every chunk of every job on one cluster, submitted in order with a
    bounded number in flight (simcore.run.distributed.run_dask; a running cluster
    at `scheduler`, or a local one of `workers` processes started and stopped here); each
    job's results are folded in plan order as they arrive, so the results are the local ones.
    One progress bar counts the games of all jobs. progress: False (silent), True (the bar,
    and a line per finished job that has a `label`) or LINES (only those lines, each flushed
    as its job finishes: for a log, where a bar cannot be drawn). Ctrl-C or SIGTERM raise
    KeyboardInterrupt (the jobs keep what was folded so far)."""
    check_backend(backend, scheduler, workers)
    nthreads = check_threads(threads)
    total = sum(job.total_games for job in jobs)
    if total > MAX_GAMES:
        raise InputError(f"this command would play {total:,} games: at most 2**62 ({MAX_GAMES:,})")
    todo = [job.tasks(backend) for job in jobs]
    done = sum(job.done_games for job in jobs)
    bar = Progress(total, bool(progress) and progress != LINES, start=done, lines=bool(progress))
    bar.update(done, force=True)
    t0 = time.perf_counter()
    labelled = [j for j, job in enumerate(jobs) if getattr(job, "label", "")]
    finished = [j for j in labelled if not len(todo[j])]  # restored: nothing left to play

    def job_done(j: int) -> None:
        """The line of job j, once its last chunk is folded (or it stopped early)."""
        if j in labelled:
            finished.append(j)
            job = jobs[j]
            bar.line(
                f"  [{len(finished)}/{len(labelled)}] {job.label}: "
                f"{job.total_games:,} games in {job.elapsed_s:.1f} s"
            )

    def task_done(games: int) -> None:
        nonlocal done
        done += games
        bar.update(done)

    with _sigterm_as_interrupt():
        try:
            if backend == "local":
                _run_local(jobs, todo, nthreads, task_done, lambda: bar.restart(done), job_done)
            else:
                folded = [0] * len(jobs)

                def fold(j: int, i: int, result: Any) -> bool:
                    stop = jobs[j].fold(i, result)
                    jobs[j].elapsed_s = time.perf_counter() - t0
                    folded[j] += 1
                    if stop or folded[j] == len(todo[j]):
                        job_done(j)
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


def _run_local(
    jobs: list[Job],
    todo,
    nthreads: int,
    task_done: Callable[[int], None],
    on_start: Callable[[], None] = lambda: None,
    job_done: Callable[[int], None] = lambda j: None,
) -> None:
    """The local backend: the jobs in order, chunk by chunk, on this process's numba threads.
    A job's elapsed_s is the time spent on its chunks (compiling excluded); on_start is called
    once the kernels are compiled (the progress bar's clock starts there), job_done(j) when
    job j has played its last chunk (or stopped)."""
    prev = numba.get_num_threads()
    numba.set_num_threads(nthreads)
    try:
        for job in jobs:
            job.warm()
        on_start()
        for j, (job, tasks) in enumerate(zip(jobs, todo)):
            for i, task in tasks:
                t = time.perf_counter()
                stop = job.fold(i, task.fn(*task.args))
                job.elapsed_s += time.perf_counter() - t
                task_done(task.games)
                if stop:
                    break
            if len(tasks):
                job_done(j)
    finally:
        numba.set_num_threads(prev)


def run_plans(plans: list[Plan], **run_options: Any) -> list[Any]:
    """Run the jobs of every plan together (one cluster, one progress bar), then finish each
    plan; run_options as run_jobs."""
    run_jobs([job for p in plans for job in p.jobs], **run_options)
    return [p.finish() for p in plans]


def play(plan_fn: Callable[..., Plan], *args: Any, **kw: Any) -> Any:
    """Build one plan, plan_fn(*args, **kw without the run options), play it and return its
    result; the run options (backend, scheduler, workers, threads, progress) as run_jobs."""
    run_options, kw = split_run_options(kw)
    (result,) = run_plans([plan_fn(*args, **kw)], **run_options)
    return result
