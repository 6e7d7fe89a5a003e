"""Sunken Treasure's `search` player (simcore/games/sunken_treasure/search_player.py): legal in
checked
mode, it beats its base player, and its simulations see only what a seat can see (search_hide).
Determinism across threads and "budget 0 = the base player" are the conformance suite's
(tests/conformance/test_search.py, every game)."""

from __future__ import annotations

import numpy as np

from simcore import get_game, simulate
from simcore.frame.rng import new_stream
from simcore.games.sunken_treasure import state as S
from simcore.games.sunken_treasure.engine_invariants import check_invariants
from simcore.games.sunken_treasure.search_player import search_hide
from simcore.run.runner import replay_game
from tests.conformance.cases import first_wins, search_rows

GAME = "sunken-treasure"
DECKS = ((S.O_ITEM_DECK, S.S_ITEM_N), (S.O_ATT_DECK, S.S_ATT_N), (S.O_TRE_DECK, S.S_TRE_N))


def rows(budget, games, players=2, seed=5, threads=1, checked=False, others="balanced"):
    lineup = f"search:budget={budget},{others}"
    return search_rows(GAME, players, lineup, games, seed=seed, threads=threads, checked=checked)


def test_checked_mode_finds_nothing_and_the_replay_agrees():
    others = "random,thief,banker"
    df = rows(8, 12, players=4, checked=True, others=others)
    assert (df.error == 0).all()
    game = replay_game(
        get_game(GAME), 4, 5, 3, policies=f"search:budget=8,{others}", rotate_seats=True
    )
    assert game.end["winner"] == df.winner.iloc[3]


def test_search_on_a_random_base_is_legal():
    df = rows(8, 12, checked=True, others="balanced")
    assert (df.error == 0).all()
    res = simulate(
        get_game(GAME),
        2,
        12,
        policies="search:budget=8,base=random,random",
        seed=2,
        checked=True,
        keep_rows=True,
    )
    assert (res.rows.error == 0).all()


def test_search_hide_shuffles_the_decks_only():
    """On positions of a real game: only the order of each deck changes (the same cards in
    it), the invariants hold, and the orders do change."""
    game = replay_game(get_game(GAME), 2, 3, 0, policies="balanced,balanced")
    r = game.r
    rng = new_stream(11, 0)
    moved = 0
    for snap in game.snaps[::3]:
        s = snap.astype(np.int64).copy()
        before = s.copy()
        search_hide(s, r, 0, rng)
        assert check_invariants(s, r) == 0
        for off, n_idx in DECKS:
            n = s[n_idx]
            assert sorted(s[off : off + n]) == sorted(before[off : off + n])
            moved += (s[off : off + n] != before[off : off + n]).any()
            s[off : off + n] = before[off : off + n]
        assert (s == before).all()
    assert moved > 10


def test_search_beats_its_base_player():
    """2 players, seats rotated, 300 games, seed 1: search (budget 256) against balanced wins
    clearly more than its base does on the same games (measured: see the docs' curve)."""
    from analysis.stats import wilson

    def wins(budget):
        return first_wins(GAME, 2, f"search:budget={budget},balanced")

    base, strong = wins(0), wins(256)
    lo, _ = wilson(strong, 300)
    assert lo > 0.5 and strong >= base + 20, (base, strong)
