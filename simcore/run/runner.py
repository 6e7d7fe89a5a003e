"""`simulate`: one setting played in chunks (simcore.run.chunks) on any backend (simcore.run.jobs),
the chunks' summaries merged in plan order into a SimResult. Rows are kept only when asked.
Game i always uses the random stream of (seed, i): results do not depend on threads,
chunking or backend.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from simcore.base.errors import InputError
from simcore.base.inputs import (
    MAX_INDEX,
    check_games,
    check_index,
    check_rows,
    check_seed,
    check_whole,
)
from simcore.base.rulesbase import rules_hash
from simcore.frame.registry import GameSpec, SeatPolicy
from simcore.run.checkpoint import (
    SIMULATE,
    CheckpointFile,
    check_resume,
    sim_parts,
    sim_state,
)
from simcore.run.chunks import (
    DEFAULT_CHUNK,
    Summary,
    chunk_plan,
    new_summary,
    play_chunk,
    rows_frame,
    warm_kernels,
)
from simcore.run.jobs import Job, Plan, Task, TaskList, check_threads, run_jobs, split_run_options

__all__ = ["Interrupted", "SimJob", "SimResult", "Summary", "play_chunk", "simulate"]


@dataclass
class SimResult:
    """What simulate returns: the setting, the merged summary and (when asked) the rows."""

    game: str
    players: int
    games: int
    seed: int
    rules: Any
    resolved_rules: dict
    rules_hash: str
    policies: list[str]
    rotate_seats: bool
    summary: Summary
    rows: pd.DataFrame | None
    elapsed_s: float
    threads: int
    end_reasons: tuple[str, ...]
    checked: bool = False
    games_requested: int = 0
    precision: float | None = None
    partial: bool = False
    backend: str = "local"
    title: str = ""  # the game's title
    games_played: int | None = None  # games played by this run (a resumed run: fewer)

    @property
    def max_half_width(self) -> float:
        return max_half_width(self.summary)

    @property
    def precision_reached(self) -> bool | None:
        """Whether the run stopped because every seat's half-width reached --precision (False:
        the --games cap came first); None without a precision target."""
        if self.precision is None:
            return None
        return self.max_half_width <= self.precision

    @property
    def games_per_s(self) -> float:
        """Games played per second by this run (a resumed run counts only its own games)."""
        n = self.games if self.games_played is None else self.games_played
        if n == 0:  # a resumed run that had nothing left to play
            return 0.0
        return n / self.elapsed_s if self.elapsed_s > 0 else float("inf")


def max_half_width(summary: Summary) -> float:
    """The largest 95% Wilson half-width over the seats' outright win rates."""
    from statsmodels.stats.proportion import proportion_confint

    if summary.games == 0:
        return float("inf")
    lo, hi = proportion_confint(summary.seat_wins, summary.games, alpha=0.05, method="wilson")
    return float(np.max((np.asarray(hi) - np.asarray(lo)) / 2))


class Interrupted(Exception):
    """A run stopped by Ctrl-C or SIGTERM: .result holds the summary of the chunks completed
    (result.partial is True); with a checkpoint, `resume` continues from there."""

    def __init__(self, result: SimResult):
        super().__init__(f"interrupted after {result.games:,} of {result.games_requested:,} games")
        self.result = result


class SimJob(Job):
    """One setting of `simulate`: its chunks' summaries merged in plan order (rows kept when
    asked), the merged summary saved to the checkpoint after every chunk when one is given."""

    def __init__(
        self,
        spec: GameSpec,
        players: int,
        games: int,
        rules: Any,
        seats: list[SeatPolicy],
        seed: int,
        *,
        rotate_seats: bool = False,
        checked: bool = False,
        keep_rows: bool = False,
        chunk: int = DEFAULT_CHUNK,
        start: int = 0,
        precision: float | None = None,
        threads: int = 1,
        checkpoint: str | None = None,
        resume: bool = False,
    ):
        self.spec, self.game, self.players = spec, spec.name, players
        self.games, self.rules, self.seats, self.seed = games, rules, seats, int(seed)
        self.rotate, self.checked, self.keep_rows = rotate_seats, checked, keep_rows
        self.precision, self.threads = precision, threads
        self.resolved = spec.resolved(rules, players)
        self.plan = chunk_plan(start, games, chunk)
        self.fingerprint = {
            "command": "simulate",
            "game": spec.name,
            "players": players,
            "games": int(games),
            "seed": int(seed),
            "start": int(start),
            "chunk": int(chunk),
            "rules_hash": rules_hash(self.resolved),
            "policies": [[p.label, list(p.weights)] for p in seats],
            "rotate": rotate_seats if isinstance(rotate_seats, str) else bool(rotate_seats),
            "checked": bool(checked),
            "precision": precision,
        }
        self.summary = new_summary(spec, players, len(seats))
        self.done_chunks = 0
        self.ck = CheckpointFile(checkpoint, self.fingerprint, SIMULATE)
        saved = self.ck.start(resume)
        if saved is not None:
            with self.ck.checking():
                self.done_chunks, self.summary = sim_state(saved, self.summary, self.plan)
        self.kept: dict[int, np.ndarray] = {}
        self.total_games = games
        self.done_games = self.summary.games
        self.backend = "local"

    def tasks(self, backend: str) -> TaskList:
        self.backend = backend
        args = (self.game, self.players, self.rules, self.seats, self.seed)
        flags = (self.rotate, self.checked, self.keep_rows)
        return TaskList(
            self.plan,
            lambda first, n: Task(play_chunk, (*args, first, n, *flags), n),
            self.done_chunks,
        )

    def warm(self) -> None:
        warm_kernels(self.spec, self.players, self.rules, self.seats, self.rotate, self.checked)

    def fold(self, i: int, result: Any) -> bool:
        _, chunk_summary, rows = result
        return self.add(i, chunk_summary, rows)

    def add(self, i: int, chunk_summary: Summary, rows: np.ndarray | None = None) -> bool:
        """Merge chunk i (in plan order); save the checkpoint; True when the run may stop."""
        self.summary = self.summary.merge(chunk_summary)
        if rows is not None:
            self.kept[i] = rows
        self.ck.save(**sim_parts(i + 1, self.summary))
        return self.precision is not None and max_half_width(self.summary) <= self.precision

    def result(self, partial: bool = False) -> SimResult:
        df = None
        if self.keep_rows and self.kept:
            rows = np.concatenate([self.kept[k] for k in sorted(self.kept)])
            df = rows_frame(self.spec, rows, self.players)
        return SimResult(
            game=self.spec.name,
            players=self.players,
            games=self.summary.games,
            games_requested=self.games,
            precision=self.precision,
            seed=self.seed,
            rules=self.rules,
            resolved_rules=self.resolved,
            rules_hash=rules_hash(self.resolved),
            policies=[p.label for p in self.seats],
            rotate_seats=self.rotate,
            summary=self.summary,
            rows=df,
            elapsed_s=self.elapsed_s,
            threads=self.threads,
            end_reasons=self.spec.end_reasons,
            checked=self.checked,
            partial=partial,
            backend=self.backend,
            title=self.spec.title,
            games_played=self.summary.games - self.done_games,
        )


def prepare_simulation(
    spec: GameSpec,
    players: int,
    games: int,
    *,
    variants: list[str] | tuple[str, ...] = (),
    overrides: dict[str, Any] | None = None,
    rules_file: str | None = None,
    policies: str | list[SeatPolicy] | None = None,
    seed: int = 0,
    threads: int | None = None,
    rotate_seats: bool = False,
    checked: bool = False,
    keep_rows: bool = False,
    chunk_size: int | None = None,
    start: int = 0,
    precision: float | None = None,
    checkpoint: str | None = None,
    resume: bool = False,
) -> SimJob:
    """Validate and resolve a simulation (the arguments of `simulate`) into a SimJob, without
    playing it: `run_jobs` plays it, `job.result()` gives the SimResult."""
    spec.check_players(players)
    games, seed = check_games(games), check_seed(seed)
    # the kernels count game indices in int64: the last one at most MAX_INDEX
    start = check_whole(start, "start", maximum=MAX_INDEX + 1 - games)
    if precision is not None and not (0 < precision < 0.5):
        raise InputError(f"--precision must lie between 0 and 0.5, not {precision}")
    check_resume(checkpoint, resume)
    if checkpoint and keep_rows:
        raise InputError("--checkpoint keeps summaries only; it cannot be combined with --out")
    if keep_rows:
        check_rows(games, "--out")
    nthreads = check_threads(threads)
    rules = spec.resolve_rules(variants, overrides, rules_file, players)
    seats = policies if isinstance(policies, list) else spec.parse_policies(policies, players)
    seats = spec.resolve_seats(seats, rules)
    chunk = chunk_size or min(DEFAULT_CHUNK, max(games, 1))
    if chunk < 1:
        raise InputError("chunk size must be at least 1")
    return SimJob(
        spec,
        players,
        int(games),
        rules,
        seats,
        int(seed),
        rotate_seats=rotate_seats,
        checked=checked,
        keep_rows=keep_rows,
        chunk=chunk,
        start=start,
        precision=precision,
        threads=nthreads,
        checkpoint=checkpoint,
        resume=resume,
    )


def simulation_plan(spec: GameSpec, players: int, games: int, **kw: Any) -> Plan:
    """A simulation to run together with others (run_plans); kw as prepare_simulation."""
    job = prepare_simulation(spec, players, games, **kw)
    return Plan([job], job.result)


def simulate(spec: GameSpec, players: int, games: int, **kw: Any) -> SimResult:
    """Play `games` games (indices start .. start + games - 1) of the game `spec`
    (simcore.get_game(name)) and summarise them.

    kw: the keywords of prepare_simulation (variants, overrides, rules_file, policies, seed,
    threads, rotate_seats, checked, keep_rows, chunk_size, start, precision,
    checkpoint, resume) and the run options of run_jobs (backend, scheduler, workers, threads,
    progress).
    variants: names (composable with '+'); overrides: rules field -> value (strings are parsed
    as on the command line); policies: 'random,random,random' style text or parsed entries.
    precision: play in chunks until every seat's 95% Wilson half-width is at most this, with
    `games` as the upper bound (result.games says how many were played).
    backend: 'local' (numba threads) or 'dask' (an existing cluster at `scheduler`, or a local
    cluster of `workers` processes); the result is the same for every backend and chunking.
    checkpoint: a file where the summary of the completed chunks is saved atomically as the
    run goes; resume=True continues from it. Ctrl-C or SIGTERM raise Interrupted, carrying
    the partial result.
    """
    run_options, kw = split_run_options(kw)
    job = prepare_simulation(spec, players, games, threads=run_options.get("threads"), **kw)
    try:
        run_jobs([job], **run_options)
    except KeyboardInterrupt:
        raise Interrupted(job.result(partial=True)) from None
    return job.result()


def replay_game(
    spec: GameSpec, players: int, seed: int, index: int, *, version: str = "", **kw: Any
):
    """Game `index` of `seed` move by move, in checked mode (the same game as that index of a
    simulate with these settings): an object with .text() and .jsonl(). kw: the rules and
    players as prepare_simulation takes them (variants, overrides, rules_file, policies,
    rotate_seats), checked and resolved by it."""
    index = check_index(index)
    job = prepare_simulation(spec, players, 1, seed=seed, **kw)
    return spec.replay(
        job.rules,
        players,
        job.seats,
        job.seed,
        index,
        rotate=job.rotate,
        checked=True,
        version=version,
    )
