"""Fill the numba cache of some games in another process while the test suite runs
(tests/conftest.py starts it for a whole-suite run): `python -m tests.warm GAME...`.

A cold run of the suite compiles every game (Sunken Treasure about 2 minutes, the others
about 1 each), one after the other in pytest's process, on one core; this compiles the game
the suite reaches last on the other core, so that its tests find it in the cache. It plays
what the tests compile: a batch (play_batch, with the search player's code) and a traced game
(play_game). Results are not looked at: the tests check them."""

from __future__ import annotations

import sys


def warm(game: str) -> None:
    from simcore import simulate
    from simcore.frame.registry import get_game
    from tests.golden.regen import CASES, trace_lines

    spec = get_game(game)
    simulate(spec, spec.min_players, 2, seed=1, threads=1)
    trace_lines(next(c for c in CASES if c.game == game))


if __name__ == "__main__":
    for name in sys.argv[1:]:
        warm(name)
