"""The result schema every game shares: one int64 row per game, common columns first.

Common columns (DESIGN.md): game (index), players, winner (seat, -1 for a shared win),
win_mask (bit per seat sharing first place), rounds, turns, end_reason (index into the game's
END_REASONS), score_<seat>, tiebreak_<seat>, policy_<seat> (index into the policy list after
seat rotation; -1 for an unused seat). Game-specific counters follow.
"""

from __future__ import annotations


def common_columns(max_players: int) -> list[str]:
    cols = ["game", "players", "winner", "win_mask", "rounds", "turns", "end_reason"]
    for name in ("score", "tiebreak", "policy"):
        cols += [f"{name}_{s}" for s in range(max_players)]
    return cols
