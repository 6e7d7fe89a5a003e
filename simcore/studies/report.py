"""The simulations of a balance report (analysis.report writes the report from them): seat
balance per player count, the variant comparison, the dice (games with a die rules field) and
the player ladder, all played together (on a cluster, all at once).

Game counts per section, from `games` (K): K per player count for the seat balance and per
arm of the variant comparison (the same games: the base arm is the seat balance), K/3 per
die, K/6 per ladder match, K/40 per arm of each setting of the robustness grid (the Findings:
every preset in every seat, the mixed population and the component readings, without the
search settings; `balance robustness` plays the whole grid). The grid's reference setting
(the default lineup on the rulebook's components) is the seat balance and the variant
comparison: played once, with K games, so the Findings' reference verdicts and the seat and
variant sections are the same records (#35); with --policy those sections are played on that
lineup, apart.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from typing import Any

import numba

from simcore.base.errors import InputError, RulesError
from simcore.base.fairness import TOLERANCE, UNFAIR, fair_status
from simcore.base.inputs import MAX_GAMES, check_games, check_seed
from simcore.base.results import ReportChoice, ReportLadder, ReportRuns
from simcore.base.rulesbase import rules_hash
from simcore.frame.registry import GameSpec, split_players
from simcore.run.jobs import Job, Plan, check_backend, run_plans
from simcore.run.runner import simulation_plan
from simcore.studies.compare import compare_plan, dice_plan, variant_arm
from simcore.studies.compensate import run_compensate, seat_fields
from simcore.studies.ladder import strong_policy
from simcore.studies.robustness import (
    RobustnessRun,
    Skipped,
    composing,
    players_text,
    robustness_plan,
    variant_list,
)

MIN_GAMES = 12


def section_games(games: int, strong_searches: bool = True) -> dict[str, int]:
    """Games per setting in each section of a report of `games` (K); strong players who search
    play a 1/STRONG_SHARE of them, others (`trained`) as many as the beginners; their rating
    matches against the reference preset (per player count, and per variant at the count
    nearest 3) K/3 with `trained` (+-8.5 Elo at 3 players; K/2 before 2026-12-05; a ladder
    match of the report plays K/6), as many as the strong players with a search."""
    strong = max(games // STRONG_SHARE, 2) if strong_searches else games
    return {
        "seats": games,
        "variants": games,
        "dice": max(games // 3, 2),
        "ladder": max(games // 6, 2),
        "robustness": max(games // ROBUST_SHARE, 2),
        "strong": strong,
        "rating": strong if strong_searches else max(games // 3, 2),
    }


# each arm of each setting of the robustness grid plays 1/ROBUST_SHARE of --games (20 before
# 2026-12-05; the reference setting is the seat balance and the variant comparison, K games)
ROBUST_SHARE = 40

# strong players who search play a 1/STRONG_SHARE of --games per player count: `search` in
# every seat costs about 200 times the presets' CPU a game (docs/performance.md)
STRONG_SHARE = 30


def _answer_plans(
    spec: GameSpec, choice: ReportChoice, n: dict[str, int], seed: int
) -> dict[tuple, Plan]:
    """The first screen's own games: the strong players in every seat per player count
    ('strong', p); how strong they are per player count ('strong_vs', p): one of them against
    the reference preset in the other seats, seats rotated (the rating gap over the
    beginners); and how much skill decides under each variant ('skill', variant): that match
    at the nearest count to 3 under the variant (its base arm is ('strong_vs', n3), on the
    same seeds)."""
    plans: dict[tuple, Plan] = {}
    strong, n3 = choice.strong_lineup, spec.nearest_players(3)
    if strong is None:
        return plans
    ref = split_players(choice.policy)[0] if choice.policy else spec.default_policy

    def against_ref(p: int, rules: dict[str, Any]) -> Plan:
        """One strong player against the reference preset in the other seats, rotated."""
        lineup = ",".join([strong] + [ref] * (p - 1))
        return simulation_plan(
            spec, p, n["rating"], policies=lineup, rotate_seats=True, seed=seed, **rules
        )

    for p in choice.counts:
        if p > 1:
            plans[("strong", p)] = simulation_plan(
                spec, p, n["strong"], policies=strong, seed=seed, **choice.rules
            )
            plans[("strong_vs", p)] = against_ref(p, choice.rules)
    if n3 < 2:
        return plans
    for v in choice.variants[1:]:
        try:
            plans[("skill", v)] = against_ref(
                n3, {**choice.rules, "variants": variant_arm(v).variants}
            )
        except (RulesError, InputError):  # a variant that does not compose with --set
            continue
    return plans


def _ladder_plans(
    spec: GameSpec, games: int, seed: int, rules: dict[str, Any]
) -> dict[tuple, Plan]:
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
            spec, n3, games, policies=policies, rotate_seats=True, seed=seed, **rules
        )
    for a, b in itertools.combinations(presets, 2):
        policies = ",".join([a, b] + ["random"] * (n2 - 2))
        plans[("h2h", a, b)] = simulation_plan(
            spec, n2, games, policies=policies, rotate_seats=True, seed=seed, **rules
        )
    return plans


def report_choice(
    spec: GameSpec,
    players: list[int] | None = None,
    variants: list[str] | None = None,
    overrides: dict[str, Any] | None = None,
    rules_file: str | None = None,
    policy: str | None = None,
    strong: str | None = None,
) -> ReportChoice:
    """The report's choices checked (RulesError or InputError with one sentence): player
    counts the game allows (None: all of them), known variants, a --set that resolves for
    every count, a lineup the game knows."""
    counts = list(players) if players else list(range(spec.min_players, spec.max_players + 1))
    for p in counts:
        spec.check_players(p)
    counts = sorted(dict.fromkeys(counts))
    arms = variant_list(spec, variants, rules_file)
    for p in counts:
        spec.resolve_rules([], overrides, rules_file, p)  # a bad --set fails here, at once
        if policy is not None:
            spec.parse_policies(policy, p)
        if strong is not None:
            spec.parse_policies(strong, p, "--strong")
    lineup = strong_policy(spec, strong, counts)
    return ReportChoice(counts, arms, dict(overrides or {}), rules_file, policy, strong, lineup)


def report_plans(
    spec: GameSpec, games: int, seed: int, choice: ReportChoice | str | None = None
) -> tuple[dict[tuple, Plan], list[Skipped]]:
    """Every simulation of the report as plans (simcore.run.jobs.Plan), keyed by section:
    ('seats', players), ('variants', players), ('dice',), ('vs_random', preset),
    ('h2h', preset, preset) and ('robustness',); and the variants skipped in the variant
    comparison because they do not compose with the base rules (--set). choice: a
    ReportChoice, or the lineup alone (the game's other defaults)."""
    if not isinstance(choice, ReportChoice):
        choice = report_choice(spec, policy=choice)
    n, counts = section_games(games, choice.strong_searches), choice.counts
    policy, rules = choice.policy, choice.rules
    plans: dict[tuple, Plan] = {}
    shared = shared_reference(choice)
    # on the default lineup the seat balance and the variant comparison are the robustness
    # grid's reference setting (its base arm and its arms): played once, there, so the
    # Findings rest on the sections' games
    for p in counts if not shared else ():
        plans[("seats", p)] = simulation_plan(
            spec, p, n["seats"], policies=policy, seed=seed, **rules
        )
    skipped: list[Skipped] = []
    if len(choice.variants) > 1 and not shared:
        for p in counts:
            own = tuple(v for v in choice.variants if v not in spec.report_variants)
            kept, why = composing(
                spec, p, "", choice.variants, choice.overrides, rules["rules_file"], own
            )
            skipped += [
                Skipped(p, "variant comparison", f"{p}p/variants", v, r) for v, r in why.items()
            ]
            if len(kept) > 1:
                plans[("variants", p)] = compare_plan(
                    spec,
                    p,
                    [variant_arm(v) for v in kept],
                    n["variants"],
                    seed=seed,
                    policies=policy,
                    **rules,
                )
    if "die" in spec.named_values:
        # the dice section compares every die on the base rules: a --set die is one of its arms
        dice_rules = {
            **rules,
            "overrides": {k: v for k, v in choice.overrides.items() if k != "die"} or None,
        }
        plans[("dice",)] = dice_plan(
            spec, counts, n["dice"], seed=seed, policies=policy, **dice_rules
        )
        if choice.strong_lineup and not choice.strong_searches:  # the die per level
            strong = [p for p in counts if p > 1]
            plans[("dice_strong",)] = dice_plan(
                spec, strong, n["dice"], seed=seed, policies=choice.strong_lineup, **dice_rules
            )
    plans.update(_ladder_plans(spec, n["ladder"], seed, rules))
    plans.update(_answer_plans(spec, choice, n, seed))
    plans[("robustness",)] = robustness_plan(
        spec,
        counts,
        n["robustness"],
        seed=seed,
        search=False,
        variants=list(choice.variants),
        reference_games=n["seats"],
        **rules,
    )
    for key, plan in plans.items():
        for job in plan.jobs:
            if not getattr(job, "label", ""):
                job.label = job_label(key, job)
    return plans, skipped


def shared_reference(choice: ReportChoice) -> bool:
    """Whether the report's seat balance and variant comparison are the robustness grid's
    reference setting (the default lineup on the rulebook's components, every variant
    compared, K games): so when no --policy sets another lineup."""
    return choice.policy is None


def reference_sections(rob: RobustnessRun) -> dict[tuple, Any]:
    """The seat balance and the variant comparison of each player count from a robustness
    run, keyed as report_plans: ('seats', p) the reference setting's base arm (a SimResult),
    ('variants', p) its ArmRun where it compares more than the base rules."""
    out: dict[tuple, Any] = {}
    for s in rob.settings:
        if s.reference:
            run = rob.runs[s.key]
            out[("seats", s.players)] = run.results[0]
            if len(run.arms) > 1:
                out[("variants", s.players)] = run
    return out


def job_label(key: tuple, job: Job) -> str:
    """The words of a report job's progress line: 'seat balance, 3 players'."""
    names = {
        "seats": "seat balance",
        "variants": "variant comparison",
        "dice": "dice",
        "dice_strong": "dice with the strong players",
        "strong": "strong players",
    }
    if key[0] == "strong_vs":
        section = "strong players against the reference"
    elif key[0] == "skill":
        section = f"strong players against the reference under {key[1]}"
    elif key[0] == "vs_random":
        section = f"ladder, {key[1]} against random players"
    elif key[0] == "h2h":
        section = f"ladder, {key[1]} against {key[2]}"
    else:
        section = names.get(key[0], str(key[0]))
    return f"{section}, {players_text(job.players)}"


def report_sections(results: dict[tuple, Any]) -> dict[str, Any]:
    """The played plans (keyed as report_plans, the reference sections added) as the
    fields of ReportRuns, one per section."""

    def by(kind: str) -> dict:
        return {k[1]: r for k, r in results.items() if k[0] == kind}

    return {
        "seats": by("seats"),
        "variant_runs": by("variants"),
        "dice": results.get(("dice",)),
        "dice_strong": results.get(("dice_strong",)),
        "ladder": ReportLadder(
            by("vs_random"), {k[1:]: r for k, r in results.items() if k[0] == "h2h"}
        ),
        "strong": by("strong"),
        "strong_vs": by("strong_vs"),
        "skill": by("skill"),
        "robustness": results[("robustness",)],
    }


def play_report(
    spec: GameSpec,
    games: int,
    seed: int,
    policy: str | None,
    *,
    players: list[int] | None = None,
    variants: list[str] | None = None,
    overrides: dict[str, Any] | None = None,
    rules_file: str | None = None,
    strong: str | None = None,
    fix: bool = False,
    backend: str = "local",
    scheduler: str | None = None,
    workers: int | None = None,
    threads: int | None = None,
    progress: bool | str = False,
    echo: Callable[[str], None] = print,
) -> ReportRuns:
    """Play every simulation of the report (backend, scheduler, workers, threads, progress as
    simcore.run.jobs.run_jobs: on a cluster, all sections at once; progress: a line per
    finished setting). players: the player counts (None: all the game allows); variants:
    compared beside the game's report variants and the rules file's [variant.NAME] tables;
    overrides: rules fields set in the base rules of every setting (--set); strong: the strong
    players' lineup of the first screen (default strong_policy); fix: every player count
    whose seats are not fair (simcore.base.fairness) gets a compensation (report_fixes)."""
    started = time.time()
    games = check_games(games, MIN_GAMES, " for a report")
    seed = check_seed(seed)
    choice = report_choice(spec, players, variants, overrides, rules_file, policy, strong)
    check_backend(backend, scheduler, workers)
    plans, skipped = report_plans(spec, games, seed, choice)
    total = sum(job.total_games for p in plans.values() for job in p.jobs)
    if total > MAX_GAMES:
        raise InputError(f"this report would play {total:,} games: at most 2**62 ({MAX_GAMES:,})")
    jobs = sum(len(p.jobs) for p in plans.values())
    where = "local"
    if backend == "dask":
        where = (
            f"Dask, scheduler {scheduler}" if scheduler else f"Dask, {workers or 2} local workers"
        )
    for k in skipped + plans[("robustness",)].skipped:
        echo(f"  skipped: {k.line}")
    echo(f"  playing {total:,} games in {jobs} settings (backend: {where})")
    results = run_plans(
        list(plans.values()),
        backend=backend,
        scheduler=scheduler,
        workers=workers,
        threads=threads,
        progress=progress,
    )
    results = dict(zip(plans, results))
    if shared_reference(choice):
        results.update(reference_sections(results[("robustness",)]))
    fixes = {}
    if fix:
        run_kw = dict(backend=backend, scheduler=scheduler, workers=workers, threads=threads)
        fixes = report_fixes(spec, choice, games, seed, results, run_kw, echo)
    return ReportRuns(
        spec=spec,
        games=section_games(games, choice.strong_searches),
        seed=seed,
        policy=policy,
        choice=choice,
        skipped=skipped,
        **report_sections(results),
        backend=backend,
        where=where,
        threads=numba.get_num_threads(),
        rules_hashes={
            p: rules_hash(spec.resolved(spec.resolve_rules([], overrides, rules_file, p), p))
            for p in choice.counts
        },
        started=started,
        fixes=fixes,
    )


FIX_BUDGET = 24  # candidates a compensation field is screened with in a report (optuna beyond)
FIX_SHARE = 60  # a screened candidate plays 1/FIX_SHARE of --games (40 before 2026-12-05)
# ... and with the strong players 1/STRONG_FIX_SHARE: their games cost 3 to 4 times a preset's
# (docs/performance.md), and a screening only proposes the finalists (refined on more games,
# then confirmed on fresh ones)
STRONG_FIX_SHARE = 120
FIX_CONFIRM = 2  # finalists confirmed: the simplest within the tolerance, then the closest
FIX_REFINE = 5  # the screening's best refined on more games (8 before 2026-12-05, as compensate)


def report_fixes(spec, choice, games, seed, results, run_kw, echo) -> dict[int, Any]:
    """The first screen's "how to fix it", at both levels: for every player count whose seat
    balance is not fair (a pair of seats beyond the tolerance) with the reference preset or
    with the strong players, `balance compensate` at that level (the reference preset's when
    both are unfair; screened on --games/60 games a candidate, --games/120 with strong
    players who do not search, at most FIX_BUDGET a field; FIX_CONFIRM finalists confirmed on
    --games fresh games, half the strong players' with them, one after the other until one
    is fair; the calibrations are the report's own seat balance and strong players' games),
    checked at the other level on half the strong players' games, where the recommendation
    is not fair there a compensation of that level's own searched too (strong players who do
    not search: docs/compensation.md, "In the report")."""
    if not seat_fields(spec) or choice.policy is not None:
        return {}
    n = section_games(games, choice.strong_searches)
    strong = choice.strong_lineup
    level_games = max(n["strong"] // 2, 2)

    def screen(lv: str) -> int:
        """Games a screened candidate plays with `lv` in every seat."""
        share = STRONG_FIX_SHARE if lv == strong and lv != spec.default_policy else FIX_SHARE
        return max(games // share, 2)

    out = {}
    for p in choice.counts:
        res, st = results.get(("seats", p)), results.get(("strong", p))
        if p < 2 or res is None:
            continue
        unfair = [
            lv
            for lv, r in ((spec.default_policy, res), (strong, st))
            if lv and r is not None and fair_status(r.summary, TOLERANCE) == UNFAIR
        ]
        if not unfair:  # fair, or no pair shown beyond the tolerance, at both levels
            continue
        other = [lv for lv in (spec.default_policy, strong) if lv and lv != unfair[0]]
        out[p] = run_compensate(
            spec,
            p,
            screen(unfair[0]),
            # the strong players' confirmations on the level's games, as their own searches'
            confirm_games=n["seats"] if unfair[0] == spec.default_policy else level_games,
            level_games=level_games,
            level_screen_games=screen((other or [spec.default_policy])[0]),
            seed=seed,
            policy=unfair[0],
            budget=FIX_BUDGET,
            # a level's own search: affordable with players who do not search
            level_budget=0 if choice.strong_searches else FIX_BUDGET,
            levels=other or [spec.default_policy],
            overrides=choice.overrides or None,
            rules_file=choice.rules_file,
            first_fair=True,
            confirm_top=FIX_CONFIRM,
            refine_top=FIX_REFINE,
            known=[r for r in (res, st) if r is not None],
            **run_kw,
        )
        echo(f"  how to fix it, {p} players: done")
    return out
