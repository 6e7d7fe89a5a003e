"""The `balance` command: normal runs through typer's CliRunner, bad input through cli.main
(one line on stderr, exit status 2, no traceback, no output file)."""

from __future__ import annotations

import json
import shlex

import pytest
from typer.testing import CliRunner

import cli
from tests.conftest import run_main

runner = CliRunner()


def test_games_lists_sunken_city():
    res = runner.invoke(cli.app, ["games"])
    assert res.exit_code == 0
    assert "sunken-city" in res.output and "no-chips" in res.output and "die" in res.output
    res = runner.invoke(cli.app, ["games", "--json"])
    info = {g["game"]: g for g in json.loads(res.output)}
    assert info["sunken-city"]["players"] == [2, 4]
    assert list(info) == sorted(info)  # the same order whatever was imported first


def test_simulate_table_and_json():
    res = runner.invoke(
        cli.app, ["simulate", "sunken-city", "--players", "3", "--games", "2e3", "--seed", "3"]
    )
    assert res.exit_code == 0, res.output
    assert "win %" in res.output and "games/s" in res.output
    res = runner.invoke(
        cli.app,
        [
            "simulate",
            "sunken-city",
            "-n",
            "4",
            "--games",
            "1_000",
            "--variant",
            "short+no-chips",
            "--set",
            "die=black",
            "--json",
        ],
    )
    js = json.loads(res.output)
    assert js["games"] == 1000 and js["players"] == 4 and len(js["seats"]) == 4
    assert js["rules"]["use_house_1"] is False and js["rules"]["chips"] is False
    assert js["rules"]["die"] == [0, 1, 2, 2, 3, 3]
    for key in ("seat", "policy", "wins", "win_rate", "ci_low", "ci_high", "mean_score"):
        assert key in js["seats"][0]
    assert {"mean_rounds", "median_rounds", "mean_turns"} <= set(js["length"])
    assert sum(js["end_reasons"].values()) == 1000
    assert sum(s["wins"] for s in js["seats"]) + js["shared_wins"] == 1000


def _strip_timing(js):
    return {k: v for k, v in js.items() if k not in ("elapsed_s", "games_per_s", "threads")}


def test_json_identical_for_one_and_two_threads():
    outs = []
    for t in ("1", "2"):
        res = runner.invoke(
            cli.app,
            [
                "simulate",
                "sunken-city",
                "--players",
                "3",
                "--games",
                "5000",
                "--seed",
                "1",
                "--threads",
                t,
                "--json",
            ],
        )
        assert res.exit_code == 0, res.output
        outs.append(_strip_timing(json.loads(res.output)))
    assert outs[0] == outs[1]


def test_out_csv_and_replay(tmp_path):
    out = tmp_path / "rows.csv"
    res = runner.invoke(cli.app, ["simulate", "sunken-city", "--games", "300", "--out", str(out)])
    assert res.exit_code == 0, res.output
    lines = out.read_text().splitlines()
    assert len(lines) == 301 and lines[0].startswith("game,players,winner")
    pq = tmp_path / "rows.parquet"
    res = runner.invoke(cli.app, ["simulate", "sunken-city", "--games", "300", "--out", str(pq)])
    assert res.exit_code == 0, res.output
    import pandas as pd

    df = pd.read_parquet(pq)
    assert len(df) == 300 and list(df.columns) == lines[0].split(",")
    res = runner.invoke(
        cli.app,
        [
            "replay",
            "sunken-city",
            "--players",
            "3",
            "--seed",
            "0",
            "--game",
            "7",
            "--format",
            "jsonl",
        ],
    )
    lines = res.output.strip().splitlines()
    assert json.loads(lines[0])["type"] == "game" and json.loads(lines[-1])["type"] == "end"
    res = runner.invoke(cli.app, ["replay", "sunken-city", "--game", "7"])
    assert "Round 1, turn 1" in res.output and "Game over" in res.output


BAD = [  # a command line (split as a shell does) and a word of its one-line refusal
    ("simulate chess", "unknown game"),
    ("simulate sunken-city --variant turbo", "unknown variant"),
    ("simulate sunken-city --variant short+turbo", "unknown variant"),
    ("simulate sunken-city --policy genius", "unknown policy"),
    ("simulate sunken-city --policy random:greed=2", "no weight"),
    ("simulate sunken-city --policy random,random", "2 players"),
    ("simulate sunken-city --policy balanced:keys=7", "from 0 to 6"),
    ("simulate sunken-city --policy balanced:keys=2.5", "whole number"),
    ("simulate sunken-city --policy greedy:keys=-1", "from 0 to 6"),
    ("simulate sunken-city --policy balanced:keys=nan", "keys"),
    ("simulate sunken-city --set colour=red", "unknown rules key"),
    ("simulate sunken-city --set chips=maybe", "true or false"),
    ("simulate sunken-city --set chips", "key=value"),
    ("simulate sunken-city --players 5", "2 to 4 players"),
    ("simulate sunken-city --players 1", "2 to 4 players"),
    ("simulate sunken-city --players three", "--players"),
    ("simulate sunken-city --set die=-1,2,3", "die"),
    ("simulate sunken-city --set die=", "at least one"),
    ("simulate sunken-city --set die=green", "neither a name"),
    ("simulate sunken-city --set streets_space1=30,30,30", "only 30"),
    ("simulate sunken-city --set cards=1/2/3", "icon"),
    ("simulate sunken-city --set board=....", "9 rows"),
    ("simulate sunken-city --games 0", "at least 1"),
    ("simulate sunken-city --games -5", "at least 1"),
    ("simulate sunken-city --games lots", "whole number"),
    ("simulate sunken-city --games 1.5", "whole number"),
    ("simulate sunken-city --threads 0", "at least 1"),
    ("simulate sunken-city --threads 999", "more than"),
    ("simulate sunken-city --seed -1", "seed"),
    ("replay sunken-city --format xml", "text or jsonl"),
    ("replay sunken-city --game -3", "--game"),
    ("simulate sunken-city --bogus", "bogus"),
    ("simulate sunken-city --precision 0", "--precision"),
    ("simulate sunken-city --precision 0.5", "--precision"),
    ("simulate sunken-city --precision tiny", "--precision"),
    ("simulate sunken-city --set owner_limit=3,3", "owner_limit"),
    ("simulate sunken-city --set street_squares=3", "street_squares"),
    ("simulate sunken-city --set scoring=goals", "scoring"),
    ("replay sunken-city --players 9", "2 to 4 players"),
]


@pytest.mark.parametrize("line,needle", BAD)
def test_bad_input_one_line_exit_2(line, needle, monkeypatch, capsys):
    code, out, err = run_main(shlex.split(line), monkeypatch, capsys)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert needle in lines[0]
    assert "Traceback" not in err


def test_bad_files(tmp_path, monkeypatch, capsys):
    bad_toml = tmp_path / "bad.toml"
    bad_toml.write_text("[variant.x\nchips = false\n")
    unknown = tmp_path / "unknown.toml"
    unknown.write_text("[variant.x]\ncolour = 'red'\n")
    good = tmp_path / "good.toml"
    good.write_text("[variant.fast]\nstreets_space1 = [14, 17, 20]\ndie = [1, 2, 3]\n")
    cases = [
        (["--rules-file", str(bad_toml), "--variant", "x"], "not valid TOML"),
        (["--rules-file", str(unknown), "--variant", "x"], "unknown key 'colour'"),
        (["--rules-file", str(tmp_path / "missing.toml")], "does not exist"),
        (["--out", str(tmp_path)], "is a directory"),
        (["--out", str(tmp_path / "no" / "rows.csv")], "does not exist"),
        (["--out", str(tmp_path / "rows.xlsx")], ".csv"),
        (["--out", str(tmp_path / "rows.csv"), "--variant", "turbo"], "unknown variant"),
    ]
    for extra, needle in cases:
        code, _, err = run_main(
            ["simulate", "sunken-city", "--games", "10", *extra], monkeypatch, capsys
        )
        assert code == 2 and needle in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "rows.csv").exists()  # nothing written for a failed run
    code, out, err = run_main(
        [
            "simulate",
            "sunken-city",
            "--games",
            "100",
            "--rules-file",
            str(good),
            "--variant",
            "fast",
            "--json",
        ],
        monkeypatch,
        capsys,
    )
    assert code == 0
    js = json.loads(out)
    assert js["rules"]["streets_space1"] == [14, 17, 20] and js["rules"]["die"] == [1, 2, 3]
