"""Checked-mode fuzzing of every registered game: the game's invariants are asserted after
every action and every action goes through the engine's legality checks, so an illegal action
or a broken invariant ends the game with an error code in its row.

The random player plays every player count under every named variant; every policy of the
game plays in a mixed, rotated lineup at every player count. The rows must also have the
layout every game shares (cases.check_rows). Longer runs: `pytest -m slow`.
"""

from __future__ import annotations

import pytest

from tests.conformance.cases import (
    check_rows,
    game_players,
    game_players_variants,
    lineup,
    play_rows,
    random_player,
    resolve,
)

RANDOM_GAMES = 200  # per game, player count and variant
MIXED_GAMES = 60  # per game and player count, every policy in the lineup
LONG_GAMES = 20_000  # the slow run, per game, player count and variant


def ids(case) -> str:
    return "-".join(str(x) for x in case)


def random_players(case, seed: int, games: int) -> None:
    game, players, variant = case
    rules, seats = resolve(game, players, [variant], policy=random_player(game))
    rows = play_rows(game, players, rules, seats, seed, 0, games, False, True)
    check_rows(game, players, rows, 0, len(seats))


@pytest.mark.parametrize("case", game_players_variants(), ids=ids)
def test_random_players_in_checked_mode(case):
    random_players(case, 2024, RANDOM_GAMES)


@pytest.mark.parametrize("case", game_players(), ids=ids)
def test_every_policy_in_checked_mode(case):
    game, players = case
    rules, seats = resolve(game, players, policy=lineup(game, players))
    rows = play_rows(game, players, rules, seats, 7, 1000, MIXED_GAMES, True, True)
    check_rows(game, players, rows, 1000, len(seats))


@pytest.mark.slow
@pytest.mark.parametrize("case", game_players_variants(), ids=ids)
def test_random_players_in_checked_mode_long(case):
    random_players(case, 99, LONG_GAMES)
