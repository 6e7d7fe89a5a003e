"""numba on and off give the same numbers: the same games played by the compiled kernels and
by the plain-Python engine (NUMBA_DISABLE_JIT=1, in a subprocess) produce identical rows."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from simcore import get_game
from simcore.sunken_city.rules import SunkenCityRules, pack

SCRIPT = """
import sys, numpy as np
from simcore import get_game
from simcore.sunken_city.rules import SunkenCityRules, pack
spec = get_game("sunken-city")
ids, w = spec.policy_arrays(spec.parse_policies(sys.argv[1], 3))
rows = np.zeros((int(sys.argv[2]), len(spec.columns)), np.int64)
spec.play_batch(pack(SunkenCityRules(), 3), ids, w, np.uint64(3), np.int64(0), True, True, rows)
np.save(sys.argv[3], rows)
"""


@pytest.mark.parametrize("policy,games", [("random", 6), ("balanced,greedy,aggressive", 2)])
def test_plain_python_engine_gives_identical_rows(policy, games, tmp_path):
    out = tmp_path / "rows.npy"
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    subprocess.run(
        [sys.executable, "-W", "ignore", "-c", SCRIPT, policy, str(games), str(out)],
        check=True,
        env=env,
        timeout=300,
    )
    plain = np.load(out)
    spec = get_game("sunken-city")
    ids, w = spec.policy_arrays(spec.parse_policies(policy, 3))
    rows = np.zeros((games, len(spec.columns)), np.int64)
    spec.play_batch(pack(SunkenCityRules(), 3), ids, w, np.uint64(3), np.int64(0), True, True, rows)
    assert np.array_equal(plain, rows)
    assert (rows[:, spec.columns.index("error")] == 0).all()
