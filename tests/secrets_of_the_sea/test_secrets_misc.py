"""Secrets of the Sea: statistical checks at a fixed seed (determinism, replay = simulate and
the golden traces are checked for every game by tests/conformance/)."""

from __future__ import annotations

import pytest

from simcore import get_game, simulate

GAME = "secrets-of-the-sea"


def _rates(policy: str, games: int = 3000) -> dict[str, tuple[float, float]]:
    res = simulate(get_game(GAME), 3, games, policies=policy, rotate_seats=True, seed=5)
    s = res.summary
    return {
        p: (s.policy_wins[k] / s.policy_games[k], s.policy_score[k] / s.policy_games[k])
        for k, p in enumerate(res.policies)
    }


@pytest.mark.parametrize("strong", ["ev", "balanced", "stop-at-value", "stop-at-depth"])
def test_each_player_beats_random(strong):
    """Seats rotated, 3000 games at seed 5: each heuristic wins more than a random player and
    more than a third of its games (random players win under 5%)."""
    rates = _rates(f"{strong},random,random")
    assert rates[strong][0] > 0.5
    assert rates["random"][0] < 0.05


def test_ev_beats_balanced_and_the_thresholds():
    rates = _rates("ev,balanced,stop-at-value")
    assert rates["ev"][0] > rates["balanced"][0]
    assert rates["ev"][0] > rates["stop-at-value"][0]
