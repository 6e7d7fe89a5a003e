"""Determinism of every registered game: a game's row depends only on (rules, policies, seed,
game index), never on the thread count or the chunking; summaries of parts merge to the
summary of the whole; seat rotation puts every lineup entry in every seat equally often."""

from __future__ import annotations

import numba
import pytest

from simcore import get_game, simulate
from simcore.run.runner import play_chunk
from tests.conformance.cases import GAMES, lineup, resolve

GAMES_PLAYED = 300
TWO_THREADS = min(2, numba.config.NUMBA_NUM_THREADS)


def extremes() -> list[tuple[str, int]]:
    """(game, players) at the fewest and the most players of every game."""
    out = []
    for g in GAMES:
        spec = get_game(g)
        out += [(g, p) for p in sorted({spec.min_players, spec.max_players})]
    return out


@pytest.mark.parametrize("game,players", extremes())
def test_threads_and_chunks_give_identical_rows(game, players):
    kw = dict(seed=11, keep_rows=True, policies=lineup(game, players), rotate_seats=True)
    base = simulate(get_game(game), players, GAMES_PLAYED, threads=1, **kw)
    for other in (
        simulate(get_game(game), players, GAMES_PLAYED, threads=TWO_THREADS, **kw),
        simulate(get_game(game), players, GAMES_PLAYED, threads=1, chunk_size=37, **kw),
        simulate(get_game(game), players, GAMES_PLAYED, threads=TWO_THREADS, chunk_size=1, **kw),
    ):
        assert base.rows.equals(other.rows)
        assert base.summary.equals(other.summary)
    assert not base.rows.equals(
        simulate(get_game(game), players, GAMES_PLAYED, **{**kw, "seed": 12}).rows
    )


@pytest.mark.parametrize("game,players", extremes())
def test_a_chunk_plays_the_same_games_as_the_whole(game, players):
    """play_chunk (the unit of work of every backend) from game 100 on gives rows 100.. of a
    run from game 0."""
    policy = lineup(game, players)
    rules, seats = resolve(game, players, policy=policy)
    whole = simulate(get_game(game), players, 160, policies=policy, seed=3, keep_rows=True).rows
    first, _, rows = play_chunk(game, players, rules, seats, 3, 100, 60, False, False, True)
    assert first == 100
    picked = [get_game(game).columns.index(c) for c in whole.columns]
    assert (rows[:, picked] == whole.to_numpy()[100:]).all()


@pytest.mark.parametrize("game", GAMES)
def test_summaries_merge_to_the_whole(game):
    players = get_game(game).max_players
    whole = simulate(get_game(game), players, 500, seed=5)
    a = simulate(get_game(game), players, 180, seed=5)
    b = simulate(get_game(game), players, 320, seed=5, start=180)
    assert a.summary.merge(b.summary).equals(whole.summary)


@pytest.mark.parametrize("game", GAMES)
def test_rotation_puts_every_entry_in_every_seat(game):
    players = get_game(game).max_players
    res = simulate(get_game(game), players, 50 * players, seed=1, rotate_seats=True, keep_rows=True)
    for s in range(players):
        counts = res.rows[f"policy_{s}"].value_counts()
        assert sorted(counts.index) == list(range(players)) and (counts == 50).all()
