"""The Sunken City player presets: `random`, and the heuristic player (turn.heuristic_turn)
under different weights. `balanced` plays the defaults (weights.DEFAULT_WEIGHTS, tuned by
`balance tune-players`, issue #27); `greedy`, `cautious` and `aggressive` name only the weights
in which they differ from the hand-set weights `balanced` had before (weights.HAND_SET_WEIGHTS),
so they play as they always did. docs/policies-sunken-city.md explains each weight and gives
the measured ladder."""

from __future__ import annotations

from simcore.frame.registry import PolicySpec, WeightRange
from simcore.games.sunken_city.players.random import POL_RANDOM
from simcore.games.sunken_city.players.routes import MAX_KEYS
from simcore.games.sunken_city.players.turn import POL_HEURISTIC
from simcore.games.sunken_city.players.weights import (
    DEFAULT_WEIGHTS,
    HAND_SET_WEIGHTS,
    WEIGHT_BOUNDS,
    weights,
)


def heuristic(
    name: str, description: str, changes: str = "", base: dict = HAND_SET_WEIGHTS
) -> PolicySpec:
    """A preset of the heuristic player: the `base` weights (the hand-set ones unless given)
    with `changes`, written as on the command line ('greed=6.0,bank=0.4': name=value,
    comma-separated)."""
    pairs = (c.split("=") for c in changes.split(",") if c)
    w = weights(base, **{k: float(v) for k, v in pairs})
    return PolicySpec(name, POL_HEURISTIC, description, w)


POLICIES = {
    p.name: p
    for p in (
        heuristic(
            "balanced",
            "the default player (weights tuned by tune-players): recovers greedily, fears the"
            " spirit, uses it in measure",
            base=DEFAULT_WEIGHTS,
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
# `balanced` has its own weights there: the hand-set ones with `block` 1.2 (houses and streets
# are rarer there, and where they appear decides more); the tuned defaults were tuned for the
# basic game only. docs/policies-sunken-city.md gives the measurements.
ADVANCED_NOISE = 0.1
ADVANCED_WEIGHTS = {
    "balanced": {**HAND_SET_WEIGHTS, "block": 1.2},
}
# what `balance games` says about it
ADVANCED_NOTE = (
    f"under --variant advanced every preset plays with noise={ADVANCED_NOISE}, and balanced "
    "with the hand-set weights of before the tuning ("
    + ", ".join(f"{k}={v:g}" for k, v in ADVANCED_WEIGHTS["balanced"].items() if k != "noise")
    + "); weights you set yourself win"
)


# the declared range of every weight (weights.WEIGHT_BOUNDS), for GameSpec.weight_ranges
WEIGHT_RANGES = {n: WeightRange(*b) for n, b in WEIGHT_BOUNDS.items()}
assert WEIGHT_RANGES["keys"].hi == MAX_KEYS


def rules_weights(rules, name):
    """Weights that replace a preset's under these rules (GameSpec.rules_weights)."""
    if not getattr(rules, "advanced", False):
        return {}
    return {**ADVANCED_WEIGHTS.get(name, {}), "noise": ADVANCED_NOISE}
