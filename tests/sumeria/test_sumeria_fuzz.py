"""Sumeria's own checks of checked-mode games (the generic fuzzing of every variant is
tests/conformance/test_fuzz.py): rules settings beyond the named variants, and what the rows
of every Sumeria game must satisfy (fixed rounds and turns, every drawn tile accounted for)."""

from __future__ import annotations

import pytest

from tests.conformance.cases import checked_frame

SETTINGS = [
    ([], {}),
    (["short"], {}),
    (["four-turns"], {}),
    (["even-tiles"], {}),
    (["few-traders"], {}),
    (["linear"], {}),
    (["ring-map"], {}),
    (["cross-map"], {}),
    (["source-loses"], {}),
    ([], {"setup_shifts_order": "true", "first_player_fallback": "earliest"}),
    ([], {"rounds": "8", "tiles_per_state": "4,3,2,1", "first_player_states": "1"}),
]


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("variants,overrides", SETTINGS)
def test_rounds_turns_and_tiles(players, variants, overrides):
    policy = "random" if players == 3 else "random,balanced,shifter,chaser"
    df, rules = checked_frame("sumeria", players, variants, overrides, policy, games=120)
    assert (df.rounds == rules.rounds).all()
    assert (df.turns == rules.rounds * rules.turns_per_round * players).all()
    tiles = sum(df[f"tiles_{s}"] for s in range(players))
    drawn = min(rules.rounds * sum(rules.tiles_per_state), 4 * rules.tiles_per_type)
    assert (tiles + df.tiles_discarded == drawn).all()
