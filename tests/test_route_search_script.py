"""tools/route_search.py (the Sunken City route search's cost by number of key houses):
its count of a complete search's nodes, and a short run."""

from __future__ import annotations

from simcore.games.sunken_city.players import scratch as X
from tests.perf_scripts import load_script


def test_complete_search_nodes_are_every_order_within_the_budget():
    count = load_script("route_search").complete_nodes
    x = X.new_scratch()
    ka, kd = X.X_ADVENTURER_TO_KEY_DIST, X.X_KEY_TO_KEY_DIST  # kd: 12 x 12
    for i in range(3):
        x[ka + i] = 1
        for j in range(3):
            x[kd + 12 * i + j] = 0 if i == j else 1
    assert count(x, 3, 0) == 0
    assert count(x, 3, 1) == 3  # one house
    assert count(x, 3, 2) == 3 + 6  # and a second one
    assert count(x, 3, 3) == 3 + 6 + 6  # every order of the three
    x[kd + 12 * 0 + 1] = x[kd + 12 * 1 + 0] = 5  # houses 0 and 1 far apart
    assert count(x, 3, 3) == 3 + 4 + 2


def test_a_short_run_covers_every_search(capsys):
    rows = load_script("route_search").main(games=2, reps=1)
    assert rows and all(n > 0 and ns > 0 for _, n, ns, *_ in rows)
    assert sum(t for *_, t, _, _ in rows) > 0
    assert "card-choice route searches of 2 games" in capsys.readouterr().out
