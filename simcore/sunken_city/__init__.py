"""Sunken City (Kramer & Kiesling, 2004): the basic game of seed 000, with its variants."""

from __future__ import annotations

from simcore.games import GameSpec, PolicySpec, register
from simcore.sunken_city import play as _play
from simcore.sunken_city.policies import POL_RANDOM
from simcore.sunken_city.rules import DICE, VARIANTS, SunkenCityRules, pack
from simcore.sunken_city.state import END_REASONS

POLICIES = {
    "random": PolicySpec(
        "random",
        POL_RANDOM,
        "uniform among the legal options at every decision (the baseline for fuzzing)",
    ),
}


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
        policy_arrays=SPEC.policy_arrays(seats),
    )


SPEC = register(
    GameSpec(
        name="sunken-city",
        title="Sunken City (basic game, seed 000)",
        rules_cls=SunkenCityRules,
        variants=VARIANTS,
        named_values={"die": DICE},
        policies=POLICIES,
        default_policy="random",
        min_players=2,
        max_players=4,
        columns=_play.COLUMNS,
        end_reasons=END_REASONS,
        game_counters=_play.GAME_COUNTERS,
        seat_counters=_play.SEAT_COUNTERS,
        pack=pack,
        play_batch=_play.play_batch,
        replay=_replay,
        report_variants=("base", "short", "no-chips", "short+no-chips", "value-scoring"),
    )
)
