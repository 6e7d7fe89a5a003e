"""What both tuning commands share (`balance tune-players`, simcore.studies.tune_players, and
`balance tune`, simcore.studies.tune_rules): their search options (check_sizes), the study in a
database, the sampler, the seeds, the trial loop with its progress line, and the game indices
of the search and of the confirmation.

The optimiser is optuna's TPE sampler (a maintained library; no home-made evolutionary loop).
The study lives in a real database: an SQLite file by default, any SQLAlchemy URL (a
PostgreSQL or MySQL server) for several workers. A killed run is resumed by running the same
command again: it continues from the trials the database holds.

Determinism. optuna's samplers keep a random state in memory, which a killed run loses, so a
resumed run would not draw what an uninterrupted one draws. Here the sampler is built afresh
for every trial (IndexSeededSampler), seeded from (--seed, the trial's index), where the index
is the number of trials completed before it. TPE's suggestions are a function of the completed
trials and of its seed, and every trial's value is a function of its parameters (the games are
the same for every trial: common random numbers), so a resumed run proposes exactly what the
uninterrupted run proposes at the same index and ends with the same best trial. A trial left
running by a killed run stays so in the database and is ignored (it completed nothing): its
index is used again.
With several workers on one study (`--join`), the trials running elsewhere count too, so the
workers do not propose the same point; the order in which workers finish then decides the
suggestions, and such a run is not reproducible.

Seeds and games. Every trial plays game indices 0 .. n-1 of --seed (common random numbers:
the same games for every candidate). The confirmation plays game indices from CONFIRM_START =
2**62 on, under the same seed: a game's random stream is derived from (seed, index) with an
index-injective mix (simcore.frame.rng.stream_for), so no confirmation game repeats a search game.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simcore.base.errors import InputError
from simcore.base.inputs import MAX_INDEX, check_folder_of, check_whole

CONFIRM_START = 2**62  # the first game index of every confirmation run
MAX_SEARCH_GAMES = CONFIRM_START  # a trial's games are indices 0 .. n-1, all below it
MAX_BUDGET = 100_000  # trials per study
INDEX_ATTR = "balance:index"  # a trial's index: the number of trials completed before it
SETTINGS_ATTR = "balance:settings"  # the study's settings, checked when it is resumed


def search_indices(games: int) -> range:
    """The game indices every trial of a search plays (the same for every trial)."""
    if not 1 <= games <= MAX_SEARCH_GAMES:
        raise InputError(f"a trial plays 1 to 2**62 games, not {games}")
    return range(0, games)


def confirm_indices(games: int) -> range:
    """The game indices of a confirmation run: from CONFIRM_START on, disjoint from every
    search's (search_indices)."""
    if not 1 <= games <= MAX_INDEX + 1 - CONFIRM_START:
        raise InputError(f"a confirmation plays 1 to 2**62 games, not {games}")
    return range(CONFIRM_START, CONFIRM_START + games)


def trial_seed(seed: int, index: int, lane: int = 0) -> int:
    """The sampler's seed for the trial of this index (a 32-bit number, what numpy's
    RandomState takes), derived from the run's seed with SHA-256: lane separates the workers
    of a joined study."""
    digest = hashlib.sha256(f"balance-tune:{seed}:{index}:{lane}".encode()).digest()
    return int.from_bytes(digest[:4], "little")


# --------------------------------------------------------------------------------- sampler
def _optuna():
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    return optuna


def _index_sampler_class():
    optuna = _optuna()

    class IndexSeededSampler(optuna.samplers.BaseSampler):
        """A TPE sampler made afresh for every trial, seeded with trial_seed(seed, index):
        its suggestions depend only on the completed trials and the trial's index."""

        def __init__(self, seed: int, join: bool, constrained: bool, startup: int = 10):
            self.seed, self.join, self.startup = seed, join, startup
            self.extra = {}
            if constrained and not hasattr(optuna.trial.Trial, "set_constraint"):  # optuna 4
                self.extra["constraints_func"] = lambda t: t.user_attrs.get("constraints", [0.0])
            self.inner = self._make(0)

        def _make(self, index: int, lane: int = 0):
            return optuna.samplers.TPESampler(
                seed=trial_seed(self.seed, index, lane),
                n_startup_trials=self.startup,
                multivariate=True,
                constant_liar=self.join,
                **self.extra,
            )

        def before_trial(self, study, trial) -> None:
            states = [t.state for t in study.get_trials(deepcopy=False)]
            done = sum(s == optuna.trial.TrialState.COMPLETE for s in states)
            lane = 0
            if self.join:  # the trials running elsewhere: another lane for each
                lane = sum(s == optuna.trial.TrialState.RUNNING for s in states) - 1
            index = trial.system_attrs.get(INDEX_ATTR, done)
            study._storage.set_trial_system_attr(trial._trial_id, INDEX_ATTR, index)
            self.inner = self._make(index, max(lane, 0))
            self.inner.before_trial(study, trial)

        def infer_relative_search_space(self, study, trial):
            return self.inner.infer_relative_search_space(study, trial)

        def sample_relative(self, study, trial, search_space):
            return self.inner.sample_relative(study, trial, search_space)

        def sample_independent(self, study, trial, name, distribution):
            return self.inner.sample_independent(study, trial, name, distribution)

        def after_trial(self, study, trial, state, values) -> None:
            self.inner.after_trial(study, trial, state, values)

    return IndexSeededSampler


# --------------------------------------------------------------------------------- study
@dataclass
class StudyPlan:
    """Where a study lives and what it is: storage URL, name, settings (a JSON-able dict that
    must match when the study is resumed), directions, the sampler's seed."""

    storage: str
    name: str
    settings: dict[str, Any]
    directions: list[str]
    seed: int
    join: bool = False
    constrained: bool = False  # trials record constraints (tune --constraint)


def study_plan(
    sz: Sizes,
    kind: str,
    settings: dict[str, Any],
    directions: list[str],
    default_file: str | Path,
    constrained: bool = False,
) -> StudyPlan:
    """The study of a search: in --storage (else the SQLite file default_file), named --study
    (else study_name(kind, settings)), joined with --join."""
    url = check_storage(sz.storage) if sz.storage else default_storage(default_file)
    name = sz.study or study_name(kind, settings)
    return StudyPlan(url, name, settings, directions, sz.seed, sz.join, constrained)


def default_storage(path: str | Path) -> str:
    """An SQLite URL for a database file, its folder checked (writable)."""
    check_folder_of(str(path), "--storage")
    return f"sqlite:///{Path(path).resolve()}"


def check_storage(url: str) -> str:
    """--storage: an SQLAlchemy URL ('sqlite:///FILE', 'postgresql://...') or a plain file
    name (then an SQLite file)."""
    if "://" not in url:
        return default_storage(url)
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///") :]
        if path and path != ":memory:":
            check_folder_of(path, "--storage")
    return url


def study_name(prefix: str, settings: dict[str, Any]) -> str:
    """A study name from the settings: the same settings resume the same study."""
    text = json.dumps(settings, sort_keys=True, default=str)
    return f"{prefix}-{hashlib.sha256(text.encode()).hexdigest()[:12]}"


def open_study(plan: StudyPlan):
    """Create the study or load it (resume); a study of this name made with other settings is
    refused. Trials left running by a killed run stay as they are: a trial's index counts
    completed trials only, and TPE (without `join`) looks at completed trials only."""
    optuna = _optuna()
    sampler = _index_sampler_class()(plan.seed, plan.join, plan.constrained)
    try:
        storage = optuna.storages.RDBStorage(plan.storage)
        study = optuna.create_study(
            storage=storage,
            sampler=sampler,
            study_name=plan.name,
            directions=plan.directions,
            load_if_exists=True,
        )
    except (ImportError, ValueError, optuna.exceptions.OptunaError) as e:
        raise InputError(f"--storage '{plan.storage}': {' '.join(str(e).split())[:300]}") from None
    except Exception as e:  # sqlalchemy's errors: a damaged or unreachable database
        if type(e).__module__.startswith("sqlalchemy"):
            msg = " ".join(str(e).split())[:300]
            raise InputError(f"--storage '{plan.storage}' cannot be used ({msg})") from None
        raise
    stored = study.user_attrs.get(SETTINGS_ATTR)
    wanted = json.loads(json.dumps(plan.settings, default=str))
    if stored is None:
        study.set_user_attr(SETTINGS_ATTR, wanted)
    elif stored != wanted:
        diff = sorted(k for k in set(stored) | set(wanted) if stored.get(k) != wanted.get(k))
        raise InputError(
            f"study '{plan.name}' in {plan.storage} was made with other settings "
            f"({', '.join(diff)}); give another --study or --storage"
        )
    if [d.name.lower() for d in study.directions] != list(plan.directions):
        raise InputError(f"study '{plan.name}' has other objectives")
    return study


def completed(study) -> list:
    """The completed trials, by index (the order an uninterrupted run completes them)."""
    optuna = _optuna()
    done = study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))
    return sorted(done, key=lambda t: (t.system_attrs.get(INDEX_ATTR, t.number), t.number))


def trial_index(trial) -> int:
    return int(trial.system_attrs.get(INDEX_ATTR, trial.number))


def check_budget(budget: int) -> int:
    return check_whole(budget, "--budget", 1, maximum=MAX_BUDGET)


CONFIRM_TOP = 3  # the best trials (or settings) of a search that are confirmed
# the search options of both commands (keywords of tune_players and tune_rules; check_sizes)
SEARCH_OPTIONS = ("budget", "games_per_trial", "confirm_games", "top", "seed")
STUDY_OPTIONS = ("storage", "study", "join")


@dataclass
class Sizes:
    """The checked search options of a tuning run (check_sizes) and its run options."""

    budget: int
    games_per_trial: int
    confirm_games: int
    top: int
    seed: int
    progress: bool
    run_options: dict[str, Any]
    storage: str | None = None  # --storage: a database file or URL (None: the command's)
    study: str | None = None  # --study: the study's name (None: from the settings)
    join: bool = False  # --join: a study other workers are running


def check_sizes(kw: dict[str, Any], **defaults: int) -> Sizes:
    """The options both tuning commands take, checked (one InputError line each). kw: the
    command's remaining keywords: budget (trials, stored ones included), games_per_trial,
    confirm_games (games per confirmed candidate), each the command's own default (defaults:
    budget, games_per_trial, confirm_games) when not given; top (the candidates confirmed,
    CONFIRM_TOP), seed (1), storage, study, join (Sizes); and the run options (threads,
    backend, scheduler, workers, progress); anything else is a TypeError."""
    from simcore.base.inputs import check_games, check_seed
    from simcore.run.jobs import split_run_options

    run_options, rest = split_run_options(kw)
    given = {**defaults, "top": CONFIRM_TOP, "seed": 1, **rest}
    unknown = set(given) - set(SEARCH_OPTIONS) - set(STUDY_OPTIONS)
    if unknown:
        raise TypeError(f"unexpected options {sorted(unknown)}")
    games_per_trial = check_games(given["games_per_trial"], 1, " per trial")
    search_indices(games_per_trial)
    confirm_games = check_games(given["confirm_games"], 2, " to confirm")
    confirm_indices(confirm_games)
    return Sizes(
        check_budget(given["budget"]),
        games_per_trial,
        confirm_games,
        check_whole(given["top"], "--confirm-top", 1, maximum=20),
        check_seed(given["seed"]),
        bool(run_options.pop("progress", False)),
        run_options,
        **{k: given[k] for k in STUDY_OPTIONS if k in given},
    )


# --------------------------------------------------------------------------------- loop
class TrialProgress:
    """One line on stderr, rewritten after every trial: trial k/N, best so far, ETA."""

    def __init__(self, total: int, done: int, enabled: bool, describe: Callable[[], str]):
        self.total, self.start_done, self.enabled, self.describe = total, done, enabled, describe
        self.t0 = time.perf_counter()

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        ran = done - self.start_done
        eta = ""
        if ran > 0 and done < self.total:
            left = (time.perf_counter() - self.t0) / ran * (self.total - done)
            eta = f", ETA {_duration(left)}"
        sys.stderr.write(f"\rtrial {done}/{self.total}; best {self.describe()}{eta}   ")
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")
            sys.stderr.flush()


def _duration(s: float) -> str:
    if not math.isfinite(s):
        return "?"
    s = int(round(s))
    return f"{s // 3600}h{s % 3600 // 60:02d}m" if s >= 3600 else f"{s // 60}m{s % 60:02d}s"


def run_trials(
    study,
    budget: int,
    distributions: dict[str, Any],
    evaluate: Callable[[Any, int], Any],
    *,
    enqueue: dict[str, Any] | None = None,
    progress: bool = False,
    describe: Callable[[], str] = lambda: "",
    stop_after: int | None = None,
) -> float:
    """Ask, evaluate and tell trials until `budget` trials are complete (those the database
    holds count): evaluate(trial, index) returns the trial's value(s), or raises. enqueue: the
    first trial's parameters (the starting point) when the study is new. stop_after: stop
    after this many trials of this run (the tests' stand-in for a kill). Returns the seconds
    spent on this run's trials."""
    optuna = _optuna()
    states = [t.state for t in study.get_trials(deepcopy=False)]
    if enqueue is not None and not any(
        s in (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.WAITING) for s in states
    ):  # the starting point first (again, when a killed run left it unfinished)
        study.enqueue_trial(enqueue)
    done = len(completed(study))
    bar = TrialProgress(budget, done, progress, describe)
    t0 = time.perf_counter()
    ran = 0
    try:
        while done < budget and (stop_after is None or ran < stop_after):
            trial = study.ask(distributions)
            try:
                value = evaluate(trial, trial_index(study._storage.get_trial(trial._trial_id)))
            except (Exception, KeyboardInterrupt):
                study.tell(trial, state=optuna.trial.TrialState.FAIL)
                raise
            study.tell(trial, value)
            done, ran = done + 1, ran + 1
            bar.update(done)
    finally:
        bar.close()
    return time.perf_counter() - t0


def search(
    study, plan: StudyPlan, sz: Sizes, dists, evaluate, records, **kw: Any
) -> dict[str, Any]:
    """Run the trials of a study (run_trials; kw: enqueue, describe, stop_after) and return
    the TuningRun fields of the result (records(): the completed trials as dicts; the game
    and the player count: the plan's settings')."""
    before = len(completed(study))
    t0 = time.perf_counter()
    run_trials(study, sz.budget, dists, evaluate, progress=sz.progress, **kw)
    return dict(
        game=plan.settings["game"],
        players=plan.settings["players"],
        seed=sz.seed,
        budget=sz.budget,
        games_per_trial=sz.games_per_trial,
        storage=plan.storage,
        study=plan.name,
        trials=records(),
        search_s=time.perf_counter() - t0,
        resumed_trials=before,
    )
