"""The report's first screen (analysis.answer, issue #39): every cell's words come from a
verdict record (the sign, the number, the interval), the answer holds a row per player count
within the Markdown's first 60 lines, and report.json carries the records the words rest on."""

from __future__ import annotations

import json
import re
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

import cli
from analysis import answer
from analysis.answer import Level, effect_words, fairness_words, short_interval, skill_word
from simcore.base.verdicts import first_player_advantage, largest_gap, z_verdict


def level(wins, games, players=None, name="beginners"):
    return Level(name, "balanced", players or len(wins), games, [float(w) for w in wins])


def test_fair_needs_every_pair_within_the_tolerance():
    even = level([33_300, 33_350, 33_320], 100_000)
    assert even.status() == "fair"
    assert fairness_words(even).startswith("**fair**")
    tilted = level([30_000, 33_000, 36_000], 100_000)
    words = fairness_words(tilted)
    assert tilted.status() == "unfair"
    # the favoured seat is the one with the most wins, its rate and the gap's interval quoted
    assert words.startswith("**not fair**: seat 2 favoured, 36.0% (35.7 to 36.3%) vs 33.0%")
    gap = tilted.gap()
    assert short_interval(gap, unit=False) in words and gap.estimate == pytest.approx(6.0)
    few = level([33, 30, 36], 100)
    assert few.status() == "undecided" and fairness_words(few).startswith("**undecided**")


def test_the_fair_share_is_net_of_shared_wins():
    lv = level([300, 300, 300], 1000)  # 10% of the games shared
    assert lv.fair_share == pytest.approx(0.3)
    assert list(lv.rates()["fair"]) == pytest.approx([0.3] * 3)


def test_the_skill_word_is_the_engines_classification():
    beg = first_player_advantage(3, 36_000, 100_000, 100_000)  # +2.7 points, significant
    same = first_player_advantage(3, 3_600, 10_000, 10_000)
    flipped = first_player_advantage(3, 2_600, 10_000, 10_000)
    few = first_player_advantage(3, 36, 100, 100)
    assert skill_word(beg, same) == "holds for strong players"
    assert skill_word(beg, flipped) == "changes with skill"
    assert skill_word(beg, few) == "not decided for strong players (too few games)"


def test_a_cell_takes_its_direction_from_the_sign():
    wording = answer.SKILL_WORDS
    up = z_verdict("3p/x", "q", "points", 4.0, 1.0, 1000, wording)
    down = z_verdict("3p/x", "q", "points", -4.0, 1.0, 1000, wording)
    none = z_verdict("3p/x", "q", "points", 1.0, 1.0, 1000, wording)
    assert effect_words(up, "skill") == "more +4.0 (+2.0 to +6.0)"
    assert effect_words(down, "skill") == "less -4.0 (-6.0 to -2.0)"
    assert effect_words(none, "skill") == "no change +1.0 (-1.0 to +3.0)"
    assert effect_words(down, "largest_gap").startswith("fairer")
    assert effect_words(up, "rounds").startswith("longer")
    assert short_interval(up) == "+4.0 points (+2.0 to +6.0)"


def test_the_strong_players_strength_is_said_from_its_interval():
    from analysis.answer import STRONGER, stronger

    assert stronger({"ci_low": 0.40, "ci_high": 0.50, "fair_share": 0.33}) == 1
    assert stronger({"ci_low": 0.26, "ci_high": 0.33, "fair_share": 0.318}) == 0
    assert stronger({"ci_low": 0.20, "ci_high": 0.30, "fair_share": 0.318}) == -1
    assert STRONGER[-1].startswith("**weaker**")


def test_a_fix_that_does_not_narrow_the_gap_is_not_recommended(monkeypatch):
    """The closest finalist is recommended only when it narrows the rulebook's gap on the
    fresh games; otherwise the cell says none was found, with both gaps."""
    from analysis import compensate as compensation

    def fake(run, words):
        conf = [{"compensation": "none", "gap": 3.9, "games": 100, "seat_rates": [1, 2]}]
        conf.append({"compensation": "x", "gap": 9.3, "games": 100, "seat_rates": [3, 4]})
        rec = {"compensation": "x", "words": "seat 0 scores 1 point more", "status": "unfair"}
        return {
            "recommendation": rec,
            "confirmed": conf,
            "screened": [1] * 24,
            "levels": [],
            "per_level": [],
        }

    monkeypatch.setattr(compensation, "analyse", fake)
    played = SimpleNamespace(seat_wins=[3, 4], games=100)
    run = SimpleNamespace(seat_words={}, level="balanced", recommendation=played)
    run.levels, run.level_searches = [], []
    words, _ = answer.fix_words(run, {"balanced": "beginners"})
    assert words == (
        "none found for beginners: the closest of 24 screened (seat 0 scores 1 point more) "
        "leaves a gap of 9.3 points on 100 fresh games, the rulebook 3.9"
    )


@pytest.fixture(scope="module")
def answered_report(tmp_path_factory):
    """`balance report sunken-city --games 600`: beginners, strong players and the fixes."""
    out = tmp_path_factory.mktemp("answer") / "sc"
    res = CliRunner().invoke(
        cli.app, ["report", "sunken-city", "--out", str(out), "--games", "600"]
    )
    assert res.exit_code == 0, res.output
    return out


def test_the_first_screen_answers_for_every_player_count(answered_report):
    md = (answered_report / "report.md").read_text().splitlines()
    head = "\n".join(md[:60])
    assert md[2] == "## The answer"
    table = [ln for ln in md[:60] if re.match(r"\| [234] \|", ln)]
    assert [ln[2] for ln in table[:3]] == ["2", "3", "4"]
    header = next(ln for ln in md if ln.startswith("| players | beginners |"))
    assert md.index(header) < 60
    for col in ("strong players", "first player: beginners / strong", "die to use"):
        assert col in header, col
    assert "how to fix it" in header
    assert "What each variant does" in head and "](answer.png)" in head
    for v in ("short", "no-chips", "advanced"):
        assert re.search(rf"\| {v} \| 2p .*; 3p .*; 4p .*\| 2p .*\| 3p ", head), v
    # everything else is after the answer, each section's content closed
    html = (answered_report / "report.html").read_text()
    first_details = html.index("<details>")
    assert html.index("The answer") < html.index("Seat win rates per player count") < first_details


def test_the_answers_words_are_its_records(answered_report):
    js = json.loads((answered_report / "report.json").read_text())
    a = js["answer"]
    assert [r["players"] for r in a["rows"]] == [2, 3, 4]
    for row in a["rows"]:
        beg, strong = row["levels"]
        assert beg["level"] == "beginners" and strong["level"] == "strong players"
        # the strong players (`trained`: no search) play as many games as the beginners
        assert beg["games"] == 600 and strong["games"] == 600 and strong["lineup"] == "trained"
        # the cell is made from the record: its interval, and the status of the judge
        lv = Level("beginners", "balanced", row["players"], beg["games"], beg["seat_wins"])
        assert row["cells"]["beginners"] == fairness_words(lv)
        assert short_interval(lv.gap(), unit=False) in row["cells"]["beginners"]
        fpa = beg["fpa"]
        sign = {1: "ahead", -1: "behind", 0: "no advantage detected"}[fpa["sign"]]
        assert row["cells"]["first player: beginners / strong"].startswith(sign)
    # a player count not fair at a level gets a compensation study at that level (the
    # beginners' when both), confirmed on fresh games and checked at the other level (the
    # loop below checks at least one)
    assert a["fixes"]
    for p, fix in a["fixes"].items():
        row = next(r for r in a["rows"] if r["players"] == int(p))
        status = [lv["status"] for lv in row["levels"]]
        assert "unfair" in status
        assert fix["level"] == ("balanced" if status[0] == "unfair" else "trained")
        rec = fix["recommendation"]
        cell = row["cells"]["how to fix it"]
        assert cell.removeprefix("closest found: ").startswith(rec["words"]) or (
            cell.startswith("none found for")
        )
        # the status rests on the largest gap's interval on the fresh games, said beside it
        conf = next(c for c in fix["confirmed"][1:] if c["compensation"] == rec["compensation"])
        wins = [round(r * conf["games"] / 100) for r in conf["seat_rates"]]
        gap = largest_gap(int(p), wins, conf["games"])
        assert cell.startswith("none found for") or (
            f"gap {short_interval(gap, unit=False)}, {conf['games']:,} fresh games" in cell
        )
        for lv in fix["levels"]:
            lw = [round(r * lv["games"] / 100) for r in lv["with"]["seat_rates"]]
            lg = largest_gap(int(p), lw, lv["games"])
            assert f"gap {short_interval(lg, unit=False)})" in cell
        # confirmed on --games fresh games, half the strong players' with them (as their own
        # searches' and the checks at the other level)
        assert fix["confirm_games"] == (600 if fix["level"] == "balanced" else 300)
        assert fix["levels"][0]["games"] == 300
    vs = a["strong_vs"]
    # the rating match: a third of --games (section_games)
    assert vs["games"] == 200 and vs["players"] == 3 and vs["elo_low"] < vs["elo"] < vs["elo_high"]
    assert f"rated {vs['elo']:+.0f} Elo" in (answered_report / "report.md").read_text()


def test_the_die_per_level_says_when_the_levels_differ():
    import pandas as pd

    def dice(fairest: str, clearly: bool) -> dict:
        other = "beige" if fairest == "black" else "black"
        t = pd.DataFrame(
            {
                "players": [3, 3],
                "die": [fairest, other],
                "largest_gap": [0.02, 0.08],
                "clearly_fairest": [clearly, False],
                "rulebook": [True, False],
            }
        )
        return {"table": t, "records": []}

    same = answer.die_level_words(dice("black", True), dice("black", True), 3)
    assert same.startswith("beginners: **black**") and same.endswith("the same die at both levels")
    differ = answer.die_level_words(dice("black", True), dice("beige", True), 3)
    assert "strong players: **beige**" in differ and differ.endswith("the die differs with skill")
    open_ = answer.die_level_words(dice("black", True), dice("beige", False), 3)
    assert open_.endswith("not decided at both levels whether they differ")
    assert answer.die_level_words(dice("black", True), None, 3).startswith("**black**")
