"""Every game's seat compensation fields (issue #38; docs/compensation.md): left out of the
resolved rules (trace header, hash) at their defaults, shown when set; a head start for the
weakest seat raises its win rate on the same games (fixed seed, at least 3 standard errors);
checked mode stays clean with them; the sentence template of each field is declared."""

from __future__ import annotations

import numpy as np
import pytest

from simcore import all_games, get_game
from tests.conformance.cases import check_rows, lineup, play_rows, resolve

SEED = 38
CASES = [
    (g, f)
    for g, spec in sorted(all_games().items())
    for f in getattr(spec.rules_cls, "SEAT_FIELDS", ())
]


def test_the_seed_games_have_compensation():
    games = {g for g, _ in CASES}
    assert {"sunken-city", "sumeria", "secrets-of-the-sea"} <= games


@pytest.mark.parametrize("game,field", CASES)
def test_a_field_is_hidden_at_its_default_and_declared(game, field):
    spec = get_game(game)
    players = spec.nearest_players(3)
    rules = spec.resolve_rules([], {}, None, players)
    assert field not in spec.resolved(rules, players)
    cls = spec.rules_cls
    assert field in cls.ADDITIONS and cls.SEAT_SEARCH[field] >= 1
    assert "{n}" in cls.SEAT_WORDS[field]
    amounts = ",".join(["0"] * (players - 1) + ["1"])
    set_ = spec.resolve_rules([], {field: amounts}, None, players)
    assert spec.resolved(set_, players)[field] == [0] * (players - 1) + [1]


def _wins(game, players, overrides, games):
    spec = get_game(game)
    rules, seats = resolve(game, players, [], overrides, policy=spec.default_policy)
    rows = play_rows(game, players, rules, seats, SEED, 0, games, True, False)
    return rows[:, spec.columns.index("winner")]


@pytest.mark.parametrize("game,field", [c for c in CASES if c[1] != "seat_chips"])
def test_a_head_start_for_the_weakest_seat_raises_its_win_rate(game, field):
    spec = get_game(game)
    players = spec.nearest_players(3)
    games = 3000
    base = _wins(game, players, {}, games)
    weakest = min(range(players), key=lambda s: ((base == s).mean(), s))
    amounts = [0] * players
    amounts[weakest] = spec.rules_cls.SEAT_SEARCH[field]
    more = _wins(game, players, {field: ",".join(map(str, amounts))}, games)
    before, after = (base == weakest).mean(), (more == weakest).mean()
    se = np.sqrt(before * (1 - before) / games)
    assert after - before > 3 * se, (before, after)


@pytest.mark.parametrize("game,field", CASES)
def test_checked_mode_stays_clean_with_compensation(game, field):
    spec = get_game(game)
    for players in range(max(spec.min_players, 2), spec.max_players + 1):
        amounts = ",".join(str(k % 3) for k in range(players))
        rules, seats = resolve(game, players, [], {field: amounts}, policy=lineup(game, players))
        rows = play_rows(game, players, rules, seats, SEED, 0, 200, True, True)
        check_rows(game, players, rows, 0, len(seats))
