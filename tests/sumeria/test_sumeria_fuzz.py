"""Random-policy fuzzing of Sumeria in checked mode: the invariants are asserted after every
decision and automatic step, and every decision goes through the engine's legality checks."""

from __future__ import annotations

import pytest

from simcore import simulate

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
def test_fuzz_checked(players, variants, overrides):
    # 11 settings x 2 player counts x 150 games, random and balanced players mixed
    res = simulate(
        "sumeria",
        players,
        150,
        variants=variants,
        overrides=overrides,
        policies="random" if players == 3 else "random,balanced,shifter,chaser",
        seed=2024,
        checked=True,
        keep_rows=True,
        rotate_seats=True,
    )
    df = res.rows
    assert res.summary.errors == 0, df[df.error != 0][["game", "error"]].head()
    rules = res.rules
    assert (df.rounds == rules.rounds).all()
    assert (df.turns == rules.rounds * rules.turns_per_round * players).all()
    tiles = sum(df[f"tiles_{s}"] for s in range(players))
    drawn = min(rules.rounds * sum(rules.tiles_per_state), 4 * rules.tiles_per_type)
    assert (tiles + df.tiles_discarded == drawn).all()
