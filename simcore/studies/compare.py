"""Arms played on common random numbers: the simulator's side of `compare`, `dice` and
`sweep` (analysis.compare turns what is played here into tables and verdicts).

Every arm of a comparison is played on the same games: game i of seed S draws its randomness
only from (S, i), so arm A's game i and arm B's game i share their random stream and differ only
by the rules. Memory stays flat however many games are played: each chunk of games is played
under every arm by one task (play_arms_chunk), turned into a matrix of per-game metrics per arm
(simcore.base.metrics), folded into running sums (ArmMoments) and dropped.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from simcore.base.errors import InputError
from simcore.base.inputs import MAX_INDEX, check_games, check_seed, check_whole
from simcore.base.metrics import (
    ArmMoments,
    Metric,
    game_metrics,
    metric_list,
    metric_scale,
    shown_metrics,
)
from simcore.base.results import ArmRun, SweepRun
from simcore.base.rulesbase import RulesError, apply_overrides
from simcore.frame.registry import GameSpec, all_games
from simcore.run.checkpoint import summary_from_json, summary_to_json
from simcore.run.chunks import DEFAULT_CHUNK, chunk_plan, play_games, rows_frame, task_game
from simcore.run.jobs import Plan, Task, TaskList, play
from simcore.run.runner import SimJob

MOMENT_SUMS = ("sums", "within", "cross", "pairs")  # the ArmMoments arrays a checkpoint keeps
DASK_CHUNK = 4_096  # games per arm in one task of the Dask backend: more, smaller tasks
MAX_SWEEP_SETTINGS = 64


# --------------------------------------------------------------------------------- arms
@dataclass(frozen=True)
class Arm:
    """One setting of a comparison: variants (composable with '+') and rules overrides."""

    label: str
    variants: tuple[str, ...] = ()
    overrides: tuple[tuple[str, Any], ...] = ()

    @property
    def override_dict(self) -> dict[str, Any]:
        return dict(self.overrides)


def variant_arm(name: str) -> Arm:
    """`--variant short+no-chips` -> an arm labelled by the variant."""
    return Arm(name.strip(), (name.strip(),))


_KEY_START = re.compile(r",(?=\s*[A-Za-z_][A-Za-z0-9_]*\s*=)")


def parse_arm_text(text: str) -> dict[str, str]:
    """'die=0,1,1,2,2,3,chips=false' -> {'die': '0,1,1,2,2,3', 'chips': 'false'}.

    A comma starts a new field only where `name=` follows, so list values keep their commas."""
    out: dict[str, str] = {}
    text = text.strip()
    if not text:
        raise RulesError("--set-arm needs key=value, got an empty text")
    for part in _KEY_START.split(text):
        k, eq, v = part.partition("=")
        if not eq or not k.strip():
            raise RulesError(f"--set-arm expects key=value[,key=value...], got '{text}'")
        out[k.strip()] = v.strip()
    return out


def set_arm(text: str) -> Arm:
    """`--set-arm "die=black,chips=false"` -> an arm of those overrides on the base rules."""
    d = parse_arm_text(text)
    return Arm(",".join(f"{k}={v}" for k, v in d.items()), (), tuple(d.items()))


def unique_labels(arms: list[Arm]) -> list[Arm]:
    """Arms with distinct labels ('base', 'base #2', ...)."""
    seen: dict[str, int] = {}
    out = []
    for a in arms:
        seen[a.label] = seen.get(a.label, 0) + 1
        out.append(
            a if seen[a.label] == 1 else dataclasses.replace(a, label=f"{a.label} #{seen[a.label]}")
        )
    return out


def command_arms(variants: list[str] | None, set_arms: list[str] | None) -> list[Arm]:
    """The arms of `balance compare`: one per --variant, then one per --set-arm; with no
    --variant the rulebook's game ('base') is the baseline."""
    arms = [variant_arm(v) for v in variants or []] + [set_arm(t) for t in set_arms or []]
    if not variants:
        arms.insert(0, variant_arm("base"))
    if len(arms) < 2:
        raise InputError("compare needs at least two arms: give --variant twice or a --set-arm")
    return arms


# --------------------------------------------------------------------------------- playing
def resolve_arms(
    spec: GameSpec, players: int, arms: list[Arm], rules_file: str | None, base_overrides
):
    """Resolve every arm's rules before anything is played (bad arms fail at once)."""
    out = []
    for a in arms:
        over = {**(base_overrides or {}), **a.override_dict}
        out.append(spec.resolve_rules(list(a.variants), over, rules_file, players))
    return out


def arm_moments(arms: int, metrics: list[Metric], players: int) -> ArmMoments:
    """Empty running sums of a comparison: exact (scaled to whole numbers), the seats' win
    indicators kept for every pair of arms (the dice compare any two dice's seat gaps)."""
    names = [m.name for m in metrics]
    wins = [names.index(f"win_{s}") for s in range(players)]
    return ArmMoments(arms, len(metrics), metric_scale(metrics, players), wins)


def play_arms_chunk(game: str, *args: Any, **kw: Any) -> tuple[list[Any], ArmMoments]:
    """Games first .. first + n - 1 under every arm's rules (the same random streams in every
    arm): (one Summary per arm, the ArmMoments of these games, with the seats' win
    indicators as pair metrics). The unit of work of a comparison on every backend; the rows
    are dropped here. `game`: the game's name (simcore.run.chunks.task_game); the other
    arguments as play_arms_rows."""
    summaries, moments, _ = play_arms_rows(task_game(game), *args, **kw)
    return summaries, moments


def play_arms_rows(
    spec: GameSpec,
    players: int,
    arm_rules: list[Any],
    seats: list,
    seed: int,
    first: int,
    n: int,
    rotate: bool | str,
    metrics: list[Metric],
    threads: int | None = None,
) -> tuple[list[Any], ArmMoments, list[Any]]:
    """Games first .. first + n - 1 under every arm's rules (the same random streams in every
    arm; seats: the policy list, rotate as play_chunk's): (one Summary per arm, the
    ArmMoments of these games, one DataFrame of result rows per arm, rows_frame's)."""
    block = np.zeros((len(arm_rules), n, len(metrics)))
    summaries, frames = [], []
    for a, rules in enumerate(arm_rules):
        arm_seats = spec.resolve_seats(seats, rules)  # the weights in effect under the arm
        _, summary, rows = play_games(
            spec, players, rules, arm_seats, seed, first, n, rotate, False, True, threads
        )
        frame = rows_frame(spec, rows, players)
        block[a] = game_metrics(frame, metrics, players)
        summaries.append(summary)
        frames.append(frame)
    moments = arm_moments(len(arm_rules), metrics, players)
    moments.add(block)
    return summaries, moments, frames


class ArmsJob:
    """Every arm of a comparison on games 0 .. games-1 of one seed, in chunks of game indices;
    a chunk is played under every arm by one task (play_arms_chunk), and the chunks' summaries
    and moments are merged in plan order (a simcore.run.jobs.Job)."""

    skip_chunks = 0  # chunks already played (a job restored from a checkpoint: all of them)

    def __init__(
        self, spec, players, arms, arm_rules, seats, seed, games, *, rotate, chunk, start=0
    ):
        self.spec, self.game, self.players = spec, spec.name, players
        self.arms, self.arm_rules, self.seats = list(arms), arm_rules, seats
        self.seed, self.games, self.rotate, self.chunk = int(seed), games, rotate, chunk
        self.start = start  # the first game index (tuning's confirmation: simcore.studies.tuning)
        self.metrics = metric_list(spec, players)
        self.moments = arm_moments(len(arms), self.metrics, players)
        # one SimJob per arm keeps the arm's merged summary and makes its SimResult
        self.per_arm = [
            SimJob(spec, players, games, r, spec.resolve_seats(seats, r), seed, rotate_seats=rotate)
            for r in arm_rules
        ]
        self.total_games = games * len(arms)
        self.done_games = 0
        self.elapsed_s = 0.0

    def tasks(self, backend: str, chunk_fn: Callable[..., Any] = play_arms_chunk) -> TaskList:
        """The chunks' tasks; chunk_fn: the task of one chunk (module-level, for Dask), with
        play_arms_chunk's arguments and a result that begins with its two (robustness's
        play_setting_chunk adds the outcomes)."""
        # on Dask smaller tasks (unless a chunk size is given), to spread over the workers
        chunk = self.chunk or (DASK_CHUNK if backend == "dask" else DEFAULT_CHUNK)
        for job in self.per_arm:
            job.backend = backend
        args = (self.game, self.players, self.arm_rules, self.seats, self.seed)
        games = len(self.arms)  # games per game index
        return TaskList(
            chunk_plan(self.start, self.games, chunk),
            lambda first, n: Task(
                chunk_fn, (*args, first, n, self.rotate, self.metrics), n * games
            ),
            self.skip_chunks,
        )

    def warm(self) -> None:
        self.per_arm[0].warm()

    def fold(self, i: int, result) -> bool:
        summaries, moments = result
        for job, summary in zip(self.per_arm, summaries):
            job.add(i, summary)
        self.moments.merge(moments)
        return False

    def state_json(self) -> dict:
        """The state of a job played to the end, as a checkpoint keeps it: every arm's summary
        and the paired sums."""
        m = self.moments
        return {
            "summaries": [summary_to_json(j.summary) for j in self.per_arm],
            "moments": {"n": m.n, **{k: getattr(m, k).tolist() for k in MOMENT_SUMS}},
        }

    def restore(self, summaries: Any, moments: Any) -> None:
        """The job played to the end, from state_json's parts (InputError saying what does not
        fit): nothing is left to play."""
        if not isinstance(summaries, list) or len(summaries) != len(self.arms):
            raise InputError("it has the wrong number of arms")
        for job, s in zip(self.per_arm, summaries):
            job.summary = summary_from_json(s, job.summary)
            if job.summary.games != self.games:
                raise InputError(f"it holds {job.summary.games} games, not {self.games}")
        m = self.moments
        if not isinstance(moments, dict) or moments.get("n") != self.games:
            raise InputError(f"its sums are not of {self.games} games")
        for k in MOMENT_SUMS:
            try:
                arr = np.asarray(moments.get(k), dtype=np.float64)
            except (TypeError, ValueError):
                arr = None
            if arr is None or arr.shape != getattr(m, k).shape or not np.isfinite(arr).all():
                raise InputError(f"its {k} are not {getattr(m, k).shape} numbers")
            setattr(m, k, arr)
        m.n = self.games
        self.skip_chunks = 1 << 62  # nothing left to play
        self.done_games = self.total_games

    def result(self) -> ArmRun:
        results = []
        for job in self.per_arm:
            job.elapsed_s = self.elapsed_s
            results.append(job.result())
        return ArmRun(
            spec=self.spec,
            players=self.players,
            arms=self.arms,
            metrics=self.metrics,
            results=results,
            moments=self.moments,
            seed=self.seed,
            games=self.games,
            elapsed_s=self.elapsed_s,
            policies=[p.label for p in self.seats],
            rotate_seats=self.rotate,
        )


def arms_job(
    spec: GameSpec,
    players: int,
    arms: list[Arm],
    games: int,
    *,
    seed: int = 1,
    policies: str | list | None = None,
    rotate_seats: bool = False,
    rules_file: str | None = None,
    overrides: dict[str, Any] | None = None,
    chunk_size: int | None = None,
    start: int = 0,
) -> ArmsJob:
    """Validate and resolve the arms (bad arms fail at once) into a job, without playing it.
    start: the first game index (games start .. start + games - 1)."""
    games = check_games(games, 2, " for a comparison")
    seed = check_seed(seed)
    spec.check_players(players)
    if not arms:
        raise InputError("a comparison needs at least one arm")
    if chunk_size is not None and chunk_size < 1:
        raise InputError("chunk size must be at least 1")
    arm_rules = resolve_arms(spec, players, arms, rules_file, overrides)
    seats = policies if isinstance(policies, list) else spec.parse_policies(policies, players)
    start = check_whole(start, "start", maximum=MAX_INDEX + 1 - games)
    return ArmsJob(
        spec,
        players,
        arms,
        arm_rules,
        seats,
        seed,
        games,
        rotate=rotate_seats,
        chunk=chunk_size,
        start=start,
    )


def arms_plan(spec: GameSpec, players: int, arms: list[Arm], games: int, **kw: Any) -> Plan:
    """Any number of arms as a plan (its result an ArmRun); kw as arms_job."""
    job = arms_job(spec, players, arms, games, **kw)
    return Plan([job], job.result)


def run_arms(spec: GameSpec, players: int, arms: list[Arm], games: int, **kw: Any) -> ArmRun:
    """Play every arm on games 0 .. games-1 of `seed` (common random numbers), chunk by chunk.

    kw: seed, policies, rotate_seats, rules_file, overrides (rules fields set in every arm,
    under each arm's own overrides), chunk_size (as arms_job), and the run options
    backend, scheduler, workers, threads, progress (as simcore.run.jobs.run_jobs). The result
    is the same for every backend, number of workers and chunk size."""
    return play(arms_plan, spec, players, arms, games, **kw)


# --------------------------------------------------------------------------------- compare
def compare_plan(spec: GameSpec, players: int, arms: list[Arm], games: int, **kw: Any) -> Plan:
    """A comparison (at least two arms, the first the baseline, labels made distinct) as a
    plan to run with others; its result is an ArmRun (analysis.compare.comparison turns it
    into the table and verdicts); kw as arms_job."""
    if len(arms) < 2:
        raise InputError("a comparison needs at least two arms (the first is the baseline)")
    return arms_plan(spec, players, unique_labels(arms), games, **kw)


def run_compare(spec: GameSpec, players: int, arms: list[Arm], games: int, **kw: Any) -> ArmRun:
    """Play a comparison (compare_plan); kw as run_arms."""
    return play(compare_plan, spec, players, arms, games, **kw)


# --------------------------------------------------------------------------------- dice
def die_label(faces: tuple[int, ...], named: dict[str, tuple[int, ...]]) -> str:
    """A die's name when it is one of the named dice, else its faces '0,1,1,2,2,3'."""
    for k, v in named.items():
        if tuple(v) == tuple(faces):
            return k
    return ",".join(map(str, faces))


def parse_dice(spec: GameSpec, dice: list[str] | None) -> list[tuple[str, tuple[int, ...]]]:
    """The box's dice, then each given die ('beige' or '0,1,1,2,2,3'), validated; duplicates of
    a die already listed are dropped."""
    named = spec.named_values.get("die")
    if not named:
        games = ", ".join(g.name for g in all_games().values() if "die" in g.named_values)
        raise RulesError(f"{spec.name} has no die rules field: the dice analysis is for {games}")
    out = [(k, tuple(v)) for k, v in named.items()]
    for text in dice or []:
        rules = apply_overrides(spec.rules_cls(), {"die": text}, spec.named_values)
        faces = tuple(rules.die)
        if not faces:
            raise RulesError(f"--die '{text}': give a die name ({', '.join(named)}) or faces")
        rules.validate(None)
        if faces not in [f for _, f in out]:
            out.append((die_label(faces, named), faces))
    return out


def rulebook_die(spec: GameSpec, players: int) -> tuple[int, ...]:
    """The die the default rules use for this player count."""
    return tuple(spec.resolved(spec.rules_cls(), players)["die"])


def dice_plan(
    spec: GameSpec,
    player_counts: list[int] | None,
    games: int,
    *,
    dice: list[str] | None = None,
    **kw: Any,
) -> Plan:
    """Every die for every player count (None: every count the game allows) as a plan: one
    job per player count, each player count's dice on the same games, the rulebook's die
    first. Its result is {players: ArmRun} (analysis.compare.dice_tables); kw as arms_job."""
    if "die" in (kw.get("overrides") or {}):
        raise InputError("--set die=... is what --die is for")
    all_dice = parse_dice(spec, dice)
    if player_counts is None:
        player_counts = list(range(spec.min_players, spec.max_players + 1))
    if not player_counts:
        raise InputError("--players: give at least one player count")
    for p in player_counts:
        spec.check_players(p)
    jobs = {}
    for p in player_counts:
        book = rulebook_die(spec, p)
        # the rulebook's die first: every paired difference is against it
        order = sorted(all_dice, key=lambda d: d[1] != book)
        if order[0][1] != book:
            order.insert(0, (die_label(book, spec.named_values["die"]), book))
        arms = [Arm(name, (), (("die", ",".join(map(str, f))),)) for name, f in order]
        jobs[p] = arms_job(spec, p, arms, games, **kw)
    return Plan(list(jobs.values()), lambda: {p: job.result() for p, job in jobs.items()})


def run_dice(spec: GameSpec, player_counts: list[int] | None, games: int, **kw: Any) -> dict:
    """Play the dice analysis (dice_plan); all player counts run together (on a cluster,
    every chunk of every die at once); kw: dice, and as run_arms."""
    return play(dice_plan, spec, player_counts, games, **kw)


# --------------------------------------------------------------------------------- sweep
def parse_param(spec: GameSpec, text: str) -> tuple[str, list[str]]:
    """'key=v1,v2,v3' -> (key, [values]). List-valued fields (die, streets, ...) separate their
    values with ';' ('die=0,1,1,2,2,3;1,2,2,3,3,4'), or give names ('die=beige,black')."""
    if "=" not in text:
        raise RulesError(f"--param expects key=v1,v2,..., got '{text}'")
    key, vals = (t.strip() for t in text.split("=", 1))
    tp = typing.get_type_hints(spec.rules_cls).get(key)
    if tp is None:
        fields = ", ".join(f.name for f in dataclasses.fields(spec.rules_cls))
        raise RulesError(f"--param '{key}' is not a rules field of {spec.name} (fields: {fields})")
    named = spec.named_values.get(key, {})
    if ";" in vals:
        values = [v.strip() for v in vals.split(";")]
    else:
        values = [v.strip() for v in vals.split(",")]
        if typing.get_origin(tp) is tuple and not all(v in named for v in values):
            raise RulesError(
                f"--param {key} takes lists: separate the values with ';' "
                f"(e.g. {key}=0,1,1,2,2,3;1,2,2,3,3,4)"
            )
    if any(v == "" for v in values):
        raise RulesError(f"--param '{text}': empty value")
    if len(set(values)) != len(values):
        raise InputError(f"--param '{text}': a value is given twice")
    return key, values


def sweep_plan(
    spec: GameSpec,
    players: int,
    params: list[str],
    games: int,
    *,
    variants: list[str] | None = None,
    metrics: list[str] | None = None,
    **kw: Any,
) -> Plan:
    """Every combination of the parameter values (one or two --param), on the same games, as a
    plan; its result is a SweepRun (analysis.compare.sweep_table); kw as arms_job. metrics:
    the metrics to be shown, checked here, before any game is played."""
    spec.check_players(players)
    known = [m.name for m in shown_metrics(metric_list(spec, players))]
    bad = [m for m in metrics or [] if m not in known]
    if bad:
        raise InputError(f"--metric '{bad[0]}' is not a metric here (known: {', '.join(known)})")
    if not params:
        raise InputError("--param: give at least one key=v1,v2,...")
    if len(params) > 2:
        raise InputError("a sweep takes one or two --param options")
    parsed = [parse_param(spec, p) for p in params]
    keys = [k for k, _ in parsed]
    if len(set(keys)) != len(keys):
        raise InputError("--param: the same rules field is given twice")
    combos = list(itertools.product(*[v for _, v in parsed]))
    if len(combos) > MAX_SWEEP_SETTINGS:
        raise InputError(
            f"a sweep of {len(combos)} settings is too large (at most {MAX_SWEEP_SETTINGS})"
        )
    arms = [
        Arm(
            ", ".join(f"{k}={v}" for k, v in zip(keys, c)),
            tuple(variants or ()),
            tuple(zip(keys, c)),
        )
        for c in combos
    ]
    inner = (arms_plan if len(arms) == 1 else compare_plan)(spec, players, arms, games, **kw)
    return Plan(inner.jobs, lambda: SweepRun(keys, inner.finish()))


def run_sweep(spec: GameSpec, players: int, params: list[str], games: int, **kw: Any) -> SweepRun:
    """Play a sweep (sweep_plan); kw: variants, and as run_arms."""
    return play(sweep_plan, spec, players, params, games, **kw)
