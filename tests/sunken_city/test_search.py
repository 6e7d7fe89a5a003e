"""Sunken City's `search` player (simcore.frame.search, players/search.py): its candidates are the
cards in hand, and it is stronger than its base player (the conformance suite checks its
legality, determinism, replay and that the budget changes decisions)."""

from __future__ import annotations

import numpy as np
import pytest

from simcore import get_game
from tests.conformance.cases import play_rows, resolve


def search_share(policy: str, games: int, seed: int) -> float:
    """The share of games that lineup entry 0 wins, seats rotated (3 players)."""
    spec = get_game("sunken-city")
    rules, seats = resolve("sunken-city", 3, policy=policy)
    rows = play_rows("sunken-city", 3, rules, seats, seed, 0, games, True, False)
    col = {c: rows[:, i] for i, c in enumerate(spec.columns)}
    winner = col["winner"]
    pol = np.stack([col[f"policy_{k}"] for k in range(3)], axis=1)
    won = (winner >= 0) & (pol[np.arange(games), np.maximum(winner, 0)] == 0)
    return float(won.mean())


def test_the_candidates_are_the_cards_in_hand():
    from simcore.frame.tracebuf import T_HEADER
    from simcore.games.sunken_city import state as S
    from simcore.games.sunken_city.engine import setup
    from simcore.games.sunken_city.players.search import search_options

    spec = get_game("sunken-city")
    r = spec.pack(spec.resolve_rules([], {}, None, 3), 3)
    s = np.zeros(S.STATE_SIZE, dtype=np.int64)
    setup(s, r, np.zeros(T_HEADER, dtype=np.int32))
    x = np.zeros(64, dtype=np.int64)
    assert search_options(s, r, 1, x, 10) == 6  # a full hand: every card
    s[S.O_HAND + 1] = 0b101101
    assert search_options(s, r, 1, x, 10) == 4
    assert list(x[10:14]) == [0, 2, 3, 5]


def test_search_beats_its_base_player():
    """One search seat (budget 16) against two balanced, 150 games on fixed seeds: it wins
    far more than a third; budget 0 (the base player) wins about a third."""
    strong = search_share("search:budget=16,balanced,balanced", 150, 4)
    base = search_share("search:budget=0,balanced,balanced", 150, 4)
    assert strong > 0.42
    assert base < 0.38
    assert strong - base > 0.1


def test_search_plays_the_advanced_game_and_the_variants_legally():
    from tests.conformance.cases import check_rows

    for variant in ("advanced", "short+no-chips"):
        rules, seats = resolve(
            "sunken-city", 4, [variant], policy="search:budget=4,random,greedy,balanced"
        )
        rows = play_rows("sunken-city", 4, rules, seats, 2, 0, 6, True, True)
        check_rows("sunken-city", 4, rows, 0, 4)


def _dealt(players: int = 3):
    from simcore.frame.tracebuf import T_HEADER
    from simcore.games.sunken_city import state as S
    from simcore.games.sunken_city.engine import setup

    spec = get_game("sunken-city")
    r = spec.pack(spec.resolve_rules([], {}, None, players), players)
    s = np.zeros(S.STATE_SIZE, dtype=np.int64)
    setup(s, r, np.zeros(T_HEADER, dtype=np.int32))
    return spec, r, s


def test_a_cut_simulation_is_valued_by_treasures_banked_and_carried():
    """search_eval: equal seats share the win evenly; a banked treasure is worth more than a
    carried one, which is worth more than none; the lead term adds to the leader's value."""
    from simcore.games.sunken_city import state as S
    from simcore.games.sunken_city.engine import set_treasure
    from simcore.games.sunken_city.players.search import search_eval

    _, r, s = _dealt()
    assert search_eval(s, r, 0, 0.0) == pytest.approx(1 / 3)
    set_treasure(s, 0, 2, S.BANKED)
    set_treasure(s, 1, 2, S.CARRIED)
    banked, carried, none = (search_eval(s, r, k, 0.0) for k in range(3))
    assert banked > carried > none
    assert banked + carried + none == pytest.approx(1.0)
    assert search_eval(s, r, 0, 0.05) > banked
