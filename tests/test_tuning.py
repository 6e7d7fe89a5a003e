"""Tuning (issue #27): objective and constraint parsing, the study's resume (a run killed
after k trials and resumed ends with the same trials and best trial as an uninterrupted
run), preset files (round trip and validation), and the confirmation's games disjoint from
the search's. Small: a few dozen games per trial on the Sunken City kernels other tests
compile anyway."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import cli
from simcore.base.errors import InputError, RulesError
from simcore.base.presetfile import PresetFile, read_preset_file, write_preset_file
from simcore.frame.registry import get_game
from simcore.studies import tune_players as tp
from simcore.studies import tuning
from simcore.studies.tune_rules import (
    pareto_front,
    parse_constraint,
    parse_objective,
    parse_tune_param,
    pick_candidates,
    tune_rules,
)
from tests.conftest import run_main

SC = get_game("sunken-city")


@pytest.fixture
def db_dir(tmp_path):
    """A folder for the study databases: in memory (/dev/shm) where there is one, since
    SQLite's commits (optuna commits every parameter) cost a disk sync each."""
    import os
    import tempfile

    if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
        with tempfile.TemporaryDirectory(dir="/dev/shm", prefix="balance-tune-") as d:
            yield Path(d)
    else:
        yield tmp_path


@pytest.fixture(autouse=True)
def _forget_preset_files():
    """Preset files add players to a game for the rest of the process: removed after each
    test, so that other tests see the built-in players only."""
    from simcore.frame.registry import all_games

    before = {name: spec.policies for name, spec in all_games().items()}
    yield
    for name, spec in all_games().items():
        object.__setattr__(spec, "policies", before[name])


# --------------------------------------------------------------------------------- parsing
@pytest.mark.parametrize(
    "text, quantity, direction, target",
    [
        ("seat-gap", "seat_gap", "min", None),
        ("first-player", "first_player", "min", 0.0),
        ("length=9", "rounds", "min", 9.0),
        ("length=8.5", "rounds", "min", 8.5),
        ("rounds", "rounds", "min", None),
        ("mean_rounds", "rounds", "min", None),
        ("max:shared", "shared", "max", None),
        ("min:turns", "turns", "min", None),
        ("win_0=0.3", "win_0", "min", 0.3),
    ],
)
def test_objectives_parse(text, quantity, direction, target):
    o = parse_objective(SC, 3, text)
    assert (o.quantity, o.direction, o.target) == (quantity, direction, target)


@pytest.mark.parametrize(
    "text", ["seat gap", "length", "length=x", "length=inf", "max:nothing", "win_5", "", "fpa<1"]
)
def test_bad_objectives_are_refused(text):
    with pytest.raises(InputError, match="--objective"):
        parse_objective(SC, 3, text)


def test_objective_values():
    q = {"rounds": 8.0, "first_player": -0.02, "seat_gap": 0.05}
    assert parse_objective(SC, 3, "length=9").value(q) == 1.0
    assert parse_objective(SC, 3, "first-player").value(q) == pytest.approx(0.02)
    assert parse_objective(SC, 3, "seat-gap").value(q) == 0.05


@pytest.mark.parametrize(
    "text, quantity, op, bound",
    [
        ("mean_rounds<=9", "rounds", "<=", 9.0),
        ("seat_gap < 0.05", "seat_gap", "<", 0.05),
        ("shared>=0.02", "shared", ">=", 0.02),
        ("first-player>-0.01", "first_player", ">", -0.01),
    ],
)
def test_constraints_parse(text, quantity, op, bound):
    c = parse_constraint(SC, 3, text)
    assert (c.quantity, c.op, c.bound) == (quantity, op, bound)


def test_constraint_excess_follows_optuna_convention():
    c = parse_constraint(SC, 3, "mean_rounds<=9")
    assert c.excess({"rounds": 8.5}) < 0 < c.excess({"rounds": 9.5})
    strict = parse_constraint(SC, 3, "rounds<9")
    assert (
        strict.excess({"rounds": 9.0}) > 0
        and parse_constraint(SC, 3, "rounds<=9").excess({"rounds": 9.0}) == 0
    )
    assert c.holds(9.0) and not strict.holds(9.0)


@pytest.mark.parametrize(
    "text", ["rounds=9", "rounds<=", "<=9", "rounds<=nine", "nothing<=1", "rounds!=9", "rounds=<9"]
)
def test_bad_constraints_are_refused(text):
    with pytest.raises(InputError, match="--constraint"):
        parse_constraint(SC, 3, text)


def test_params_parse():
    rules = SC.rules_cls()
    p = parse_tune_param(SC, "streets_space1=15..30", 3, rules)
    assert (p.lo, p.hi, p.entry) == (15, 30, 1)
    assert p.override(17) == "20,17,26" and p.start_value(rules) == 23
    p = parse_tune_param(SC, "chip_supply=0..8", 3, rules)
    assert (p.lo, p.hi, p.entry, p.override(3)) == (0, 8, None, "3")
    p = parse_tune_param(SC, "die=beige,black", 3, rules)
    assert p.choices == ("beige", "black")
    for bad in (
        "streets_space1=30..15",
        "streets_space1=a..b",
        "nothing=1..2",
        "die=1..3",
        "chip_supply",
        "die=beige",
    ):
        with pytest.raises(RulesError, match="--param"):
            parse_tune_param(SC, bad, 3, rules)


def test_a_range_is_narrowed_to_the_values_the_rules_accept():
    from simcore.studies.tune_rules import check_params

    rules = SC.rules_cls()

    def resolve(over):
        return SC.resolve_rules((), over, None, 3)

    p = parse_tune_param(SC, "streets_space1=15..30", 3, rules)
    (q,), notes = check_params(SC, [p], resolve)
    assert (q.lo, q.hi) == (15, 26) and "searched 15..26" in notes[0] and "27" in notes[0]
    p = parse_tune_param(SC, "streets_space1=40..60", 3, rules)
    with pytest.raises(RulesError, match="the value 40 is refused"):
        check_params(SC, [p], resolve)


def test_pareto_front():
    trials = [{"values": v, "index": i} for i, v in enumerate([[1, 5], [2, 2], [3, 3], [5, 1]])]
    front = pareto_front(trials, np.array([1.0, 1.0]))
    assert [t["index"] for t in front] == [0, 1, 3]


# --------------------------------------------------------------------------------- seeds
def test_confirmation_games_are_disjoint_from_the_search():
    """Every search game index is below CONFIRM_START, every confirmation index at or above
    it, and a game's stream key is injective in the index (simcore.frame.rng: index * odd
    constant), so no confirmation game repeats a search game."""
    from simcore.frame.rng import new_stream

    search = tuning.search_indices(tuning.MAX_SEARCH_GAMES)
    confirm = tuning.confirm_indices(10**6)
    assert search.stop <= confirm.start == tuning.CONFIRM_START
    with pytest.raises(InputError):
        tuning.search_indices(tuning.MAX_SEARCH_GAMES + 1)
    keys = {
        int(new_stream(7, i)[0]) for i in [*range(50), *range(confirm.start, confirm.start + 50)]
    }
    assert len(keys) == 100
    assert tuning.trial_seed(1, 5) != tuning.trial_seed(1, 6) != tuning.trial_seed(2, 6)


# --------------------------------------------------------------------------------- resume
def _tiny(tmp_path, db, db_dir=None, out="w.toml", **kw):
    """A small tune-players run of Sunken City, 3 players; kw: other search options."""
    sizes = dict(budget=12, games_per_trial=60, confirm_games=30, top=2, seed=5) | kw
    storage = str((db_dir or tmp_path) / db)
    return tp.tune_players(
        get_game("sunken-city"), 3, str(tmp_path / out), storage=storage, threads=1, **sizes
    )


def test_killed_run_resumes_to_the_same_best_trial(tmp_path, db_dir, monkeypatch):
    whole = _tiny(tmp_path, "a.db", db_dir=db_dir)
    assert len(whole.trials) == 12 and whole.confirmation is not None
    assert whole.trials[0]["params"] == whole.start  # the first trial: the starting weights
    # a run killed in the middle of its 6th trial (the trial is left running in the database,
    # as after SIGKILL), then the same command again
    calls = {"n": 0}
    real = tp.PlayerSearch.evaluate

    def dying(self, trial, index):
        calls["n"] += 1
        if calls["n"] == 6:
            raise SystemExit("killed")
        return real(self, trial, index)

    monkeypatch.setattr(tp.PlayerSearch, "evaluate", dying)
    with pytest.raises(SystemExit):
        _tiny(tmp_path, "b.db", db_dir=db_dir)
    monkeypatch.setattr(tp.PlayerSearch, "evaluate", real)
    part = _tiny(tmp_path, "b.db", db_dir=db_dir, stop_after=2)  # a second, clean stop
    assert part.resumed_trials == 5 and len(part.trials) == 7 and part.confirmation is None
    resumed = _tiny(tmp_path, "b.db", db_dir=db_dir)  # TPE's own suggestions from trial 10 on
    assert resumed.resumed_trials == 7
    strip = [{k: t[k] for k in ("index", "value", "params")} for t in resumed.trials]
    assert strip == [{k: t[k] for k in ("index", "value", "params")} for t in whole.trials]
    assert resumed.best == whole.best
    assert resumed.confirmation.labels == whole.confirmation.labels
    # another --seed makes another study with other suggestions
    other = _tiny(tmp_path, "c.db", db_dir=db_dir, out="x.toml", budget=2, top=1, seed=6)
    assert other.trials[1]["params"] != whole.trials[1]["params"]


# --------------------------------------------------------------------------------- presets
def test_preset_file_round_trip_and_use(tmp_path):
    path = tmp_path / "mine.toml"
    w = {"greed": 4.25, "keys": 5}
    write_preset_file(
        PresetFile(str(path), "sunken-city", "mine", "balanced", w, "test", {"seed": 1}),
        whole={"keys"},
    )
    text = path.read_text()
    assert "keys = 5\n" in text and "greed = 4.25" in text
    pf = read_preset_file(path)
    assert (pf.game, pf.name, pf.policy, pf.weights) == ("sunken-city", "mine", "balanced", w)
    spec = get_game("sunken-city")
    seats = spec.parse_policies(f"mine@{path},balanced,balanced", 3)
    assert (
        seats[0].label == "mine"
        and dict(zip(spec.policies["mine"].weights, seats[0].weights))["greed"] == 4.25
    )
    # the file's weights win over the advanced game's preset weights, like the user's
    adv = spec.resolve_rules(["advanced"], players=3)
    vec = dict(zip(spec.policies["mine"].weights, spec.resolve_seats(seats, adv)[0].weights))
    assert vec["greed"] == 4.25 and vec["noise"] == 0.1


@pytest.mark.parametrize(
    "body, why",
    [
        (
            'game = "sunken-city"\nname = "x1"\npolicy = "balanced"\n[weights]\ngreed = 500\n',
            "must be a number from 0 to 100",
        ),
        (
            'game = "sunken-city"\nname = "x2"\npolicy = "balanced"\n[weights]\nkeys = 2.5\n',
            "whole number",
        ),
        (
            'game = "sunken-city"\nname = "x3"\npolicy = "balanced"\n[weights]\nwhat = 1\n',
            "no weight 'what'",
        ),
        ('game = "sumeria"\nname = "x4"\npolicy = "balanced"\n', "is for sumeria"),
        ('game = "sunken-city"\nname = "x5"\npolicy = "random"\n', "policy 'random'"),
        ('game = "sunken-city"\nname = "greedy"\npolicy = "balanced"\n', "taken"),
        ('game = "sunken-city"\nname = "Bad Name"\npolicy = "balanced"\n', "lower-case"),
        ('game = "sunken-city"\nname = "x6"\npolicy = "balanced"\ncolour = 1\n', "unknown key"),
        ("game = ", "not valid TOML"),
    ],
)
def test_bad_preset_files_are_one_line_errors(tmp_path, monkeypatch, capsys, body, why):
    path = tmp_path / "bad.toml"
    path.write_text(body)
    code, out, err = run_main(
        ["simulate", "sunken-city", "--games", "30", "--policy-file", str(path)],
        monkeypatch,
        capsys,
    )
    assert code == 2 and len(err.splitlines()) == 1 and why in err, err
    assert err.startswith("error: --policy-file")


def test_missing_preset_file(monkeypatch, capsys, tmp_path):
    code, _, err = run_main(
        ["simulate", "sunken-city", "--policy", f"t@{tmp_path}/none.toml"], monkeypatch, capsys
    )
    assert code == 2 and "no such file" in err


# --------------------------------------------------------------------------------- commands
def test_tune_players_command_writes_a_usable_preset(tmp_path, db_dir):
    out = tmp_path / "w.toml"
    args = [
        "tune-players",
        "sunken-city",
        "--players",
        "3",
        "--budget",
        "3",
        "--games-per-trial",
        "60",
        "--confirm-games",
        "60",
        "--confirm-top",
        "1",
        "--out",
        str(out),
        "--name",
        "cli-tuned",
        "--threads",
        "1",
        "--json",
        "--storage",
        str(db_dir / "cli.db"),
    ]
    res = CliRunner().invoke(cli.app, args)
    assert res.exit_code == 0, res.output
    js = json.loads(res.output)
    assert js["trials"] == 3 and js["out"] == str(out)
    conf = js["confirmation"]
    assert conf["first_game_index"] == tuning.CONFIRM_START and len(conf["table"]) == 2
    assert read_preset_file(out).name == "cli-tuned"
    res = CliRunner().invoke(cli.app, ["games", "--policy-file", str(out)])
    assert res.exit_code == 0 and "cli-tuned" in res.output
    res = CliRunner().invoke(
        cli.app,
        [
            "simulate",
            "sunken-city",
            "--games",
            "60",
            "--policy-file",
            str(out),
            "--policy",
            "cli-tuned,balanced,balanced",
            "--json",
        ],
    )
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["seats"][0]["policy"] == "cli-tuned"
    # run again: everything comes from the database, the same result
    again = json.loads(CliRunner().invoke(cli.app, args).output)
    assert again["resumed_trials"] == 3 and again["search_best"] == js["search_best"]


def test_tune_rules_search_and_confirmation(tmp_path, db_dir):
    res = tune_rules(
        get_game("sunken-city"),
        3,
        ["streets_space1=18..26"],
        ["seat-gap", "length=8"],
        constraints=["mean_rounds<=12"],
        budget=4,
        games_per_trial=60,
        confirm_games=60,
        top=2,
        storage=str(db_dir / "r.db"),
        threads=1,
    )
    assert len(res.trials) == 4 and res.trials[0]["params"] == {"streets_space1": 23}
    assert res.confirmation.arms[0].label == "start" and 1 <= len(res.candidates) <= 2
    assert all(r.games == 60 for r in res.confirmation.results)
    from analysis.tuning_tables import render_rules_tuning

    lines = []
    render_rules_tuning(res, tmp_path / "p.png", False, lines.append)
    assert any(line.startswith("verdict:") for line in lines)
    assert (tmp_path / "p.png").stat().st_size > 0


def test_pick_candidates_skips_start_and_infeasible():
    o = [parse_objective(SC, 3, "seat-gap")]
    trials = [
        {"index": 0, "values": [0.01], "params": {"a": 1}, "feasible": True},
        {"index": 1, "values": [0.02], "params": {"a": 2}, "feasible": False},
        {"index": 2, "values": [0.03], "params": {"a": 3}, "feasible": True},
        {"index": 3, "values": [0.03], "params": {"a": 3}, "feasible": True},
    ]
    assert [t["index"] for t in pick_candidates(trials, o, 3)] == [2]


def test_a_run_killed_in_its_first_trial_starts_again_from_the_start(tmp_path, db_dir, monkeypatch):
    """The first trial is the starting point; a run killed during it (the trial left running)
    enqueues it again on resume."""
    real = tp.PlayerSearch.evaluate

    def dying(self, trial, index):
        raise SystemExit("killed")

    monkeypatch.setattr(tp.PlayerSearch, "evaluate", dying)
    with pytest.raises(SystemExit):
        _tiny(tmp_path, "k.db", db_dir, stop_after=1)
    monkeypatch.setattr(tp.PlayerSearch, "evaluate", real)
    res = _tiny(tmp_path, "k.db", db_dir, stop_after=1)
    assert res.trials[0]["index"] == 0 and res.trials[0]["params"] == res.start
