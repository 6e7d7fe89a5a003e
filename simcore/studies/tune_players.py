"""`balance tune-players`: the weights of a player that win most against a population of
players, searched by optuna (simcore.studies.tuning), confirmed on fresh games, written as a named
preset file (simcore.base.presetfile).

The search. Every declared weight of the player is searched within its declared range
(GameSpec.weight_ranges; whole-number weights as integers). A trial's value is the candidate's
mean win rate over the lineups of the population: the candidate in one seat and one opponent
player in every other seat, the seats rotated, for each opponent among the game's presets
that have weights (`random` and `search` excluded) and the champion: the best trial of the
completed generations (every GENERATION trials the best so far joins the population). Every
trial plays the same games (indices 0 .. n-1 of --seed: common random numbers). The first
trial is the starting player's own weights.

The confirmation. The best CONFIRM_TOP trials of the search (by value) each play against
the starting player in every other seat, seats rotated, on fresh games (indices from
simcore.studies.tuning.CONFIRM_START on), and the starting player plays the same games against
itself: per game, the candidate's win indicator minus the starting player's in the same seat
of the same game is the paired difference analysis.tuning_tables tests (Holm over the candidates).
"""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any

import numpy as np

from simcore.base.errors import InputError
from simcore.base.inputs import check_out_path
from simcore.base.presetfile import NAME_RE, PresetFile, write_preset_file
from simcore.base.results import PlayerConfirmation, PlayerTuning, best_trial
from simcore.frame.registry import GameSpec, PolicySpec, SeatPolicy
from simcore.run.jobs import run_plans
from simcore.run.runner import simulation_plan
from simcore.studies import tuning

DEFAULT_BUDGET = 200  # trials
DEFAULT_GAMES_PER_TRIAL = 6000  # over all lineups of the population
DEFAULT_CONFIRM_GAMES = 30_000  # per candidate (and for the starting player)
DEFAULTS = dict(
    budget=DEFAULT_BUDGET,
    games_per_trial=DEFAULT_GAMES_PER_TRIAL,
    confirm_games=DEFAULT_CONFIRM_GAMES,
)
GENERATION = 25  # trials between two updates of the champion in the population
PRESET_SUFFIXES = (".toml",)


# --------------------------------------------------------------------------------- setting
def search_space(spec: GameSpec, policy: str) -> dict[str, tuple[float, float, bool]]:
    """Each weight of the player -> (lo, hi, whole): its declared range."""
    tunable = [n for n in spec.presets if spec.policies[n].weights]
    if not tunable:
        raise InputError(f"{spec.name} has no player with weights: there is nothing to tune")
    if policy not in tunable:
        raise InputError(
            f"--policy '{policy}': give one of {', '.join(tunable)} (a player with weights)"
        )
    base = spec.policies[policy]
    out = {}
    for k in base.weights:
        r = spec.weight_range(k)
        if not (math.isfinite(r.lo) and math.isfinite(r.hi)):
            raise InputError(f"{spec.name}: weight '{k}' declares no range, so it cannot be tuned")
        out[k] = (r.lo, r.hi, r.whole)
    return out


# A number weight w in lo..hi is searched as x = w - lo + LOG_SHIFT on a logarithmic scale:
# the declared ranges are wide (0 to 100 where the presets use 0.2 to 6; the route search's
# effort 0 to 1e9), and on a log scale each order of magnitude gets the same share of the
# search, so 0.1 to 1 is explored as well as 10 to 100. Whole-number weights are searched as
# integers, every value equally.
LOG_SHIFT = 0.01


def distributions(space: dict[str, tuple[float, float, bool]]) -> dict[str, Any]:
    """The optuna distribution of each weight (in the searched scale x, see LOG_SHIFT)."""
    from optuna.distributions import FloatDistribution, IntDistribution

    return {
        k: IntDistribution(int(lo), int(hi))
        if whole
        else FloatDistribution(LOG_SHIFT, hi - lo + LOG_SHIFT, log=True)
        for k, (lo, hi, whole) in space.items()
    }


def to_weights(params: dict[str, Any], space) -> dict[str, float]:
    """A trial's parameters (the searched scale) -> the weights, within their ranges, to six
    significant digits."""
    out: dict[str, float] = {}
    for k, (lo, hi, whole) in space.items():
        x = params[k]
        out[k] = int(x) if whole else min(max(float(f"{x - LOG_SHIFT + lo:.6g}"), lo), hi)
    return out


def to_params(weights: dict[str, float], space) -> dict[str, Any]:
    """Weights -> the searched scale (the inverse of to_weights)."""
    return {
        k: int(weights[k]) if whole else weights[k] - lo + LOG_SHIFT
        for k, (lo, hi, whole) in space.items()
    }


def candidate_seat(spec: GameSpec, policy: str, weights: dict[str, float], label: str):
    """A seat of the player with these weights (they win over any rules mode's weights)."""
    base = spec.policies[policy]
    vec = dict(base.weights) | {k: float(v) for k, v in weights.items()}
    pspec = PolicySpec(label, base.id, base.description, vec)
    return SeatPolicy(pspec, tuple(vec.values()), label, tuple(vec.items()))


def lineup(cand: SeatPolicy, opponent: SeatPolicy, players: int) -> list[SeatPolicy]:
    return [cand] + [opponent] * (players - 1)


def per_lineup_games(total: int, lineups: int, players: int) -> int:
    """Games per lineup: the trial's games split evenly, a multiple of the player count (so
    that the rotation puts the candidate in every seat equally often)."""
    return max(players, math.ceil(total / lineups / players) * players)


# --------------------------------------------------------------------------------- search
class PlayerSearch:
    """The objective of a study: a trial's weights -> its mean win rate over the lineups."""

    def __init__(self, spec, players, policy, rules_kw, seed, games_per_trial, run_options):
        self.spec, self.players, self.policy = spec, players, policy
        self.rules_kw, self.seed, self.run_options = rules_kw, seed, run_options
        # the built-in presets with weights (a preset file loaded in this process is not one)
        self.presets = [
            n for n in spec.presets if spec.policies[n].weights and not spec.policies[n].file
        ]
        self.opponents = {n: spec.parse_policies(n, 1)[0] for n in self.presets}
        self.games_per_trial = games_per_trial
        self.study = None
        self.space = search_space(spec, policy)

    def champion(self, index: int) -> dict[str, Any] | None:
        """The best trial of the generations completed before this index (None in the
        first)."""
        cut = index // GENERATION * GENERATION
        done = [t for t in self.trials() if t["index"] < cut]
        return best_trial(done) if done else None

    def trials(self) -> list[dict[str, Any]]:
        return [trial_record(t, self.space) for t in tuning.completed(self.study)]

    def play(self, cand: SeatPolicy, opponents: list[SeatPolicy], games: int, **kw):
        """The candidate against each opponent: one SimResult per opponent."""
        plans = [
            simulation_plan(
                self.spec,
                self.players,
                games,
                policies=lineup(cand, o, self.players),
                rotate_seats=True,
                seed=self.seed,
                **self.rules_kw,
                **kw,
            )
            for o in opponents
        ]
        return run_plans(plans, **self.run_options)

    def evaluate(self, trial, index: int) -> float:
        weights = to_weights(trial.params, self.space)
        cand = candidate_seat(self.spec, self.policy, weights, "candidate")
        names, opps = list(self.opponents), list(self.opponents.values())
        champ = self.champion(index)
        if champ is not None:
            names.append(f"champion (trial {champ['index']})")
            opps.append(candidate_seat(self.spec, self.policy, champ["params"], "champion"))
            trial.set_user_attr("champion", champ["index"])
        n = per_lineup_games(self.games_per_trial, len(opps), self.players)
        tuning.search_indices(n)
        rates = [
            float(r.summary.policy_wins[0] / r.summary.policy_games[0])
            for r in self.play(cand, opps, n)
        ]
        trial.set_user_attr("rates", dict(zip(names, rates)))
        return float(np.mean(rates))


def trial_record(t, space) -> dict[str, Any]:
    """A completed trial: its index, number, value, weights (params), per-lineup rates and
    the champion it played."""
    return {
        "index": tuning.trial_index(t),
        "number": t.number,
        "value": float(t.value),
        "params": to_weights(t.params, space),
        "rates": t.user_attrs.get("rates", {}),
        "champion": t.user_attrs.get("champion"),
    }


# --------------------------------------------------------------------------------- confirm
def top_candidates(trials: list[dict[str, Any]], k: int) -> list[dict[str, Any]]:
    """The k best trials by value (lowest index first among equals), distinct weights, the
    starting point (index 0) left out."""
    out: list[dict[str, Any]] = []
    for t in sorted(trials, key=lambda t: (-t["value"], t["index"])):
        if t["index"] == 0 or any(t["params"] == o["params"] for o in out):
            continue
        out.append(t)
        if len(out) == k:
            break
    return out


def confirm(search, start: dict[str, float], cands, games: int, top: int, progress=False):
    """Play the confirmation (module docstring): the start against itself, then each
    candidate against the start, on games indices from CONFIRM_START on (a progress bar of
    its games when asked)."""
    spec, players = search.spec, search.players
    idx = tuning.confirm_indices(games)
    start_seat = candidate_seat(spec, search.policy, start, search.policy)
    arms = [(search.policy, None, start)] + [
        (f"trial {c['index']}", c["index"], c["params"]) for c in cands[:top]
    ]
    plans = [
        simulation_plan(
            spec,
            players,
            games,
            policies=lineup(candidate_seat(spec, search.policy, w, label), start_seat, players),
            rotate_seats=True,
            seed=search.seed,
            start=idx.start,
            keep_rows=True,
            **search.rules_kw,
        )
        for label, _, w in arms
    ]
    results = run_plans(plans, **search.run_options, progress=progress)
    wins = []
    for r in results:
        g = r.rows["game"].to_numpy()
        seat0 = (-g) % players  # with rotation, seat s holds entry (s + game) mod players
        wins.append((r.rows["winner"].to_numpy() == seat0).astype(np.int8))
    return PlayerConfirmation(
        games=games,
        first_index=idx.start,
        labels=[a[0] for a in arms],
        indices=[a[1] for a in arms],
        weights=[dict(a[2]) for a in arms],
        wins=wins,
        players=players,
        opponents=search.policy,
    )


# --------------------------------------------------------------------------------- command
def _check_out(out: str) -> Path:
    p = check_out_path(out, PRESET_SUFFIXES)
    assert p is not None
    return p


def tune_players(
    spec: GameSpec,
    players: int,
    out: str,
    *,
    policy: str | None = None,
    name: str = "tuned",
    variants=(),
    overrides=None,
    rules_file=None,
    stop_after: int | None = None,
    command: str = "",
    version: str = "",
    **kw: Any,
) -> PlayerTuning:
    """Search, confirm and write a player's weights (module docstring). kw: the search
    options (budget, games_per_trial, confirm_games: DEFAULT_* when not given; top, seed,
    storage, study, join: simcore.studies.tuning.check_sizes) and the run options (threads,
    backend, scheduler, workers, progress). stop_after: stop the search after this many
    trials of this run, without confirming (the tests' stand-in for a killed run)."""
    sz = tuning.check_sizes(kw, **DEFAULTS)
    spec.check_players(players)
    if players < 2:
        raise InputError("tune-players needs at least 2 players (a win rate against others)")
    policy = policy or spec.default_policy
    space = search_space(spec, policy)
    if not NAME_RE.match(name) or name in spec.policies and not spec.policies[name].file:
        raise InputError(f"--name '{name}' must be a new lower-case name (not a built-in player)")
    out_path = _check_out(out)
    rules = spec.resolve_rules(variants, overrides, rules_file, players)
    rules_kw = dict(variants=list(variants), overrides=overrides, rules_file=rules_file)
    search = PlayerSearch(
        spec, players, policy, rules_kw, sz.seed, sz.games_per_trial, sz.run_options
    )
    seat = spec.resolve_seats(spec.parse_policies(policy, 1), rules)[0]  # under these rules
    start = to_weights(to_params(dict(zip(seat.spec.weights, seat.weights)), space), space)
    settings = {
        "command": "tune-players",
        "game": spec.name,
        "players": players,
        "policy": policy,
        "space": space,
        "population": search.presets,
        "generation": GENERATION,
        "games_per_trial": sz.games_per_trial,
        "seed": sz.seed,
        "rules_hash": spec.rules_hash(rules, players),
    }
    plan = tuning.study_plan(
        sz, "players", settings, ["maximize"], out_path.with_suffix(".study.db")
    )
    search.study = tuning.open_study(plan)

    def describe() -> str:
        b = best_trial(search.trials())
        return f"{b['value']:.4f} (trial {b['index']})"

    fields = tuning.search(
        search.study,
        plan,
        sz,
        distributions(space),
        search.evaluate,
        search.trials,
        enqueue=to_params(start, space),
        describe=describe,
        stop_after=stop_after,
    )
    result = PlayerTuning(
        **fields,
        policy=policy,
        name=name,
        space=space,
        start=start,
        population=search.presets + ["champion"],
        rules_hash=settings["rules_hash"],
    )
    if stop_after is not None and len(result.trials) < sz.budget:
        return result
    t1 = time.perf_counter()
    cands = top_candidates(result.trials, sz.top)
    if cands:
        result.confirmation = conf = confirm(
            search, start, cands, sz.confirm_games, sz.top, sz.progress
        )
        # the candidate with the most confirmed wins (the Holm correction in analysis.tuning_tables
        # covers testing every candidate)
        chosen = 1 + int(np.argmax([w.mean() for w in conf.wins[1:]]))
        write_result(result, chosen, out, command, version)
    result.confirm_s = time.perf_counter() - t1
    return result


def write_result(result: PlayerTuning, chosen: int, out: str, command: str, version: str):
    """Write the confirmation arm `chosen` (a candidate) as the preset file `out`."""
    conf = result.confirmation
    assert conf is not None and chosen > 0
    whole = {k for k, (_, _, w) in result.space.items() if w}
    weights = {k: (int(v) if k in whole else float(v)) for k, v in conf.weights[chosen].items()}
    preset = PresetFile(
        path=out,
        game=result.game,
        name=result.name,
        policy=result.policy,
        weights=weights,
        description=(
            f"{result.policy} tuned for {result.players} players by tune-players "
            f"(trial {conf.indices[chosen]} of study {result.study})"
        ),
        tuning={
            "command": command,
            "version": version,
            "players": result.players,
            "seed": result.seed,
            "trials": len(result.trials),
            "trial": conf.indices[chosen],
            "study": result.study,
            "storage": result.storage,
            "rules_hash": result.rules_hash,
        },
    )
    write_preset_file(preset, whole)
    result.chosen, result.out = chosen, out
