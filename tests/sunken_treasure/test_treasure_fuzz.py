"""Sunken Treasure random-policy fuzzing in checked mode: the invariants (card conservation of
all three decks, seats consistent with their Diver card, attempt stacks, sharks, thefts) are
asserted after every action, and every action goes through the engine's legality checks."""

from __future__ import annotations

import pytest

from simcore import simulate

SETTINGS = [
    ([], {}),
    (["bank-on-surface"], {}),
    (["keep-safety+free-abandon"], {}),
    (["four-sharks+literal-cracked"], {}),
    ([], {"steal_trap_discards": "false", "sharks_to_attack": "1"}),
    ([], {"treasure_counts": "1,1,1,1,1", "item_deck": "3,1,3,2,2,1,6,2"}),
]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("variants,overrides", SETTINGS)
def test_fuzz_checked(players, variants, overrides):
    # 6 settings x 4 player counts x 300 random games + 100 mixed-policy games
    res = simulate(
        "sunken-treasure",
        players,
        300,
        variants=variants,
        overrides=overrides,
        policies="random",
        seed=2024,
        checked=True,
        keep_rows=True,
    )
    df = res.rows
    assert res.summary.errors == 0, df[df.error != 0][["game", "error"]].head()
    assert set(df.end_reason) <= {0, 1, 2}
    mixed = ",".join(["balanced", "thief", "lockbreaker", "banker"][:players])
    res = simulate(
        "sunken-treasure",
        players,
        100,
        variants=variants,
        overrides=overrides,
        policies=mixed,
        rotate_seats=True,
        seed=7,
        checked=True,
    )
    assert res.summary.errors == 0
