"""Chutes and Ladders rules as data: the board's links, the spinner, the round limit; named
variants; packing. docs/rules-chutes-and-ladders.md lists every rule sentence with its code and
test."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simcore.base.rulesbase import RulesBase, RulesError, in_range, variant_registry
from simcore.games.chutes_and_ladders import board as B


@dataclass(frozen=True)
class ChutesAndLaddersRules(RulesBase, game="chutes-and-ladders", players=(1, B.MAX_PLAYERS)):
    """Every rule parameter of Chutes and Ladders (Milton Bradley)."""

    links: tuple[tuple[int, int], ...] = in_range(B.MILTON_BRADLEY, 0, B.FINISH)
    """the ladders and chutes as from/to pairs (--set links=1/38,16/6,...; a ladder climbs,
    a chute slides; `milton-bradley` or `none` by name): each starts on a square 1 to 99 and
    ends on another square 1 to 100, no square starts two links, and no link ends where
    another starts (the board has no chained links). Default: the Milton Bradley board"""
    spinner: tuple[int, ...] = in_range(B.SPINNER, 1, B.FINISH)
    """the spinner's faces, each equally likely (a repeated value counts twice; 1 to 12 faces
    of 1 to 100). Default: 1 to 6"""
    max_rounds: int = in_range(1000, 1, 100_000)
    """safety cap: the game ends with no winner after this many rounds (spins per player; end
    reason 'round-limit'; the board has no such end). At the default 1000, a game of the
    Milton Bradley board reaches it with probability below 3e-18 (markov.tail)"""

    def check(self, players: int | None) -> None:
        """Raise RulesError with one clear sentence when the links or the spinner are wrong."""
        starts: set[int] = set()
        for link in self.links:
            if len(link) != 2:
                raise RulesError("links: each link is a pair from/to, e.g. 1/38")
            a, b = link
            if not 1 <= a <= B.FINISH - 1:
                raise RulesError(
                    f"links: a link must start on a square 1 to {B.FINISH - 1}, not {a}"
                )
            if not 1 <= b <= B.FINISH:
                raise RulesError(f"links: a link must end on a square 1 to {B.FINISH}, not {b}")
            if a == b:
                raise RulesError(f"links: the link {a}/{b} leads to its own square")
            if a in starts:
                raise RulesError(f"links: square {a} starts two links")
            starts.add(a)
        for a, b in self.links:
            if b in starts:
                raise RulesError(
                    f"links: the link {a}/{b} ends on square {b}, where another link starts"
                )
        if not 1 <= len(self.spinner) <= B.MAX_FACES:
            raise RulesError(f"spinner needs 1 to {B.MAX_FACES} faces")


NAMED_VALUES = {"links": {"milton-bradley": B.MILTON_BRADLEY, "none": ()}}

VARIANTS = variant_registry("the Milton Bradley board, a spinner of 1 to 6 (no change)")
VARIANTS.add("no-links", "no ladders and no chutes: a plain race to 100", links=())
VARIANTS.add("ladders-only", "the board's ladders without its chutes", links=B.LADDERS)


# ---------------------------------------------------------------------------------------
# Packing for the kernels: one flat int64 array r, named offsets.
P_PLAYERS = 0
P_MAX_ROUNDS = 1
P_FACES = 2  # the spinner's faces
R_FACES = 4  # [MAX_FACES] the spinner's faces
R_DEST = R_FACES + B.MAX_FACES  # [N_SQUARES] where a piece that lands on a square ends
RULES_SIZE = R_DEST + B.N_SQUARES


def destinations(links) -> np.ndarray:
    """Square -> the square a piece landing on it ends on (itself without a link)."""
    dest = np.arange(B.N_SQUARES, dtype=np.int64)
    for a, b in links:
        dest[a] = b
    return dest


def pack(rules: ChutesAndLaddersRules, players: int) -> np.ndarray:
    """Validate the rules for a player count and pack them into the flat kernel array."""
    r = rules.packed(players, RULES_SIZE)
    r[P_MAX_ROUNDS] = rules.max_rounds
    r[P_FACES] = len(rules.spinner)
    r[R_FACES : R_FACES + len(rules.spinner)] = rules.spinner
    r[R_DEST : R_DEST + B.N_SQUARES] = destinations(rules.links)
    return r
