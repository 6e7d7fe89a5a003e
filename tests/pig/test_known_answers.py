"""The published answers of Pig (Neller & Presser, "Optimal Play of the Dice Game Pig", 2004),
reproduced by the value iteration and by games played through the whole frame.

A win rate of n games is checked against the published figure (rounded to 4 decimals) with
the 99.9% normal interval, z = 3.29: with 10**6 games its half-width is 0.0016, which tells
0.5306 from 0.5347 (0.0041 apart) and from 1/2."""

from __future__ import annotations

import math

import numpy as np

from simcore.games.pig import optimal
from tests.conformance.cases import check_rows, play_rows, resolve

Z = 3.29  # 99.9%, two-sided
GAMES = 1_000_000
D6 = (1, 2, 3, 4, 5, 6)


def first_seat_wins(policy: str, games: int = GAMES, rotate: bool = False) -> np.ndarray:
    rules, seats = resolve("pig", 2, policy=policy)
    rows = play_rows("pig", 2, rules, seats, 2004, 0, games, rotate, False)
    check_rows("pig", 2, rows, 0, len(seats))
    return rows


def within(rate: float, n: int, published: float) -> bool:
    half = Z * math.sqrt(published * (1 - published) / n) + 0.00005  # and the rounding
    return abs(rate - published) <= half


def test_value_iteration_gives_the_published_first_player_chance():
    assert round(optimal.first_player_wins(100, D6), 4) == 0.5306


def test_optimal_against_optimal_first_player_wins_0_5306():
    rows = first_seat_wins("optimal")
    rate = float((rows[:, 2] == 0).mean())
    assert within(rate, GAMES, 0.5306), rate
    assert not within(rate, GAMES, 0.5347)


def test_hold_at_20_against_hold_at_20_first_player_wins_0_5347():
    rows = first_seat_wins("hold-at")
    rate = float((rows[:, 2] == 0).mean())
    assert within(rate, GAMES, 0.5347), rate
    assert not within(rate, GAMES, 0.5306)


def test_optimal_beats_hold_at_with_seats_rotated():
    n = 200_000
    rows = first_seat_wins("optimal,hold-at", n, rotate=True)
    # the row's policy_<seat> is the index in the lineup: 0 is optimal
    from simcore import get_game

    cols = get_game("pig").columns
    winner = rows[:, cols.index("winner")]
    pol = rows[:, [cols.index("policy_0"), cols.index("policy_1")]]
    optimal_won = pol[np.arange(n), winner] == 0
    assert (pol[:, 0] == 0).mean() == 0.5  # each seat half the games
    rate = float(optimal_won.mean())
    assert rate - Z * math.sqrt(0.25 / n) > 0.5, rate


def test_the_table_is_cached_in_memory_and_on_disk(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(optimal, "_MEMO", {})
    path = optimal.cache_path(30, D6)
    assert str(path).startswith(str(tmp_path)) and not path.exists()
    p0, rolls = optimal.table(30, D6)
    assert path.exists()
    assert optimal.table(30, D6)[0] is p0  # memory
    monkeypatch.setattr(optimal, "_MEMO", {})
    again = optimal.table(30, D6)  # disk
    assert np.array_equal(again[0], p0) and np.array_equal(again[1], rolls)
    fresh = optimal.solve(30, D6)
    assert np.array_equal(fresh[0], p0) and np.array_equal(fresh[1], rolls)
