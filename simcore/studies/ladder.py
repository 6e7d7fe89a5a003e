"""`balance ladder`: the simulator's side of the rated ladder of players (analysis.ladder fits the
ratings and reads the balance at every skill level from what is played here; docs/skill.md).

The rungs, from the weakest to the strongest as designed (`ladder_rungs`): `random` when the
game has it, each other preset of the game (a --policy-file's preset among them), `trained`
where a model is shipped for the player count (docs/trained-players.md), `search` on
the game's default base at doubling budgets up to the top budget (four times the game's
default unless asked otherwise), then the players the user adds (--policy). The reference rung
is the game's default player (rating 0). A game without decisions has one rung.

The plan of games (`match_plan`), all on the same seed, so that game i of every match draws
the same random stream (common random numbers):
- **rating matches**: each rung other than the reference in one seat against the reference in
  the others, and each rung against the rung before it in the ladder (when neither is the
  reference: that pair is already a rating match), seats rotated (game i puts the entries
  rotated by i, so the rung sits in every seat equally often);
- **self-play**: each rung in every seat, seats fixed: the balance at that level of skill.
The search rungs' matches play `search_games` games (their games cost 100-1,000 times more).

A rating match keeps, besides the merged Summary, the histogram of the rung's pairwise points
per game against the others (a win over an opponent by the finishing order 2 half-points, a
tie 1): the data of the Bradley-Terry fit. Self-play keeps the outcome tally of the degenerate
play check (simcore.studies.outcomes.Outcomes). Each match's CPU time is measured around its
chunks (process CPU: every numba thread), for the table's CPU-ms a game; it is the only number
that differs between runs of the same seed (with the wall times). A checkpoint keeps every
finished match; --resume plays only the others. With a compared variant (--compare-variant)
each rating match is also played under the variant on the same games, and keeps the joint
histogram of the rung's points under both rules (the paired effect on the skill measure).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

import numpy as np

from simcore.base.errors import InputError
from simcore.base.inputs import MAX_GAMES, check_games, check_seed, check_whole
from simcore.base.results import LadderRun, Match, MatchResult, Rung
from simcore.base.rulesbase import rules_hash
from simcore.frame.registry import GameSpec, split_players
from simcore.frame.search import PARAMS as SEARCH_PARAMS
from simcore.run.checkpoint import (
    CheckpointKind,
    JobStates,
    summary_from_json,
    summary_to_json,
    whole,
)
from simcore.run.chunks import (
    DEFAULT_CHUNK,
    chunk_plan,
    new_summary,
    play_games,
    rows_frame,
    task_game,
    warm_kernels,
)
from simcore.run.jobs import Job, Plan, Task, TaskList, play
from simcore.studies.outcomes import Outcomes, outcomes_of

SEARCH_RUNGS = 5  # search rungs by default: the top budget and four halvings below it
TOP_FACTOR = 4  # the default top budget: four times the game's default budget
MIN_RATING_GAMES = 10  # fewer games a match cannot rate a rung (refused)
CHECKPOINT = CheckpointKind(
    "ladder", 1, ("matches",), "command, game, players, games, seed, rungs or rules"
)
# a saved match's state (joint: the compared variant's points, or null)
MATCH_KEYS = {"summary", "points", "outcomes", "joint", "cpu_s", "elapsed_s"}


# --------------------------------------------------------------------------------- rungs
def default_budget(spec: GameSpec) -> int:
    """The game's default `search` budget (simulations per decision)."""
    return int(spec.search_defaults.get("budget", SEARCH_PARAMS["budget"][0]))


STRONG_BUDGET_SHARE = 16


def strong_policy(
    spec: GameSpec, strong: str | None = None, counts: Iterable[int] = ()
) -> str | None:
    """The strong players of the report: --strong, else `trained` where a model is shipped
    for every player count of `counts` (docs/trained-players.md: a strong player at a few
    times a preset's cost, so as many games as the beginners), else `search` at 1/16 of the
    game's default budget (Sunken City: budget 1, from the second round, with the game's other
    search defaults: docs/skill.md), or None for a game without decisions."""
    if strong:
        return strong
    counts = [p for p in counts if p > 1]
    if counts and all(spec.has_model(p) for p in counts):
        return "trained"
    if "search" not in spec.policies:
        return None
    return f"search:budget={max(default_budget(spec) // STRONG_BUDGET_SHARE, 1)}"


def search_budgets(spec: GameSpec, top_budget: int | None, rungs: int) -> list[int]:
    """The budgets of the search rungs, ascending: top, top/2, ... (rungs of them, whole and at
    least 1, each once). top_budget None: four times the game's default."""
    top = TOP_FACTOR * default_budget(spec) if top_budget is None else top_budget
    check_rung_options(top, rungs)
    return sorted({max(top >> k, 1) for k in range(rungs)})


def check_rung_options(top_budget: int | None, rungs: int) -> None:
    """--top-budget (when given) and --search-rungs within their ranges, whatever the game
    (InputError): `ladder` and `robustness --ladder` refuse the same values."""
    _, lo, hi, _, _ = SEARCH_PARAMS["budget"]
    top = top_budget
    whole = isinstance(top, int) and not isinstance(top, bool)
    if top is not None and not (whole and max(lo, 1) <= top <= hi):
        raise InputError(f"--top-budget must be a whole number from 1 to {int(hi)}, not {top}")
    if isinstance(rungs, bool) or not isinstance(rungs, int) or not 0 <= rungs <= 12:
        raise InputError(f"--search-rungs must be a whole number from 0 to 12, not {rungs}")


def ladder_rungs(
    spec: GameSpec,
    top_budget: int | None = None,
    search_rungs: int = SEARCH_RUNGS,
    policies: list[str] | None = None,
    trained: bool = False,
) -> list[Rung]:
    """The rungs from the weakest to the strongest as designed (the module docstring): with
    `trained`, the `trained` player after the presets (where the game has it); each
    --policy (policies) adds one rung, checked (RulesError for an unknown player or weight).
    A game without decisions (no `search`, one player) has its one player as its one rung,
    and refuses added players; a game without search refuses --top-budget."""
    check_rung_options(top_budget, search_rungs)
    if "search" not in spec.policies and top_budget is not None:
        raise InputError(f"--top-budget: {spec.no_search or spec.name + ' has no search'}")
    if "search" not in spec.policies and len(spec.presets) == 1:
        if policies:
            raise InputError(
                f"{spec.name} has no decisions: its ladder is its one player "
                f"({spec.presets[0]}), no other can be added"
            )
        return [Rung(spec.presets[0], "preset")]
    rungs = [Rung("random", "random")] if "random" in spec.presets else []
    rungs += [Rung(p, "preset") for p in spec.presets if p != "random"]
    if trained and "trained" in spec.policies:
        rungs.append(Rung("trained", "trained"))
    if "search" in spec.policies:
        rungs += [
            Rung(f"search:budget={b}", "search", b)
            for b in search_budgets(spec, top_budget, search_rungs)
        ]
    for text in policies or []:
        parts = split_players(text.strip())
        if len(parts) != 1 or not parts[0]:
            raise InputError(f"--policy '{text}' is not one player: give one --policy per rung")
        (seat,) = spec.parse_policies(parts[0], 1)
        if seat.label in {r.name for r in rungs}:
            raise InputError(f"--policy '{text}' is already a rung of the ladder")
        rungs.append(Rung(seat.label, "user", int(_budget_of(seat))))
    return rungs


def _budget_of(seat: Any) -> float:
    return seat.spec.weights.get("budget", 0) if seat.spec.name == "search" else 0


# --------------------------------------------------------------------------------- matches
def match_plan(
    rungs: list[Rung], reference: str, games: int, search_games: int, players: int
) -> list[Match]:
    """The matches (the module docstring): per rung its self-play, its rating match against
    the reference and against the rung before it (when neither is the reference); a match
    with a search rung plays search_games."""
    names = [r.name for r in rungs]
    search = {r.name for r in rungs if r.is_search}

    def n(*who: str | None) -> int:
        return search_games if any(w in search for w in who) else games

    out = []
    for i, r in enumerate(names):
        out.append(Match(r, None, n(r)))
        if r != reference:
            out.append(Match(r, reference, n(r, reference)))
        if i > 0 and reference not in (r, names[i - 1]):
            out.append(Match(r, names[i - 1], n(r, names[i - 1])))
    return out


# --------------------------------------------------------------------------------- playing
def pairwise_points(frame: Any, players: int, entry: int = 0) -> np.ndarray:
    """Per game, the half-points of the player of policy-list entry `entry` against each other
    seat by the finishing order: 2 when it finished above that seat, 1 when level, 0 below
    (int64[games], 0 .. 2 (players - 1)). A seat sharing first place (win_mask) finishes above
    every seat outside it; among the others the higher score, then the higher tie-break, is
    above (the default winners rule, simcore.frame.skeleton.winners_by_score)."""
    pol = frame[[f"policy_{s}" for s in range(players)]].to_numpy()
    score = frame[[f"score_{s}" for s in range(players)]].to_numpy()
    tb = frame[[f"tiebreak_{s}" for s in range(players)]].to_numpy()
    mask = frame["win_mask"].to_numpy()
    first = (mask[:, None] >> np.arange(players)) & 1
    rows = np.arange(len(frame))
    me = np.argmax(pol == entry, axis=1)
    key = score * (1 << 32) + tb  # the order of (score, tie-break) pairs (both below 2**31)
    my_first, my_key = first[rows, me], key[rows, me]
    above = (my_first[:, None] > first) | ((my_first[:, None] == first) & (my_key[:, None] > key))
    level = (my_first[:, None] == first) & (my_key[:, None] == key)
    half = 2 * above.astype(np.int64) + level.astype(np.int64)
    half[rows, me] = 0  # not against itself
    return half.sum(axis=1)


def play_match_chunk(
    game: str,
    players: int,
    rules: Any,
    seats: list,
    seed: int,
    first: int,
    n: int,
    rotate: bool,
    alt: tuple[Any, list] | None = None,
    threads: int | None = None,
):
    """Games first .. first + n - 1 of a match (the unit of work on every backend): (Summary,
    the histogram of the rung's pairwise half-points (int64[2 players - 1]) when seats are
    rotated, else the Outcomes of self-play, the CPU seconds of the process while it played
    them, and with `alt` (the rules and seats of a compared variant) the joint histogram of
    the half-points of each game under the two rules (int64[K * K], K = 2 players - 1: base
    points * K + variant points; the same games, common random numbers), else None)."""
    spec = task_game(game)
    cpu = time.process_time()
    _, summary, rows = play_games(
        spec, players, rules, seats, seed, first, n, rotate, False, True, threads
    )
    cpu = time.process_time() - cpu
    frame = rows_frame(spec, rows, players)
    if not rotate:
        return summary, None, outcomes_of(spec, frame, players), cpu, None
    k = 2 * players - 1
    points = pairwise_points(frame, players)
    hist = np.bincount(points, minlength=k).astype(np.int64)
    if alt is None:
        return summary, hist, None, cpu, None
    _, _, alt_rows = play_games(
        spec, players, alt[0], alt[1], seed, first, n, rotate, False, True, threads
    )
    alt_points = pairwise_points(rows_frame(spec, alt_rows, players), players)
    joint = np.bincount(points * k + alt_points, minlength=k * k).astype(np.int64)
    return summary, hist, None, cpu, joint


class MatchJob(Job):
    """One match played in chunks; its summary, points histogram or outcomes and CPU time
    merged in plan order; done(job) is called when its last chunk is folded."""

    def __init__(self, spec, players, match: Match, rules, seats, seed, chunk, done, alt=None):
        self.spec, self.game, self.players = spec, spec.name, players
        self.alt = alt if match.other is not None else None  # a compared variant's (rules, seats)
        k = 2 * players - 1
        self.joint = np.zeros(k * k, dtype=np.int64) if self.alt is not None else None
        self.match, self.rules, self.seats, self.seed = match, rules, seats, seed
        self.rotate = match.other is not None
        self.plan = chunk_plan(0, match.games, chunk)
        self.label = match.label
        self.total_games = match.games * (2 if self.alt is not None else 1)
        self.done_games = 0
        self.summary = new_summary(spec, players, len(seats))
        self.points = np.zeros(2 * players - 1, dtype=np.int64)
        self.outcomes = Outcomes()
        self.cpu_s = 0.0
        self.skip = 0
        self.done = done

    def result(self) -> MatchResult:
        """The match as played so far (its MatchResult)."""
        labels = [p.label for p in self.seats]
        return MatchResult(
            self.match,
            labels,
            self.summary,
            self.points,
            self.outcomes,
            self.cpu_s,
            self.elapsed_s,
            self.joint,
        )

    def tasks(self, backend: str) -> TaskList:
        args = (self.game, self.players, self.rules, self.seats, self.seed)
        return TaskList(
            self.plan,
            lambda first, n: Task(
                play_match_chunk, (*args, first, n, self.rotate, self.alt), n * (1 + bool(self.alt))
            ),
            self.skip,
        )

    def warm(self) -> None:
        warm_kernels(self.spec, self.players, self.rules, self.seats, self.rotate, False)

    def fold(self, i: int, result: Any) -> bool:
        summary, hist, outcomes, cpu, joint = result
        self.summary = self.summary.merge(summary)
        if joint is not None:
            self.joint += joint
        if hist is not None:
            self.points += hist
        if outcomes is not None:
            self.outcomes.add(outcomes)
        self.cpu_s += cpu
        if i == len(self.plan) - 1:
            self.done(self)
        return False

    def state_json(self) -> dict:
        return {
            "summary": summary_to_json(self.summary),
            "points": self.points.tolist(),
            "outcomes": self.outcomes.to_json(),
            "joint": None if self.joint is None else self.joint.tolist(),
            "cpu_s": self.cpu_s,
            "elapsed_s": self.elapsed_s,
        }

    def restore(self, data: Any) -> None:
        """A finished match from the checkpoint (InputError saying what does not fit)."""
        key = self.match.key
        if not isinstance(data, dict) or set(data) != MATCH_KEYS:
            raise InputError(f"match {key} has the wrong fields")
        try:
            self.summary = summary_from_json(data["summary"], self.summary)
        except InputError as e:
            raise InputError(f"match {key}: {e}") from None
        if self.summary.games != self.match.games:
            raise InputError(f"match {key} holds {self.summary.games} games")
        pts = data["points"]
        if not (isinstance(pts, list) and len(pts) == len(self.points) and all(map(whole, pts))):
            raise InputError(f"match {key}: its points are not {len(self.points)} counts")
        self.points = np.asarray(pts, dtype=np.int64)
        joint = data["joint"]
        if self.joint is None and joint is not None:
            raise InputError(f"match {key}: it holds a compared variant's points")
        if self.joint is not None:
            n = len(self.joint)
            if not (isinstance(joint, list) and len(joint) == n and all(map(whole, joint))):
                raise InputError(f"match {key}: its joint points are not {n} counts")
            if sum(joint) != self.match.games:
                raise InputError(f"match {key}: its joint points are not of its games")
            self.joint = np.asarray(joint, dtype=np.int64)
        self.outcomes = Outcomes.from_json(data["outcomes"], self.players)
        for k in ("cpu_s", "elapsed_s"):
            v = data[k]
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not v >= 0:
                raise InputError(f"match {key}: its {k} is not a time in seconds")
        self.cpu_s, self.elapsed_s = float(data["cpu_s"]), float(data["elapsed_s"])
        self.skip = 1 << 62
        self.done_games = self.total_games


# --------------------------------------------------------------------------------- the run
def match_jobs(
    spec: GameSpec,
    players: int,
    matches: list[Match],
    rules: Any,
    seed: int,
    search_games: int,
    chunk_size: int | None,
    done: Any,
    alt_rules: Any = None,
) -> list[MatchJob]:
    """A MatchJob per match (the ladder's, and the rating matches of `balance robustness
    --ladder`): its seats resolved on `rules`, chunks of at most DEFAULT_CHUNK games (1,024
    for a match of search_games), with a compared variant's rules and seats (alt_rules)."""
    jobs = []
    for m in matches:
        seats = spec.resolve_seats(spec.parse_policies(m.policies(players), players), rules)
        chunk = chunk_size or min(DEFAULT_CHUNK, 1_024 if m.games == search_games else m.games)
        alt = None
        if alt_rules is not None:
            text = spec.parse_policies(m.policies(players), players)
            alt = (alt_rules, spec.resolve_seats(text, alt_rules))
        jobs.append(MatchJob(spec, players, m, rules, seats, seed, chunk, done, alt))
    return jobs


def ladder_plan(
    spec: GameSpec,
    players: int,
    games: int,
    *,
    search_games: int | None = None,
    seed: int = 1,
    top_budget: int | None = None,
    search_rungs: int = SEARCH_RUNGS,
    policies: list[str] | None = None,
    variants: list[str] | None = None,
    overrides: dict[str, Any] | None = None,
    rules_file: str | None = None,
    compare_variant: str | None = None,
    chunk_size: int | None = None,
    checkpoint: str | None = None,
    resume: bool = False,
) -> Plan:
    """The ladder of a game as a plan (its result a LadderRun): games per match (search_games
    for a match with a search rung: default a quarter of games); the rungs and matches of the
    module docstring. compare_variant: a variant (composable, a rules file's too) under which
    every rating match is played again on the same games, for its paired effect on the skill
    measure (its rules: the ladder's, then the variant). Everything is checked before a game
    is played."""
    spec.check_players(players)
    if players < 2:
        raise InputError("a ladder rates players against each other: --players 2 or more")
    games = check_games(games, MIN_RATING_GAMES, " a match for a rating")
    search_games = max(games // 4, MIN_RATING_GAMES) if search_games is None else search_games
    search_games = check_whole(
        search_games, "--search-games", MIN_RATING_GAMES, " for a rating", maximum=MAX_GAMES
    )
    seed = check_seed(seed)
    if chunk_size is not None and (not isinstance(chunk_size, int) or chunk_size < 1):
        raise InputError("chunk size must be at least 1")
    rungs = ladder_rungs(spec, top_budget, search_rungs, policies, spec.has_model(players))
    rules = spec.resolve_rules(variants or (), overrides, rules_file, players)
    resolved = spec.resolved(rules, players)
    alt_rules = None
    if compare_variant:
        if len(rungs) == 1:
            raise InputError(f"--compare-variant: {spec.name}'s ladder has one rung, no skill")
        alt_rules = spec.resolve_rules(
            [*(variants or ()), compare_variant], overrides, rules_file, players
        )
    matches = match_plan(rungs, spec.default_policy, games, search_games, players)
    states = JobStates(CHECKPOINT, lambda job: job.match.key)
    jobs = match_jobs(
        spec, players, matches, rules, seed, search_games, chunk_size, states.save, alt_rules
    )
    fingerprint = {
        "command": "ladder",
        "game": spec.name,
        "players": players,
        "seed": seed,
        "rules_hash": rules_hash(resolved),
        "matches": [[j.match.key, j.match.games, j.plan.chunk] for j in jobs],
        "compare_variant": compare_variant or "",
        "variant_rules_hash": rules_hash(alt_rules.resolved(players)) if alt_rules else "",
    }
    restored = states.open(checkpoint, fingerprint, resume, jobs)
    started = time.perf_counter()

    def finish() -> LadderRun:
        return LadderRun(
            game=spec.name,
            title=spec.title,
            players=players,
            rungs=rungs,
            reference=spec.default_policy if len(rungs) > 1 else rungs[0].name,
            matches=[j.result() for j in jobs],
            seed=seed,
            games=games,
            search_games=search_games,
            rules=resolved,
            rules_hash=rules_hash(resolved),
            elapsed_s=time.perf_counter() - started,
            no_decisions=spec.no_search if len(rungs) == 1 else "",
            resumed=restored,
            end_reasons=tuple(spec.end_reasons),
            compare_variant=compare_variant or "",
        )

    return Plan(jobs, finish)


def run_ladder(spec: GameSpec, players: int, games: int, **kw: Any) -> LadderRun:
    """Play the ladder (ladder_plan; kw as it) with the run options of run_jobs (backend,
    scheduler, workers, threads, progress: a line per finished match). Ctrl-C or SIGTERM
    raise KeyboardInterrupt; the finished matches are in the checkpoint."""
    return play(ladder_plan, spec, players, games, **kw)
