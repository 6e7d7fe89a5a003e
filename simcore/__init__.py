"""Compiled simulators: one sub-package per game, plus what all games share.

numba's on-disk cache only checks the source file of each cached function, not the files of
the functions it calls or the constants it imports, so a cached caller can keep running stale
code after a change elsewhere. The cache therefore lives in a directory keyed by a hash of all
simcore sources (unless NUMBA_CACHE_DIR is set by the user).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path


def _source_hash() -> str:
    h = hashlib.sha256()
    root = Path(__file__).parent
    for p in sorted(root.rglob("*.py")):
        h.update(str(p.relative_to(root)).encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def _configure_numba_cache() -> None:
    import numba

    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "balance-numba"
    numba.config.CACHE_DIR = str(base / _source_hash())


_configure_numba_cache()

from simcore.games import GAMES, all_games, get_game  # noqa: E402
from simcore.rulesbase import RulesError  # noqa: E402
from simcore.runner import SimResult, Summary, simulate  # noqa: E402

__all__ = ["GAMES", "all_games", "get_game", "simulate", "SimResult", "Summary", "RulesError"]
