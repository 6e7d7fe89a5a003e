"""Sunken Treasure: the values the engine keeps up to date or computes once per rules pack
equal what they replace (docs/performance.md, "What holds the figures up")."""

from __future__ import annotations

import numpy as np
import pytest

from simcore.games.sunken_treasure import engine as E
from simcore.games.sunken_treasure import policies as P
from simcore.games.sunken_treasure.rules import SunkenTreasureRules, pack


@pytest.mark.parametrize(
    "changes",
    [{}, {"attempt_deck": (2, 1, 6, 1, 4)}, {"attempt_deck": (1, 0, 6, 0, 0)}, {"bags": (2, 3, 5)}],
)
def test_lock_table_is_lock_odds(changes):
    r = pack(SunkenTreasureRules(**changes), 3)
    lt = np.zeros(P.LT_SIZE, dtype=np.float64)
    P.lock_table(r, lt)
    for cracked in range(3):
        for trapped in range(3):
            i = 2 * (2 * min(cracked, 1) + min(trapped, 1))
            assert (lt[i], lt[i + 1]) == P.lock_odds(r, cracked, trapped)
    assert lt[8] == P.mean_treasure(r)


def test_kept_totals_follow_a_game():
    """Every state of a few traced games has the kept totals of a recount."""
    from simcore.games.sunken_treasure.play import N_COLS, play_game
    from simcore.games.sunken_treasure.state import TRACE

    r = pack(SunkenTreasureRules(), 4)
    ids = np.array([1, 4, 0, 3], dtype=np.int64)
    w = np.zeros((4, 8), dtype=np.float64)
    w[:, :8] = (6.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0)
    for index in range(5):
        tr = TRACE.new(500, enabled=True)
        row = np.zeros(N_COLS, dtype=np.int64)
        final = play_game(r, ids, w, np.uint64(3), np.uint64(index), False, True, tr, row)
        snaps = list(TRACE.snapshots(tr))
        assert len(snaps) > 10
        for s in snaps + [final]:
            for seat in range(4):
                assert E.recount_ok(s, r, seat)
