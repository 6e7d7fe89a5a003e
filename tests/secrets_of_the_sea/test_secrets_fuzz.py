"""Secrets of the Sea: random-policy fuzzing in checked mode. The invariants are asserted after
every action, and every action goes through the engine's legality checks (an illegal one is an
error)."""

from __future__ import annotations

import pytest

from simcore import simulate

SETTINGS = [
    ([], {}),
    (["exact-wreck"], {}),
    (["must-dive"], {}),
    (["cave-monsters-free"], {}),
    (["beatable-monsters"], {}),
    (["exact-wreck+must-dive"], {"wreck_counts_for_bonus": "false"}),
    ([], {"die": "1,2,3,0", "bonus_thresholds": "1,1,1,1,1,1,1"}),
]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variants,overrides", SETTINGS)
def test_fuzz_checked(players, variants, overrides):
    # 7 settings x 3 player counts x 300 games, random players plus one of each heuristic
    pol = ",".join(["random", "ev", "balanced", "stop-at-depth"][:players])
    res = simulate(
        "secrets-of-the-sea",
        players,
        300,
        variants=variants,
        overrides=overrides,
        policies=pol,
        rotate_seats=True,
        seed=2024,
        checked=True,
        keep_rows=True,
    )
    df = res.rows
    assert res.summary.errors == 0, df[df.error != 0][["game", "error"]].head()
    assert set(df.end_reason) <= {0, 1, 2, 3}  # every game ends by the rules
    assert (df.rounds == (df.turns + players - 1) // players).all()


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variants,overrides", SETTINGS)
def test_fuzz_checked_long(players, variants, overrides):
    res = simulate(
        "secrets-of-the-sea",
        players,
        20_000,
        variants=variants,
        overrides=overrides,
        policies="random",
        seed=99,
        checked=True,
    )
    assert res.summary.errors == 0
