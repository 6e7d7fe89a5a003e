"""Compiled simulators: one sub-package per game, plus what all games share.

Compiled functions are declared through simcore.jit (kernel / driver), which also keeps the
numba on-disk cache per game package and source version.
"""

from __future__ import annotations

from simcore.games import GAMES, all_games, get_game
from simcore.rulesbase import RulesError
from simcore.runner import SimResult, Summary, simulate

__all__ = ["GAMES", "all_games", "get_game", "simulate", "SimResult", "Summary", "RulesError"]
