"""`balance bench`: games per second of each game with its default players, on 1 thread and
on all threads (median of several runs after a warm-up), and nanoseconds per turn; with
--full the slow figures and the `search` player's strength-for-cost curve (run_curve)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import numba
import numpy as np

from simcore.base.fairness import elo_vs_fair  # noqa: F401 - the curve's Elo (and bench.elo_vs_fair)
from simcore.base.inputs import check_games, check_rows, check_whole
from simcore.base.rulesbase import RulesError
from simcore.frame.registry import GameSpec, all_games, get_game


class BenchError(RuntimeError):
    """A measurement subprocess of `balance bench --full` failed (reported in one line)."""


def _batch_inputs(spec, players: int, games: int, policy: str | None):
    """The default rules packed, the lineup's policy arrays and the rows of a batch."""
    rules = spec.rules_cls()
    seats = spec.resolve_seats(spec.parse_policies(policy, players), rules)
    ids, w = spec.policy_arrays(seats)
    rows = np.zeros((games, len(spec.columns)), dtype=np.int64)
    return spec.pack(rules, players), ids, w, rows


def _time_batch(
    spec, players: int, games: int, threads: int, seed: int = 12345, policy: str | None = None
):
    r, ids, w, rows = _batch_inputs(spec, players, games, policy)
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


def _policy_fits(spec, policy: str) -> bool:
    """Whether `policy` (as --policy gives it, with weights) is one of the game's players."""
    return bool(_counts_for(spec, policy))


def _counts_for(spec, policy: str | None) -> list[int]:
    """The player counts `policy` fits (a list of one entry per seat fits its own count)."""
    out = []
    for players in range(spec.min_players, spec.max_players + 1):
        try:
            spec.parse_policies(policy, players)
        except RulesError:
            continue
        out.append(players)
    return out


def _specs(game: GameSpec | None) -> list[GameSpec]:
    """The games measured: `game`, or every game (None)."""
    return [game] if game is not None else list(all_games().values())


def run_bench(
    game: GameSpec | None,
    games: int,
    runs: int,
    echo: Callable[[str], None] = print,
    policy: str | None = None,
):
    specs = _specs(game)
    if policy is not None:
        # an unknown policy or weight is an input error (RulesError: one line, exit status
        # 2); with every game, the games the policy (name and weights) does not fit are left
        # out
        if game is not None:
            if not _counts_for(specs[0], policy):  # say why it fits no player count
                specs[0].parse_policies(policy, specs[0].min_players)
        else:
            fit = [spec for spec in specs if _policy_fits(spec, policy)]
            if not fit:
                known = sorted({p for spec in specs for p in spec.policies})
                raise RulesError(f"no game has a policy '{policy}' (known: {', '.join(known)})")
            specs = fit
    maxt = numba.config.NUMBA_NUM_THREADS
    results = []
    gw = max(len(spec.name) for spec in specs) + 2
    pw = max(10, len(policy or "") + 2)  # a policy with weights is longer than a name
    echo(
        f"{'game':<{gw}}{'players':>8}{'policy':>{pw}}{'1 thread g/s':>15}"
        f"{f'{maxt} threads g/s':>16}{'speed-up':>10}{'ns/turn':>10}"
    )
    for spec in specs:
        fits = _counts_for(spec, policy) if policy else None
        for players in range(spec.min_players, spec.max_players + 1):
            if fits is not None and players not in fits:
                continue
            pol = policy or spec.default_policy
            _time_batch(spec, players, min(games, 2000), 1, policy=pol)  # warm-up
            # the thread counts take turns run by run, so that a slow spell of the machine
            # (they last minutes here) falls on both and not on the speed-up
            counts = sorted({1, maxt})
            times = {t: [] for t in counts}
            turns = 0
            for _ in range(runs):
                for t in counts:
                    dt, turns = _time_batch(spec, players, games, t, policy=pol)
                    times[t].append(dt)
            rates = {t: games / statistics.median(times[t]) for t in counts}
            # the same seed every run: the same games, the same turns
            nspt = statistics.median(times[1]) / max(turns, 1) * 1e9
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
                "seconds_1": times[1],
                f"seconds_{maxt}": times[maxt],
            }
            results.append(row)
            echo(
                f"{spec.name:<{gw}}{players:>8}{pol:>{pw}}{rates[1]:>15,.0f}"
                f"{rates[maxt]:>16,.0f}{rates[maxt] / rates[1]:>10.2f}{nspt:>10,.0f}"
            )
    return {"machine_threads": maxt, "results": results}


def bench(
    game: GameSpec | None,
    games: int,
    runs: int,
    *,
    policy: str | None = None,
    full: bool = False,
    echo: Callable[[str], None] = print,
) -> dict:
    """`balance bench` of one game (None: every game): run_bench's table (printed as it is
    measured), and with full=True run_full's slow figures under the key 'full' (BenchError
    when a measurement fails) and, with each game's own players, run_curve's
    strength-for-cost curve under 'search_curve'."""
    games = check_rows(check_games(games), "bench")
    runs = check_whole(runs, "--runs", 1, maximum=1000)
    res = run_bench(game, games, runs, echo=echo, policy=policy)
    if policy is None and (game is None or game.name == "pig"):
        res["pig_overhead"] = pig_overhead(runs, echo=echo)
    if full:
        res["full"] = run_full(game, echo=echo, policy=policy, bench=res)
        if policy is None:
            res["search_curve"] = run_curve(game, echo=echo)
    return res


PIG_GAMES = 500_000  # games of each timing of pig_overhead


def pig_overhead(runs: int, games: int = PIG_GAMES, echo: Callable[[str], None] = print) -> dict:
    """Pig's games per second on one thread through the frame (the `pig` game, hold-at-20
    against hold-at-20, its batch kernel with rows) beside the hand-written numba Pig
    (simcore.studies.bench_pig): the frame's overhead as the ratio of the two (the medians of
    `runs` timings each, taken in turns, after a warm-up)."""
    from simcore.studies.bench_pig import hand_pig

    spec = get_game("pig")
    prev = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        hand_pig(1000, 7)
        _time_batch(spec, 2, 1000, 1, policy="hold-at")
        frame_s, hand_s = [], []
        for _ in range(runs):
            frame_s.append(_time_batch(spec, 2, games, 1, policy="hold-at")[0])
            t0 = time.perf_counter()
            wins = hand_pig(games, 7)
            hand_s.append(time.perf_counter() - t0)
    finally:
        numba.set_num_threads(prev)
    frame_rate = games / statistics.median(frame_s)
    hand_rate = games / statistics.median(hand_s)
    echo(
        f"pig, hold-at-20 v hold-at-20, 1 thread: {frame_rate:,.0f} games/s through the frame, "
        f"{hand_rate:,.0f} games/s hand-written (simcore/studies/bench_pig.py): the frame's "
        f"overhead x{hand_rate / frame_rate:.2f}"
    )
    return {
        "games": games,
        "runs": runs,
        "frame_games_per_s_1": frame_rate,
        "hand_games_per_s_1": hand_rate,
        "overhead": hand_rate / frame_rate,
        "hand_first_player_wins": wins / games,
    }


# ---------------------------------------------------------------------------------------
# The slower measurements (balance bench --full): each runs in a fresh subprocess.

_PLAY = """
import sys, time, numpy as np
from simcore import get_game
spec = get_game(sys.argv[1])
players = int(sys.argv[2])
ids, w = spec.policy_arrays(spec.parse_policies(sys.argv[3], players))
r = spec.pack(spec.rules_cls(), players)
rows = np.zeros((int(sys.argv[4]), len(spec.columns)), np.int64)
t = time.perf_counter()
spec.play_batch(r, ids, w, np.uint64(7), np.int64(0), False, False, rows)
print(time.perf_counter() - t)
"""

# Peak memory of this process: VmHWM (the high-water mark of the process's own memory, new at
# exec). ru_maxrss is only the fallback where /proc is missing: on Linux it keeps the parent's
# peak across fork and exec, so a child of a `balance bench` that compiled several games
# reported the parent's 1 GB.
_MEMORY = """
import resource, sys
from simcore import get_game, simulate
spec, players, games = get_game(sys.argv[1]), int(sys.argv[2]), int(float(sys.argv[4]))
simulate(spec, players, games, policies=sys.argv[3], seed=1)
kb = None
try:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                kb = int(line.split()[1])
except OSError:
    pass
print(kb if kb is not None else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def _run(code: str, *args: str, env: dict | None = None) -> tuple[str, float]:
    import os
    import subprocess
    import sys

    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", code, *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
    )
    if proc.returncode != 0:
        lines = proc.stderr.strip().splitlines()
        raise BenchError(
            f"the measurement subprocess for {' '.join(args)} failed (exit {proc.returncode}): "
            + (lines[-1] if lines else "no message")
        )
    out = proc.stdout.strip().splitlines()
    return (out[-1] if out else ""), time.perf_counter() - t0


def plain_python_ratio(
    game: str, players: int, policy: str, games: int, compiled_games_per_s: float
) -> dict:
    """Seconds per game of the same engine with NUMBA_DISABLE_JIT=1 on a small sample, and
    the ratio to the compiled games per second on one thread."""
    secs, _ = _run(_PLAY, game, str(players), policy, str(games), env={"NUMBA_DISABLE_JIT": "1"})
    per_game = float(secs) / games
    return {
        "plain_python_s_per_game": per_game,
        "ratio": compiled_games_per_s * per_game,
        "sample_games": games,
    }


def start_times(game: str, players: int, policy: str) -> dict:
    """Cold compile (an empty numba cache) and warm start (cache filled) of a 1,000-game
    simulate, wall clock of the whole process."""
    import tempfile

    with tempfile.TemporaryDirectory() as cache:
        _, cold = _run(_MEMORY, game, str(players), policy, "1000", env={"XDG_CACHE_HOME": cache})
        _, warm = _run(_MEMORY, game, str(players), policy, "1000", env={"XDG_CACHE_HOME": cache})
    return {"cold_start_s": cold, "warm_start_s": warm}


def peak_memory(game: str, players: int, policy: str, games: list[int]) -> dict:
    """Peak resident memory (kB) of a simulate of each number of games, without rows."""
    out = {}
    for n in games:
        kb, _ = _run(_MEMORY, game, str(players), policy, str(n))
        out[str(n)] = int(kb)
    return out


def _rate_1(spec, players: int, pol: str, bench: dict | None) -> float:
    """Games per second on one thread: from the table just measured, else measured here."""
    for row in (bench or {}).get("results", []):
        if (row["game"], row["players"], row["policy"]) == (spec.name, players, pol):
            return row["games_per_s_1"]
    _time_batch(spec, players, 500, 1, policy=pol)
    dt, _ = _time_batch(spec, players, 5000, 1, policy=pol)
    return 5000 / dt


def run_full(
    game: GameSpec | None,
    echo: Callable[[str], None] = print,
    policy: str | None = None,
    memory_games: tuple[int, ...] = (100_000, 10_000_000),
    bench: dict | None = None,
    plain_games: int = 5,
) -> dict:
    """The slow figures: for each player count the ratio to the plain-Python engine (the same
    players, `plain_games` games); for each game (the compiled code is the same for every
    player count; 3 players, or the nearest count) the cold and warm start of a 1,000-game
    simulate and the peak memory of simulates of `memory_games` games. Memory does not depend
    on the players (no rows are kept), so it is measured with whichever of the game's default
    and random players runs faster, to keep the 1e7-game run short. `bench`: the result of
    run_bench, whose one-thread rates are reused."""
    specs = _specs(game)
    res = {}
    gw = max(len(spec.name) for spec in specs) + 2
    echo("")
    echo(f"{'game':<{gw}}{'players':>8}{'policy':>10}{'plain ms/game':>15}{'compiled x':>12}")
    for spec in specs:
        pol = policy or spec.default_policy
        if policy and policy not in spec.policies:
            continue
        ratios = {}
        for players in range(spec.min_players, spec.max_players + 1):
            rate = _rate_1(spec, players, pol, bench)
            plain = plain_python_ratio(spec.name, players, pol, plain_games, rate)
            ratios[str(players)] = {"games_per_s_1": rate, **plain}
            echo(
                f"{spec.name:<{gw}}{players:>8}{pol:>10}"
                f"{plain['plain_python_s_per_game'] * 1e3:>15,.1f}{plain['ratio']:>12,.0f}"
            )
        res[spec.name] = {"policy": pol, "plain_python": ratios}
    echo("")
    for spec in specs:
        if spec.name not in res:
            continue
        pol = res[spec.name]["policy"]
        players = max(spec.min_players, min(3, spec.max_players))
        starts = start_times(spec.name, players, pol)
        fast = pol
        if pol != "random" and "random" in spec.policies:
            if _rate_1(spec, players, "random", None) > _rate_1(spec, players, pol, bench):
                fast = "random"
        mem = peak_memory(spec.name, players, fast, list(memory_games))
        res[spec.name].update(
            {"players": players, **starts, "memory_policy": fast, "peak_rss_kb": mem}
        )
        ratio = mem[str(max(memory_games))] / mem[str(min(memory_games))]
        echo(
            f"{spec.name}: {players} players, {pol}: cold start {starts['cold_start_s']:.1f} s "
            f"(empty numba cache), warm start {starts['warm_start_s']:.1f} s (1,000-game "
            f"simulate); peak memory ({fast} players) "
            + ", ".join(f"{int(k):,} games {v / 1024:,.0f} MB" for k, v in mem.items())
            + f" (ratio {ratio:.2f})"
        )
    return res


# ---------------------------------------------------------------------------------------
# The strength-for-cost curve of the `search` and `trained` players (balance bench: issues
# #37, #49).

CURVE_GAMES = 500  # games a point of the curve (a Wilson interval about +-4 points)
CURVE_SHARES = (1 / 16, 1 / 4, 1.0)  # the budgets: these shares of the game's default budget
CURVE_PLAYERS = {"sumeria": 4, "sunken-treasure": 2}  # as their players pages; others 3


def play_rotated(spec, players: int, policy: str, games: int, seed: int, start: int = 0) -> dict:
    """Games start.. start + games - 1 of `seed` with the lineup `policy` (as --policy gives
    it), seats rotated, on one thread: the CPU seconds (time.process_time) and the outright
    wins of the lineup's first entry (game i seats entry 0 at seat (-i) mod players; a shared
    win counts for nobody)."""
    r, ids, w, rows = _batch_inputs(spec, players, games, policy)
    prev = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        t0 = time.process_time()
        spec.play_batch(r, ids, w, np.uint64(seed), np.int64(start), True, False, rows)
        cpu = time.process_time() - t0
    finally:
        numba.set_num_threads(prev)
    wins, shared = entry_wins(spec, rows, players)
    return {"games": games, "cpu_s": cpu, "wins": wins, "shared": shared}


def entry_wins(spec, rows: np.ndarray, players: int) -> tuple[int, int]:
    """(outright wins of the lineup's first entry, shared wins) in rows of games played with
    seats rotated: game i seats entry 0 at seat (-i) mod players."""
    index = rows[:, spec.columns.index("game")]
    winner = rows[:, spec.columns.index("winner")]
    return int(np.sum(winner == (-index) % players)), int(np.sum(winner < 0))


def curve_point(
    wins: int, games: int, shared: int, players: int, fair: float | None = None
) -> dict:
    """A point's win rate with its Wilson 95% interval and its Elo equivalent against the fair
    share (1 - shared share) / players: a shared win counts for nobody, so the fair share of
    an outright win is what is left of the games after the shared ones, split evenly; or
    against `fair` when given (a solo game: the reference player's own success rate)."""
    from statsmodels.stats.proportion import proportion_confint

    lo, hi = proportion_confint(wins, games, alpha=0.05, method="wilson")
    if fair is None:
        fair = (1.0 - shared / games) / players
    p = wins / games
    return {
        "win_rate": p,
        "ci_low": float(lo),
        "ci_high": float(hi),
        "fair": fair,
        "elo": elo_vs_fair(p, fair),
        "elo_low": elo_vs_fair(float(lo), fair),
        "elo_high": elo_vs_fair(float(hi), fair),
    }


def curve_budgets(spec) -> list[int]:
    """The budgets of a game's curve: CURVE_SHARES of its default budget (at least 1)."""
    from simcore.frame import search

    default = spec.search_defaults.get("budget", search.PARAMS["budget"][0])
    return sorted({max(1, round(default * f)) for f in CURVE_SHARES})


def curve_players(spec, players: int) -> list[tuple[str, int]]:
    """The points of a game's curve, (player, budget): `search` at each of curve_budgets, then
    where a model is shipped for the player count `trained` (budget 0) and the search over it
    at the default budget (docs/trained-players.md)."""
    out = [(f"search:budget={b}", b) for b in curve_budgets(spec)]
    if spec.has_model(players):
        top = max(curve_budgets(spec))
        out += [("trained", 0), (f"search:base=trained,budget={top}", top)]
    return out


def run_curve(
    game: GameSpec | None, games: int = CURVE_GAMES, echo: Callable[[str], None] = print
) -> dict:
    """The strength for its cost of the `search` player and of the `trained` player, per game
    with a search player: one seat of the player (curve_players: the search at the game's
    default settings but the budget, the trained player, the search over it) against the
    game's default preset in the other seats, seats rotated, seed 7; each point's win rate
    (Wilson 95% interval), its Elo equivalent against the fair share (elo_vs_fair) and CPU ms
    a game on one thread, beside the CPU ms of a game of the preset in every seat (timed on
    20 times the games). Prints a line per point as it is measured."""
    specs = _specs(game)
    res = {}
    for spec in specs:
        if "search" not in spec.policies:
            continue
        players = CURVE_PLAYERS.get(spec.name, max(spec.min_players, min(3, spec.max_players)))
        ref = spec.default_policy
        ref_line = ",".join([ref] * players)
        play_rotated(spec, players, ref_line, 20, 1)  # compiles
        t = play_rotated(spec, players, ref_line, 20 * games, 8)
        ref_ms = t["cpu_s"] / t["games"] * 1e3
        points = []
        for player, budget in curve_players(spec, players):
            lineup = ",".join([player] + [ref] * (players - 1))
            play_rotated(spec, players, lineup, 2, 1)  # compiles
            t = play_rotated(spec, players, lineup, games, 7)
            ms = t["cpu_s"] / t["games"] * 1e3
            point = {"player": player, "budget": budget, "games": games}
            point.update({"wins": t["wins"], "shared": t["shared"]})
            point.update(curve_point(t["wins"], games, t["shared"], players))
            point.update({"cpu_ms_per_game": ms, "cost_ratio": ms / ref_ms})
            points.append(point)
            echo(
                f"{spec.name}: {player}: {100 * point['win_rate']:.1f}% "
                f"({100 * point['ci_low']:.1f}-{100 * point['ci_high']:.1f}), "
                f"{ms:.2f} ms/game"
            )
        res[spec.name] = {
            "players": players,
            "reference": ref,
            "reference_cpu_ms_per_game": ref_ms,
            "points": points,
        }
    return res
