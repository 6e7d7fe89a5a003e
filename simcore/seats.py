"""Seat handling every game shares: which entry of the policy list plays each seat."""

from __future__ import annotations

from simcore.jit import kernel


@kernel
def seat_policies(players, index, rotate, pol_ids, weights, pols, wts, policy_idx):
    """Assign the policy list (pol_ids: int64[players], weights: float64[players, W]) to the
    seats of game `index`: pols[seat], wts[seat] and policy_idx[seat] (the list entry). With
    rotation, seat s gets entry (s + index) mod players, so every entry sits in every seat
    equally often. The seats beyond `players` are cleared (policy 0, entry -1, weights 0), so
    the same arrays can serve game after game."""
    for seat in range(players, pols.shape[0]):
        pols[seat] = 0
        policy_idx[seat] = -1
        for j in range(wts.shape[1]):
            wts[seat, j] = 0.0
    for seat in range(players):
        k = (seat + index) % players if rotate else seat
        pols[seat] = pol_ids[k]
        policy_idx[seat] = k
        for j in range(weights.shape[1]):
            wts[seat, j] = weights[k, j]
