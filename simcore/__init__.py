"""The simulators, in layers (each imports only the layers before it; tests/test_layers.py):

    simcore.base      numba-free: rules resolution, metrics, input checks, preset files, errors,
                      the verdicts and judgments studies and renderers share, the result types
    simcore.frame     the compiled frame every game plugs into, and the registry of games
    simcore.games     one package per game
    simcore.run       the run engine (chunks, threads, dask, checkpoints)
    simcore.studies   one study per command (compare, robustness, ladder, compensate, tuning,
                      report, bench; docs/adding-a-study.md pairs each with its renderer)

Importing `simcore` or `simcore.base` does not load numba: the names below are imported on
first use.
"""

from __future__ import annotations

from typing import Any

__all__ = ["GAMES", "all_games", "get_game", "simulate", "SimResult", "Summary", "RulesError"]

_LAZY = {
    "GAMES": "simcore.frame.registry",
    "all_games": "simcore.frame.registry",
    "get_game": "simcore.frame.registry",
    "simulate": "simcore.run.runner",
    "SimResult": "simcore.run.runner",
    "Summary": "simcore.run.chunks",
    "RulesError": "simcore.base.errors",
}


def __getattr__(name: str) -> Any:
    """The names of __all__, imported on first use."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'simcore' has no attribute {name!r}")
