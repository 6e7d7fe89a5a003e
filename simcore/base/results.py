"""What the studies hand to the renderers (issue #48): the results `analysis` reads, named here
in the base so that `analysis` (which imports only the base) can annotate its inputs.

Each protocol lists what a renderer reads of a study's result; the studies' own dataclasses
fit them structurally, without importing them (a SimResult is a RunResult, an ArmRun an
ArmsResult, a RobustnessRun a RobustnessResult, ...). The report's runs (`ReportRuns`) are a
dataclass with a field per section, built by simcore.studies.report.play_report and
read by attribute in analysis.report and analysis.answer.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import pandas as pd

from simcore.base.metrics import ArmMoments, Metric


# --------------------------------------------------------------------------- a game
class GameInfo(Protocol):
    """What a renderer reads of a game (simcore.frame.registry.GameSpec)."""

    name: str
    title: str
    default_policy: str
    policies: dict[str, Any]  # name -> its PolicySpec
    report_variants: tuple[str, ...]
    no_search: str  # why the game has no search player ('' when it has one)
    named_values: dict[str, dict[str, Any]]

    @property
    def presets(self) -> list[str]: ...

    @property
    def game_counters(self) -> list[str]: ...

    @property
    def seat_counters(self) -> list[str]: ...

    def nearest_players(self, players: int) -> int: ...

    def describe(self) -> dict[str, Any]: ...


# --------------------------------------------------------------------------- one run
class RunSummary(Protocol):
    """The merged counts of a run's games (simcore.run.chunks.Summary): arrays per seat, per
    entry of the policy list, per round, per end reason, per counter."""

    games: int
    seat_wins: np.ndarray  # [seat] outright wins
    seat_first: np.ndarray  # [seat] games in first place, shared or not
    shared_wins: int
    no_winner: int
    policy_games: np.ndarray  # [entry] games played by the policy list's entry
    policy_wins: np.ndarray  # [entry] its outright wins
    policy_score: np.ndarray  # [entry] the sum of its final scores
    rounds_hist: np.ndarray  # [rounds] games
    turns_hist: np.ndarray  # [turns] games
    end_reasons: np.ndarray  # [end reason] games
    score_sum: np.ndarray  # [seat]
    score_hist: np.ndarray  # [seat, bin] games, bins of score_width points
    score_width: int
    tiebreak_sum: np.ndarray  # [seat]
    counter_names: list[str]
    counter_sum: np.ndarray  # [counter]
    counter_sq: np.ndarray  # [counter]
    errors: int  # games that broke an invariant (checked mode)
    n_feel: int  # feel parts per game (0: no feel sums, a solo game)
    feel_sum: np.ndarray
    feel_prod: np.ndarray
    margin_hist: np.ndarray  # [1, bin] games by winning margin


class RunResult(Protocol):
    """One setting played (simcore.run.runner.SimResult): its provenance and merged summary."""

    game: str
    title: str
    players: int
    games: int
    seed: int
    resolved_rules: dict
    rules_hash: str
    policies: list[str]
    rotate_seats: bool
    summary: RunSummary
    rows: pd.DataFrame | None
    elapsed_s: float
    threads: int
    end_reasons: tuple[str, ...]
    checked: bool
    games_requested: int
    precision: float | None
    partial: bool

    @property
    def max_half_width(self) -> float: ...

    @property
    def precision_reached(self) -> bool | None: ...

    @property
    def games_per_s(self) -> float: ...


class Trace(Protocol):
    """One game recorded action by action (simcore.frame.replay.GameTrace)."""

    def text(self) -> str: ...

    def jsonl(self) -> str: ...


# --------------------------------------------------------------------------- arms
class ArmInfo(Protocol):
    """One arm of a comparison (simcore.studies.compare.Arm): its label and rules."""

    @property
    def label(self) -> str: ...

    @property
    def variants(self) -> tuple[str, ...]: ...

    @property
    def overrides(self) -> tuple[tuple[str, Any], ...]: ...

    @property
    def override_dict(self) -> dict[str, Any]: ...


class ArmsResult(Protocol):
    """Arms played on the same games (simcore.studies.compare.ArmRun): a RunResult per arm and
    the running sums of the per-game metrics (metrics[j] is column j of the moments)."""

    spec: GameInfo
    players: int
    arms: list[ArmInfo]
    metrics: list[Metric]
    results: list[RunResult]
    moments: ArmMoments
    seed: int
    games: int
    elapsed_s: float
    policies: list[str]
    rotate_seats: bool

    @property
    def index(self) -> dict[str, int]: ...


class SweepResult(Protocol):
    """A sweep played (simcore.studies.compare.SweepRun): one arm per setting of the params."""

    params: list[str]
    run: ArmsResult


# --------------------------------------------------------------------------- robustness
class GameOutcomes(Protocol):
    """The tally of a setting's outcomes (simcore.studies.outcomes.Outcomes): how often each
    (scores, length) outcome came, the games nobody scored in, the games ended by the limit."""

    counts: Counter
    no_score: int
    limit: int

    @property
    def games(self) -> int: ...


class GridSetting(Protocol):
    """One setting of the robustness grid (simcore.studies.robustness.Setting): a lineup of
    players or a component reading at a player count, with the variants as its arms."""

    @property
    def players(self) -> int: ...

    @property
    def kind(self) -> str: ...  # 'lineup' or 'components'

    @property
    def name(self) -> str: ...

    @property
    def reading(self) -> str: ...

    @property
    def variants(self) -> tuple[str, ...]: ...

    @property
    def games(self) -> int: ...

    @property
    def reference(self) -> bool: ...  # the default lineup on the rulebook's components

    @property
    def key(self) -> str: ...

    @property
    def label(self) -> str: ...


class SkippedPair(Protocol):
    """A (setting, variant) pair that could not be composed (simcore.studies.robustness.Skipped)."""

    @property
    def line(self) -> str: ...

    def to_json(self) -> dict[str, Any]: ...


class RobustnessResult(Protocol):
    """The robustness grid played (simcore.studies.robustness.RobustnessRun): every setting's
    arms and outcome tallies, keyed by the setting's key."""

    spec: GameInfo
    player_counts: list[int]
    games: int
    seed: int
    settings: list[GridSetting]
    runs: dict[str, ArmsResult]
    outcomes: dict[str, list[GameOutcomes]]
    readings: dict[str, dict[str, str]]
    rules_file: str | None
    elapsed_s: float
    resumed: list[str]
    variants: tuple[str, ...]
    overrides: dict[str, Any]
    skipped: list[SkippedPair]
    ladders: dict[int, RatedMatches]  # --ladder: per player count


# --------------------------------------------------------------------------- ladder
class LadderRung(Protocol):
    """A rung of a ladder (simcore.studies.ladder.Rung): the policy text, its kind ('random',
    'preset', 'search', 'user') and a search rung's budget."""

    @property
    def name(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def budget(self) -> int: ...


class LadderPairing(Protocol):
    """Who played a match (simcore.studies.ladder.Match): `rung` in one seat against `other`
    in the others, or in every seat (other None: self-play)."""

    @property
    def rung(self) -> str: ...

    @property
    def other(self) -> str | None: ...

    @property
    def games(self) -> int: ...

    @property
    def key(self) -> str: ...

    @property
    def label(self) -> str: ...


class LadderMatch(Protocol):
    """One match played (simcore.studies.ladder.MatchResult): its summary (of the policy
    list's entries), the rung's pairwise half-points histogram, the outcome tally, its times."""

    match: LadderPairing
    policies: list[str]
    summary: RunSummary
    points: np.ndarray  # [half-points] games: the rung's pairwise results in a game
    outcomes: GameOutcomes
    cpu_s: float
    elapsed_s: float
    joint: np.ndarray | None  # with a compared variant: [base, variant] half-points


class RatedMatches(Protocol):
    """Rating matches played: a ladder's, or a robustness grid's --ladder per player count
    (simcore.studies.robustness.RatingMatches)."""

    players: int
    rungs: list[LadderRung]
    reference: str
    matches: list[LadderMatch]


class LadderResult(RatedMatches, Protocol):
    """A ladder played (simcore.studies.ladder.LadderRun): the rungs in order, every match in
    plan order, the provenance."""

    game: str
    title: str
    seed: int
    games: int
    search_games: int
    rules: dict
    rules_hash: str
    elapsed_s: float
    no_decisions: str  # why every player plays the same game ('' when there are choices)
    resumed: list[str]
    end_reasons: tuple[str, ...]
    compare_variant: str  # the variant whose effect on the skill measure is measured ('')


# --------------------------------------------------------------------------- tuning
class TuningResult(Protocol):
    """A tuning study run (simcore.studies.tuning.TuningRun, and its players' and rules'
    kinds: PlayerTuning, RulesTuning); the kind's own fields are read by its renderer."""

    game: str
    players: int
    seed: int
    budget: int
    games_per_trial: int
    storage: str
    study: str
    trials: list[dict[str, Any]]
    search_s: float
    resumed_trials: int
    confirm_s: float


class PlayerConfirmationResult(Protocol):
    """A tuned player's confirmation on fresh games (simcore.studies.tune_players
    .PlayerConfirmation): per arm (the start first) its label, search trial, weights and win
    indicator per game."""

    games: int
    first_index: int
    labels: list[str]
    indices: list[int | None]
    weights: list[dict[str, float]]
    wins: list[np.ndarray]  # per arm: [game] 1 when the tuned seat won
    players: int
    opponents: str


class PlayerTuningResult(TuningResult, Protocol):
    """A player tuned (simcore.studies.tune_players.PlayerTuning)."""

    policy: str
    name: str
    space: dict[str, tuple[float, float, bool]]  # weight -> (low, high, whole)
    start: dict[str, float]
    population: list[str]
    confirmation: PlayerConfirmationResult | None
    chosen: int | None  # the confirmation arm written to --out
    out: str | None
    rules_hash: str

    @property
    def best(self) -> dict[str, Any]: ...


class TuningObjective(Protocol):
    """An objective of `balance tune` (simcore.studies.tune_rules.Objective)."""

    @property
    def text(self) -> str: ...

    @property
    def quantity(self) -> str: ...

    @property
    def direction(self) -> str: ...  # 'min' or 'max'

    @property
    def target(self) -> float | None: ...


class TuningConstraint(Protocol):
    """A constraint of `balance tune` (simcore.studies.tune_rules.Constraint)."""

    @property
    def text(self) -> str: ...

    @property
    def quantity(self) -> str: ...

    def holds(self, x: float) -> bool: ...


class TuningParam(Protocol):
    """A rules field searched by `balance tune` (simcore.studies.tune_rules.Param)."""

    @property
    def name(self) -> str: ...


class RulesTuningResult(TuningResult, Protocol):
    """Rules tuned (simcore.studies.tune_rules.RulesTuning)."""

    params: list[TuningParam]
    objectives: list[TuningObjective]
    constraints: list[TuningConstraint]
    start: dict[str, Any]  # each parameter's value in the starting rules
    candidates: list[dict[str, Any]]
    confirmation: ArmsResult | None  # the start first, then the candidates
    notes: list[str]
    policies: list[str]


# --------------------------------------------------------------------------- compensation
class CompensationCandidate(Protocol):
    """A compensation (simcore.studies.compensate.Candidate): a seat field's amount per seat,
    and end rules ((field, value) pairs); none of either is the rulebook."""

    @property
    def field(self) -> str: ...

    @property
    def amounts(self) -> tuple[int, ...]: ...

    @property
    def rule(self) -> tuple[tuple[str, str], ...]: ...

    @property
    def label(self) -> str: ...

    @property
    def total(self) -> int: ...


class CompensationPlay(Protocol):
    """A compensation played on some games (simcore.studies.compensate.Played)."""

    candidate: CompensationCandidate
    games: int
    seat_wins: list[int]
    shared_wins: int
    policies: str
    seed: int
    rules_hash: str

    @property
    def gap(self) -> float: ...  # the largest difference of two seats' win rates, in points

    @property
    def predicted(self) -> list[float]: ...

    @property
    def predicted_gap(self) -> float: ...


class LevelSearchResult(Protocol):
    """The study again at a level where the recommendation is not fair
    (simcore.studies.compensate.LevelSearch)."""

    level: str
    searched: dict[str, str]
    screened: list[CompensationPlay]
    confirmed: list[CompensationPlay]  # the rulebook first, then the finalists
    recommendation: CompensationPlay
    calibration: CompensationPlay | None
    refined: list[CompensationPlay]


class CompensationResult(Protocol):
    """A compensation study (simcore.studies.compensate.CompensateRun), with its
    recommendation, rendered by analysis.compensate."""

    game: str
    title: str
    players: int
    seed: int
    level: str  # the player in every seat of the screening and the confirmation
    games: int
    confirm_games: int
    level_games: int
    tolerance: float
    fields: list[str]
    searched: dict[str, str]
    skipped: dict[str, str]
    baseline: CompensationPlay
    screened: list[CompensationPlay]
    confirmed: list[CompensationPlay]  # fresh games: the baseline first, then the candidates
    recommendation: CompensationPlay
    levels: list[tuple[str, CompensationPlay, CompensationPlay]]  # (level, without, with)
    level_searches: list[LevelSearchResult]
    cross: dict[tuple[CompensationCandidate, str], CompensationPlay]
    level_screen_games: int
    level_budget: int
    calibration: CompensationPlay | None
    refined: list[CompensationPlay]
    elapsed_s: float
    seat_words: dict[str, str]  # the rules class' SEAT_WORDS


# --------------------------------------------------------------------------- the report
@dataclass
class ReportChoice:
    """What the report plays beside the games: the player counts, the variants compared (the
    game's report variants, then the rules file's and --variant's: robustness.variant_list),
    the base rules of every setting (overrides, --set; rules_file for the designer's tables)
    and the lineup (policy)."""

    counts: list[int]
    variants: tuple[str, ...]
    overrides: dict[str, Any] = field(default_factory=dict)
    rules_file: str | None = None
    policy: str | None = None
    strong: str | None = None  # --strong: the strong players' lineup (default strong_policy)

    @property
    def rules(self) -> dict[str, Any]:
        """The rules keywords of every simulation of the report (the base rules)."""
        return {"overrides": self.overrides or None, "rules_file": self.rules_file}


@dataclass
class ReportLadder:
    """The report's player ladder: each preset in one seat against `random` players (in
    spec.presets order), and every pair of presets head to head (seats rotated)."""

    vs_random: dict[str, RunResult] = field(default_factory=dict)
    head_to_head: dict[tuple[str, str], RunResult] = field(default_factory=dict)


@dataclass
class ReportRuns:
    """The played simulations of a report, a field per section, and their provenance."""

    spec: GameInfo
    games: dict[str, int]  # games per setting in each section (report_plan.section_games)
    seed: int
    policy: str | None
    choice: ReportChoice
    skipped: list[SkippedPair]  # variants left out where they do not compose (with the reason)
    seats: dict[int, RunResult]  # the seat balance per player count
    # the variant comparison per player count (where more than the base rules compose)
    variant_runs: dict[int, ArmsResult]
    dice: dict[int, ArmsResult] | None  # every die per player count (a game with a die field)
    ladder: ReportLadder
    # the first screen's strong players in every seat per player count (none without them)
    strong: dict[int, RunResult]
    strong_vs: RunResult | None  # how strong: one strong player against the reference preset
    # how much skill decides under each variant: the default preset against `random` players
    # (its base arm is ladder.vs_random[spec.default_policy])
    skill: dict[str, RunResult]
    robustness: RobustnessResult  # the Findings' grid
    backend: str
    where: str  # the backend in words: 'local', 'Dask, 2 local workers'
    threads: int
    rules_hashes: dict[int, str]  # the rulebook game's rules hash per player count
    started: float  # time.time() when the report began
    strong_lineup: str = ""  # the strong players' lineup in words ('search:budget=16')
    # the compensation study per player count whose seats are not fair with the reference
    # preset, checked with the strong players
    fixes: dict[int, CompensationResult] = field(default_factory=dict)

    @property
    def player_counts(self) -> list[int]:
        return list(self.choice.counts)

    @property
    def variants(self) -> tuple[str, ...]:
        """The variants the report compares ('base' first)."""
        return self.choice.variants

    @property
    def all_skipped(self) -> list[SkippedPair]:
        """Every (setting, variant) pair skipped: the variant comparison's, then the
        robustness grid's."""
        return self.skipped + self.robustness.skipped

    @property
    def ladder_players(self) -> tuple[int, int]:
        """The player counts of the ladder: against random players, and head to head."""
        return self.spec.nearest_players(3), self.spec.nearest_players(2)
