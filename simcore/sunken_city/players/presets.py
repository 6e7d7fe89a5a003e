"""The Sunken City player presets: `random`, and the heuristic player (turn.heuristic_turn)
under different weights, each preset naming only the weights in which it differs from the
defaults (weights.DEFAULT_WEIGHTS, the `balanced` player's). docs/policies-sunken-city.md
explains each weight and gives the measured ladder."""

from __future__ import annotations

from simcore.games import PolicySpec, WeightRange
from simcore.sunken_city.players.random import POL_RANDOM
from simcore.sunken_city.players.routes import MAX_KEYS
from simcore.sunken_city.players.turn import POL_HEURISTIC
from simcore.sunken_city.players.weights import WEIGHT_BOUNDS, weights


def heuristic(name: str, description: str, changes: str = "") -> PolicySpec:
    """A preset of the heuristic player: the default weights with `changes`, written as on the
    command line ('greed=6.0,bank=0.4': name=value, comma-separated)."""
    pairs = (c.split("=") for c in changes.split(",") if c)
    return PolicySpec(name, POL_HEURISTIC, description, weights(**{k: float(v) for k, v in pairs}))


POLICIES = {
    p.name: p
    for p in (
        heuristic(
            "balanced",
            "the default player: recovers, banks, fears and uses the spirit in measure",
        ),
        heuristic(
            "greedy",
            "the most treasure value this turn; banks when the route passes home",
            "greed=6.0,bank=0.4,caution=0.0,aggression=0.1",
        ),
        heuristic(
            "cautious",
            "banks early, carries little, keeps out of the spirit's likely reach",
            "greed=0.8,bank=2.0,caution=3.0,aggression=0.0,build=1.0,block=0.4,chip=3.0,centre=0.5",
        ),
        heuristic(
            "aggressive",
            "moves the spirit through opponents who carry the most and cuts their routes",
            "greed=1.2,bank=0.6,caution=0.3,aggression=4.0,build=1.0,block=0.6,chip=4.0,centre=1.0",
        ),
        PolicySpec(
            "random",
            POL_RANDOM,
            "uniform among the legal options at every decision (the baseline for fuzzing)",
        ),
    )
}


# The advanced game (seed 001) has no die: deterministic players would replay the same game
# for a lineup, so every preset plays it with a little spread in its card choice (noise).
# `balanced` is tuned for it separately (block: houses and streets are rarer there, and where
# they appear decides more). docs/policies-sunken-city.md gives the measurements.
ADVANCED_NOISE = 0.1
ADVANCED_WEIGHTS = {
    "balanced": {"block": 1.2},
}


# the declared range of every weight (weights.WEIGHT_BOUNDS), for GameSpec.weight_ranges
WEIGHT_RANGES = {n: WeightRange(*b) for n, b in WEIGHT_BOUNDS.items()}
assert WEIGHT_RANGES["keys"].hi == MAX_KEYS


def rules_weights(rules, name):
    """Weights that replace a preset's under these rules (GameSpec.rules_weights)."""
    if not getattr(rules, "advanced", False):
        return {}
    return {"noise": ADVANCED_NOISE, **ADVANCED_WEIGHTS.get(name, {})}
