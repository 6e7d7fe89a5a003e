"""tools/perf_profile.py (a sampling profile with Linux perf): how it names numba's compiled
functions, and that importing it changes nothing (only running it as a script does)."""

from __future__ import annotations

import os

from tests.perf_scripts import load_script


def load():
    return load_script("perf_profile")


def test_short_names_of_numba_symbols():
    short_name = load().short_name
    sym = (
        "_ZN7simcore5games11sunken_city7players6routes10plan_routeB4v360B40c8tJTIeFIjxB2IKSgI4CrvSCKg1"
        "MMVC_2fAwA_3dE5ArrayIxLi1E1C7mutable7alignedE"
    )
    name = "simcore.games.sunken_city.players.routes.plan_route"
    assert short_name(sym) == name
    assert short_name("cpython." + sym) == "cpython." + name
    assert short_name("memset") == "memset"


def test_importing_it_leaves_the_environment_alone():
    before = dict(os.environ)
    load()
    assert dict(os.environ) == before
