"""What each command hands to the library, without playing a game (fastapi-cli's style): the
library function a command calls is patched (`patch.object(module, "function")`), the command
is run through typer's CliRunner (or cli.main for the exit status), and the call's arguments
are compared whole with what the options resolve to: players, variants, --set overrides,
--rules-file, policies, --games in 1e4 syntax, seeds, threads, seat rotation, precision,
backend and workers, checkpoint and resume, output paths. The renderer is patched too, and
checked to receive the library's result unchanged.

Off a terminal (CliRunner's stderr) every command asks for no progress bar: progress=False.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from unittest.mock import Mock, patch

import pytest
import typer
from typer.testing import CliRunner

import cli
from analysis import compensate as compensate_analysis
from analysis import ladder as ladder_analysis
from analysis import ladder_report, render, tuning_tables
from analysis import report as report_module
from simcore.base.errors import InputError, RulesError
from simcore.base.fairness import TOLERANCE
from simcore.frame.registry import GameSpec, all_games, get_game
from simcore.run import jobs, runner
from simcore.studies import (
    bench,
    compensate,
    ladder,
    robustness,
    tune_players,
    tune_rules,
)
from simcore.studies import compare as arms
from simcore.studies import report as report_plan
from simcore.studies.compare import Arm
from tests.conftest import run_main

RESULT = SimpleNamespace(name="the library's result")  # what every patched entry point returns
VERSION = render.package_version()
SIMULATE = (runner, "simulate"), (render, "simulation")  # an entry point and its renderer
# the run options of a command given none (the RUN group's defaults, off a terminal)
LINES = jobs.LINES
LOCAL = {"threads": None, "backend": "local", "scheduler": None, "workers": None, "progress": False}


def invoke(args: str) -> None:
    """Run `balance ARGS` (a command line, split as a shell does) through CliRunner; the
    command must succeed."""
    res = CliRunner().invoke(cli.app, shlex.split(args))
    assert res.exit_code == 0, (res.output, res.exception)


@contextmanager
def patched(entry: tuple[Any, str], renderer: tuple[Any, str]) -> Iterator[tuple[Mock, Mock]]:
    """The library's entry point (module, name), returning RESULT, and the renderer (module,
    name) patched: (the entry's mock, the renderer's)."""
    with patch.object(*entry, return_value=RESULT) as lib, patch.object(*renderer) as shown:
        yield lib, shown


def call(args: str, entry: tuple[Any, str], renderer: tuple[Any, str]) -> tuple[Mock, Mock]:
    """Run one command line with `patched` entry point and renderer: their mocks."""
    with patched(entry, renderer) as mocks:
        invoke(args)
    return mocks


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    """The working directory is a temporary folder (output paths are checked there)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


# --------------------------------------------------------------------------------- simulate
def test_simulate_defaults():
    sim, shown = call("simulate sunken-city", *SIMULATE)
    assert sim.call_args.args == (get_game("sunken-city"), 3, 10_000)
    assert sim.call_args.kwargs == {
        "seed": 1,
        "rotate_seats": False,
        "checked": False,
        "keep_rows": False,
        "precision": None,
        "checkpoint": None,
        "resume": False,
        "overrides": {},
        **LOCAL,
    }
    assert shown.call_args.args == (RESULT, [], None, False, VERSION, typer.echo)


def test_simulate_rules_players_games_seed_threads():
    sim, shown = call(
        "simulate sumeria -n 4 -g 1e4 -v short -v a+b --set rounds=5 --set ' map = river ' "
        "--rules-file mine.toml --policy random,chaser:greed=2,balanced,random "
        "--seed 18446744073709551615 --threads 2 --rotate-seats --check",
        *SIMULATE,
    )
    assert sim.call_args.args == (get_game("sumeria"), 4, 10_000)
    assert sim.call_args.kwargs == {
        "seed": 2**64 - 1,
        "rotate_seats": True,
        "checked": True,
        "keep_rows": False,
        "precision": None,
        "checkpoint": None,
        "resume": False,
        "overrides": {"rounds": "5", "map": "river"},  # --set parsed, spaces trimmed
        "variants": ["short", "a+b"],  # as given: '+' is the library's to split
        "rules_file": "mine.toml",
        "policies": "random,chaser:greed=2,balanced,random",
        **LOCAL,
        "threads": 2,
    }
    assert shown.call_args.args[1] == ["short", "a+b"]


def test_simulate_precision_raises_the_default_cap():
    with patched(*SIMULATE) as (sim, _):
        invoke("simulate sunken-city --precision 0.005")
        assert sim.call_args.args == (get_game("sunken-city"), 3, 100_000_000)
        assert sim.call_args.kwargs["precision"] == 0.005
        invoke("simulate sunken-city --precision 0.01 --games 2_000")
        assert sim.call_args.args == (get_game("sunken-city"), 3, 2000)


def test_simulate_out_json_checkpoint_backend(in_tmp):
    with patched(*SIMULATE) as (sim, shown):
        invoke("simulate sunken-city --out rows.csv --json")
        assert sim.call_args.kwargs["keep_rows"] is True
        assert shown.call_args.args == (RESULT, [], Path("rows.csv"), True, VERSION, typer.echo)
        invoke("simulate sunken-city --checkpoint run.ckpt --resume --backend dask --workers 2")
        kw = sim.call_args.kwargs
        assert (kw["checkpoint"], kw["resume"], kw["keep_rows"]) == ("run.ckpt", True, False)
        assert {k: kw[k] for k in LOCAL} == {**LOCAL, "backend": "dask", "workers": 2}
        invoke("simulate sunken-city --backend dask --scheduler tcp://h:8786")
        kw = sim.call_args.kwargs
        assert {k: kw[k] for k in LOCAL} == {
            **LOCAL,
            "backend": "dask",
            "scheduler": "tcp://h:8786",
        }


def test_simulate_interrupted_renders_the_partial_result(monkeypatch, capsys):
    partial = SimpleNamespace(games=10, games_requested=100)
    with (
        patch.object(runner, "simulate", side_effect=runner.Interrupted(partial)),
        patch.object(render, "simulation_partial") as shown,
        patch.object(render, "simulation") as full,
    ):
        args = ["simulate", "sunken-city", "--checkpoint", "c.json", "--json"]
        code, _, _ = run_main(args, monkeypatch, capsys)
    assert code == 130 and not full.called
    assert shown.call_args.args == (partial, "c.json", True, VERSION, typer.echo)


def test_the_librarys_errors_are_one_line(monkeypatch, capsys):
    """A BalanceError of any kind from the library: one line, exit status 2."""
    for error in (InputError("--threads must be\n at least 1"), RulesError("unknown variant")):
        with patch.object(runner, "simulate", side_effect=error):
            code, out, err = run_main(["simulate", "sunken-city"], monkeypatch, capsys)
        assert code == 2 and out == ""
        assert err == f"error: {' '.join(str(error).split())}\n"


def test_policy_files_are_loaded_before_the_run():
    with patch.object(GameSpec, "add_preset_file") as load, patched(*SIMULATE) as (sim, _):
        invoke("simulate sunken-city --policy-file a.toml --policy-file b.toml --policy a,b,x")
    assert [c.args for c in load.call_args_list] == [("a.toml",), ("b.toml",)]
    assert sim.call_args.kwargs["policies"] == "a,b,x"


# --------------------------------------------------------------------------------- replay
def test_replay(in_tmp):
    rep, shown = call(
        "replay sunken-treasure -n 2 --seed 9 --game 17 -v bank-on-surface "
        "--set sharks_to_attack=2 --policy banker,thief --rotate-seats --format jsonl "
        "--out g17.jsonl",
        (runner, "replay_game"),
        (render, "replay"),
    )
    assert rep.call_args.args == (get_game("sunken-treasure"), 2, 9, 17)
    assert rep.call_args.kwargs == {
        "overrides": {"sharks_to_attack": "2"},
        "variants": ["bank-on-surface"],
        "policies": "banker,thief",
        "rotate_seats": True,
        "version": VERSION,  # the replay's header (provenance)
    }
    assert shown.call_args.args == (RESULT, "jsonl", Path("g17.jsonl"), typer.echo)


# --------------------------------------------------------------------------------- compare
COMPARE = (arms, "run_compare"), (render, "compare")


def test_compare_arms_and_shared_options():
    run, shown = call(
        "compare sunken-city -n 2 -v base -v short+no-chips "
        "--set-arm die=0,1,1,2,2,3,chip_supply=2 --set max_rounds=40 "
        "--policy greedy,balanced --rotate-seats -g 5e3 --seed 4 --threads 1 --json",
        *COMPARE,
    )
    set_arm = Arm(
        "die=0,1,1,2,2,3,chip_supply=2", (), (("die", "0,1,1,2,2,3"), ("chip_supply", "2"))
    )
    both = [Arm("base", ("base",)), Arm("short+no-chips", ("short+no-chips",)), set_arm]
    assert run.call_args.args == (get_game("sunken-city"), 2, both, 5000)
    assert run.call_args.kwargs == {
        "seed": 4,
        "rotate_seats": True,
        "overrides": {"max_rounds": "40"},  # every arm's
        "policies": "greedy,balanced",
        **LOCAL,
        "threads": 1,
    }
    assert shown.call_args.args == (RESULT, True, typer.echo)


def test_compare_without_a_variant_starts_from_the_rulebook():
    run, _ = call("compare sumeria --set-arm rounds=5 --rules-file r.toml", *COMPARE)
    assert [a.label for a in run.call_args.args[2]] == ["base", "rounds=5"]
    assert run.call_args.args[3] == 20_000
    assert run.call_args.kwargs == {
        "seed": 1,
        "rotate_seats": False,
        "overrides": {},
        "rules_file": "r.toml",
        **LOCAL,
    }


# --------------------------------------------------------------------------------- dice, sweep
DICE = (arms, "run_dice"), (render, "dice")


def test_dice():
    run, shown = call(
        "dice sunken-city --players 2,4 --die beige --die 1,1,2,2,3,3 --policy random -g 1e3 "
        "--seed 6 --workers 3 --backend dask",
        *DICE,
    )
    assert run.call_args.args == (get_game("sunken-city"), [2, 4], 1000)
    assert run.call_args.kwargs == {
        "dice": ["beige", "1,1,2,2,3,3"],
        "seed": 6,
        "overrides": {},
        "policies": "random",
        **LOCAL,
        "backend": "dask",
        "workers": 3,
    }
    assert shown.call_args.args == (RESULT, False, typer.echo)
    run, _ = call("dice sunken-city", *DICE)
    assert run.call_args.args == (get_game("sunken-city"), None, 20_000)  # every player count


def test_sweep(in_tmp):
    run, shown = call(
        "sweep sunken-city -n 4 --param chip_supply=0,2 --param 'die=beige;0,1,1,2,2,3' "
        "-v short --metric fpa --metric rounds -g 2.5e3 --out sweep.svg --seed 0",
        (arms, "run_sweep"),
        (render, "sweep"),
    )
    params = ["chip_supply=0,2", "die=beige;0,1,1,2,2,3"]
    assert run.call_args.args == (get_game("sunken-city"), 4, params, 2500)
    assert run.call_args.kwargs == {
        "seed": 0,
        "metrics": ["fpa", "rounds"],
        "overrides": {},
        "variants": ["short"],
        **LOCAL,
    }
    assert shown.call_args.args == (RESULT, ["fpa", "rounds"], Path("sweep.svg"), False, typer.echo)


# --------------------------------------------------------------------------------- report
def test_report(in_tmp, monkeypatch):
    line = "report sumeria --out rep/s -g 4e4 --seed 3 --policy random --threads 1 --strong greedy"
    monkeypatch.setattr(sys, "argv", ["balance", *line.split()])
    play, written = call(line, (report_plan, "play_report"), (report_module, "write_report"))
    assert play.call_args.args == (get_game("sumeria"), 40_000)
    assert play.call_args.kwargs == {
        "seed": 3,
        "policy": "random",
        "echo": cli._progress,  # progress on stderr: stdout says where the report is
        **LOCAL,
        "threads": 1,
        "progress": LINES,  # piped: a line per finished setting
        "players": None,  # every count the game allows
        "variants": None,
        "overrides": {},
        "rules_file": None,
        "strong": "greedy",
        "fix": True,  # how to fix it: a compensation for every count not fair
    }
    assert written.call_args.args == (RESULT, Path("rep/s"))
    assert written.call_args.kwargs == {
        "version": VERSION,
        "command": "balance " + line,
        "echo": cli._progress,
    }


# --------------------------------------------------------------------------------- robustness
ROBUSTNESS = (robustness, "run_robustness"), (render, "robustness")


def test_robustness(in_tmp):
    run, shown = call(
        "robustness sunken-city -n 2,3 -g 1e5 --rules-file mine.toml --setting greedy "
        "--setting dark-b --seed 5 --out rob --checkpoint rob.ckpt --resume --json",
        *ROBUSTNESS,
    )
    assert run.call_args.args == (get_game("sunken-city"), [2, 3], 100_000)
    assert run.call_args.kwargs == {
        "seed": 5,
        "rules_file": "mine.toml",
        "settings": ["greedy", "dark-b"],
        "checkpoint": "rob.ckpt",
        "resume": True,
        **LOCAL,
        "progress": LINES,
        "variants": None,
        "overrides": {},
    }
    # the version reaches the renderer only (robustness.json), not the simulation
    assert shown.call_args.args == (RESULT, Path("rob"), True, VERSION, typer.echo)
    run, shown = call("robustness sumeria", *ROBUSTNESS)
    assert run.call_args.args == (get_game("sumeria"), None, 10_000)  # every player count
    assert run.call_args.kwargs["settings"] is None and shown.call_args.args[1] is None


def test_robustness_ladder_options():
    run, _ = call(
        "robustness pig --ladder --top-budget 8 --search-rungs 2 --search-games 1e3", *ROBUSTNESS
    )
    kw = run.call_args.kwargs
    assert {k: kw[k] for k in ("ladder", "top_budget", "search_rungs", "search_games")} == {
        "ladder": True,
        "top_budget": 8,
        "search_rungs": 2,
        "search_games": 1000,  # 1e3 syntax
    }


# --------------------------------------------------------------------------------- ladder
LADDER = (ladder, "run_ladder"), (ladder_report, "render")


def test_ladder(in_tmp):
    with (
        patch.object(ladder_analysis, "analyse", return_value="analysed") as analysed,
        patch.object(GameSpec, "add_preset_file") as load,
        patched(*LADDER) as (run, shown),
    ):
        invoke(
            "ladder sumeria -n 2 -g 1e4 --search-games 800 --top-budget 64 --search-rungs 3 "
            "--policy greedy --policy search:budget=8,base=random --policy-file mine.toml "
            "-v short --set rounds=5 --compare-variant x --seed 4 --out plot.png "
            "--checkpoint lad.json --json"
        )
    assert [c.args for c in load.call_args_list] == [("mine.toml",)]  # before the run
    assert run.call_args.args == (get_game("sumeria"), 2, 10_000)
    assert run.call_args.kwargs == {
        "search_games": 800,
        "top_budget": 64,
        "search_rungs": 3,
        "compare_variant": "x",
        "policies": ["greedy", "search:budget=8,base=random"],  # one rung each
        "checkpoint": "lad.json",
        "resume": False,
        "overrides": {"rounds": "5"},
        "variants": ["short"],
        "seed": 4,
        **LOCAL,
        "progress": LINES,  # piped: a line per finished match
    }
    assert analysed.call_args.args == (RESULT,)
    assert shown.call_args.args == ("analysed", Path("plot.png"), True, VERSION, typer.echo)


def test_ladder_defaults():
    with patch.object(ladder_analysis, "analyse"), patched(*LADDER) as (run, _):
        invoke("ladder pig")
    assert run.call_args.args == (get_game("pig"), 2, 4000)  # Pig: 2 players
    assert run.call_args.kwargs == {
        "policies": None,
        "checkpoint": None,
        "resume": False,
        "overrides": {},
        "seed": 1,
        **LOCAL,
        "progress": LINES,
    }


# --------------------------------------------------------------------------------- compensate
COMPENSATE = (compensate, "run_compensate"), (compensate_analysis, "render")


def test_compensate(in_tmp):
    run, shown = call(
        "compensate sunken-city -n 3 -g 1e3 --confirm-games 5e4 --level-games 3e3 "
        "--level-screen-games 200 --level-budget 8 --field seat_points --field seat_value "
        "--max-amount 2 --budget 50 --tolerance 2.5 --level balanced --level greedy "
        "--policy greedy --set chip_supply=3 -v short --rules-file r.toml --seed 9 --threads 1 "
        "--checkpoint c.json --resume --json",
        *COMPENSATE,
    )
    assert run.call_args.args == (get_game("sunken-city"), 3)
    assert run.call_args.kwargs == {
        "games": 1000,
        "confirm_games": 50_000,
        "fields": ["seat_points", "seat_value"],
        "max_amount": 2,
        "budget": 50,
        "tolerance": 2.5,
        "levels": ["balanced", "greedy"],
        "ladder": False,
        "level_games": 3000,
        "level_screen_games": 200,
        "level_budget": 8,
        "policy": "greedy",
        "echo": cli._progress,  # a line per finished stage, on stderr
        "overrides": {"chip_supply": "3"},
        "variants": ["short"],
        "rules_file": "r.toml",
        "checkpoint": "c.json",
        "resume": True,
        "seed": 9,
        **LOCAL,
        "threads": 1,
    }
    assert shown.call_args.args == (RESULT, None, True, typer.echo)


def test_compensate_defaults():
    run, shown = call("compensate sumeria --ladder", *COMPENSATE)
    assert run.call_args.args == (get_game("sumeria"), 3)
    assert run.call_args.kwargs == {
        "games": 2000,
        "confirm_games": 100_000,
        "fields": None,
        "max_amount": None,
        "budget": 300,
        "tolerance": TOLERANCE,
        "levels": None,
        "ladder": True,  # every rung of the ladder
        "level_games": 2000,
        "level_screen_games": 400,
        "level_budget": 24,
        "policy": None,
        "echo": cli._progress,
        "overrides": {},
        "checkpoint": None,
        "resume": False,
        "seed": 1,
        **LOCAL,
    }
    assert shown.call_args.args == (RESULT, None, False, typer.echo)


def test_progress_lines_go_to_stderr(capsys):
    cli._progress("baseline: 2,000 games played")
    assert capsys.readouterr() == ("", "baseline: 2,000 games played\n")


# --------------------------------------------------------------------------------- tuning
def test_tune_players(in_tmp, monkeypatch):
    line = (
        "tune-players sunken-city -n 4 --out w.toml --name mine --policy greedy --budget 1e2 "
        "--confirm-games 2e4 --join --storage s.db --study st --confirm-top 2 -v short "
        "--set chip_supply=3 --seed 8"
    )
    monkeypatch.setattr(sys, "argv", ["balance", *line.split()])
    tune, shown = call(
        line, (tune_players, "tune_players"), (tuning_tables, "render_player_tuning")
    )
    assert tune.call_args.args == (get_game("sunken-city"), 4, "w.toml")
    assert tune.call_args.kwargs == {
        "policy": "greedy",
        "name": "mine",
        "budget": 100,
        "confirm_games": 20_000,  # --games-per-trial not given: the library's default
        "top": 2,
        "storage": "s.db",
        "study": "st",
        "join": True,
        "seed": 8,
        "command": "balance " + line,
        "version": VERSION,  # written into the preset file
        "overrides": {"chip_supply": "3"},
        "variants": ["short"],
        **LOCAL,
    }
    assert shown.call_args.args == (RESULT, False, typer.echo)


def test_tune_rules(in_tmp):
    tune, shown = call(
        "tune sunken-city --param streets_space1=15..30 --param die=a,b --objective seat-gap "
        "--objective length=9 --constraint 'rounds<=12' --games-per-trial 1e3 --policy random "
        "--plot front.png --json",
        (tune_rules, "tune_rules"),
        (tuning_tables, "render_rules_tuning"),
    )
    params, objectives = ["streets_space1=15..30", "die=a,b"], ["seat-gap", "length=9"]
    assert tune.call_args.args == (get_game("sunken-city"), 3, params, objectives)
    assert tune.call_args.kwargs == {
        "constraints": ["rounds<=12"],
        "games_per_trial": 1000,
        "top": 3,
        "storage": None,
        "study": None,
        "join": False,
        "seed": 1,
        "overrides": {},
        "policies": "random",
        **LOCAL,
    }
    assert shown.call_args.args == (RESULT, Path("front.png"), True, typer.echo)


# --------------------------------------------------------------------------------- bench, games
def test_bench(in_tmp):
    line = "bench sumeria -g 2e4 --runs 3 --policy chaser --full --json"
    measure, shown = call(line, (bench, "bench"), (render, "bench"))
    assert measure.call_args.args == (get_game("sumeria"), 20_000, 3)
    assert measure.call_args.kwargs == {"policy": "chaser", "full": True, "echo": typer.echo}
    assert shown.call_args.args == (RESULT, True, typer.echo)


def test_games():
    with patch.object(render, "games") as shown:
        invoke("games --json")
    assert shown.call_args.args == (all_games(), True, typer.echo)
