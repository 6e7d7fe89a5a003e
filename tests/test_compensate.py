"""`balance compensate` (issue #38; docs/compensation.md): the candidates, the judgment of a
confirmation (simcore.base.fairness: equivalence within the tolerance, simultaneous over the
pairs), the recommendation the run holds, the sentence a designer can print, the whole command
on small settings, determinism and bad input."""

from __future__ import annotations

import json
import shlex
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

import cli
from analysis.compensate import analyse, compensation_words, text_lines
from simcore import get_game
from simcore.base.errors import InputError
from simcore.base.fairness import FAIR, UNDECIDED, UNFAIR, fair_status, recommend
from simcore.studies.compensate import Candidate, Played, dense_ranks, field_candidates
from tests.conftest import run_main

runner = CliRunner()


def _played(wins, games, amounts=()):
    return Played(
        Candidate("seat_value" if amounts else "", tuple(amounts)),
        games,
        list(wins),
        games - sum(wins),
        "balanced",
        1,
        "h",
    )


def test_candidates_are_every_vector_with_a_seat_at_zero_simplest_first():
    c = field_candidates("seat_points", 3, 1)
    said = [",".join(map(str, x.amounts)) for x in c]
    assert said == ["0,0,1", "0,1,0", "1,0,0", "0,1,1", "1,0,1", "1,1,0"]
    assert len(field_candidates("seat_value", 3, 8)) == 9**3 - 8**3 - 1  # not all zero
    assert all(min(x.amounts) == 0 < max(x.amounts) for x in field_candidates("f", 4, 2))
    # a tie rank: one vector an order of the seats (12 orders of 3 seats, not all level)
    ranks = [c.amounts for c in field_candidates("seat_tiebreak", 3, 2, ranks=True)]
    assert len(ranks) == 12 == len(set(ranks))
    assert (0, 1, 1) in ranks and (0, 2, 2) not in ranks and (0, 1, 2) in ranks
    assert (0, 0, 1) in ranks and (1, 2, 0) in ranks and (0, 2, 1) in ranks
    assert dense_ranks((0, 2, 2)) == (0, 1, 1) and dense_ranks((2, 0, 2)) == (1, 0, 1)


def test_fair_means_every_pair_within_the_tolerance_with_95_percent_confidence():
    # 100,000 games a third each: every simultaneous interval is within +-1 point
    assert fair_status(_played([33_300, 33_300, 33_400], 100_000), 1.5) == FAIR
    # a 9-point gap on 20,000 games: the interval lies wholly beyond 1.5 points
    assert fair_status(_played([6_240, 5_260, 7_060], 20_000), 1.5) == UNFAIR
    # equal rates on 300 games: too few to tell +-1.5 points
    assert fair_status(_played([100, 100, 100], 300), 1.5) == UNDECIDED
    # no detected gap is not fairness: 2,000 games of equal rates are still undecided
    assert fair_status(_played([660, 660, 660], 2_000), 1.5) == UNDECIDED


def test_the_recommendation_is_the_first_finalist_confirmed_fair_else_the_closest():
    rulebook = _played([400, 300, 300], 1_000)
    unfair = _played([6_240, 5_260, 7_060], 20_000, (0, 1, 0))
    fair = _played([33_300, 33_300, 33_400], 100_000, (1, 1, 0))
    closest = _played([340, 330, 330], 1_000, (0, 0, 1))
    assert recommend([rulebook, unfair, fair, closest]) is fair
    assert recommend([rulebook, unfair, closest], 1.5) is closest  # no finalist fair
    assert fair_status(closest) == UNDECIDED  # the base's one tolerance (1.5 points)


def test_the_sentence_is_what_a_rulebook_prints():
    words = {
        "seat_value": "adds {n} to the value of its treasures at the end",
        "seat_chips": "starts with {n} water-spirit chip{s}",
    }
    run = SimpleNamespace(players=3)
    said = compensation_words(run, Candidate("seat_value", (0, 5, 2)), words)
    assert said == (
        "seat 1 adds 5 to the value of its treasures at the end and seat 2 adds 2 "
        "to the value of its treasures at the end"
    )
    assert compensation_words(run, Candidate("seat_chips", (1, 0, 0)), words) == (
        "seat 0 starts with 1 water-spirit chip"
    )
    assert compensation_words(run, Candidate(), words).startswith("no compensation")
    # a field whose words say a rule once after the seats (after '|'): Sunken City's tie ranks
    from simcore.games.sunken_city.rules import SunkenCityRules

    tie = Candidate("seat_tiebreak", (0, 1, 2), (("finish_round", "false"),))
    ends = {k: w for k, (_, w) in SunkenCityRules.END_RULES.items()}
    said = compensation_words(run, tie, {**words, **SunkenCityRules.SEAT_WORDS, **ends})
    assert said == (
        "the game ends with the turn in which an end condition occurs (the round is not "
        "finished); seat 1 has tie rank 1 and seat 2 has tie rank 2 (of the players still tied "
        "in treasures and value, the highest tie rank wins; the others have rank 0)"
    )


SMALL = (
    "balance compensate sunken-city -n 3 --games 300 --confirm-games 3000 "
    "--level-games 200 --field seat_points --field seat_value --max-amount 3 "
    "--level balanced --level greedy --seed 5 --threads 1 --json"
)


@pytest.fixture(scope="module")
def small():
    res = runner.invoke(cli.app, shlex.split(SMALL)[1:])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def test_the_command_screens_confirms_and_checks_every_level(small):
    a = small
    assert a["players"] == 3 and a["fields"] == ["seat_points", "seat_value"]
    assert a["searched"]["seat_points"].startswith("exhaustive (36 candidates")
    assert a["searched"]["seat_value"].startswith("exhaustive (36 candidates")
    assert len(a["screened"]) == 36 + 36
    gaps = [c["predicted_gap"] for c in a["screened"]]
    assert gaps == sorted(gaps)
    # the prediction: the rulebook on the calibration's games (the confirmation's count, of
    # the screening's seed) plus the candidate's effect on the screening games
    cal, base = a["calibration"], a["baseline"]["seat_rates"]
    assert cal["games"] == 3000 and cal["seed"] == 5
    for c in a["screened"]:
        want = [k + x - b for k, x, b in zip(cal["seat_rates"], c["seat_rates"], base)]
        assert c["predicted_rates"] == pytest.approx(want, abs=1e-9)
        assert c["predicted_gap"] == pytest.approx(max(want) - min(want), abs=1e-9)
    # the best screened played again on an eighth of the calibration's games (375 > 300)
    refined = a["refined"]
    assert 8 <= len(refined) <= 9 and all(c["games"] == 375 for c in refined)
    best = {c["compensation"] for c in a["screened"][:8]}
    assert best <= {c["compensation"] for c in refined}
    finalists = {c["compensation"] for c in a["confirmed"][1:]}
    assert finalists <= {c["compensation"] for c in refined}
    assert min(c["predicted_gap"] for c in refined) == refined[0]["predicted_gap"]
    conf = a["confirmed"]
    assert conf[0]["compensation"] == "none (the rulebook)" and len(conf) == 4
    assert all(c["games"] == 3000 for c in conf)
    rec = a["recommendation"]
    assert rec["compensation"] in [c["compensation"] for c in conf[1:]]
    chosen = next(c for c in conf if c["compensation"] == rec["compensation"])
    assert rec["status"] == chosen["status"]
    if rec["status"] != FAIR:  # then no finalist was fair, and the closest is recommended
        assert all(c["status"] != FAIR for c in conf[1:])
        assert chosen["gap"] == min(c["gap"] for c in conf[1:])
    assert rec["sentence"].startswith("with 3 players, " + rec["words"])
    assert [lv["level"] for lv in a["levels"]] == ["balanced", "greedy"]
    for lv in a["levels"]:
        assert lv["games"] == 200 and abs(sum(lv["with"]["seat_rates"]) - 100) < 100
        for p in lv["with"]["pairs"]:
            assert p["low"] <= p["estimate"] <= p["high"] and p["tests"] == 3


def test_the_same_seed_gives_the_same_answer(small):
    res = runner.invoke(cli.app, shlex.split(SMALL.replace("--threads 1", "--threads 2"))[1:])
    again = json.loads(res.stdout)
    for k in ("recommendation", "confirmed", "screened", "levels"):
        assert again[k] == small[k], k


@pytest.mark.parametrize(
    "args,why",
    [
        ("pig -n 2", "pig has no seat compensation fields yet"),
        ("sunken-city -n 3 --field seat_gold", "unknown compensation field 'seat_gold'"),
        ("sunken-city -n 3 --games 0", "--games"),
        ("sunken-city -n 3 --confirm-games -5", "--confirm-games"),
        ("sunken-city -n 3 --tolerance 0", "--tolerance must lie between 0 and 50"),
        ("sunken-city -n 3 --level wizard", "wizard"),
        ("sunken-city -n 3 --policy balanced,greedy", "give one player"),
        ("sunken-city -n 3 --level balanced,greedy", "give one player per --level"),
        ("sunken-city -n 5", "2 to 4 players"),
        ("sunken-city -n 3 --max-amount 0", "--max-amount"),
        ("sunken-city -n 3 --level-budget -1", "--level-budget"),
        ("sunken-city -n 3 --level-screen-games 0", "--level-screen-games"),
        ("sunken-city -n 3 --variant no-chips --field seat_chips", "seat_chips needs the chips"),
    ],
)
def test_bad_input_is_one_line_and_status_2(args, why, monkeypatch, capsys):
    code, out, err = run_main(["compensate", *shlex.split(args)], monkeypatch, capsys)
    assert code == 2, (code, out, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and why in lines[0], err


def test_a_space_larger_than_the_budget_is_searched_by_optuna_with_the_favoured_seat_at_0():
    from simcore.studies.compensate import run_compensate

    run = run_compensate(
        get_game("sunken-city"),
        3,
        200,
        confirm_games=400,
        level_games=50,
        seed=3,
        fields=["seat_value"],
        max_amount=3,
        budget=5,
        levels=["balanced"],
        threads=1,
    )
    assert run.searched["seat_value"].startswith("optuna TPE (5 trials")
    assert 1 <= len(run.screened) <= 5
    favoured = max(range(3), key=lambda s: (run.baseline.seat_wins[s], -s))
    assert all(p.candidate.amounts[favoured] == 0 for p in run.screened)
    assert run.confirmed[0].candidate.field == "" and len(run.confirmed) >= 2
    # the run holds its recommendation (chosen once, in the study); the output says that one
    assert run.recommendation is recommend(run.confirmed, run.tolerance)
    a = analyse(run, run.seat_words)
    assert a["recommendation"]["compensation"] == run.recommendation.candidate.label
    assert a["by_level"][1]["compensation"] == run.recommendation.candidate.label
    assert text_lines(a)[2].startswith("Recommendation: with 3 players, ")
    # the renderer only renders: another finalist held by the run is the one it says
    others = [p for p in run.confirmed[1:] if p is not run.recommendation]
    other = (others or run.confirmed)[0]
    run.recommendation = other
    said = analyse(run, run.seat_words)["recommendation"]
    assert said["compensation"] == other.candidate.label
    assert said["status"] == fair_status(other, run.tolerance)


# ------------------------------------------------------------------ checkpoint, resume, dask
RESUMABLE = (
    "compensate sunken-city -n 2 --games 100 --confirm-games 300 --level-games 60 "
    "--field seat_points --max-amount 2 --level balanced --level greedy --seed 7 --json"
)


def _answer(out: str) -> dict:
    """The JSON answer without its wall time (the one number that differs between runs)."""
    a = json.loads(out)
    a.pop("elapsed_s")
    return a


@pytest.fixture(scope="module")
def whole():
    res = runner.invoke(cli.app, [*shlex.split(RESUMABLE), "--threads", "1"])
    assert res.exit_code == 0, res.output
    return _answer(res.stdout)


@pytest.mark.parametrize(
    "stage",
    [
        "seed 7/100 games/balanced,balanced/seat_points=0,2",  # screening, its third candidate
        "seed 8/300 games/balanced,balanced/seat_points",  # confirmation, after its baseline
        "seed 8/60 games/greedy,greedy/none",  # the second level
    ],
)
def test_a_run_interrupted_at_any_stage_resumes_to_the_uninterrupted_answer(
    stage, whole, tmp_path, monkeypatch, capsys
):
    """Ctrl-C during a play: status 130, one line naming --resume, nothing on stdout, the
    finished plays in the checkpoint; --resume (on 2 threads) restores them, says so on
    stderr, plays the others and answers what the uninterrupted run (on 1 thread) answers."""
    from simcore.studies.compensate import PlayJob

    fold = PlayJob.fold

    def stop(self, i, result):
        if self.key.startswith(stage):
            raise KeyboardInterrupt
        return fold(self, i, result)

    ck = tmp_path / "comp.json"
    args = [*shlex.split(RESUMABLE), "--checkpoint", str(ck)]
    monkeypatch.setattr(PlayJob, "fold", stop)
    code, out, err = run_main([*args, "--threads", "1"], monkeypatch, capsys)
    assert code == 130 and out == "" and "Traceback" not in err, err
    assert err.splitlines()[-1].endswith(f"the finished plays are in {ck}: add --resume")
    saved = json.loads(ck.read_text())["played"]
    assert saved and not any(k.startswith(stage) for k in saved)
    monkeypatch.setattr(PlayJob, "fold", fold)
    code, out, err = run_main([*args, "--threads", "2", "--resume"], monkeypatch, capsys)
    assert code == 0, err
    assert f"resuming {ck}: {len(saved)} finished plays restored" in err.splitlines()[0]
    assert _answer(out) == whole
    # a line per finished stage on stderr (not a terminal), each flushed as it finishes
    assert [ln.split(":")[0] for ln in err.splitlines()[1:] if not ln.startswith(" ")] == [
        "baseline",
        "calibration",
        "confirmation",
        "level balanced",
        "level greedy",
    ]
    assert "searching one for it" not in err  # greedy's rulebook is not shown unfair
    greedy = whole["per_level"][1]
    assert greedy["source"] == "rulebook" and greedy["status"] != UNFAIR
    assert whole["levels"][1]["with"]["status"] == UNFAIR  # the compensation makes it unfair
    assert (
        "for greedy: no compensation (the rulebook as it is; "
        in (whole["recommendation"]["every_level"])
    )
    # the checkpoint now holds every play; other settings are refused, the file untouched
    before = ck.read_bytes()
    code, _, err = run_main([*args, "--resume", "--seed", "8"], monkeypatch, capsys)
    assert code == 2 and len(err.splitlines()) == 1 and "belongs to a different run" in err
    assert ck.read_bytes() == before


def test_the_dask_backend_gives_the_local_answer(whole, monkeypatch, capsys):
    pytest.importorskip("distributed")
    args = [*shlex.split(RESUMABLE), "--backend", "dask", "--workers", "2"]
    code, out, err = run_main(args, monkeypatch, capsys)
    assert code == 0, err
    assert _answer(out) == whole


def test_a_resumed_optuna_search_draws_what_it_drew(tmp_path):
    """The optuna path (a space larger than --budget) cut after its second trial: the seeded
    sampler, told the restored gaps, proposes the same candidates; the same answer."""
    from simcore.studies.compensate import run_compensate

    ck = tmp_path / "comp.json"
    # 4**3 - 3**3 - 1 = 36 candidates, searched by optuna on a budget of 5
    kw = dict(confirm_games=300, level_games=40, seed=3, fields=["seat_value"], max_amount=3)
    kw.update(budget=5, levels=["balanced"], checkpoint=str(ck))
    one = run_compensate(get_game("sunken-city"), 3, 150, threads=1, **kw)
    data = json.loads(ck.read_text())
    keys = list(data["played"])
    data["played"] = {k: data["played"][k] for k in keys[:3]}  # the baseline, two trials
    ck.write_text(json.dumps(data))
    lines: list[str] = []
    two = run_compensate(
        get_game("sunken-city"), 3, 150, threads=2, resume=True, echo=lines.append, **kw
    )
    assert lines[0].endswith(
        "3 finished plays restored (of the baseline, the candidates and "
        "the levels); only the others are played"
    )
    assert list(json.loads(ck.read_text())["played"]) == keys[:3] + [
        k for k in keys if k not in keys[:3]
    ]
    a, b = (analyse(r, r.seat_words) for r in (one, two))
    a.pop("elapsed_s"), b.pop("elapsed_s")
    assert a == b and a["searched"]["seat_value"].startswith("optuna TPE (5 trials")


def test_the_end_rule_is_tried_alone_and_with_each_seat_fields_amounts():
    """--field finish_round (Sunken City's END_RULES): the rule alone, then with every
    candidate of the seat fields chosen (a group of its own, exhaustive up to --budget); the
    words say the rule as a rulebook prints it; the rule counts as a change when the
    finalists are ordered (fewest changes first)."""
    args = "compensate sunken-city -n 3 --games 200 --confirm-games 600 --level-games 100"
    args += " --field seat_points --field finish_round --max-amount 1 --level balanced --json"
    res = runner.invoke(cli.app, shlex.split(args))
    assert res.exit_code == 0, res.output
    a = json.loads(res.stdout)
    assert a["searched"] == {
        "seat_points": "exhaustive (6 candidates, amounts 0 to 1)",
        "finish_round": "exhaustive (the rule alone)",
        "finish_round+seat_points": "exhaustive (6 candidates, amounts 0 to 1)",
    }
    labels = [c["compensation"] for c in a["screened"]]
    assert len(labels) == len(set(labels)) == 13
    assert "finish_round=false" in labels and "finish_round=false, seat_points=1,1,0" in labels
    ended = next(c for c in a["confirmed"] if c["compensation"].startswith("finish_round"))
    assert ended["words"].startswith("the game ends with the turn in which an end condition")
    rule = Candidate("seat_points", (0, 0, 1), (("finish_round", "false"),))
    assert rule.changes == 2 and Candidate("seat_points", (0, 1, 1)).changes == 2
    assert rule.overrides() == {"finish_round": "false", "seat_points": "0,0,1"}


def test_the_default_fields_are_the_seat_fields_and_the_end_rules():
    from simcore.frame.registry import get_game
    from simcore.studies.compensate import _checked_fields, compensate_plan_levels

    spec = get_game("sunken-city")
    assert _checked_fields(spec, 3, None) == [
        "seat_chips",
        "seat_points",
        "seat_value",
        "seat_tiebreak",
        "finish_round",
    ]
    # checked by default with the reference preset and the report's strong players
    assert compensate_plan_levels(spec, None, False) == ["balanced", "search:budget=1"]


def test_a_level_where_the_recommendation_is_not_fair_gets_a_search_of_its_own():
    """3-player Sunken City: the presets' compensation is not fair for the trained players (the
    report's strong players; their last seat wins about 40% of their games), so the study
    searches again with them in every seat and says one compensation per level; every record
    of it is checkable. (With `search:budget=2` as the strong level before 2026-12-05: 38 s.)"""
    from simcore.studies.compensate import run_compensate

    strong = "trained"  # the report's strong players
    kw = dict(confirm_games=2000, level_games=1500, level_screen_games=100, level_budget=4)
    kw.update(fields=["seat_points", "finish_round"], max_amount=1, seed=5, threads=2)
    third = "greedy"  # a third level: shares the strong level's compensation, or its own
    run = run_compensate(get_game("sunken-city"), 3, 300, levels=["balanced", strong, third], **kw)
    ls = run.level_searches[0]
    assert ls.level == strong
    # the same groups, screened with the strong player in every seat, on the level's games
    assert set(ls.searched) == {"seat_points", "finish_round", "finish_round+seat_points"}
    assert all(p.games == 100 and p.policies == ",".join([strong] * 3) for p in ls.screened)
    # 6 candidates a seat field (amounts 0 to 1), more than the level's budget of 4: optuna
    assert ls.searched["seat_points"].startswith("optuna TPE (4 trials")
    assert ls.searched["finish_round"] == "exhaustive (the rule alone)"
    # the level's rulebook play is the level check's own (same games, same seed)
    lv, base, _ = next(x for x in run.levels if x[0] == strong)
    assert ls.confirmed[0].seat_wins == base.seat_wins and ls.confirmed[0].games == 1500
    a = analyse(run, run.seat_words)
    rows = {r["level"]: r for r in a["per_level"]}
    assert rows[strong]["source"] == "search"
    assert rows["balanced"]["compensation"] == a["recommendation"]["compensation"]
    own = rows[strong]
    assert own["compensation"] == ls.recommendation.candidate.label  # the level's own choice
    assert own["compensation"] in [c["compensation"] for c in own["confirmed"][1:]]
    chosen = next(c for c in own["confirmed"] if c["compensation"] == own["compensation"])
    assert own["status"] == chosen["status"]
    if own["status"] != FAIR:
        assert chosen["gap"] == min(c["gap"] for c in own["confirmed"][1:])
    assert own["sentence"].startswith("with 3 players, " + own["words"])
    every = a["recommendation"]["every_level"]
    assert every.startswith("one compensation per level (the recommendation is not fair at ")
    assert f"for {strong}: {own['words']}" in every
    # the strong level's own compensation is played at every level; a third level where it
    # is not shown unfair shares it, one where it is gets a search of its own
    own_cand = next(p.candidate for p in ls.confirmed if p.candidate.label == own["compensation"])
    assert {lv for (c, lv) in run.cross if c == own_cand} == {"balanced", strong, third}
    assert [r["compensation"] for r in a["by_level"]][:3] == [
        "none (the rulebook)",
        a["recommendation"]["compensation"],
        own["compensation"],
    ]
    assert all(len(r["levels"]) == 3 for r in a["by_level"])
    there = rows[third]
    searched_there = [x.level for x in run.level_searches] == [strong, third]
    if there["source"] == "shared":
        assert not searched_there and there["status"] != UNFAIR
        assert there["compensation"] == own["compensation"] and there["found_for"] == strong
        assert f"for {third}: {own['words']} (found for {strong}; " in every
    else:
        assert there["source"] in ("search", "recommendation", "rulebook")
    lines = text_lines(a)
    assert f"For {strong}: {own['sentence']}." in lines
    assert any(line.startswith(f"The search with {strong} in every seat") for line in lines)


def test_a_known_rulebook_play_is_the_calibration_and_first_fair_keeps_the_answer():
    """The report hands the study its own seat balance (known): a rulebook play of the same
    rules, seed and players with at least the calibration's games is the calibration (not
    played again); one of other rules is not taken. first_fair confirms the finalists one after
    the other until one is fair: the same recommendation, the confirmations a prefix of all."""
    from simcore import simulate
    from simcore.studies.compensate import _Plan, run_compensate

    spec = get_game("sunken-city")
    kw = dict(confirm_games=600, level_games=100, seed=3, threads=1, levels=["balanced"])
    kw.update(fields=["seat_points", "finish_round"], max_amount=1, level_budget=0)
    plain = run_compensate(spec, 3, 150, **kw)
    same = simulate(spec, 3, 600, seed=3, policies="balanced")
    more = simulate(spec, 3, 1200, seed=3, policies="balanced")
    other = simulate(spec, 3, 1200, seed=3, policies="balanced", overrides={"seat_points": "1,0,0"})
    assert run_compensate(spec, 3, 150, known=[same], **kw).calibration == plain.calibration
    run = run_compensate(spec, 3, 150, known=[more, other], **kw)
    assert run.calibration.games == 1200 and run.calibration.seat_wins == [
        int(w) for w in more.summary.seat_wins
    ]
    plan = _Plan(spec, 3, "balanced", (), {}, None, 1)
    assert plan.know(more) and not plan.know(other)
    # a wide tolerance: every finalist is fair, so the first one is the recommendation
    wide = dict(kw, tolerance=30.0)
    every = run_compensate(spec, 3, 150, **wide)
    first = run_compensate(spec, 3, 150, first_fair=True, **wide)
    assert len(every.confirmed) > 2 and len(first.confirmed) == 2
    assert first.recommendation.candidate == every.recommendation.candidate
    assert [p.seat_wins for p in first.confirmed] == [p.seat_wins for p in every.confirmed[:2]]
    # a strict one: none is fair, so every finalist is played and the closest recommended
    strict = dict(kw, tolerance=0.01)
    a, b = (run_compensate(spec, 3, 150, first_fair=f, **strict) for f in (False, True))
    assert [p.seat_wins for p in a.confirmed] == [p.seat_wins for p in b.confirmed]
    assert a.recommendation.candidate == b.recommendation.candidate
    # confirm_top: fewer finalists (the report confirms 2), the simplest passing first
    one = run_compensate(spec, 3, 150, confirm_top=1, **strict)
    assert len(one.confirmed) == 2 and one.recommendation is one.confirmed[1]
    assert one.confirmed[1].candidate in [p.candidate for p in a.confirmed[1:]]
    with pytest.raises(InputError):
        run_compensate(spec, 3, 150, confirm_top=0, **strict)
    # refine_top: fewer of the screening's best refined (the report refines 5 and the simplest
    # passing), each the same play as in the full refinement; 0 and more than REFINE_TOP refused
    few = run_compensate(spec, 3, 150, refine_top=2, **strict)
    assert 2 <= len(few.refined) <= 3 < len(a.refined) and few.refine_top == 2
    full = {p.candidate: p.seat_wins for p in a.refined}
    assert all(full[p.candidate] == p.seat_wins for p in few.refined)
    for bad in (0, 9):
        with pytest.raises(InputError):
            run_compensate(spec, 3, 150, refine_top=bad, **strict)
