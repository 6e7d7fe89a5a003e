"""numba on and off give the same numbers: the same games played by the compiled kernels and
by the plain-Python engine (NUMBA_DISABLE_JIT=1, in a subprocess) produce identical rows, for
every game (`balance bench --full` times that plain engine)."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from simcore import get_game

SCRIPT = """
import sys, numpy as np
from simcore import get_game
spec = get_game(sys.argv[1])
players = int(sys.argv[2])
ids, w = spec.policy_arrays(spec.parse_policies(sys.argv[3], players))
rows = np.zeros((int(sys.argv[4]), len(spec.columns)), np.int64)
spec.play_batch(spec.pack(spec.rules_cls(), players), ids, w, np.uint64(3), np.int64(0), True,
                True, rows)
np.save(sys.argv[5], rows)
"""


@pytest.mark.parametrize(
    "game,players,policy,games",
    [
        ("sunken-city", 3, "random", 6),
        ("sunken-city", 3, "balanced,greedy,aggressive", 2),
        ("sumeria", 4, "balanced,random,balanced,random", 2),
        ("secrets-of-the-sea", 4, "balanced,random,stop-at-value,stop-at-depth", 30),
        ("secrets-of-the-sea", 2, "ev,balanced", 2),
        ("sunken-treasure", 4, "balanced,random,balanced,random", 30),
    ],
)
def test_plain_python_engine_gives_identical_rows(game, players, policy, games, tmp_path):
    out = tmp_path / "rows.npy"
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    subprocess.run(
        [sys.executable, "-W", "ignore", "-c", SCRIPT, game, str(players), policy, str(games)]
        + [str(out)],
        check=True,
        env=env,
        timeout=300,
    )
    plain = np.load(out)
    spec = get_game(game)
    ids, w = spec.policy_arrays(spec.parse_policies(policy, players))
    rows = np.zeros((games, len(spec.columns)), np.int64)
    r = spec.pack(spec.rules_cls(), players)
    spec.play_batch(r, ids, w, np.uint64(3), np.int64(0), True, True, rows)
    assert np.array_equal(plain, rows)
    assert (rows[:, spec.columns.index("error")] == 0).all()
    assert rows[:, spec.columns.index("turns")].min() > 0
