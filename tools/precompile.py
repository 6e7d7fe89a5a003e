"""Fill the numba cache of every game before the tests, several games at a time.

    python tools/precompile.py [--jobs 2] [GAME ...]

numba compiles each game's kernels on first use, in one thread: on a machine with an empty
cache (a fresh CI machine) about five minutes of the test suite are compilation, one game
after another. This script compiles every game's variants that the suite uses (the fast and
the checked driver, with and without rows, the `search` player's, the replay's trace) in
`--jobs` processes at once, each game in one process, the slowest first; the cache
(simcore.frame.jit: ~/.cache/balance-numba or NUMBA_CACHE_DIR) is then warm for the tests.
With the cache already warm it takes a few seconds. `make test` runs it before pytest
(docs/performance.md, "The test suite").
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import sys
import time
from pathlib import Path

# the slowest to compile first (measured cold, 2026-12-03), so that two processes end together
# (2 processes: Sunken Treasure 152 s, Sunken City 93, Secrets of the Sea 61, Sumeria 50,
# Pig 27, Chutes and Ladders 11)
ORDER = (
    "sunken-treasure",
    "sunken-city",
    "secrets-of-the-sea",
    "sumeria",
    "pig",
    "chutes-and-ladders",
)


def warm(game: str) -> tuple[str, float]:
    """Compile one game's variants by playing a few games with each; (game, seconds)."""
    started = time.perf_counter()
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from simcore.frame.registry import get_game
    from simcore.run.runner import play_chunk, replay_game

    spec = get_game(game)
    players = spec.nearest_players(3)
    rules = spec.resolve_rules([], {}, None, players)
    lineups = [spec.default_policy]
    if "search" in spec.policies:
        lineups.append("search:budget=1")
    for text in lineups:
        seats = spec.parse_policies(text, players)
        for checked in (False, True):
            for rows in (False, True):
                play_chunk(game, players, rules, seats, 1, 0, 2, False, checked, keep_rows=rows)
    replay_game(game, players, 1, 0)
    return game, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", default=list(ORDER))
    ap.add_argument("--jobs", type=int, default=2, help="processes at once")
    args = ap.parse_args(argv)
    started = time.perf_counter()
    with mp.get_context("spawn").Pool(max(args.jobs, 1)) as pool:
        for game, seconds in pool.imap_unordered(warm, args.games):
            print(f"precompile: {game} in {seconds:.0f} s", file=sys.stderr, flush=True)
    print(
        f"precompile: {len(args.games)} games in {time.perf_counter() - started:.0f} s",
        file=sys.stderr,
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
