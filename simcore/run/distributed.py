"""The Dask backend (optional extra `distributed`): chunks of game indices run as tasks on a
cluster; workers return mergeable summaries (and rows only when asked). Every chunk of every
job of a command (all arms of a comparison, all player counts of the dice, all sections of a
report) runs on one cluster, submitted in order with a bounded number in flight (run_dask).

Results are identical to the local backend: a chunk's games depend only on (seed, index), and
the client merges the chunks in plan order (so a --precision run stops at the same chunk). A
lost worker's chunks are recomputed by Dask on another worker. Each worker process runs numba
with one thread by default (no oversubscription; use more workers instead), and loads or
compiles the game's kernels once, before the first chunk (the numba cache on disk is shared
by the workers of one machine).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from typing import Any

from simcore.base.errors import InputError
from simcore.run.chunks import task_game, warm_kernels

WINDOW_MIN = 16  # chunks in flight at least (run_dask)


def dask_client(scheduler: str | None, workers: int | None):
    """(Client, LocalCluster or None): a running scheduler, or a local cluster started here
    (the caller closes both; compensate keeps one local cluster for its whole run)."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise InputError(
            "--backend dask needs the 'distributed' extra: "
            "pip install 'balance-analyser[distributed]'"
        ) from None
    if scheduler:
        try:
            return Client(scheduler, timeout="20s"), None
        except (OSError, ValueError, TypeError) as e:
            raise InputError(f"cannot reach the Dask scheduler at '{scheduler}': {e}") from None
    cluster = LocalCluster(
        n_workers=workers or 2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.ERROR,  # not the workers' warnings about tasks cancelled at Ctrl-C
    )
    return Client(cluster), cluster


def warm_worker(game: str, players: int) -> bool:
    """Compile or load the game's kernels on this worker (one numba thread per worker); `game`
    the game's name, resolved on the worker (task_game)."""
    import numba

    numba.set_num_threads(1)
    spec = task_game(game)
    seats = spec.parse_policies(None, players)
    warm_kernels(spec, players, spec.rules_cls(), seats, False, False)
    return True


def run_dask(
    jobs: list,
    todo: list[list],
    fold: Callable[[int, int, Any], bool],
    task_done: Callable[[int], None],
    *,
    scheduler: str | None = None,
    workers: int | None = None,
    threads_per_worker: int = 1,
    on_start: Callable[[], None] | None = None,
) -> None:
    """Run every task of every job (todo[j]: [(plan index, Task)] of job j) on one cluster and
    fold each job's results in its plan order: fold(j, i, result); when it returns True the
    rest of job j is cancelled and its tasks not yet submitted are dropped. The tasks are
    submitted in order (job by job, each in plan order), at most `window` at a time (four per
    worker thread, at least WINDOW_MIN): the scheduler's queue and the results waiting to be
    folded stay bounded however many chunks a run has. The kernels of each (game, players)
    are loaded on every worker before the first task; then on_start() is called."""
    from distributed import as_completed

    client, cluster = dask_client(scheduler, workers)
    try:
        for game, players in dict.fromkeys((job.game, job.players) for job in jobs):
            client.run(warm_worker, game, players)
        if on_start is not None:
            on_start()
        token = uuid.uuid4().hex[:8]  # keys unique to this command on a shared scheduler
        where: dict[str, tuple[int, int, int]] = {}  # key -> (job, plan index, games)
        by_job: list[list] = [[] for _ in jobs]
        queue = [(j, i, task) for j, tasks in enumerate(todo) for i, task in tasks]
        window = max(WINDOW_MIN, 4 * sum(client.nthreads().values()))
        waiting: list[dict[int, Any]] = [{} for _ in jobs]
        nxt = [tasks[0][0] if tasks else 0 for tasks in todo]
        stopped: set[int] = set()
        pending = as_completed()
        pos = 0

        def submit_next() -> None:
            nonlocal pos
            while pos < len(queue):
                j, i, task = queue[pos]
                pos += 1
                if j in stopped:
                    continue
                fut = client.submit(
                    task.fn,
                    *task.args,
                    threads=threads_per_worker,
                    pure=False,
                    key=f"balance-chunk-{token}-{j}-{i}",
                )
                where[fut.key] = (j, i, task.games)
                by_job[j].append(fut)
                pending.add(fut)
                return

        for _ in range(window):
            submit_next()
        for fut in pending:
            j, i, games = where.pop(fut.key)
            submit_next()
            if j in stopped:
                continue
            waiting[j][i] = fut.result()
            fut.release()
            task_done(games)
            while nxt[j] in waiting[j]:
                if fold(j, nxt[j], waiting[j].pop(nxt[j])):
                    stopped.add(j)
                    waiting[j].clear()
                    for f in by_job[j]:
                        f.cancel()
                    break
                nxt[j] += 1
    finally:
        logging.getLogger("distributed").setLevel(logging.CRITICAL)  # quiet shutdown
        client.close()
        if cluster is not None:
            cluster.close()
