"""Secrets of the Sea's own checks of checked-mode games (the generic fuzzing of every variant
is tests/conformance/test_fuzz.py): rules settings beyond the named variants, and what the
rows of every game must satisfy (the round count follows from the turns)."""

from __future__ import annotations

import pytest

from tests.conformance.cases import checked_frame

SETTINGS = [
    ([], {}),
    (["exact-wreck"], {}),
    (["must-dive"], {}),
    (["cave-monsters-free"], {}),
    (["unbeatable-monsters"], {}),
    (["exact-wreck+must-dive"], {"wreck_counts_for_bonus": "false"}),
    ([], {"die": "1,2,3,0", "bonus_thresholds": "1,1,1,1,1,1,1"}),
]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variants,overrides", SETTINGS)
def test_rounds_follow_the_turns(players, variants, overrides):
    policy = ",".join(["random", "ev", "balanced", "stop-at-depth"][:players])
    df, _ = checked_frame("secrets-of-the-sea", players, variants, overrides, policy, games=200)
    assert (df.rounds == (df.turns + players - 1) // players).all()
