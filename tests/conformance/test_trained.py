"""The `trained` player in every game that ships a model (simcore.frame.trained): legal in
checked mode under every named variant (a model trained on one set of rules still plays any
other), the same rows for any thread count and chunking, replay = simulate, and a `trained`
seat inside a search's simulations."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numba
import numpy as np
import pytest

from simcore import get_game, simulate
from simcore.base.errors import RulesError
from simcore.base.trained_model import load_model, sha256_of, shipped_path
from simcore.studies.train import TrainSettings
from tests.conformance.cases import (
    GAMES,
    check_rows,
    game_players_variants,
    play_rows,
    resolve,
)

ROOT = Path(__file__).resolve().parents[2]
TWO_THREADS = min(2, numba.config.NUMBA_NUM_THREADS)


def model_path(game: str, players: int) -> Path:
    """The model shipped for the game and player count (it may not exist)."""
    package = Path(sys.modules[get_game(game).driver.contract.package].__file__).parent
    return shipped_path(package, players)


def shipped(game: str, players: int) -> bool:
    return "trained" in get_game(game).policies and model_path(game, players).is_file()


CASES = [(g, p, v) for g, p, v in game_players_variants() if shipped(g, p)]
PAIRS = sorted({(g, p) for g, p, _ in CASES})


def lineup(game: str, players: int) -> str:
    """trained, then the game's presets (its strongest last) in the other seats."""
    others = list(reversed(get_game(game).presets))
    return ",".join(["trained", *(others * players)[: players - 1]])


def test_the_games_with_a_shipped_model_have_the_trained_player():
    with_features = {g for g in GAMES if "trained" in get_game(g).policies}
    assert "pig" in {g for g, _ in PAIRS} <= with_features


@pytest.mark.parametrize("game,players", PAIRS)
def test_the_shipped_model_matches_its_checksum_and_provenance(game, players):
    """Every shipped model: its sha256 is its provenance's, it is small, it loads for its game,
    player count and feature width, it was trained on the default rules in at most 30 minutes
    of CPU, and its provenance names the command that reproduces it (issue #49)."""
    spec = get_game(game)
    model = model_path(game, players)
    prov = json.loads(model.with_suffix(".json").read_text())
    assert sha256_of(model) == prov["sha256"]
    assert model.stat().st_size < 1_000_000
    m = load_model(model, game, spec.driver.contract.trained_width)
    assert (m.game, m.players, m.hidden) == (game, players, prov["settings"]["hidden"])
    rules = spec.resolve_rules([], {}, None, players)
    assert prov["rules_hash"] == spec.rules_hash(rules, players)
    for key in ("command", "seed", "games", "cpu_seconds", "version", "settings"):
        assert key in prov
    assert prov["command"].startswith(f"balance train {game} --players {players}")
    assert f"--out {model.relative_to(ROOT)}" in prov["command"]
    default = TrainSettings()
    for name in ("hidden", "alpha"):  # a setting not the default is in the command
        if prov["settings"][name] != getattr(default, name):
            assert f"--{name} {prov['settings'][name]:g}" in prov["command"], name
    assert prov["cpu_seconds"] <= 30 * 60  # issue #49: at most 30 minutes of training


@pytest.mark.parametrize("game,players,variant", CASES)
def test_trained_plays_legal_games_under_every_variant(game, players, variant):
    rules, seats = resolve(game, players, [variant], policy=lineup(game, players))
    rows = play_rows(game, players, rules, seats, 31, 0, 200, True, True)
    check_rows(game, players, rows, 0, len(seats))


@pytest.mark.parametrize("game,players", PAIRS)
def test_threads_and_chunks_give_identical_rows(game, players):
    spec = get_game(game)
    kw = dict(seed=13, keep_rows=True, policies=lineup(game, players), rotate_seats=True)
    base = simulate(spec, players, 400, threads=1, **kw)
    for other in (
        simulate(spec, players, 400, threads=TWO_THREADS, **kw),
        simulate(spec, players, 400, threads=1, chunk_size=37, **kw),
        simulate(spec, players, 400, threads=TWO_THREADS, chunk_size=1, **kw),
    ):
        assert base.rows.equals(other.rows)


@pytest.mark.parametrize("game,players", PAIRS)
def test_replay_is_game_i_of_the_batch(game, players):
    spec = get_game(game)
    rules, seats = resolve(game, players, policy=lineup(game, players))
    rows = play_rows(game, players, rules, seats, 17, 0, 12, True, False)
    for i in (0, 7, 11):
        tr = spec.replay(rules, players, seats, 17, i, rotate=True, checked=True)
        row = dict(zip(spec.columns, map(int, rows[i])))
        assert {k: tr.end[k] for k in ("winner", "turns")} == {
            k: row[k] for k in ("winner", "turns")
        }


@pytest.mark.parametrize("game,players", PAIRS)
def test_a_trained_seat_plays_in_a_search_simulations(game, players):
    """The search simulates the `trained` seat with the model (the frame's turn_of), legal
    in checked mode and the same for 1 and 2 threads."""
    spec = get_game(game)
    policy = ",".join(["search:budget=8", "trained", *spec.presets][:players])
    kw = dict(seed=3, keep_rows=True, policies=policy, rotate_seats=True, checked=True)
    one = simulate(spec, players, 30, threads=1, **kw)
    assert (one.rows["error"] == 0).all()
    assert one.rows.equals(simulate(spec, players, 30, threads=TWO_THREADS, **kw).rows)


@pytest.mark.parametrize("game,players", PAIRS)
def test_a_search_over_trained_without_budget_is_the_trained_player(game, players):
    """search:base=trained carries the model in its row: at budget 0 it plays its base, so
    its games are the `trained` seat's to the last column (the policy ids aside)."""
    lineups = [
        lineup(game, players),
        lineup(game, players).replace("trained", "search:base=trained,budget=0", 1),
    ]
    rows = [
        play_rows(game, players, *resolve(game, players, policy=lu), 5, 0, 60, True, True)
        for lu in lineups
    ]
    spec = get_game(game)
    same = [k for k, c in enumerate(spec.columns) if not c.startswith("policy_")]
    assert np.array_equal(rows[0][:, same], rows[1][:, same])


@pytest.mark.parametrize("game,players", PAIRS)
def test_a_search_over_trained_plays_legal_deterministic_games(game, players):
    """The search over the model (its choice kept unless another is better by z standard
    errors, the model's decisions in the simulations): legal in checked mode, and the same
    games for 1 and 2 threads."""
    spec = get_game(game)
    policy = ",".join(["search:base=trained,budget=8,z=1", *spec.presets][:players])
    kw = dict(seed=4, keep_rows=True, policies=policy, rotate_seats=True, checked=True)
    one = simulate(spec, players, 20, threads=1, **kw)
    assert (one.rows["error"] == 0).all()
    assert one.rows.equals(simulate(spec, players, 20, threads=TWO_THREADS, **kw).rows)


def test_a_model_is_named_for_a_search_over_trained_only():
    spec = get_game("pig")
    with pytest.raises(RulesError, match="search:model goes with search:base=trained"):
        spec.parse_policies("search:model=x.npz", 2)
    seat = spec.parse_policies(f"search:base=trained,model={model_path('pig', 2)}", 2)[0]
    assert seat.model and seat.spec.file.endswith("trained-2p.npz")
