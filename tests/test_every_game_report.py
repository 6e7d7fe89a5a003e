"""The default `balance report` and `balance robustness` of every registered game (issue #35),
the reference games included: Pig (two players only) and Chutes and Ladders (no decisions, no
search, no `random` player, one preset). Small game counts: what is checked is that every game's
default commands run to the end and say what they skipped, not the numbers (the kernels are
the ones the other tests compile)."""

from __future__ import annotations

import json

import pytest

from simcore.frame.registry import all_games, get_game
from tests.conftest import run_main

GAMES = sorted(all_games())
REPORT_GAMES = 120  # per player count: 40 per variant arm, 12 per robustness setting
ROBUSTNESS_GAMES = 20  # per setting: the search settings play 2 each


def _check_skipped(skipped: list[dict]) -> None:
    for k in skipped:
        assert k["reason"] and k["variant"] and k["line"].endswith(f"({k['reason']})"), k


@pytest.mark.parametrize("game", GAMES)
def test_default_report_of_every_game(game, tmp_path, monkeypatch, capsys):
    spec = get_game(game)
    out = tmp_path / "rep"
    code, stdout, err = run_main(
        ["report", game, "--games", str(REPORT_GAMES), "--out", str(out)], monkeypatch, capsys
    )
    assert code == 0, err
    assert "Traceback" not in err + stdout
    js = json.loads((out / "report.json").read_text())
    counts = list(range(spec.min_players, spec.max_players + 1))
    assert js["choice"]["players"] == counts
    assert js["choice"]["variants"] == list(spec.report_variants)
    assert [s["players"] for s in js["seats"]] == counts
    _check_skipped(js["skipped"])
    md = (out / "report.md").read_text()
    assert "## Seat balance" in md and "## Player ladder" in md
    for k in js["skipped"]:  # in the report and among the progress lines (stderr)
        assert k["line"] in md and k["line"] in err
    # one progress line per setting on stderr (it is not a terminal here)
    assert sum(ln.lstrip().startswith("[") for ln in err.splitlines()) >= len(counts)
    # the fix looks at both levels: never "none recommended" where a level is shown unfair
    for row in js["answer"]["rows"]:
        unfair = [lv["level"] for lv in row["levels"] if lv["status"] == "unfair"]
        fix = row["cells"].get("how to fix it", "")
        assert not (unfair and fix.startswith("none recommended")), (row["players"], fix)
        assert not unfair or fix, (row["players"], unfair)


@pytest.mark.parametrize("game", GAMES)
def test_default_robustness_of_every_game(game, monkeypatch, capsys):
    spec = get_game(game)
    code, out, err = run_main(
        ["robustness", game, "--games", str(ROBUSTNESS_GAMES), "--json"], monkeypatch, capsys
    )
    assert code == 0, err
    js = json.loads(out)  # stdout is the JSON alone; the progress lines are on stderr
    assert js["players"] == list(range(spec.min_players, spec.max_players + 1))
    assert js["settings"] and js["verdicts"]
    _check_skipped(js["skipped"])
    lines = [ln for ln in err.splitlines() if ln.strip().startswith("[")]
    assert len(lines) == len(js["settings"])
    has_search = any(s["name"].startswith("search") for s in js["settings"])
    assert has_search == ("search" in spec.policies)


def test_secrets_of_the_sea_skips_the_pair_that_cannot_compose(monkeypatch, capsys):
    """The pair of issue #35: the reading tiles-more-monsters replaces the dark monsters that
    the variant unbeatable-monsters needs; it is skipped there, with the rules' reason, and
    played everywhere else."""
    code, out, err = run_main(
        ["robustness", "secrets-of-the-sea", "-n", "2", "-g", "20", "--json"], monkeypatch, capsys
    )
    assert code == 0, err
    js = json.loads(out)
    assert [(k["label"], k["variant"]) for k in js["skipped"]] == [
        ("reading tiles-more-monsters", "unbeatable-monsters")
    ]
    assert "dark monsters" in js["skipped"][0]["reason"]
    arms = {s["name"]: s["arms"] for s in js["settings"]}
    assert "unbeatable-monsters" not in arms["tiles-more-monsters"]
    assert (
        "unbeatable-monsters" in arms["balanced"]
        and "unbeatable-monsters" in arms["tiles-rich-deep"]
    )
