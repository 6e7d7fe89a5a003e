"""Sunken Treasure's own checked-mode settings (the generic fuzzing of every variant is
tests/conformance/test_fuzz.py): variants composed, and rules settings beyond the named
variants, with random players and with the heuristic players mixed. The invariants (card
conservation of all three decks, seats consistent with their Diver card, attempt stacks,
sharks, thefts) are asserted after every action."""

from __future__ import annotations

import pytest

from tests.conformance.cases import checked_frame

SETTINGS = [
    (["keep-safety+free-abandon"], {}),
    (["four-sharks+literal-cracked"], {}),
    ([], {"steal_trap_discards": "false", "sharks_to_attack": "1"}),
    ([], {"treasure_counts": "1,1,1,1,1", "item_deck": "3,1,3,2,2,1,6,2"}),
]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("variants,overrides", SETTINGS)
def test_settings_in_checked_mode(players, variants, overrides):
    checked_frame("sunken-treasure", players, variants, overrides, "random", games=200)
    mixed = ",".join(["balanced", "thief", "lockbreaker", "banker"][:players])
    checked_frame("sunken-treasure", players, variants, overrides, mixed, games=60, seed=7)
