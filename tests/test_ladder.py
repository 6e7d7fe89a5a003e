"""`balance ladder` (issue #36): every registered game's ladder runs (small settings); the known
answers of the reference games (Pig: optimal > hold-at > random, search on hold-at gains with
its budget and does not pass optimal, optimal against optimal the first player wins 0.5306;
Chutes and Ladders: one rung, skill exactly 0); the rating fit on constructed data; bad input;
the JSON keys; the same result for 1 and 2 threads, other chunkings and a resumed checkpoint.
"""

from __future__ import annotations

import json
import math
import shlex
from types import SimpleNamespace
from unittest.mock import patch

import numpy as np
import pytest
from typer.testing import CliRunner

import cli
from analysis import ladder as al
from analysis import ladder_report
from simcore import get_game
from simcore.frame.registry import all_games
from simcore.studies import ladder as sl
from tests.conftest import run_main

GAMES = all_games()
SMALL = dict(search_games=10, top_budget=2, search_rungs=2)  # search rungs of budget 1 and 2


def _players(spec) -> int:
    return max(spec.nearest_players(3), 2)


def _comparable(d: dict) -> dict:
    """A ladder's JSON without what is measured of the machine (times)."""
    out = json.loads(json.dumps(d))
    out.pop("elapsed_s")
    for r in out["rungs"]:
        r.pop("cpu_ms_per_game")
    for b in out["balance"]:
        b.pop("cpu_ms")
    for m in out["matches"]:
        m.pop("cpu_s")
        m.pop("elapsed_s")
    return out


def _json(run) -> dict:
    return _comparable(ladder_report.plain(ladder_report.to_json(al.analyse(run))))


# --------------------------------------------------------------------------------- every game
@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_ladder_runs(game):
    spec = GAMES[game]
    n = _players(spec)
    small = SMALL if "search" in spec.policies else dict(SMALL, top_budget=None)  # no search rung
    run = sl.run_ladder(get_game(game), n, 20, seed=3, **small)
    a = al.analyse(run)
    names = [r.name for r in run.rungs]
    assert run.reference in names and len(set(names)) == len(names)
    ref = names.index(run.reference)
    assert a.ratings.rating[ref] == 0 and a.ratings.se[ref] == 0
    assert np.isfinite(a.ratings.rating).all() and np.isfinite(a.ratings.se).all()
    assert len(a.balance) == len(names)
    assert all(b["games"] == (10 if ":" in b["rung"] else 20) for b in a.balance)
    if "search" in spec.policies:
        assert [r.name for r in run.rungs if r.kind == "search"] == [
            "search:budget=1",
            "search:budget=2",
        ]
        assert len(a.separation) == len(names) - 1
    text = "\n".join(ladder_report.text(a))
    assert "Ratings (Elo points" in text and "Balance at every level" in text
    json.dumps(ladder_report.plain(ladder_report.to_json(a)), allow_nan=False)


def test_default_rungs_double_up_to_four_times_the_default_budget():
    sc = GAMES["sunken-city"]
    rungs = sl.ladder_rungs(sc)
    assert [r.name for r in rungs] == [
        "random",
        "balanced",
        "greedy",
        "cautious",
        "aggressive",
        "search:budget=7",
        "search:budget=14",
        "search:budget=28",
        "search:budget=56",
        "search:budget=112",
    ]
    st = sl.ladder_rungs(GAMES["sunken-treasure"], search_rungs=3)
    assert [r.budget for r in st if r.kind == "search"] == [1024, 2048, 4096]
    mine = sl.ladder_rungs(sc, 64, 1, ["search:budget=512,base=greedy", "greedy:greed=2"])
    assert [r.name for r in mine][-3:] == [
        "search:budget=64",
        "search:budget=512,base=greedy",
        "greedy:greed=2",
    ]


def test_the_plan_rates_each_rung_against_the_reference_and_the_rung_before():
    rungs = sl.ladder_rungs(GAMES["pig"], 64, 2)
    plan = sl.match_plan(rungs, "hold-at", 100, 20, 2)
    assert [m.key for m in plan] == [
        "self/random",
        "random/vs/hold-at",
        "self/hold-at",
        "self/optimal",
        "optimal/vs/hold-at",
        "self/search:budget=32",
        "search:budget=32/vs/hold-at",
        "search:budget=32/vs/optimal",
        "self/search:budget=64",
        "search:budget=64/vs/hold-at",
        "search:budget=64/vs/search:budget=32",
    ]
    assert [m.games for m in plan] == [100] * 5 + [20] * 6


# --------------------------------------------------------------------------------- the fit
def _fake_run(points: dict[tuple[str, str], list[int]], players: int = 2):
    """A LadderRun-like object of rating matches with these pairwise histograms."""
    names = list(dict.fromkeys(n for pair in points for n in pair))
    matches = [
        SimpleNamespace(match=sl.Match(a, b, int(sum(h))), points=np.array(h))
        for (a, b), h in points.items()
    ]
    return SimpleNamespace(
        rungs=[sl.Rung(n, "preset") for n in names],
        reference=names[1],
        matches=matches,
        players=players,
    )


def test_ratings_recover_a_known_elo_gap():
    # A beats the reference in 64% of 10,000 games: 100 Elo points (400 log10(0.64 / 0.36))
    run = _fake_run({("a", "ref"): [3600, 0, 6400]})
    r = al.fit_ratings(run)
    assert r.rating[1] == 0
    assert r.rating[0] == pytest.approx(400 * math.log10(0.64 / 0.36), abs=1e-6)
    # the binomial standard error of a logit: 1 / sqrt(n p q), in Elo points
    assert r.se[0] == pytest.approx(al.ELO / math.sqrt(10_000 * 0.64 * 0.36), rel=1e-3)
    assert not r.bound


def test_a_rung_that_never_wins_is_a_bound():
    run = _fake_run({("weak", "ref"): [500, 0, 0], ("mid", "ref"): [250, 0, 250]})
    r = al.fit_ratings(run)
    assert r.bound == {"weak": "below"}
    assert np.isfinite(r.rating[0]) and r.rating[0] < -200


def test_three_player_points_count_each_opponent():
    # 3 players: the rung's half-points against its two opponents, 0..4; 2 is one win one loss
    run = _fake_run({("a", "ref"): [0, 0, 1000, 0, 0]}, players=3)
    assert al.fit_ratings(run).rating[0] == pytest.approx(0, abs=1e-6)


def test_pairwise_points_follow_the_finishing_order():
    import pandas as pd

    # one row a game: the winners' mask, then each seat's entry, score and tiebreak
    games = [
        (0b010, (0, 1, 2), (5, 9, 1)),
        (0b011, (1, 0, 2), (7, 7, 3)),
        (0b100, (2, 0, 1), (1, 2, 9)),
    ]
    frame = pd.DataFrame(
        [
            {"win_mask": mask}
            | {f"policy_{s}": entry[s] for s in range(3)}
            | {f"score_{s}": score[s] for s in range(3)}
            | {f"tiebreak_{s}": 0 for s in range(3)}
            for mask, entry, score in games
        ]
    )
    # game 0: entry 0 in seat 0, second (below seat 1, above seat 2): 2 half-points; game 1:
    # entry 0 in seat 1 shares first with seat 0, above seat 2: 1 + 2; game 2: entry 0 in
    # seat 1, second: 2
    assert sl.pairwise_points(frame, 3).tolist() == [2, 3, 2]


def test_skill_classes_from_constructed_levels():
    from simcore.base.verdicts import Wording, z_verdict

    def rows(estimates, se=0.5):
        out = []
        for k, e in enumerate(estimates):
            v = z_verdict("q", "fpa", "points", e, se, 10_000, Wording("+", "-", "0"))
            out.append(
                {
                    "rung": f"r{k}",
                    "rating": 100.0 * k,
                    "fpa": v,
                    "degenerate": {"degenerate": False},
                }
            )
        return out

    def cls(estimates, **kw):
        return al.skill_class("the first-player advantage", rows(estimates, **kw), "fpa", 3)

    assert cls([5, 5, 5, 5])["class"] == "the same at every level"
    varies = "present at every level, of a size that varies (not with skill)"
    assert cls([5, 15, 5, 15])["class"] == varies
    rev = cls([6, 3, -3, -6])
    assert rev["class"] == "reverses with skill" and 100 <= rev["turns_at_rating"] <= 200
    assert cls([2, 4, 8, 12])["class"] == "grows with skill"
    appears = cls([0, 0, 6, 12])
    assert appears["class"] == "appears only from a rating"
    assert appears["appears_from_rating"] == 200
    assert cls([12, 8, 0.2, 0])["class"] == "shrinks with skill"
    assert cls([0.1, -0.1, 0, 0.1], se=0.2)["class"] == "not detected at any level"
    assert cls([0, 3, 0, 3], se=2.0)["class"] == "inconclusive (too few games)"


# --------------------------------------------------------------------------------- known answers
@pytest.fixture(scope="module")
def pig():
    """Pig's ladder: 20,000 games a preset match, search on hold-at at budgets 16, 32, 64 with
    1,500 games a match (about 10 s)."""
    return sl.run_ladder(
        get_game("pig"), 2, 20_000, search_games=1_500, top_budget=64, search_rungs=3
    )


def test_pig_ladder_orders_optimal_above_hold_at_above_random(pig):
    a = al.analyse(pig)
    r = a.ratings
    at = {n: i for i, n in enumerate(r.names)}
    assert r.reference == "hold-at"
    assert r.low(at["optimal"]) > 0  # above the reference beyond its interval
    assert r.high(at["random"]) < 0
    # optimal is the strongest rung, random the weakest: the skill measure spans them
    assert a.skill["strongest"] == "optimal" and a.skill["weakest"] == "random"
    assert a.skill["record"].significant and a.skill["record"].estimate > 0


def test_pig_search_gains_with_budget_and_stays_below_optimal(pig):
    r = al.analyse(pig).ratings
    at = {n: i for i, n in enumerate(r.names)}
    budgets = [at[f"search:budget={b}"] for b in (16, 32, 64)]
    for lo, hi in zip(budgets, budgets[1:]):  # never significantly weaker with more budget
        assert r.rating[hi] - r.rating[lo] > -al.Z95 * r.diff_se(hi, lo)
    top, bottom = budgets[-1], budgets[0]
    assert r.rating[top] - r.rating[bottom] > al.Z95 * r.diff_se(top, bottom)
    for i in budgets:  # does not pass optimal beyond its interval
        assert r.rating[i] - r.rating[at["optimal"]] < al.Z95 * r.diff_se(i, at["optimal"])


def test_pig_optimal_in_both_seats_first_player_share(pig):
    row = next(b for b in al.analyse(pig).balance if b["rung"] == "optimal")
    seat0 = row["seats"][0]
    assert row["games"] == 20_000
    assert seat0["ci_low"] <= 0.5306 <= seat0["ci_high"]  # Neller & Presser 2004


def test_chutes_and_ladders_has_one_rung_and_no_skill(capsys, monkeypatch):
    code, out, err = run_main(
        ["ladder", "chutes-and-ladders", "-n", "2", "--games", "20000", "--json"],
        monkeypatch,
        capsys,
    )
    assert code == 0, err
    d = json.loads(out)
    assert [r["rung"] for r in d["rungs"]] == ["spinner"]
    assert d["no_decisions"] and d["separation"] == [] and d["skill_classes"] == []
    rec = d["skill"]["record"]
    assert rec["estimate"] == 0 and rec["low"] == 0 and rec["high"] == 0
    # the first player's share of 2-player games: 0.50791 exactly (the Markov chain of the
    # board, docs/rules-chutes-and-ladders.md); measured 0.5057 (0.4988 to 0.5126) here
    seat0 = d["balance"][0]["seats"][0]
    assert seat0["ci_low"] <= 0.50791 <= seat0["ci_high"]
    code, out, err = run_main(
        ["ladder", "chutes-and-ladders", "-n", "2", "--games", "100"], monkeypatch, capsys
    )
    assert "every player plays the same game" in out
    assert "  exactly 0 Elo points: one rung" in out and "no skill detected" not in out


# --------------------------------------------------------------------------------- output
def test_json_keys(capsys, monkeypatch, tmp_path):
    plot = tmp_path / "ladder.png"
    args = ["ladder", "pig", "--games", "40", "--search-games", "10", "--top-budget", "4"]
    code, out, err = run_main(
        [*args, "--search-rungs", "2", "--json", "--out", str(plot)], monkeypatch, capsys
    )
    assert code == 0, err
    d = json.loads(out)
    assert {
        "game",
        "players",
        "seed",
        "games",
        "search_games",
        "rules_hash",
        "reference",
        "model",
        "rungs",
        "order",
        "separation",
        "skill",
        "balance",
        "skill_classes",
        "matches",
    } <= set(d)
    assert {
        "rung",
        "kind",
        "rating",
        "rating_low",
        "rating_high",
        "bound",
        "cpu_ms_per_game",
    } <= set(d["rungs"][0])
    b = d["balance"][0]
    assert {"seats", "fpa", "largest_gap", "rounds", "feel", "degenerate"} <= set(b)
    assert 0 <= b["seats"][0]["win_rate"] <= 1  # shares in the JSON
    assert {"class", "sentence", "records", "trend"} <= set(d["skill_classes"][0])
    assert plot.stat().st_size > 0


BAD = {
    "unknown-rung": "ladder pig --policy nobody",
    "two-players-in-one-rung": "ladder pig --policy hold-at,optimal",
    "budget-out-of-range": "ladder pig --top-budget 0",
    "budget-too-high": "ladder pig --top-budget 200000",
    "too-few-games": "ladder pig --games 5",
    "too-few-search-games": "ladder pig --search-games 3",
    "zero-games": "ladder pig --games 0",
    "negative-games": "ladder pig --games -10",
    "solo": "ladder chutes-and-ladders -n 1",
    "rung-to-a-game-without-decisions": "ladder chutes-and-ladders --policy spinner",
    "search-rungs": "ladder pig --search-rungs 13",
    "same-rung-twice": "ladder pig --policy optimal",
    "resume-without-checkpoint": "ladder pig --resume",
}


@pytest.mark.parametrize("args", BAD.values(), ids=BAD.keys())
def test_bad_input_is_one_line_and_exit_2(args, capsys, monkeypatch):
    code, out, err = run_main(shlex.split(args), monkeypatch, capsys)
    assert code == 2, (code, out, err)
    assert len(err.splitlines()) == 1 and err.startswith("error: "), err


def test_the_command_hands_its_options_to_the_library():
    with (
        patch.object(sl, "run_ladder", return_value="RUN") as lib,
        patch.object(al, "analyse", return_value="READ"),
        patch.object(ladder_report, "render") as shown,
    ):
        res = CliRunner().invoke(
            cli.app,
            shlex.split(
                "ladder sunken-city --games 1e4 --search-games 800 --top-budget 128 "
                "--search-rungs 3 --policy greedy:greed=2 --seed 7 --threads 1 --json"
            ),
        )
    assert res.exit_code == 0, res.output
    assert lib.call_args.args == (get_game("sunken-city"), 3, 10_000)
    assert lib.call_args.kwargs == {
        "search_games": 800,
        "seed": 7,
        "top_budget": 128,
        "search_rungs": 3,
        "policies": ["greedy:greed=2"],
        "checkpoint": None,
        "resume": False,
        "overrides": {},
        "threads": 1,
        "backend": "local",
        "scheduler": None,
        "workers": None,
        "progress": "lines",  # a line per finished match on stderr, also with --json
    }
    assert shown.call_args.args[0] == "READ" and shown.call_args.args[2] is True


# --------------------------------------------------------------------------------- determinism
def test_same_seed_same_ladder_for_threads_and_chunks():
    kw = dict(seed=5, search_games=12, top_budget=4, search_rungs=2)
    one = _json(sl.run_ladder(get_game("pig"), 2, 60, threads=1, **kw))
    two = _json(sl.run_ladder(get_game("pig"), 2, 60, threads=2, chunk_size=7, **kw))
    assert one == two


def test_a_resumed_ladder_is_the_uninterrupted_one(tmp_path):
    kw = dict(seed=2, search_games=12, top_budget=4, search_rungs=2, compare_variant="short")
    ck = tmp_path / "ladder.ckpt"
    whole = sl.run_ladder(get_game("pig"), 2, 60, checkpoint=str(ck), **kw)
    data = json.loads(ck.read_text())
    assert set(data["matches"]) == {m.match.key for m in whole.matches}
    # as if interrupted after the first three matches
    keep = [m.match.key for m in whole.matches][:3]
    data["matches"] = {k: data["matches"][k] for k in keep}
    ck.write_text(json.dumps(data))
    resumed = sl.run_ladder(get_game("pig"), 2, 60, checkpoint=str(ck), resume=True, **kw)
    assert resumed.resumed == keep
    a, b = _json(whole), _json(resumed)
    b.pop("resumed")
    a.pop("resumed")
    assert a == b and a["variant_skill"] is not None
    with pytest.raises(sl.InputError, match="different run"):
        sl.run_ladder(get_game("pig"), 2, 60, checkpoint=str(ck), resume=True, **dict(kw, seed=3))


def test_the_dask_backend_gives_the_local_ladder():
    pytest.importorskip("distributed")
    kw = dict(seed=4, search_games=12, top_budget=2, search_rungs=1)
    local = _json(sl.run_ladder(get_game("pig"), 2, 40, **kw))
    dask = _json(
        sl.run_ladder(get_game("pig"), 2, 40, chunk_size=16, backend="dask", workers=2, **kw)
    )
    assert dask == local


def test_a_policy_file_adds_its_preset_as_a_rung():
    from simcore.frame.registry import GameSpec

    with (
        patch.object(GameSpec, "add_preset_file") as load,
        patch.object(sl, "run_ladder", return_value="RUN"),
        patch.object(al, "analyse"),
        patch.object(ladder_report, "render"),
    ):
        res = CliRunner().invoke(cli.app, shlex.split("ladder pig --policy-file mine.toml"))
    assert res.exit_code == 0, res.output
    assert load.call_args.args == ("mine.toml",)


def test_a_preset_files_player_is_a_preset_rung(tmp_path):
    import dataclasses

    path = tmp_path / "hold-at-25.toml"
    path.write_text('game = "pig"\nname = "hold-at-25"\npolicy = "hold-at"\n[weights]\nn = 25\n')
    spec = dataclasses.replace(GAMES["pig"])  # a copy: the registered game keeps its players
    spec.add_preset_file(str(path))
    names = [r.name for r in sl.ladder_rungs(spec, 64, 1)]
    assert names == ["random", "hold-at", "optimal", "hold-at-25", "search:budget=64"]


def test_a_shorter_pig_makes_skill_matter_less():
    """Pig to 50 instead of 100: fewer decisions, more luck; every rating match is played
    again under `short` on the same games and the spread of the ladder (random to optimal)
    shrinks: a paired verdict."""
    run = sl.run_ladder(
        get_game("pig"), 2, 4_000, search_rungs=0, compare_variant="short", seed=6, threads=2
    )
    v = al.analyse(run).variant
    rec = v["record"]
    # the rating matches of random, trained and optimal against hold-at, and of optimal
    # against trained (the rung below it), each under both rules
    assert rec.key == "2p/ladder/skill/effect/short" and rec.games == 16_000
    assert rec.sign == -1 and rec.words == "`short` makes skill matter less"
    assert v["variant_spread"] < v["spread"]
    d = ladder_report.plain(ladder_report.to_json(al.analyse(run)))
    assert d["variant_skill"]["record"]["words"] == rec.words
    with pytest.raises(sl.InputError, match="one rung"):
        sl.run_ladder(get_game("chutes-and-ladders"), 2, 100, compare_variant="no-links")
