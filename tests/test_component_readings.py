"""Component readings (issue #25, docs/component-readings.md): every reconstruction of
GAME-DATA.md has at least two named alternatives; each keeps the facts it must keep, is
documented, changes the game (different rows from the default's on the same games) and keeps
the engine's invariants (checked mode finds nothing); a designer's reading from a rules file
loads and plays."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import numpy as np
import pytest

from simcore import all_games, get_game
from simcore.base.rulesbase import RulesError
from tests.conformance.cases import check_rows, play_rows, resolve

DOC = Path(__file__).parent.parent / "docs" / "component-readings.md"
GAMES = 200  # per reading, in checked mode
PLAYERS = 3  # every game allows 3
SEED = 25

# The reconstructions of GAME-DATA.md, per game (the `replaces` of its readings).
RECONSTRUCTIONS = {
    "sunken-city": {"dark squares", "movement cards"},
    "sumeria": {"trade-route map"},
    "secrets-of-the-sea": {"tile mix"},
    "sunken-treasure": {"decks"},
}
READINGS = [(g, n) for g in sorted(all_games()) for n in get_game(g).variants.readings]


def test_every_reconstruction_has_two_readings_with_a_source_and_a_doc_entry():
    doc = DOC.read_text()
    for game, names in RECONSTRUCTIONS.items():
        readings = get_game(game).readings()
        for what in names:
            mine = [n for n, (r, _) in readings.items() if r == what]
            assert len(mine) >= 2, f"{game}: {what} has {len(mine)} readings"
        for name, (replaces, source) in readings.items():
            assert replaces in names, f"{game} {name}: unknown reconstruction {replaces!r}"
            assert len(source) > 40, f"{game} {name}: give the source or the reasoning"
            assert f"`{name}`" in doc, f"{name} is not in docs/component-readings.md"


def _rules(game: str, name: str):
    return get_game(game).resolve_rules([name], {}, None, PLAYERS)


def test_the_sunken_city_readings_keep_the_facts():
    for name in get_game("sunken-city").variants.readings:
        r = _rules("sunken-city", name)
        flat = r.board.replace("/", "")
        assert (len(flat), flat.count("#"), flat.index("C")) == (81, 32, 40), name
        for corner in (0, 8, 72, 80):  # light water at the villages
            assert flat[corner] == "."
        for q in (30, 31, 32, 39, 41, 48, 49, 50):  # light water round the centre
            assert flat[q] == ".", name
        rows = r.board.split("/")
        turned = ["".join(col) for col in zip(*rows)]
        assert rows == [row[::-1] for row in rows] == rows[::-1] == turned, f"{name}: symmetry"
        cards = r.cards
        assert len(cards) == 6
        assert {(2, 5), (3, 4), (4, 3)} <= {c[:2] for c in cards}, "the rulebook's examples"
        assert (4, 3, 1) in cards, "the rulebook's 4/3 example moves the spirit"
        assert all(0 <= a <= 4 and 3 <= b <= 7 and 6 <= a + b <= 7 for a, b, _ in cards)
        assert (sum(c[0] for c in cards), sum(c[1] for c in cards)) == (12, 29)
        assert 0 < sum(c[2] for c in cards) < 6, "some cards show the spirit"


def test_the_other_readings_keep_the_counts():
    for name in get_game("secrets-of-the-sea").variants.readings:
        r = _rules("secrets-of-the-sea", name)
        light, dark, wreck = r.tiles()
        assert (len(light), len(dark), len(wreck)) == (25, 25, 7), name
        board = light + dark
        assert max(v for _, f, v in board if f == 7) <= 4, "monsters have at most 4 pips"
        assert all(v == 2 for _, f, v in board if f == 6), "exchange tiles are worth 2"
        assert {f for _, f, _ in board if f < 5} == set(range(5)), "five treasure types"
        assert sum(1 for _, f, _ in board if f == 5) >= 3, "the seagrass bonus needs 3"
    for name in get_game("sunken-treasure").variants.readings:
        r = _rules("sunken-treasure", name)
        assert (sum(r.item_deck), sum(r.attempt_deck), sum(r.treasure_counts)) == (41, 21, 20)
        assert sum(v * c for v, c in zip(r.treasure_values, r.treasure_counts)) == 55_000
        assert sum(r.item_deck[:5]) == 21, name  # the containers
    for name in get_game("sumeria").variants.readings:
        assert _rules("sumeria", name).map != "default"


@functools.cache
def _base_rows(game: str) -> np.ndarray:
    spec = get_game(game)
    rules, seats = resolve(game, PLAYERS, policy=spec.default_policy)
    return play_rows(game, PLAYERS, rules, seats, SEED, 0, GAMES, True, True)


@pytest.mark.parametrize("game,name", READINGS, ids=[f"{g}-{n}" for g, n in READINGS])
def test_each_reading_changes_the_game_and_keeps_the_invariants(game, name):
    spec = get_game(game)
    rules, seats = resolve(game, PLAYERS, [name], policy=spec.default_policy)
    rows = play_rows(game, PLAYERS, rules, seats, SEED, 0, GAMES, True, True)
    check_rows(game, PLAYERS, rows, 0, len(seats))  # checked mode: no error in any game
    base = _base_rows(game)
    score = spec.columns.index("score_0")
    changed = (rows[:, score] != base[:, score]).mean()
    assert changed > 0.5, f"{name} changed seat 0's score in only {changed:.0%} of the games"


EXAMPLE = """
[reading.dark-squares-cross]
replaces = "dark squares"
source = "a designer's sketch: a cross of dark water through the centre"
board = "....#..../....#..../....#..../....#..../####C####/....#..../....#..../....#..../....#...."

[variant.fast]
die = [1, 2, 3, 3, 4, 5]
"""


def test_a_reading_from_a_rules_file_loads_and_plays(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(EXAMPLE)
    spec = get_game("sunken-city")
    readings = spec.readings(str(path))
    assert readings["dark-squares-cross"] == (
        "dark squares",
        "a designer's sketch: a cross of dark water through the centre",
    )
    assert "fast" not in readings and "dark-squares-ring" in readings
    rules = spec.resolve_rules(["dark-squares-cross+fast"], {}, str(path), 2)
    assert rules.board.count("#") == 16 and rules.die == (1, 2, 3, 3, 4, 5)
    seats = spec.resolve_seats(spec.parse_policies("random", 2), rules)
    rows = play_rows("sunken-city", 2, rules, seats, SEED, 0, 20, False, True)
    check_rows("sunken-city", 2, rows, 0, len(seats))


def test_the_worked_example_of_the_doc_loads(tmp_path):
    text = DOC.read_text().split("```toml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "my-readings.toml"
    path.write_text(text)
    spec = get_game("sunken-city")
    mine = {n: r for n, r in spec.readings(str(path)).items() if n not in spec.variants.readings}
    assert {n: r[0] for n, r in mine.items()} == {
        "dark-squares-cross": "dark squares",
        "cards-slow": "movement cards",
    }
    for name in mine:
        assert spec.resolve_rules([name], {}, str(path), 3) != spec.rules_cls()


def test_balance_games_marks_the_readings():
    from typer.testing import CliRunner

    import cli

    res = CliRunner().invoke(cli.app, ["games"])
    assert res.exit_code == 0
    line = next(x for x in res.output.splitlines() if x.strip().startswith("dark-squares-ring"))
    assert line.endswith("[reading: dark squares]")
    res = CliRunner().invoke(cli.app, ["games", "--json"])
    info = {g["game"]: g for g in json.loads(res.output)}
    for game, names in RECONSTRUCTIONS.items():
        replaced = {r["replaces"] for r in info[game]["readings"].values()}
        assert replaced == names


@pytest.mark.parametrize(
    "text,message",
    [
        ('[reading.x]\nsource = 3\nboard = "."', "replaces and source must be text"),
        ("[reading.x]\ncolour = 1", "reading 'x' has unknown key 'colour'"),
        ("[reading.base]\nchips = false", "reading 'base' is a built-in variant's name"),
        ("[reading.x]\nchips = false\n[variant.x]\nchips = true", "defined twice"),
        ("[readings.x]\nchips = false", "unknown top-level key(s) ['readings']"),
    ],
)
def test_a_bad_reading_is_one_clear_sentence(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(RulesError) as e:
        get_game("sunken-city").readings(str(path))
    assert message in str(e.value)
