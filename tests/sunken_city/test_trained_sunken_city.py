"""Sunken City's `trained` player: the features of a candidate card (its afterstate, read from
the deciding seat's view, the position itself untouched), the shipped models (checksum,
provenance, size, the 30-minute bound) and a statistical check against `random` and
`balanced` (fixed seed, stated tolerance; docs/policies-sunken-city.md has the figures).
Legality under every variant, determinism and replay: tests/conformance/test_trained.py."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from simcore import get_game, simulate
from simcore.base.trained_model import shipped_path
from simcore.games import sunken_city
from simcore.games.sunken_city import state as S
from simcore.games.sunken_city.engine import setup
from simcore.games.sunken_city.players import trained_player as T
from simcore.games.sunken_city.rules import SunkenCityRules, pack

PACKAGE = Path(sunken_city.__file__).parent
COUNTS = (2, 3, 4)


def shipped_counts() -> list[int]:
    return [p for p in COUNTS if shipped_path(PACKAGE, p).is_file()]


def test_the_features_of_each_card_leave_the_position_untouched():
    players = 3
    r = pack(SunkenCityRules(), players)
    s = S.new_state()
    setup(s, r, np.zeros(8, dtype=np.int32))
    at = T.X_SIZE + T.TRAINED_X_SIZE  # the candidates behind the hook's scratch
    x = np.zeros(at + 64, dtype=np.int64)
    xf = np.zeros(T.XFT_WEIGHTS + T.N_WEIGHTS + 6 * T.TRAINED_WIDTH, dtype=np.float64)
    out = T.XFT_WEIGHTS + T.N_WEIGHTS
    cards = [c for c in range(6) if s[S.O_HAND] >> c & 1]
    x[at : at + len(cards)] = cards
    before = s.copy()
    T.trained_features(s, r, 0, x, at, len(cards), xf, out)
    assert np.array_equal(s, before)
    f = xf[out : out + len(cards) * T.TRAINED_WIDTH].reshape(len(cards), T.TRAINED_WIDTH)
    assert np.isfinite(f).all() and (np.abs(f) <= 2.0).all()
    # the hand after each card: five cards left of six, the played one gone
    assert np.allclose(f[:, T.F_HAND_CARDS], 5 / 6)
    assert len({tuple(row) for row in f}) == len(cards)  # every card its own afterstate
    assert (f[:, T.F_CARD_MOVE] > 0).all()


def test_the_shipped_3_player_model_beats_random_and_balanced():
    """A statistical check with a fixed seed (the docs give the 4,000-game figures)."""
    if 3 not in shipped_counts():
        pytest.skip("no 3-player model shipped")
    spec = get_game("sunken-city")
    rates = {}
    for opp in ("random", "balanced"):
        res = simulate(spec, 3, 300, policies=f"trained,{opp},{opp}", rotate_seats=True, seed=5)
        rates[opp] = res.summary.policy_wins[0] / res.summary.policy_games[0]
    # fixed seed, so fixed figures (with the shipped model: against random 86.7%, against
    # balanced 40.7%); 300 games' 95% interval is about +-5.4 points
    assert rates["random"] > 0.8  # a fair share is 33.3%
    assert rates["balanced"] > 0.28
