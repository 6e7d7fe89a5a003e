"""Sumeria's `trained` player (simcore/games/sumeria/trained_player.py): its ranking is the
search's with `balanced`'s weights (the row's base player), the features of every candidate
along a game (the trial undone, one kind each, the base player's choice marked), the shipped
models (checksum, provenance, size), and a shipped model beats the presets it trained beside."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from simcore import get_game, simulate
from simcore.base.trained_model import shipped_path
from simcore.games import sumeria
from simcore.games.sumeria import search as SS
from simcore.games.sumeria import state as ST
from simcore.games.sumeria import trained_player as T
from simcore.games.sumeria.engine_round import ranking
from simcore.games.sumeria.play import N_COLS, play_game
from simcore.games.sumeria.policies import WEIGHT_NAMES
from simcore.games.sumeria.rules import SumeriaRules, pack

PLAYERS = (3, 4)
PACKAGE = Path(sumeria.__file__).parent
KINDS = slice(T.F_SETUP, T.F_CHOOSE + 1)


def test_the_ranking_weights_are_the_base_players():
    """search_step ranks with the row's first columns (balanced's, the default preset); the
    hook ranks with BASE_WEIGHTS: the same numbers, so rank i is the same action."""
    spec = get_game("sumeria")
    assert spec.default_policy == "balanced"
    preset = spec.policies["balanced"].weights
    assert np.array_equal(T.BASE_WEIGHTS, [preset[k] for k in WEIGHT_NAMES])
    _, w = spec.policy_arrays(spec.parse_policies("trained,balanced,balanced", 3))
    assert np.array_equal(w[0, : len(WEIGHT_NAMES)], T.BASE_WEIGHTS)


@pytest.mark.parametrize("players", PLAYERS)
def test_features_of_every_candidate_along_a_game(players):
    """At every decision of a game: the hook leaves the state as it was, every feature is
    finite, each candidate has one kind, exactly one is the base player's choice (the first
    of an action's ranking), and no candidate is worth more to the base player than it."""
    r = pack(SumeriaRules(), players)
    spec = get_game("sumeria")
    ids, w = spec.policy_arrays(spec.parse_policies(",".join(["balanced"] * players), players))
    tr = ST.TRACE.new(600, enabled=True)
    play_game(r, ids, w, np.uint64(5), np.uint64(0), False, True, tr, np.zeros(N_COLS, np.int64))
    x, xf = (
        np.zeros(ST.X_SIZE + SS.WIDTH, np.int64),
        np.zeros(ST.XF_SIZE + SS.WIDTH * T.TRAINED_WIDTH),
    )
    seen = {ST.PH_SETUP: 0, ST.PH_TURN: 0, ST.PH_CHOOSE: 0}
    for snap in ST.TRACE.snapshots(tr):
        ph, me = int(snap[ST.S_PHASE]), int(snap[ST.S_SEAT])
        n = SS.search_options(snap, r, me, x, ST.X_SIZE)
        before = snap.copy()
        T.trained_features(snap, r, me, x, ST.X_SIZE, n, xf, ST.XF_SIZE)
        assert np.array_equal(snap, before)
        f = xf[ST.XF_SIZE : ST.XF_SIZE + n * T.TRAINED_WIDTH].reshape(n, T.TRAINED_WIDTH)
        assert np.isfinite(f).all()
        assert (f[:, KINDS].sum(axis=1) == 1).all()
        assert f[:, T.F_BASE_CHOICE].sum() == 1 and (f[:, T.F_VALUE] <= 0).all()
        assert (f[:, T.F_PROGRESS] >= 0).all() and (f[:, T.F_PROGRESS] <= 1).all()
        for k in (T.F_MY_LEFT, T.F_OPP_LEFT, T.F_AT_RISK, T.F_WITHIN, T.F_NOW_PTS):
            assert (f[:, k] >= 0).all() and (f[:, k] <= 1).all()
        assert (f[:, T.F_NOW_PTS_OPP] >= 0).all() and (np.abs(f[:, T.F_EDGE]) <= 1).all()
        if ph != ST.PH_CHOOSE:
            assert f[0, T.F_BASE_CHOICE] == 1
        else:  # the tile is not yet taken: the outlook is the position's own
            expect = reference_outlook(snap, r, me)
            for k, v in expect.items():
                assert f[:, k] == pytest.approx(v, abs=1e-12), k
        seen[ph] += 1
    assert min(seen.values()) > 0


def place_shares(snap, r, p, st, first, second):
    """(tiles to each seat, points to each seat) at scored place p holding city-state st: the
    controller picks `picks` tiles one at a time, each the type whose next tile gives most
    points on the tiles it holds, the second place takes the rest (trained_player.outlook)."""
    players, kp = int(r[0]), int(r[T.R.R_TILES + p])
    left = [int(snap[ST.O_DISPLAY + p * 4 + t]) for t in range(4)]
    total = sum(left)
    picks = min(kp - 1 if kp >= 2 else kp, total)
    tiles = [0] * players
    pts = [0] * players

    def held(seat, t):
        return int(snap[ST.O_HELD + seat * 4 + t])

    def tri(n):
        return n * (n + 1) // 2

    if first >= 0:
        tiles[first] += picks
        for _ in range(picks):  # the next tile's points on the tiles held; ties: first type
            n = [held(first, t) for t in range(4)]
            g, t = max((tri(n[t] + 1) - tri(n[t]), -t) for t in range(4) if left[t])
            pts[first] += g
            left[-t] -= 1
    if second >= 0:
        tiles[second] += total - picks
        pts[second] += sum(tri(held(second, t) + left[t]) - tri(held(second, t)) for t in range(4))
    return tiles, pts


def reference_outlook(snap, r, me):
    """F_NOW_PTS, F_NOW_PTS_OPP, F_AT_RISK, F_WITHIN and F_EDGE of a position, recomputed here
    from the rules' text: the places scored this round ranked as they stand, one more trader
    (of mine, of each opponent) in each, and the last scored state exchanged with the next."""
    players, k = int(r[0]), int(r[T.R.P_N_SCORED])
    tiles = float(T.round_tiles(r))
    game = tiles * int(r[T.R.P_ROUNDS])
    gain = [0] * players
    risk = within = edge = 0
    for p in range(k):
        st = int(snap[ST.O_ORDER + p])
        won, pts = place_shares(snap, r, p, st, *ranking(snap, r, st))
        gain = [a + b for a, b in zip(gain, pts)]
        plus = [
            place_shares(snap, r, p, st, *T.ranking_plus(snap, r, st, b))[0] for b in range(players)
        ]
        within = max(within, plus[me][me] - won[me])
        risk = max([risk] + [won[me] - plus[o][me] for o in range(players) if o != me])
        if p == k - 1:
            nxt = int(snap[ST.O_ORDER + k])
            edge = place_shares(snap, r, p, nxt, *ranking(snap, r, nxt))[0][me] - won[me]
    mine = int(T.points(snap, r, me)) + gain[me]
    best = max(int(T.points(snap, r, o)) + gain[o] for o in range(players) if o != me)
    return {
        T.F_NOW_PTS: gain[me] / game,
        T.F_NOW_PTS_OPP: max(gain[o] for o in range(players) if o != me) / game,
        T.F_NOW_LEAD: (mine - best) / game,
        T.F_AT_RISK: risk / tiles,
        T.F_WITHIN: within / tiles,
        T.F_EDGE: edge / tiles,
    }


def test_one_more_trader_ranks_as_the_rulebook():
    """ranking_plus: one more trader of a seat counts as a trader more (the key's 64), and a
    seat without a trader there enters the ranking with its turn order alone."""
    r = pack(SumeriaRules(), 3)
    s = np.zeros(ST.STATE_SIZE, np.int64)
    s[ST.O_LOC : ST.O_LOC + 56] = -1
    s[ST.S_FIRST] = 0
    st = 2
    s[ST.O_CNT + st * 4 + 1] = 1  # seat 1 alone, one trader (a village)
    assert ranking(s, r, st) == (1, -1)
    assert T.ranking_plus(s, r, st, 0) == (0, 1)  # level on traders: seat 0 plays first
    s[ST.O_CNT + st * 4 + 0] = 1
    assert ranking(s, r, st) == (0, 1)  # tied: the seat that plays first this round
    assert T.ranking_plus(s, r, st, 1) == (1, 0)  # a second trader takes control
    assert T.ranking_plus(s, r, st, 2) == (0, 1)  # one trader for seat 2: last in order


def test_the_ranking_is_kept_for_the_play_that_follows():
    """search.play_candidate plays the trained player's ranking of this decision without
    ranking again, and ranks afresh at any other decision or seat (the same actions)."""
    r = pack(SumeriaRules(), 3)
    spec = get_game("sumeria")
    ids, w = spec.policy_arrays(spec.parse_policies("balanced,balanced,balanced", 3))
    tr = ST.TRACE.new(600, enabled=True)
    play_game(r, ids, w, np.uint64(5), np.uint64(0), False, True, tr, np.zeros(N_COLS, np.int64))
    snaps = [sn for sn in ST.TRACE.snapshots(tr) if sn[ST.S_PHASE] == ST.PH_TURN]
    off = ST.TRACE.new(0, enabled=False)
    for a, b in zip(snaps[:40], snaps[1:41]):
        me = int(a[ST.S_SEAT])
        x = np.zeros(ST.X_SIZE + SS.WIDTH, np.int64)
        xf = np.zeros(ST.XF_SIZE + SS.WIDTH * T.TRAINED_WIDTH)
        n = SS.search_options(a, r, me, x, ST.X_SIZE)
        T.trained_features(a, r, me, x, ST.X_SIZE, n, xf, ST.XF_SIZE)
        assert x[ST.X_RANKED_AT] == a[ST.S_DECISION] + 1
        # another decision: ranked afresh, as with an empty scratch
        got, fresh = b.copy(), b.copy()
        xb = x.copy()
        xe = np.zeros_like(x)
        mb = int(b[ST.S_SEAT])
        opt = SS.search_options(b, r, mb, xe, ST.X_SIZE) - 1
        assert SS.play_candidate(got, r, off, mb, opt, w[mb], xb, xf.copy()) == 0
        assert SS.play_candidate(fresh, r, off, mb, opt, w[mb], xe, xf.copy()) == 0
        assert np.array_equal(got, fresh)
        # this decision: the kept ranking, consumed once
        got, fresh = a.copy(), a.copy()
        assert SS.play_candidate(got, r, off, me, n - 1, w[me], x, xf) == 0
        assert x[ST.X_RANKED_AT] == 0
        xe = np.zeros_like(x)
        SS.search_options(a, r, me, xe, ST.X_SIZE)
        assert SS.play_candidate(fresh, r, off, me, n - 1, w[me], xe, xf.copy()) == 0
        assert np.array_equal(got, fresh)


def shipped(players: int) -> Path:
    return shipped_path(PACKAGE, players)


@pytest.mark.parametrize("players", PLAYERS)
def test_the_shipped_model_beats_the_reference_preset(players):
    """A statistical check with a fixed seed (docs/policies-sumeria.md gives the figures on
    thousands of games): one `trained` seat against `balanced` wins more than 1.6 fair shares
    (300 games, seed 3: 67.0% with 3 players, 48.3% with 4; the 18-feature models shipped
    before 2026-12-05 won 42.3% and 36.3%, under this bar)."""
    spec = get_game("sumeria")
    policies = ",".join(["trained"] + ["balanced"] * (players - 1))
    res = simulate(spec, players, 300, policies=policies, rotate_seats=True, seed=3)
    assert res.summary.policy_wins[0] / res.summary.policy_games[0] > 1.6 / players
