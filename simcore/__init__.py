"""Compiled simulators: one sub-package per game, plus what all games share.

Compiled functions are declared through simcore.jit (kernel / driver), which also keeps the
numba on-disk cache per game package and source version.
"""

from __future__ import annotations

from typing import Any

from simcore.games import GAMES, all_games, get_game
from simcore.rulesbase import RulesError

__all__ = ["GAMES", "all_games", "get_game", "simulate", "SimResult", "Summary", "RulesError"]


def __getattr__(name: str) -> Any:
    """simulate, SimResult and Summary are imported on first use: importing a light module of
    simcore (metrics, inputs, rulesbase) does not load numba and the runner."""
    if name in ("simulate", "SimResult"):
        from simcore import runner

        return getattr(runner, name)
    if name == "Summary":
        from simcore.chunks import Summary

        return Summary
    raise AttributeError(f"module 'simcore' has no attribute {name!r}")
