"""Sumeria (Dirk Liekens, Reiver Games 2008): the rulebook of seed 002, with its variants."""

from __future__ import annotations

from simcore.frame.registry import PolicySpec, WeightRange, register
from simcore.games.sumeria import trace as _trace
from simcore.games.sumeria.policies import POL_HEURISTIC, POL_RANDOM, WEIGHT_NAMES
from simcore.games.sumeria.rules import MAP_NAMES, SumeriaRules
from simcore.games.sumeria.search import horizon_for


def _weights(now, next_, deny, city, reserve, sets, noise, late) -> dict[str, float]:
    return dict(zip(WEIGHT_NAMES, (now, next_, deny, city, reserve, sets, noise, late)))


# every weight scales a value or a random spread: 0 to 100 (a negative value would reward
# the opposite of what the weight names)
WEIGHT_RANGES = {name: WeightRange(0.0, 100.0) for name in WEIGHT_NAMES}

POLICIES = {
    "random": PolicySpec(
        "random",
        POL_RANDOM,
        "uniform among the legal options at every decision (the baseline for fuzzing)",
    ),
    "balanced": PolicySpec(
        "balanced",
        POL_HEURISTIC,
        "mostly this round's scoring, a little of the next round's, light denial, set value",
        _weights(1.0, 0.1, 0.2, 0.15, 0.0, 0.4, 0.05, 0.5),
    ),
    "chaser": PolicySpec(
        "chaser",
        POL_HEURISTIC,
        "chases the city-states about to be scored; ignores the opponents and the next round",
        _weights(1.0, 0.05, 0.0, 0.1, 0.0, 0.3, 0.05, 0.0),
    ),
    "shifter": PolicySpec(
        "shifter",
        POL_HEURISTIC,
        "manipulates the order: pushes states the opponents lead out of the scoring places "
        "and pulls its own in (strong denial, next round weighted like this one)",
        _weights(0.6, 0.6, 1.2, 0.1, 0.1, 0.3, 0.05, 1.5),
    ),
}


def _rules_weights(rules: SumeriaRules, name: str) -> dict[str, float]:
    """The weights in effect under these rules: a `search` seat (whatever its base) simulates
    about two rounds of decisions, not to the end of the game (search.horizon_for; a horizon
    the user sets wins). The presets have no `horizon`, so they are unchanged."""
    return {"horizon": float(horizon_for(rules.turns_per_round))}


SPEC = register(
    title="Sumeria (seed 002)",
    rules_cls=SumeriaRules,
    policies=POLICIES,
    default_policy="balanced",
    trace=_trace.FORMAT,
    weight_ranges=WEIGHT_RANGES,
    report_variants=("base", "short", "linear", "ring-map", "cross-map"),
    rules_weights=_rules_weights,
    policy_note="search simulates 8 x turns_per_round + 6 decisions unless horizon is set "
    "(30: about two rounds)",
)

__all__ = ["SPEC", "POLICIES", "MAP_NAMES"]
