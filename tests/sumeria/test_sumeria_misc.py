"""Sumeria: statistical checks at a fixed seed (determinism, replay = simulate and the golden
traces are checked for every game by tests/conformance/)."""

from __future__ import annotations

import pytest

from simcore import get_game, simulate


def _rate(policies: str, games: int = 600, players: int = 3) -> float:
    """Win share (shared wins split) of the first policy of the list, seats rotated."""
    res = simulate(
        get_game("sumeria"),
        players,
        games,
        policies=policies,
        seed=5,
        rotate_seats=True,
        keep_rows=True,
    )
    df = res.rows
    mask = df.win_mask.to_numpy()
    n = sum((mask >> k) & 1 for k in range(players))
    wins = 0.0
    for s in range(players):
        mine = (df[f"policy_{s}"] == 0).to_numpy()
        wins += float((((mask >> s) & 1)[mine] / n[mine]).sum())
    return wins / games


@pytest.mark.parametrize("policy", ["balanced", "chaser", "shifter"])
def test_presets_beat_random(policy):
    # fair share 1/3; at 600 games the 95% interval half-width is about 0.04
    assert _rate(f"{policy},random,random") > 0.45
