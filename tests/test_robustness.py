"""`balance robustness`: the classification of verdicts over settings (hand-made records), the
detection of degenerate play, the population seating of the shared runner, the command's JSON,
resuming from a checkpoint, a component reading from the registry and from a rules file, for
every game (tiny game counts: the kernels are the ones the other tests compile)."""

from __future__ import annotations

import json
import tomllib
from collections import Counter
from importlib import metadata
from pathlib import Path

import numpy as np
import pytest

from analysis.robustness import STATUSES, Thresholds, classify, degenerate, robustness
from simcore.base.verdicts import Wording, z_verdict
from simcore.frame.registry import all_games, get_game
from simcore.frame.seats import population_entry
from simcore.run.chunks import POPULATION, play_chunk
from simcore.studies.robustness import Outcomes, run_robustness
from tests.test_cli import run_main


# --------------------------------------------------------------------------------- classify
def _setting(name, kind, value, low, high, *, reference=False, degenerate=False, players=3):
    """A hand-made setting whose one record is 'seat 2 minus seat 1' (shares, as the
    classification tests of before; the engine's records are in points)."""
    se = (high - low) / 2 / 1.96 * 100
    v = z_verdict(
        f"{players}p/seat_pair/1-2",
        "seat 2's win rate minus seat 1's",
        "points",
        100 * value,
        se,
        1000,
        Wording(
            "seat 2 wins more often than seat 1",
            "seat 1 wins more often than seat 2",
            "seats 1 and 2 win equally often (no difference detected)",
        ),
    )
    s = {
        "key": f"{players}p/{kind}/{name}",
        "players": players,
        "kind": kind,
        "label": name,
        "reference": reference,
        "degenerate": degenerate,
        "records": [v.as_json()],
    }
    return s, v


def _classify(settings):
    recs = {s["key"]: {v.key: v} for s, v in settings}
    return classify([s for s, _ in settings], recs, 3, "3p/seat_pair/1-2")


REF = _setting("balanced", "lineup", -0.09, -0.12, -0.06, reference=True)


@pytest.mark.parametrize(
    "others, status, against",
    [
        ([_setting("greedy", "lineup", -0.1, -0.13, -0.07)], "holds", []),
        # interval contains 0 and the reference's estimate: undecided, not a failure
        ([_setting("greedy", "lineup", -0.05, -0.11, 0.01)], "inconclusive", []),
        # significantly different from the reference (and not significant itself)
        ([_setting("greedy", "lineup", 0.0, -0.01, 0.01)], "depends on players", ["greedy"]),
        ([_setting("greedy", "lineup", 0.1, 0.07, 0.13)], "depends on players", ["greedy"]),
        ([_setting("dark-b", "components", 0.0, -0.01, 0.01)], "depends on components", ["dark-b"]),
        (
            [
                _setting("greedy", "lineup", 0.05, 0.02, 0.08),
                _setting("dark-b", "components", 0.0, -0.01, 0.01),
            ],
            "depends on players and components",
            ["greedy", "dark-b"],
        ),
        # a degenerate setting is left out, whatever it says
        ([_setting("cautious", "lineup", 0.99, 0.98, 1.0, degenerate=True)], "holds", []),
    ],
)
def test_classification(others, status, against):
    v = _classify([REF, *others])
    assert v["status"] == status, v["label"]
    assert [c["setting"] for c in v["calls"] if c["against"]] == against
    # the words come from the reference's record: seat 1 minus seat 2 is positive there
    assert v["sign"] == -1 and v["claim"] == "seat 1 wins more often than seat 2"
    assert v["left_out"] == [s["label"] for s, _ in others if s["degenerate"]]
    if status == "inconclusive":
        assert v["games_to_decide"] > 0 and "too few games" in v["label"]


def test_not_detected_and_found_only_elsewhere():
    flat = [_setting(n, "lineup", 0.001, -0.004, 0.006, reference=n == "balanced") for n in "ab"]
    assert _classify(flat)["status"] == "not detected"
    # the reference finds nothing; settings that find it and differ make it depend
    ref = _setting("balanced", "lineup", 0.0, -0.01, 0.01, reference=True)
    up = [_setting(n, "lineup", 0.05, 0.02, 0.08) for n in ("greedy", "aggressive")]
    v = _classify([ref, *up])
    assert v["status"] == "depends on players"
    assert [c["setting"] for c in v["calls"] if c["against"]] == ["greedy", "aggressive"]
    # a wide reference interval and nothing against: too few games
    wide = _setting("balanced", "lineup", 0.02, -0.03, 0.07, reference=True)
    assert _classify([wide])["status"] == "inconclusive"


# --------------------------------------------------------------------------------- degenerate
def test_degenerate_play_is_flagged_by_each_threshold():
    t = Thresholds()
    same = Outcomes(Counter({(3, 2, 3, 6): 999, (2, 2, 3, 6): 1}))
    d = degenerate(same, t)
    assert d["degenerate"] and d["most_common_share"] == 0.999 and d["distinct_share"] == 0.002
    assert "scores 3/2/3, 6 rounds" in d["reasons"][0]
    varied = Outcomes(Counter({(i, i % 3, 1, 8): 1 for i in range(100)}))
    assert not degenerate(varied, t)["degenerate"]
    assert degenerate(Outcomes(varied.counts, limit=50), t)["reasons"][0].startswith("50.0%")
    nothing = Outcomes(varied.counts, no_score=60)
    assert "no seat scores" in degenerate(nothing, t)["reasons"][0]
    assert not degenerate(nothing, Thresholds(no_score=0.7))["degenerate"]


# --------------------------------------------------------------------------------- seating
def test_population_lineups_depend_only_on_the_game_index():
    spec = get_game("sunken-city")
    pool = spec.parse_policies(",".join(spec.presets), len(spec.presets))
    rules = spec.rules_cls()
    one = play_chunk("sunken-city", 3, rules, pool, 5, 0, 60, POPULATION, False, True)[2]
    parts = [
        play_chunk("sunken-city", 3, rules, pool, 5, f, 20, POPULATION, False, True)[2]
        for f in (0, 20, 40)
    ]
    assert np.array_equal(one, np.concatenate(parts))
    cols = [spec.columns.index(f"policy_{s}") for s in range(3)]
    lineups = one[:, cols]
    assert lineups.min() >= 0 and lineups.max() < len(pool)
    # each group of 3 games plays one drawn lineup in its 3 rotations
    for g in range(0, 60, 3):
        for k in range(3):
            assert np.array_equal(lineups[g + k], np.roll(lineups[g], -k))
    draws = [population_entry(3, i, 0, 5) for i in range(3000)]
    assert set(draws) == set(range(5))  # every preset is drawn


# --------------------------------------------------------------------------------- the command
# one temporary component reading per game (the real readings live in each game's rules.py)
READINGS = {
    "sunken-city": {"chip_supply": 4},
    "sumeria": {"rounds": 5},
    "secrets-of-the-sea": {"bonus_points": 3},
    "sunken-treasure": {"sharks_to_attack": 4},
    "chutes-and-ladders": {"spinner": (1, 2, 3, 4, 5, 6, 6)},
    "pig": {"target": 50},
}


@pytest.fixture
def reading():
    """Register READINGS as the reading 'test-reading' of every game; removed afterwards."""
    for game, changes in READINGS.items():
        get_game(game).variants.add_reading(
            "test-reading", "a test reading", "a test's reconstruction", "the test", **changes
        )
    yield "test-reading"
    for game in READINGS:
        registry = get_game(game).variants
        del registry.items["test-reading"]
        del registry.readings["test-reading"]


def test_json_shape_and_the_seat_verdict(reading, monkeypatch, capsys, tmp_path):
    rules = tmp_path / "mine.toml"
    rules.write_text(
        "[reading.my-cards]\ncards = '0/6/0,1/6/0,2/5/1,3/4/1,4/3/1,2/5/1'\n"
        "[variant.gentle]\nstreets_space1 = [21, 24, 26]\n"
    )
    args = ["robustness", "sunken-city", "--players", "3", "--games", "40", "--json"]
    folder = tmp_path / "rob"
    args += ["--rules-file", str(rules), "--out", str(folder)]
    code, out, err = run_main(args, monkeypatch, capsys)
    assert code == 0, err
    js = json.loads(out)
    # the package's version travels to both JSONs (provenance), not ""
    written = json.loads((folder / "robustness.json").read_text())
    assert written["version"] == js["version"] == metadata.version("balance-analyser") != ""
    assert {"game", "players", "games", "settings", "verdicts", "thresholds", "readings"} <= set(js)
    assert js["readings"][reading]["replaces"] == "a test's reconstruction"
    assert "rules file" in js["readings"]["my-cards"]["source"]
    # a [variant.NAME] table is a variant (an arm of every setting but search), not a reading
    assert "gentle" not in js["readings"] and js["variants"][-1] == "gentle"
    assert all(s["arms"][-1] == "gentle" for s in js["settings"] if len(s["arms"]) > 1)
    names = [s["name"] for s in js["settings"]]
    spec = get_game("sunken-city")
    assert names[: len(spec.presets)] == spec.presets
    assert {"mixed", "search:budget=7", "search:budget=28", reading, "my-cards"} <= set(names)
    search = [s for s in js["settings"] if s["name"].startswith("search")]
    assert [s["games"] for s in search] == [4, 2] and all(len(s["arms"]) == 1 for s in search)
    for s in js["settings"]:
        assert 0 < s["distinct_share"] <= 1 and isinstance(s["degenerate"], bool)
    statuses = set(STATUSES)
    seat = [v for v in js["verdicts"] if v["verdict"] == "3p/seat_pair/1-2"]
    assert len(seat) == 1 and seat[0]["status"] in statuses
    states = {"agrees", "inconclusive", "not detected", "differs", "reversed", "shorter", "longer"}
    for v in js["verdicts"]:
        assert v["status"] in statuses and v["players"] == 3
        for c in v["calls"]:
            assert c["state"] in states


def test_package_version_falls_back_to_pyproject(monkeypatch):
    """Not installed (a bare checkout): the version written is pyproject.toml's."""
    from analysis import render

    def not_installed(name):
        raise metadata.PackageNotFoundError(name)

    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    expected = tomllib.loads(pyproject.read_text())["project"]["version"]
    assert render.package_version() == metadata.version("balance-analyser") == expected
    monkeypatch.setattr(render, "_installed_version", not_installed)
    assert render.package_version() == expected
    monkeypatch.setattr(render, "PYPROJECT", Path("/nonexistent/pyproject.toml"))
    assert render.package_version() == "0+unknown"


def test_resume_plays_only_the_missing_settings_and_gives_the_same_result(tmp_path):
    ck = tmp_path / "rob.json"
    kw = dict(seed=3, settings=["greedy"], chunk_size=16)
    whole = run_robustness(get_game("sunken-city"), [2], 32, checkpoint=str(ck), **kw)
    saved = json.loads(ck.read_text())
    assert sorted(saved["settings"]) == ["2p/lineup/balanced", "2p/lineup/greedy"]
    del saved["settings"]["2p/lineup/greedy"]  # as if interrupted in the second setting
    ck.write_text(json.dumps(saved))
    again = run_robustness(get_game("sunken-city"), [2], 32, checkpoint=str(ck), resume=True, **kw)
    assert again.resumed == ["2p/lineup/balanced"]
    a, b = robustness(whole).to_json(), robustness(again).to_json()
    for x in (a, b):
        x.pop("elapsed_s"), x.pop("resumed")
        for s in x["settings"]:
            s.pop("elapsed_s"), s.pop("resumed")
    assert a == b


@pytest.mark.parametrize("game", sorted(READINGS))
def test_every_game_plays_its_grid(game, reading):
    """The reference, the mixed population and the registry's reading, classified."""
    spec = get_game(game)
    p = max(spec.min_players, 2)
    run = run_robustness(get_game(game), [p], 16, seed=2, settings=["mixed", reading])
    a = robustness(run)
    assert [s["name"] for s in a.settings] == [spec.default_policy, "mixed", reading]
    assert [s["name"] for s in a.settings if s["kind"] == "components"] == [reading]
    assert any(v["verdict"] == f"{p}p/length" for v in a.verdicts)
    assert sorted(READINGS) == sorted(all_games())


def test_interrupt_keeps_the_finished_settings(tmp_path, monkeypatch, capsys):
    """Ctrl-C in the second setting: status 130, one line naming --resume, the first setting
    in the checkpoint; --resume then plays the rest."""
    from simcore.studies import robustness as rob

    fold = rob.SettingJob.fold

    def stop_in_greedy(self, i, result):
        if self.setting.name == "greedy":
            raise KeyboardInterrupt
        return fold(self, i, result)

    ck = tmp_path / "rob.json"
    args = ["robustness", "sunken-city", "-n", "2", "-g", "16", "--setting", "greedy"]
    monkeypatch.setattr(rob.SettingJob, "fold", stop_in_greedy)
    code, _, err = run_main([*args, "--checkpoint", str(ck)], monkeypatch, capsys)
    # the progress line of the finished setting (stderr is not a terminal), then one line
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 130 and "--resume" in lines[-1] and "Traceback" not in err
    assert len(lines) == 2 and "balanced in every seat" in lines[0]
    assert list(json.loads(ck.read_text())["settings"]) == ["2p/lineup/balanced"]
    monkeypatch.setattr(rob.SettingJob, "fold", fold)
    code, out, err = run_main(
        [*args, "--checkpoint", str(ck), "--resume", "--json"], monkeypatch, capsys
    )
    assert code == 0, err
    assert json.loads(out)["resumed"] == ["2p/lineup/balanced"]


def test_the_feel_metrics_per_setting_and_the_variants_effects_on_them():
    """Each setting carries how the game felt (compare's values of its first arm), and each
    variant's effect on each feel metric is a verdict, classified and worded like the
    others (its own unit; a rate in points)."""
    from analysis.compare import arm_values
    from analysis.robustness import FEEL, findings, is_feel, sentence

    run = run_robustness(get_game("sunken-city"), [3], 200, seed=4, settings=["greedy"])
    a = robustness(run)
    ref = a.settings[0]
    assert set(ref["feel"]) == set(FEEL)
    vals = arm_values(run.runs[ref["key"]])
    lead = vals[(vals.metric == "lead_changes") & (vals.arm == "base")].iloc[0]
    assert ref["feel"]["lead_changes"]["value"] == float(lead.value)
    assert (
        ref["feel"]["lead_changes"]["ci_low"] < lead.value < ref["feel"]["lead_changes"]["ci_high"]
    )
    feel = [v for v in a.verdicts if is_feel(v["verdict"])]
    variants = {v["verdict"].split("/")[2] for v in feel}
    assert {"short", "no-chips"} <= variants
    assert {v["verdict"].rsplit("/", 1)[1] for v in feel} == set(FEEL)
    chips = next(v for v in feel if v["verdict"] == "3p/effect/no-chips/lead_changes")
    if chips["status"] != "not measured":
        words = sentence(chips)
        assert "per game" in words and "lead changes" in chips["claim"]
    f = findings(a)
    assert all(is_feel(v["verdict"]) for v in f["feel"])
    assert not any(
        is_feel(v["verdict"]) for k in ("holds", "players", "components", "both") for v in f[k]
    )
