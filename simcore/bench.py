"""`balance bench`: games per second of each game with its default players, on 1 thread and
on all threads (median of several runs after a warm-up), and nanoseconds per turn."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import numba
import numpy as np

from simcore.games import all_games, get_game


def _time_batch(
    spec, players: int, games: int, threads: int, seed: int = 12345, policy: str | None = None
):
    rules = spec.rules_cls()
    r = spec.pack(rules, players)
    ids, w = spec.policy_arrays(spec.parse_policies(policy, players))
    rows = np.zeros((games, len(spec.columns)), dtype=np.int64)
    prev = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        t0 = time.perf_counter()
        spec.play_batch(r, ids, w, np.uint64(seed), np.int64(0), False, False, rows)
        dt = time.perf_counter() - t0
    finally:
        numba.set_num_threads(prev)
    turns = rows[:, spec.columns.index("turns")].sum()
    return dt, int(turns)


def run_bench(
    game: str | None,
    games: int,
    runs: int,
    echo: Callable[[str], None] = print,
    policy: str | None = None,
):
    specs = [get_game(game)] if game else list(all_games().values())
    maxt = numba.config.NUMBA_NUM_THREADS
    results = []
    echo(
        f"{'game':<14}{'players':>8}{'policy':>10}{'1 thread g/s':>15}"
        f"{f'{maxt} threads g/s':>16}{'speed-up':>10}{'ns/turn':>10}"
    )
    for spec in specs:
        for players in range(spec.min_players, spec.max_players + 1):
            if policy and policy not in spec.policies:
                continue
            pol = policy or spec.default_policy
            _time_batch(spec, players, min(games, 2000), 1, policy=pol)  # warm-up
            rates = {}
            nspt = 0.0
            for t in sorted({1, maxt}):
                times = []
                for _ in range(runs):
                    dt, turns = _time_batch(spec, players, games, t, policy=pol)
                    times.append(dt)
                    if t == 1:
                        nspt = dt / max(turns, 1) * 1e9
                rates[t] = games / statistics.median(times)
            row = {
                "game": spec.name,
                "players": players,
                "policy": pol,
                "games": games,
                "runs": runs,
                "games_per_s_1": rates[1],
                f"games_per_s_{maxt}": rates[maxt],
                "speedup": rates[maxt] / rates[1],
                "ns_per_turn": nspt,
                "threads": maxt,
            }
            results.append(row)
            echo(
                f"{spec.name:<14}{players:>8}{pol:>10}{rates[1]:>15,.0f}"
                f"{rates[maxt]:>16,.0f}{rates[maxt] / rates[1]:>10.2f}{nspt:>10,.0f}"
            )
    return {"machine_threads": maxt, "results": results}
