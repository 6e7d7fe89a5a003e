"""Every game's seat compensation fields (issue #38; docs/compensation.md): left out of the
resolved rules (trace header, hash) at their defaults, shown when set; a head start for the
weakest seat raises its win rate on the same games (fixed seed, at least 3 standard errors);
checked mode stays clean with them; the sentence template of each field is declared."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from simcore import all_games, get_game
from tests import compensation_kit as kit
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


# impossible compensations of the games whose fields share tests/compensation_kit.py;
# a line: game, players, the overrides, then after '|' the words of the one sentence that
# refuses them (a regular expression)
REFUSED = r"""
sumeria 3 seat_traders=0,7 | seat_traders gives a seat 7 more traders at setup, but
sumeria 3 seat_traders=0,0,0,1 | seat_traders gives seat 3 an amount, but the game
sumeria 3 seat_traders=0,-1 | each value of seat_traders must be 0 to 56
sumeria 4 seat_traders=0,6 | with 4 players a seat places 5 of its 10 \(at most 5
secrets-of-the-sea 3 seat_seagrass=0,3 | seat_seagrass of 3 would give the seagrass bonus without
secrets-of-the-sea 3 seat_seagrass=0,1 bonus_thresholds=3,3,3,3,3,2,1 | give .* \(it needs 1\)
secrets-of-the-sea 3 seat_seagrass=0,0,0,1 | seat_seagrass gives seat 3 an amount, but the game has
secrets-of-the-sea 3 seat_seagrass=0,99 | each value of seat_seagrass must be 0 to 49
secrets-of-the-sea 3 seat_seagrass=0,-1 | each value of seat_seagrass must be 0 to 49
sunken-treasure 3 seat_boxes=3,4 | seat_boxes hands out 7 Unlocked Boxes but the Item deck holds 6
sunken-treasure 3 seat_boxes=0,1 item_deck=0,4,5,4,2,8,7,5 | 1 Unlocked Boxes but .* holds 0
sunken-treasure 3 seat_boxes=0,0,0,1 | seat_boxes gives seat 3 an amount, but the game has 3
sunken-treasure 3 seat_boxes=0,-1 | each value of seat_boxes must be 0 to
"""


def _refused(text: str) -> list[tuple[str, int, dict[str, str], str]]:
    """(game, players, overrides, words) of each line 'GAME PLAYERS KEY=VALUE ... | WORDS'."""
    cases = []
    for line in filter(str.strip, text.splitlines()):
        head, why = line.split(" | ", 1)
        game, players, *settings = head.split()
        cases.append((game, int(players), dict(s.split("=", 1) for s in settings), why))
    return cases


@pytest.mark.parametrize("game,players,overrides,why", _refused(REFUSED))
def test_an_impossible_compensation_is_one_sentence(game, players, overrides, why):
    kit.refused(game, overrides, why, players)


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


# the rule sets played in checked mode beside each game's rulebook, and the seat fields each
# leaves out: Sunken City's advanced game (raising and sinking phases) plays without the chips,
# so `seat_chips` is refused there ("seat_chips needs the chips in play")
OTHER_RULES = {"sunken-city": {"advanced": ("seat_chips",)}}


def _settings(game: str) -> list[tuple[str, str]]:
    """(variant, setting) of a game: each seat field alone and "all" (every seat field and
    every end rule of the game changed at once), in the rulebook and in OTHER_RULES."""
    fields = [f for g, f in CASES if g == game]
    sets = [("base", ())] + list(OTHER_RULES.get(game, {}).items())
    return [(v, s) for v, left_out in sets for s in [*fields, "all"] if s not in left_out]


CHECKED = [
    (g, p, v, s)
    for g in sorted({g for g, _ in CASES})
    for p in range(get_game(g).min_players, get_game(g).max_players + 1)
    for v, s in _settings(g)
]


def _amounts(spec, field: str, players: int) -> str:
    """A different amount for each seat; below zero for seat 0 where the field allows it."""
    lo, _ = next(f for f in dataclasses.fields(spec.rules_cls) if f.name == field).metadata["range"]
    return ",".join(str(k - 1 if lo < 0 else k % 3) for k in range(players))


@pytest.mark.parametrize("game,players,variant,setting", CHECKED)
def test_checked_mode_stays_clean_with_compensation(game, players, variant, setting):
    """Checked mode (every action's legality, the game's invariants after each) with the
    compensation set, `random` in a lineup of the game's presets, seats rotated: no error in
    any row. Each seat field alone (200 games), and every seat field with the end rules
    (Sunken City's `finish_round=false`) at once (300 games)."""
    spec = get_game(game)
    variants = [] if variant == "base" else [variant]
    left_out = OTHER_RULES.get(game, {}).get(variant, ())
    if setting == "all":
        fields = [f for g, f in CASES if g == game and f not in left_out]
        overrides = {f: _amounts(spec, f, players) for f in fields}
        overrides |= {f: value for f, (value, _) in spec.rules_cls.END_RULES.items()}
    else:
        overrides = {setting: _amounts(spec, setting, players)}
    policy = ",".join(["random", *filter(None, lineup(game, players - 1).split(","))])
    rules, seats = resolve(game, players, variants, overrides, policy=policy)
    games = 300 if setting == "all" else 200
    rows = play_rows(game, players, rules, seats, SEED, 0, games, True, True)
    check_rows(game, players, rows, 0, len(seats))
