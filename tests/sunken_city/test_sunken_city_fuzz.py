"""Sunken City's own checks of checked-mode games (the generic fuzzing of every variant with
the random player is tests/conformance/test_fuzz.py): the default (balanced) player under the
named variants and rules settings beyond them, every action through the engine's legality
checks and the invariants asserted after each, and what the rows of every Sunken City game must
satisfy (whole rounds, games ended by the rules). Longer runs: `pytest -m slow`."""

from __future__ import annotations

import pytest

from tests.conformance.cases import checked_frame

VARIANTS = ["base", "short", "no-chips", "value-scoring", "single-square-streets", "short+no-chips"]
OVERRIDES = [
    {"action_order": "intermingled", "chip_timing": "any-time"},
    {"spirit_needs_icon": "false", "die": "0,4,6"},
    {"cards": "4/7/1,0/2/1,3/3/0", "chip_supply": "2"},
]
SETTINGS = [([v], {}) for v in VARIANTS] + [([], o) for o in OVERRIDES]
# (games, seed) per setting and player count: 9 settings x 3 player counts x 800 = 21,600
RUNS = [(800, 2024), pytest.param(30_000, 99, marks=pytest.mark.slow, id="long")]


@pytest.mark.parametrize("games,seed", RUNS)
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variants,overrides", SETTINGS)
def test_fuzz_checked(players, variants, overrides, games, seed):
    df, _ = checked_frame("sunken-city", players, variants, overrides, "balanced", games, seed)
    assert set(df.end_reason) <= {0, 1, 2}
    assert (df.turns == df.rounds * players).all()  # every round is finished
    # games end by the rules (all treasures banked, or the hourglass); the round cap only
    # catches the rare deadlock of a full lake with an isolated spirit (docs/rules-sunken-city.md)
    assert (df.end_reason == 2).mean() < 0.01
