"""`balance tune`: rules parameters searched by optuna (simcore.studies.tuning) for one or two
objectives under constraints, the best settings confirmed on fresh games against the
starting rules (simcore.studies.compare with game indices from simcore.studies.tuning.CONFIRM_START
on).

Parameters (--param, one or more):
- `NAME=LOW..HIGH`: a whole-number rules field, every value from LOW to HIGH; for a list
  field with one entry per player count (Sunken City's streets_space1: 2, 3 and 4 players)
  the entry of the player count played, the other entries kept.
- `NAME=V1,V2,...`: a choice among values, written as for `sweep --param` (lists separated
  by ';', or names: `die=beige,black,purple`).

Objectives (--objective, one or two) are parsed by parse_objective, constraints (--constraint)
by parse_constraint; both name quantities of the games played (QUANTITIES): `seat_gap` (the
largest seat gap), `first_player` (the first-player advantage) and the mean of every per-game
metric (simcore.base.metrics.metric_list: rounds, turns, shared, win_0, score_0, the game's
counters), also written `mean_NAME`.
"""

from __future__ import annotations

import dataclasses
import math
import re
import time
import typing
from dataclasses import dataclass
from typing import Any

import numpy as np

from simcore.base.errors import InputError
from simcore.base.metrics import first_player_advantage, game_metrics, metric_list
from simcore.base.pareto import pareto_front
from simcore.base.results import RulesTuning
from simcore.base.rulesbase import RulesError
from simcore.frame.registry import GameSpec
from simcore.run.jobs import run_jobs, run_plans
from simcore.run.runner import simulation_plan
from simcore.studies import tuning
from simcore.studies.compare import Arm, arms_job, parse_param

DEFAULT_BUDGET = 60
DEFAULT_GAMES_PER_TRIAL = 20_000
DEFAULT_CONFIRM_GAMES = 50_000
DEFAULTS = dict(
    budget=DEFAULT_BUDGET,
    games_per_trial=DEFAULT_GAMES_PER_TRIAL,
    confirm_games=DEFAULT_CONFIRM_GAMES,
)
MAX_PARAMS = 8
INVALID = 1e9  # the objective value of a setting the rules refuse (marked infeasible too)


# --------------------------------------------------------------------------------- params
@dataclass(frozen=True)
class Param:
    """One searched rules field: a range of whole numbers (lo..hi; entry: the index in a
    per-player-count list field) or a choice among values (texts as for --set)."""

    name: str
    lo: int = 0
    hi: int = 0
    choices: tuple[str, ...] = ()
    entry: int | None = None
    current: tuple = ()  # the list field's value in the starting rules (for entry params)

    def distribution(self):
        from optuna.distributions import CategoricalDistribution, IntDistribution

        if self.choices:
            return CategoricalDistribution(self.choices)
        return IntDistribution(self.lo, self.hi)

    def override(self, value: Any) -> str:
        """The --set text of this parameter at `value`."""
        if self.entry is None:
            return str(value)
        vals = list(self.current)
        vals[self.entry] = int(value)
        return ",".join(map(str, vals))

    def start_value(self, rules: Any) -> Any:
        v = getattr(rules, self.name)
        return v[self.entry] if self.entry is not None else v


RANGE_RE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$")


def parse_tune_param(spec: GameSpec, text: str, players: int, start_rules: Any) -> Param:
    """'NAME=LOW..HIGH' or 'NAME=V1,V2,...' (module docstring) -> a Param (not yet checked
    against the rules: check_params does that)."""
    if "=" not in text:
        raise RulesError(f"--param expects NAME=LOW..HIGH or NAME=V1,V2,..., got '{text}'")
    key, vals = (t.strip() for t in text.split("=", 1))
    if ".." not in vals:
        key, values = parse_param(spec, text)
        if len(values) < 2:
            raise RulesError(f"--param {key}: give at least two values to choose from")
        return Param(key, choices=tuple(values))
    m = RANGE_RE.match(vals)
    if not m:
        raise RulesError(f"--param {key}: a range is LOW..HIGH in whole numbers, not '{vals}'")
    lo, hi = int(m.group(1)), int(m.group(2))
    if lo >= hi:
        raise RulesError(f"--param {key}: LOW must be below HIGH in '{vals}'")
    tp = typing.get_type_hints(spec.rules_cls).get(key)
    if tp is None:
        fields = ", ".join(f.name for f in dataclasses.fields(spec.rules_cls))
        raise RulesError(f"--param '{key}' is not a rules field of {spec.name} (fields: {fields})")
    if tp is int:
        return Param(key, lo, hi)
    args = typing.get_args(tp)
    counts = spec.max_players - spec.min_players + 1
    if typing.get_origin(tp) is tuple and len(args) == counts and all(a is int for a in args):
        current = tuple(getattr(start_rules, key))
        return Param(key, lo, hi, entry=players - spec.min_players, current=current)
    raise RulesError(
        f"--param {key}: LOW..HIGH is for whole-number fields (and lists of one per player "
        f"count); give values instead: {key}=V1,V2,..."
    )


MAX_SCANNED = 10_000  # range values checked one by one (a longer range: its ends only)


def _refusal(p: Param, v: Any, resolve) -> str | None:
    """Why the rules refuse parameter p at value v alone (None: they accept it)."""
    try:
        resolve({p.name: p.override(v)})
    except RulesError as e:
        return str(e)
    return None


def check_params(spec, params: list[Param], resolve) -> tuple[list[Param], list[str]]:
    """Every value of every parameter must make valid rules on its own. A range is narrowed to
    the values the rules accept when they are one unbroken run (Sunken City's streets_space1=
    15..30 for 3 players: 27 and more need more streets than exist), with a note saying so;
    a range with no valid value, or with gaps, and any refused choice, is an error.
    Returns the parameters (ranges narrowed) and the notes."""
    if not params:
        raise InputError("--param: give at least one NAME=LOW..HIGH or NAME=V1,V2,...")
    if len(params) > MAX_PARAMS:
        raise InputError(f"at most {MAX_PARAMS} --param options")
    names = [p.name for p in params]
    if len(set(names)) != len(names):
        raise InputError("--param: the same rules field is given twice")
    out, notes = [], []
    for p in params:
        values = p.choices or (range(p.lo, p.hi + 1) if p.hi - p.lo < MAX_SCANNED else (p.lo, p.hi))
        why = {v: _refusal(p, v, resolve) for v in values}
        ok = [v for v in values if why[v] is None]
        bad = next((v for v in values if why[v] is not None), None)
        if bad is not None and (p.choices or not ok or ok != list(range(ok[0], ok[-1] + 1))):
            raise RulesError(f"--param {p.name}: the value {bad} is refused: {why[bad]}")
        if bad is not None:
            notes.append(
                f"--param {p.name}={p.lo}..{p.hi}: searched {ok[0]}..{ok[-1]}, the rules "
                f"refuse the other values ({bad}: {why[bad]})"
            )
            p = dataclasses.replace(p, lo=ok[0], hi=ok[-1])
        out.append(p)
    return out, notes


# --------------------------------------------------------------------------------- quantities
def quantities(spec: GameSpec, players: int) -> list[str]:
    """The names objectives and constraints may use."""
    names = [m.name for m in metric_list(spec, players)]
    return (["seat_gap", "first_player"] if players > 1 else []) + names


def _quantity(spec: GameSpec, players: int, text: str, what: str) -> str:
    q = text.strip().replace("-", "_")
    known = quantities(spec, players)
    if q not in known and q.startswith("mean_") and q[5:] in known:
        q = q[5:]
    if q not in known:
        raise InputError(f"{what}: '{text}' is not a quantity here (known: {', '.join(known)})")
    return q


def _number(text: str, what: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise InputError(f"{what}: '{text}' is not a number") from None
    if not math.isfinite(v):
        raise InputError(f"{what}: '{text}' is not a finite number")
    return v


@dataclass(frozen=True)
class Objective:
    """Minimise (or maximise) a quantity, or its distance to a target."""

    text: str
    quantity: str
    direction: str = "min"  # 'min' or 'max'
    target: float | None = None

    def value(self, q: dict[str, float]) -> float:
        x = q[self.quantity]
        return abs(x - self.target) if self.target is not None else x

    @property
    def optuna_direction(self) -> str:
        return "maximize" if self.direction == "max" else "minimize"


def parse_objective(spec: GameSpec, players: int, text: str) -> Objective:
    """'seat-gap' (the smallest largest seat gap), 'first-player' (the first-player advantage
    nearest 0), 'length=T' (mean rounds nearest T), 'Q' (the smallest mean of quantity Q),
    'max:Q' / 'min:Q', 'Q=T' (nearest T)."""
    t = text.strip()
    what = f"--objective '{text}'"
    if t in ("seat-gap", "seat_gap"):
        return Objective(t, _quantity(spec, players, "seat_gap", what))
    if t in ("first-player", "first_player"):
        return Objective(t, _quantity(spec, players, "first_player", what), target=0.0)
    if t.startswith(("max:", "min:")):
        return Objective(t, _quantity(spec, players, t[4:], what), direction=t[:3])
    if "=" in t:
        name, _, target = t.partition("=")
        q = "rounds" if name.strip() == "length" else _quantity(spec, players, name, what)
        return Objective(t, q, target=_number(target.strip(), what))
    if t == "length":
        raise InputError(f"{what}: give the target length, e.g. length=9")
    return Objective(t, _quantity(spec, players, t, what))


CONSTRAINT_RE = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*(<=|>=|<|>)\s*(\S+)\s*$")


@dataclass(frozen=True)
class Constraint:
    text: str
    quantity: str
    op: str
    bound: float

    def excess(self, q: dict[str, float]) -> float:
        """How far the quantity is beyond the bound (at most 0: satisfied; optuna's
        convention). A strict bound met with equality counts as a tiny excess."""
        x = q[self.quantity]
        d = x - self.bound if self.op in ("<=", "<") else self.bound - x
        return d + 1e-12 if self.op in ("<", ">") and d == 0 else d

    def holds(self, x: float) -> bool:
        return {"<=": x <= self.bound, "<": x < self.bound, ">=": x >= self.bound}.get(
            self.op, x > self.bound
        )


def parse_constraint(spec: GameSpec, players: int, text: str) -> Constraint:
    """'mean_rounds<=9', 'seat_gap < 0.05', 'shared>=0.02': QUANTITY OP NUMBER."""
    m = CONSTRAINT_RE.match(text)
    if not m:
        raise InputError(
            f"--constraint '{text}' must be QUANTITY OP NUMBER with OP one of <=, >=, <, > "
            "(e.g. mean_rounds<=9)"
        )
    what = f"--constraint '{text}'"
    q = _quantity(spec, players, m.group(1), what)
    return Constraint(text.strip(), q, m.group(2), _number(m.group(3), what))


def measure(spec: GameSpec, players: int, rows) -> dict[str, float]:
    """Every quantity of the games in `rows` (the result rows of one setting, a frame)."""
    metrics = metric_list(spec, players)
    mat = game_metrics(rows, metrics, players)
    q = {m.name: float(mat[:, j].mean()) for j, m in enumerate(metrics)}
    if players > 1:
        wins = np.array([q[f"win_{s}"] for s in range(players)])
        q["seat_gap"] = float(wins.max() - wins.min())
        outright = wins.sum()
        q["first_player"] = float(first_player_advantage(wins[0], outright, 1.0, players))
    return q


# --------------------------------------------------------------------------------- search
class RulesSearch:
    def __init__(self, spec, players, params, objectives, constraints, base, seed, games, run):
        self.spec, self.players, self.params = spec, players, params
        self.objectives, self.constraints = objectives, constraints
        self.base, self.seed, self.games, self.run_options = base, seed, games, run

    def evaluate(self, trial, index: int):
        over = {p.name: p.override(trial.params[p.name]) for p in self.params}
        try:
            self.base["resolve"](over)
        except RulesError as e:  # refused together, though each value alone is valid
            trial.set_user_attr("invalid", str(e))
            self._constrain(trial, [1.0] * max(1, len(self.constraints)))
            return [INVALID if o.direction == "min" else -INVALID for o in self.objectives]
        plan = simulation_plan(
            self.spec,
            self.players,
            self.games,
            seed=self.seed,
            keep_rows=True,
            policies=self.base["policies"],
            variants=self.base["variants"],
            overrides={**self.base["overrides"], **over},
            rules_file=self.base["rules_file"],
        )
        (res,) = run_plans([plan], **self.run_options)
        q = measure(self.spec, self.players, res.rows)
        trial.set_user_attr("quantities", q)
        self._constrain(trial, [c.excess(q) for c in self.constraints] or [0.0])
        return [o.value(q) for o in self.objectives]

    def _constrain(self, trial, excess: list[float]) -> None:
        """Record each constraint's excess (at most 0: satisfied): for TPE (which then
        prefers feasible points) and for the candidates' choice."""
        trial.set_user_attr("constraints", excess)
        if self.constraints and hasattr(trial, "set_constraint"):  # optuna 5
            for i, e in enumerate(excess):
                trial.set_constraint(f"c{i}", e)


def trial_record(t) -> dict[str, Any]:
    return {
        "index": tuning.trial_index(t),
        "values": list(t.values),
        "params": dict(t.params),
        "quantities": t.user_attrs.get("quantities", {}),
        "feasible": all(c <= 0 for c in t.user_attrs.get("constraints", [0.0])),
        "invalid": t.user_attrs.get("invalid"),
    }


def pick_candidates(trials, objectives, top: int) -> list[dict[str, Any]]:
    """The settings to confirm: with one objective the `top` best feasible trials; with two,
    the feasible Pareto front (non-dominated trials), at most `top` of them spread along the
    first objective. The starting point (index 0) and repeated settings are left out."""
    sign = np.array([1.0 if o.direction == "min" else -1.0 for o in objectives])
    pool, seen = [], []
    for t in sorted(trials, key=lambda t: (list(sign * np.array(t["values"])), t["index"])):
        if t["index"] == 0 or not t["feasible"] or t["params"] in seen:
            continue
        seen.append(t["params"])
        pool.append(t)
    if len(objectives) == 1:
        return pool[:top]
    front = pareto_front(pool, sign)
    if len(front) <= top:
        return front
    picks = np.unique(np.linspace(0, len(front) - 1, top).round().astype(int))
    return [front[i] for i in picks]


def tune_rules(
    spec: GameSpec,
    players: int,
    params: list[str],
    objectives: list[str],
    *,
    constraints: list[str] | None = None,
    variants=(),
    overrides=None,
    rules_file=None,
    policies: str | None = None,
    stop_after: int | None = None,
    **kw: Any,
) -> RulesTuning:
    """Search rules parameters (module docstring), confirm the best. kw: the search options
    (budget, games_per_trial, confirm_games: DEFAULT_* when not given; top, seed, storage,
    study, join: simcore.studies.tuning.check_sizes) and the run options."""
    sz = tuning.check_sizes(kw, **DEFAULTS)
    spec.check_players(players)
    variants, overrides = list(variants or ()), dict(overrides or {})
    start_rules = spec.resolve_rules(variants, overrides, rules_file, players)
    parsed = [parse_tune_param(spec, p, players, start_rules) for p in params]

    def resolve(over):
        return spec.resolve_rules(variants, {**overrides, **over}, rules_file, players)

    parsed, notes = check_params(spec, parsed, resolve)
    objs = [parse_objective(spec, players, o) for o in objectives or []]
    if not 1 <= len(objs) <= 2:
        raise InputError("--objective: give one or two")
    cons = [parse_constraint(spec, players, c) for c in constraints or []]
    seats = spec.parse_policies(policies, players)
    settings = {
        "command": "tune",
        "game": spec.name,
        "players": players,
        "params": [dataclasses.asdict(p) for p in parsed],
        "objectives": [o.text for o in objs],
        "constraints": [c.text for c in cons],
        "games_per_trial": sz.games_per_trial,
        "seed": sz.seed,
        "policies": [[p.label, list(p.weights)] for p in seats],
        "rules_hash": spec.rules_hash(start_rules, players),
    }
    directions = [o.optuna_direction for o in objs]
    default_file = f"tune-{spec.name}.study.db"
    plan = tuning.study_plan(sz, "rules", settings, directions, default_file, bool(cons))
    st = tuning.open_study(plan)
    base = dict(
        resolve=resolve,
        policies=seats,
        variants=variants,
        overrides=overrides,
        rules_file=rules_file,
    )
    search = RulesSearch(
        spec, players, parsed, objs, cons, base, sz.seed, sz.games_per_trial, sz.run_options
    )

    def describe() -> str:
        recs = [trial_record(t) for t in tuning.completed(st)]
        best = pick_candidates(recs, objs, 1)
        if not best:
            return "none feasible yet"
        vals = ", ".join(f"{v:.4f}" for v in best[0]["values"])
        return f"{vals} (trial {best[0]['index']})"

    start_vals = {p.name: p.start_value(start_rules) for p in parsed}
    fields = tuning.search(
        st,
        plan,
        sz,
        {p.name: p.distribution() for p in parsed},
        search.evaluate,
        lambda: [trial_record(t) for t in tuning.completed(st)],
        enqueue=start_point(parsed, start_vals) or None,
        describe=describe,
        stop_after=stop_after,
    )
    result = RulesTuning(
        **fields,
        params=parsed,
        objectives=objs,
        constraints=cons,
        start=start_vals,
        policies=[p.label for p in seats],
        notes=notes,
    )
    if stop_after is not None and len(result.trials) < sz.budget:
        return result
    t1 = time.perf_counter()
    result.candidates = pick_candidates(result.trials, objs, sz.top)
    if result.candidates:
        result.confirmation = confirm_rules(
            search, result.candidates, sz.confirm_games, sz.progress
        )
    result.confirm_s = time.perf_counter() - t1
    return result


def start_point(params: list[Param], start: dict[str, Any]) -> dict[str, Any]:
    """The starting rules' value of each parameter that is a point of the search space (the
    first trial of a new study; the other parameters of that trial are TPE's)."""
    out: dict[str, Any] = {}
    for p in params:
        v = start[p.name]
        if p.choices:
            text = ",".join(map(str, v)) if isinstance(v, tuple) else str(v)
            text = text.lower() if isinstance(v, bool) else text
            if text in p.choices:
                out[p.name] = text
        elif p.lo <= v <= p.hi:
            out[p.name] = int(v)
    return out


def confirm_rules(search: RulesSearch, candidates, games: int, progress: bool = False):
    """The starting rules and each candidate, on the same fresh games (indices from
    CONFIRM_START on): a simcore.base.results.ArmRun, the start first."""
    b = search.base
    arms = [Arm("start", tuple(b["variants"]))]
    for c in candidates:
        over = tuple((p.name, p.override(c["params"][p.name])) for p in search.params)
        label = f"trial {c['index']}: " + ", ".join(f"{k}={c['params'][k]}" for k in c["params"])
        arms.append(Arm(label, tuple(b["variants"]), over))
    job = arms_job(
        search.spec,
        search.players,
        arms,
        games,
        seed=search.seed,
        policies=b["policies"],
        overrides=b["overrides"],
        rules_file=b["rules_file"],
        start=tuning.confirm_indices(games).start,
    )
    run_jobs([job], **search.run_options, progress=progress)
    return job.result()
