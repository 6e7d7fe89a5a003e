"""`balance robustness --ladder` (issue #36, item 4): the players axis is the ladder's rungs in
self-play, each named with its rating from the ladder's own rating matches and fit; the
classified sentence says where along the rungs a verdict changes (constructed records); the
same games and ratings as `balance ladder`; determinism and resume; bad input one line and
status 2; without --ladder nothing of it appears."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from analysis.ladder import fit_ratings, self_play
from analysis.robustness import classify, robustness, sentence, text
from simcore.base.verdicts import Wording, z_verdict
from simcore.frame.registry import get_game
from simcore.studies.ladder import ladder_rungs, match_plan, run_ladder
from simcore.studies.robustness import run_robustness
from tests.conftest import run_main

SMALL = dict(seed=2, top_budget=2, search_rungs=2, search_games=10)  # search budgets 1 and 2


@pytest.fixture(scope="module")
def small():
    """3-player Sunken City, 40 games a setting and a preset rating match, 10 with search."""
    return run_robustness(get_game("sunken-city"), [3], 40, ladder=True, **SMALL)


def _plain(js: dict) -> dict:
    """A robustness JSON without the machine's times."""
    out = json.loads(json.dumps(js, default=str))
    out.pop("elapsed_s"), out.pop("resumed")
    for s in out["settings"]:
        s.pop("elapsed_s"), s.pop("resumed")
    return out


# --------------------------------------------------------------------------------- the run
def test_the_rungs_are_the_players_settings(small):
    spec = get_game("sunken-city")
    rungs = ladder_rungs(spec, 2, 2, trained=True)
    lineups = [s for s in small.settings if s.kind == "lineup"]
    assert [s.name for s in lineups] == [r.name for r in rungs]
    assert [s.name for s in lineups if s.reference] == ["balanced"]
    for s, r in zip(lineups, rungs):
        assert s.policies == r.name and s.seating is False  # every seat, seats fixed
        assert s.games == (10 if r.is_search else 40)
        assert s.variants == (("base",) if r.is_search else tuple(spec.report_variants))
    # the readings are kept; the mixed population is not a rung
    assert "mixed" not in [s.name for s in small.settings]
    assert any(s.kind == "components" for s in small.settings)
    # the rating matches are the ladder's match plan without its self-play
    plan = match_plan(rungs, "balanced", 40, 10, 3)
    assert [m.match for m in small.ladders[3].matches] == [m for m in plan if m.other]


def test_the_same_games_and_ratings_as_balance_ladder(small):
    ladder = run_ladder(get_game("sunken-city"), 3, 40, **SMALL)
    mine, theirs = robustness(small).ratings[3], fit_ratings(ladder)
    assert mine.names == theirs.names
    assert np.array_equal(mine.rating, theirs.rating) and np.array_equal(mine.cov, theirs.cov)
    own = self_play(ladder)
    for s in small.settings:
        if s.kind == "lineup":
            wins = small.runs[s.key].results[0].summary.seat_wins
            assert np.array_equal(wins, own[s.name].summary.seat_wins), s.name


def test_rungs_are_named_with_their_ratings_and_degenerate_ones_left_out(small):
    a = robustness(small)
    r = a.ratings[3]
    js = a.to_json()
    assert [x["rung"] for x in js["ladder"][0]["rungs"]] == r.names
    for s in a.settings:
        if s["kind"] != "lineup":
            assert "rating" not in s and "Elo" not in s["label"]
            continue
        i = r.names.index(s["name"])
        assert s["rating"] == float(r.rating[i])
        m = re.fullmatch(r"(.+) in every seat \(([+-]\d+) Elo( or lower| or higher)?\)", s["label"])
        assert m and m[1] == s["name"] and int(m[2]) == round(r.rating[i]), s["label"]
    ref = next(s for s in a.settings if s["reference"])
    assert ref["label"] == "balanced in every seat (+0 Elo)" and ref["rating"] == 0
    # random never scores and cautious replays one game: flagged, left out, still rated
    out = {s["name"] for s in a.settings if s["degenerate"]}
    assert {"random", "cautious"} <= out
    fpa = next(v for v in a.verdicts if v["verdict"] == "3p/fpa")
    assert {n.split(" in every seat")[0] for n in fpa["left_out"]} == out
    lines = text(a)
    rated = next(x for x in lines if "the ladder's rungs rated" in x)
    assert "balanced +0 Elo" in rated and "search:budget=2" in rated
    assert any("search:budget=2 in every seat (" in x and " Elo)" in x for x in lines)


def test_determinism_other_chunks_and_a_resumed_checkpoint(small, tmp_path):
    whole = _plain(robustness(small).to_json())
    again = run_robustness(get_game("sunken-city"), [3], 40, ladder=True, chunk_size=7, **SMALL)
    assert _plain(robustness(again).to_json()) == whole
    ck = tmp_path / "rob.json"
    run_robustness(get_game("sunken-city"), [3], 40, ladder=True, checkpoint=str(ck), **SMALL)
    saved = json.loads(ck.read_text())
    rating = [k for k in saved["settings"] if "/rating/" in k]
    assert "3p/rating/search:budget=2/vs/search:budget=1" in rating
    for k in (rating[-1], "3p/lineup/greedy"):  # as if interrupted in both kinds of job
        del saved["settings"][k]
    ck.write_text(json.dumps(saved))
    resumed = run_robustness(
        get_game("sunken-city"), [3], 40, ladder=True, checkpoint=str(ck), resume=True, **SMALL
    )
    assert rating[0] in resumed.resumed and rating[-1] not in resumed.resumed
    assert _plain(robustness(resumed).to_json()) == whole


def test_without_ladder_nothing_changes():
    run = run_robustness(get_game("sunken-city"), [2], 16, seed=2, settings=["greedy"])
    a = robustness(run)
    assert run.ladders == {} and a.ratings == {} and "ladder" not in a.to_json()
    assert all("rating" not in s and "Elo" not in s["label"] for s in a.settings)
    assert all("skill" not in v for v in a.verdicts)


# --------------------------------------------------------------------------------- skill words
FPA_WORDS = Wording(
    "the first player has an advantage",
    "the first player is at a disadvantage",
    "no first-player advantage detected",
)


def _rung(name, rating, estimate, se, *, reference=False, degenerate=False, kind="lineup"):
    """A hand-made setting measuring the first-player advantage (points), rated."""
    v = z_verdict(
        "3p/fpa", "seat 0's win rate minus its fair share", "points", estimate, se, 2000, FPA_WORDS
    )
    s = {
        "key": f"3p/{kind}/{name}",
        "players": 3,
        "kind": kind,
        "name": name,
        "label": f"{name} in every seat",
        "reference": reference,
        "degenerate": degenerate,
        "records": [v.as_json()],
    }
    if kind == "lineup":
        s["rating"] = rating
    return s, v


def _ladder(*effects):
    """The rungs greedy, balanced (the reference), search:budget=16 and search:budget=64, as
    many as (estimate, se) effects are given, in that order."""
    rated = [("greedy", -63), ("balanced", 0), ("search:budget=16", 212), ("search:budget=64", 246)]
    return [
        _rung(n, r, e, se, reference=n == "balanced") for (n, r), (e, se) in zip(rated, effects)
    ]


def _classified(rungs):
    return classify([s for s, _ in rungs], {s["key"]: {v.key: v} for s, v in rungs}, 3, "3p/fpa")


def test_fails_only_with_strong_players():
    rungs = [
        _rung("greedy", -63, 4.0, 1.0),
        _rung("balanced", 0, 4.5, 1.0, reference=True),
        _rung("cautious", -262, 90.0, 0.1, degenerate=True),  # left out
        _rung("search:budget=16", 212, -9.0, 2.5),
        _rung("search:budget=64", 246, -11.0, 2.5),
        _rung("dark-b", 0, 3.0, 1.0, kind="components"),  # not a rung
    ]
    v = _classified(rungs)
    assert v["status"] == "depends on players"
    assert v["skill"]["class"] == "fails only with strong players"
    assert v["skill"]["text"] == (
        "holds up to +0 Elo; reversed from +212 Elo (search:budget=16 and stronger)"
    )
    assert v["skill"]["changes_at_rating"] == 212
    assert [r["rating"] for r in v["skill"]["rungs"]] == [-63, 0, 212, 246]
    words = sentence(v)
    assert words.startswith("3 players: the first player has an advantage: +4.5 points")
    assert "(depends on players); by skill: holds up to +0 Elo; reversed from +212 Elo" in words


def test_gone_with_weak_players_and_undecided_ones():
    # the weakest rung finds nothing and differs from the reference; greedy cannot decide
    rungs = [
        _rung("aggressive", -103, 0.0, 0.3),
        _rung("greedy", -63, 2.0, 2.0),
        _rung("balanced", 0, 4.5, 1.0, reference=True),
        _rung("search:budget=16", 212, 5.0, 1.0),
    ]
    v = _classified(rungs)
    assert v["skill"]["class"] == "fails only with weak players"
    assert v["skill"]["text"] == (
        "gone up to -103 Elo (aggressive); holds or is undecided from -63 Elo"
    )


def test_appears_only_with_strong_players_and_reverses_with_skill():
    flat = _ladder((0.2, 0.8), (0.1, 0.8), (-9.0, 2.0), (-11.0, 2.0))
    v = _classified(flat)
    assert v["status"] == "depends on players"
    assert v["skill"]["class"] == "appears only with strong players"
    assert v["skill"]["text"] == (
        "the first player is at a disadvantage only from +212 Elo (search:budget=16 and "
        "stronger); not significant up to +0 Elo"
    )
    # the direction words come from the signs: the same rungs the other way round
    up = [
        _rung(s["name"], s["rating"], -v.estimate, v.se, reference=s["reference"]) for s, v in flat
    ]
    assert _classified(up)["skill"]["text"].startswith("the first player has an advantage only")
    both = [_rung("aggressive", -103, 23.0, 1.1), *flat]
    v = _classified(both)
    assert v["skill"]["class"] == "reverses with skill"
    assert v["skill"]["text"] == (
        "reverses with skill: the first player has an advantage up to -103 Elo (aggressive); "
        "the first player is at a disadvantage from +212 Elo (search:budget=16 and stronger)"
    )


def test_no_skill_words_when_it_does_not_change_once_along_the_rungs():
    # reversed in the middle of the ladder only: not a matter of skill
    middle = _ladder((4.0, 1.0), (4.5, 1.0), (-9.0, 2.0), (5.0, 1.0))
    v = _classified(middle)
    assert v["status"] == "depends on players" and v["skill"] is None
    assert "by skill" not in sentence(v)
    holds = _ladder((4.0, 1.0), (4.5, 1.0))
    assert _classified(holds)["status"] == "holds" and _classified(holds)["skill"] is None


# --------------------------------------------------------------------------------- the command
def test_the_command(monkeypatch, capsys):
    args = ["robustness", "sunken-city", "-n", "3", "-g", "40", "--ladder", "--top-budget", "2"]
    args += ["--search-rungs", "2", "--search-games", "10", "--seed", "2"]
    code, out, err = run_main([*args, "--json"], monkeypatch, capsys)
    assert code == 0, err
    js = json.loads(out)
    names = [s["name"] for s in js["settings"] if s["kind"] == "lineup"]
    assert names[-2:] == ["search:budget=1", "search:budget=2"]
    assert [x["rung"] for x in js["ladder"][0]["rungs"]] == names
    assert all(s["label"].endswith(" Elo)") for s in js["settings"] if s["kind"] == "lineup")
    seats = [v for v in js["verdicts"] if v["verdict"] == "3p/fpa" or "/seat_pair/" in v["verdict"]]
    assert len(seats) == 4 and all("skill" in v for v in seats)  # None or where it changes
    code, out, err = run_main(args, monkeypatch, capsys)
    assert code == 0, err and "the ladder's rungs rated" in out
