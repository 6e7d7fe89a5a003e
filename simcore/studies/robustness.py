"""`balance robustness`: the simulator's side. The settings grid (lineups of players and
component readings, per player count), each setting played as the arms of a comparison on
common random numbers (simcore.studies.compare), with a tally of the games' outcomes for the
detection of degenerate play; progress per setting, a checkpoint (simcore.run.checkpoint)
saved after every setting and a resume that skips the settings already played.
analysis.robustness turns what is played here into verdicts.

The grid, per player count (docs/robustness.md):
- lineups, on the rulebook's components: `random` in every seat, each other preset in every
  seat, a mixed population (each game's lineup drawn from the presets, every drawn lineup
  played in every rotation: simcore.frame.seats), and `search` in every seat at two budgets
  (a quarter of the game's default budget and the default), with fewer games (SEARCH_SHARE);
- component readings: the default lineup on each component reading the game registers
  (VARIANTS.add_reading) and on each [reading.NAME] of a --rules-file.
With --ladder (LadderOptions) the lineups are the ladder's rungs in every seat (rung_settings,
simcore.studies.ladder.ladder_rungs), and the ladder's rating matches of those rungs are played
beside them (RatingMatches: analysis.robustness names each rung with its rating).
Each setting but the search ones plays every variant of the game's report (GameSpec.
report_variants), then every [variant.NAME] of a --rules-file and every variant asked for
(`variants`), on the same games (under a reading, the reading and then the variant); the
search settings play the rules alone (their games cost 100-1,000 times more). The base rules
of every setting are the defaults with `overrides` (--set). A variant that cannot compose with
a setting's reading (or a reading with the base rules) is skipped for that setting with the
reason (`Skipped`), not a failure of the whole run.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from simcore.base.errors import InputError, RulesError
from simcore.base.inputs import MAX_GAMES, check_games, check_seed, check_whole
from simcore.base.results import ArmRun
from simcore.base.rulesbase import load_rules_file, rules_hash, split_variants
from simcore.frame.registry import GameSpec
from simcore.frame.search import PARAMS as SEARCH_PARAMS
from simcore.run.checkpoint import CheckpointKind, JobStates
from simcore.run.chunks import POPULATION, task_game
from simcore.run.jobs import Job, Plan, run_plans, split_run_options
from simcore.studies.compare import Arm, ArmsJob, arms_job, play_arms_rows
from simcore.studies.ladder import (
    MIN_RATING_GAMES,
    SEARCH_RUNGS,
    MatchJob,
    MatchResult,
    Rung,
    ladder_rungs,
    match_jobs,
    match_plan,
)
from simcore.studies.outcomes import Outcomes, outcomes_of

SEARCH_SHARE = (10, 40)  # the search settings play games // 10 (low budget), games // 40 (default)
# a robustness checkpoint: the state of every finished setting (setting key -> SettingJob's
# state_json); format 1 since robustness has checkpoints
CHECKPOINT = CheckpointKind(
    "robustness",
    1,
    ("settings",),
    "command, game, players, games, seed, settings or rules",
)
STATE_KEYS = {"summaries", "moments", "outcomes", "elapsed_s"}  # of a setting's saved state


# --------------------------------------------------------------------------------- settings
@dataclass(frozen=True)
class Setting:
    """One setting of the grid: a player count, a lineup and the components it plays on."""

    players: int
    kind: str  # 'lineup' or 'components'
    name: str  # e.g. 'balanced', 'mixed', 'search:budget=16', a reading's name
    policies: str  # the policy list (parse_policies text); a pool for the mixed population
    seating: bool | str  # False (fixed seats) or simcore.run.chunks.POPULATION
    reading: str = ""  # the component reading played ('' the rulebook's components)
    variants: tuple[str, ...] = ("base",)  # the arms: the report's variants (the first 'base')
    games: int = 0
    reference: bool = False  # the default lineup on the rulebook's components

    @property
    def key(self) -> str:
        return f"{self.players}p/{self.kind}/{self.name}"

    @property
    def label(self) -> str:
        """Words for a designer: 'balanced in every seat', 'reading dark-b'."""
        if self.kind == "components":
            return f"reading {self.name}"
        if self.seating == POPULATION:
            return "mixed population"
        return f"{self.name} in every seat"

    def arms(self) -> list[Arm]:
        """The arms of the setting, labelled by variant (the same labels in every setting)."""
        out = []
        for v in self.variants:
            parts = ([self.reading] if self.reading else []) + ([] if v == "base" else [v])
            out.append(Arm(v, tuple(parts) or ("base",)))
        return out


def search_budgets(spec: GameSpec) -> tuple[int, int]:
    """The two budgets of the search settings: a quarter of the game's default and the default."""
    default = int(spec.search_defaults.get("budget", SEARCH_PARAMS["budget"][0]))
    return max(default // 4, 1), default


def lineup_settings(spec: GameSpec, players: int, games: int, variants: tuple[str, ...]) -> list:
    """The lineup settings of one player count, on the rulebook's components."""
    out = []
    for name in spec.presets:
        out.append(
            Setting(
                players,
                "lineup",
                name,
                name,
                False,
                variants=variants,
                games=games,
                reference=name == spec.default_policy,
            )
        )
    pool = ",".join(spec.presets)
    out.append(
        Setting(players, "lineup", "mixed", pool, POPULATION, variants=variants, games=games)
    )
    if "search" in spec.policies:
        for budget, share in zip(search_budgets(spec), SEARCH_SHARE):
            name = f"search:budget={budget}"
            out.append(Setting(players, "lineup", name, name, False, games=max(games // share, 2)))
    return out


def rung_settings(
    spec: GameSpec,
    players: int,
    games: int,
    search_games: int,
    variants: tuple[str, ...],
    rungs: list,
) -> list:
    """The lineup settings of --ladder: each rung of the ladder (simcore.studies.ladder.
    ladder_rungs) in every seat, on the rulebook's components; a search rung plays
    search_games and the rules alone, as the search settings of the grid; `trained` where a
    model is shipped for the player count."""
    return [
        Setting(
            players,
            "lineup",
            r.name,
            r.name,
            False,
            variants=("base",) if r.is_search else variants,
            games=search_games if r.is_search else games,
            reference=r.name == spec.default_policy,
        )
        for r in rungs
        if r.kind != "trained" or spec.has_model(players)
    ]


def reading_settings(
    spec: GameSpec, players: int, games: int, variants: tuple[str, ...], readings: list[str]
) -> list:
    """The component settings of one player count: the default lineup on each reading."""
    return [
        Setting(
            players,
            "components",
            r,
            spec.default_policy,
            False,
            reading=r,
            variants=variants,
            games=games,
        )
        for r in readings
    ]


def component_readings(spec: GameSpec, rules_file: str | None) -> dict[str, dict[str, str]]:
    """Every component reading: the game's registered ones (VARIANTS.add_reading), then the
    rules file's [reading.NAME] tables (with their own `replaces` and `source` texts): name ->
    {'replaces', 'source'}. A [variant.NAME] table is a variant, not a reading
    (variant_list)."""
    return {
        name: {"replaces": rep, "source": src}
        for name, (rep, src) in spec.readings(rules_file).items()
    }


def variant_list(spec: GameSpec, variants: list[str] | None, rules_file: str | None) -> tuple:
    """The variants a report or a robustness run compares: the game's report variants
    (GameSpec.report_variants, 'base' first), then every [variant.NAME] of the rules file,
    then each of `variants` (--variant: a name or a composition such as short+mine), each
    once. An unknown name is refused (RulesError, with the known names)."""
    tables, readings = (
        load_rules_file(rules_file, spec.rules_cls, spec.variants.names(), spec.named_values)
        if rules_file
        else ({}, {})
    )
    known = set(spec.variants.names()) | set(tables)
    out = list(spec.report_variants)
    for v in [t for t in tables if t not in readings] + [v.strip() for v in variants or []]:
        for part in split_variants([v]):
            if part not in known:
                names = ", ".join(spec.variants.names() + sorted(tables))
                raise RulesError(f"unknown variant '{part}' for {spec.name} (known: {names})")
        if v and v not in out:
            out.append(v)
    return tuple(out)


def players_text(players: int) -> str:
    """'1 player', '3 players'."""
    return f"{players} player" + ("s" if players != 1 else "")


@dataclass(frozen=True)
class Skipped:
    """A variant (or a whole reading: variant 'base') left out of one setting because its
    rules cannot be composed there, and why (the rules' own message)."""

    players: int
    setting: str  # the setting's label ('reading tiles-more-monsters')
    key: str  # the setting's key
    variant: str
    reason: str

    @property
    def line(self) -> str:
        what = "the reading" if self.variant == "base" else f"variant `{self.variant}`"
        return f"{players_text(self.players)}, {self.setting}: {what} skipped ({self.reason})"

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "setting": self.key,
            "label": self.setting,
            "variant": self.variant,
            "reason": self.reason,
            "line": self.line,
        }


def composing(
    spec: GameSpec,
    players: int,
    reading: str,
    variants: tuple[str, ...],
    overrides: dict[str, Any] | None,
    rules_file: str | None,
    own: tuple[str, ...] = (),
) -> tuple[tuple[str, ...], dict[str, str]]:
    """The variants whose rules resolve on `reading` ('' the rulebook's components) with the
    base rules (`overrides`) for `players`, and the others with the reason: (kept, {variant:
    reason}). 'base' is kept first when the reading itself resolves; when it does not,
    nothing is kept. The base rules that do not resolve without a reading raise RulesError,
    and so does a variant of `own` (the designer's: --variant, the rules file's) that does not
    resolve on the rulebook's components: it was asked for."""
    kept, why = [], {}
    for v in variants:
        parts = ([reading] if reading else []) + ([] if v == "base" else [v])
        try:
            spec.resolve_rules(parts, overrides, rules_file, players)
        except RulesError as e:
            if v == "base" and not reading:
                raise  # the base rules themselves (a bad --set): an error, not a skip
            if v in own and not reading:
                raise RulesError(
                    f"variant '{v}' cannot be played ({players} players): {e}"
                ) from None
            why[v] = " ".join(str(e).split())
            if v == "base":
                return (), {"base": why[v]}
            continue
        kept.append(v)
    return tuple(kept), why


def play_setting_chunk(
    game, players, arm_rules, seats, seed, first, n, rotate, metrics, threads=None
):
    """A chunk of a robustness setting: play_arms_chunk's (summaries, moments) and the
    Outcomes of every arm (`game`: the game's name, simcore.run.chunks.task_game)."""
    spec = task_game(game)
    summaries, moments, frames = play_arms_rows(
        spec, players, arm_rules, seats, seed, first, n, rotate, metrics, threads
    )
    return summaries, moments, [outcomes_of(spec, f, players) for f in frames]


class SettingJob(Job):
    """One setting of the grid: the ArmsJob of its arms on the same games (arms_job's,
    validated and built), played chunk by chunk with the outcomes tallied beside; when its
    last chunk is folded, `done(job)` is called (progress, checkpoint)."""

    def __init__(self, setting: Setting, arms: ArmsJob, done: Callable[[SettingJob], None]):
        self.setting, self.arms_job, self.done = setting, arms, done
        self.label = f"{players_text(setting.players)}, {setting.label}"  # its progress line
        self.game, self.players = arms.game, arms.players
        self.total_games, self.done_games = arms.total_games, 0
        self.outcomes = [Outcomes() for _ in arms.arms]
        self.n_chunks = -1

    def tasks(self, backend: str):
        todo = self.arms_job.tasks(backend, play_setting_chunk)
        self.n_chunks = len(todo.plan)
        return todo

    def warm(self) -> None:
        self.arms_job.warm()

    def fold(self, i: int, result) -> bool:
        summaries, moments, outcomes = result
        self.arms_job.fold(i, (summaries, moments))
        for mine, more in zip(self.outcomes, outcomes):
            mine.add(more)
        if i == self.n_chunks - 1:
            self.done(self)
        return False

    def result(self) -> ArmRun:
        self.arms_job.elapsed_s = self.elapsed_s
        return self.arms_job.result()

    # ------------------------------------------------------------------ checkpoint
    def state_json(self) -> dict:
        """The state of the setting played to the end, as its checkpoint keeps it."""
        return {
            **self.arms_job.state_json(),
            "outcomes": [o.to_json() for o in self.outcomes],
            "elapsed_s": self.elapsed_s,
        }

    def restore(self, data: Any) -> None:
        """The state of a finished setting from a checkpoint (InputError if it does not fit):
        nothing is left to play."""
        key = self.setting.key
        if not isinstance(data, dict) or set(data) != STATE_KEYS:
            raise InputError(f"setting {key} has the wrong fields")
        outcomes = data["outcomes"]
        if not isinstance(outcomes, list) or len(outcomes) != len(self.arms_job.arms):
            raise InputError(f"setting {key} has the wrong number of arms")
        try:
            self.arms_job.restore(data["summaries"], data["moments"])
        except InputError as e:
            raise InputError(f"setting {key}: {e}") from None
        self.outcomes = [Outcomes.from_json(o, self.players) for o in outcomes]
        elapsed = data["elapsed_s"]
        if isinstance(elapsed, bool) or not isinstance(elapsed, (int, float)) or not elapsed >= 0:
            raise InputError(f"setting {key}: its elapsed_s is not a time in seconds")
        self.elapsed_s = float(elapsed)
        self.done_games = self.total_games


# --------------------------------------------------------------------------------- the run
@dataclass
class RatingMatches:
    """The rating matches of one player count of a --ladder run (the rungs played as settings,
    the ladder's match plan without its self-play): what analysis.ladder.fit_ratings reads."""

    players: int
    rungs: list[Rung]
    reference: str
    matches: list[MatchResult]


@dataclass
class RobustnessRun:
    """Everything a robustness run played: per setting (in grid order) its ArmRun and the
    Outcomes of each arm, the component readings, and the run's provenance."""

    spec: GameSpec
    player_counts: list[int]
    games: int
    seed: int
    settings: list[Setting]
    runs: dict[str, ArmRun]  # setting key -> its arms played
    outcomes: dict[str, list[Outcomes]]  # setting key -> per arm
    readings: dict[str, dict[str, str]]
    rules_file: str | None
    elapsed_s: float
    resumed: list[str] = field(default_factory=list)  # settings restored from the checkpoint
    variants: tuple[str, ...] = ()  # the variants compared in the settings (variant_list)
    overrides: dict[str, Any] = field(default_factory=dict)  # --set: in every setting's rules
    skipped: list[Skipped] = field(default_factory=list)  # pairs that could not be composed
    ladders: dict[int, RatingMatches] = field(default_factory=dict)  # --ladder: per player count

    @property
    def skipped_lines(self) -> list[str]:
        """One line per (setting, variant) skipped, saying why."""
        return [k.line for k in self.skipped]


def grid(
    spec: GameSpec,
    counts: list[int],
    games: int,
    readings: list[str],
    settings: list[str] | None,
    search: bool = True,
    variants: tuple[str, ...] | None = None,
    rungs: list | None = None,
    search_games: int = 0,
) -> list[Setting]:
    """The settings of the grid in order: per player count, the lineups, then the readings;
    `settings` (names) keeps only those lineups and readings (None: all); search=False leaves
    out the search settings; variants: the arms of every setting but the search ones (None:
    the game's report variants); rungs (--ladder): the lineups are these rungs in every seat
    (rung_settings; the search rungs play search_games)."""
    variants = tuple(variants or spec.report_variants)
    out = []
    for p in counts:
        lineups = (
            lineup_settings(spec, p, games, variants)
            if rungs is None
            else rung_settings(spec, p, games, search_games, variants, rungs)
        )
        out += [s for s in lineups if search or not s.name.startswith("search")]
        out += reading_settings(spec, p, games, variants, readings)
    if settings is not None:
        known = sorted({s.name for s in out})
        bad = [n for n in settings if n not in known]
        if bad:
            raise InputError(f"unknown setting '{bad[0]}' (known: {', '.join(known)})")
        out = [s for s in out if s.name in settings or s.reference]
    return out


@dataclass
class GridPlan(Plan):
    """The robustness grid as a plan, and the (setting, variant) pairs it leaves out."""

    skipped: list[Skipped] = field(default_factory=list)


def composed_grid(
    spec: GameSpec,
    settings: list[Setting],
    overrides: dict[str, Any] | None,
    rules_file: str | None,
) -> tuple[list[Setting], list[Skipped]]:
    """The settings with the variants that cannot compose with each one's reading (or with the
    base rules) left out, and what was left out with the reason; a reading that does not
    resolve with the base rules is left out as a whole."""
    out, skipped = [], []
    for s in settings:
        own = tuple(v for v in s.variants if v not in spec.report_variants)
        kept, why = composing(spec, s.players, s.reading, s.variants, overrides, rules_file, own)
        skipped += [Skipped(s.players, s.label, s.key, v, r) for v, r in why.items()]
        if kept:
            out.append(dataclasses.replace(s, variants=kept))
    return out, skipped


def robustness_plan(
    spec: GameSpec,
    player_counts: list[int] | None,
    games: int,
    *,
    seed: int = 1,
    rules_file: str | None = None,
    variants: list[str] | None = None,
    overrides: dict[str, Any] | None = None,
    settings: list[str] | None = None,
    search: bool = True,
    chunk_size: int | None = None,
    checkpoint: str | None = None,
    resume: bool = False,
    reference_games: int | None = None,
    ladder: bool = False,
    top_budget: int | None = None,
    search_rungs: int | None = None,
    search_games: int | None = None,
) -> GridPlan:
    """The robustness grid of a game as a plan (its result a RobustnessRun). player_counts:
    None for every count the game allows; games: per setting (the search settings play fewer,
    SEARCH_SHARE); settings: the names of the settings to play (the reference setting, the
    default lineup on the rulebook's components, always); checkpoint/resume as simulate's, per
    setting; search=False: without the search settings (the report's cheap grid); variants:
    further variants compared in every setting (variant_list); overrides: rules fields set in
    the base rules of every setting (--set); reference_games: the reference settings' games
    when not `games` (the report plays them as its variant comparison, so that its Findings
    and its variant section rest on the same games). ladder, top_budget, search_rungs,
    search_games: the lineups are the ladder's rungs, rated (LadderOptions). The run options'
    progress writes a line per finished setting on stderr (simcore.run.jobs)."""
    opts = LadderOptions.check(spec, games, ladder, top_budget, search_rungs, search_games)
    games, seed = check_games(games, opts.min_games, " per setting"), check_seed(seed)
    counts = opts.player_counts(spec, player_counts)
    readings = component_readings(spec, rules_file)
    arms = variant_list(spec, variants, rules_file)
    every = grid(
        spec, counts, games, list(readings), settings, search, arms, opts.rungs, opts.search_games
    )
    grid_, skipped = composed_grid(spec, every, overrides, rules_file)
    if reference_games is not None:
        reference_games = check_games(reference_games, 2, " per reference setting")
        grid_ = [dataclasses.replace(s, games=reference_games) if s.reference else s for s in grid_]
    started = time.perf_counter()
    states = JobStates(CHECKPOINT, _job_key)
    common = dict(seed=seed, rules_file=rules_file, overrides=overrides, chunk_size=chunk_size)
    jobs = [SettingJob(s, setting_arms(spec, s, **common), states.save) for s in grid_]
    rating = opts.rating_jobs(
        spec, grid_, games, seed, overrides, rules_file, chunk_size, states.save
    )
    every_job = [*jobs, *rating]
    fingerprint = {"command": "robustness", "game": spec.name, "seed": seed}
    fingerprint["settings"] = [_fingerprint(j) for j in every_job]
    restored = states.open(checkpoint, fingerprint, resume, every_job)

    def finish() -> RobustnessRun:
        return RobustnessRun(
            spec=spec,
            player_counts=counts,
            games=games,
            seed=seed,
            settings=grid_,
            runs={j.setting.key: j.result() for j in jobs},
            outcomes={j.setting.key: j.outcomes for j in jobs},
            readings=readings,
            rules_file=rules_file,
            elapsed_s=time.perf_counter() - started,
            resumed=restored,
            variants=arms,
            overrides=dict(overrides or {}),
            skipped=skipped,
            ladders=opts.ladders(spec, grid_, rating),
        )

    return GridPlan(every_job, finish, skipped)


def setting_arms(spec: GameSpec, s: Setting, **kw: Any) -> ArmsJob:
    """The arms of a setting as a job (arms_job: validated and resolved); kw: seed,
    rules_file, overrides, chunk_size."""
    seats = spec.parse_policies(s.policies, _entries(s))
    return arms_job(
        spec, s.players, s.arms(), s.games, policies=seats, rotate_seats=s.seating, **kw
    )


def _fingerprint(job: SettingJob | MatchJob) -> list:
    """A job in the checkpoint's fingerprint: a setting's key, games, lineup and the rules
    hash of each arm; a rating match's key, games and chunk."""
    if isinstance(job, MatchJob):
        return [_job_key(job), job.match.games, job.plan.chunk]
    a = job.arms_job
    hashes = [rules_hash(r.resolved(a.players)) for r in a.arm_rules]
    return [job.setting.key, a.games, [p.label for p in a.seats], hashes]


def _job_key(job: SettingJob | MatchJob) -> str:
    """A job's key in the checkpoint: the setting's, or '3p/rating/MATCH' for a rating match."""
    if isinstance(job, SettingJob):
        return job.setting.key
    return f"{job.players}p/rating/{job.match.key}"


@dataclass(frozen=True)
class LadderOptions:
    """--ladder and its options, checked: the rungs (None without --ladder), the games of a
    search rung's setting and rating matches, and what --ladder needs of the grid (at least
    the ladder's MIN_RATING_GAMES games, 2 players)."""

    rungs: list[Rung] | None = None
    search_games: int = 0
    min_games: int = 2
    min_players: int = 1

    @classmethod
    def check(cls, spec, games, ladder, top_budget, search_rungs, search_games) -> LadderOptions:
        """The options (InputError, one line: a ladder option without --ladder, a budget out
        of range, too few games for a rating)."""
        if not ladder:
            given = [
                name
                for name, v in (
                    ("--top-budget", top_budget),
                    ("--search-rungs", search_rungs),
                    ("--search-games", search_games),
                )
                if v is not None
            ]
            if given:
                raise InputError(f"{given[0]} is an option of --ladder: add --ladder")
            return cls()
        rungs = ladder_rungs(
            spec, top_budget, SEARCH_RUNGS if search_rungs is None else search_rungs, trained=True
        )
        games = check_games(games, MIN_RATING_GAMES, " per setting for a rating (--ladder)")
        if search_games is None:
            search_games = max(games // SEARCH_SHARE[0], MIN_RATING_GAMES)
        search_games = check_whole(
            search_games, "--search-games", MIN_RATING_GAMES, " for a rating", maximum=MAX_GAMES
        )
        return cls(rungs, search_games, MIN_RATING_GAMES, 2)

    def player_counts(self, spec: GameSpec, counts: list[int] | None) -> list[int]:
        """The player counts of the grid, checked (None: every count the game allows, from 2
        with --ladder)."""
        counts = counts or list(
            range(max(spec.min_players, self.min_players), spec.max_players + 1)
        )
        for p in counts:
            spec.check_players(p)
            if p < self.min_players:
                raise InputError("--ladder rates players against each other: --players 2 or more")
        return counts

    def played(self, grid_: list[Setting], players: int) -> list[Rung]:
        """The rungs played as settings of a player count (all of them, or those of --setting)."""
        names = {s.name for s in grid_ if s.players == players and s.kind == "lineup"}
        return [r for r in self.rungs or [] if r.name in names]

    def rating_jobs(self, spec, grid_, games, seed, overrides, rules_file, chunk_size, done):
        """The rating matches of the ladder's match plan (simcore.studies.ladder.match_plan,
        without its self-play: the settings are that) for the rungs played, per player count,
        on the rulebook's components with --set; none without --ladder."""
        if self.rungs is None:
            return []
        out = []
        for p in dict.fromkeys(s.players for s in grid_):
            rungs = self.played(grid_, p)
            plan = match_plan(rungs, spec.default_policy, games, self.search_games, p)
            matches = [m for m in plan if m.other is not None]
            rules = spec.resolve_rules((), overrides, rules_file, p)
            for j in match_jobs(spec, p, matches, rules, seed, self.search_games, chunk_size, done):
                j.label = f"{players_text(p)}, rating: {j.match.label}"
                out.append(j)
        return out

    def ladders(self, spec, grid_, rating: list[MatchJob]) -> dict[int, RatingMatches]:
        """The rating matches played, per player count with any (empty without --ladder)."""
        out: dict[int, RatingMatches] = {}
        for j in rating:
            rungs = self.played(grid_, j.players)
            rm = out.setdefault(j.players, RatingMatches(j.players, rungs, spec.default_policy, []))
            rm.matches.append(j.result())
        return out


def _entries(s: Setting) -> int:
    """The entries of a setting's policy list: one per seat, or the pool of a population."""
    return len(s.policies.split(",")) if s.seating == POPULATION else s.players


def run_robustness(spec: GameSpec, player_counts: list[int] | None, games: int, **kw: Any):
    """Play the robustness grid (robustness_plan) and return the RobustnessRun; kw: as
    robustness_plan and the run options of simcore.run.jobs.run_jobs (backend, scheduler, workers,
    threads, progress). Ctrl-C or SIGTERM raise KeyboardInterrupt; the settings finished
    before are in the checkpoint, and --resume plays only the others."""
    run_options, kw = split_run_options(kw)
    (result,) = run_plans([robustness_plan(spec, player_counts, games, **kw)], **run_options)
    return result
