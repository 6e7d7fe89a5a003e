"""The simulations of a balance report (analysis.report writes the report from them): seat
balance per player count, the variant comparison, the dice (games with a die rules field) and
the player ladder, all played together (on a cluster, all at once).

Game counts per section, from `games` (K): K per player count for the seat balance, K/3 per
arm for the variant comparison and per die, K/6 per ladder match, K/10 per arm of each setting
of the robustness grid (the Findings: every preset in every seat, the mixed population and the
component readings, without the search settings; `balance robustness` plays the whole grid).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numba

from simcore.base.errors import InputError
from simcore.base.inputs import MAX_GAMES, check_games, check_seed
from simcore.base.rulesbase import rules_hash
from simcore.frame.registry import get_game
from simcore.run.jobs import check_backend, run_plans
from simcore.run.runner import simulation_plan
from simcore.studies.arms import compare_plan, dice_plan, variant_arm
from simcore.studies.robustness import robustness_plan

MIN_GAMES = 12


def section_games(games: int) -> dict[str, int]:
    """Games per setting in each section of a report of `games` (K)."""
    return {
        "seats": games,
        "variants": max(games // 3, 2),
        "dice": max(games // 3, 2),
        "ladder": max(games // 6, 2),
        "robustness": max(games // 10, 2),
    }


def _ladder_plans(spec: Any, games: int, seed: int) -> dict[tuple, Any]:
    """The ladder's simulations: each preset against random players, and head to head (none
    for a game without a `random` player, such as a game without decisions)."""
    if "random" not in spec.policies:
        return {}
    presets = [p for p in spec.presets if p != "random"]
    n3, n2 = spec.nearest_players(3), spec.nearest_players(2)
    plans = {}
    for p in presets:
        policies = ",".join([p] + ["random"] * (n3 - 1))
        plans[("vs_random", p)] = simulation_plan(
            spec, n3, games, policies=policies, rotate_seats=True, seed=seed
        )
    for a, b in itertools.combinations(presets, 2):
        policies = ",".join([a, b] + ["random"] * (n2 - 2))
        plans[("h2h", a, b)] = simulation_plan(
            spec, n2, games, policies=policies, rotate_seats=True, seed=seed
        )
    return plans


def report_plans(spec: Any, games: int, seed: int, policy: str | None) -> dict[tuple, Any]:
    """Every simulation of the report as plans (simcore.run.jobs.Plan), keyed by section:
    ('seats', players), ('variants', players), ('dice',), ('vs_random', preset),
    ('h2h', preset, preset) and ('robustness',)."""
    n = section_games(games)
    counts = list(range(spec.min_players, spec.max_players + 1))
    plans: dict[tuple, Any] = {}
    for p in counts:
        plans[("seats", p)] = simulation_plan(spec, p, n["seats"], policies=policy, seed=seed)
    variants = list(spec.report_variants)
    if len(variants) > 1:
        arms = [variant_arm(v) for v in variants]
        for p in counts:
            plans[("variants", p)] = compare_plan(
                spec, p, arms, n["variants"], seed=seed, policies=policy
            )
    if "die" in spec.named_values:
        plans[("dice",)] = dice_plan(spec, counts, n["dice"], seed=seed, policies=policy)
    plans.update(_ladder_plans(spec, n["ladder"], seed))
    plans[("robustness",)] = robustness_plan(spec, counts, n["robustness"], seed=seed, search=False)
    return plans


@dataclass
class ReportRuns:
    """The played simulations of a report and their provenance."""

    spec: Any
    games: dict[str, int]  # games per setting in each section (section_games)
    seed: int
    policy: str | None
    results: dict[tuple, Any]  # keyed as report_plans: SimResult, ArmRun or {players: ArmRun}
    backend: str
    where: str  # the backend in words: 'local', 'Dask, 2 local workers'
    threads: int
    rules_hashes: dict[int, str]  # the rulebook game's rules hash per player count
    started: float  # time.time() when the report began

    @property
    def player_counts(self) -> list[int]:
        return list(range(self.spec.min_players, self.spec.max_players + 1))

    @property
    def ladder_players(self) -> tuple[int, int]:
        """The player counts of the ladder: against random players, and head to head."""
        return self.spec.nearest_players(3), self.spec.nearest_players(2)


def play_report(
    game: str | Any,
    games: int,
    seed: int,
    policy: str | None,
    *,
    backend: str = "local",
    scheduler: str | None = None,
    workers: int | None = None,
    threads: int | None = None,
    progress: bool = False,
    echo: Callable[[str], None] = print,
) -> ReportRuns:
    """Play every simulation of the report (backend, scheduler, workers, threads, progress as
    simcore.run.jobs.run_jobs: on a cluster, all sections at once)."""
    started = time.time()
    games = check_games(games, MIN_GAMES, " for a report")
    seed = check_seed(seed)
    spec = get_game(game) if isinstance(game, str) else game
    if policy is not None:
        spec.parse_policies(policy, spec.min_players)
    check_backend(backend, scheduler, workers)
    plans = report_plans(spec, games, seed, policy)
    total = sum(job.total_games for p in plans.values() for job in p.jobs)
    if total > MAX_GAMES:
        raise InputError(f"this report would play {total:,} games: at most 2**62 ({MAX_GAMES:,})")
    jobs = sum(len(p.jobs) for p in plans.values())
    where = "local"
    if backend == "dask":
        where = (
            f"Dask, scheduler {scheduler}" if scheduler else f"Dask, {workers or 2} local workers"
        )
    echo(f"  playing {total:,} games in {jobs} settings (backend: {where})")
    results = run_plans(
        list(plans.values()),
        backend=backend,
        scheduler=scheduler,
        workers=workers,
        threads=threads,
        progress=progress,
    )
    counts = range(spec.min_players, spec.max_players + 1)
    return ReportRuns(
        spec=spec,
        games=section_games(games),
        seed=seed,
        policy=policy,
        results=dict(zip(plans, results)),
        backend=backend,
        where=where,
        threads=numba.get_num_threads(),
        rules_hashes={p: rules_hash(spec.resolved(spec.rules_cls(), p)) for p in counts},
        started=started,
    )
