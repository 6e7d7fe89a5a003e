"""`balance compensate`: the simulator's side of seat compensation ("komi", issue #38;
simcore.base.fairness judges, analysis.compensate words what is played here;
docs/compensation.md).

A game offers per-seat compensation as rules fields (its rules class' SEAT_FIELDS, each a rule
a rulebook could print, with SEAT_SEARCH: the largest amount a seat is given in the search).
The study looks for the smallest compensation that evens the seats at one skill level:

1. **Screening** (`games` a candidate, all on the same seed: game i of every candidate draws
   the same random stream, so candidates differ only by their compensation). A candidate is
   one field with an amount per seat, 0 to the field's search maximum, at least one seat at 0
   (adding the same to every seat is no compensation). When a group's candidates are at most
   `budget`, every one is played (exhaustive); otherwise optuna's TPE sampler (seeded) picks
   `budget` of them, with the favoured seat of the baseline (or of the end rule alone) at 0.
2. **Confirmation** on fresh games (another seed, `confirm_games` games): the baseline, the
   simplest candidate whose screening gap is within the tolerance, and the smallest gaps, to
   CONFIRM_TOP candidates (_finalists). The search's own estimates never judge: only the
   confirmation does; the recommendation is the simplest finalist confirmed fair
   (simcore.base.fairness.recommend, chosen once and kept in the run).
3. **Every level** (`levels`: the reference preset and the report's strong players, or every
   rung of the ladder): the baseline and the recommendation played again with that player in
   every seat (`level_games` games, same seed for both).
4. **One compensation per level**: where the recommendation is not fair at a level and the
   rulebook is not fair there either, steps 1 and 2 again with that player in every seat
   (`level_screen_games` a candidate, at most `level_budget` a group), the finalists confirmed
   on the level's `level_games` fresh games.

The candidates are searched in groups: each seat field; each end rule (END_RULES) alone; each
end rule with each seat field (its amounts under that rule).

Every play (a candidate, its games, seed and players) is a job of simcore.run.jobs, so the
run is the same on any number of threads and on the Dask backend (one local cluster for the
whole run with --workers). With a checkpoint (simcore.run.checkpoint), each finished play is
saved as it finishes (its seat wins and shared wins, keyed by what was played); --resume plays
only the others. The search draws again what it drew (optuna's sampler is seeded and is told
the same gaps), so a resumed run is the uninterrupted one.
"""

from __future__ import annotations

import itertools
import json
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from simcore.base.errors import BalanceError, InputError, RulesError
from simcore.base.fairness import FAIR, TOLERANCE, UNFAIR, fair_status, recommend
from simcore.base.inputs import MAX_GAMES, check_seed, check_whole
from simcore.base.results import Candidate, CompensateRun, LevelSearch, Played
from simcore.base.rulesbase import rules_hash
from simcore.frame.registry import GameSpec, split_players
from simcore.run.checkpoint import CheckpointFile, CheckpointKind, check_resume, whole
from simcore.run.jobs import Job, check_backend, check_threads, run_jobs, split_run_options
from simcore.run.runner import prepare_simulation
from simcore.studies.ladder import ladder_rungs, strong_policy

BUDGET = 300  # candidates a group is searched with (exhaustive up to this many)
LEVEL_BUDGET = 24  # candidates a group is searched with at another level (0: no such search)
CONFIRM_TOP = 3
REFINE_TOP = 8  # candidates played again on more games before the finalists are chosen
REFINE_SHARE = 8  # ... on 1/REFINE_SHARE of the calibration's games
# a compensate checkpoint: every finished play (PlayJob.key -> PlayJob.state); format 1 since
# compensate has checkpoints
CHECKPOINT = CheckpointKind(
    "compensate",
    1,
    ("played",),
    "command, game, players, games, seed, rules, player, fields, amounts, budget, tolerance "
    "or levels",
)
PLAY_KEYS = {"seat_wins", "shared_wins", "rules_hash", "policies"}


@dataclass
class Group:
    """What is searched as one: a seat field's amounts (under an end rule or not), or an end
    rule alone (field ''); top: a seat's largest amount."""

    name: str
    field: str
    top: int
    rule: tuple[tuple[str, str], ...]
    cands: list[Candidate]
    ranks: bool = False  # only the order of the seats' amounts counts (SEAT_RANKS)


def seat_fields(spec: Any) -> list[str]:
    """The game's compensation fields (its rules class' SEAT_FIELDS)."""
    return list(getattr(spec.rules_cls, "SEAT_FIELDS", ()))


def field_candidates(name: str, players: int, top: int, ranks: bool = False) -> list[Candidate]:
    """Every amount vector of 0..top per seat with at least one seat at 0 and one not, ordered
    by the seats changed, then the total amount. ranks: a field of which only the seats' order
    counts (SEAT_RANKS, a tie rank): one vector an order, its smallest (dense ranks 0, 1, ...)."""
    out = [
        Candidate(name, v)
        for v in itertools.product(range(top + 1), repeat=players)
        if min(v) == 0 and max(v) > 0 and (not ranks or v == dense_ranks(v))
    ]
    return sorted(out, key=lambda c: (c.seats_changed, c.total, c.amounts))


def dense_ranks(v: tuple[int, ...]) -> tuple[int, ...]:
    """The smallest amounts in the same order as v: each amount's place among v's distinct
    amounts (0, 2, 2 -> 0, 1, 1)."""
    order = sorted(set(v))
    return tuple(order.index(a) for a in v)


class PlayJob(Job):
    """One candidate played on some games (a SimJob of simcore.run.runner): `played` once its
    last chunk is folded or it is restored from the checkpoint; `done(self)` then (the save)."""

    def __init__(self, cand: Candidate, sim: Any, lineup: str, done: Any):
        self.cand, self.sim, self.lineup, self.done = cand, sim, lineup, done
        self.game, self.players = sim.game, sim.players
        self.total_games, self.done_games = sim.total_games, 0
        self.rules_hash = rules_hash(sim.resolved)
        self.policies = json.loads(json.dumps([[p.label, list(p.weights)] for p in sim.seats]))
        self.key = f"seed {sim.seed}/{sim.games} games/{lineup}/{cand.label}"
        self.played: Played | None = None

    def tasks(self, backend: str):
        return self.sim.tasks(backend)

    def warm(self) -> None:
        self.sim.warm()

    def fold(self, i: int, result: Any) -> bool:
        self.sim.fold(i, result)
        if i == len(self.sim.plan) - 1:
            sm = self.sim.summary
            self._set([int(w) for w in sm.seat_wins], int(sm.shared_wins))
            self.done(self)
        return False

    def _set(self, seat_wins: list[int], shared_wins: int) -> None:
        sim = self.sim
        self.played = Played(
            self.cand, sim.games, seat_wins, shared_wins, self.lineup, sim.seed, self.rules_hash
        )

    def state(self) -> dict[str, Any]:
        """The finished play as the checkpoint keeps it."""
        assert self.played is not None
        p = self.played
        return {
            "seat_wins": p.seat_wins,
            "shared_wins": p.shared_wins,
            "rules_hash": p.rules_hash,
            "policies": self.policies,
        }

    def restore(self, data: Any) -> None:
        """A finished play from the checkpoint (InputError saying what does not fit)."""
        key, games = self.key, self.sim.games
        if not isinstance(data, dict) or set(data) != PLAY_KEYS:
            raise InputError(f"play '{key}' has the wrong fields")
        wins, shared = data["seat_wins"], data["shared_wins"]
        if not (isinstance(wins, list) and len(wins) == self.players and all(map(whole, wins))):
            raise InputError(f"play '{key}': its seat_wins are not {self.players} counts")
        if not whole(shared) or sum(wins) + shared > games:
            raise InputError(f"play '{key}': its wins are not of its {games} games")
        if data["rules_hash"] != self.rules_hash or data["policies"] != self.policies:
            raise InputError(f"play '{key}': its rules or players differ")
        self._set(list(wins), shared)


class _Plan:
    """How each candidate is played: the rules and players of the run, one seed; the finished
    plays ({PlayJob.key: state}: the checkpoint's, and this run's, saved as each finishes)."""

    def __init__(self, spec, players, policy, variants, overrides, rules_file, threads):
        self.spec, self.players, self.policy = spec, players, policy
        self.variants, self.overrides, self.rules_file = variants, overrides, rules_file
        self.threads = threads
        self.lineup = ",".join([policy] * players)
        self.ck = CheckpointFile(None, {}, CHECKPOINT)
        self.saved: dict[str, Any] = {}
        self.known: dict[tuple[int, str], Played] = {}  # (seed, lineup) -> the rulebook's

    def job(self, cand: Candidate, games: int, seed: int, lineup: str | None = None):
        sim = prepare_simulation(
            self.spec,
            self.players,
            games,
            variants=self.variants,
            overrides={**self.overrides, **cand.overrides()},
            rules_file=self.rules_file,
            policies=lineup or self.lineup,
            seed=seed,
            threads=self.threads,
        )
        return PlayJob(cand, sim, lineup or self.lineup, self._save)

    def know(self, result: Any) -> bool:
        """A play of the rulebook made elsewhere (a SimResult, such as the report's seat
        balance): kept as the rulebook's play on its seed and lineup (rulebook) when its rules
        and players are this plan's (the same rules hash and seats, seats not rotated, every
        game played); whether it was kept. A SimResult does not record its first game: the
        caller gives plays of games 0.. (the report's are)."""
        if result.rotate_seats or result.partial:
            return False
        lineup = ",".join(result.policies)
        job = self.job(Candidate(), result.games, result.seed, lineup)
        if job.rules_hash != result.rules_hash or job.sim.games != result.summary.games:
            return False
        if [s.label for s in job.sim.seats] != list(result.policies):
            return False
        sm = result.summary
        job._set([int(w) for w in sm.seat_wins], int(sm.shared_wins))
        key = (result.seed, lineup)
        if key not in self.known or self.known[key].games < result.games:
            self.known[key] = job.played
        return True

    def rulebook(self, games: int, seed: int, lineup: str | None, run_options) -> Played:
        """The rulebook on at least `games` games of `seed`: a known play of it with as many
        games or more (know), else played."""
        known = self.known.get((seed, lineup or self.lineup))
        if known is not None and known.games >= games:
            return known
        (played,) = self.play([(Candidate(), games, seed, lineup)], run_options)
        return played

    def _save(self, job: PlayJob) -> None:
        self.saved[job.key] = job.state()
        self.ck.save(played=self.saved)

    def play(self, items, run_options) -> list[Played]:
        """items: (candidate, games, seed, lineup) -> each played (one run of the jobs not
        played before: a play of the checkpoint, or of this run, is not played again)."""
        jobs = [self.job(c, g, s, lu) for c, g, s, lu in items]
        with self.ck.checking():
            for j in jobs:
                if j.key in self.saved:
                    j.restore(self.saved[j.key])
        todo = [j for j in jobs if j.played is None]
        if todo:
            run_jobs(todo, **run_options)
        return [j.played for j in jobs]


def _valid(plan: _Plan, cands: list[Candidate]) -> tuple[list[Candidate], str]:
    """The candidates the rules accept, and the reason of the first refused one."""
    ok, why = [], ""
    for c in cands:
        try:
            plan.spec.resolve_rules(
                list(plan.variants),
                {**plan.overrides, **c.overrides()},
                plan.rules_file,
                plan.players,
            )
        except RulesError as e:
            why = why or str(e)
            continue
        ok.append(c)
    return ok, why


def _optuna_search(plan, g: Group, favoured, shift, games, seed, budget, lineup, opts, echo):
    """`budget` trials of optuna's TPE sampler (seeded) over the group's amounts of every seat
    but the favoured one (0), each played on the screening games and told its predicted gap
    (Played.predicted_gap, with `shift`); the trials' candidates."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(sampler=optuna.samplers.TPESampler(seed=seed % 2**32))
    played: dict[tuple[int, ...], Played] = {}
    for _ in range(budget):
        trial = study.ask()
        v = tuple(
            0 if s == favoured else trial.suggest_int(f"seat{s}", 0, g.top)
            for s in range(plan.players)
        )
        if g.ranks:
            v = dense_ranks(v)
        cand = Candidate(g.field, v, g.rule)
        if max(v) == 0 or not _valid(plan, [cand])[0]:
            study.tell(trial, 1e9)
            continue
        if v not in played:
            played[v] = plan.play([(cand, games, seed, lineup)], opts)[0]
            played[v].shift = shift
        study.tell(trial, played[v].predicted_gap)
    echo(f"  {g.name}: {len(played)} candidates by optuna TPE ({budget} trials)")
    return list(played.values())


def _groups(plan: _Plan, chosen: list[str], max_amount: int | None):
    """What is searched: each seat field chosen, then each end rule (END_RULES) chosen alone
    and with each seat field chosen; only the candidates the rules accept ([Group], {name:
    why none}), checked before anything is played; InputError when no group has one."""
    groups: list[Group] = []
    skipped: dict[str, str] = {}
    ends = getattr(plan.spec.rules_cls, "END_RULES", {})
    seats = [c for c in chosen if c not in ends]
    cls = plan.spec.rules_cls
    wanted = [
        Group(f, f, max_amount or cls.SEAT_SEARCH[f], (), [], f in cls.SEAT_RANKS) for f in seats
    ]
    per_seat = list(wanted)
    for name in [c for c in chosen if c in ends]:
        rule = ((name, ends[name][0]),)
        wanted.append(Group(name, "", 0, rule, [Candidate(rule=rule)]))
        wanted += [Group(f"{name}+{g.field}", g.field, g.top, rule, [], g.ranks) for g in per_seat]
    for g in wanted:
        if g.field:
            g.cands = [
                Candidate(g.field, c.amounts, g.rule)
                for c in field_candidates(g.field, plan.players, g.top, g.ranks)
            ]
        g.cands, why = _valid(plan, g.cands)
        if g.cands:
            groups.append(g)
        else:
            skipped[g.name] = why or "no candidate"
    if not groups:
        raise InputError(
            "no compensation field can be played with these rules: "
            + "; ".join(f"{k}: {v}" for k, v in skipped.items())
        )
    return groups, skipped


def _favoured(p: Played) -> int:
    r = p.predicted
    return max(range(len(r)), key=lambda s: (r[s], -s))


def _calibrate(plan, baseline: Played, games: int, seed: int, lineup, run_options) -> Played:
    """The rulebook on `games` games of the screening's seed (at least the screening's: its
    first games are the screening's own), which anchors the screened candidates' predicted
    rates (Played.predicted): the screening's own luck moves every candidate alike, the
    calibration's far less. A known play of the rulebook on that seed with as many games or
    more is the calibration (_Plan.rulebook: the report's seat balance)."""
    calib = plan.rulebook(max(games, baseline.games), seed, lineup, run_options)
    baseline.shift = _shift(calib, baseline)
    return calib


def _shift(calib: Played, base: Played) -> tuple[float, ...]:
    """The calibration's seat rates minus the rulebook's on the screening (or refining)
    games: what every candidate played on those games is shifted by (Played.predicted)."""
    return tuple(c / calib.games - b / base.games for c, b in zip(calib.seat_wins, base.seat_wins))


def _screen(plan, groups, baseline, games, seed, budget, lineup, run_options, echo):
    """Every group's candidates played on the screening games (exhaustive up to `budget`,
    optuna beyond, with the favoured seat at 0: the calibrated rulebook's, or under an end
    rule the rule's alone), each shifted by the calibration (baseline.shift): (the played,
    {group: how})."""
    screened: list[Played] = []
    searched: dict[str, str] = {}
    alone: dict[tuple, Played] = {(): baseline}
    shift = baseline.shift
    for g in groups:
        if len(g.cands) <= budget:
            found = plan.play([(c, games, seed, lineup) for c in g.cands], run_options)
            for p in found:
                p.shift = shift
            searched[g.name] = f"exhaustive ({len(g.cands)} candidates, amounts 0 to {g.top})"
            if not g.field:
                searched[g.name] = "exhaustive (the rule alone)"
                alone[g.rule] = found[0]
            echo(f"  {g.name}: {len(g.cands)} candidates screened")
        else:
            favoured = _favoured(alone.get(g.rule, baseline))
            found = _optuna_search(
                plan, g, favoured, shift, games, seed, budget, lineup, run_options, echo
            )
            searched[g.name] = (
                f"optuna TPE ({budget} trials, {len(found)} candidates, 0 to {g.top})"
            )
        screened += found
    return screened, searched


def _fresh(seed: int) -> int:
    """The seed of the fresh games (the confirmation and the levels)."""
    return seed + 1 if seed < 2**64 - 1 else seed - 1


def _simplest(p: Played) -> tuple:
    """The order of simplicity: the fewest changes, then the smallest amounts."""
    return (p.candidate.changes, p.candidate.total, p.predicted_gap)


def _best(plays: list[Played], tolerance: float, n: int) -> list[Played]:
    """The simplest play whose predicted gap is within the tolerance, then the smallest
    predicted gaps, n in all."""
    chosen = sorted((p for p in plays if p.predicted_gap <= tolerance), key=_simplest)[:1]
    for p in sorted(plays, key=lambda p: (p.predicted_gap, p.candidate.total)):
        if len(chosen) < n and all(p is not c for c in chosen):
            chosen.append(p)
    return chosen


def _refine(plan, screened, calib, games, seed, lineup, tolerance, run_options, echo, n_calib, top):
    """The screening's best (_best: `top` of them, REFINE_TOP unless the run says fewer, and
    the simplest passing) played again on more games of its seed (1/REFINE_SHARE of the
    calibration's asked for, n_calib, however many a known play gave it; at least the
    screening's), each predicted anew from these games (a candidate's effect on 2,000 games
    is off by about a point: too coarse to tell a fair candidate from its neighbours). The
    refined plays, shifted by the calibration."""
    pick = _best(screened, tolerance, top + 1)
    n = max(games, max(n_calib, games) // REFINE_SHARE)
    if n == games:
        return pick
    items = [(Candidate(), n, seed, lineup)] + [(p.candidate, n, seed, lineup) for p in pick]
    base, *refined = plan.play(items, run_options)
    for p in refined:
        p.shift = _shift(calib, base)
    echo(f"  refined: the best {len(refined)} again on {n:,} games of the screening's seed")
    return refined


def _confirm(plan, cands, games, seed, lineup, tolerance, first_fair, run_options) -> list[Played]:
    """The rulebook and the finalists (simplest first) on `games` fresh games of `seed`:
    every finalist, or with first_fair one after the other until one is confirmed fair (the
    recommendation is the first fair one, simcore.base.fairness.recommend, so the finalists
    after it would not change it)."""
    if not first_fair or not cands:
        return plan.play([(c, games, seed, lineup) for c in [Candidate(), *cands]], run_options)
    out = plan.play([(c, games, seed, lineup) for c in (Candidate(), cands[0])], run_options)
    for c in cands[1:]:
        if fair_status(out[-1], tolerance) == FAIR:
            break
        out += plan.play([(c, games, seed, lineup)], run_options)
    return out


def _finalists(refined: list[Played], tolerance: float, top: int) -> list[Candidate]:
    """The candidates confirmed on fresh games (_best, `top` of them: CONFIRM_TOP unless the
    run says fewer), simplest first."""
    return [p.candidate for p in sorted(_best(refined, tolerance, top), key=_simplest)]


def compensate_plan_levels(spec: Any, levels: list[str] | None, ladder: bool) -> list[str]:
    """The levels the recommendation is checked at: the given players, every rung of the
    ladder, or the reference preset and the strong players of the report (`search` at 1/16
    of the game's default budget: simcore.studies.ladder.strong_policy)."""
    if levels:
        for lv in levels:
            if len(split_players(lv)) != 1:
                raise InputError(f"--level '{lv}': give one player per --level")
            spec.parse_policies(lv, 1)  # RulesError for an unknown player
        return list(dict.fromkeys(levels))
    if ladder:
        return [r.name for r in ladder_rungs(spec)]
    return list(dict.fromkeys([spec.default_policy, strong_policy(spec) or spec.default_policy]))


COUNT_OPTIONS = {
    "games": "--games",
    "confirm_games": "--confirm-games",
    "level_games": "--level-games",
    "level_screen_games": "--level-screen-games",
}


def _checked_counts(counts: dict[str, Any], seed, budget, level_budget, tolerance):
    """The counts (COUNT_OPTIONS), seed, budgets and tolerance checked (InputError naming the
    option): (counts, seed, budget, level_budget)."""
    counts = {
        k: check_whole(counts[k], what, 1, maximum=MAX_GAMES) for k, what in COUNT_OPTIONS.items()
    }
    seed = check_seed(seed)
    budget = check_whole(budget, "--budget", minimum=1, maximum=100_000)
    level_budget = check_whole(level_budget, "--level-budget", minimum=0, maximum=100_000)
    if not (isinstance(tolerance, (int, float)) and 0 < tolerance < 50):
        raise InputError(f"--tolerance must lie between 0 and 50 points, not {tolerance}")
    return counts, seed, budget, level_budget


def _checked_fields(spec: Any, players: int, fields: list[str] | None) -> list[str]:
    """The fields to search (all the game's seat fields and end rules unless given), each
    one of the game's."""
    if players < 2:
        raise InputError("compensation evens seats: it needs at least 2 players")
    known = seat_fields(spec)
    ends = list(getattr(spec.rules_cls, "END_RULES", {}))
    if not known:
        raise InputError(
            f"{spec.name} has no seat compensation fields yet (docs/compensation.md lists "
            "the games that have them)"
        )
    for f in fields or []:
        if f not in known + ends:
            raise InputError(
                f"unknown compensation field '{f}' (choose from {', '.join(known + ends)})"
            )
    return list(dict.fromkeys(fields or known + ends))


def _start_checkpoint(plan: _Plan, path, resume, settings: dict[str, Any], echo) -> None:
    """The run's checkpoint (its fingerprint: the settings and the rules' hash), and the
    finished plays of the run it continues (said on echo)."""
    rules = plan.spec.resolve_rules(
        list(plan.variants), plan.overrides, plan.rules_file, plan.players
    )
    fingerprint = {
        "command": "compensate",
        **settings,
        "rules_hash": rules_hash(plan.spec.resolved(rules, plan.players)),
    }
    plan.ck = CheckpointFile(path, fingerprint, CHECKPOINT)
    found = plan.ck.start(resume)
    if found is None:
        return
    with plan.ck.checking():
        plan.saved = _checked_plays(plan, found["played"], settings["seed"], settings["levels"])
    echo(
        f"resuming {path}: {len(plan.saved)} finished plays restored (of the baseline, the "
        "candidates and the levels); only the others are played"
    )


def _checked_plays(plan: _Plan, played: Any, seed: int, levels: list[str]) -> dict[str, Any]:
    """The checkpoint's plays, each checked whole before any game is played (the file is
    left as it is when one is refused): its key names a play this run can make (one of its
    two seeds, its player or a level's in every seat, a candidate its rules accept) and its
    values fit that play (PlayJob.restore: the seats' counts, the games, the rules, the
    players). InputError naming the first play that does not fit."""
    if not isinstance(played, dict):
        raise InputError("its plays are not an object")
    lineups = [plan.lineup, *(",".join([lv] * plan.players) for lv in levels)]
    for key, state in played.items():
        _job_of(plan, key, (seed, _fresh(seed)), lineups).restore(state)
    return dict(played)


def _job_of(plan: _Plan, key: str, seeds: tuple[int, int], lineups: list[str]) -> PlayJob:
    """The play a checkpoint's key names ('seed S/G games/LINEUP/LABEL', PlayJob.key), made
    again from the key; InputError when this run makes no such play."""
    head, _, rest = key.partition(" games/")
    seed, _, games = head.removeprefix("seed ").partition("/")
    for lineup in (lu for lu in lineups if rest.startswith(lu + "/")):
        if not (seed.isdecimal() and games.isdecimal()) or int(seed) not in seeds:
            break
        try:
            job = plan.job(_candidate(rest[len(lineup) + 1 :]), int(games), int(seed), lineup)
        except BalanceError:
            continue
        if job.key == key:
            return job
    raise InputError(f"play '{key}' is not a play of this run")


def _candidate(label: str) -> Candidate:
    """A candidate of this label (Candidate.label): its changes as (field, value) pairs,
    the same rules changes, so the same play."""
    if label == Candidate().label:
        return Candidate()
    pairs = (part.partition("=") for part in label.split(", "))
    return Candidate(rule=tuple((k, v) for k, _, v in pairs))


@contextmanager
def _one_cluster(run_options: dict[str, Any]):
    """The run options of every play of the run: with --backend dask and no --scheduler, one
    local cluster (of --workers processes) for the whole run rather than one per play."""
    opts = dict(run_options)
    if opts.get("backend") != "dask" or opts.get("scheduler"):
        yield opts
        return
    from simcore.run.distributed import dask_client

    client, cluster = dask_client(None, opts.get("workers"))
    try:
        yield {**opts, "scheduler": cluster.scheduler_address, "workers": None}
    finally:
        client.close()
        cluster.close()


def run_compensate(
    spec: GameSpec,
    players: int,
    games: int = 2000,
    *,
    confirm_games: int = 100_000,
    level_games: int = 2000,
    level_screen_games: int = 400,
    seed: int = 1,
    policy: str | None = None,
    fields: list[str] | None = None,
    max_amount: int | None = None,
    budget: int = BUDGET,
    level_budget: int = LEVEL_BUDGET,
    tolerance: float = TOLERANCE,
    levels: list[str] | None = None,
    ladder: bool = False,
    variants: tuple[str, ...] | list[str] = (),
    overrides: dict[str, Any] | None = None,
    rules_file: str | None = None,
    checkpoint: str | None = None,
    resume: bool = False,
    first_fair: bool = False,
    confirm_top: int = CONFIRM_TOP,
    refine_top: int = REFINE_TOP,
    known: tuple[Any, ...] | list[Any] = (),
    echo=lambda *_: None,
    **run_kw: Any,
) -> CompensateRun:
    """Search, confirm and check a seat compensation (the module docstring), judged by
    simcore.base.fairness with `tolerance` (points). level_screen_games, level_budget: the
    search at a level where the recommendation is not fair (games a screened candidate,
    candidates a group; level_budget 0: no such search). first_fair: each confirmation plays
    its finalists one after the other until one is confirmed fair (_confirm: the same
    recommendation, fewer games); confirm_top: the finalists of each confirmation (at least
    1; the report confirms 2); refine_top: the screening's best played again on more games
    before the finalists are chosen (at most REFINE_TOP, the default; the report refines 5).
    known: plays of the rulebook made elsewhere with these rules (SimResults, e.g. the
    report's seat balance), used where the study would play them again (_Plan.know: its
    calibrations).
    echo: one line per finished stage (the CLI sends it to stderr). checkpoint: a file where
    every finished play is saved as the run goes; resume=True continues the run saved there.
    run_kw: the run options of run_jobs (threads, backend, scheduler, workers, progress).
    Ctrl-C or SIGTERM raise KeyboardInterrupt; the finished plays are in the checkpoint."""
    check_resume(checkpoint, resume)
    spec.check_players(players)
    counts = dict(
        games=games,
        confirm_games=confirm_games,
        level_games=level_games,
        level_screen_games=level_screen_games,
    )
    counts, seed, budget, level_budget = _checked_counts(
        counts, seed, budget, level_budget, tolerance
    )
    chosen = _checked_fields(spec, players, fields)
    if max_amount is not None:
        max_amount = check_whole(max_amount, "--max-amount", minimum=1, maximum=50)
    policy = policy or spec.default_policy
    if len(split_players(policy)) != 1:
        raise InputError(f"--policy '{policy}': give one player (it plays in every seat)")
    spec.parse_policies(policy, 1)  # RulesError for an unknown player or weight
    level_list = compensate_plan_levels(spec, levels, ladder)
    run_options, rest = split_run_options(run_kw)
    if rest:
        raise TypeError(f"unknown options {sorted(rest)}")
    opts = {"backend": "local", "scheduler": None, "workers": None, **run_options}
    check_backend(opts["backend"], opts["scheduler"], opts["workers"])
    threads = check_threads(run_options.get("threads"))
    plan = _Plan(spec, players, policy, tuple(variants), dict(overrides or {}), rules_file, threads)
    for result in known:
        plan.know(result)
    started = time.perf_counter()

    groups, skipped = _groups(plan, chosen, max_amount)
    head = dict(
        game=spec.name,
        title=spec.title,
        players=players,
        seed=seed,
        level=policy,
        **counts,
        tolerance=float(tolerance),
        fields=chosen,
        skipped=skipped,
        seat_words=dict(getattr(spec.rules_cls, "SEAT_WORDS", {}))
        | {k: w for k, (_, w) in getattr(spec.rules_cls, "END_RULES", {}).items()},
        level_budget=level_budget,
        first_fair=bool(first_fair),
        confirm_top=check_whole(confirm_top, "confirm_top", minimum=1, maximum=CONFIRM_TOP),
        refine_top=check_whole(refine_top, "refine_top", minimum=1, maximum=REFINE_TOP),
    )
    # the checkpoint's fingerprint: every setting that changes what is played
    settings = {k: v for k, v in head.items() if k not in ("title", "skipped", "seat_words")}
    settings.update(max_amount=max_amount, budget=budget, levels=level_list)
    _start_checkpoint(plan, checkpoint, resume, settings, echo)
    with _one_cluster(run_options) as opts:
        run = _play_stages(plan, head, groups, budget, level_list, opts, echo)
    run.elapsed_s = time.perf_counter() - started
    return run


def _play_stages(plan, head, groups, budget, level_list, run_options, echo):
    """The stages of the module docstring: the baseline and the screening, the confirmation,
    the check at every level, and a search of its own at each level where the recommendation
    is not fair. head: the CompensateRun's settings."""
    games, seed, tolerance = head["games"], head["seed"], head["tolerance"]
    (baseline,) = plan.play([(Candidate(), games, seed, None)], run_options)
    echo(f"baseline: {games:,} games played (largest gap {baseline.gap:.1f} points)")
    calib = _calibrate(plan, baseline, head["confirm_games"], seed, None, run_options)
    echo(f"calibration: the rulebook on {calib.games:,} games of the screening's seed")
    for name, why in head["skipped"].items():
        echo(f"  {name}: skipped ({why})")
    screened, searched = _screen(
        plan, groups, baseline, games, seed, budget, None, run_options, echo
    )
    refined = _refine(
        plan,
        screened,
        calib,
        games,
        seed,
        None,
        tolerance,
        run_options,
        echo,
        head["confirm_games"],
        head["refine_top"],
    )
    fresh = _fresh(seed)
    top_cands = _finalists(refined, tolerance, head["confirm_top"])
    n = head["confirm_games"]
    confirmed = _confirm(
        plan, top_cands, n, fresh, None, tolerance, head["first_fair"], run_options
    )
    echo(f"confirmation: {len(confirmed) - 1} candidates on {n:,} fresh games")
    run = CompensateRun(
        **head,
        searched=searched,
        baseline=baseline,
        screened=screened,
        confirmed=confirmed,
        recommendation=recommend(confirmed, tolerance),
    )
    run.calibration, run.refined = calib, refined
    rec = run.recommendation.candidate
    n = head["level_games"]
    for lv in level_list:
        lineup = ",".join([lv] * run.players)
        base, after = plan.play(
            [(Candidate(), n, fresh, lineup), (rec, n, fresh, lineup)], run_options
        )
        run.levels.append((lv, base, after))
        echo(f"level {lv}: {n:,} games with and without the compensation")
    _per_level(plan, run, groups, run_options, echo)
    return run


def _per_level(plan, run: CompensateRun, groups, run_options, echo) -> None:
    """One compensation per level: at each level (in the order given) where the
    recommendation is not fair and the rulebook is not fair either, the compensations that
    earlier levels' searches found are played first; a level where none of them is shown
    unfair shares it, any other gets a search of its own (_search_level). Every compensation
    found is then played at every level (run.cross), so each is known at each level."""
    tolerance, n, fresh = run.tolerance, run.level_games, _fresh(run.seed)
    rec = run.recommendation.candidate
    found: list[Candidate] = []  # the levels' own recommendations, new ones only

    def cross(cands: list[Candidate], lv: str) -> list[Played]:
        lineup = ",".join([lv] * run.players)
        todo = [c for c in cands if (c, lv) not in run.cross]
        for c, p in zip(todo, plan.play([(c, n, fresh, lineup) for c in todo], run_options)):
            run.cross[(c, lv)] = p
        return [run.cross[(c, lv)] for c in cands]

    for lv, base, after in run.levels:
        if lv == plan.policy or not run.level_budget or fair_status(after, tolerance) != UNFAIR:
            continue  # fair or undecided there: no search of its own
        if fair_status(base, tolerance) != UNFAIR:
            continue  # the rulebook is not shown unfair at that level: nothing to fix
        if found and any(fair_status(p, tolerance) != UNFAIR for p in cross(found, lv)):
            echo(f"level {lv}: a compensation found at an earlier level is not unfair there")
            continue
        ls = _search_level(plan, run, groups, lv, run_options, echo)
        run.level_searches.append(ls)
        own = ls.recommendation.candidate
        if own != rec and own not in found:
            found.append(own)
    for lv, _, _ in run.levels:
        cross(found, lv)
    if found:
        echo(f"every level: {len(found)} more compensation(s) played at each level")


def _search_level(plan, run: CompensateRun, groups, lv: str, run_options, echo) -> LevelSearch:
    """The screening and the confirmation again with `lv` in every seat: the screening on
    run.level_screen_games games a candidate (the run's seed, at most run.level_budget a
    group, optuna beyond), the finalists on the level's fresh games (its rulebook play is the
    level check's, played again from the plays already made)."""
    lineup = ",".join([lv] * run.players)
    games, seed, n = run.level_screen_games, run.seed, run.level_games
    (base,) = plan.play([(Candidate(), games, seed, lineup)], run_options)
    echo(f"level {lv}: the recommendation is not fair there; searching one for it")
    calib = _calibrate(plan, base, n, seed, lineup, run_options)
    screened, searched = _screen(
        plan, groups, base, games, seed, run.level_budget, lineup, run_options, echo
    )
    refined = _refine(
        plan,
        screened,
        calib,
        games,
        seed,
        lineup,
        run.tolerance,
        run_options,
        echo,
        n,
        run.refine_top,
    )
    fresh = _fresh(seed)
    top = _finalists(refined, run.tolerance, run.confirm_top)
    confirmed = _confirm(plan, top, n, fresh, lineup, run.tolerance, run.first_fair, run_options)
    echo(f"level {lv}: {len(confirmed) - 1} candidates confirmed on {n:,} fresh games")
    return LevelSearch(
        lv,
        searched,
        screened,
        confirmed,
        recommendation=recommend(confirmed, run.tolerance),
        calibration=calib,
        refined=refined,
    )
