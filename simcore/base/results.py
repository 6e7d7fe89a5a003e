"""What the studies hand to the renderers (issue #48): the results `analysis` reads, named here
in the base so that `analysis` (which imports only the base) can annotate its inputs.

A study's result that is plain data (ArmRun, SweepRun, LadderRun, TuningRun and its kinds,
CompensateRun and its parts) is its dataclass, defined here and imported by the study that
builds it. A result that carries numba-backed parts or lives beside the study's machinery
has a protocol listing what a renderer reads of it; the study's own type fits it
structurally, without importing it (a SimResult is a RunResult, a RobustnessRun a
RobustnessResult, ...; tests/test_results.py checks them). The report's runs (`ReportRuns`)
are a dataclass with a field per section, built by simcore.studies.report.play_report and
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

    def readings(self, rules_file: str | None = None) -> dict[str, tuple[str, str]]: ...

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


@dataclass
class ArmRun:
    """Arms played on the same games (simcore.studies.compare.run_arms): a RunResult per arm
    (merged summary of all chunks, no rows) and the running sums of the per-game metrics
    (metrics[j] is column j of the moments)."""

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
    def index(self) -> dict[str, int]:
        return {m.name: j for j, m in enumerate(self.metrics)}


@dataclass
class SweepRun:
    """A sweep played (simcore.studies.compare.run_sweep): the rules fields swept and the run
    of one arm per combination (each arm's overrides give its values)."""

    params: list[str]
    run: ArmRun


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
    runs: dict[str, ArmRun]
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
@dataclass(frozen=True)
class Rung:
    """One rung of a ladder (simcore.studies.ladder.ladder_rungs): its name (the policy text,
    e.g. 'search:budget=16'), what kind of player it is ('random', 'preset', 'trained',
    'search', 'user') and a search rung's budget."""

    name: str
    kind: str
    budget: int = 0

    @property
    def is_search(self) -> bool:
        return self.name.split(":", 1)[0] == "search"


@dataclass(frozen=True)
class Match:
    """A match of a ladder's plan (simcore.studies.ladder.match_plan): `rung` in one seat
    against `other` in the others (seats rotated), or `rung` in every seat (other None:
    self-play, seats fixed)."""

    rung: str
    other: str | None
    games: int

    @property
    def key(self) -> str:
        return f"self/{self.rung}" if self.other is None else f"{self.rung}/vs/{self.other}"

    @property
    def label(self) -> str:
        if self.other is None:
            return f"{self.rung} in every seat"
        return f"{self.rung} against {self.other}"

    def policies(self, players: int) -> str:
        if self.other is None:
            return ",".join([self.rung] * players)
        return ",".join([self.rung] + [self.other] * (players - 1))


@dataclass
class MatchResult:
    """A match played: its summary (of the policy list's entries), the rung's pairwise
    half-points histogram (rating matches) or the outcome tally (self-play), its times."""

    match: Match
    policies: list[str]
    summary: RunSummary
    points: np.ndarray  # [half-points] games: the rung's pairwise results in a game
    outcomes: GameOutcomes
    cpu_s: float
    elapsed_s: float
    joint: np.ndarray | None = None  # with a compared variant: base x variant half-points


class RatedMatches(Protocol):
    """Rating matches played: a ladder's, or a robustness grid's --ladder per player count
    (simcore.studies.robustness.RatingMatches)."""

    players: int
    rungs: list[Rung]
    reference: str
    matches: list[MatchResult]


@dataclass
class LadderRun:
    """A ladder played (simcore.studies.ladder.run_ladder): the rungs (in the designed order),
    the reference, every match (in plan order), and the run's provenance; its rating matches
    are RatedMatches."""

    game: str
    title: str
    players: int
    rungs: list[Rung]
    reference: str
    matches: list[MatchResult]
    seed: int
    games: int
    search_games: int
    rules: dict
    rules_hash: str
    elapsed_s: float
    no_decisions: str = ""  # why every player plays the same game ('' when there are choices)
    resumed: list[str] = field(default_factory=list)
    end_reasons: tuple[str, ...] = ()
    compare_variant: str = ""  # the variant whose effect on the skill measure is measured


# --------------------------------------------------------------------------- tuning
@dataclass(kw_only=True)
class TuningRun:
    """What both tuning commands return (simcore.studies.tuning): the setting, the completed
    trials (dicts with at least index and params), the search's and the confirmation's
    seconds; each command's result (PlayerTuning, RulesTuning) adds its own fields, read by
    its renderer."""

    game: str
    players: int
    seed: int
    budget: int
    games_per_trial: int
    storage: str
    study: str
    trials: list[dict[str, Any]]
    search_s: float
    resumed_trials: int  # trials found in the database when this run started
    confirm_s: float = 0.0


@dataclass
class PlayerConfirmation:
    """A tuned player's confirmation on fresh games (simcore.studies.tune_players): per arm
    (the starting player first, then each candidate) its label, search index (None for the
    start), weights and win indicator per game (the arm's entry-0 seat won outright), all arms
    on the same games."""

    games: int
    first_index: int
    labels: list[str]
    indices: list[int | None]
    weights: list[dict[str, float]]
    wins: list[np.ndarray]  # per arm: [game] 1 when the tuned seat won
    players: int
    opponents: str


def best_trial(trials: list[dict[str, Any]]) -> dict[str, Any]:
    """The highest value; among equal values the lowest index."""
    return max(trials, key=lambda t: (t["value"], -t["index"]))


@dataclass(kw_only=True)
class PlayerTuning(TuningRun):
    """A player tuned (simcore.studies.tune_players.tune_players); trials: index, value,
    params (the weights), per-lineup rates, champion."""

    policy: str
    name: str
    space: dict[str, tuple[float, float, bool]]  # weight -> (low, high, whole)
    start: dict[str, float]
    population: list[str]
    confirmation: PlayerConfirmation | None = None
    chosen: int | None = None  # the confirmation arm written to --out
    out: str | None = None
    rules_hash: str = ""

    @property
    def best(self) -> dict[str, Any]:
        return best_trial(self.trials)


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


@dataclass(kw_only=True)
class RulesTuning(TuningRun):
    """Rules tuned (simcore.studies.tune_rules.tune_rules); trials: index, values, params,
    quantities, feasible, invalid."""

    params: list[TuningParam]
    objectives: list[TuningObjective]
    constraints: list[TuningConstraint]
    start: dict[str, Any]  # each parameter's value in the starting rules
    candidates: list[dict[str, Any]] = field(default_factory=list)
    confirmation: ArmRun | None = None  # the start first, then the candidates
    notes: list[str] = field(default_factory=list)  # ranges narrowed
    policies: list[str] = field(default_factory=list)


# --------------------------------------------------------------------------- compensation
@dataclass(frozen=True)
class Candidate:
    """One compensation (simcore.studies.compensate): a field and an amount per seat (seat 0
    first), and a change of the end of the game (rule: (field, value) pairs of the rules
    class' END_RULES); none = the rulebook."""

    field: str = ""
    amounts: tuple[int, ...] = ()
    rule: tuple[tuple[str, str], ...] = ()

    @property
    def seats_changed(self) -> int:
        return sum(1 for a in self.amounts if a)

    @property
    def total(self) -> int:
        return sum(abs(a) for a in self.amounts)

    @property
    def changes(self) -> int:
        """The rules it changes: a seat given something, or an end rule."""
        return self.seats_changed + len(self.rule)

    @property
    def label(self) -> str:
        parts = [f"{k}={v}" for k, v in self.overrides().items()]
        return ", ".join(parts) if parts else "none (the rulebook)"

    def overrides(self) -> dict[str, str]:
        out = dict(self.rule)
        if self.field:
            out[self.field] = ",".join(str(a) for a in self.amounts)
        return out


@dataclass
class Played:
    """A candidate played on some games (simcore.studies.compensate): the seats' outright
    wins, the shared wins."""

    candidate: Candidate
    games: int
    seat_wins: list[int]
    shared_wins: int
    policies: str
    seed: int
    rules_hash: str

    # a screened candidate: the calibration's seat rates minus the screening rulebook's
    shift: tuple[float, ...] = ()

    @property
    def gap(self) -> float:
        """The largest difference of two seats' win rates, in points."""
        return 100.0 * (max(self.seat_wins) - min(self.seat_wins)) / self.games

    @property
    def predicted(self) -> list[float]:
        """The seat win rates (fractions) predicted for a screened candidate: the rulebook's
        on the calibration's games plus the candidate's effect on the screening games (its
        rates minus the rulebook's there, common random numbers); its rates when unshifted."""
        rates = [w / self.games for w in self.seat_wins]
        return [r + d for r, d in zip(rates, self.shift)] if self.shift else rates

    @property
    def predicted_gap(self) -> float:
        """The largest difference of two predicted seat rates, in points."""
        p = self.predicted
        return 100.0 * (max(p) - min(p))


@dataclass
class LevelSearch:
    """The study again at a level where the recommendation is not fair: the same groups
    screened with that player in every seat, the finalists confirmed on the level's games."""

    level: str
    searched: dict[str, str]
    screened: list[Played]
    confirmed: list[Played]  # the level's fresh games: the rulebook first, then the finalists
    recommendation: Played  # the level's own recommendation: one of confirmed (recommend)
    calibration: Played | None = None  # the rulebook on the level's games of the screening seed
    refined: list[Played] = field(default_factory=list)  # the best again on more games


@dataclass
class CompensateRun:
    """What `balance compensate` played (simcore.studies.compensate), with its recommendation,
    rendered by analysis.compensate."""

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
    searched: dict[str, str]  # field -> 'exhaustive (N candidates)' / 'optuna TPE (N trials)'
    skipped: dict[str, str]  # field -> why it was not searched
    baseline: Played
    screened: list[Played]
    confirmed: list[Played]  # fresh games: the baseline first, then the candidates
    recommendation: Played  # one of confirmed (simcore.base.fairness.recommend)
    # (level, without, with) at each level of the ladder's players
    levels: list[tuple[str, Played, Played]] = field(default_factory=list)
    # a search of its own at each level where the recommendation is not fair
    level_searches: list[LevelSearch] = field(default_factory=list)
    # every compensation a level's search found, played at every level: (candidate, level)
    cross: dict[tuple[Candidate, str], Played] = field(default_factory=dict)
    level_screen_games: int = 0
    level_budget: int = 0
    calibration: Played | None = None  # the rulebook on more games of the seed
    refined: list[Played] = field(default_factory=list)  # the best on more games
    elapsed_s: float = 0.0
    seat_words: dict[str, str] = field(default_factory=dict)  # the rules class' SEAT_WORDS
    # each confirmation's finalists played until one is confirmed fair (else every finalist)
    first_fair: bool = False
    confirm_top: int = 3  # the finalists of each confirmation (compensate.CONFIRM_TOP)
    # the screening's best played again on more games (compensate.REFINE_TOP), and the simplest
    refine_top: int = 8


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
    # the strong players' lineup played: --strong, else simcore.studies.ladder.strong_policy
    strong_lineup: str | None = None

    @property
    def strong_searches(self) -> bool:
        """Whether the strong players search (their games then a share of --games)."""
        return "search" in (self.strong_lineup or "")

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
    variant_runs: dict[int, ArmRun]
    dice: dict[int, ArmRun] | None  # every die per player count (a game with a die field)
    ladder: ReportLadder
    # the first screen's strong players in every seat per player count (none without them)
    strong: dict[int, RunResult]
    # how strong, per player count: one strong player against the reference preset
    strong_vs: dict[int, RunResult]
    # how much skill decides under each variant: that match at the nearest count to 3 under
    # the variant (its base arm is strong_vs of that count)
    skill: dict[str, RunResult]
    robustness: RobustnessResult  # the Findings' grid
    backend: str
    where: str  # the backend in words: 'local', 'Dask, 2 local workers'
    threads: int
    rules_hashes: dict[int, str]  # the rulebook game's rules hash per player count
    started: float  # time.time() when the report began
    # the compensation study per player count whose seats are not fair at a level, checked
    # at the other
    fixes: dict[int, CompensateRun] = field(default_factory=dict)
    # every die per player count with the strong players in every seat (the die per level;
    # strong players who do not search, a game with a die field)
    dice_strong: dict[int, ArmRun] | None = None

    @property
    def player_counts(self) -> list[int]:
        return list(self.choice.counts)

    @property
    def strong_lineup(self) -> str:
        """The strong players' lineup in words ('trained', 'search:budget=16'; '' without)."""
        return self.choice.strong_lineup or ""

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
