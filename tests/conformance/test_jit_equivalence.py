"""numba on and off give the same numbers, for every registered game: the same games played
by the compiled kernels and by the plain-Python engine (NUMBA_DISABLE_JIT=1, in a subprocess)
produce identical rows (`balance bench --full` times that plain engine). Each game plays the
random player at its most players, and its policies mixed at its fewest and its most, seats
rotated and checked."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from simcore import get_game
from tests.conformance.cases import GAMES, lineup, play_rows, random_player, resolve

RANDOM_GAMES = 6
MIXED_GAMES = 2
# the games whose plain-Python engine is fast enough for more games
RANDOM_GAMES_OF = {"secrets-of-the-sea": 30, "sunken-treasure": 15}

SCRIPT = """
import sys, numpy as np
from tests.conformance.cases import play_rows, resolve
game, out = sys.argv[1], sys.argv[2]
batches = []
for players, policy, games in zip(*[iter(sys.argv[3:])] * 3):
    rules, seats = resolve(game, int(players), policy=policy)
    batches.append(play_rows(game, int(players), rules, seats, 3, 0, int(games), True, True))
np.save(out, np.concatenate(batches))
"""


def batches(game: str) -> list[tuple[int, str, int]]:
    """(players, policy, games) of each batch the game plays."""
    spec = get_game(game)
    few, most = spec.min_players, spec.max_players
    return [
        (most, random_player(game), RANDOM_GAMES_OF.get(game, RANDOM_GAMES)),
        (few, lineup(game, few), MIXED_GAMES),
        (most, lineup(game, most), MIXED_GAMES),
    ]


@pytest.mark.parametrize("game", GAMES)
def test_plain_python_engine_gives_identical_rows(game, tmp_path):
    out = tmp_path / "rows.npy"
    args = [str(x) for batch in batches(game) for x in batch]
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    cmd = [sys.executable, "-W", "ignore", "-c", SCRIPT, game, str(out), *args]
    subprocess.run(cmd, check=True, env=env, timeout=600)
    compiled = []
    for players, policy, games in batches(game):
        rules, seats = resolve(game, players, policy=policy)
        compiled.append(play_rows(game, players, rules, seats, 3, 0, games, True, True))
    rows = np.concatenate(compiled)
    assert np.array_equal(np.load(out), rows)
    spec = get_game(game)
    assert (rows[:, spec.columns.index("error")] == 0).all()
