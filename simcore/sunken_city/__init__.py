"""Sunken City (Kramer & Kiesling, 2004): the basic game of seed 000 with its variants, and the
advanced game of seed 001 (variant `advanced`)."""

from __future__ import annotations

from simcore.games import GameSpec, PolicySpec, register
from simcore.sunken_city import play as _play
from simcore.sunken_city.policies import MAX_KEYS, POL_HEURISTIC, POL_RANDOM, WEIGHT_NAMES
from simcore.sunken_city.rules import DICE, VARIANTS, SunkenCityRules, pack
from simcore.sunken_city.state import END_REASONS

# the route search's effort (weight `search`): orders of key houses tried per search; and
# its breadth (weight `keys`): the key houses it considers, the most promising first
SEARCH = 500.0
KEYS = 6.0


def _weights(greed, bank, caution, aggression, build, block, chip, centre, noise=0.0):
    vals = (greed, bank, caution, aggression, build, block, chip, centre, noise, SEARCH, KEYS)
    return dict(zip(WEIGHT_NAMES, vals, strict=True))


# The heuristic presets: one compiled player (policies.heuristic_turn), different weights.
# docs/policies-sunken-city.md explains each weight and gives the measured ladder.
POLICIES = {
    "balanced": PolicySpec(
        "balanced",
        POL_HEURISTIC,
        "the default player: recovers, banks, fears and uses the spirit in measure",
        _weights(5.0, 0.3, 0.2, 1.0, 1.2, 0.0, 2.0, 1.5),
    ),
    "greedy": PolicySpec(
        "greedy",
        POL_HEURISTIC,
        "the most treasure value this turn; banks when the route passes home",
        _weights(6.0, 0.4, 0.0, 0.1, 1.2, 0.0, 2.0, 1.5),
    ),
    "cautious": PolicySpec(
        "cautious",
        POL_HEURISTIC,
        "banks early, carries little, keeps out of the spirit's likely reach",
        _weights(0.8, 2.0, 3.0, 0.0, 1.0, 0.4, 3.0, 0.5),
    ),
    "aggressive": PolicySpec(
        "aggressive",
        POL_HEURISTIC,
        "moves the spirit through opponents who carry the most and cuts their routes",
        _weights(1.2, 0.6, 0.3, 4.0, 1.0, 0.6, 4.0, 1.0),
    ),
    "random": PolicySpec(
        "random",
        POL_RANDOM,
        "uniform among the legal options at every decision (the baseline for fuzzing)",
    ),
}


# The advanced game (seed 001) has no die: deterministic players would replay the same game
# for a lineup, so every preset plays it with a little spread in its card choice (noise).
# `balanced` is tuned for it separately (block: houses and streets are rarer there, and where
# they appear decides more). docs/policies-sunken-city.md gives the measurements.
ADVANCED_NOISE = 0.1
ADVANCED_WEIGHTS = {
    "balanced": {"block": 1.2},
}


def check_weight(name, value):
    """`keys` is a whole number of key houses, 0 to MAX_KEYS (the other weights take any
    number)."""
    if name == "keys" and value not in range(MAX_KEYS + 1):
        return f"must be a whole number from 0 to {MAX_KEYS}"
    return None


def rules_weights(rules, name):
    """Weights that replace a preset's under these rules (GameSpec.rules_weights)."""
    if not getattr(rules, "advanced", False):
        return {}
    return {"noise": ADVANCED_NOISE, **ADVANCED_WEIGHTS.get(name, {})}


def _replay(rules, players, seats, seed, index, *, rotate=False, checked=True, version=""):
    from simcore.sunken_city.trace import replay

    return replay(
        rules,
        players,
        seats,
        seed,
        index,
        rotate=rotate,
        checked=checked,
        version=version,
        policy_arrays=SPEC.policy_arrays(SPEC.resolve_seats(seats, rules)),
    )


SPEC = register(
    GameSpec(
        name="sunken-city",
        title="Sunken City (basic game seed 000, advanced game seed 001)",
        rules_cls=SunkenCityRules,
        variants=VARIANTS,
        named_values={"die": DICE},
        policies=POLICIES,
        default_policy="balanced",
        min_players=2,
        max_players=4,
        columns=_play.COLUMNS,
        end_reasons=END_REASONS,
        game_counters=_play.GAME_COUNTERS,
        seat_counters=_play.SEAT_COUNTERS,
        pack=pack,
        play_batch=_play.play_batch,
        replay=_replay,
        max_weights=len(WEIGHT_NAMES),
        rules_weights=rules_weights,
        check_weight=check_weight,
        policy_note="under --variant advanced every preset plays with noise=0.1 and balanced "
        "with block=1.2; weights you set yourself win",
        report_variants=(
            "base",
            "short",
            "no-chips",
            "short+no-chips",
            "value-scoring",
            "advanced",
        ),
    )
)
