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
        if ph != ST.PH_CHOOSE:
            assert f[0, T.F_BASE_CHOICE] == 1
        seen[ph] += 1
    assert min(seen.values()) > 0


def shipped(players: int) -> Path:
    return shipped_path(PACKAGE, players)


@pytest.mark.parametrize("players", PLAYERS)
def test_the_shipped_model_beats_the_reference_preset(players):
    """A statistical check with a fixed seed (docs/policies-sumeria.md gives the figures on
    thousands of games): one `trained` seat against `balanced` wins more than 1.2 fair shares
    (300 games, seed 3: 42.3% with 3 players, 36.3% with 4)."""
    spec = get_game("sumeria")
    policies = ",".join(["trained"] + ["balanced"] * (players - 1))
    res = simulate(spec, players, 300, policies=policies, rotate_seats=True, seed=3)
    assert res.summary.policy_wins[0] / res.summary.policy_games[0] > 1.2 / players
