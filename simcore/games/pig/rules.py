"""Pig's rules as data (Neller & Presser 2004): the target, the die's faces and the turn limit,
named variants, and the packing, which carries the `optimal` player's decisions (optimal.py).
docs/rules-pig.md lists each rule sentence with its code and test.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simcore.base.rulesbase import RulesBase, RulesError, in_range, variant_registry
from simcore.games.pig import optimal

MAX_FACES = 20  # faces of the die at the most
MAX_TARGET = 200  # the optimal table grows as target**3 (a bit per state)


@dataclass(frozen=True)
class PigRules(RulesBase, game="pig", players=(2, 2)):
    """Every rule parameter of Pig."""

    target: int = in_range(100, 1, MAX_TARGET)
    """points that win: the first to bank this many (Neller & Presser: 100)"""
    die: tuple[int, ...] = in_range((1, 2, 3, 4, 5, 6), 1, 100)
    """the die's faces, each equally likely (a face may repeat); a 1 is the pig, which loses
    the turn total and ends the turn; any other face adds its value to the turn total"""
    max_turns: int = in_range(5000, 1, 1_000_000)
    """safety cap: the game ends with no winner after this many turns of both players (end
    reason 'turn-limit'; the published game has no such end)"""

    def check(self, players: int | None) -> None:
        """Raise RulesError with one clear sentence when the die is not a die."""
        if not 1 <= len(self.die) <= MAX_FACES:
            raise RulesError(f"die needs 1 to {MAX_FACES} faces")
        if all(f == 1 for f in self.die):
            raise RulesError("die needs a face that is not 1 (the pig), or no turn can score")


VARIANTS = variant_registry("Pig as Neller & Presser play it: a six-sided die, target 100")
VARIANTS.add("short", "the first to 50 wins", target=50)
VARIANTS.add("two-pigs", "a die with two pig faces: 1, 1, 2, 3, 4, 5", die=(1, 1, 2, 3, 4, 5))

# Packing for the kernels: one flat int64 array r, named offsets.
P_PLAYERS = 0
P_TARGET = 1
P_MAX_TURNS = 2
P_N_FACES = 3
R_FACES = 4  # [MAX_FACES] the faces
R_POLICY = R_FACES + MAX_FACES  # the optimal decisions: optimal.policy_words


def pack(rules: PigRules, players: int) -> np.ndarray:
    """Validate the rules for a player count and pack them, with the optimal player's roll
    bits for (target, die), into the flat kernel array."""
    words = optimal.policy_words(rules.target, rules.die)
    r = rules.packed(players, R_POLICY + words.size)
    r[P_TARGET] = rules.target
    r[P_MAX_TURNS] = rules.max_turns
    r[P_N_FACES] = len(rules.die)
    r[R_FACES : R_FACES + len(rules.die)] = rules.die
    r[R_POLICY:] = words
    return r
