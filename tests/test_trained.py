"""The `trained` player's frame and its model files (simcore.frame.trained,
simcore.base.trained_model, simcore.studies.train), on Pig, the game that has one: the
contract's hook, the model file's refusals (one line each), the weight row's layout, and the
training's reproducibility (two runs, and a run resumed from its checkpoint, give the same
model bit for bit)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from simcore import get_game
from simcore.base.errors import ContractError, InputError, RulesError
from simcore.base.trained_model import Model, load_model, model_size, save_model
from simcore.frame import search, trained
from simcore.frame.contract import GameContract
from simcore.studies import train as train_module
from simcore.studies.train import TrainSettings, train

ROOT = Path(__file__).resolve().parents[1]
TINY = TrainSettings(hidden=4)


def tiny_model(tmp_path: Path, name: str = "m.npz", **kw) -> Path:
    fields = dict(game="pig", players=2, width=6, hidden=3) | kw
    size = model_size(fields["width"], fields["hidden"])
    values = np.linspace(-1.0, 1.0, size)
    path = tmp_path / name
    save_model(Model(values=values, **fields), path)
    return path


@pytest.mark.parametrize("act, g", [(0, np.tanh), (1, lambda a: a / (1.0 + np.abs(a)))])
def test_model_size_and_logit_agree_with_numpy(act, g):
    width, hidden = 6, 5  # a block of four units and one unit alone
    values = np.random.default_rng(0).normal(size=model_size(width, hidden))
    feat = np.random.default_rng(1).normal(size=width)
    feat[2] = 0.0  # a feature of 0 (skipped by the softsign kernel: the same sums)
    w1 = values[: hidden * width].reshape(hidden, width)
    b1 = values[hidden * width : hidden * width + hidden]
    w2 = values[hidden * width + hidden : hidden * width + 2 * hidden]
    expected = values[-1] + w2 @ g(w1 @ feat + b1)
    m = values.reshape(1, -1)
    assert trained.model_logit(m, 0, 0, width, hidden, act, feat, 0) == pytest.approx(expected)
    lin = values[: width + 1].reshape(1, -1)
    assert trained.model_logit(lin, 0, 0, width, 0, act, feat, 0) == pytest.approx(
        lin[0, width] + lin[0, :width] @ feat
    )


def test_the_units_slopes_are_their_derivatives():
    for act in (trained.ACT_TANH, trained.ACT_SOFTSIGN):
        for a in (-3.0, -0.4, 0.0, 0.7, 2.5):
            eps = 1e-6
            slope = (trained.unit(a + eps, act) - trained.unit(a - eps, act)) / (2 * eps)
            assert trained.unit_slope(trained.unit(a, act), act) == pytest.approx(slope, rel=1e-6)


def test_the_registry_adds_trained_to_a_game_with_the_hook_only():
    pig = get_game("pig")
    assert pig.policies["trained"].id == trained.TRAINED_ID
    assert "trained" not in pig.presets  # presets: the hand-written players only
    assert "trained" not in get_game("chutes-and-ladders").policies  # no decisions, no hook


def test_the_contract_refuses_features_without_search_or_width():
    from simcore.games.pig import play

    c = play.CONTRACT
    base = {n: getattr(c, n) for n in ("setup", "play_turn", "check_invariants", "snapshot")}
    base |= {n: getattr(c, n) for n in ("scores", "record", "standing")}
    with pytest.raises(ContractError, match="trained_features"):
        GameContract(c.module, c.layout, c.state, **base, trained_features=c.trained_features)
    with pytest.raises(ContractError, match="trained_width"):
        GameContract(
            c.module,
            c.layout,
            c.state,
            **base,
            search_options=c.search_options,
            search_play=c.search_play,
            trained_features=c.trained_features,
        )


def test_a_trained_row_holds_base_weights_model_and_header(tmp_path):
    spec = get_game("pig")
    path = tiny_model(tmp_path)
    seats = spec.parse_policies(f"trained:model={path},search:budget=4", 2)
    ids, w = spec.policy_arrays(seats)
    assert list(ids) == [trained.TRAINED_ID, search.SEARCH_ID]
    size = model_size(6, 3)
    assert w.shape[1] == spec.weights_width + size + trained.N_HEAD
    head = w.shape[1] - search.N_PARAMS - trained.N_HEAD
    width, hidden, base, c0, act = w[0, head : head + trained.N_HEAD]
    assert (width, hidden, c0, act) == (6, 3, head - size, trained.ACT_TANH)
    assert base == spec.policies[spec.policies["trained"].base].id
    assert w[0, 0] == spec.policies["hold-at"].weights["n"]  # the base player's weights
    assert np.array_equal(w[0, int(c0) : head], load_model(path, "pig", 6).values)
    plain_ids, plain = spec.policy_arrays(spec.parse_policies("hold-at,search", 2))
    assert plain.shape[1] == spec.weights_width  # a lineup without trained: the usual width


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda p: p / "missing.npz", "does not exist"),
        (lambda p: p, "is not a file"),
        (lambda p: (p / "x.npz").write_text("not a zip") and p / "x.npz", "is not a model file"),
        (lambda p: tiny_model(p, game="sumeria"), "is a model for sumeria, not pig"),
        (lambda p: tiny_model(p, width=5), "has 5 features a candidate, pig's have 6"),
    ],
    ids=["missing", "folder", "not-npz", "other-game", "width"],
)
def test_bad_model_files_are_one_line_refusals(tmp_path, make, words):
    path = make(tmp_path)
    with pytest.raises(InputError, match=words) as e:
        get_game("pig").parse_policies(f"trained:model={path},optimal", 2)
    assert "\n" not in str(e.value)


def test_a_model_of_the_wrong_size_or_not_finite_is_refused(tmp_path):
    path = tiny_model(tmp_path)
    with np.load(path) as z:
        data = {k: z[k] for k in z.files}
    np.savez(tmp_path / "short.npz", **(data | {"model": data["model"][:-1]}))
    with pytest.raises(InputError, match="holds 24 values"):
        load_model(tmp_path / "short.npz", "pig", 6)
    bad = data["model"].copy()
    bad[0] = np.nan
    np.savez(tmp_path / "nan.npz", **(data | {"model": bad}))
    with pytest.raises(InputError, match="not finite"):
        load_model(tmp_path / "nan.npz", "pig", 6)


def test_a_softsign_model_is_format_2_and_a_tanh_model_keeps_format_1(tmp_path):
    """The activation is written only where it is not tanh (format 2): a tanh model's bytes
    are those of before; an unknown activation, another format or a format-2 file without
    its activation are refused in one line."""
    tanh = load_model(tiny_model(tmp_path, name="t.npz"), "pig", 6)
    soft = load_model(tiny_model(tmp_path, name="s.npz", activation="softsign"), "pig", 6)
    assert (tanh.activation, soft.activation) == ("tanh", "softsign")
    with np.load(tmp_path / "t.npz") as z:
        assert int(z["format"]) == 1 and "activation" not in z.files
    with np.load(tmp_path / "s.npz") as z:
        data = {k: z[k] for k in z.files}
    assert int(data["format"]) == 2 and str(data["activation"]) == "softsign"
    assert soft.weights()[:3] == (6.0, 3.0, float(trained.ACT_SOFTSIGN))
    for name, change, words in (
        ("relu.npz", {"activation": np.array("relu")}, "has activation 'relu', not one of"),
        ("f3.npz", {"format": np.array(3)}, "has format 3, not one of 1, 2"),
    ):
        np.savez(tmp_path / name, **(data | change))
        with pytest.raises(InputError, match=words):
            load_model(tmp_path / name, "pig", 6)
    np.savez(tmp_path / "none.npz", **{k: v for k, v in data.items() if k != "activation"})
    with pytest.raises(InputError, match="no activation"):
        load_model(tmp_path / "none.npz", "pig", 6)


def test_a_softsign_model_plays_its_own_units(tmp_path):
    """A trained seat's row carries the model's activation: the shipped Pig model's values
    read as softsign units play other games than as its own tanh units."""
    from simcore import simulate

    spec = get_game("pig")
    shipped = load_model(spec._shipped_model(2), "pig", 6)
    hists = []
    for act in ("tanh", "softsign"):
        path = tmp_path / f"{act}.npz"
        save_model(Model("pig", 2, 6, shipped.hidden, shipped.values, activation=act), path)
        res = simulate(spec, 2, 400, seed=5, policies=f"trained:model={path},hold-at")
        hists.append(res.summary.turns_hist.copy())
    assert not np.array_equal(hists[0], hists[1])


def test_a_model_file_is_read_again_when_it_changes_and_each_load_is_a_copy(tmp_path):
    """load_model keeps what it read while the file's size and time stay the same: a file
    written anew (another model, or a broken one) is read again; a caller's copy is its own."""
    import os

    path = tiny_model(tmp_path)
    first = load_model(path, "pig", 6)
    first.values[:] = 0.0
    assert load_model(path, "pig", 6).values.any()  # the change stays with the caller's copy
    with np.load(path) as z:
        data = {k: z[k] for k in z.files}
    np.savez(path, **(data | {"model": data["model"] * 2.0}))
    st = os.stat(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))  # a coarse clock
    again = load_model(path, "pig", 6)
    assert np.array_equal(again.values, data["model"].reshape(-1) * 2.0)
    path.write_bytes(b"not a model")
    with pytest.raises(InputError, match="not a model file"):
        load_model(path, "pig", 6)


def test_an_unknown_weight_of_trained_is_refused():
    spec = get_game("pig")
    with pytest.raises(RulesError, match="has no weight 'budget'"):
        spec.parse_policies("trained:budget=3,optimal", 2)


def test_the_cli_refuses_a_bad_model_in_one_line_with_status_2(tmp_path):
    run = subprocess.run(
        [sys.executable, str(ROOT / "cli.py"), "simulate", "pig", "--games", "10"]
        + ["--policy", f"trained:model={tmp_path / 'none.npz'},optimal"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "does not exist" in run.stderr


def test_training_is_reproducible_and_resumes_to_the_same_model(tmp_path):
    spec = get_game("pig")
    kw = dict(seed=5, settings=TINY, chunk=500)
    a = train(spec, 2, 1500, out=tmp_path / "a.npz", **kw)
    b = train(spec, 2, 1500, out=tmp_path / "b.npz", **kw)
    assert a.sha256 == b.sha256
    assert np.array_equal(a.model.values, b.model.values)
    assert (tmp_path / "a.npz").read_bytes() == (tmp_path / "b.npz").read_bytes()
    other = train(spec, 2, 1500, out=tmp_path / "c.npz", **(kw | {"seed": 6}))
    assert not np.array_equal(a.model.values, other.model.values)

    ck = tmp_path / "run.ckpt"
    seen = []

    def stop_after_first_chunk(line: str) -> None:
        seen.append(line)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        train(
            spec,
            2,
            1500,
            out=tmp_path / "d.npz",
            checkpoint=str(ck),
            echo=stop_after_first_chunk,
            **kw,
        )  # noqa: E501
    assert json.loads(ck.read_text())["games_done"] == 500 and len(seen) == 1
    d = train(spec, 2, 1500, out=tmp_path / "d.npz", checkpoint=str(ck), resume=True, **kw)
    assert np.array_equal(d.model.values, a.model.values)
    with pytest.raises(InputError, match="different run"):
        train(spec, 2, 3000, out=tmp_path / "e.npz", checkpoint=str(ck), resume=True, **kw)


def test_the_progress_bar_shows_the_rate_and_leaves_the_model_unchanged(tmp_path, capsys):
    spec = get_game("pig")
    kw = dict(seed=5, settings=TINY, chunk=2500)
    plain = train(spec, 2, 5000, out=tmp_path / "a.npz", **kw)
    assert capsys.readouterr().err == ""
    shown = train(spec, 2, 5000, out=tmp_path / "b.npz", progress=True, **kw)
    err = capsys.readouterr().err
    assert shown.sha256 == plain.sha256  # the bar's steps of 1,000 games change nothing
    assert "games/s" in err and "ETA" in err and "5,000/5,000 games" in err
    # the chunks' lines above the bar, each on a line of its own
    lines = [part.strip() for part in err.split("\r") if "of 5,000 games, error" in part]
    starts = [f"pig, 2 players: {n} of 5,000 games, error" for n in ("2,500", "5,000")]
    assert [line[: len(starts[0])] for line in lines] == starts


@pytest.mark.parametrize(
    "settings",
    [
        TrainSettings(hidden=4, league=0.5),
        TrainSettings(hidden=4, expert=4, league=1.0),
        TrainSettings(hidden=4, activation="softsign"),
    ],
    ids=["league", "expert", "softsign"],
)
def test_league_and_expert_training_are_reproducible_and_resume(tmp_path, settings):
    """--league (games against the base preset), --expert (Expert Iteration: the learner's
    candidates valued by the search's simulations) and --activation softsign give the same
    model for the same seed, resumed or not, and another model than self-play's with tanh
    units."""
    spec = get_game("pig")
    kw = dict(seed=5, settings=settings, chunk=300)
    a = train(spec, 2, 600, out=tmp_path / "a.npz", **kw)
    b = train(spec, 2, 600, out=tmp_path / "b.npz", **kw)
    assert a.sha256 == b.sha256
    plain = train(spec, 2, 600, out=tmp_path / "p.npz", **(kw | {"settings": TINY}))
    assert not np.array_equal(a.model.values, plain.model.values)
    ck = tmp_path / "run.ckpt"

    def stop(line: str) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        train(spec, 2, 600, out=tmp_path / "d.npz", checkpoint=str(ck), echo=stop, **kw)
    d = train(spec, 2, 600, out=tmp_path / "d.npz", checkpoint=str(ck), resume=True, **kw)
    assert d.sha256 == a.sha256
    saved = json.loads((tmp_path / "a.json").read_text())["settings"]
    assert saved["expert"] == settings.expert
    # the activation is named in the provenance where it is not tanh (a tanh model's
    # provenance reads as before it could be chosen), and the model file says it too
    assert saved.get("activation", "tanh") == settings.activation
    assert ("activation" in saved) == (settings.activation != "tanh")
    assert load_model(tmp_path / "a.npz", "pig", 6).activation == settings.activation


def test_an_expert_iteration_model_beats_random(tmp_path):
    """A small Expert Iteration run (Pig: 16 simulations a candidate, 20,000 games, about 8 s)
    plays better than `random` (it learns the search's values of roll and hold; slowly, as
    docs/trained-players.md measures: 66.6% against `random` on seed 3)."""
    from simcore import simulate

    settings = TrainSettings(hidden=16, expert=16, league=1.0)
    train(get_game("pig"), 2, 20_000, out=tmp_path / "x.npz", seed=49, settings=settings)
    res = simulate(
        get_game("pig"), 2, 2000, seed=3, rotate_seats=True,
        policies=f"trained:model={tmp_path / 'x.npz'},random",
    )  # fmt: skip
    s = res.summary
    assert s.policy_wins[0] / s.policy_games[0] > 0.6


def test_training_writes_its_provenance_beside_the_model(tmp_path):
    res = train(get_game("pig"), 2, 400, out=tmp_path / "p.npz", seed=3, settings=TINY)
    prov = json.loads((tmp_path / "p.json").read_text())
    assert prov["sha256"] == res.sha256
    assert {"command", "seed", "games", "cpu_seconds", "rules_hash", "version"} <= set(prov)
    assert (prov["game"], prov["players"], prov["games"], prov["seed"]) == ("pig", 2, 400, 3)
    assert prov["method"] == "Q(lambda) self-play (docs/trained-players.md)"


@pytest.mark.parametrize(
    "settings, words",
    [
        ({"league": 1.0}, "Q(lambda), one learning seat against the base player"),
        ({"league": 0.25}, "self-play; in 0.25 of the games one learning seat against the base"),
        ({"expert": 4}, "Expert Iteration (4 simulations a candidate), the learning seat against"),
    ],
)
def test_the_provenance_says_whom_the_model_learnt_against(settings, words):
    """A model trained against the base player is not called self-play in its provenance."""
    method = train_module._method(TrainSettings(**settings))
    assert words in method and ("self-play" in method) == (settings.get("league") == 0.25)


def test_bad_training_input_is_refused():
    spec = get_game("pig")
    with pytest.raises(RulesError):
        train(spec, 3, 100)
    with pytest.raises(InputError, match="must be a .npz file"):
        train(spec, 2, 100, out="model.txt")
    with pytest.raises(InputError, match="--hidden"):
        train(spec, 2, 100, settings=TrainSettings(hidden=-1))
    with pytest.raises(InputError, match="league"):
        train(spec, 2, 100, settings=TrainSettings(league=1.5))
    with pytest.raises(InputError, match="--expert"):
        train(spec, 2, 100, settings=TrainSettings(expert=-1))
    with pytest.raises(InputError, match="--activation must be one of tanh, softsign, not 'relu'"):
        train(spec, 2, 100, settings=TrainSettings(activation="relu"))
    for alpha in (0.0, -0.1, float("nan"), 11.0):  # a rate of 0 would write the untrained start
        with pytest.raises(InputError, match="--alpha"):
            train(spec, 2, 100, settings=TrainSettings(alpha=alpha))
    chutes = get_game("chutes-and-ladders")
    with pytest.raises(RulesError, match="no trained player"):
        train(chutes, chutes.min_players, 100)


def test_the_learning_curve_leaves_the_model_unchanged_and_measures_it(tmp_path):
    """--curve: a point per checkpoint, the model's win rate against its base on games of the
    next seed (never its own), and the same model as a run without the curve."""
    spec = get_game("pig")
    kw = dict(seed=5, settings=TINY, chunk=500)
    plain = train(spec, 2, 1000, out=tmp_path / "a.npz", **kw)
    res = train(spec, 2, 1000, out=tmp_path / "b.npz", curve_games=200, **kw)
    assert res.sha256 == plain.sha256 and plain.curve is None  # the same model file
    assert np.array_equal(res.model.values, plain.model.values)
    assert [p["games_trained"] for p in res.curve] == [500, 1000]
    last = res.curve[-1]
    assert last["games"] == 200 and last["ci_low"] <= last["win_rate"] <= last["ci_high"]
    assert last["wins"] + last["shared"] <= 200 and last["fair"] == 0.5
    assert json.loads((tmp_path / "b.json").read_text())["curve"] == res.curve


@pytest.mark.parametrize(
    "settings, label",
    [
        ({"league": 0.0, "expert": 0}, "games of self-play"),
        ({"league": 1.0, "expert": 0}, "games of one learning seat against the base player"),
        ({"league": 0.5, "expert": 0}, "games (self-play; 0.5 of them against the base player)"),
        ({"league": 1.0, "expert": 4}, "games of Expert Iteration"),
    ],
)
def test_the_learning_curve_names_the_games_it_trained_on(settings, label):
    """A curve of a model trained against the base player does not say self-play."""
    from analysis.render import curve_games_label

    assert curve_games_label(settings) == label


def test_the_cli_draws_the_learning_curve(tmp_path):
    code = subprocess.run(
        [sys.executable, "-c", "import cli; cli.main()", "train", "pig", "--games", "1000",
         "--curve", "0", "--plot", str(tmp_path / "c.png"), "--out", str(tmp_path / "m.npz")],
        capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    assert code.returncode == 2 and "give --curve GAMES too" in code.stderr
    assert not (tmp_path / "m.npz").exists()


def test_the_learning_curve_labels_its_games_short():
    """The plot's game counts stay readable at millions of games (no run-together labels)."""
    from analysis.plots import _games_label

    assert [_games_label(v) for v in (0, 500, 20_000, 250_000, 1_200_000)] == [
        "0", "500", "20k", "250k", "1.2M",
    ]  # fmt: skip


def test_a_solo_learning_curve_is_measured_against_the_base_players_own_success(tmp_path):
    """Alone there is no fair share: a point's reference is the base player's success rate on
    the same games, and its Elo the odds of the model's success against it."""
    from simcore.base.fairness import elo_vs_fair
    from simcore.studies.train import evaluate

    spec = get_game("sunken-treasure")
    rules = spec.resolve_rules([], {}, None, 1)
    from simcore import simulate

    width = spec.driver.contract.trained_width
    values = load_model(spec._shipped_model(1), spec.name, width).values
    point = evaluate(spec, 1, rules, values, TrainSettings(hidden=16), 400, 50)
    base = simulate(spec, 1, 400, seed=50, policies=spec.policies["trained"].base)
    assert point["fair"] == base.summary.policy_wins[0] / 400
    assert point["elo"] == pytest.approx(elo_vs_fair(point["win_rate"], point["fair"]))
