"""Sumeria players: the fast evaluation of the heuristic players makes the decisions of the
reference evaluation (every trial made on the state and undone), and the move search lists
the destinations of the reference depth-first search in its order.

The players' speed-ups (docs/performance.md, Sumeria) must not change a single decision: the
reference here is the plain algorithm of docs/policies-sumeria.md, written with the
reference kernels of policies.py (eval_add, eval_remove, eval_move).
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from simcore import get_game
from simcore.frame.rng import new_stream, rand_float
from simcore.games.sumeria import engine as E
from simcore.games.sumeria import policies as P
from simcore.games.sumeria.board import LOCS_PER_STATE, MAX_DEG, N_LOCS, N_STATES, loc_name
from simcore.games.sumeria.play import N_COLS, play_game
from simcore.games.sumeria.rules import R_ADJ, R_DEG, SumeriaRules, pack
from simcore.games.sumeria.state import (
    EMPTY,
    O_LOC,
    O_POS,
    O_RESERVE,
    PH_SETUP,
    PH_TURN,
    S_PHASE,
    S_SEAT,
    TRACE,
    X_DEST,
    X_MREAD,
    XF_SIZE,
    new_scratch,
    new_state,
)

MAPS = ("default", "ring", "cross")


def reference_targets(s: np.ndarray, r: np.ndarray, frm: int) -> list[int]:
    """The move search as first written: a stack of directed routes, each followed once,
    over occupied locations on along every route but the one it came by."""
    adj = r[R_ADJ : R_ADJ + N_LOCS * MAX_DEG].reshape(N_LOCS, MAX_DEG)
    deg = r[R_DEG : R_DEG + N_LOCS]
    stack = [(frm, j) for j in range(deg[frm])]
    seen: set[tuple[int, int]] = set()
    out: list[int] = []
    while stack:
        a, j = stack.pop()
        if (a, j) in seen:
            continue
        seen.add((a, j))
        b = int(adj[a, j])
        if b == frm:
            continue
        if s[O_LOC + b] == EMPTY:
            if b not in out:
                out.append(b)
        else:
            stack += [(b, k) for k in range(deg[b]) if adj[b, k] != a]
    return out


def write_map(path, kind: str, seed: int = 0) -> str:
    """A map file: 'ring' one loop through all 56 locations (every location has 2 routes, so
    the search's straight runs are cut at board.RUN_MAX), 'random' random routes (at most
    MAX_DEG at a location)."""
    rng = np.random.default_rng(seed)
    routes: set[tuple[int, int]] = set()
    if kind == "ring":
        perm = rng.permutation(N_LOCS)
        routes = {(int(perm[i]), int(perm[(i + 1) % N_LOCS])) for i in range(N_LOCS)}
    else:
        deg = np.zeros(N_LOCS, dtype=int)
        while len(routes) < 90:
            a, b = (int(v) for v in rng.integers(0, N_LOCS, 2))
            if a == b or (a, b) in routes or (b, a) in routes:
                continue
            if max(deg[a], deg[b]) >= MAX_DEG:
                continue
            deg[a] += 1
            deg[b] += 1
            routes.add((a, b))
    path.write_text("".join(f"{loc_name(a)} {loc_name(b)}\n" for a, b in sorted(routes)))
    return str(path)


@pytest.mark.parametrize("map_name", [*MAPS, "file:ring", "file:random"])
def test_move_search_matches_the_reference_in_order(map_name, tmp_path):
    if map_name.startswith("file:"):
        map_name = write_map(tmp_path / "map.txt", map_name[5:])
    r = pack(SumeriaRules(map=map_name), 3)
    rng = np.random.default_rng(7)
    x = new_scratch()
    s = new_state()
    for _ in range(300):
        fill = rng.uniform(0.2, 0.95)
        occupied = rng.random(N_LOCS) < fill
        s[O_LOC : O_LOC + N_LOCS] = np.where(occupied, rng.integers(0, 3, N_LOCS), EMPTY)
        E.recount(s)  # the seats' masks (the search reads the empty locations from them)
        for frm in np.flatnonzero(occupied):
            n = E.move_targets(s, r, int(frm), x, X_DEST)
            got = [int(v) for v in x[X_DEST : X_DEST + n]]
            assert got == reference_targets(s, r, int(frm))
            # the read mask covers what the result depends on: every destination, and
            # flipping a location outside it changes nothing
            read = int(x[X_MREAD])
            assert all(read >> q & 1 for q in got)
            outside = [q for q in range(N_LOCS) if not read >> q & 1 and q != frm]
            if outside:
                q = int(rng.choice(outside))
                keep = s[O_LOC + q]
                s[O_LOC + q] = EMPTY if keep != EMPTY else 0
                E.recount(s)
                n2 = E.move_targets(s, r, int(frm), x, X_DEST)
                assert [int(v) for v in x[X_DEST : X_DEST + n2]] == got
                s[O_LOC + q] = keep
                E.recount(s)


def reference_decision(s, r, me, w, rng, x, xf):
    """(kind, a, b) of the reference algorithm: 0 add / placement at a, 1 move a -> b,
    2 remove a. Draws one number per candidate from rng, as the player does."""
    P.prepare(s, r, me, w, x, xf, False)
    noise = w[P.W_NOISE]
    best = (-1, -1, -1)
    bv = P.NEG

    def offer(v, cand):
        nonlocal best, bv
        v = v + noise * rand_float(rng)
        if v > bv:
            bv, best = v, cand

    def empty_in(st):
        for k in range(LOCS_PER_STATE):
            if s[O_LOC + st * LOCS_PER_STATE + k] == EMPTY:
                return st * LOCS_PER_STATE + k
        return -1

    if s[S_PHASE] == PH_SETUP:
        shift = bool(r[P.P_SETUP_SHIFTS])
        for st in range(N_STATES):
            q = empty_in(st)
            if q >= 0:
                offer(P.eval_add(s, r, me, q, shift, w, xf), (0, q, -1))
        return best
    if s[O_RESERVE + me] > 0:
        for st in range(N_STATES):
            q = empty_in(st)
            if q >= 0:
                offer(P.eval_add(s, r, me, q, True, w, xf), (0, q, -1))
    for st in range(N_STATES):
        for k in range(LOCS_PER_STATE - 1, -1, -1):
            q = st * LOCS_PER_STATE + k
            if s[O_LOC + q] == me:
                offer(P.eval_remove(s, r, me, q, w, xf), (2, q, -1))
                break
    for q in range(N_LOCS):
        if s[O_LOC + q] != me:
            continue
        for to in reference_targets(s, r, q):
            offer(P.eval_move(s, r, me, q, to, w, xf), (1, q, to))
    return best


def apply(s, r, me, decision):
    tr, x = TRACE.new(), new_scratch()
    kind, a, b = decision
    if s[S_PHASE] == PH_SETUP:
        return E.do_place(s, r, tr, me, a)
    if kind == 0:
        return E.do_add(s, r, tr, me, a)
    if kind == 1:
        return E.do_move(s, r, tr, me, a, b, x)
    return E.do_remove(s, r, tr, me, a)


CASES = [
    # (players, variants, overrides, policies)
    (4, [], {}, "balanced,chaser,shifter,balanced"),
    (3, [], {}, "shifter,balanced,chaser"),
    (3, ["cross-map", "linear"], {}, "balanced,balanced,shifter"),
    (4, ["source-loses"], {}, "shifter,balanced,chaser,balanced"),
    (3, ["even-tiles"], {"setup_shifts_order": "true"}, "balanced,shifter,chaser"),
    # without noise ties are common and the first best candidate wins: a value that differs
    # in its last bit or a candidate out of order shows
    (4, [], {}, "balanced:noise=0,chaser:noise=0,shifter:noise=0,balanced:noise=0"),
    (3, ["source-loses"], {}, "shifter:noise=0,balanced:noise=0,chaser:noise=0"),
]


def case_id(case) -> str:
    players, variants, _, policies = case
    return "-".join([str(players), *variants, policies.replace(":noise=0", "~0")])


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_fast_evaluation_makes_the_reference_decisions(case):
    players, variants, overrides, policies = case
    spec = get_game("sumeria")
    rules = spec.resolve_rules(variants, overrides, None, players)
    r = pack(rules, players)
    ids, w = spec.policy_arrays(spec.parse_policies(policies, players))
    checked = 0
    for game in range(3):
        tr = TRACE.new(600, enabled=True)
        row = np.zeros(N_COLS, np.int64)
        play_game(r, ids, w, np.uint64(21), np.uint64(game), False, True, tr, row)
        x = new_scratch()  # one scratch for the whole game: the move cache carries over
        xf = np.zeros(XF_SIZE)
        for k, snap in enumerate(TRACE.snapshots(tr)):
            if snap[S_PHASE] not in (PH_SETUP, PH_TURN):
                continue
            me = int(snap[S_SEAT])
            wt = np.ascontiguousarray(w[me])
            fast = snap.copy()
            rng = new_stream(5, k)
            assert P.heuristic_decision(fast, r, TRACE.new(), me, wt, rng, x, xf) == 0
            ref = snap.copy()
            rng_ref = new_stream(5, k)
            choice = reference_decision(ref, r, me, wt, rng_ref, new_scratch(), np.zeros(XF_SIZE))
            assert apply(ref, r, me, choice) == 0
            assert np.array_equal(fast, ref), f"game {game} decision {k}"
            assert rng[0] == rng_ref[0]
            checked += 1
    assert checked > 100


def test_prepared_terms_match_their_reference():
    """prepare's case table holds the sums of `case_value`, and its per-state terms (arrivals,
    the city-state pushed aside, a tile moved one place left or right) are the floats of
    `term`, the reference lookups (3 city-states scored a round: 6 positions have a value)."""
    spec = get_game("sumeria")
    r = pack(SumeriaRules(), 4)
    ids, w = spec.policy_arrays(spec.parse_policies("balanced,shifter,chaser,balanced", 4))
    tr = TRACE.new(600, enabled=True)
    play_game(r, ids, w, np.uint64(8), np.uint64(0), False, True, tr, np.zeros(N_COLS, np.int64))
    x, xf, ref = new_scratch(), np.zeros(XF_SIZE), np.zeros(XF_SIZE)
    checked = 0
    for snap in TRACE.snapshots(tr):
        if snap[S_PHASE] != PH_TURN:
            continue
        me = int(snap[S_SEAT])
        P.prepare(snap, r, me, np.ascontiguousarray(w[me]), x, xf, True)
        ref[:] = xf
        P.prepare_arrivals(snap, x, ref)
        assert np.array_equal(xf, ref)
        for p in range(N_STATES):  # the case table: the sums of case_value (0.0 unscored)
            for case in range(16):
                ref_v = P.case_value(xf, p, case) if p < 6 else 0.0
                assert xf[P.XF_CASE_VALUES + 16 * p + case] == ref_v
        pos = snap[O_POS : O_POS + N_STATES]
        for st in range(N_STATES):
            p, key = int(pos[st]), P.my_key(x, st)
            if p > 0:
                assert xf[P.XF_LEFT_CHANGE + st] == P.term(x, xf, st, p - 1, key)
            if p < N_STATES - 1:
                assert xf[P.XF_RIGHT_CHANGE + st] == P.term(x, xf, st, p + 1, key)
        checked += 1
    assert checked > 50


PLAIN = """
import sys, numpy as np
from simcore import get_game
spec = get_game("sumeria")
rules = spec.resolve_rules([sys.argv[1]] if sys.argv[1] else [], {}, None, 4)
ids, w = spec.policy_arrays(spec.parse_policies("balanced,shifter,chaser,random", 4))
rows = np.zeros((1, len(spec.columns)), np.int64)
spec.play_batch(spec.pack(rules, 4), ids, w, np.uint64(3), np.int64(0), True, True, rows)
np.save(sys.argv[2], rows)
"""


@pytest.mark.parametrize("variant", ["", "source-loses"])
def test_plain_python_plays_the_same_game(variant, tmp_path):
    """The players run without numba too (NUMBA_DISABLE_JIT=1: bench --full, debugging): no
    compiled-only intrinsics, the same game."""
    out = tmp_path / "rows.npy"
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    cmd = [sys.executable, "-W", "ignore", "-c", PLAIN, variant, str(out)]
    subprocess.run(cmd, check=True, env=env, timeout=300)
    subprocess.run(cmd[:-1] + [str(tmp_path / "jit.npy")], check=True, timeout=300)
    assert np.array_equal(np.load(out), np.load(tmp_path / "jit.npy"))
