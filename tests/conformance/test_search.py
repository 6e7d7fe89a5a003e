"""The `search` player in every game that has it (simcore.frame.search): its turns pass checked
mode,
its games depend only on (rules, policies, seed, index) whatever the threads and chunking,
replay reproduces them, and its budget changes its decisions. Small budgets keep this fast;
each game's own tests/<game>/test_search.py checks its strength."""

from __future__ import annotations

import math

import numba
import numpy as np
import pytest

from simcore import get_game, simulate
from tests.conformance.cases import GAMES, check_rows, play_rows, resolve
from tests.conformance.test_replay import end_matches_row

SEARCH_GAMES = [g for g in GAMES if "search" in get_game(g).policies]
TWO_THREADS = min(2, numba.config.NUMBA_NUM_THREADS)


def search_lineup(game: str, players: int, budget: int = 4) -> str:
    """One `search` seat (on the game's default player), then the other presets."""
    spec = get_game(game)
    others = (spec.presets * players)[: players - 1]
    return ",".join([f"search:budget={budget}", *others])


def test_every_game_has_a_search_player():
    """Every game but one that declares why it has none (GameSpec.no_search: no decisions)."""
    assert SEARCH_GAMES == [g for g in GAMES if not get_game(g).no_search]
    for g in sorted(set(GAMES) - set(SEARCH_GAMES)):
        assert not get_game(g).driver.search, g


@pytest.mark.parametrize("game", SEARCH_GAMES)
def test_search_plays_legal_games_in_checked_mode(game):
    spec = get_game(game)
    for players in sorted({spec.min_players, spec.max_players}):
        policy = search_lineup(game, players)
        rules, seats = resolve(game, players, policy=policy)
        rows = play_rows(game, players, rules, seats, 5, 0, 12, True, True)
        check_rows(game, players, rows, 0, players)
        if players < 2:
            continue
        # two search seats (their simulations play each other's base player)
        two = ",".join(["search:budget=2"] * 2 + spec.presets[: players - 2])
        rules, seats = resolve(game, players, policy=two)
        check_rows(
            game, players, play_rows(game, players, rules, seats, 6, 0, 6, True, True), 0, players
        )


@pytest.mark.parametrize("game", SEARCH_GAMES)
def test_search_games_do_not_depend_on_threads_or_chunks(game):
    players = get_game(game).max_players
    kw = dict(seed=13, keep_rows=True, policies=search_lineup(game, players), rotate_seats=True)
    base = simulate(get_game(game), players, 16, threads=1, **kw)
    other = simulate(get_game(game), players, 16, threads=TWO_THREADS, chunk_size=5, **kw)
    assert base.rows.equals(other.rows)


@pytest.mark.parametrize("game", SEARCH_GAMES)
def test_replay_reproduces_a_search_game(game):
    spec = get_game(game)
    players = spec.min_players if spec.min_players > 1 else 2
    rules, seats = resolve(game, players, policy=search_lineup(game, players))
    rows = play_rows(game, players, rules, seats, 21, 0, 4, True, False)
    tr = spec.replay(rules, players, seats, 21, 3, rotate=True, checked=True)
    end_matches_row(spec, tr.end, {c: int(v) for c, v in zip(spec.columns, rows[3])}, players)


@pytest.mark.parametrize("game", SEARCH_GAMES)
def test_the_budget_changes_the_decisions(game):
    """budget=0 is the base player, game for game; a budget makes the seat play other games."""
    spec = get_game(game)
    players = max(spec.min_players, 2)
    base = spec.policies["search"].base
    rows = {}
    for first in ("search:budget=0", "search:budget=16", base):
        rules, seats = resolve(game, players, policy=",".join([first] + [base] * (players - 1)))
        rows[first] = play_rows(game, players, rules, seats, 8, 0, 20, False, False)
    assert np.array_equal(rows["search:budget=0"], rows[base])
    assert not np.array_equal(rows["search:budget=16"], rows[base])


@pytest.mark.parametrize("game", SEARCH_GAMES)
def test_start_plays_the_base_player_before_its_round(game):
    """start=k: before round k the seat plays as its base player, so a start beyond every
    game's end is the base player, game for game; a start in the game searches (other games than
    the base player's, and other than searching from the first round), legal in checked
    mode and the same for any threads and chunking."""
    spec = get_game(game)
    players = max(spec.min_players, 2)
    base = spec.policies["search"].base
    rows = {}
    for first in (
        "search:budget=16,start=10000",
        "search:budget=16,start=3",
        "search:budget=16,start=0",
        base,
    ):
        rules, seats = resolve(game, players, policy=",".join([first] + [base] * (players - 1)))
        rows[first] = play_rows(game, players, rules, seats, 8, 0, 20, False, False)
    assert np.array_equal(rows["search:budget=16,start=10000"], rows[base])
    assert not np.array_equal(rows["search:budget=16,start=3"], rows[base])
    assert not np.array_equal(rows["search:budget=16,start=3"], rows["search:budget=16,start=0"])
    _legal_and_deterministic(game, "search:budget=6,start=1", 3, 19, players)


def _legal_and_deterministic(game: str, player: str, seed: int, sim_seed: int, players=None):
    """`player` in the first seat against the game's presets plays legal games in checked
    mode (games 0..5 of `seed`), the same for any threads and chunking (8 games of
    `sim_seed`, seats rotated); players: the game's largest count unless given."""
    spec = get_game(game)
    players = players or spec.max_players
    policy = ",".join([player, *(spec.presets * players)[: players - 1]])
    rules, seats = resolve(game, players, policy=policy)
    rows = play_rows(game, players, rules, seats, seed, 0, 6, True, True)
    check_rows(game, players, rows, 0, players)
    kw = dict(seed=sim_seed, keep_rows=True, policies=policy, rotate_seats=True)
    one = simulate(spec, players, 8, threads=1, **kw)
    two = simulate(spec, players, 8, threads=TWO_THREADS, chunk_size=3, **kw)
    assert one.rows.equals(two.rows)


@pytest.mark.parametrize("game", SEARCH_GAMES)
def test_cut_simulations_are_legal_and_deterministic(game):
    """A horizon (a cut simulation valued by the game's search_eval, or by its scores so far)
    plays legal games in checked mode, the same for any threads and chunking."""
    _legal_and_deterministic(game, "search:budget=6,horizon=3", 3, 17)


@pytest.mark.parametrize("setting", ["stop=1", "z=1,stop=1"])
@pytest.mark.parametrize("game", SEARCH_GAMES)
def test_stop_plays_legal_games_the_same_for_any_threads(game, setting):
    """stop > 0 (the halving ends once its leader is `stop` standard errors ahead of the next;
    the paired test once its decision is clear) plays legal games in checked mode, the same
    for any threads and chunking."""
    _legal_and_deterministic(game, f"search:budget=24,{setting}", 4, 23)


def test_the_halving_stops_only_on_a_clear_leader():
    """decided(): the leader among the candidates still in when its mean is `stop` standard
    errors of the difference above the next one's, after at least 8 simulations each."""
    decided = get_game("pig").driver.decided
    g = decided.py_func.__globals__
    x = np.zeros(g["X_SIZE"], dtype=np.int64)
    xf = np.zeros(g["XF_SIZE"])
    alive, sums, squares = [2, 0, 1], [3.0, 8.0, 2.0], [3.0, 8.0, 2.0]  # 0/1 values, k = 10
    for a, i in enumerate(alive):
        x[g["XS_ALIVE"] + a] = i
    for i in range(3):
        xf[g["XF_SUM"] + i] = sums[i]
        xf[g["XF_SQ"] + i] = squares[i]
    # leader 1 (0.8, variance 0.16) against candidate 0 (0.3, variance 0.21): the difference
    # 0.5 over its standard error sqrt(0.37 / 10) = 0.192 is 2.6 standard errors
    se = math.sqrt((0.16 + 0.21) / 10)
    assert decided(x, xf, 3, 10, 0.49 / se) == 1
    assert decided(x, xf, 3, 10, 0.51 / se) == -1
    assert decided(x, xf, 3, 7, 0.1) == -1  # too few simulations
    assert decided(x, xf, 1, 10, 0.1) == -1  # one candidate left: nothing to decide
    assert decided(x, xf, 2, 10, 0.49 / se) == -1  # candidates 2 and 0 only: 0.3 against 0.2


def test_the_paired_test_stops_only_when_every_candidate_is_clear():
    """paired_clear(): every candidate other than the base's choice is `stop` standard errors
    of its paired difference behind it (or equal in every simulation) or z + stop ahead."""
    clear = get_game("pig").driver.paired_clear
    g = clear.py_func.__globals__
    xf = np.zeros(g["XF_SIZE"])
    s0, q0 = g["XF_SUM"], g["XF_SQ"]

    def put(i, diffs):
        xf[s0 + i] = sum(diffs)
        xf[q0 + i] = sum(d * d for d in diffs)

    def t(diffs):  # the paired t statistic of the differences
        k = len(diffs)
        m = sum(diffs) / k
        return m / math.sqrt(sum((d - m) ** 2 for d in diffs) / (k - 1) / k)

    behind = [-1.0, 0.0, -1.0, 0.0, -1.0, 0.0, -1.0, 1.0, -1.0, 0.0]  # t = -1.81
    ahead = [1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0]  # t = 6.0
    put(0, [0.0] * 10)  # the base's choice (ref): never read
    put(1, behind)
    put(2, ahead)
    tb, ta = t(behind), t(ahead)
    assert clear(xf, 0, 3, 10, 1.0, -tb - 0.01)
    assert not clear(xf, 0, 3, 10, 1.0, -tb + 0.01)  # candidate 1 not yet stop behind
    assert clear(xf, 0, 3, 10, ta - 0.5 - 0.01, 0.5)
    assert not clear(xf, 0, 3, 10, ta - 0.5 + 0.01, 0.5)  # candidate 2 not yet z + stop ahead
    assert not clear(xf, 0, 3, 7, 1.0, 0.1)  # too few simulations
    put(1, [0.0] * 10)  # equal to the base's choice in every simulation: clear at any stop
    assert clear(xf, 0, 2, 10, 1.0, 5.0)
    put(1, [0.5, -0.5] * 5)  # mean 0, not equal: unclear
    assert not clear(xf, 0, 2, 10, 1.0, 0.1)
    assert clear(xf, 1, 2, 10, 1.0, 5.0)  # candidate 1 the base's choice: only 0 is read
