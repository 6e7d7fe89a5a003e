"""The Dask backend (optional extra `distributed`): chunks of game indices run as tasks on a
cluster; workers return mergeable summaries (and rows only when asked).

Results are identical to the local backend: a chunk's games depend only on (seed, index), and
the client merges the chunks in plan order (so a --precision run stops at the same chunk). A
lost worker's chunks are recomputed by Dask on another worker. Each worker process runs numba
with one thread by default (no oversubscription; use more workers instead), and loads or
compiles the game's kernels once, before the first chunk (the numba cache on disk is shared
by the workers of one machine).
"""

from __future__ import annotations

from collections.abc import Callable

from simcore.rulesbase import RulesError


def _client(scheduler: str | None, workers: int | None):
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise RulesError(
            "--backend dask needs the 'distributed' extra: "
            "pip install 'balance-analyser[distributed]'"
        ) from None
    if scheduler:
        try:
            return Client(scheduler, timeout="20s"), None
        except OSError as e:
            raise RulesError(f"cannot reach the Dask scheduler at '{scheduler}': {e}") from None
    cluster = LocalCluster(
        n_workers=workers or 2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    return Client(cluster), cluster


def warm_worker(game: str, players: int) -> bool:
    """Compile or load the game's kernels on this worker (one numba thread per worker)."""
    import numba
    import numpy as np

    from simcore.games import get_game

    numba.set_num_threads(1)
    spec = get_game(game)
    seats = spec.parse_policies(None, players)
    spec.play_batch(
        spec.pack(spec.rules_cls(), players),
        *spec.policy_arrays(seats),
        np.uint64(0),
        np.int64(0),
        False,
        False,
        np.zeros((0, len(spec.columns)), dtype=np.int64),
    )
    return True


def run_dask(
    game: str,
    players: int,
    rules,
    seats,
    seed: int,
    todo,
    rotate: bool,
    checked: bool,
    keep_rows: bool,
    fold: Callable,
    *,
    scheduler: str | None = None,
    workers: int | None = None,
    threads_per_worker: int = 1,
) -> None:
    """Submit every chunk of `todo` [(plan index, (first, n))] and fold the results in plan
    order; stop early (cancelling the rest) when fold says so."""
    from distributed import as_completed

    from simcore.runner import play_chunk

    client, cluster = _client(scheduler, workers)
    try:
        client.run(warm_worker, game, players)
        futures = {}
        for i, (first, n) in todo:
            fut = client.submit(
                play_chunk,
                game,
                players,
                rules,
                seats,
                seed,
                first,
                n,
                rotate,
                checked,
                keep_rows,
                threads_per_worker,
                pure=False,
                key=f"balance-chunk-{game}-{seed}-{first}-{n}-{i}",
            )
            futures[fut.key] = (i, fut)
        index_of = {f.key: i for i, f in futures.values()}
        waiting: dict[int, tuple] = {}
        nxt = todo[0][0] if todo else 0
        for fut in as_completed([f for _, f in futures.values()]):
            i = index_of[fut.key]
            _, summary, rows = fut.result()
            waiting[i] = (summary, rows)
            fut.release()
            while nxt in waiting:
                s, rw = waiting.pop(nxt)
                if fold(nxt, s, rw):
                    for _, f in futures.values():
                        f.cancel()
                    return
                nxt += 1
    finally:
        import logging

        logging.getLogger("distributed").setLevel(logging.CRITICAL)  # quiet shutdown
        client.close()
        if cluster is not None:
            cluster.close()
