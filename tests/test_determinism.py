"""Same seed => same rows, whatever the thread count or chunking; summaries merge exactly;
replay of game i is game i of simulate."""

from __future__ import annotations

import numba
import pytest

from simcore import get_game, simulate
from simcore.runner import Summary


@pytest.mark.parametrize("players", [2, 3, 4])
def test_threads_and_chunks_give_identical_rows(players):
    base = simulate("sunken-city", players, 3000, seed=11, threads=1, keep_rows=True)
    other = [
        simulate(
            "sunken-city",
            players,
            3000,
            seed=11,
            threads=numba.config.NUMBA_NUM_THREADS,
            keep_rows=True,
        ),
        simulate("sunken-city", players, 3000, seed=11, threads=1, keep_rows=True, chunk_size=777),
        simulate("sunken-city", players, 3000, seed=11, keep_rows=True, chunk_size=1),
    ]
    for o in other:
        assert base.rows.equals(o.rows)
        assert base.summary.equals(o.summary)
    different = simulate("sunken-city", players, 3000, seed=12, keep_rows=True)
    assert not base.rows.equals(different.rows)


def test_summaries_merge_to_the_whole():
    whole = simulate("sunken-city", 3, 4000, seed=5)
    a = simulate("sunken-city", 3, 1500, seed=5)
    b = simulate("sunken-city", 3, 2500, seed=5, start=1500)
    merged = a.summary.merge(b.summary)
    assert isinstance(merged, Summary) and merged.equals(whole.summary)


def test_rotation_puts_every_policy_in_every_seat():
    res = simulate("sunken-city", 3, 300, seed=1, rotate_seats=True, keep_rows=True)
    for s in range(3):
        counts = res.rows[f"policy_{s}"].value_counts()
        assert sorted(counts.index) == [0, 1, 2] and counts.min() == 100


@pytest.mark.parametrize("rotate", [False, True])
@pytest.mark.parametrize("policy", ["random", "balanced,greedy,aggressive"])
def test_replay_is_the_same_game_as_simulate(rotate, policy):
    spec = get_game("sunken-city")
    rules = spec.resolve_rules(["short"], {}, None, 3)
    seats = spec.parse_policies(policy, 3)
    res = simulate(
        spec,
        3,
        40,
        variants=["short"],
        seed=77,
        rotate_seats=rotate,
        keep_rows=True,
        policies=policy,
    )
    for i in (0, 13, 39):
        tr = spec.replay(rules, 3, seats, 77, i, rotate=rotate)
        row = res.rows.iloc[i]
        assert tr.end["winner"] == row.winner
        assert tr.end["turns"] == row.turns == len(tr.turns)
        assert tr.end["scores"] == [row[f"score_{s}"] for s in range(3)]
        assert tr.end["tiebreaks"] == [row[f"tiebreak_{s}"] for s in range(3)]
